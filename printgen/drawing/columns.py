"""Columns that end level on the last page of flowing text, so the space left over lies in one
piece at the page's foot; heights are reckoned from the blocks' heights and proved by pouring the
story on a throwaway canvas.
"""
from __future__ import annotations

from typing import Callable

from reportlab.platypus import Flowable, PageBreak

from printgen.core.paper import MM_PER_PT, pt
from printgen.drawing.flow import Trial, frame_at, pour, take_until_page_break
from printgen.drawing.story import Masthead

Box = tuple[float, float, float, float]  # x, y, w, h in mm
TOLERANCE = 0.5  # mm: how close to the least height the search goes


def leftover(story: list[Flowable], pages: list[list[Box]]) -> list[Flowable]:
    """What is left of `story` once it has flowed through the pages' frames; [] when it all fits."""
    canvas = Trial()
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

    low = 0.0
    if len({(w, h) for _, _, w, h in columns}) == 1:  # alike columns: reckon, then prove
        last, _ = take_until_page_break(leftover(story(), before))
        low = reckoned_height(last, pt(columns[0][2]), pt(full), len(columns)) * MM_PER_PT
    return least_fitting(fits, low, full, TOLERANCE)


def least_fitting(fits: Callable[[float], bool], low: float, full: float, tolerance: float) -> float:
    """The least height up to `full` that `fits`: `low` (a reckoned answer) when it fits, else one
    searched for by trial down to `tolerance`; `full` when even that does not fit."""
    if low < full and fits(low):
        return low
    if not fits(full):
        return full
    high = full
    while high - low > tolerance:
        middle = (low + high) / 2
        low, high = (low, middle) if fits(middle) else (middle, high)
    return high


def reckoned_height(items: list[Flowable], width: float, full: float, columns: int) -> float:
    """The least column height (pt) at which `columns` frames take `items` whole, reckoned as a
    reportlab Frame places them (no space before a column's first block; space before a block
    overlaps the space after the one above) from each block's height, without drawing."""
    blocks = [(item.wrap(width, full)[1], item.getSpaceBefore(), item.getSpaceAfter()) for item in items]

    def columns_needed(height: float) -> int:
        used, y, after = 1, height, None
        for h, before, below in blocks:
            s = 0.0 if after is None else max(before - after, 0.0)
            if after is not None and y - s - h < 0:
                used, y, s = used + 1, height, 0.0
            y -= s + h + below
            after = below
        return used

    low, high = max((h for h, _, _ in blocks), default=0.0), full
    if columns_needed(high) > columns:
        return full
    while high - low > 0.01:
        middle = (low + high) / 2
        low, high = (middle, high) if columns_needed(middle) > columns else (low, middle)
    return high + 0.01


BAND_GAP = 5.0  # mm between a first page's title block (its rule) and the columns under it


def under_masthead(first: Flowable, columns: list[Box]) -> list[Box]:
    """A first page's frames: when the story opens with the house title block, a band across all
    the `columns` for it, and the columns shortened under it; else the columns as they are."""
    if not isinstance(first, Masthead) or not columns:
        return columns
    x, top = columns[0][0], columns[0][1] + columns[0][3]
    width = columns[-1][0] + columns[-1][2] - x
    height = first.wrap(pt(width), pt(top))[1] * MM_PER_PT + 0.5  # a hair of room, less than any block after it
    return [(x, top - height, width, height)] + [(cx, cy, cw, ch - height - BAND_GAP) for cx, cy, cw, ch in columns]
