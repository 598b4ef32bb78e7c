"""The outline of every measuring mark as convex polygons (mm, y up): what a user's arrow
labels must leave clear (captions.py)."""
from __future__ import annotations

import math

from printgen.core.paper import font_mm
from printgen.drawing import fonts
from printgen.games.quick_violence.measuring_page import (BAR_LABEL_PT, BARS, CAP, DESCENT, DIMENSIONS,
                                                          LANE_LEFT, MARK_PT, SHAFT, TICK_HALF, TICK_WIDTH,
                                                          Arrow, EndMark, MeasuringPage, Point)

Mark = tuple[str, list[Point]]  # what a mark is (for messages) and its outline


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
