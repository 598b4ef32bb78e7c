"""`printgen calibrate`: a two-page duplex test sheet that tells the user their printer's back offset.

Held to the light, the back's long line runs through exactly one front bar of a 0.5 mm staircase
(an eye judges alignment far more finely than a ruler), labelled with the `--back-offset` it means.
The back goes through `Duplex` exactly as in a real build; a centred arrow checks the flip edge.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Group, Polygon
from reportlab.lib.colors import Color, HexColor, black

from printgen.drawing import fonts
from printgen.core.paper import Flip, Paper
from printgen.drawing.picture import LineStyle, guide, placed, rect, text
from printgen.layout.sheet import Duplex
from printgen.drawing.document import Document, Page
from printgen.output.writers import write

STEP = 0.5  # mm between neighbouring bars: the sheet's resolution
REACH = 6.0  # mm either side of the offset printed with
X_PITCH = 4.0  # mm between rows of the x staircase
Y_PITCH = 5.0  # mm between columns of the y staircase
BAR = 3.0  # mm: length of one bar
BAR_STYLE = LineStyle("calibration bar", 0.3, None)
BACK_STYLE = LineStyle("calibration line", 0.3, None)
LABEL_PT = 7.0
BAND = HexColor("#ececec")
ARROW_W, ARROW_H = 18.0, 32.0
OTHER: dict[str, Flip] = {"long": "short", "short": "long"}


@dataclass(frozen=True)
class Layout:
    """Where the gauges sit, in front-page mm (y up), derived from the paper (calibration_pdf)."""

    x_gauge: tuple[float, float]  # centre of the x staircase: (bar column, middle row)
    y_gauge: tuple[float, float]  # centre of the y staircase: (middle column, bar row)
    arrow: tuple[float, float]  # the page centre: a turned back stays centred there


def values(centre: float) -> list[float]:
    """The readings a staircase offers: multiples of STEP within REACH of `centre`."""
    middle = round(centre / STEP) * STEP
    count = round(REACH / STEP)
    return [middle + k * STEP for k in range(-count, count + 1)]


def label(value: float) -> str:
    return "0" if abs(value) < 1e-9 else f"{value:+g}"


def front_frame(duplex: Duplex) -> tuple[int, int]:
    """How a shift of the back (x right, y up as the back is viewed) looks from the front."""
    return (-1, 1) if duplex.side_to_side else (1, -1)


def x_staircase(layout: Layout, duplex: Duplex, offset: float) -> Group:
    """Bar v stands where the back line lands if `--back-offset` v is right: cx + sx * (offset - v)."""
    sx, _ = front_frame(duplex)
    cx, cy = layout.x_gauge
    readings = values(offset)
    group = Group()
    left = cx - REACH - 10
    for i, v in enumerate(readings):
        y = cy + (i - len(readings) // 2) * X_PITCH
        if i % 2 == 0:
            group.add(rect(left - 1, y - X_PITCH / 2, cx + REACH + 3 - left, X_PITCH, fill=BAND))
        x = cx + sx * (offset - v)
        group.add(guide(x, y - BAR / 2, x, y + BAR / 2, BAR_STYLE))
        group.add(text(left + 7, y - 0.8, label(v), LABEL_PT, anchor="end",
                       font=fonts.BOLD if v == round(v) else fonts.REGULAR))
    top = cy + (len(readings) // 2 + 1) * X_PITCH
    group.add(text(left - 1, top + 2, "X reading", 9, fonts.BOLD))
    group.add(text(left - 1, top - 1.5, "mm, the X of --back-offset", LABEL_PT))
    return group


def y_staircase(layout: Layout, duplex: Duplex, offset: float) -> Group:
    """Bars for the y reading, a column per value, labels turned to read upwards."""
    _, sy = front_frame(duplex)
    cx, cy = layout.y_gauge
    readings = values(offset)
    group = Group()
    bottom = cy - REACH - 11
    for i, v in enumerate(readings):
        x = cx + (i - len(readings) // 2) * Y_PITCH
        if i % 2 == 0:
            group.add(rect(x - Y_PITCH / 2, bottom - 1, Y_PITCH, cy + REACH + 3 - bottom, fill=BAND))
        y = cy + sy * (offset - v)
        group.add(guide(x - BAR / 2, y, x + BAR / 2, y, BAR_STYLE))
        turned_label = Group(text(0, 0, label(v), LABEL_PT, font=fonts.BOLD if v == round(v) else fonts.REGULAR,
                                  anchor="end"), transform=(0, 1, -1, 0, x + 0.8, bottom + 8))
        group.add(turned_label)
    left = cx - (len(readings) // 2 + 1) * Y_PITCH
    group.add(text(left - 3, cy + 1, "Y reading", 9, fonts.BOLD, anchor="end"))
    group.add(text(left - 3, cy - 2.5, "mm, the Y of", LABEL_PT, anchor="end"))
    group.add(text(left - 3, cy - 5.2, "--back-offset", LABEL_PT, anchor="end"))
    return group


def arrow(cx: float, cy: float, inset: float = 0.0) -> list[float]:
    """An upward arrow centred on (cx, cy), `inset` mm inside the full outline."""
    w, h = ARROW_W / 2 - inset, ARROW_H / 2 - inset
    shaft, head = w * 0.42, h * 0.2
    points = [(0, h), (w, head), (shaft, head), (shaft, -h), (-shaft, -h), (-shaft, head), (-w, head)]
    return [v for x, y in points for v in (cx + x, cy + y)]


def flip_check(layout: Layout, flip: Flip) -> Group:
    cx, cy = layout.arrow
    group = Group(Polygon(arrow(cx, cy), fillColor=None, strokeColor=black, strokeWidth=0.4),
                  text(cx, cy - ARROW_H / 2 - 5, "Flip check", 9, fonts.BOLD, anchor="middle"))
    notes = ["The dark arrow from the back should",
             "fill this outline, pointing up. If it",
             "points down, your printer turns pages",
             f"on the other edge: use --flip {OTHER[flip]}."]
    for i, line in enumerate(notes):
        group.add(text(cx, cy - ARROW_H / 2 - 9.5 - 3.4 * i, line, 7, anchor="middle"))
    return group


def back_marks(layout: Layout) -> Group:
    """What the back must print, drawn where it should land on the front (the sheet mirrors it)."""
    half = len(values(0)) // 2 + 0.5  # the lines end with the staircases' shaded bands
    cx, cy = layout.x_gauge
    rows = half * X_PITCH
    gx, gy = layout.y_gauge
    columns = half * Y_PITCH
    ax, ay = layout.arrow
    return Group(guide(cx, cy - rows, cx, cy + rows, BACK_STYLE),
                 guide(gx - columns, gy, gx + columns, gy, BACK_STYLE),
                 Polygon(arrow(ax, ay, inset=1.2), fillColor=HexColor("#333333"), strokeColor=None,
                         strokeWidth=0))


def instructions(duplex: Duplex, offset: tuple[float, float]) -> Group:
    paper, flip = duplex.paper, duplex.flip
    top = paper.height - 16
    printed = f"{label(offset[0])},{label(offset[1])}" if any(offset) else "0,0 (none)"
    group = Group(text(15, top, "printgen duplex calibration", 15, fonts.BOLD),
                  text(15, top - 6, f'{paper.name}, "{duplex.dialog}", back offset {printed}', 8))
    steps = [
        f'1. Print both pages on one sheet at Actual size (100 %), no scaling, choosing "{duplex.dialog}".',
        "2. Hold the sheet up to a window or a lamp, front towards you, and look through it.",
        "3. Flip check: the dark arrow must point up inside the outlined arrow.",
        "4. On each staircase, find the one short bar that lies exactly on the long line from the back.",
        "    The number beside that bar is your reading. Between two bars? Either number is close enough.",
        "5. Build with both readings:  printgen build --back-offset X,Y",
        f"    or keep them for every build:  printgen calibrate --save X,Y --flip {flip}",
        "If the line misses every bar, print this sheet again with --back-offset set to a rough guess.",
    ]
    for i, line in enumerate(steps):
        group.add(text(15, top - 14 - 4.2 * i, line, 8))
    return group


def scale_bar(paper: Paper) -> Group:
    """100 mm with centimetre ticks: a scaled print misreads every offset, so check it first."""
    x, y = 15.0, paper.height - 74
    group = Group(guide(x, y, x + 100, y, BAR_STYLE))
    for cm in range(11):
        tall = 4.0 if cm in (0, 5, 10) else 2.0  # never BAR long: the staircases own that length
        group.add(guide(x + 10 * cm, y, x + 10 * cm, y + tall, BAR_STYLE))
    group.add(text(x + 104, y - 0.6, "this bar is 100 mm long; if it is not, the page was scaled:", 7))
    group.add(text(x + 104, y - 4.0, "print again at Actual size", 7))
    return group


def answer_box(paper: Paper, layout: Layout) -> Group:
    """Where to write the readings: low on the right, where no back mark falls even if turned."""
    x, y = paper.width - 62, layout.arrow[1] - 46
    return Group(rect(x, y - 26, 48, 30, stroke=black, stroke_width=0.25),
                 text(x + 3, y - 3, "Your readings", 8, fonts.BOLD),
                 text(x + 3, y - 12, "X = ________ mm", 8), text(x + 3, y - 21, "Y = ________ mm", 8))


def back_text(duplex: Duplex, grey: Color = HexColor("#777777")) -> Group:
    """Words for the back, behind the front's empty foot strip so they never show through its text."""
    paper = duplex.paper
    _, y, _, h = duplex.back_box((0, 8, paper.width, 14))
    return Group(text(paper.width / 2, y + h - 5, "Back of the calibration sheet", 11, fonts.BOLD,
                      anchor="middle", fill=grey),
                 text(paper.width / 2, y + 1.5, "Turn the sheet over and read it from the front, "
                      "held up to the light.", 8, anchor="middle", fill=grey))


def calibration_pdf(paper: Paper, flip: Flip, offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The two-page test sheet, its back drawn through `Duplex` with `offset` as a build's would be."""
    layout = Layout((42.0, paper.height / 2 - 8), (paper.width / 2 + 8, 42.0), (paper.width / 2, paper.height / 2))
    duplex = Duplex(paper, flip, offset)
    front = Page(shapes=[instructions(duplex, offset), x_staircase(layout, duplex, offset[0]),
                         y_staircase(layout, duplex, offset[1]), flip_check(layout, flip),
                         answer_box(paper, layout), scale_bar(paper)])
    back = duplex.back_page()  # carries `offset`, as a real build's back page does
    back.shapes += [placed(back_marks(layout), duplex.mirror()), back_text(duplex)]
    return write(Document("calibrate.pdf", paper, [front, back], "printgen duplex calibration",
                          "Print double-sided at actual size; read the back offset against the light", flip))
