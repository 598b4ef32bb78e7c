"""What a deck's SVG templates may draw in one build, counted as their rows are rendered.

svglib takes about 1.5 ms an element, so a small template whose rows each draw thousands of
elements would run for hours; counting each distinct picture as it is rendered (lxml and a walk,
some 2 % of svglib's time) refuses such a deck in seconds, at the row where it passes the budget.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_DECK_SVG_ELEMENTS = 200_000  # in all distinct pictures of one build: about five minutes of svglib


@dataclass
class TemplateBudget:
    """A `render_values` check: each distinct picture an SVG template makes is measured, and the
    deck refused once they draw more than MAX_DECK_SVG_ELEMENTS, or one costs more than art may."""

    keys: list[tuple[Any, ...]]  # the batch's expressions' keys, in order: ("back", "template"), ...
    templates: dict[str, Path]  # each side's SVG template file
    folder: Path | None  # where linked files must lie (None: anywhere)
    total: int = 0

    def __call__(self, index: int, text: str) -> str | None:
        from printgen.art.measure import TooCostly, measure_svg
        from printgen.art.svg import undrawable_text
        from printgen.art.svgtree import parse

        key = self.keys[index]
        if key[1:] != ("template",):
            return None
        path = self.templates[key[0]]
        try:
            tree = parse(path, text.encode("utf-8"))
            self.total += measure_svg(tree, path, self.folder).elements
        except TooCostly as exc:
            return f"the SVG it made for this row: {exc}"
        except ValueError:  # not SVG at all: drawing the row says so, at every row it happens
            return None
        boxed = undrawable_text(tree)
        if boxed is not None:
            return f"the SVG it made for this row, at its line {boxed[0]}: {boxed[1]}"
        if self.total > MAX_DECK_SVG_ELEMENTS:
            return (f"the distinct pictures of the rows up to this one draw {self.total:,} SVG elements; one "
                    f"build draws at most {MAX_DECK_SVG_ELEMENTS:,} (svglib takes about 1.5 ms each): make "
                    "the template draw fewer elements, or let rows share one picture")
        return None
