"""Results sent back by a helper process as plain data, never as a pickle: a helper runs work on
untrusted input, so its answer is JSON plus the bytes it holds, which cannot name code. Tuples, dicts,
bytes and dataclasses keep their kind; a dataclass comes back only as one of the classes the
receiver's own code expects (`kinds`, matched by field names); anything else is a ValueError.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Iterable

KNOWN = (bool, int, float, str, type(None))


def encode(value: Any) -> bytes:
    """`value` as one JSON line followed by the bytes it holds; TypeError for anything else."""
    blobs: list[bytes] = []

    def plain(item: Any) -> Any:
        if isinstance(item, KNOWN):
            return item
        if isinstance(item, (bytes, bytearray, memoryview)):
            blobs.append(bytes(item))
            return {"b": len(blobs[-1])}
        if isinstance(item, list):
            return [plain(each) for each in item]
        if isinstance(item, tuple) and not hasattr(item, "_fields"):
            return {"t": [plain(each) for each in item]}
        if isinstance(item, dict):
            return {"d": [[plain(k), plain(v)] for k, v in item.items()]}
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return {"c": [[f.name, plain(getattr(item, f.name))] for f in dataclasses.fields(item)]}
        raise TypeError(f"not plain data: {type(item).__name__}")

    head = json.dumps(plain(value), ensure_ascii=True, separators=(",", ":")).encode()
    return head + b"\n" + b"".join(blobs)


def decode(data: bytes, kinds: Iterable[type] = ()) -> Any:
    """What `encode` made, rebuilt; a dataclass only as one of `kinds` with the same field names."""
    by_fields = {tuple(f.name for f in dataclasses.fields(kind)): kind for kind in kinds}
    head, _, rest = data.partition(b"\n")
    tree = json.loads(head)
    at = 0

    def built(item: Any) -> Any:
        nonlocal at
        if isinstance(item, KNOWN):
            return item
        if isinstance(item, list):
            return [built(each) for each in item]
        if not isinstance(item, dict) or len(item) != 1:
            raise ValueError("not what encode makes")
        (tag, inner), = item.items()
        if tag == "b" and isinstance(inner, int) and 0 <= inner <= len(rest) - at:
            at += inner
            return rest[at - inner:at]
        if tag in ("t", "d", "c") and isinstance(inner, list):
            parts = [built(each) for each in inner]
            if tag == "t":
                return tuple(parts)
            if not all(isinstance(pair, list) and len(pair) == 2 for pair in parts):
                raise ValueError("not what encode makes")
            if tag == "d":
                return {key: value for key, value in parts}
            kind = by_fields.get(tuple(name for name, _ in parts))
            if kind is not None:
                return kind(**{name: value for name, value in parts})
            raise ValueError("a record of a kind the receiver does not expect")
        raise ValueError("not what encode makes")

    value = built(tree)
    if at != len(rest):
        raise ValueError("bytes left over")
    return value
