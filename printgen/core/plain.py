"""What a child process sends back, as plain data and nothing else: JSON, which cannot name code, and
rebuilt on arrival only as the kind the receiving code asks for (`as_kind`), never by anything the
answer says. A dict with text keys travels as an object, any other as [key, value] pairs (so an int
key stays an int), bytes as base64, tuples as lists and dataclasses as objects; what does not fit
the kind asked for is a ValueError.
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
import types
import typing
from typing import Any, Union

JSON_SCALARS = (bool, int, float, str, type(None))


def plain(value: Any) -> Any:
    """`value` as JSON data (for `json.dumps`); TypeError for anything that is not plain data."""
    if isinstance(value, JSON_SCALARS):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, (list, tuple)):
        return [plain(each) for each in value]
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value):
            return {key: plain(each) for key, each in value.items()}
        return [[plain(key), plain(each)] for key, each in value.items()]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"not plain data: {type(value).__name__}")


def as_kind(data: Any, kind: Any) -> Any:
    """JSON `data` rebuilt as `kind` (a type hint: scalars, bytes, list/tuple/dict of kinds, unions,
    dataclasses; `Any` takes the JSON as it came); ValueError when it is not of that kind."""
    hints: dict[type, dict[str, Any]] = {}  # each dataclass's field types, looked up once a call

    def built(item: Any, hint: Any) -> Any:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint is Any or hint is object:
            return item
        if origin in (Union, types.UnionType):
            for choice in args:
                try:
                    return built(item, choice)
                except ValueError:
                    continue
            raise ValueError(f"{type(item).__name__} is none of {hint}")
        if hint is type(None) or hint is None:
            if item is None:
                return None
        elif hint is bytes:
            if isinstance(item, str):
                try:
                    return base64.b64decode(item, validate=True)
                except binascii.Error:
                    pass
        elif hint is float:
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                return float(item)
        elif hint in (bool, int, str):
            if type(item) is hint:
                return item
        elif origin is list and isinstance(item, list):
            return [built(each, args[0] if args else Any) for each in item]
        elif origin is tuple and isinstance(item, list):
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(built(each, args[0]) for each in item)
            if len(args) == len(item):
                return tuple(built(each, choice) for each, choice in zip(item, args))
        elif origin is dict and isinstance(item, (list, dict)):
            key, value = args or (Any, Any)
            pairs = list(item.items()) if isinstance(item, dict) else item
            if all(isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in pairs):
                return {built(k, key): built(v, value) for k, v in pairs}
        elif isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(item, dict):
            if hint not in hints:
                hints[hint] = typing.get_type_hints(hint)
            fields = {f.name for f in dataclasses.fields(hint) if f.init}
            if set(item) == fields:
                return hint(**{name: built(value, hints[hint][name]) for name, value in item.items()})
        raise ValueError(f"{type(item).__name__} is not {getattr(hint, '__name__', hint)}")

    return built(data, kind)
