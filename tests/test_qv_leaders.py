"""The measuring page's top-left corner, where SHORT, MEDIUM and LONG cross: the words of the two
end marks there stand apart in the clear strip above SHORT, each joined to its tick by a thin leader
line. Measured in the PDF the build writes: the words' boxes from their characters, the arrows'
centre lines and the leaders as drawn."""
from __future__ import annotations

import math

import pytest

from test_quick_violence import PAGE_COLOURS, PAPERS, arrow, built, coloured_words, measuring_page  # noqa: F401

MM = 72 / 25.4
LED = {"width": "20 mm to the left edge", "length": "10 mm to the top edge"}  # the corner's two marks
SHAFT = 0.8  # mm
CLEAR = 1.5  # mm at least between a label's box and the edge of any arrow's shaft or head
LEADER = 0.15  # mm, the leaders' stroke


def box_of(page, words: str, colour) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 in mm (y up) round the characters of the 7 pt run `words` in `colour`."""
    h = float(page.height)
    (run,) = [w for w in coloured_words(page, colour) if w.text == words]
    chars = [c for c in page.chars if (c["matrix"][4] / MM, c["matrix"][5] / MM) in run.points]
    return (min(c["x0"] for c in chars) / MM, (h - max(c["bottom"] for c in chars)) / MM,
            max(c["x1"] for c in chars) / MM, (h - min(c["top"] for c in chars)) / MM)


def to_box(point: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    x, y = point
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def points_along(a: tuple[float, float], b: tuple[float, float], step: float = 0.1):
    n = max(1, int(math.dist(a, b) / step))
    return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]


@pytest.mark.parametrize("paper", PAPERS)
def test_corner_labels_stand_clear_of_every_arrow_with_a_leader_to_their_tick(built, paper):
    pdf, page = measuring_page(built[paper])
    with pdf:
        arrows = {dim: arrow(page, PAGE_COLOURS[dim]) for dim in PAGE_COLOURS}
        boxes = {dim: box_of(page, words, PAGE_COLOURS[dim]) for dim, words in LED.items()}
        crossing = (arrows["length"].tail[0], arrows["width"].tail[1])  # where SHORT meets MEDIUM
        for dim, box in boxes.items():
            # clear of all three arrows: shafts, heads and ticks, every mark each one draws
            for other, measured in arrows.items():
                for mark in measured.marks:
                    if mark.width and abs(mark.width - LEADER) < 0.01:
                        continue  # a leader, checked below
                    half = mark.width / 2
                    near = min(to_box(p, box) for a, b in zip(mark.points, mark.points[1:])
                               for p in points_along(a, b))
                    assert near - half >= CLEAR - 1e-6, (dim, other, near - half)
            # out of the corner: the words' box starts well away from where the arrows cross
            assert to_box(crossing, box) >= 10.0, (dim, to_box(crossing, box))
            # a leader in the label's colour runs from its tick to the words' left side
            leaders = [m for m in arrows[dim].marks if m.width and abs(m.width - LEADER) < 0.01]
            assert len(leaders) == 1, (dim, leaders)
            start, end = leaders[0].points[0], leaders[0].points[-1]
            ticks = [m for m in arrows[dim].marks
                     if not m.filled and abs(math.dist(m.points[0], m.points[-1]) - 5.0) < 0.05]
            tick_ends = [p for m in ticks for p in (m.points[0], m.points[-1])]
            assert min(math.dist(start, p) for p in tick_ends) < 1.5, (dim, start)
            assert to_box(end, box) < 1.5 and end[0] <= box[0], (dim, end, box)
        # the two labels stacked, not touching
        (a, b) = boxes.values()
        assert a[1] > b[3] + 1.0 or b[1] > a[3] + 1.0, boxes
