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

import hashlib
import importlib.util
import json
import os
import sys
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

FORMAT = "printgen-pieces-1"
AREA = "pieces"  # the folder under the cache (core.diskcache)
MAX_FILES = 2000  # files in all search folders together, hashed for each build
MAX_BYTES = 32 * 1024 * 1024
MEMORY_PIECES = 4096  # drawn pieces kept in this process, the least recently used dropped first
# printgen's own code that decides a drawing (by file size and time: edits while developing count)
OWN_CODE = ("art", "jinja", "drawing", "core/bounded.py", "core/diskcache.py", "games/pieces.py",
            "games/piececache.py")
LIBRARIES = ("svglib", "reportlab", "reportlab.graphics", "jinja2", "lxml", "PIL")


@dataclass(frozen=True)
class Drawn:
    """One piece as its template drew it: svglib's drawing (points, its y flip inside) and what
    drawing it noticed, so a piece from a cache is warned about as one drawn now."""

    drawing: Any
    findings: tuple[tuple[str, str], ...]  # (feature svglib leaves out, what is lost)
    notes: tuple[str, ...]  # svglib's own messages


MEMORY: OrderedDict[str, Drawn] = OrderedDict()
_CODE: list[str] = []  # the code's fingerprint, taken once per process


def enabled() -> bool:
    return os.environ.get("PRINTGEN_NO_CACHE") != "1"


def digest(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


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

    templates = [folder_digest(Path(folder), False) for folder in user_dirs]
    templates.append(folder_digest(bundled, True))
    if any(t is None for t in templates) or sum(t[1] for t in templates if t) > MAX_FILES:
        return None
    fonts = sorted((name, family, USER_DIGESTS.get(name, "")) for name, family in user_fonts.items())
    return digest(FORMAT, code_fingerprint(), [t[0] for t in templates if t], common, fonts)


def folder_digest(folder: Path, templates_only: bool) -> tuple[str, int] | None:
    """The SHA-256 of every file under `folder` (its path, and its bytes or where its link
    points) and how many there were; None past MAX_FILES or MAX_BYTES. `templates_only`: only
    `.j2` files count (the bundled folder, where templates sit beside code)."""
    where = os.path.abspath(folder)
    hasher = hashlib.sha256(where.encode("utf-8", "surrogateescape"))
    count = size = 0
    if not os.path.isdir(where):
        return hasher.hexdigest() + ":absent", 0
    for top, dirs, files in os.walk(where):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            if templates_only and not name.endswith(".j2"):
                continue
            path = os.path.join(top, name)
            count += 1
            if count > MAX_FILES:
                return None
            hasher.update(b"\0" + os.path.relpath(path, where).encode("utf-8", "surrogateescape") + b"\0")
            try:
                if os.path.islink(path):
                    hasher.update(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape"))
                    continue
                with open(path, "rb") as stream:
                    data = stream.read(MAX_BYTES - size + 1)
            except OSError as exc:
                hasher.update(f"unreadable:{exc.errno}".encode())
                continue
            size += len(data)
            if size > MAX_BYTES:
                return None
            hasher.update(hashlib.sha256(data).digest())
    return hasher.hexdigest(), count


def code_fingerprint() -> str:
    """printgen's drawing code and the libraries it calls, by their files' names, sizes and times
    (never importing a library to ask its version: svglib alone takes 0.05 s)."""
    if not _CODE:
        own = Path(__file__).resolve().parents[1]
        places = [own / part for part in OWN_CODE]
        for name in LIBRARIES:
            spec = importlib.util.find_spec(name) if "." not in name or name.split(".")[0] in sys.modules \
                else None
            if spec is not None and spec.origin:
                places.append(Path(spec.origin).parent)
        from printgen.core.fontfiles import font_dir

        places.append(font_dir())
        seen = []
        for place in places:
            try:
                names = sorted(os.listdir(place)) if place.is_dir() else [""]
                for name in names:
                    info = os.stat(place / name) if name else os.stat(place)
                    seen.append([str(place / name), info.st_size, info.st_mtime_ns])
            except OSError:
                seen.append([str(place), "unreadable"])
        _CODE.append(digest(sys.version, sys.platform, seen))
    return _CODE[0]


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
