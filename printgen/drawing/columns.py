"""Columns that end level on the last page of flowing text, so the space left over lies in one
piece at the page's foot; heights are found by pouring the story on a throwaway canvas.
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
    return [(x, y + h - height, w, height) for x, y, w, h in columns]


def level_height(story: Callable[[], list[Flowable]], before: list[list[Box]], columns: list[Box]) -> float:
    """The least height (mm) the last page's `columns` can be cut to and still take what `before`
    leaves of a fresh `story()`; their full height when even that is too little."""
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
