"""`--rows` and `--guides` for a deck: a few rows built for quick iteration, and the outlines that
show where a card is cut, where its text must stay and how far its art must run."""
from __future__ import annotations

from typing import Iterable, Sequence, TypeVar

from reportlab.graphics.shapes import Group
from reportlab.lib.colors import Color

from printgen.core.problems import DefinitionError
from printgen.core.source import SourceMap
from printgen.drawing.picture import rect
from printgen.layout.sheet import Box

T = TypeVar("T")
GUIDE_WIDTH = 0.15  # mm: thin enough never to be taken for the art's own lines
TRIM = Color(0.9, 0.0, 0.6)  # magenta: where the card is cut
SAFE = Color(0.0, 0.6, 0.85)  # cyan, dashed: text and anything that matters stays inside
BLEED = Color(1.0, 0.5, 0.0)  # orange: how far backgrounds must run past the cut
SAFE_DASH = [1.5, 1.0]


def runs(numbers: Iterable[int]) -> list[list[int]]:
    """Consecutive numbers as [first, last]: 1, 2, 3, 7 -> [1, 3], [7, 7]."""
    found: list[list[int]] = []
    for n in numbers:
        if found and n == found[-1][1] + 1:
            found[-1][1] = n
        else:
            found.append([n, n])
    return found


def spans(rows: Sequence[int]) -> str:
    """(1, 2, 3, 7) -> '1-3, 7': rows as a reader types them."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs(rows))


def chosen_rows(cards: list[T], rows: tuple[int, ...] | None, source: SourceMap) -> tuple[list[T], str]:
    """The cards of the rows `--rows` names, and what the captions say of them ('' for every row);
    a row past the end is a problem at the deck's data."""
    if rows is None:
        return cards, ""
    past = [row for row in rows if row > len(cards)]
    if past:
        where = ("data",) if isinstance(source.root, dict) and "data" in source.root else ("rows",)
        raise DefinitionError([source.problem(where, f"--rows {spans(rows)}: the deck has {len(cards):,} "
                                              f"row{'s' if len(cards) != 1 else ''}, so row {past[0]:,} "
                                              f"is past the end; expected rows from 1 to {len(cards):,}")])
    return [cards[row - 1] for row in rows], f"rows {spans(rows)} of {len(cards):,}"


def guides(boxes: Sequence[Box], bleed: float, safe: float) -> Group:
    """Trim, safe-area and bleed outlines round every card's trim box, in the guide colours."""
    group = Group()
    for x, y, w, h in boxes:
        group.add(rect(x, y, w, h, stroke=TRIM, stroke_width=GUIDE_WIDTH))
        if 0 < safe < min(w, h) / 2:
            inner = rect(x + safe, y + safe, w - 2 * safe, h - 2 * safe, stroke=SAFE, stroke_width=GUIDE_WIDTH)
            inner.strokeDashArray = SAFE_DASH
            group.add(inner)
        if bleed > 0:
            group.add(rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=BLEED,
                           stroke_width=GUIDE_WIDTH))
    return group
