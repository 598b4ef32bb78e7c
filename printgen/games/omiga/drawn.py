"""What a tile face template drew where Omiga's rules depend on it: tiles fit only if the shapes
under the agreed ids draw each semicircle's outline (`s.path`) and each form's band (`form.points`)
as printgen gives them, compared point by point in the tile's millimetres."""
from __future__ import annotations

import math

from reportlab.graphics.shapes import Group

from printgen.core.problems import Problem
from printgen.games.omiga.model import Omiga, Tile, tile_name
from printgen.games.omiga.tile import FACE_TEMPLATE, TileArt, band_points, half_disc
from printgen.games.pieces import shapes_of

Point = tuple[float, float]
TOLERANCE = 0.02  # mm: far below what a butted pair of tiles shows, far above rounding
IDS = ("semicircle-left", "semicircle-right", "form-top", "form-bottom")


def drawn_points(face: Group, ident: str) -> list[Point] | None:
    """The points of the shapes under `ident`, in the tile's mm (y up); None if nothing has the id,
    [] if a shape has no points (a rect, a circle), so it is not drawn as given."""
    shapes = [(shape, matrix) for shape, matrix, ids in shapes_of(face) if ident in ids]
    if not shapes or not all(hasattr(shape, "points") for shape, _ in shapes):
        return [] if shapes else None
    return [(a * x + c * y + e, b * x + d * y + f) for shape, (a, b, c, d, e, f) in shapes
            for x, y in zip(shape.points[::2], shape.points[1::2])]


def given_points(defn: Omiga, tile: Tile, ident: str) -> list[Point]:
    """The points printgen gives the template for `ident`, unbled, in the tile's mm (y up)."""
    card, (kind, side) = defn.card, ident.split("-")
    if kind == "semicircle":
        left = side == "left"
        disc = half_disc(0.0 if left else card.width, card.height / 2, card.radius, 0.0 if left else 180.0, 0.0)
        return list(zip(disc.points[::2], disc.points[1::2]))
    return band_points(defn.forms[tile.top if side == "top" else tile.bottom], card, 0.0, side)


def fault(drawn: list[Point] | None, given: list[Point], ident: str) -> str | None:
    """What is wrong with the shapes drawn under `ident`, in words, or None when drawn as given."""
    kind, side = ident.split("-")
    what = f"the {side} {kind}"
    if drawn is None:
        return f"nothing has id=\"{ident}\", so printgen cannot check {what}; give the shape that draws it that id"
    off = max(map(math.dist, drawn, given), default=0.0) if len(drawn) == len(given) else math.inf
    if off <= TOLERANCE:
        return None
    how = f"up to {off:.2f} mm from" if off < math.inf else "in another shape than"
    source, why = (("s.path", "the halves of two tiles will not make one circle") if kind == "semicircle" else
                   ("form.points", "tiles with it will not interlock with their partners"))
    return f"{what} (id=\"{ident}\") is drawn {how} the outline printgen gives it ({source}), so {why}"


def drawn_problems(defn: Omiga, art: TileArt) -> list[Problem]:
    """Each fault once, at the face template's file and the line writing the id, naming its tiles."""
    faults: dict[tuple[str, bool], tuple[str, list[str]]] = {}  # (id, missing) -> the first's words, the tiles
    for deck, i, tile in defn.tiles():
        face = art.face(deck, i, 0.0, True)
        for ident in IDS:
            drawn = drawn_points(face, ident)
            message = fault(drawn, given_points(defn, tile, ident), ident)
            if message is not None:
                faults.setdefault((ident, drawn is None), (message, []))[1].append(tile_name(deck, i))
    found = []
    for (ident, _), (message, names) in faults.items():
        # the line writing the id, spelt out or as id="semicircle-{{ s.side }}"
        file, line = art.templates.where(FACE_TEMPLATE, f'id="{ident}"', f'id="{ident.split("-")[0]}-', ident)
        more = f" (and {len(names) - 1} more)" if len(names) > 1 else ""
        found.append(Problem(file, line, "", f"tile {names[0]}{more}: {message}"))
    return found


def drawn_warnings(defn: Omiga, art: TileArt) -> list[str]:
    """`file:line: warning: ...` for `build`: the faults, then what drawing the pieces noticed."""
    return [f"{p.file}:{p.line}: warning: {p.message}" for p in drawn_problems(defn, art)] + art.templates.warnings
