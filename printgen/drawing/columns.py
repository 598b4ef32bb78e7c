"""Columns that end level on the last page of flowing text.

Poured column by column, a book's last page fills its left column and leaves the right one empty.
Cut to the least common height that still holds the text, both columns end level and the space
left over lies in one piece at the page's foot, where a game can put something of use. The
heights are found by pouring the story through the frames as the PDF writer does (page breaks
included) on a canvas that is thrown away.
"""
from __future__ import annotations

import io
from typing import Callable

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak

from printgen.drawing.flow import frame_at, pour, take_until_page_break

Box = tuple[float, float, float, float]  # x, y, w, h in mm
TOLERANCE = 0.5  # mm: how close to the least height the search goes


def leftover(story: list[Flowable], pages: list[list[Box]]) -> list[Flowable]:
    """What is left of `story` once it has flowed through the pages' frames; [] when it all fits."""
    canvas = Canvas(io.BytesIO())
    remaining = list(story)
    for frames in pages:
        chunk, broke = take_until_page_break(remaining)
        for box in frames:
            pour(frame_at(*box), chunk, canvas, breaks=False)
        remaining[:0] = chunk + ([PageBreak()] if chunk and broke else [])
    return remaining


def cut_to(columns: list[Box], height: float) -> list[Box]:
    """The columns kept from their tops down to `height` mm."""
    return [(x, y + h - height, w, height) for x, y, w, h in columns]


def level_height(story: Callable[[], list[Flowable]], before: list[list[Box]], columns: list[Box]) -> float:
    """The least height (mm) to which the last page's `columns` can all be cut, from their tops, and
    still take what the `before` pages leave of a fresh `story()`. Their full height when even that
    is too little: the writer then reports the overflow, or tries another page."""
    full = max(h for *_, h in columns)

    def fits(height: float) -> bool:
        return not leftover(story(), before + [cut_to(columns, height)])

    if not fits(full):
        return full
    low, high = 0.0, full
    while high - low > TOLERANCE:
        middle = (low + high) / 2
        if fits(middle):
            high = middle
        else:
            low = middle
    return high
