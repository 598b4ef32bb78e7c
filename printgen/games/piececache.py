"""What decides a drawn piece, as one SHA-256, and the drawn pieces kept by it: in this process
(`build --watch` and `serve` rebuild in one process) and on disk across runs (`core.diskcache`).

A piece template's drawing is fixed by: the template's text and every template it may include or
import (any file in the search folders: the `--templates` folders, the definition's `templates:`
folder, the bundled templates), the plain data it is given (the piece's own and the definition as
`d`), the piece's box, the fonts its text may use (a user's font by its file's SHA-256), and the
code that renders, converts and pickles (printgen's own modules and the installed svglib,
reportlab, Jinja, lxml and Pillow, by their files' sizes and times). All of that goes into the key;
a search folder too big to hash quickly (`MAX_FILES`, `MAX_BYTES`) makes the build uncacheable, so
it is drawn as before. Nothing is trusted for being in a cache: an entry on disk is read with
`art.drawingdata`'s restricted loader and checked like a child's answer.
"""
from __future__ import annotations

import json
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from printgen.core.fingerprint import code_fingerprint, digest, templates_digest

FORMAT = "printgen-pieces-1"
AREA = "pieces"  # the folder under the cache (core.diskcache)
MEMORY_PIECES = 4096  # drawn pieces kept in this process, the least recently used dropped first


@dataclass(frozen=True)
class Drawn:
    """One piece as its template drew it: svglib's drawing (points, its y flip inside) and what
    drawing it noticed, so a piece from a cache is warned about as one drawn now."""

    drawing: Any
    findings: tuple[tuple[str, str], ...]  # (feature svglib leaves out, what is lost)
    notes: tuple[str, ...]  # svglib's own messages


MEMORY: OrderedDict[str, Drawn] = OrderedDict()


def enabled() -> bool:
    return os.environ.get("PRINTGEN_NO_CACHE") != "1"


def recall(key: str) -> Drawn | None:
    found = MEMORY.get(key)
    if found is not None:
        MEMORY.move_to_end(key)
    return found


def remember(key: str, drawn: Drawn) -> None:
    MEMORY[key] = drawn
    MEMORY.move_to_end(key)
    while len(MEMORY) > MEMORY_PIECES:
        MEMORY.popitem(last=False)


def environment_key(user_dirs: Iterable[Path], bundled: Path, common: Any,
                    user_fonts: Mapping[str, str]) -> str | None:
    """What every piece of one build shares: code, templates, fonts and the definition's data;
    None when the search folders are too big to hash (then nothing is cached)."""
    from printgen.drawing.fonts import USER_DIGESTS

    templates = templates_digest(user_dirs, bundled)
    if templates is None:
        return None
    fonts = sorted((name, family, USER_DIGESTS.get(name, "")) for name, family in user_fonts.items())
    return digest(FORMAT, code_fingerprint(), templates, common, fonts)


def unpack(jobs: Sequence[tuple[str, Mapping[str, Any]]], blob: bytes) -> dict[str, Drawn]:
    """Each wanted piece's drawing and findings, from what `pieces.draw_here` sent (or the disk cache
    kept: read the same way, with drawing classes only, and checked as strictly)."""
    from reportlab.graphics.shapes import Drawing

    from printgen.art import drawingdata

    *drawings, meta = drawingdata.loads(blob)
    reports = json.loads(meta)
    if not isinstance(reports, list) or len(reports) != len(jobs):
        raise ValueError("the drawn pieces do not match the pieces asked for")
    made: dict[str, Drawn] = {}
    for (_, wanted), report in zip(jobs, reports):
        index = report["index"]
        if len(index) != len(wanted):
            raise ValueError("the drawn pieces do not match the pieces asked for")
        for j, (key, i) in enumerate(zip(wanted, index)):
            drawing = drawings[i]
            if not isinstance(drawing, Drawing):
                raise ValueError("a drawn piece is not a drawing")
            findings = tuple((str(feature), str(what)) for feature, what in report["findings"][j])
            made[key] = Drawn(drawing, findings, tuple(str(note) for note in report["notes"][j]))
    return made


def load(key: str) -> bytes | None:
    from printgen.core import diskcache

    return diskcache.load(AREA, key) if enabled() else None


def store(key: str, blob: bytes) -> None:
    from printgen.core import diskcache

    if enabled():
        diskcache.store(AREA, key, blob)
