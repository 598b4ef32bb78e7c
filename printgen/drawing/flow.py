"""How a story of flowables fills frames, shared by the PDF writer and by layouts that measure
their text before it is drawn (a rulebook balancing its last page's columns)."""
from __future__ import annotations

import io
from functools import cache, wraps
from typing import Callable, ParamSpec, Sequence, cast

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, PageBreak

from printgen.core.paper import pt
from printgen.drawing.document import Page

Drawn = Callable[[int, Page, Callable[[], None]], None]  # wraps the pouring of page `index` (a form)
P = ParamSpec("P")


def made_once(make: Callable[P, list[Flowable]]) -> Callable[P, list[Flowable]]:
    """`make`'s story made once for each set of arguments, each call a copy of its list: a pour
    splits blocks into new flowables and leaves the story's own as they were, so every trial, and
    then the writer, pours a copy (as platypus's multiBuild lays one story out on each pass)."""
    made = cast(Callable[P, list[Flowable]], cache(make))  # arguments: what a story is made of, hashable

    @wraps(make)
    def copy(*args: P.args, **kwargs: P.kwargs) -> list[Flowable]:
        return list(made(*args, **kwargs))
    return copy


class Trial(Canvas):
    """A canvas that layout pours a story on to learn where its blocks go, never saved. A picture
    or a table (story.FitWidth) is not drawn on it: drawing them there cost as much as on the page,
    a third of a rulebook's trials, for nothing anyone sees; reportlab's paragraphs still draw."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO())


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


def pour_page(page: Page, remaining: list[Flowable], canvas: Canvas, breaks: bool) -> bool:
    """Pour the front of `remaining`, up to its first page break, through the page's frames; what
    did not fit goes back in front, still ahead of its page break. True when the page passed text on."""
    chunk, broke = take_until_page_break(remaining)
    for box in page.frames:
        pour(frame_at(*box), chunk, canvas, breaks)
    if chunk:
        remaining[:0] = chunk + ([PageBreak()] if broke else [])
    return bool(chunk)


def fill(pages: Sequence[Page], story: list[Flowable], canvas: Canvas, breaks: bool,
         drawn: Drawn | None = None) -> tuple[list[Flowable], bool]:
    """Pour `story` through the pages' frames in order, as the PDF writer does (a page break starts
    the next page); `drawn` wraps each page's pouring (to draw it into a form). Returns what did not
    fit, and whether the page before the last passed text on."""
    remaining = list(story)
    carried = into_last = False
    for index, page in enumerate(pages):
        passed = [False]

        def pour_text(page: Page = page) -> None:
            passed[0] = pour_page(page, remaining, canvas, breaks)

        if drawn is None:
            pour_text()
        else:
            drawn(index, page, pour_text)
        into_last, carried = carried, passed[0]
    return remaining, into_last
