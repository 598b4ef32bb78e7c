"""The Armies figure: the army card in each position that marks lost stamina.

printgen works out the geometry and `armies/positions.svg.j2` draws it; a user's copy is checked
to keep its text inside the drawing's box."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from reportlab.graphics.shapes import Drawing, Group

from printgen.core.paper import PT_PER_MM, font_mm
from printgen.drawing import fonts
from printgen.drawing.document import DoesNotFit
from printgen.drawing.picture import placed
from printgen.games.armies.model import Armies
from printgen.games.pieces import Piece, PieceTemplates, past_safe_area

TEMPLATE = "armies/positions.svg.j2"
CARD_RATIO = 88 / 63  # a poker card's height over its width
LABEL_PT = 7.5
LABELS = 9.0  # mm under the cards for the two label lines
MAX_CARD_WIDTH = 16.0
CORNER = 1.2  # mm: the card's corner radius, and the inset of a back's frame
LATTICE_STEP = 2.2  # mm between the lines of a card back's diamond lattice


def extent(turn: float, w: float, h: float) -> tuple[float, float]:
    """Width and height of the box around a w x h card turned by `turn` degrees."""
    a = math.radians(turn)
    return abs(w * math.cos(a)) + abs(h * math.sin(a)), abs(w * math.sin(a)) + abs(h * math.cos(a))


def lattice(w: float, h: float, step: float) -> list[list[float]]:
    """A diamond lattice clipped to a w x h box centred on (0, 0), each line as [x1, y1, x2, y2], y down."""
    lines = []
    for k in range(int((w + h) / step) + 2):
        d = -h / 2 - w / 2 + k * step
        lo, hi = max(-w / 2, d - h / 2), min(w / 2, d + h / 2)  # where x - y = d and x + y = d cross the box
        if round(lo, 6) < round(hi, 6):
            for sign in (1, -1):  # y = sign * (x - d), y up
                lines.append([round(lo, 6), -round(sign * (lo - d), 6), round(hi, 6), -round(sign * (hi - d), 6)])
    return lines


def check_names(defn: Armies, width: float, columns_key: str) -> None:
    """Every position's name must fit its cell; else say what to change."""
    n = len(defn.positions)
    cell = width / n
    widest = max(fonts.text_width(p.name, fonts.BOLD, font_mm(LABEL_PT)) for p in defn.positions)
    if widest > cell - 1:
        raise DoesNotFit(("positions",), (
            f"the position drawing gives each of the {n} positions {cell:.0f} mm of a {width:.0f} mm "
            f"column, and the longest name needs {widest + 1:.0f} mm; shorten the names or use fewer "
            f"{columns_key}"))


def figure_data(defn: Armies, width: float, accent: str) -> dict[str, Any]:
    """What the template draws, in millimetres, y down from the figure's top-left corner."""
    n = len(defn.positions)
    cell = width / n
    w = min(MAX_CARD_WIDTH, (cell - 2) / max(extent(p.turn, 1, CARD_RATIO)[0] for p in defn.positions))
    h = w * CARD_RATIO
    tallest = max(extent(p.turn, w, h)[1] for p in defn.positions)
    height = tallest + LABELS + 2.5  # 2 mm clear above the tallest (turned) card
    label = font_mm(LABEL_PT)
    corner = font_mm(max(LABEL_PT, w * 0.55))  # never under the labels' size, however the card turns
    index = max(defn.stamina, key=lambda a: a.stamina).index
    return {
        "figure": {"width": width, "height": height},
        "ink": accent,
        "card": {"width": w, "height": h, "radius": CORNER, "index": index,
                 "corner_size": corner, "big_size": font_mm(w * 1.6),
                 "back": {"inset": CORNER, "radius": CORNER - 0.4,
                          "lattice": lattice(w - 2 * CORNER, h - 2 * CORNER, LATTICE_STEP)}},
        "label_size": label,
        "positions": [{"number": i, "name": p.name, "lost": "nothing lost" if i == 0 else f"{i} SP lost",
                       "turn": p.turn, "face_down": p.face_down,
                       "cell": {"x": cell * i, "width": cell},
                       "x": cell * (i + 0.5), "y": height - (LABELS + 0.5 + tallest / 2),
                       "name_y": height - (LABELS - label), "lost_y": height - (LABELS - label * 2.25)}
                      for i, p in enumerate(defn.positions)],
    }


@dataclass
class PositionFigures:
    """The position drawings of one build, every width in one batch (warnings to the templates')."""

    defn: Armies
    accent: str
    templates: PieceTemplates
    drawn: dict[float, tuple[Piece, Group]] = field(default_factory=dict)  # by width, to 1e-6 mm

    def prepare(self, widths: list[float]) -> None:
        """Draw every new width together; names that do not fit are left for `figure` to report."""
        wanted: dict[float, float] = {}
        for width in widths:
            try:
                check_names(self.defn, width, "columns")
            except DoesNotFit:
                continue
            if round(width, 6) not in self.drawn:
                wanted.setdefault(round(width, 6), width)
        data = [figure_data(self.defn, width, self.accent) for width in wanted.values()]
        pieces = [Piece(d, d["figure"]["width"], d["figure"]["height"],
                        f"the position drawing ({d['figure']['width']:.1f} mm wide)") for d in data]
        drawn = list(zip(pieces, self.templates.draw_batches([(TEMPLATE, pieces)])[0]))
        self.drawn.update(zip(wanted, drawn))
        self.templates.warn_past(TEMPLATE, [(piece, *past) for piece, group in drawn
                                            for past in past_safe_area(group, piece.width, piece.height, 0.0)],
                                 "past the drawing's box, over the text around it",
                                 "keep the text inside figure.width and figure.height")

    def figure(self, width: float, columns_key: str = "reference.columns") -> Drawing:
        """A Drawing `width` mm wide: every position in a row, labelled, as a flowable for the
        sheet; `columns_key` is the setting a user can lower when the names do not fit."""
        check_names(self.defn, width, columns_key)
        self.prepare([width])
        piece, group = self.drawn[round(width, 6)]
        drawing = Drawing(piece.width * PT_PER_MM, piece.height * PT_PER_MM)
        drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise select Helvetica
        drawing.add(placed(group, (PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
        return drawing
