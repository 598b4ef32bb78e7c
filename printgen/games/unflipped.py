"""A piece drawn from an SVG template, rewritten with y running up in its shapes' own numbers.

pdfium rasterises mirrored curves a shade differently, so pushing svglib's y flip down into the
shapes keeps the picture pixel for pixel that of the drawing it replaces."""
from __future__ import annotations

import copy
from typing import Any

from reportlab.graphics.shapes import Circle, Ellipse, Group, Line, Path, PolyLine, Polygon, Rect, String, mmult

FLIP = (1.0, 0.0, 0.0, -1.0, 0.0, 0.0)
DIGITS = 9  # matrix entries rounded to 1e-9: svglib's unit conversions leave 31.375000000000004


def snapped(matrix: Any) -> tuple[float, ...]:
    return tuple(round(float(v), DIGITS) + 0.0 for v in matrix)


def unflipped(group: Group) -> Group:
    """`group` from pieces.placed_at drawn the same with no flip left; shapes are copied, as shared."""
    a, b, c, d, e, f = snapped(group.transform)
    if b or c or d >= 0:  # not a plain flip: leave it as it is
        return group
    outer = (a, 0.0, 0.0, -d, e, f)  # what is left of the flip: the scale and the shift
    return Group(*(lifted(down(item), outer) for item in group.contents))


def lifted(node: Any, outer: tuple[float, ...]) -> Group:
    """`node` under `outer` in one transform: two shifts give pdfium other roundings."""
    if isinstance(node, Group):
        a, b, c, d, e, f = snapped(mmult(outer, tuple(node.transform)))
        if (a, b, c, d) == (1.0, 0.0, 0.0, 1.0) and all(isinstance(item, String) for item in node.contents):
            moved = [copy.copy(item) for item in node.contents]
            for text in moved:
                text.x, text.y = text.x + e, text.y + f
            return copy_group(node, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), moved)
        return copy_group(node, (a, b, c, d, e, f))
    return Group(node, transform=outer)


def down(node: Any) -> Any:
    """`node` as drawn under a flip of y, redrawn with the flip pushed into it."""
    if isinstance(node, Group):
        a, b, c, d, e, f = snapped(node.transform)
        if a * d - b * c < 0:  # its own flip (svglib's around text) cancels the one pushed in
            return copy_group(node, (a, -b, c, -d, e, -f))
        return copy_group(node, (a, -b, -c, d, e, -f), [down(item) for item in node.contents])
    copied = copy.copy(node)  # shallow: only numbers and the points list are replaced
    if isinstance(copied, Rect):
        copied.y = -(copied.y + copied.height)
    elif isinstance(copied, Line):
        copied.y1, copied.y2 = -copied.y1, -copied.y2
    elif isinstance(copied, (Circle, Ellipse)):
        copied.cy = -copied.cy
    elif isinstance(copied, (Path, Polygon, PolyLine)):
        copied.points = [-v if i % 2 else v for i, v in enumerate(copied.points)]
    else:
        return Group(node, transform=FLIP)
    return copied


def copy_group(node: Group, transform: tuple[float, ...], contents: list[Any] | None = None) -> Group:
    """A new group like `node` (its id kept, for the checks that look for it)."""
    group = Group(*(node.contents if contents is None else contents), transform=transform)
    ident = getattr(node, "svgid", None)
    if ident is not None:
        group.setProperties({"svgid": ident})  # as svglib sets it: not a checked attribute
    return group
