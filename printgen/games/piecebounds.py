"""Where the shapes of a drawn piece land, as quadrilaterals in millimetres (y up) with their
element ids, to check a user's template against the places the rules keep free."""
from __future__ import annotations

import re
from typing import Any, Iterator, Sequence

from reportlab.graphics.shapes import Group, String, mmult

from printgen.games.pieces import PieceTemplates, shown_name

Point = tuple[float, float]
Matrix = tuple[float, ...]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
# What a template writes for each kind of shape svglib makes: where a message can point.
TAGS = {"String": "<text", "Rect": "<rect", "Circle": "<circle", "Ellipse": "<ellipse", "Line": "<line",
        "PolyLine": "<polyline", "Polygon": "<polygon", "Path": "<path", "Image": "<image"}
CAP, DESCENT = 0.73, 0.24  # of the font size: Bitstream Vera's capitals and descenders
SAFE_TOLERANCE = 0.01  # mm a text may reach past its safe area before a warning


def apply(matrix: Sequence[float], x: float, y: float) -> Point:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def drawn_shapes(group: Group, matrix: Matrix = IDENTITY) -> Iterator[tuple[Any, Matrix, str | None]]:
    """Every shape of `group` with its transform into `matrix`'s frame and its nearest element id."""
    def walk(node: Any, here: Matrix, ident: str | None) -> Iterator[tuple[Any, Matrix, str | None]]:
        ident = getattr(node, "svgid", None) or ident
        if isinstance(node, Group):
            inner = mmult(here, tuple(node.transform))
            for child in node.contents:
                yield from walk(child, inner, ident)
        else:
            yield node, here, ident

    yield from walk(group, matrix, None)


def quad_of(shape: Any, matrix: Matrix) -> list[Point] | None:
    """The shape's corners, mapped by `matrix`; None for what has no extent (or cannot say)."""
    if isinstance(shape, String):
        from printgen.drawing import fonts

        width = fonts.text_width(shape.text, shape.fontName, shape.fontSize)
        x0 = shape.x - {"middle": width / 2, "end": width}.get(shape.textAnchor, 0.0)
        x1, low, high = x0 + width, shape.y - DESCENT * shape.fontSize, shape.y + CAP * shape.fontSize
    else:
        try:
            x0, low, x1, high = shape.getBounds()
        except (AttributeError, TypeError, ValueError):
            return None
        if getattr(shape, "strokeColor", None) is not None:
            half = (getattr(shape, "strokeWidth", 0) or 0) / 2
            x0, low, x1, high = x0 - half, low - half, x1 + half, high + half
    return [apply(matrix, x, y) for x, y in ((x0, low), (x1, low), (x1, high), (x0, high))]


def text_boxes(group: Group) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
    """Every text line of a drawn piece, with its glyphs' box in mm (x0, y0, x1, y1)."""
    for shape, matrix, _ in drawn_shapes(group):
        if isinstance(shape, String):
            xs, ys = zip(*quad_of(shape, matrix) or [])
            yield shape.text, (min(xs), min(ys), max(xs), max(ys))


def past_safe_area(group: Group, width: float, height: float, pad: float) -> Iterator[tuple[str, str]]:
    """Each text line of a drawn piece that reaches past the area `pad` mm inside its `width` x
    `height`, with the message saying how far, so every game words the warning the same way."""
    for words, (x0, y0, x1, y1) in text_boxes(group):
        past = max(pad - x0, x1 - (width - pad), pad - y0, y1 - (height - pad))
        if past > SAFE_TOLERANCE:
            yield words, f"'{words}' reaches {past:.1f} mm past the safe area"


def furthest_outside(group: Group, box: tuple[float, float, float, float], matrix: Matrix = IDENTITY
                     ) -> tuple[float, Any, str | None, int]:
    """The furthest (mm) a shape reaches outside `box`, that shape and its id, and how many do."""
    x0, y0, x1, y1 = box
    worst: tuple[float, Any, str | None] = (0.0, None, None)
    count = 0
    for shape, here, ident in drawn_shapes(group, matrix):
        quad = quad_of(shape, here)
        if quad is None:
            continue
        reach = max(max(x0 - x, x - x1, y0 - y, y - y1) for x, y in quad)
        count += reach > 0
        if reach > worst[0]:
            worst = (reach, shape, ident)
    return (*worst, count)


def overlap(a: Sequence[Point], b: Sequence[Point], tolerance: float = 0.0) -> bool:
    """Whether two convex polygons overlap by more than `tolerance` mm on every separating axis."""
    for poly in (a, b):
        for i, (x1, y1) in enumerate(poly):
            x2, y2 = poly[(i + 1) % len(poly)]
            nx, ny = y1 - y2, x2 - x1
            length = (nx * nx + ny * ny) ** 0.5
            if length == 0:
                continue
            nx, ny = nx / length, ny / length
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= tolerance:
                return False
    return True


COMMENT = re.compile(r"\{#.*?#\}|<!--.*?-->", re.S)  # Jinja and XML comments: notes may name the ids too


def line_in(source: str, snippet: str) -> int | None:
    """The 1-based line where `snippet` first stands outside a comment; None if nowhere."""
    body = COMMENT.sub(lambda found: re.sub(r"[^\n]", " ", found.group(0)), source)
    index = body.find(snippet)
    return body.count("\n", 0, index) + 1 if index >= 0 else None


def located(templates: PieceTemplates, name: str, *snippets: str) -> tuple[str, int]:
    """Template `name`'s shown file and the line holding the first of `snippets` (else 1)."""
    path, source = templates.source(name)
    found = (line_in(source, snippet) for snippet in snippets)
    return shown_name(path), next((line for line in found if line is not None), 1)


def located_shape(templates: PieceTemplates, name: str, shape: Any, ident: str | None) -> tuple[str, int]:
    """Where in template `name` a shape was written: at its id (or 'id="card-' for card-2), else its tag."""
    ids = (f'id="{ident}"', f'id="{ident.rstrip("0123456789")}') if ident else ()
    return located(templates, name, *ids, tag_of(shape))


def tag_of(shape: Any) -> str:
    """The SVG tag that draws a shape of this kind ('<text', '<rect'...), to find its line."""
    return TAGS.get(type(shape).__name__, "<")
