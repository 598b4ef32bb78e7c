"""The Armies figure: the army card in each position that marks lost stamina, drawn in mm.

Each position gets an equal cell: the card turned about its centre (or shown face down), its name
under it and how many SP it means lost. The card is sized so that even turned 45 degrees it stays
inside its cell, whatever the column width.
"""
from __future__ import annotations

from math import cos, radians, sin

from reportlab.graphics.shapes import Drawing, Group, Line, rotate, translate
from reportlab.lib.colors import Color, HexColor, white

from printgen.drawing import fonts
from printgen.core.paper import PT_PER_MM, font_mm
from printgen.drawing.picture import compose, placed, rect, text
from printgen.drawing.document import DoesNotFit
from printgen.games.armies.model import Armies, Position

CARD_RATIO = 88 / 63  # a poker card's height over its width
LABEL_PT = 7.5
LABELS = 9.0  # mm under the cards for the two label lines
MAX_CARD_WIDTH = 16.0


def extent(turn: float, w: float, h: float) -> tuple[float, float]:
    """Width and height of the box around a w x h card turned by `turn` degrees."""
    a = radians(turn)
    return abs(w * cos(a)) + abs(h * sin(a)), abs(w * sin(a)) + abs(h * cos(a))


def card(w: float, h: float, index: str, position: Position, ink: Color) -> Group:
    """The card centred on (0, 0): a face with its corner index, or a patterned back."""
    group = Group()
    if position.face_down:
        group.add(rect(-w / 2, -h / 2, w, h, fill=ink, stroke=ink, stroke_width=0.3, radius=1.2))
        group.add(rect(-w / 2 + 1.2, -h / 2 + 1.2, w - 2.4, h - 2.4, stroke=white, stroke_width=0.35,
                       radius=0.8))
        group.add(lattice(w - 2.4, h - 2.4, 2.2))
        return group
    group.add(rect(-w / 2, -h / 2, w, h, fill=white, stroke=ink, stroke_width=0.4, radius=1.2))
    size = max(7.0, w * 0.55)
    group.add(text(-w / 2 + 1.0, h / 2 - 1.0 - font_mm(size) * 0.75, index, size, fonts.BOLD, fill=ink))
    big = w * 1.6  # pt
    group.add(text(0, -font_mm(big) * 0.36, index, big, fonts.BOLD, anchor="middle", fill=ink))
    turned = Group(text(0, 0, index, size, fonts.BOLD, fill=ink),
                   transform=compose(translate(w / 2 - 1.0, -h / 2 + 1.0 + font_mm(size) * 0.75),
                                     rotate(180)))
    group.add(turned)
    return group


def lattice(w: float, h: float, step: float) -> Group:
    """A diamond lattice inside a w x h box centred on (0, 0), the usual look of a card back."""
    group = Group()
    n = int((w + h) / step) + 1
    for k in range(n + 1):
        d = -h / 2 - w / 2 + k * step  # lines x - y = d and x + y = d, clipped to the box
        for sign in (1, -1):
            pts = []
            for x in (-w / 2, w / 2):
                y = sign * (x - d)
                if -h / 2 <= y <= h / 2:
                    pts.append((x, y))
            for y in (-h / 2, h / 2):
                x = d + sign * y
                if -w / 2 <= x <= w / 2:
                    pts.append((x, y))
            pts = sorted(set((round(px, 6), round(py, 6)) for px, py in pts))
            if len(pts) >= 2:
                (xa, ya), (xb, yb) = pts[0], pts[-1]
                group.add(Line(xa, ya, xb, yb, strokeColor=white, strokeWidth=0.15))
    return group


def positions_figure(defn: Armies, width: float, accent: str, columns_key: str = "reference.columns") -> Drawing:
    """A Drawing `width` mm wide: every position in a row, labelled, as a flowable for the sheet;
    `columns_key` is the setting a user can lower when the names do not fit."""
    n = len(defn.positions)
    cell = width / n
    ink = HexColor(accent)
    widest = max(fonts.text_width(p.name, fonts.BOLD, font_mm(LABEL_PT)) for p in defn.positions)
    if widest > cell - 1:
        raise DoesNotFit(("positions",), (
            f"the position drawing gives each of the {n} positions {cell:.0f} mm of a {width:.0f} mm "
            f"column, and the longest name needs {widest + 1:.0f} mm; shorten the names or use fewer "
            f"{columns_key}"))
    w = min(MAX_CARD_WIDTH, (cell - 2) / max(extent(p.turn, 1, CARD_RATIO)[0] for p in defn.positions))
    h = w * CARD_RATIO
    tallest = max(extent(p.turn, w, h)[1] for p in defn.positions)
    height = tallest + LABELS + 2.5  # 2 mm clear above the tallest (turned) card
    index = max(defn.stamina, key=lambda a: a.stamina).index
    group = Group()
    for i, position in enumerate(defn.positions):
        cx, cy = cell * (i + 0.5), LABELS + 0.5 + tallest / 2
        turned = placed(card(w, h, index, position, ink), compose(translate(cx, cy), rotate(-position.turn)))
        group.add(turned)
        group.add(text(cx, LABELS - font_mm(LABEL_PT) * 1.0, position.name, LABEL_PT, fonts.BOLD,
                       anchor="middle"))
        lost = "nothing lost" if i == 0 else f"{i} SP lost"
        group.add(text(cx, LABELS - font_mm(LABEL_PT) * 2.25, lost, LABEL_PT, anchor="middle"))
    drawing = Drawing(width * PT_PER_MM, height * PT_PER_MM)
    drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise select Helvetica
    drawing.add(placed(group, (PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
    return drawing
