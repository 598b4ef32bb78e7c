"""One Omiga tile drawn in its own millimetre box (y up), plus the deck back.

Printed tiles fit when butted because semicircles are exact arcs centred on their edges, and
two forms fit exactly when their profiles add up to zero, closing their bands into one strip of
even depth."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path as PathLike
from typing import Any, Sequence

from reportlab.graphics.shapes import Group, Path

from printgen.art.library import art_of
from printgen.core.paper import font_mm
from printgen.drawing import style as house
from printgen.drawing.numbers import num
from printgen.drawing.picture import colour, rect
from printgen.games.omiga.model import DECKS, Form, Omiga, Tile, TileGeometry, tile_name
from printgen.games.pieces import Piece, PieceTemplates, templates_for

ARC_PIECE = 45.0  # degrees per Bezier piece; radial error below 1e-5 of the radius
NUMBER_PT = house.SMALL_PT  # the tile number: small, in the house's caption size, above the 7 pt floor
OUTLINE_MM = 0.35  # the line around a semicircle, when the palette asks for one
BAND_LINE_MM = 0.6  # low ink: the outline of a white deck's band, bold enough to read as a form
HATCH_PITCH = 2.1  # mm between hatch lines, near enough: the pitch divides the tile's width and height
HATCH_LINE_MM = 0.3  # thin and light: a pattern that tells a deck at a glance, not a flood of ink


def arc(path: Path, cx: float, cy: float, r: float, start: float, end: float) -> None:
    """Append a circular arc (degrees, counter-clockwise) from the path's current point."""
    pieces = max(1, math.ceil(abs(end - start) / ARC_PIECE - 1e-9))
    step = math.radians(end - start) / pieces
    k = 4 / 3 * math.tan(step / 4)
    a = math.radians(start)
    for _ in range(pieces):
        b = a + step
        x0, y0, x3, y3 = math.cos(a), math.sin(a), math.cos(b), math.sin(b)
        path.curveTo(cx + r * (x0 - k * y0), cy + r * (y0 + k * x0),
                     cx + r * (x3 + k * y3), cy + r * (y3 - k * x3),
                     cx + r * x3, cy + r * y3)
        a = b


def half_disc(cx: float, cy: float, r: float, facing: float, bleed: float, inset: float = 0.0) -> Path:
    """The curved edge of the half-disc on side `facing` (0 right, 180 left), run `bleed` mm past the
    tile's edge for the cut; `inset` mm inside it for the outline, so a pale disc shows on a pale face."""
    half = 90 + math.degrees(math.asin(min(bleed / r, 1.0)))
    start, end, radius = facing - half, facing + half, r - inset
    path = Path()
    path.moveTo(cx + radius * math.cos(math.radians(start)), cy + radius * math.sin(math.radians(start)))
    arc(path, cx, cy, radius, start, end)
    return path


def profile(form: Form, card: TileGeometry) -> list[tuple[float, float]]:
    """(x, outward push) along a top edge from x=0 to x=width; zero outside the form span."""
    w, t = card.width, card.form_depth
    a, b, mid = (w - card.form_width) / 2, (w + card.form_width) / 2, w / 2
    sign = -1 if (form.shape == "notch" or (form.shape == "diagonal" and form.direction == "falling")) else 1
    if form.shape in ("tip", "notch"):
        inner = [(a, 0.0), (mid, sign * t), (b, 0.0)]
    elif form.shape == "diagonal":
        inner = [(a, 0.0), (a, -sign * t), (b, sign * t), (b, 0.0)]
    else:
        inner = []
    return [(0.0, 0.0)] + inner + [(w, 0.0)]


def hatch_pitch(w: float, h: float) -> float:
    """Near HATCH_PITCH, dividing both sides when they share a measure, else the width alone."""
    common = math.gcd(round(w * 100), round(h * 100)) / 100
    pitch = common / max(1, round(common / HATCH_PITCH))
    return pitch if 0.75 * HATCH_PITCH <= pitch <= 1.5 * HATCH_PITCH else w / max(1, round(w / HATCH_PITCH))


def hatch_d(w: float, h: float, bleed: float) -> str:
    """Lines at 45 degrees (x + y constant, y down) across the tile and its bleed, as SVG path data.
    The pitch divides width and height, so the lines run on across butted tiles, and a tile turned
    180 degrees shows the same lines."""
    pitch, lo, right, bottom = hatch_pitch(w, h), -bleed, w + bleed, h + bleed
    parts = []
    k = math.floor(2 * lo / pitch) + 1
    while k * pitch < right + bottom:
        c = k * pitch
        x1, x2 = max(lo, c - bottom), min(right, c - lo)  # where x + y = c enters and leaves the box
        if x2 > x1 + 1e-6:
            parts.append(f"M{num(x1)} {num(c - x1)}L{num(x2)} {num(c - x2)}")
        k += 1
    return " ".join(parts)


# -- what the tile templates are given: plain data, millimetres, y down from the top-left corner ---

FACE_TEMPLATE = "omiga/tile-face.svg.j2"
BACK_TEMPLATE = "omiga/tile-back.svg.j2"


def svg_d(path: Path, height: float) -> str:
    """A reportlab path (y up) as SVG path data (y down) in a box `height` mm high."""
    points = iter(zip(path.points[::2], path.points[1::2]))
    parts = []
    for op in path.operators:  # moveTo and lineTo take one point, curveTo three, closePath none
        coords = [next(points) for _ in range((1, 1, 3, 0)[op])]
        parts.append("MLCZ"[op] + " ".join(f"{num(x)} {num(height - y)}" for x, y in coords))
    return " ".join(parts)


def band_points(form: Form, card: TileGeometry, bleed: float, edge: str) -> list[tuple[float, float]]:
    """The band's polygon (y up), its inner line shaped by the form's profile: the top band, or the
    bottom one (the same, turned 180 degrees)."""
    w, h, m = card.width, card.height, card.band
    line = [(x, h - m + p) for x, p in profile(form, card)]
    points = [(-bleed, h + bleed), (w + bleed, h + bleed), (w + bleed, h - m), *reversed(line), (-bleed, h - m)]
    if edge == "bottom":
        points = [(w - x, h - y) for x, y in points]
    return points


def outlines(card: TileGeometry, side: str, bleed: float) -> tuple[str, str]:
    """A semicircle's half disc and its inner outline line as SVG path data (y down)."""
    w, h, r = card.width, card.height, card.radius
    cx, facing = (0.0, 0.0) if side == "left" else (w, 180.0)
    disc = half_disc(cx, h / 2, r, facing, bleed)
    disc.closePath()
    return svg_d(disc, h), svg_d(half_disc(cx, h / 2, r, facing, bleed, OUTLINE_MM / 2), h)


def form_data(defn: Omiga, name: str, edge: str, bleed: float) -> dict[str, Any]:
    card, form = defn.card, defn.forms[name]
    polygon = [[round(x, 6), round(card.height - y, 6)] for x, y in band_points(form, card, bleed, edge)]  # y down
    return {"edge": edge, "name": name, "shape": form.shape, "direction": form.direction,
            "depth": card.form_depth, "width": card.form_width, "band": card.band,
            "polygon": polygon, "points": " ".join(f"{num(x)},{num(y)}" for x, y in polygon)}


def face_data(defn: Omiga, deck: str, index: int, tile: Tile, bleed: float, numbered: bool) -> dict[str, Any]:
    """Everything the face template draws, computed here so the rules' geometry stays exact."""
    card, look, palette = defn.card, getattr(defn.looks(), deck), defn.looks()
    w, h, r = card.width, card.height, card.radius
    semicircles = []
    for side, cx, facing, name in (("left", 0.0, 0.0, tile.left), ("right", w, 180.0, tile.right)):
        paint = palette.colours[name]
        fill = colour(paint.fill)  # the mark in black or white, whichever reads better on it
        disc, ring = outlines(card, side, bleed)
        semicircles.append({
            "side": side, "colour": name, "cx": cx, "cy": h / 2, "r": r, "fill": paint.fill,
            "label": paint.label, "symbol": paint.symbol,
            "ink": "#000000" if 0.2126 * fill.red + 0.7152 * fill.green + 0.0722 * fill.blue > 0.5 else "#ffffff",
            "path": disc, "outline": ring if look.outline else None,
            "mark": {"x": cx + (0.45 * r if facing == 0 else -0.45 * r), "y": h / 2, "size": 0.26 * r,
                     "toward": -1 if facing == 0 else 1}})
    forms = [form_data(defn, name, edge, bleed) for edge, name in (("top", tile.top), ("bottom", tile.bottom))]
    outlined = defn.low_ink and deck == "white"
    number = {"text": str(index + 1), "x": 2.0, "y": h - (card.band + 1.2), "size": font_mm(NUMBER_PT)}
    return {"tile": {"deck": deck, "name": tile_name(deck, index), "number": index + 1, "width": w,
                     "height": h, "bleed": bleed},
            "look": {"face": look.face, "ink": look.ink, "outline": look.outline, "outline_width": OUTLINE_MM,
                     # low ink: the white deck's bands are only outlined, the black deck's stay solid
                     "band": look.face if outlined else look.band,
                     "band_line": look.band if outlined else None, "band_line_width": BAND_LINE_MM,
                     "hatch": look.hatch, "hatch_width": HATCH_LINE_MM},
            "hatch": hatch_d(w, h, bleed) if look.hatch else None,
            "box": {"x": -bleed, "y": -bleed, "width": w + 2 * bleed, "height": h + 2 * bleed},
            "semicircles": semicircles, "forms": forms, "number": number if numbered else None}


def back_data(defn: Omiga, deck: str, bleed: float) -> dict[str, Any]:
    """What the back template draws: the deck's colours, the title, and the emblem's measures."""
    look, w, h = getattr(defn.looks(), deck), defn.card.width, defn.card.height
    ring = min(w, h) * 0.34
    return {"tile": {"deck": deck, "width": w, "height": h, "bleed": bleed},
            "look": {"back": look.back, "ink": look.back_ink, "hatch": look.hatch, "hatch_width": HATCH_LINE_MM},
            "hatch": hatch_d(w, h, bleed) if look.hatch else None,
            "plain": defn.low_ink, "marker": f"{deck.upper()} DECK",  # low ink: the deck's name only
            "box": {"x": -bleed, "y": -bleed, "width": w + 2 * bleed, "height": h + 2 * bleed},
            "title": defn.title,
            "emblem": {"cx": w / 2, "cy": h / 2, "ring": ring, "inner": ring - 1.6, "line": 0.7,
                       "inner_line": 0.25, "text_y": h / 2 + 1.1, "size": font_mm(8.5)}}


@dataclass
class TileArt:
    """Draws one definition's tiles, a whole set at a time per bleed."""

    defn: Omiga
    templates: PieceTemplates
    faces: dict[tuple[str, int, float, bool], Group] = field(default_factory=dict)
    backs: dict[tuple[str, float], Group] = field(default_factory=dict)

    def face_piece(self, deck: str, index: int, bleed: float, numbered: bool) -> Piece:
        tile = self.defn.deck(deck).tiles[index]
        data = face_data(self.defn, deck, index, tile, bleed, numbered)
        return Piece(data, self.defn.card.width, self.defn.card.height, f"tile {tile_name(deck, index)}")

    def prepare(self, bleeds: Sequence[float], numbered: bool = True) -> None:
        """Draw every face and back at each new bleed, one batch a template."""
        faces = [(deck, i, b, numbered) for b in dict.fromkeys(bleeds) for deck, i, _ in self.defn.tiles()
                 if (deck, i, b, numbered) not in self.faces]
        backs = [(deck, b) for b in dict.fromkeys(bleeds) for deck in DECKS
                 if (deck, b) not in self.backs and self.back_image(deck) is None]
        drawn_faces, drawn_backs = self.templates.draw_batches([
            (FACE_TEMPLATE, [self.face_piece(*key) for key in faces]),
            (BACK_TEMPLATE, [self.back_piece(*key) for key in backs])])
        self.faces.update(zip(faces, drawn_faces))
        self.backs.update(zip(backs, drawn_backs))

    def face(self, deck: str, index: int, bleed: float, numbered: bool) -> Group:
        if (deck, index, bleed, numbered) not in self.faces:
            self.prepare([bleed], numbered)
        return self.faces[(deck, index, bleed, numbered)]

    def back_piece(self, deck: str, bleed: float) -> Piece:
        return Piece(back_data(self.defn, deck, bleed), self.defn.card.width, self.defn.card.height,
                     f"the {deck} deck's back")

    def back_image(self, deck: str) -> Any:
        return art_of(getattr(self.defn.art, f"{deck}_back"))

    def back(self, deck: str, bleed: float) -> Group:
        """The deck's back; its own back image, if any, replaces the template's drawing."""
        image = self.back_image(deck)
        if image is None:
            if (deck, bleed) not in self.backs:
                self.prepare([bleed])
            return self.backs[(deck, bleed)]
        look, w, h = getattr(self.defn.looks(), deck), self.defn.card.width, self.defn.card.height
        return Group(rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour(look.back)),
                     image.shape(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed))  # covers the bleed too


@dataclass(frozen=True)
class OmigaTile:
    """A tile face (and its deck's back), ready for imposition or an SVG of its own."""

    defn: Omiga
    deck: str
    index: int
    tile: Tile
    art: TileArt

    @property
    def width(self) -> float:
        return self.defn.card.width

    @property
    def height(self) -> float:
        return self.defn.card.height

    def front(self, bleed: float = 0.0, numbered: bool = True) -> Group:
        """The face; a figure drawn smaller leaves the number out rather than print it below 7 pt."""
        return self.art.face(self.deck, self.index, bleed, numbered)

    def back(self, bleed: float = 0.0) -> Group:
        """The deck's back; symmetric, so a small duplex misregistration never shows at an edge."""
        return self.art.back(self.deck, bleed)


def tile_art(defn: Omiga, templates: Sequence[PathLike] = ()) -> TileArt:
    return TileArt(defn, templates_for(defn, templates))


def all_tiles(defn: Omiga, art: TileArt) -> list[OmigaTile]:
    return [OmigaTile(defn, deck, i, tile, art) for deck, i, tile in defn.tiles()]
