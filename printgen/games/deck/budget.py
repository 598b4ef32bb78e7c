"""How many elements a deck may draw, counted before anything is drawn.

A layout may extend a chain of layouts that each repeat a list through a YAML alias, so a 15 KB
definition can ask for 4,000 elements on every card; drawing and writing an element takes about
0.1 ms, so such a deck of 2,000 cards would run for a quarter of an hour. The elements a side's
layout holds (its own and all it inherits, whether or not `when:` shows them) are counted once per
layout, and every row's face and back are added up, copies not counted (a card's copies are drawn
once and placed again). What an SVG template draws is counted apart (values.TemplateBudget)."""
from __future__ import annotations

from typing import Iterable, Sequence

from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import Loc
from printgen.games.deck.layouts import resolved
from printgen.games.deck.model import Deck
from printgen.games.deck.rows import Row
from printgen.games.deck.values import RowValues

MAX_SIDE_ELEMENTS = 1_000  # on one side of one card; the sample deck draws 12
MAX_BUILD_ELEMENTS = 1_000_000  # every row's face and back: about 100 s of drawing


def check_drawn(defn: Deck) -> Iterable[tuple[Loc, str]]:
    """A named layout that, with what it inherits, draws more than a side may (a side written in
    place holds at most 200), told once: at the first layout of a chain to pass the limit."""
    named, _ = resolved(defn)
    for name, layout in named.items():
        count, parent = len(layout.elements), named.get(defn.layouts[name].extends or "")
        if count > MAX_SIDE_ELEMENTS and (parent is None or len(parent.elements) <= MAX_SIDE_ELEMENTS):
            key = "extends" if defn.layouts[name].extends is not None else "layout"
            yield ("layouts", name, key), (
                f"this layout draws {count:,} elements with those it inherits; one side of a card draws at "
                f"most {MAX_SIDE_ELEMENTS:,} (each takes about 0.1 ms on every card): extend fewer layouts, "
                "or draw fewer elements")


def count_drawn(rows: Sequence[Row], values: Sequence[RowValues]) -> int:
    """The elements every row's face and back draw, or a DefinitionError at the row that passes
    MAX_BUILD_ELEMENTS."""
    total = 0
    for row, value in zip(rows, values):
        total += sum(len(side.elements) for side in value.sides.values())
        if total > MAX_BUILD_ELEMENTS:
            raise DefinitionError([Problem(row.file, row.line, "", (
                f"row {row.index + 1}: the faces and backs of the rows up to this one draw {total:,} "
                f"elements; one build draws at most {MAX_BUILD_ELEMENTS:,} (about 0.1 ms each): draw "
                "fewer elements on each card, or split the deck"))])
    return total
