"""The measuring page's arrow labels, drawn from `quick_violence/arrow-label.svg.j2` in one batch.

Only the labels are templated, since the rest is the measurement itself; a user's label is
checked to stay off the printer margin and every measuring mark, each outlined as convex polygons
(mm, y up)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from reportlab.graphics.shapes import Group, String, rotate, translate

from printgen.core.paper import SAFE_MARGIN_MM, font_mm
from printgen.drawing import fonts
from printgen.drawing.picture import Matrix, compose, hex_of, placed
from printgen.games.piecebounds import drawn_shapes, furthest_outside, located_shape, overlap, quad_of, tag_of
from printgen.games.pieces import Piece, PieceTemplates
from printgen.games.quick_violence.measuring_page import (BAR_LABEL_PT, BARS, CAP, DESCENT, DETAIL_PT, DIMENSIONS,
                                                          GREY, LABEL_PT, LANE_LEFT, MARK_PT, SHAFT, TICK_HALF,
                                                          TICK_WIDTH, WORD_GAP, Arrow, Caption, EndMark,
                                                          MeasuringPage, Point, inches, number)
from printgen.games.unflipped import unflipped

TEMPLATE = "quick_violence/arrow-label.svg.j2"
PAD = 0.4  # mm between the tops of a label's capitals and its box
TOLERANCE = 0.05  # mm a label may touch a mark or the margin before it is reported

Mark = tuple[str, list[Point]]  # what a mark is (for messages) and its outline


@dataclass
class ArrowLabels:
    """The page's four labels, drawn from the template and placed; template warnings to `warnings`."""

    page: MeasuringPage
    templates: PieceTemplates
    warnings: list[str] = field(default_factory=list)

    def label_data(self, key: str, caption: Caption, room: float) -> dict[str, Any]:
        """What the template draws, in mm, y down from the top-left corner of the label's box."""
        size, detail = font_mm(LABEL_PT), font_mm(DETAIL_PT)
        height = PAD + CAP * size  # the baseline runs along the box's foot; descenders hang below
        lengths = dict(zip(("width", "length", "diagonal"), self.page.size))
        length = self.page.range_mm if key == "range" else lengths[key]
        return {
            "arrow": {"name": key, "label": caption.word, "colour": hex_of(caption.colour),
                      "length": number(length), "inches": inches(length),
                      "fighters": self.page.users.get(key, [])},
            "box": {"width": room, "height": height, "arrow_side": "top" if key == "width" else "bottom"},
            "word": {"text": caption.word, "x": 0.0, "y": height, "size": size, "width": caption.word_width},
            "detail": {"text": caption.detail, "x": caption.word_width + WORD_GAP, "y": height,
                       "size": detail, "width": caption.width - caption.word_width - WORD_GAP,
                       "colour": hex_of(GREY)},
        }

    def pieces(self) -> list[tuple[str, Piece, Matrix]]:
        """Each label's key, piece, and matrix from its box's mm (y up) to the page."""
        captions = self.page.captions()
        found: list[tuple[str, Piece, Matrix]] = []
        for key, (x, y, angle, room) in self.page.slots().items():
            data = self.label_data(key, captions[key], room)
            found.append((key, Piece(data, room, data["box"]["height"], f"the {captions[key].word} label"),
                          compose(translate(x, y), rotate(angle))))
        return found

    def drawn(self) -> list[Group]:
        """The four labels placed on the page in one batch, checked as they come."""
        found = self.pieces()
        groups = self.templates.draw_many(TEMPLATE, [piece for _, piece, _ in found])
        placed_labels = []
        for (key, piece, matrix), drawn in zip(found, groups):
            group = unflipped(drawn)
            self.check(piece, group, matrix)
            placed_labels.append(placed(group, matrix))
        for warning in self.templates.warnings:
            self.warn(warning)
        return placed_labels

    def check(self, piece: Piece, group: Group, matrix: Matrix) -> None:
        """Warn, at the template line that drew it, when a label reaches into the margin
        printers leave blank or covers a measuring mark (an arrow, a tick or its words, a bar)."""
        w, h, safe = self.page.paper.width, self.page.paper.height, SAFE_MARGIN_MM
        into, shape, ident, count = furthest_outside(group, (safe, safe, w - safe, h - safe), matrix)
        if into > TOLERANCE:
            self.report(piece, shape, ident, count, f"reaches {into:.1f} mm into the {safe:g} mm at the "
                        f"paper's edge", "printers leave that strip blank")
        marks = page_marks(self.page)
        covers: list[tuple[Any, str | None, str]] = []
        for shape, where, ident in drawn_shapes(group, matrix):
            quad = quad_of(shape, where)
            hit = None if quad is None else next((name for name, outline in marks
                                                  if overlap(quad, outline, TOLERANCE)), None)
            if hit is not None:
                covers.append((shape, ident, hit))
        if covers:
            shape, ident, hit = covers[0]
            self.report(piece, shape, ident, len(covers), f"covers {hit}", "a label must leave the "
                        "measuring marks clear, or the page cannot be read as a ruler")

    def report(self, piece: Piece, shape: Any, ident: str | None, count: int, what: str, why: str) -> None:
        """One warning at the line that wrote `shape`, counting the label's others that do the same."""
        file, line = located_shape(self.templates, TEMPLATE, shape, ident)
        tag = tag_of(shape)
        named = f"'{shape.text}'" if isinstance(shape, String) else f"a {tag}>" if tag != "<" else "a shape"
        more = f" (and {count - 1} more of its shapes)" if count > 1 else ""
        self.warn(f"{file}:{line}: warning: {piece.label}: {named} {what}{more}; {why}")

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


def band(start: Point, end: Point, half: float) -> list[Point]:
    """The outline of a line `2 * half` wide from `start` to `end`, with butt ends."""
    (x1, y1), (x2, y2) = start, end
    length = math.dist(start, end)
    nx, ny = (y1 - y2) / length * half, (x2 - x1) / length * half
    return [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]


def arrow_marks(arrow: Arrow, name: str) -> list[Mark]:
    """The ink an arrow prints: the shaft (to the head's base), the head and the tail bar."""
    (tx, ty), (px, py) = arrow.tail, arrow.tip
    (ux, uy), h = arrow.unit, arrow.head_half
    nx, ny = -uy, ux
    bx, by = px - ux * arrow.head_length, py - uy * arrow.head_length
    found = [(f"the {name}'s shaft", band((tx, ty), (bx, by), SHAFT / 2)),
             (f"the {name}'s head", [(px, py), (bx + nx * h, by + ny * h), (bx - nx * h, by - ny * h)])]
    if arrow.tail_bar:
        bar = arrow.tail_bar
        found.append((f"the bar at the {name}'s tail",
                      band((tx + nx * bar, ty + ny * bar), (tx - nx * bar, ty - ny * bar), SHAFT / 2)))
    return found


def end_mark_marks(mark: EndMark) -> list[Mark]:
    """An end mark's tick, and the box its words take (turned with them)."""
    (x, y), (ax, ay), h = mark.at, mark.across, TICK_HALF
    size = font_mm(MARK_PT)
    width = fonts.text_width(mark.words, fonts.REGULAR, size)
    x0 = -width if mark.anchor == "end" else 0.0
    corners = [(x0, -DESCENT * size), (x0 + width, -DESCENT * size), (x0 + width, CAP * size), (x0, CAP * size)]
    a, (ox, oy) = math.radians(mark.angle), mark.origin
    words = [(ox + cx * math.cos(a) - cy * math.sin(a), oy + cx * math.sin(a) + cy * math.cos(a))
             for cx, cy in corners]
    return [(f"the tick '{mark.words}'", band((x + ax * h, y + ay * h), (x - ax * h, y - ay * h), TICK_WIDTH / 2)),
            (f"the words '{mark.words}'", words)]


def page_marks(page: MeasuringPage) -> list[Mark]:
    """Every measuring mark: arrows, end marks, the range arrow and the check bars with words."""
    found: list[Mark] = []
    arrows = page.page_arrows()
    for dim in DIMENSIONS:
        found += arrow_marks(arrows[dim], f"{page.labels.of(dim)} arrow")
    for mark in page.end_marks():
        found += end_mark_marks(mark)
    found += arrow_marks(page.range_arrow(), f"{page.labels.range} arrow")
    for y, length, label in BARS:
        found.append((f"the {label} check bar", [(LANE_LEFT, y - 0.2), (LANE_LEFT + length, y - 0.2),
                                                 (LANE_LEFT + length, y + 5.0), (LANE_LEFT, y + 5.0)]))
        size = font_mm(BAR_LABEL_PT)
        x = LANE_LEFT + length + 2.5
        right = x + fonts.text_width(label, fonts.BOLD, size)
        low, high = y - 0.2 - DESCENT * size, y - 0.2 + CAP * size
        found.append((f"the words '{label}'", [(x, low), (right, low), (right, high), (x, high)]))
    return found
