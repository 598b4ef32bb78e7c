"""What a tile face template drew, measured against the geometry Omiga's rules depend on.

A user's template may draw other semicircles or forms than the definition's, which would keep
printed tiles from fitting; each problem is one warning at the line writing the element's id."""
from __future__ import annotations

import math
from functools import partial
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from reportlab.graphics.shapes import Circle, Ellipse, Path, Polygon, PolyLine, Rect

from printgen.core.problems import Problem
from printgen.games.omiga.model import Omiga, tile_name
from printgen.games.omiga.tile import FACE_TEMPLATE, TileArt
from printgen.games.omiga.tileset import interlock
from printgen.games.pieces import shapes_with_id

Point = tuple[float, float]
TOLERANCE = 0.02  # mm: far below what a butted pair of tiles shows, far above rounding
SAMPLES = 97  # x positions along an edge (never exactly on a form's corner)
CURVE_STEPS = 16  # straight pieces a Bezier is followed by when an outline is flattened


@dataclass
class Fault:
    """One kind of problem, with the tiles it was found on (the first one described)."""

    ident: str
    message: str
    tiles: list[str] = field(default_factory=list)


def apply(matrix: Sequence[float], x: float, y: float) -> Point:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def outline_of(shape: Any, matrix: Sequence[float]) -> tuple[list[list[Point]], list[Point]]:
    """A shape's outline as closed polylines, and points on its curves for fitting a circle."""
    if isinstance(shape, (Circle, Ellipse)):
        rx, ry = (shape.r, shape.r) if isinstance(shape, Circle) else (shape.rx, shape.ry)
        ring = [apply(matrix, shape.cx + rx * math.cos(t), shape.cy + ry * math.sin(t))
                for t in (2 * math.pi * k / 64 for k in range(64))]
        return [ring], ring
    if isinstance(shape, Rect):
        x, y, w, h = shape.x, shape.y, shape.width, shape.height
        return [[apply(matrix, *p) for p in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]], []
    if isinstance(shape, (Polygon, PolyLine)):
        pts = shape.points
        return [[apply(matrix, pts[i], pts[i + 1]) for i in range(0, len(pts) - 1, 2)]], []
    if isinstance(shape, Path):
        return path_outline(shape, matrix)
    return [], []


def path_outline(path: Path, matrix: Sequence[float]) -> tuple[list[list[Point]], list[Point]]:
    rings: list[list[Point]] = []
    on_curve: list[Point] = []
    points = iter(zip(path.points[::2], path.points[1::2]))
    current: list[Point] = []
    for op in path.operators:
        if op == 0:  # moveTo
            if current:
                rings.append(current)
            current = [next(points)]
        elif op == 1:
            current.append(next(points))
        elif op == 2:
            p0 = current[-1] if current else (0.0, 0.0)
            p1, p2, p3 = next(points), next(points), next(points)
            current += [bezier(p0, p1, p2, p3, k / CURVE_STEPS) for k in range(1, CURVE_STEPS + 1)]
            on_curve += [p0, bezier(p0, p1, p2, p3, 0.5), p3]
        elif op == 3 and current:
            rings.append(current)
            current = []
    if current:
        rings.append(current)
    return ([[apply(matrix, *p) for p in ring] for ring in rings], [apply(matrix, *p) for p in on_curve])


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1 - t
    return (u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1])


def fit_circle(points: Sequence[Point]) -> tuple[float, float, float, float] | None:
    """The least-squares (Kasa) circle through `points` and its worst residual; None if degenerate."""
    n = len(points)
    if n < 3:
        return None
    sx, sy = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    u = [(x - sx, y - sy) for x, y in points]
    suu, svv = sum(a * a for a, _ in u), sum(b * b for _, b in u)
    suv = sum(a * b for a, b in u)
    rhs1 = (sum(a ** 3 for a, _ in u) + sum(a * b * b for a, b in u)) / 2
    rhs2 = (sum(b ** 3 for _, b in u) + sum(b * a * a for a, b in u)) / 2
    det = suu * svv - suv * suv
    if abs(det) < 1e-12:
        return None
    uc, vc = (rhs1 * svv - rhs2 * suv) / det, (suu * rhs2 - suv * rhs1) / det
    cx, cy = uc + sx, vc + sy
    r = math.sqrt(uc * uc + vc * vc + (suu + svv) / n)
    return cx, cy, r, max(abs(math.dist(p, (cx, cy)) - r) for p in points)


Shapes = list[tuple[Any, tuple[float, ...]]]  # shapes with their transforms to the tile's box


def semicircle_of(shapes: Shapes) -> tuple[float, float, float, float] | None:
    """Centre, radius and worst deviation of what an element drew, or None if nothing."""
    if not shapes:
        return None
    curves: list[Point] = []
    corners: list[Point] = []
    for shape, matrix in shapes:
        if isinstance(shape, Circle):
            (cx, cy), scale = apply(matrix, shape.cx, shape.cy), math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
            return cx, cy, shape.r * scale, 0.0
        rings, on_curve = outline_of(shape, matrix)
        curves += on_curve
        corners += [p for ring in rings for p in ring]
    return fit_circle(curves or corners) or (math.nan, math.nan, math.nan, math.inf)


def crossings(rings: list[list[Point]], x: float) -> list[float]:
    """Where the vertical line at `x` crosses the closed outlines."""
    found = []
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
            if (x0 - x) * (x1 - x) < 0 or (x0 == x and x1 != x):
                found.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return found


def profile_of(shapes: Shapes, ident: str, defn: Omiga) -> list[float] | None:
    """The form's profile as drawn by `ident`, in the top edge's terms; None when absent or short."""
    card = defn.card
    rings = [ring for shape, matrix in shapes for ring in outline_of(shape, matrix)[0]]
    if not rings:
        return None
    top, values = ident == "form-top", []
    for k in range(1, SAMPLES):
        x = card.width * k / SAMPLES
        ys = crossings(rings, x if top else card.width - x)  # the bottom band is the top one turned
        if not ys:
            return None
        values.append(min(ys) - (card.height - card.band) if top else card.band - max(ys))
    return values


def drawn_faults(defn: Omiga, art: TileArt) -> list[Fault]:
    """Every way the face template's drawing breaks the geometry, found on every tile."""
    card = defn.card
    faults: dict[str, Fault] = {}

    def fault(key: str, ident: str, message: str, tile: str) -> None:
        faults.setdefault(key, Fault(ident, message)).tiles.append(tile)

    memo: dict[Any, Any] = {}

    def measured(face: Any, ident: str, measure: Callable[[Shapes], Any]) -> Any:
        """`measure` of what `ident` drew, once per distinct drawing, since tiles share shapes."""
        shapes = list(shapes_with_id(face, ident))
        key = (ident, tuple((id(shape), matrix) for shape, matrix in shapes))
        if key not in memo:
            memo[key] = measure(shapes)
        return memo[key]

    drawn_forms: dict[str, tuple[list[float], str, str]] = {}  # form -> profile, tile, edge
    for deck, i, tile in defn.tiles():
        name = tile_name(deck, i)
        face = art.face(deck, i, 0.0, True)
        for side, cx in (("left", 0.0), ("right", card.width)):
            ident = f"semicircle-{side}"
            found = measured(face, ident, semicircle_of)
            if found is None:
                fault(f"missing {ident}", ident, f"nothing has id=\"{ident}\", so printgen cannot check "
                      f"the {side} semicircle; give the shape that draws it that id", name)
                continue
            x, y, r, worst = found
            expected = (cx, card.height / 2)
            if not worst <= TOLERANCE:
                fault(f"arc {ident}", ident, f"the shape with id=\"{ident}\" is not an arc of a circle "
                      f"(its outline strays {worst:.2f} mm from the nearest circle), so the halves of "
                      f"two tiles will not make one circle", name)
            elif math.dist((x, y), expected) > TOLERANCE or abs(r - card.radius) > TOLERANCE:
                fault(f"place {ident}", ident, f"the {side} semicircle (id=\"{ident}\") is drawn centred "
                      f"at ({x:.2f}, {card.height - y:.2f}) mm with radius {r:.2f} mm; it must be centred "
                      f"on the {side} edge's midpoint ({expected[0]:g}, {card.height / 2:g}) with the "
                      f"radius card.radius gives ({card.radius:g} mm), or the halves of two tiles will "
                      f"not make one circle", name)
        for edge, form in (("top", tile.top), ("bottom", tile.bottom)):
            ident = f"form-{edge}"
            values = measured(face, ident, partial(profile_of, ident=ident, defn=defn))
            if values is None:
                fault(f"missing {ident}", ident, f"nothing with id=\"{ident}\" spans the tile's width, "
                      f"so printgen cannot check the {edge} form; give the band that draws it that id", name)
                continue
            if form not in drawn_forms:
                drawn_forms[form] = (values, name, edge)
            elif max(abs(a - b) for a, b in zip(values, drawn_forms[form][0])) > TOLERANCE:
                _, other, side = drawn_forms[form]
                fault(f"differs {form}", ident, f"the form '{form}' is drawn differently on the {edge} "
                      f"edge than on {other}'s {side} edge, so tiles with it will not all fit the same "
                      f"way", name)
    for first, partners in defn.fits.items():
        for second in partners:
            if (first not in drawn_forms or second not in drawn_forms
                    or not interlock(defn.forms[first], defn.forms[second])):
                continue  # a fit the forms' own shapes do not make is reported by the structure check
            a, b = drawn_forms[first][0], drawn_forms[second][0]
            gaps = [abs(p + q) for p, q in zip(a, reversed(b))]
            worst = max(range(len(gaps)), key=gaps.__getitem__)
            if gaps[worst] > TOLERANCE and f"fit {second} {first}" not in faults:
                at = card.width * (worst + 1) / SAMPLES
                fault(f"fit {first} {second}", "form-", f"the forms '{first}' and '{second}' fit in the "
                      f"definition, but as drawn they leave a gap or overlap of {gaps[worst]:.2f} mm "
                      f"({at:.1f} mm along the edge), so the two tiles will not interlock",
                      drawn_forms[first][1])
    return list(faults.values())


def drawn_problems(defn: Omiga, art: TileArt) -> list[Problem]:
    """Each fault at the face template's file and the line writing the id, naming its tiles."""
    found = []
    for fault in drawn_faults(defn, art):
        ident = fault.ident  # the line writing it, spelt out or as id="semicircle-{{ s.side }}"
        file, line = art.templates.where(FACE_TEMPLATE, f'id="{ident}"', f'id="{ident.split("-")[0]}-', ident)
        more = len(fault.tiles) - 1
        tiles = f"tile {fault.tiles[0]}" + (f" (and {more} more)" if more else "")
        found.append(Problem(file, line, "", f"{tiles}: {fault.message}"))
    return found


def drawn_warnings(defn: Omiga, art: TileArt) -> list[str]:
    """`file:line: warning: ...` for `build`: the faults, then what drawing the pieces noticed."""
    lines = [f"{p.file}:{p.line}: warning: {p.message}" for p in drawn_problems(defn, art)]
    return lines + art.templates.warnings
