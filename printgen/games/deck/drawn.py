"""A deck's cards drawn on demand, so a huge deck holds only the last few sides' shapes.

Problems are kept by row and side the first time a side is drawn, so they are told in row order."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from reportlab.graphics.shapes import Group

from printgen.core.problems import Problem
from printgen.core.source import SourceMap, dotted
from printgen.games.deck.faces import DrawnSide, Side, Unfit, draw_element, paint
from printgen.games.deck.rows import Row
from printgen.games.deck.textbox import upright
from printgen.games.deck.values import RowValues, located, rows_folded

RECENT = 64  # sides kept drawn: a sheet's cards with their copies, and the shared back, many times over
SIDES = ("face", "back")
CACHED_ELEMENTS = 256  # drawn elements cached by their values; a few hundred shapes, whatever the deck


def draw_side(side: str, values: RowValues, row: Row, layout: Side, source: SourceMap,
              problems: list[Problem], cache: dict[tuple[Any, ...], Any]) -> DrawnSide:
    """One side for one row; `cache` shares elements whose values repeat, so shapes never change."""
    drawn = []

    def fault(key: tuple[Any, ...], message: str) -> None:
        where = located(values.sides, key)
        problems.append(Problem(row.file, row.line, "", f"row {row.index + 1}: {dotted(where)} "
                                f"({source.file}:{source.line_of(where)}): {message}"))

    svg = values.rendered.get((side, "template"))
    if svg is not None:
        try:
            art = layout.template(values.sides[side].prefix, svg.encode("utf-8"))
            drawn.append(upright(art.shape(0, 0, layout.width, layout.height), 0, layout.height))
        except ValueError as exc:
            fault((side, "template"), f"the SVG it made for this row: {exc}")
    for i in range(len(values.sides[side].elements)):
        if not values.shown(side, i):
            continue
        key = values.element_key(side, i)
        if key in cache:
            drawn.append(cache[key])
            continue
        try:
            shape = draw_element(values.element(side, i), lambda name: values.get(side, i, name), layout)
        except Unfit as exc:
            fault((side, i, exc.key), str(exc))
            continue
        drawn.append(shape)
        if len(cache) >= CACHED_ELEMENTS:
            cache.clear()
        cache[key] = shape
    try:
        background = paint(values.background(side), "background")
    except Unfit as exc:
        fault((side, "background"), str(exc))
        background = None
    return DrawnSide(drawn, background, layout.width, layout.height, shared=cache)


@dataclass
class Drawer:
    """Draws a row's face or back when asked, keeping the RECENT last drawn."""

    rows: list[Row]
    values: list[RowValues]
    layout: Side
    source: SourceMap
    recent: OrderedDict[tuple[int, str], DrawnSide] = field(default_factory=OrderedDict)
    problems: dict[tuple[int, int], list[Problem]] = field(default_factory=dict)
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # elements drawn, by their values

    def side(self, index: int, side: str) -> DrawnSide:
        key = (index, side)
        if key in self.recent:
            self.recent.move_to_end(key)
            return self.recent[key]
        found: list[Problem] = []
        drawn = draw_side(side, self.values[index], self.rows[index], self.layout, self.source, found, self.cache)
        drawn.reuse = side == "face" and self.rows[index].copies > 1
        self.problems.setdefault((index, SIDES.index(side)), found)
        self.recent[key] = drawn
        if len(self.recent) > RECENT:
            self.recent.popitem(last=False)
        return drawn

    def found(self) -> list[Problem]:
        """The problems met so far, in row order, each once."""
        return rows_folded(list(dict.fromkeys(p for key in sorted(self.problems) for p in self.problems[key])))


@dataclass(frozen=True)
class DeckCard:
    """One row's card, placed as often as it has copies. Rows whose backs come out the same share
    one back (`back_name` names it: back.name slugged, else `back`, or `back-<first card>`), drawn
    from the row `back_row`."""

    name: str
    width: float
    height: float
    index: int
    back_row: int
    back_name: str
    copies: int
    drawer: Drawer = field(compare=False, repr=False)
    back_label: str = ""  # what back.name calls the back, unslugged, to group exports; "" if unnamed

    def front(self, bleed: float = 0.0) -> Group:
        return self.drawer.side(self.index, "face").at(bleed)

    def back(self, bleed: float = 0.0) -> Group:
        return self.drawer.side(self.back_row, "back").at(bleed)
