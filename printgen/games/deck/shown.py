"""A deck's cards shown in its own rules: one card, face or back, or a row of them (a hand, a
tableau), as flowables drawn from the very shapes the deck's sheets and pictures are drawn from.

A card at its true size is drawn on the pixel grid of the deck's PNGs (`grid_dpi`): it moves by
less than half a pixel (0.09 mm at 150 dpi) so that the rules page rendered at that resolution
shows it pixel for pixel as its own PNG does."""
from __future__ import annotations

import difflib
import math
import struct
from dataclasses import dataclass
from typing import Any, Sequence

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Group, Path
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.platypus import Flowable

from printgen.core.paper import MM_PER_PT, PT_PER_MM, pt
from printgen.drawing import fonts
from printgen.games.deck.drawn import DeckCard
from printgen.core.names import stem
from printgen.drawing.libadapter import page_height

OUTLINE_GAP = 0.6  # mm between a card's edge and the hairline round it: clear of its edge pixels
OUTLINE = HexColor("#9a9a9a")
CARD_GAP = 3.0  # mm between the cards of a row
MIN_ROW_SCALE = 0.4  # a row smaller than this (of the cards' width) wraps onto another line instead
CALLOUT_ROOM = 7.5  # mm beside a card for its numbered callouts, on both sides
CALLOUT_RADIUS = 2.3  # mm: a callout's disc, the number white in it
CALLOUT_PT = 8.0  # the number's size


@dataclass(frozen=True)
class ShownCard:
    """Which card and side a rules document shows, and how wide (None: its true size)."""

    card: DeckCard
    side: str = "face"
    width: float | None = None  # mm
    # numbered callouts: points (mm from the card's top-left) that discs numbered 1, 2, ... beside
    # the card point to with a leader line, so the list under the picture can name them by number
    callouts: tuple[tuple[float, float], ...] = ()
    callout_colour: str = "#444444"

    def group(self) -> Group:
        """The side in mm, y up, bottom-left at 0: exactly what the deck's own picture draws."""
        return self.card.front() if self.side == "face" else self.card.back()

    @property
    def scale(self) -> float:
        return 1.0 if self.width is None else self.width / self.card.width


def card_title(card: DeckCard) -> str:
    """What a rules document calls a card: its `name` template, else its first column."""
    rendered = card.drawer.values[card.index].rendered.get(("name",))
    if rendered:
        return str(rendered).strip()
    row = card.drawer.rows[card.index]
    return next((str(v).strip() for v in row.values.values() if v), "")


def find_card(cards: Sequence[DeckCard], wanted: str) -> DeckCard:
    """The card called `wanted` (its title, any case, or its file name), else row `wanted` counted
    from 1; ValueError says what there is, nearest names first."""
    text = " ".join(wanted.split())
    titles = [card_title(card) for card in cards]
    for match in (lambda t, c: t == text, lambda t, c: t.casefold() == text.casefold(),
                  lambda t, c: c.name == stem(text, "")):
        found = [card for title, card in zip(titles, cards) if match(title, card)]
        if found:
            return found[0]
    if text.isdigit() and 1 <= int(text) <= len(cards):
        return cards[int(text) - 1]
    near = difflib.get_close_matches(text, titles, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else \
        f"; the deck has {len(cards)} cards, such as {', '.join(repr(t) for t in titles[:3])}"
    raise ValueError(f"no card is called {text!r} and it is no row number from 1 to {len(cards)}{hint}")


def outline_path(corners: list[tuple[float, float]], **style: Any) -> Path:
    """A closed path through `corners`, built by Path's public moveTo/lineTo/closePath."""
    path = Path(**style)
    path.moveTo(*corners[0])
    for x, y in corners[1:]:
        path.lineTo(x, y)
    path.closePath()
    return path


def card_shape(shown: ShownCard, outline: bool = True) -> Group:
    """The side clipped to the card, as its PNG is, with a hairline round it a little outside (the
    same gap and line at any size the card is shown)."""
    width, height = shown.card.width, shown.card.height
    edge = outline_path([(0, 0), (width, 0), (width, height), (0, height)], isClipPath=1, strokeColor=None,
                        fillColor=None)
    group = Group(Group(edge, shown.group()))
    if outline:
        g = OUTLINE_GAP / shown.scale  # the group is drawn at `scale`
        group.add(outline_path([(-g, -g), (width + g, -g), (width + g, height + g), (-g, height + g)],
                               strokeColor=OUTLINE, strokeWidth=0.2 / shown.scale, fillColor=None))
    return group


def as_read(points: float) -> float:
    """A page size in points as pdfium reads it from a PDF reportlab wrote: the number as written,
    held as a 32-bit float."""
    return float(struct.unpack("f", struct.pack("f", float(fp_str(points))))[0])


def snapped(canvas: Any, x: float, top: float, dpi: float) -> tuple[float, float]:
    """How far (pt) to move a picture whose top-left is at (x, top) on the canvas so that its corner
    falls on a pixel of the page rendered at `dpi`, as pdfium places a page's pixels."""
    if not dpi:
        return 0.0, 0.0
    try:
        ax, atop = canvas.absolutePosition(x, top)
    except ValueError:  # a canvas that does not track its matrix: no grid to land on
        return 0.0, 0.0
    scale = dpi / 72
    height = as_read(page_height(canvas))
    column, row = ax * scale, (height - atop) * scale
    return (round(column) - column) / scale, -(round(row) - row) / scale


def draw_card(canvas: Any, shown: ShownCard, x: float, y: float, dpi: float) -> None:
    """The card with its bottom-left at (x, y) pt, moved onto the pixel grid when at true size."""
    scale = shown.scale
    height = pt(shown.card.height * scale)
    dx, dy = snapped(canvas, x, y + height, dpi) if scale == 1.0 else (0.0, 0.0)
    drawing = Drawing(pt(shown.card.width * scale), height)
    drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise select Helvetica
    drawing.add(Group(card_shape(shown), transform=(PT_PER_MM * scale, 0, 0, PT_PER_MM * scale, 0, 0)))
    renderPDF.draw(drawing, canvas, x + dx, y + dy)


@dataclass(frozen=True)
class RowPlan:
    """Cards `per_line` to a line at `scale` of the size each asks for."""

    per_line: int
    scale: float


def draw_callouts(canvas: Any, shown: ShownCard, x: float, y: float) -> None:
    """The card's callouts, its bottom-left at (x, y) pt: each a disc in the room beside the card,
    on the side nearer its point, and a leader line from the disc to a dot on that point."""
    width, height, scale = shown.card.width, shown.card.height, shown.scale
    canvas.saveState()
    colour = HexColor(shown.callout_colour)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(pt(0.3))
    for number, (px, py) in enumerate(shown.callouts, start=1):
        left = px < width / 2
        point = (x + pt(px * scale), y + pt((height - py) * scale))
        disc = (x - pt(CALLOUT_ROOM / 2) if left else x + pt(width * scale + CALLOUT_ROOM / 2), point[1])
        edge = disc[0] + pt(CALLOUT_RADIUS) * (1 if left else -1)
        canvas.setFillColor(colour)
        canvas.line(edge, disc[1], *point)
        canvas.circle(*point, pt(0.5), stroke=0, fill=1)
        canvas.circle(*disc, pt(CALLOUT_RADIUS), stroke=0, fill=1)
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.setFont(fonts.BOLD, CALLOUT_PT)
        canvas.drawCentredString(disc[0], disc[1] - CALLOUT_PT * 0.35, str(number))
    canvas.restoreState()


def callout_room(cards: Sequence[ShownCard]) -> float:
    """mm a row keeps beside its cards for their callouts (both sides, for centring)."""
    return 2 * CALLOUT_ROOM if any(card.callouts for card in cards) else 0.0


def plan_row(cards: Sequence[ShownCard], width: float) -> RowPlan:
    """The fewest lines whose cards, shrunk to the column (never grown), stay at MIN_ROW_SCALE or
    more; one card a line, shrunk to the column, when none does."""
    width -= callout_room(cards)
    sizes = [card.card.width * card.scale for card in cards]
    for lines in range(1, len(cards) + 1):
        per = math.ceil(len(cards) / lines)
        widest = max(sum(sizes[i:i + per]) + (len(sizes[i:i + per]) - 1) * CARD_GAP
                     for i in range(0, len(sizes), per))
        scale = min(1.0, width / widest)
        if scale >= MIN_ROW_SCALE:
            return RowPlan(per, scale)
    return RowPlan(1, min(1.0, width / max(sizes)))


class CardRow(Flowable):
    """One card or a row of cards, centred in the column; never broken across columns. A card too
    wide for the column (or a row) is shrunk to it, and a row that would shrink too far wraps."""

    keeps_lead = True  # a sentence ending in a colon before it travels with it (layout.rulebook)

    def __init__(self, cards: Sequence[ShownCard], dpi: float, space: float = 3.0) -> None:
        super().__init__()
        self.cards = list(cards)
        self.dpi = dpi  # the deck's PNG resolution, whose pixel grid true-size cards land on
        self.space = pt(space)
        self.plan = RowPlan(len(self.cards), 1.0)
        self.spaceBefore = self.spaceAfter = self.space

    def lines(self) -> list[list[ShownCard]]:
        per = self.plan.per_line
        return [self.cards[i:i + per] for i in range(0, len(self.cards), per)]

    def sized(self, card: ShownCard) -> ShownCard:
        if self.plan.scale == 1.0:
            return card
        return ShownCard(card.card, card.side, card.card.width * card.scale * self.plan.scale, card.callouts,
                         card.callout_colour)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.plan = plan_row(self.cards, avail_width * MM_PER_PT - 2 * OUTLINE_GAP)
        self.width = avail_width
        gap = pt(CARD_GAP + 2 * OUTLINE_GAP)
        self.height = sum(max(pt(self.sized(c).card.height * self.sized(c).scale) for c in line)
                          for line in self.lines()) + gap * (len(self.lines()) - 1) + pt(2 * OUTLINE_GAP) + 1
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        return []  # a hand is read as one: it moves on whole

    def draw(self) -> None:
        top = self.height - pt(OUTLINE_GAP) - 0.5
        for line in self.lines():
            cards = [self.sized(card) for card in line]
            widths = [pt(card.card.width * card.scale) for card in cards]
            total = sum(widths) + pt(CARD_GAP) * (len(cards) - 1)
            x = (self.width - total) / 2
            tallest = max(pt(card.card.height * card.scale) for card in cards)
            for card, w in zip(cards, widths):
                h = pt(card.card.height * card.scale)
                draw_card(self.canv, card, x, top - h, self.dpi)
                if card.callouts:
                    draw_callouts(self.canv, card, x, top - h)
                x += w + pt(CARD_GAP)
            top -= tallest + pt(CARD_GAP + 2 * OUTLINE_GAP)
