"""Imposition: same-size pieces (tiles, cards, counters) in a grid on the paper, fronts and backs.

Backs are registered for duplex by `Duplex`. Cut marks stand in the margins only, so no line crosses
the art; with bleed, pieces sit 2 x bleed apart. A sheet whose every piece has its own cut line drawn
round it may let its pieces come to the printer's safe margin (`marks=False`): then marks stand in
those margins that still have room for them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Iterator, Protocol, Sequence

from reportlab.graphics.shapes import Group, translate
from reportlab.lib.colors import HexColor

from printgen.core.paper import SAFE_MARGIN_MM, Paper, font_mm
from printgen.drawing import fonts
from printgen.drawing.picture import CUT, LineStyle, guide, placed, text
from printgen.drawing.style import FOOTER_GREY, SMALL_PT
from printgen.layout.sheet import Box, Duplex
from printgen.drawing.document import Page
from printgen.output.reuse import Forms, Reused, reusable

MARK_LENGTH = 3.0  # mm: one dash of the cut style, so a mark prints as one solid stroke
MARK_GAP = 1.5  # mm kept clear between a mark and the art (bleed included)
EDGE = SAFE_MARGIN_MM + MARK_LENGTH + MARK_GAP  # least distance from the paper edge to the art
CAPTION_PT = SMALL_PT  # a sheet's caption is set as a rulebook's footer: small, grey, centred
CAPTION_GREY = HexColor(FOOTER_GREY)
CAPTION_ROOM = 4.0  # mm the caption needs between the paper's safe margin and the cut marks
TICK_EDGE = 7.0  # mm: no cut mark comes nearer the paper's edge (many Letter printers lose the outer 6.35)
MIN_TICK = 2.0  # mm: a mark pressed against TICK_EDGE keeps at least this length...
MIN_GAP = 0.5  # mm: ...by moving up to this near the art
CAPTION_CLEAR = 1.0  # mm at least between a caption's tallest letters and the marks or art over it


class Piece(Protocol):
    """A rectangle with art on both sides, drawn in its own box, painting up to `bleed` mm outside
    it; `back` as the piece looks turned over about its vertical axis."""

    @property
    def width(self) -> float: ...  # mm; read-only, so a property or a frozen field satisfies it
    @property
    def height(self) -> float: ...

    def front(self, bleed: float = 0.0) -> Group: ...
    def back(self, bleed: float = 0.0) -> Group: ...


@dataclass(frozen=True)
class Grid:
    """A centred grid of trim boxes `gap` mm apart (besides bleed), above a `foot` kept for a caption;
    `marks` False when no cut marks stand in the margins (every piece's cut is drawn round it)."""

    paper: Paper
    width: float
    height: float
    bleed: float = 0.0
    gap: float = 0.0
    foot: float = 0.0
    marks: bool = True

    @property
    def edge(self) -> float:
        """Least distance (mm) from the paper's edge to the art, bleed included."""
        return EDGE if self.marks else SAFE_MARGIN_MM

    @property
    def pitch(self) -> tuple[float, float]:
        return self.width + 2 * self.bleed + self.gap, self.height + 2 * self.bleed + self.gap

    @property
    def columns(self) -> int:
        return fit(self.paper.width + self.gap, self.pitch[0], self.edge)

    @property
    def rows(self) -> int:
        return fit(self.paper.height - self.foot + self.gap, self.pitch[1], self.edge)

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def origin(self) -> tuple[float, float]:
        """Lower-left corner of the first trim box, the grid centred above the foot."""
        px, py = self.pitch
        return ((self.paper.width - self.columns * px + self.gap) / 2 + self.bleed,
                self.foot + (self.paper.height - self.foot - self.rows * py + self.gap) / 2 + self.bleed)

    def with_caption(self) -> "Grid":
        """This grid, or the grid above a caption's room when one would not fit below it."""
        marks = MARK_GAP + MARK_LENGTH if self.marks else 0.0
        fits = self.origin()[1] - self.bleed - marks >= SAFE_MARGIN_MM + CAPTION_ROOM - 1e-9
        grid = self if fits else replace(self, foot=CAPTION_ROOM)
        return grid if self.marks else grid.raised_for_marks()

    def raised_for_marks(self) -> "Grid":
        """A grid without room kept for marks, moved up far enough for marks under it and the caption
        under those (room_marks), when that costs no row and leaves the top room for its own."""
        want = SAFE_MARGIN_MM + CAPTION_ROOM + MIN_GAP + MIN_TICK
        art = self.origin()[1] - self.bleed
        if art >= want - 1e-9:
            return self
        raised = replace(self, foot=self.foot + 2 * (want - art))  # the grid rises by half the foot
        top = self.paper.height - max(y + h for _, y, _, h in raised.boxes()) - self.bleed if raised.rows else 0.0
        return raised if raised.rows == self.rows and has_room(top) else self

    def boxes(self) -> list[Box]:
        """Trim boxes in reading order: left to right, top row first."""
        x0, y0 = self.origin()
        px, py = self.pitch
        return [(x0 + c * px, y0 + (self.rows - 1 - r) * py, self.width, self.height)
                for r in range(self.rows) for c in range(self.columns)]


def per_sheet(paper: Paper, width: float, height: float, bleed: float, gap: float = 0.0, marks: bool = True) -> int:
    """How many pieces one side of the paper holds, caption included (as `impose_lazily` lays them out)."""
    return Grid(paper, width, height, bleed, gap, marks=marks).with_caption().per_page


def fit(length: float, pitch: float, edge: float = EDGE) -> int:
    return max(0, math.floor((length - 2 * edge) / pitch + 1e-9))


def cut_marks(boxes: Sequence[Box], paper: Paper, bleed: float, style: LineStyle = CUT) -> Group:
    """Short marks in the margins at both ends of every vertical and horizontal cut line."""
    group = Group()
    if not boxes:
        return group
    xs = sorted({round(v, 6) for x, _, w, _ in boxes for v in (x, x + w)})
    ys = sorted({round(v, 6) for _, y, _, h in boxes for v in (y, y + h)})
    (bottom_in, bottom_out), (top_in, top_out) = tick(ys[0] - bleed), tick(paper.height - ys[-1] - bleed)
    (left_in, left_out), (right_in, right_out) = tick(xs[0] - bleed), tick(paper.width - xs[-1] - bleed)
    for x in xs:
        group.add(guide(x, bottom_in, x, bottom_out, style))
        group.add(guide(x, paper.height - top_in, x, paper.height - top_out, style))
    for y in ys:
        group.add(guide(left_in, y, left_out, y, style))
        group.add(guide(paper.width - right_in, y, paper.width - right_out, y, style))
    return group


def room_marks(boxes: Sequence[Box], paper: Paper, bleed: float, style: LineStyle = CUT) -> tuple[Group, float | None]:
    """Marks for a sheet whose every piece has its own cut line drawn round it: at the ends of the
    cut lines in each margin with room for a mark (MIN_TICK long, TICK_EDGE from every edge of the
    paper, MIN_GAP clear of the art), so a guillotine or a ruler lines up with them; the foot's
    margin must also leave the caption its room under them. Also how far from the paper's foot the foot's marks
    end (the caption goes under them), None when the foot has none."""
    group = Group()
    if not boxes:
        return group, None
    xs = sorted({round(v, 6) for x, _, w, _ in boxes for v in (x, x + w)})
    ys = sorted({round(v, 6) for _, y, _, h in boxes for v in (y, y + h)})
    bottom, top = ys[0] - bleed, paper.height - ys[-1] - bleed
    left, right = xs[0] - bleed, paper.width - xs[-1] - bleed
    foot = short_tick(bottom, SAFE_MARGIN_MM + CAPTION_ROOM) if has_room(bottom, SAFE_MARGIN_MM + CAPTION_ROOM) else None
    xs = [x for x in xs if TICK_EDGE <= x <= paper.width - TICK_EDGE]  # a cut nearer the side than that: no mark
    ys = [y for y in ys if TICK_EDGE <= y <= paper.height - TICK_EDGE]
    for x in xs:
        if foot is not None:
            group.add(guide(x, bottom - MIN_GAP, x, foot, style))
        if has_room(top):
            group.add(guide(x, paper.height - top + MIN_GAP, x, paper.height - short_tick(top), style))
    for y in ys:
        if has_room(left):
            group.add(guide(left - MIN_GAP, y, short_tick(left), y, style))
        if has_room(right):
            group.add(guide(paper.width - right + MIN_GAP, y, paper.width - short_tick(right), y, style))
    return group, foot


def has_room(art: float, edge: float = TICK_EDGE) -> bool:
    """True when a margin whose art stops `art` mm from the paper's edge holds a mark at least
    MIN_TICK long, `edge` mm from that edge and MIN_GAP clear of the art."""
    return art - MIN_GAP - edge >= MIN_TICK - 1e-9


def short_tick(art: float, edge: float = TICK_EDGE) -> float:
    """The outer end (mm from the paper's edge) of a mark MIN_GAP clear of art `art` mm in: up to
    MARK_LENGTH long, never nearer the edge than `edge`."""
    return max(edge, art - MIN_GAP - MARK_LENGTH)


def tick(art: float) -> tuple[float, float]:
    """A margin mark's inner and outer end, as distances (mm) from the paper's edge, for art that
    stops `art` mm from it: MARK_LENGTH long and MARK_GAP clear of the art, but never nearer the
    edge than TICK_EDGE; where that leaves it short, it moves towards the art (to MIN_GAP)."""
    inner = art - MARK_GAP
    outer = max(inner - MARK_LENGTH, TICK_EDGE)
    if inner - outer < MIN_TICK:
        inner = min(art - MIN_GAP, outer + MIN_TICK)
    return inner, min(outer, inner)


Corners = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, as a PDF page box


def trim_and_bleed(boxes: Sequence[Box], bleed: float) -> tuple[Corners, Corners]:
    """The page's TrimBox (around every trim box) and BleedBox (`bleed` mm further out)."""
    x0 = min(x for x, _, _, _ in boxes)
    y0 = min(y for _, y, _, _ in boxes)
    x1 = max(x + w for x, _, w, _ in boxes)
    y1 = max(y + h for _, y, _, h in boxes)
    return (x0, y0, x1, y1), (x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed)


@dataclass(frozen=True)
class ImposedSheet:
    front: Page
    back: Page
    boxes: list[Box]  # trim boxes on the front, in the order the pieces were given


Caption = Callable[[int, int, str], str]  # (sheet index, sheet count, "front" or "back") -> text


def impose_lazily(pieces: Sequence[Piece], duplex: Duplex, bleed: float = 0.0,
                  caption: Caption | None = None, gap: float = 0.0, marks: bool = True) -> Iterator[ImposedSheet]:
    """Lay `pieces` out on as many sheets as needed, each drawn when asked for, so a huge deck holds
    one sheet at a time; ValueError if none fits the paper. Without `marks`, the caller draws each
    piece's cut, the pieces may come nearer the edge, and marks stand only in the margins that
    still have room for them (`room_marks`)."""
    if not pieces:
        return iter(())
    first = pieces[0]
    grid = Grid(duplex.paper, first.width, first.height, bleed, gap, marks=marks)
    if caption:
        grid = grid.with_caption()
    if grid.per_page == 0:
        raise too_big(first, bleed, duplex.paper, grid.edge)
    same_size(pieces)
    return sheets_on(pieces, duplex, bleed, caption, grid)


def too_big(piece: Piece, bleed: float, paper: Paper, edge: float = EDGE) -> ValueError:
    return ValueError(f"a {piece.width:g} x {piece.height:g} mm piece with {bleed:g} mm bleed does not "
                      f"fit on {paper.name} paper inside {edge:g} mm margins")


def same_size(pieces: Sequence[Piece]) -> None:
    """ValueError unless every piece has the first one's size."""
    if any((p.width, p.height) != (pieces[0].width, pieces[0].height) for p in pieces):
        raise ValueError("every piece in one imposition must have the same size")


def sheets_on(pieces: Sequence[Piece], duplex: Duplex, bleed: float, caption: Caption | None,
              grid: Grid) -> Iterator[ImposedSheet]:
    slots = grid.boxes()
    count = math.ceil(len(pieces) / grid.per_page)
    backs = Forms()
    marks_for: dict[int, tuple[Reused | None, float | None]] = {}  # by the number of pieces: every full sheet's are alike
    for s in range(count):
        batch = pieces[s * grid.per_page:(s + 1) * grid.per_page]
        boxes = slots[:len(batch)]
        front, back = Page(), duplex.back_page()  # the back page carries the printer's offset
        for piece, box in zip(batch, boxes):
            front.shapes.append(placed(piece.front(bleed), translate(box[0], box[1])))
            back.shapes.append(placed(backs(piece.back(bleed)), duplex.back_placement(box)))
        if len(boxes) not in marks_for:  # one PDF form for like sheets
            if grid.marks:
                marks_for[len(boxes)] = reusable(cut_marks(boxes, duplex.paper, bleed)), None
            else:
                drawn, foot = room_marks(boxes, duplex.paper, bleed)
                marks_for[len(boxes)] = (reusable(drawn) if drawn.contents else None), foot
        drawn_marks, foot = marks_for[len(boxes)]
        yield finished(front, back, boxes, duplex, bleed, drawn_marks,
                       (caption(s, count, "front"), caption(s, count, "back")) if caption else None,
                       foot=foot if not grid.marks else None, room_marks=not grid.marks)


def finished(front: Page, back: Page, boxes: Sequence[Box], duplex: Duplex, bleed: float, marks: Reused | None,
             captions: tuple[str, str] | None, write: Callable[[str, Paper], Group] | None = None,
             foot: float | None = None, room_marks: bool = False) -> ImposedSheet:
    """A sheet with its page boxes, its cut marks on both sides and its captions (`write`, or
    caption_text, draws them). With `room_marks` the marks stand only where there was room, and
    `foot` says where those in the foot's margin end (mm from the edge; None: there are none), for
    the caption to go under them."""
    if bleed > 0:  # a print shop (or a viewer) finds the cut area and the bleed from these
        front.trim_box, front.bleed_box = trim_and_bleed(boxes, bleed)
        back.trim_box, back.bleed_box = trim_and_bleed([duplex.back_box(b) for b in boxes], bleed)
    if marks is not None:  # None: every piece's cut is drawn round it, and no margin has room for marks
        front.shapes.append(marks)
        back.shapes.append(placed(marks, duplex.mirror()))

    def room(laid: Sequence[Box]) -> float:
        """How far from the caption's edge of the paper the marks (or the art) leave it room."""
        if room_marks:
            return foot if foot is not None else foot_room(laid, bleed, False)
        return foot_room(laid, bleed, marks is not None)

    if captions:
        paper, backs = duplex.paper, [duplex.back_box(b) for b in boxes]
        front.shapes.append(write(captions[0], paper) if write else
                            caption_text(captions[0], paper, room=room(boxes)))
        # the back's caption lies behind the front's, in the room kept clear of marks for it: at the
        # top of the back page when the sheet turns over top to bottom (a side caption is symmetric)
        at_top = not duplex.side_to_side
        flipped = [(x, paper.height - y - h, w, h) for x, y, w, h in backs] if at_top else backs
        back.shapes.append(write(captions[1], paper) if write else
                           caption_text(captions[1], paper, at_top, room(flipped)))
    return ImposedSheet(front, back, list(boxes))


def foot_room(boxes: Sequence[Box], bleed: float, marks: bool) -> float:
    """How far (mm) from the paper's foot the lowest cut mark, or the art where there are none, ends."""
    art = min(y for _, y, _, _ in boxes) - bleed
    return tick(art)[1] if marks else art - MARK_GAP


def caption_text(value: str, paper: Paper, at_top: bool = False,
                 room: float = SAFE_MARGIN_MM + CAPTION_ROOM) -> Group:
    """A line of small print in the house footer's size and grey, centred across the page at its
    foot (or head): its glyphs TICK_EDGE from the paper's edge, or as far in as the strip below the
    marks (`room` mm in) allows when that strip is narrower."""
    size = font_mm(CAPTION_PT)
    ascent, descent = fonts.ascent(fonts.REGULAR, size), fonts.descent(fonts.REGULAR, size)
    bottom = TICK_EDGE  # the glyphs' foot, from the paper's edge
    if bottom + ascent + descent + CAPTION_CLEAR > room:
        bottom = max(SAFE_MARGIN_MM + 0.1, room - ascent - descent - CAPTION_CLEAR)
    baseline = paper.height - bottom - ascent if at_top else bottom + descent
    return Group(text(paper.width / 2, baseline, value, CAPTION_PT, anchor="middle", fill=CAPTION_GREY))
