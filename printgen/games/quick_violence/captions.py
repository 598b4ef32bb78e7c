"""The measuring page's arrow labels, drawn from `quick_violence/arrow-label.svg.j2` in one batch.

Only the labels are templated, since the rest is the measurement itself; a user's label is
checked to stay off the printer margin and every measuring mark."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.graphics.shapes import Group, String, rotate, translate

from printgen.core.paper import SAFE_MARGIN_MM, font_mm
from printgen.drawing.picture import Matrix, compose, hex_of, placed
from printgen.games.piecebounds import drawn_shapes, furthest_outside, located_shape, overlap, quad_of, tag_of
from printgen.games.pieces import Piece, PieceTemplates
from printgen.games.quick_violence.measuring_page import (CAP, DETAIL_PT, GREY, LABEL_PT, WORD_GAP,
                                                          Caption, MeasuringPage, inches, number)
from printgen.games.quick_violence.outlines import page_marks
from printgen.games.unflipped import unflipped

TEMPLATE = "quick_violence/arrow-label.svg.j2"
PAD = 0.4  # mm between the tops of a label's capitals and its box
TOLERANCE = 0.05  # mm a label may touch a mark or the margin before it is reported


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
