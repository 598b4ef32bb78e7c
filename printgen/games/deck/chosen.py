"""`--rows`, `--where` and `--guides` for a deck: a few rows built for quick iteration, chosen by
number or by a condition as `when:` takes it, and the outlines that show where a card is cut,
where its text must stay and how far its art must run."""
from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Any, Sequence, TypeVar

from reportlab.graphics.shapes import Group
from reportlab.lib.colors import Color

from printgen.core.problems import DefinitionError
from printgen.core.source import SourceMap
from printgen.drawing.picture import rect
from printgen.games.deck.model import Deck
from printgen.games.deck.rows import Row
from printgen.games.deck.values import FALSE, condition, row_contexts, runs
from printgen.jinja.values import Expression, Place, render_values
from printgen.layout.sheet import Box

T = TypeVar("T")
GUIDE_WIDTH = 0.15  # mm: thin enough never to be taken for the art's own lines
TRIM = Color(0.9, 0.0, 0.6)  # magenta: where the card is cut
SAFE = Color(0.0, 0.6, 0.85)  # cyan, dashed: text and anything that matters stays inside
BLEED = Color(1.0, 0.5, 0.0)  # orange: how far backgrounds must run past the cut
SAFE_DASH = [1.5, 1.0]


def spans(rows: Sequence[int]) -> str:
    """(1, 2, 3, 7) -> '1-3, 7': rows as a reader types them."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs(rows))


def data_key(source: SourceMap) -> tuple[Any, ...]:
    """Where a deck's rows are named: `data:` (a file) or `rows:` (written inline)."""
    return ("data",) if isinstance(source.root, dict) and "data" in source.root else ("rows",)


def chosen_rows(cards: list[T], rows: tuple[int, ...] | None, source: SourceMap, where: str | None = None,
                matched: set[int] | None = None) -> tuple[list[T], str]:
    """The cards of the rows `--rows` names, of those the rows `--where` matched (`matched`, row
    numbers from 1), and what the captions say of them ('' for every row); a row past the end, or
    no row left, is a problem at the deck's data."""
    if rows is None and where is None:
        return cards, ""
    count = f"{len(cards):,} row{'s' if len(cards) != 1 else ''}"
    past = [row for row in rows or () if row > len(cards)]
    if past:
        raise DefinitionError([source.problem(data_key(source), f"--rows {spans(rows or ())}: the deck has "
                                              f"{count}, so row {past[0]:,} is past the end; expected rows "
                                              f"from 1 to {len(cards):,}")])
    chosen = list(rows) if rows is not None else list(range(1, len(cards) + 1))
    if where is None:
        return [cards[row - 1] for row in chosen], f"rows {spans(chosen)} of {len(cards):,}"
    kept = [row for row in chosen if matched is not None and row in matched]
    if not kept:
        among = f"none of rows {spans(chosen)} of the deck's {count}" if rows is not None else \
            f"none of the deck's {count}"
        raise DefinitionError([source.problem(data_key(source), f"--where {where!r}: {among} makes it true, "
                                              "so there is no card to build; check the column's values "
                                              "(text is compared exactly, with its capitals)")])
    return [cards[row - 1] for row in kept], f"rows {spans(kept)} of {len(cards):,}, where {where}"


def matching(defn: Deck, rows: list[Row], where: str, source: SourceMap) -> set[int]:
    """The numbers (from 1) of the rows for which `where` holds, rendered as an element's `when:`
    is, in the same sandbox; a name no row has is one problem naming the columns there are."""
    from jinja2 import meta

    from printgen.jinja.sandbox import BoundedSandbox

    env = BoundedSandbox()
    contexts = row_contexts(defn, rows)
    known = set(env.globals).union(*(context.keys() for context in contexts))
    unknown = sorted(meta.find_undeclared_variables(env.parse(condition(where))) - known)
    if unknown:
        columns = sorted({column for row in rows for column in row.values})
        near = difflib.get_close_matches(unknown[0], columns, 1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise DefinitionError([source.problem(data_key(source), f"--where {where!r}: {unknown[0]!r} is not a "
                                              f"column of the deck; its columns are {', '.join(columns)}{hint}")])
    places = [Place(row.file, row.line, f"row {row.index + 1}") for row in rows]
    try:
        texts = render_values([Expression(condition(where), "the command line", 1, "--where")], contexts, places)
    except DefinitionError as exc:  # said at its row as the condition typed, not as a place in a file
        raise DefinitionError([replace(p, message=p.message.replace("--where (the command line:1)",
                                                                    f"--where {where!r}")) for p in exc.problems])
    return {row.index + 1 for row, values in zip(rows, texts) if values[0].strip().lower() not in FALSE}


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
