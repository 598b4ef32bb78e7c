"""The Quick Violence measuring page: the paper itself is the tape measure.

Arrows run edge to edge so each move is a dimension of the sheet; ticks with their distance to
the edge survive printers that cut off the ends, and RANGE and the scale bars are true lengths."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Iterable, Literal, Sequence

from reportlab.graphics.shapes import Circle, Group, Line, Polygon, rotate, translate
from reportlab.lib.colors import Color, HexColor, black, white

from printgen.drawing import fonts
from printgen.core.source import Loc
from printgen.core.paper import SAFE_MARGIN_MM, Paper, font_mm
from printgen.drawing.picture import compose, placed, text, wrap
from printgen.games.quick_violence.model import Dimension, Labels

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x, y, w, h in mm

DIMENSIONS: tuple[Dimension, ...] = ("width", "length", "diagonal")
# The bundled colours (the YAML's `colours:` defaults); a definition may choose its own.
PAGE_COLOURS: dict[str, Color] = {"width": HexColor("#1f5f99"), "length": HexColor("#2e7d32"),
                                  "diagonal": HexColor("#6a3d9a")}
RANGE_COLOUR = HexColor("#c0392b")
SCALE_COLOUR = black
GREY = HexColor("#555555")
LIGHT = HexColor("#dddddd")

SHAFT = 0.8  # mm, stroke width of every arrow's shaft
HEAD_LENGTH = 14.0  # long, so most of a page arrow's head survives the unprintable strip
HEAD_HALF = 3.5
RANGE_HEAD_LENGTH = 8.0
RANGE_HEAD_HALF = 2.6
TAIL_BAR_HALF = 3.5  # the bar across the range arrow's tail shows where to put it

INSET = 16.0  # SHORT runs this far below the top edge, MEDIUM this far right of the left edge
LANE_LEFT = INSET + 10.0  # where the range arrow, the bars and the drawing start
RANGE_Y = 12.0  # the range arrow's centre line
BAR_MM_Y = 29.0
BAR_IN_Y = 42.0
CHECK_Y = 53.0
DRAWING_TOP = 104.0
REACH_GAP = 14.0  # from the "how far in one activation" note's last line up from the move drawing's first
REACH_MEASURE = 62.0  # mm: that note's line length, which the room under LONG holds on A4 and Letter
CLEARANCE = 8.0  # mm kept between LONG's centre line and anything in the lower-left triangle
BOX_CLEARANCE = 11.0  # the same for the text box, which must also clear LONG's label
TICK_HALF = 2.5  # half-length of an end mark's tick across its arrow
TICK_WIDTH = 0.3
MARK_PT = 8  # the end marks' words: a point over the 7 pt floor, so thin coloured words still read
MARK_GAP = 1.5  # from a tick to its words, along the arrow
LABEL_PT = 13
DETAIL_PT = 8.5
NOTE_PT = 8
CAP = 0.73  # cap height of the font, as a fraction of its size
DESCENT = 0.24
MM_PER_INCH = 25.4
WORD_GAP = 2.5  # mm between a caption's bold word and its explanation
BAR_LABEL_PT = 9
BARS = ((BAR_MM_Y, 100.0, "100 mm"), (BAR_IN_Y, 4 * MM_PER_INCH, "4 in"))  # y, exact length, label


@dataclass(frozen=True)
class Arrow:
    """A straight arrow whose tail-to-tip span is exactly its length: no ink past either end."""

    tail: Point
    tip: Point
    colour: Color
    head_length: float = HEAD_LENGTH
    head_half: float = HEAD_HALF
    tail_bar: float = 0.0  # half-length of a bar across the tail; 0 draws none

    @property
    def length(self) -> float:
        return math.dist(self.tail, self.tip)

    @property
    def unit(self) -> Point:
        return ((self.tip[0] - self.tail[0]) / self.length, (self.tip[1] - self.tail[1]) / self.length)

    def drawing(self) -> Group:
        (tx, ty), (px, py) = self.tail, self.tip
        ux, uy = self.unit
        nx, ny = -uy, ux
        bx, by = px - ux * self.head_length, py - uy * self.head_length
        under = min(1.5, self.head_length / 3)  # the shaft runs a little under the head: no seam
        group = Group()
        group.add(Line(tx, ty, bx + ux * under, by + uy * under, strokeColor=self.colour,
                       strokeWidth=SHAFT, strokeLineCap=0))
        if self.tail_bar:
            h = self.tail_bar
            group.add(Line(tx + nx * h, ty + ny * h, tx - nx * h, ty - ny * h, strokeColor=self.colour,
                           strokeWidth=SHAFT, strokeLineCap=0))
        h = self.head_half
        group.add(Polygon([px, py, bx + nx * h, by + ny * h, bx - nx * h, by - ny * h],
                          fillColor=self.colour, strokeColor=None, strokeWidth=0))
        return group


Side = Literal["tail", "tip"]
Placing = Literal["along", "beside"]

# Each arrow end's mark: mm in from the edge, the edge's name, where its words go. The distances keep
# ticks out of the unprintable margin, off the heads and clear of where the arrows cross.
END_MARKS: dict[tuple[Dimension, Side], tuple[float, str, Placing]] = {
    ("width", "tail"): (20.0, "left edge", "along"), ("width", "tip"): (20.0, "right edge", "along"),
    ("length", "tail"): (10.0, "top edge", "beside"), ("length", "tip"): (20.0, "bottom edge", "along"),
    ("diagonal", "tail"): (40.0, "corner", "along"), ("diagonal", "tip"): (20.0, "corner", "along"),
}


# The marks at the tails of SHORT and MEDIUM fall in the top-left corner, where three arrows cross:
# their words move right into the clear strip above SHORT, stacked, each tied to its tick by a thin
# leader line. Per mark: the words' baseline, mm below the top edge; they start at LEADER_X.
LEADER_ROWS: dict[tuple[Dimension, Side], float] = {("length", "tail"): 8.6, ("width", "tail"): 12.6}
LEADER_X = INSET + 18.0  # clear of the crossing and of every tick, left of SHORT's caption end
LEADER_WIDTH = 0.15
LEADER_GAP = 0.8  # mm between a leader's end and the tick or words it joins


@dataclass(frozen=True)
class EndMark:
    """A tick across a page arrow inside the printed area, and words saying how far the arrow's end
    (the paper's edge) lies beyond it: what a printer that cannot reach the edge leaves out."""

    at: Point  # the tick's middle, on the arrow's centre line
    across: Point  # unit vector along the tick (square to the arrow)
    distance: float  # mm from the tick to the arrow's end
    words: str
    origin: Point  # where the words' baseline starts (anchor "start") or ends ("end")
    angle: float  # the words' direction, degrees
    anchor: str
    colour: Color
    leader: tuple[Point, Point] | None = None  # a thin line from the tick to words set apart

    def drawing(self) -> Group:
        (x, y), (ax, ay), h = self.at, self.across, TICK_HALF
        group = Group()
        group.add(Line(x + ax * h, y + ay * h, x - ax * h, y - ay * h, strokeColor=self.colour,
                       strokeWidth=TICK_WIDTH, strokeLineCap=0))
        if self.leader is not None:
            (x1, y1), (x2, y2) = self.leader
            group.add(Line(x1, y1, x2, y2, strokeColor=self.colour, strokeWidth=LEADER_WIDTH, strokeLineCap=1))
        words = text(0, 0, self.words, MARK_PT, anchor=self.anchor, fill=self.colour)
        group.add(placed(words, compose(translate(*self.origin), rotate(self.angle))))
        return group


def end_mark(arrow: Arrow, side: Side, distance: float, edge: str, placing: Placing) -> EndMark:
    """The mark `distance` mm in from the arrow's tail or tip, its words on the arrow's left."""
    ux, uy = arrow.unit
    nx, ny = -uy, ux
    inward = 1.0 if side == "tail" else -1.0
    end = arrow.tail if side == "tail" else arrow.tip
    at = (end[0] + inward * ux * distance, end[1] + inward * uy * distance)
    size = font_mm(MARK_PT)
    if placing == "beside":  # the words' tops face back along the arrow: centred on the tick
        out, lift = TICK_HALF + MARK_GAP, CAP * size / 2
        origin = (at[0] + nx * out + ux * lift, at[1] + ny * out + uy * lift)
        angle, anchor = math.degrees(math.atan2(ny, nx)), "start"
    else:
        step, lift = inward * MARK_GAP, SHAFT / 2 + 0.7 + DESCENT * size
        origin = (at[0] + ux * step + nx * lift, at[1] + uy * step + ny * lift)
        angle, anchor = math.degrees(math.atan2(uy, ux)), "start" if side == "tail" else "end"
    return EndMark(at, (nx, ny), distance, f"{number(distance)} mm to the {edge}", origin, angle, anchor,
                   arrow.colour)


def mark_reach(dimension: Dimension, side: Side) -> float:
    """How far in from the arrow's end (mm, along it) a tip mark's words reach: captions stop short."""
    distance, edge, _ = END_MARKS[(dimension, side)]
    words = f"{number(distance)} mm to the {edge}"
    return distance + MARK_GAP + fonts.text_width(words, fonts.REGULAR, font_mm(MARK_PT))


def number(value: float) -> str:
    """210 -> '210', 363.738 -> '363.74': what a ruler shows, without trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def inches(mm: float) -> str:
    """A length in inches to a tenth: 363.74 mm -> '14.3', 215.9 mm -> '8.5'."""
    return f"{mm / MM_PER_INCH:.1f}".rstrip("0").rstrip(".")


def rounded(mm: float) -> str:
    """A length as the printed words give it, to the whole millimetre (363.74 -> '364'): the arrows
    themselves keep the paper's exact length; only the words round, as a publisher's would."""
    return f"{round(mm)}"


def who(sizes: list[str]) -> str:
    """['small', 'medium'] -> 'small and medium fighters'."""
    if not sizes:
        return "no fighter uses it"
    names = sizes[0] if len(sizes) == 1 else ", ".join(sizes[:-1]) + " and " + sizes[-1]
    return f"moves {names} fighters"


@dataclass(frozen=True)
class Caption:
    """A bold word in the arrow's colour followed by a smaller grey explanation, on one line."""

    word: str
    detail: str
    colour: Color

    @property
    def word_width(self) -> float:
        return fonts.text_width(self.word, fonts.BOLD, font_mm(LABEL_PT))

    @property
    def width(self) -> float:
        return self.word_width + WORD_GAP + fonts.text_width(self.detail, fonts.REGULAR, font_mm(DETAIL_PT))


@dataclass(frozen=True)
class MeasuringPage:
    paper: Paper
    labels: Labels
    range_mm: float
    users: dict[str, list[str]]  # dimension -> the fighter sizes that move with it
    colours: dict[str, Color] = field(default_factory=lambda: {**PAGE_COLOURS, "range": RANGE_COLOUR})
    reach: tuple[tuple[str, int, Dimension], ...] = ()  # size, actions, the arrow it moves with
    accent: Color = black  # the game's headings

    # -- geometry ---------------------------------------------------------------------------
    @property
    def size(self) -> tuple[float, float, float]:
        return self.paper.width, self.paper.height, self.paper.diagonal

    def page_arrows(self) -> dict[str, Arrow]:
        w, h, _ = self.size
        return {"width": Arrow((0.0, h - INSET), (w, h - INSET), self.colours["width"]),
                "length": Arrow((INSET, h), (INSET, 0.0), self.colours["length"]),
                "diagonal": Arrow((0.0, h), (w, 0.0), self.colours["diagonal"])}

    def end_marks(self) -> list[EndMark]:
        """Both ends of every page arrow fall where printers cannot print: each gets a mark."""
        arrows = self.page_arrows()
        marks = []
        for dim, side in END_MARKS:
            mark = end_mark(arrows[dim], side, *END_MARKS[(dim, side)])
            if (dim, side) in LEADER_ROWS:
                mark = self.led(mark, LEADER_ROWS[(dim, side)])
            marks.append(mark)
        return marks

    def led(self, mark: EndMark, below_top: float) -> EndMark:
        """`mark` with its words level at `below_top` mm under the top edge, from LEADER_X, and a
        leader from the tick's end nearest them to the middle of the words' left side."""
        baseline = self.paper.height - below_top
        (x, y), (ax, ay) = mark.at, mark.across
        ends = [(x + ax * TICK_HALF, y + ay * TICK_HALF), (x - ax * TICK_HALF, y - ay * TICK_HALF)]
        target = (LEADER_X - LEADER_GAP, baseline + CAP * font_mm(MARK_PT) / 2)
        start = min(ends, key=lambda end: math.dist(end, target))
        ux, uy = target[0] - start[0], target[1] - start[1]
        length = math.hypot(ux, uy)
        start = (start[0] + ux / length * LEADER_GAP, start[1] + uy / length * LEADER_GAP)
        return replace(mark, origin=(LEADER_X, baseline), angle=0.0, anchor="start", leader=(start, target))

    def range_arrow(self) -> Arrow:
        return Arrow((LANE_LEFT, RANGE_Y), (LANE_LEFT + self.range_mm, RANGE_Y), self.colours["range"],
                     RANGE_HEAD_LENGTH, RANGE_HEAD_HALF, TAIL_BAR_HALF)

    def room_right(self, y: float, clearance: float = CLEARANCE) -> float:
        """The largest x at height y that stays `clearance` below-left of LONG's centre line."""
        w, h, d = self.size
        return min((w * h - w * y - clearance * d) / h, w - SAFE_MARGIN_MM)

    def range_limit(self) -> float:
        """The longest range arrow that fits its lane: inside the safe margin and clear of LONG."""
        return self.room_right(RANGE_Y) - LANE_LEFT

    def text_box(self) -> Box:
        """The rectangle in the upper-right triangle that the page's instructions flow into."""
        w, h, d = self.size
        left = round(w * 0.47, 1)
        top, right = h - INSET - 10.0, w - 8.0
        bottom = (w * h - h * left + BOX_CLEARANCE * d) / w
        return left, bottom, right - left, top - bottom

    # -- captions and the slots they must fit -------------------------------------------------
    def captions(self) -> dict[str, Caption]:
        w, h, d = self.size
        caps: dict[str, Caption] = {}
        wording = {"width": "paper width, edge to edge", "length": "paper length, edge to edge",
                   "diagonal": "corner to corner"}
        for dim, length in zip(DIMENSIONS, (w, h, d)):
            caps[dim] = Caption(self.labels.of(dim), f"{wording[dim]}: {rounded(length)} mm "
                                f"({inches(length)} in) \u00b7 {who(self.users[dim])}", self.colours[dim])
        caps["range"] = Caption(self.labels.range, f"{number(self.range_mm)} mm ({inches(self.range_mm)} in)"
                                f" \u00b7 an attack reaches this far", self.colours["range"])
        return caps

    def slots(self) -> dict[str, tuple[float, float, float, float]]:
        """Per caption: the baseline origin, the direction in degrees, and the room it has (mm)."""
        w, h, d = self.size
        angle = -math.degrees(math.atan2(h, w))
        ux, uy, nx, ny = w / d, -h / d, h / d, w / d
        start = 0.30 * d
        gap = SHAFT / 2 + 2.2 + DESCENT * font_mm(LABEL_PT)
        range_base = RANGE_Y + TAIL_BAR_HALF + 2.0
        return {
            "width": (LANE_LEFT, h - INSET - SHAFT / 2 - 2.2 - CAP * font_mm(LABEL_PT), 0.0,
                      w - END_MARKS[("width", "tip")][0] - 2.0 - LANE_LEFT),
            "length": (INSET + gap, h - INSET - 24.0, -90.0,
                       (h - INSET - 24.0) - mark_reach("length", "tip") - 4.0),
            "diagonal": (start * ux + gap * nx, h + start * uy + gap * ny, angle,
                         d - mark_reach("diagonal", "tip") - 6.0 - start),
            "range": (LANE_LEFT, range_base, 0.0,
                      self.room_right(range_base + CAP * font_mm(LABEL_PT)) - LANE_LEFT),
        }

    def problems(self) -> Iterable[tuple[Loc, str]]:
        """Build-time checks that depend on the paper: the range lane and every caption's room."""
        limit = self.range_limit()
        if self.range_mm > limit:
            yield ("range_mm",), (f"expected at most {limit:.1f} mm: on {self.paper.name} paper the "
                                  f"range arrow must lie inside the {SAFE_MARGIN_MM:g} mm safe margin "
                                  f"and clear of the {self.labels.diagonal} arrow "
                                  f"(got {number(self.range_mm)})")
        captions, slots = self.captions(), self.slots()
        for key, caption in captions.items():
            room = slots[key][3]
            if caption.width > room:
                yield ("labels", key), (f"the caption '{caption.word} {caption.detail}' is "
                                        f"{caption.width:.1f} mm long and its place on the measuring "
                                        f"page holds {room:.1f} mm; shorten the label")

    # -- drawing ----------------------------------------------------------------------------
    def shapes(self, captions: Sequence[Group]) -> list[Group]:
        """The page's drawing, with the arrows' labels (drawn and placed by captions.py)."""
        group = Group()
        for arrow in self.page_arrows().values():
            group.add(arrow.drawing())
        for mark in self.end_marks():
            group.add(mark.drawing())
        group.add(self.range_arrow().drawing())
        for caption in captions:
            group.add(caption)
        (mm_y, mm_length, mm_label), (in_y, in_length, in_label) = BARS
        group.add(scale_bar(LANE_LEFT, mm_y, mm_length, [10.0 * i for i in range(11)], 50.0, mm_label))
        group.add(scale_bar(LANE_LEFT, in_y, in_length, [MM_PER_INCH / 4 * i for i in range(17)],
                            MM_PER_INCH, in_label))
        group.add(text(LANE_LEFT, CHECK_Y, "Check the print with a ruler: these bars must measure "
                       "100 mm and 4 in.", NOTE_PT, fonts.ITALIC))
        group.add(leapfrog(LANE_LEFT, DRAWING_TOP))
        note = self.reach_note()
        if note is not None:
            group.add(note)
        return [group]

    def reach_lines(self) -> list[tuple[str, str, Dimension, str, str]]:
        """Per size: its name, the moves ('3 ×'), the arrow, and how far they take it (mm, inches)."""
        lengths = dict(zip(DIMENSIONS, self.size))
        return [(size.capitalize(), f"{actions} \u00d7", dim, f"{rounded(actions * lengths[dim])} mm",
                 f"({inches(actions * lengths[dim])} in)") for size, actions, dim in self.reach]

    def reach_note(self) -> Group | None:
        """How far each size gets when it spends every action moving, counted in this paper's own
        arrows, in the lower-left room between the move drawing and LONG; None when it has no fighters
        or would not clear LONG (a label of the definition's too long for the room)."""
        if not self.reach:
            return None
        lead = font_mm(NOTE_PT) * 1.35
        intro = wrap(REACH_INTRO, fonts.REGULAR, NOTE_PT, REACH_MEASURE)
        outro = wrap(REACH_OUTRO, fonts.REGULAR, NOTE_PT, REACH_MEASURE)
        rows = self.reach_lines()
        top = DRAWING_TOP + REACH_GAP + 5.0 + (len(intro) + len(rows) + len(outro) - 1) * lead + 1.0
        size_w = max(fonts.text_width(name, fonts.REGULAR, font_mm(NOTE_PT)) for name, *_ in rows) + 3.0
        moves_w = max(fonts.text_width(f"{moves} {self.labels.of(dim)}", fonts.BOLD, font_mm(NOTE_PT))
                      for _, moves, dim, *_ in rows) + 3.0
        far_w = max(fonts.text_width(far, fonts.REGULAR, font_mm(NOTE_PT)) for *_, far, _ in rows)
        in_w = max(fonts.text_width(f" {far}", fonts.REGULAR, font_mm(NOTE_PT)) for *_, far in rows)
        widest = max([size_w + moves_w + far_w + in_w, fonts.text_width(REACH_HEADING, fonts.BOLD, font_mm(BAR_LABEL_PT)),
                      *(fonts.text_width(line, fonts.REGULAR, font_mm(NOTE_PT)) for line in intro + outro)])
        if widest > self.room_right(top + CAP * font_mm(BAR_LABEL_PT)) - LANE_LEFT:
            return None
        group = Group()
        group.add(text(LANE_LEFT, top, REACH_HEADING, BAR_LABEL_PT, fonts.BOLD, fill=self.accent))
        y = top - 5.0
        for line in intro:
            group.add(text(LANE_LEFT, y, line, NOTE_PT))
            y -= lead
        y -= 0.5
        for name, moves, dim, far, far_in in rows:
            group.add(text(LANE_LEFT, y, name, NOTE_PT))
            group.add(text(LANE_LEFT + size_w, y, moves, NOTE_PT))
            times = fonts.text_width(f"{moves} ", fonts.REGULAR, font_mm(NOTE_PT))
            group.add(text(LANE_LEFT + size_w + times, y, self.labels.of(dim), NOTE_PT, fonts.BOLD,
                           fill=self.colours[dim]))
            group.add(text(LANE_LEFT + size_w + moves_w + far_w, y, far, NOTE_PT, anchor="end"))
            group.add(text(LANE_LEFT + size_w + moves_w + far_w, y, f" {far_in}", NOTE_PT))
            y -= lead
        y -= 0.5
        for line in outro:
            group.add(text(LANE_LEFT, y, line, NOTE_PT))
            y -= lead
        return group


def scale_bar(x: float, y: float, length: float, ticks: list[float], major: float, label: str) -> Group:
    """A ruler line with end ticks at exactly 0 and `length`; longer ticks every `major` mm."""
    group = Group()
    group.add(Line(x, y, x + length, y, strokeColor=SCALE_COLOUR, strokeWidth=0.35, strokeLineCap=0))
    for t in ticks:
        end = math.isclose(t, 0.0) or math.isclose(t, length)
        high = 5.0 if end else 3.5 if math.isclose(t / major, round(t / major)) else 2.0
        group.add(Line(x + t, y, x + t, y + high, strokeColor=SCALE_COLOUR,
                       strokeWidth=0.3 if end else 0.2, strokeLineCap=0))
    group.add(text(x + length + 2.5, y - 0.2, label, BAR_LABEL_PT, fonts.BOLD))
    return group


REACH_HEADING = "How far in one activation"
REACH_INTRO = "Every action spent on a move, the arrow laid again where the fighter lands:"
REACH_OUTRO = "A fighter that goes that far has no action left to attack with."
LEAP_NOTE = ("Moving: lay the arrow's tail against the front of the base and point it where the "
             "fighter goes; then set the fighter down with the back of its base at the tip.")


def leapfrog(x: float, top: float) -> Group:
    """A small not-to-scale drawing of one move, so the leapfrog is clear at a glance."""
    group = Group()
    lines = wrap(LEAP_NOTE, fonts.REGULAR, NOTE_PT, 78.0)
    lead = font_mm(NOTE_PT) * 1.25
    for k, line in enumerate(lines):
        group.add(text(x, top - k * lead, line, NOTE_PT))
    r = 6.0
    cy = top - len(lines) * lead - r - 4.0
    before, after = x + r, x + r + 2 * r + 42.0 + r
    group.add(Circle(before, cy, r, fillColor=LIGHT, strokeColor=GREY, strokeWidth=0.3))
    group.add(Circle(after, cy, r, fillColor=white, strokeColor=GREY, strokeWidth=0.3,
                     strokeDashArray=[1.2, 0.8]))
    group.add(Arrow((before + r, cy), (after - r, cy), GREY, 5.0, 1.8).drawing())
    group.add(text(before, cy - r - 3.5, "before", NOTE_PT, anchor="middle", fill=GREY))
    group.add(text(after, cy - r - 3.5, "after", NOTE_PT, anchor="middle", fill=GREY))
    group.add(text(after + r + 3.0, cy - 1.0, "(not to scale)", NOTE_PT, fonts.ITALIC, fill=GREY))
    return group
