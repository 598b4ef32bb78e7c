"""What a piece template's bounded child does (games.pieces starts it): render every piece, then
measure, scan and convert each distinct SVG once, and send the drawings back pickled."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from printgen.core.problems import DefinitionError, Problem, display_name


def shown_name(path: Path) -> str:
    """A template's file as messages show it: printgen's own by its place in the package
    (`templates/fracas/token-back.svg.j2`), wherever printgen is installed; a user's as
    display_name shows any file."""
    from printgen.core.bundled import shown_name as bundled_name

    return bundled_name(path) or display_name(path)


def draw_here(work: list[tuple[str, Path, list[dict[str, Any]], list[str]]], user_dirs: list[Path],
              seconds: float, common: dict[str, Any], user_fonts: dict[str, str],
              known_reads: dict[str, list[str]] | None = None) -> bytes:
    """In the bounded child, for each (template, its file, contexts, labels): render every piece,
    then measure, scan and convert each distinct SVG once. Returns the pickled drawings followed by
    a JSON report per template (which drawing each piece uses, what svglib leaves out, the names
    it reads: from `known_reads` when the parent knew them)."""
    from printgen.art import drawingdata
    from printgen.art.svg import embedded_fonts

    fonts = embedded_fonts(user_fonts)
    drawings: list[Any] = []
    reports = []
    for name, path, contexts, labels in work:
        reports.append(draw_one(name, path, contexts, labels, user_dirs, seconds, common, fonts, drawings,
                                (known_reads or {}).get(name)))
    return drawingdata.dumps((*drawings, json.dumps(reports)))


def draw_one(name: str, path: Path, contexts: list[dict[str, Any]], labels: list[str], user_dirs: list[Path],
             seconds: float, common: dict[str, Any], fonts: Any, drawings: list[Any],
             known_reads: list[str] | None = None) -> dict[str, Any]:
    """One template's pieces, their drawings appended to `drawings`; its report."""
    from printgen.art.measure import measure_svg
    from printgen.art.svg import scan
    from printgen.art.svgbatch import BatchConverter
    from printgen.art.svgtree import parse
    from printgen.jinja.reads import names_read
    from printgen.jinja.render import render_each

    texts = render_each(name, contexts, user_dirs, seconds, labels, common)
    converter = BatchConverter(path, path.parent, fonts)
    distinct: dict[str, int] = {}
    findings: dict[int, list[tuple[str, str]]] = {}
    notes: dict[int, list[str]] = {}
    for text, label in zip(texts, labels):
        if text in distinct:
            continue
        distinct[text] = len(drawings)
        data = text.encode("utf-8")
        try:
            tree = parse(path, data)
            measure_svg(tree, path, path.parent)
            drawing = converter.convert(data, tree)
        except ValueError as exc:  # an SVG svglib cannot read, or one too costly to draw
            raise DefinitionError([Problem(shown_name(path), 1, "", f"template error (for {label}): "
                                           f"the SVG it made: {exc}")]) from None
        seen: dict[str, str] = {}
        for found in scan(tree):
            if found.feature != "text":  # text is set in the embedded fonts here
                seen.setdefault(found.feature, found.what)
        findings[len(drawings)], notes[len(drawings)] = list(seen.items()), converter.notes
        drawings.append(drawing)
    # per piece, so a piece taken from a cache later brings its own warnings
    index = [distinct[t] for t in texts]
    return {"index": index, "findings": [findings[i] for i in index], "notes": [notes[i] for i in index],
            "reads": known_reads if known_reads is not None else names_read(name, user_dirs)}
