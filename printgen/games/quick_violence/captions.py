"""The measuring page's arrow labels, drawn from `quick_violence/arrow-label.svg.j2` in one batch.

Only the labels are templated, since the rest is the measurement itself; printgen lays each
label's box clear of the marks, and checks that a user's label keeps its text off the printer margin."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Group, rotate, translate

from printgen.core.paper import SAFE_MARGIN_MM, font_mm
from printgen.drawing.picture import Matrix, compose, hex_of, placed
from printgen.games.pieces import Piece, PieceTemplates, past_safe_area
from printgen.games.quick_violence.measuring_page import (CAP, DETAIL_PT, GREY, LABEL_PT, WORD_GAP, Caption,
                                                          MeasuringPage, inches, number, rounded)

TEMPLATE = "quick_violence/arrow-label.svg.j2"
PAD = 0.4  # mm between the tops of a label's capitals and its box


@dataclass
class ArrowLabels:
    """The page's four labels, drawn from the template and placed (warnings to the templates')."""

    page: MeasuringPage
    templates: PieceTemplates

    def label(self, key: str, caption: Caption, room: float) -> Piece:
        """A label's piece: what the template draws, in mm, y down from the top-left corner of its box."""
        size, detail = font_mm(LABEL_PT), font_mm(DETAIL_PT)
        height = PAD + CAP * size  # the baseline runs along the box's foot; descenders hang below
        length = dict(zip(("width", "length", "diagonal", "range"), (*self.page.size, self.page.range_mm)))[key]
        return Piece({
            "arrow": {"name": key, "label": caption.word, "colour": hex_of(caption.colour),
                      "length": number(length) if key == "range" else rounded(length), "inches": inches(length),
                      "fighters": self.page.users.get(key, [])},
            "box": {"width": room, "height": height, "arrow_side": "top" if key == "width" else "bottom"},
            "word": {"text": caption.word, "x": 0.0, "y": height, "size": size, "width": caption.word_width},
            "detail": {"text": caption.detail, "x": caption.word_width + WORD_GAP, "y": height,
                       "size": detail, "width": caption.width - caption.word_width - WORD_GAP,
                       "colour": hex_of(GREY)},
        }, room, height, f"the {caption.word} label")

    def pieces(self) -> list[tuple[str, Piece, Matrix]]:
        """Each label's key, piece, and matrix from its box's mm (y up) to the page."""
        captions = self.page.captions()
        return [(key, self.label(key, captions[key], room), compose(translate(x, y), rotate(angle)))
                for key, (x, y, angle, room) in self.page.slots().items()]

    def drawn(self) -> list[Group]:
        """The four labels placed on the page in one batch, each checked to keep its text out of
        the margin printers leave blank."""
        found = self.pieces()
        groups = self.templates.draw_batches([(TEMPLATE, [piece for _, piece, _ in found])])[0]
        labels = [placed(drawn, matrix) for (_, _, matrix), drawn in zip(found, groups)]
        w, h, safe = self.page.paper.width, self.page.paper.height, SAFE_MARGIN_MM
        self.templates.warn_past(TEMPLATE, [(piece, *past) for (_, piece, _), label in zip(found, labels)
                                            for past in past_safe_area(label, w, h, safe)],
                                 f"into the {safe:g} mm at the paper's edge", "printers leave that strip blank")
        return labels
