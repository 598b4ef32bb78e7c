"""The keys pieces drawn from templates are kept by (games.pieces, games.piececache), and what a
process that rebuilds keeps of them so as not to work them out again."""
from __future__ import annotations

import hashlib
import json
import pickle
from collections import OrderedDict
from typing import Any, Sequence

from printgen.core.fingerprint import caching_off
from printgen.jinja.plaindata import plain

# A batch's keys by its template and the pickled contexts and boxes of its pieces, and each piece's
# memory key by its parts: a rebuild asks again for the 144 faces it drew last time, and working
# their keys out afresh (plain data, JSON, SHA-256) took longer than drawing what changed. Equal
# pickles hold equal values of equal types, so they give the same plain data and the same keys.
BATCH_KEYS: OrderedDict[tuple[str, bytes], list[str]] = OrderedDict()
MOST_BATCHES = 16
MOST_SIGNATURE = 1 << 20  # bytes: a larger batch (a deck of thousands of cards) is not kept
MEMORY_KEYS: dict[tuple[str, str, str], str] = {}
MOST_KEYS = 8192


def keys_of(name: str, pieces: Sequence[Any]) -> list[str]:
    """`key_of` each piece (a `pieces.Piece`: context, width, height) of a batch of template
    `name`, kept for the same batch asked again."""
    try:
        signature = None if caching_off() else \
            (name, pickle.dumps([(piece.context, piece.width, piece.height) for piece in pieces], protocol=5))
    except Exception:  # noqa: BLE001 - something in a context that does not pickle: worked out afresh
        signature = None
    if signature is not None and len(signature[1]) > MOST_SIGNATURE:
        signature = None
    keys = None if signature is None else BATCH_KEYS.get(signature)
    if keys is None:
        keys = [key_of(name, plain(dict(piece.context)), piece.width, piece.height) for piece in pieces]
        if signature is not None:
            BATCH_KEYS[signature] = keys
            while len(BATCH_KEYS) > MOST_BATCHES:
                BATCH_KEYS.popitem(last=False)
    else:
        BATCH_KEYS.move_to_end(signature)  # type: ignore[arg-type]
    return keys


def key_of(name: str, data: Any, width: float, height: float) -> str:
    """What tells two pieces apart: the template, the plain data it is given and the box."""
    data = json.dumps([name, data, width, height], sort_keys=True)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()
