"""What decides a drawn piece, as one SHA-256, and the drawn pieces kept by it: in this process
(`build --watch` and `serve` rebuild in one process) and on disk across runs (`core.diskcache`).

A piece template's drawing is fixed by: the template's text and every template it may include or
import (any file in the search folders: the `--templates` folders, the definition's `templates:`
folder, the bundled templates), the plain data it is given (the piece's own and the definition as
`d`), the piece's box, the fonts its text may use (a user's font by its file's SHA-256), and the
code that renders, converts and pickles (printgen's own modules and the installed svglib,
reportlab, Jinja, lxml and Pillow; `core.fingerprint`). All of that goes into the key;
a search folder too big to hash quickly (`MAX_FILES`, `MAX_BYTES`) makes the build uncacheable, so
it is drawn as before. Nothing is trusted for being in a cache: an entry on disk is read with
`art.drawingdata`'s restricted loader and checked like a child's answer.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from printgen.core.fingerprint import caching_off, code_fingerprint, digest, templates_digest

FORMAT = "printgen-pieces-2"
AREA = "pieces"  # the folder under the cache (core.diskcache)
READS_AREA = "reads"  # the names each template reads, as JSON
MEMORY_PIECES = 4096  # drawn pieces kept in this process, the least recently used dropped first


@dataclass(frozen=True)
class Drawn:
    """One piece as its template drew it: svglib's drawing (points, its y flip inside) and what
    drawing it noticed, so a piece from a cache is warned about as one drawn now."""

    drawing: Any
    findings: tuple[tuple[str, str], ...]  # (feature svglib leaves out, what is lost)
    notes: tuple[str, ...]  # svglib's own messages


MEMORY: OrderedDict[str, Drawn] = OrderedDict()
READS: dict[str, list[str] | None] = {}  # digest(base, template) -> the free names it may read


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


def environment_key(user_dirs: Iterable[Path], bundled: Path, user_fonts: Mapping[str, str]) -> str | None:
    """What every piece of one build shares: code, templates and fonts (the definition's data
    comes in per template, by `common_part`); None when the search folders are too big to hash
    (then nothing is cached)."""
    from printgen.drawing.fonts import USER_DIGESTS

    templates = templates_digest(user_dirs, bundled)
    if templates is None:
        return None
    fonts = sorted((name, family, USER_DIGESTS.get(name, "")) for name, family in user_fonts.items())
    return digest(FORMAT, code_fingerprint(), templates, fonts)


def reads(base: str, name: str) -> list[str] | None:
    """The names template `name` may read, as its child found them (this process, else the disk);
    None when not known or when it may read anything."""
    key = digest("reads", base, name)
    if key not in READS:
        stored = load(key, READS_AREA)
        try:
            found = None if stored is None else json.loads(stored.decode("utf-8"))
        except ValueError:
            found = None
        if isinstance(found, list) and all(isinstance(item, str) for item in found):
            READS[key] = found
        else:
            return None
    return READS[key]


def learn(base: str, name: str, names: list[str] | None) -> None:
    key = digest("reads", base, name)
    if READS.get(key, 0) != names:
        READS[key] = names
        if names is not None:
            store(key, json.dumps(names).encode("utf-8"), READS_AREA)


def ready_for_child(base: str | None, names: list[str], user_dirs: Sequence[Path]) -> dict[str, list[str]]:
    """Before a piece child is forked, what it would otherwise do again each time: import what
    drawing uses (svglib, ~7 ms), compile printgen's own templates (`render.compile_bundled`).
    Returns the names each template reads where an earlier child of a build just like this one
    (`base`: same code, templates and fonts) found them, so the child need not parse it again."""
    import svglib.svglib  # noqa: F401

    import printgen.art.svg  # noqa: F401
    import printgen.art.svgbatch  # noqa: F401
    import printgen.jinja.reads  # noqa: F401
    from printgen.jinja.render import compile_bundled

    for name in names:
        compile_bundled(name, user_dirs)
    found = {name: reads(base, name) for name in names} if base is not None else {}
    return {name: names_read for name, names_read in found.items() if names_read is not None}


def common_part(base: str, name: str, common: Mapping[str, Any], memo: dict[Any, str]) -> str:
    """The digest of what of the data every piece sees (the definition as `d`) can change template
    `name`'s drawing: all of it, unless its child found which names the template reads. `memo`
    (one a build) keeps the definition from being hashed again for every piece."""
    names = reads(base, name)
    key = (name, None if names is None else tuple(names))
    if key not in memo:
        memo[key] = digest(dict(common) if names is None else {k: v for k, v in common.items() if k in names})
    return memo[key]


def unpack(jobs: Sequence[tuple[str, Mapping[str, Any]]], blob: bytes) -> tuple[dict[str, Drawn], list[Any]]:
    """Each wanted piece's drawing and findings, and for each job the names its template may
    read, from what `piecechild.draw_here` sent (or the disk cache kept: read the same way, with
    drawing classes only, and checked as strictly)."""
    from reportlab.graphics.shapes import Drawing

    from printgen.art import drawingdata

    *drawings, meta = drawingdata.loads(blob)
    reports = json.loads(meta)
    if not isinstance(reports, list) or len(reports) != len(jobs):
        raise ValueError("the drawn pieces do not match the pieces asked for")
    made: dict[str, Drawn] = {}
    names: list[Any] = []
    for (_, wanted), report in zip(jobs, reports):
        found = report["reads"]
        if found is not None and not (isinstance(found, list) and all(isinstance(n, str) for n in found)):
            raise ValueError("the names a template reads are not a list of names")
        names.append(found)
        index = report["index"]
        if len(index) != len(wanted):
            raise ValueError("the drawn pieces do not match the pieces asked for")
        for j, (key, i) in enumerate(zip(wanted, index)):
            drawing = drawings[i]
            if not isinstance(drawing, Drawing):
                raise ValueError("a drawn piece is not a drawing")
            findings = tuple((str(feature), str(what)) for feature, what in report["findings"][j])
            made[key] = Drawn(drawing, findings, tuple(str(note) for note in report["notes"][j]))
    return made, names


def job_key(base: str, job: tuple[str, Mapping[str, Any]], common: Mapping[str, Any], memo: dict[Any, str]) -> str:
    name, wanted = job
    return digest(base, name, list(wanted), common_part(base, name, common, memo))


def recalled_job(base: str, job: tuple[str, Mapping[str, Any]], common: Mapping[str, Any],
                 memo: dict[Any, str]) -> dict[str, Drawn] | None:
    """One template's pieces as the disk cache kept them; None when not there, or not trusted."""
    blob = load(job_key(base, job, common, memo))
    if blob is None:
        return None
    try:
        made, names = unpack([job], blob)
    except Exception:  # noqa: BLE001 - a foreign or damaged entry: draw again
        return None
    learn(base, job[0], names[0])
    return made


def keep_job(base: str, job: tuple[str, Mapping[str, Any]], common: Mapping[str, Any], memo: dict[Any, str],
             drawn: Mapping[str, Drawn], read: list[str] | None) -> None:
    """One template's pieces kept on disk, as the child sends them (`unpack` reads them back)."""
    from printgen.art import drawingdata

    if caching_off():
        return
    drawings: dict[int, int] = {}
    for key in job[1]:
        drawings.setdefault(id(drawn[key].drawing), len(drawings))
    ordered = {id(drawn[key].drawing): drawn[key].drawing for key in job[1]}
    report = {"index": [drawings[id(drawn[key].drawing)] for key in job[1]],
              "findings": [[list(item) for item in drawn[key].findings] for key in job[1]],
              "notes": [list(drawn[key].notes) for key in job[1]], "reads": read}
    store(job_key(base, job, common, memo), drawingdata.dumps((*ordered.values(), json.dumps([report]))))


def load(key: str, area: str = AREA) -> bytes | None:
    from printgen.core import diskcache

    return diskcache.load(area, key)


def store(key: str, blob: bytes, area: str = AREA) -> None:
    from printgen.core import diskcache

    diskcache.store(area, key, blob)
