"""What a tile face template drew where Omiga's rules depend on it: the semicircles and the forms.

printgen gives the template each semicircle's outline (`s.path`) and each form's band
(`form.points`); tiles fit only if those are drawn as given, so the shapes under the agreed ids
are compared with them point by point, in the tile's millimetres. Each problem is one warning at
the line writing the id, naming its tiles."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from reportlab.graphics.shapes import Group

from printgen.core.problems import Problem
from printgen.games.omiga.model import Omiga, Tile, tile_name
from printgen.games.omiga.tile import FACE_TEMPLATE, TileArt, band_points, half_disc
from printgen.games.pieces import shapes_with_id

Point = tuple[float, float]
TOLERANCE = 0.02  # mm: far below what a butted pair of tiles shows, far above rounding


@dataclass
class Fault:
    """One kind of problem, with the tiles it was found on (the first one described)."""

    ident: str
    message: str
    tiles: list[str] = field(default_factory=list)


def drawn_points(face: Group, ident: str) -> list[Point] | None:
    """The points of the shapes under `ident`, in the tile's mm (y up); None if nothing has the id,
    [] if a shape has no points (a rect, a circle), so it is not drawn as given."""
    shapes = list(shapes_with_id(face, ident))
    if not shapes:
        return None
    if not all(hasattr(shape, "points") for shape, _ in shapes):
        return []
    return [(a * x + c * y + e, b * x + d * y + f) for shape, (a, b, c, d, e, f) in shapes
            for x, y in zip(shape.points[::2], shape.points[1::2])]


def given_points(defn: Omiga, tile: Tile, ident: str) -> list[Point]:
    """The points printgen gives the template for `ident`, unbled, in the tile's mm (y up)."""
    card = defn.card
    kind, side = ident.split("-")
    if kind == "semicircle":
        left = side == "left"
        disc = half_disc(0.0 if left else card.width, card.height / 2, card.radius, 0.0 if left else 180.0, 0.0)
        return list(zip(disc.points[::2], disc.points[1::2]))
    return band_points(defn.forms[tile.top if side == "top" else tile.bottom], card, 0.0, side)


def drawn_faults(defn: Omiga, art: TileArt) -> list[Fault]:
    """Every element the rules depend on that a tile's face does not draw as given."""
    faults: dict[str, Fault] = {}
    for deck, i, tile in defn.tiles():
        face = art.face(deck, i, 0.0, True)
        for ident in ("semicircle-left", "semicircle-right", "form-top", "form-bottom"):
            kind, side = ident.split("-")
            what = f"the {side} semicircle" if kind == "semicircle" else f"the {side} form"
            drawn, given = drawn_points(face, ident), given_points(defn, tile, ident)
            if drawn is None:
                key = f"{ident} missing"
                message = (f"nothing has id=\"{ident}\", so printgen cannot check {what}; give the shape "
                           f"that draws it that id")
            elif len(drawn) != len(given) or max(math.dist(p, q) for p, q in zip(drawn, given)) > TOLERANCE:
                off = (f"up to {max(math.dist(p, q) for p, q in zip(drawn, given)):.2f} mm from"
                       if len(drawn) == len(given) else "in another shape than")
                source, why = (("s.path", "the halves of two tiles will not make one circle")
                               if kind == "semicircle" else
                               ("form.points", "tiles with it will not interlock with their partners"))
                key, message = ident, (f"{what} (id=\"{ident}\") is drawn {off} the outline printgen gives "
                                       f"it ({source}), so {why}")
            else:
                continue
            faults.setdefault(key, Fault(ident, message)).tiles.append(tile_name(deck, i))
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
