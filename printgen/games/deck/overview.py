"""A deck's overview picture, `<name>-overview.png`: every card's face once, in row order, in one
grid, for a designer to look over and share. Drawn as Omiga's contact sheet is: one page of the
cards' own shapes, written as a PNG.

A picture of a large deck is bounded twice (SECURITY.md): it shows at most MAX_CARDS faces (its
heading says how many it leaves out, and `--rows` or `--where` picks others), and its resolution
falls as the grid grows so that it never has more than MAX_PIXELS pixels."""
from __future__ import annotations

import math
from functools import partial
from typing import Sequence

from reportlab.graphics.shapes import translate
from reportlab.lib.colors import Color

from printgen.core.paper import Paper
from printgen.drawing import fonts
from printgen.drawing.document import Document, Page
from printgen.drawing.picture import placed, rect, text
from printgen.games.deck.drawn import DeckCard

DPI = 80  # as Omiga's contact sheet: titles read, the rules text is a texture
MAX_CARDS = 1_000  # faces in one picture; a deck of 10,000 rows shows its first 1,000
MAX_PIXELS = 4_000_000  # in all: a 1,000-card overview at about 20 dpi, some 12 MiB of RGB
GAP = 3.0  # mm between cards
MARGIN = 8.0  # mm round the grid
HEADING = 9.0  # mm above the grid for the heading
HEADING_PT = 12
OUTLINE = Color(0.55, 0.55, 0.55)  # each card's edge, seen on a white card
ASPECT = 4 / 3  # the grid's width to its height, as a screen shows it best


def heading(title: str, cards: Sequence[DeckCard], part: str) -> str:
    """'Potion Shop: 8 cards, 18 with copies (rows 1-3 of 8)'; how many are left out, if any."""
    copies = sum(card.copies for card in cards)
    said = f"{title}: {len(cards):,} card{'s' * (len(cards) != 1)}, {copies:,} with copies"
    said += f" ({part})" if part else ""
    if len(cards) > MAX_CARDS:
        said += f"; the first {MAX_CARDS:,} shown (--rows or --where shows others)"
    return said


def grid(count: int, width: float, height: float) -> tuple[int, int]:
    """Columns and rows for `count` cards, the grid about ASPECT times as wide as it is high."""
    columns = max(1, min(count, math.ceil(math.sqrt(count * height / width * ASPECT))))
    return columns, max(1, math.ceil(count / columns))


def overview(title: str, cards: Sequence[DeckCard], part: str, name: str) -> Document:
    """The overview of `cards` (the ones chosen, each once), drawn only when it is written."""
    shown = list(cards[:MAX_CARDS])
    said = heading(title, cards, part)
    w, h = (shown[0].width, shown[0].height) if shown else (63.5, 88.9)
    columns, rows = grid(len(shown), w, h)
    width = max(columns * w + (columns - 1) * GAP, fonts.text_width(said, fonts.BOLD, HEADING_PT * 25.4 / 72))
    paper = Paper("overview", width + 2 * MARGIN, rows * h + (rows - 1) * GAP + 2 * MARGIN + HEADING)
    dpi = min(DPI, 25.4 * math.sqrt(MAX_PIXELS / (paper.width * paper.height)))
    return Document(name, paper, [], f"{title}: overview", dpi=dpi,
                    draw=partial(page, shown, said, paper, columns))


def page(cards: list[DeckCard], said: str, paper: Paper, columns: int) -> list[Page]:
    """The heading, then the faces left to right, top row first, each with its outline."""
    shapes = [text(MARGIN, paper.height - MARGIN - 5, said, HEADING_PT, fonts.BOLD)]
    top = paper.height - MARGIN - HEADING
    for i, card in enumerate(cards):
        row, column = divmod(i, columns)
        at = translate(MARGIN + column * (card.width + GAP), top - (row + 1) * card.height - row * GAP)
        shapes.append(placed(card.front(), at))
        shapes.append(placed(rect(0, 0, card.width, card.height, stroke=OUTLINE, stroke_width=0.2), at))
    return [Page(shapes)]
