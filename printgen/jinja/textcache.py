"""Rendered texts (rules, reference sheets) kept by what decides them: in this process for the
rebuilds of `build --watch` and `serve`, and on disk across runs (`core.diskcache`).

A text is fixed by the template's name, every template in the search folders (it may include or
import any of them), the plain data it is given and the code that renders it
(`core.fingerprint`). Only a text that rendered without a problem is kept; it comes back as the
same string, so whatever reads it (the markup checks, reportlab's paragraphs) sees what the child
sent. An entry on disk is UTF-8 text, never a pickle, and one that fails its digest or its
decoding is ignored.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from printgen.core.fingerprint import caching_off, code_fingerprint, digest, templates_digest

FORMAT = "printgen-text-1"
AREA = "texts"
MEMORY_TEXTS = 256
MEMORY: OrderedDict[str, str] = OrderedDict()


def key_of(name: str, data: Any, folders: list[Path], bundled: Path) -> str | None:
    """The text's key, or None when nothing may be cached (PRINTGEN_NO_CACHE=1, or folders too
    big to fingerprint)."""
    if caching_off():
        return None
    templates = templates_digest(folders, bundled)
    return None if templates is None else digest(FORMAT, code_fingerprint(), templates, name, data)


def recall(key: str) -> str | None:
    from printgen.core import diskcache

    text = MEMORY.get(key)
    if text is None:
        stored = diskcache.load(AREA, key)
        try:
            text = None if stored is None else stored.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is None:
            return None
    remember(key, text, disk=False)
    return text


def remember(key: str, text: str, disk: bool = True) -> None:
    from printgen.core import diskcache

    MEMORY[key] = text
    MEMORY.move_to_end(key)
    while len(MEMORY) > MEMORY_TEXTS:
        MEMORY.popitem(last=False)
    if disk:
        diskcache.store(AREA, key, text.encode("utf-8"))
