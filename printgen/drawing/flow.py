"""How a story of flowables fills frames, shared by the PDF writer and by layouts that measure
their text before it is drawn (a rulebook balancing its last page's columns)."""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, PageBreak

from printgen.core.paper import pt


def frame_at(x: float, y: float, w: float, h: float) -> Frame:
    """A frame at a box given in mm, without reportlab's default padding."""
    return Frame(pt(x), pt(y), pt(w), pt(h), leftPadding=0, rightPadding=0, topPadding=0,
                 bottomPadding=0, showBoundary=0)


def pour(frame: Frame, items: list[Flowable], canvas: Canvas, breaks: bool) -> None:
    """Fill `frame` from the front of `items`, leaving the rest; with `breaks`, the first block that
    does not fit whole is split where it allows."""
    if not breaks:
        frame.addFromList(items, canvas)
        return
    while items:
        if frame.add(items[0], canvas, trySplit=1):
            del items[0]
            continue
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
