"""How a story of flowables fills frames, shared by the PDF writer and by layouts that measure
their text before it is drawn (a rulebook balancing its last page's columns)."""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, PageBreak

from printgen.core.paper import pt


class ColumnBreak(Flowable):
    """The designer's column break: the text after it starts the next column (or the next page
    after a page's last column); at the top of a column it does nothing."""

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return 0.0, 0.0


BREAKS = (PageBreak, ColumnBreak)  # a heading never travels with one of these


def frame_at(x: float, y: float, w: float, h: float) -> Frame:
    """A frame at a box given in mm, without reportlab's default padding."""
    return Frame(pt(x), pt(y), pt(w), pt(h), leftPadding=0, rightPadding=0, topPadding=0,
                 bottomPadding=0, showBoundary=0)


def pour(frame: Frame, items: list[Flowable], canvas: Canvas, breaks: bool) -> None:
    """Fill `frame` from the front of `items`, leaving the rest; with `breaks`, the first block that
    does not fit whole is split where it allows. A column break ends the frame once it holds text;
    without `breaks`, a block too big for the empty frame raises reportlab's LayoutError."""
    placed = False
    while items:
        if isinstance(items[0], ColumnBreak):
            del items[0]
            if placed:
                return
            continue
        if frame.add(items[0], canvas, trySplit=int(breaks)):
            del items[0]
            placed = True
            continue
        if breaks:
            parts = frame.split(items[0], canvas)
            if len(parts) >= 2 and frame.add(parts[0], canvas, trySplit=1):
                items[:1] = parts[1:]
        return


def take_until_page_break(story: list[Flowable]) -> tuple[list[Flowable], bool]:
    for i, item in enumerate(story):
        if isinstance(item, PageBreak):
            chunk = story[:i]
            del story[:i + 1]
            return chunk, True
    chunk = story[:]
    story.clear()
    return chunk, False
