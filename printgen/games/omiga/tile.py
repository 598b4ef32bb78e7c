"""One Omiga tile drawn in its own millimetre box (y up), plus the deck back.

Geometry contract (what makes printed tiles fit when butted together):
- each semicircle is centred exactly on the midpoint of the left or right edge, with one radius;
  it is an exact Bezier arc (45-degree pieces), not a polygon;
- the top and bottom edges carry a band of depth `band`. Inside the centred `form_width` span the
  band's inner line is pushed out (+) or in (-) by a profile: a tip rises `form_depth` to a point,
  a notch is the same triangle sunk in, a diagonal runs from -depth to +depth. A bottom edge shows
  its form turned 180 degrees, so two stacked tiles fit exactly when their profiles add up to zero:
  then the bands of both tiles make one gutter of constant depth 2 * band;
- every form leaves the band line at the same two points, (width - form_width) / 2 from each side.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.graphics.shapes import Circle, Group, Path, Polygon
from reportlab.lib.colors import Color, black, white

from printgen.drawing import fonts
from printgen.art.library import art_of
from printgen.drawing.picture import colour, placed, rect, text, turned
from printgen.games.omiga.model import Card, Colour, DeckLook, Form, Omiga, Tile

ARC_PIECE = 45.0  # degrees per Bezier piece; radial error below 1e-5 of the radius
NUMBER_PT = fonts.MIN_PT  # the tile number: small, but no smaller than any printed text
OUTLINE_MM = 0.35  # the line around a semicircle, when the palette asks for one


def arc(path: Path, cx: float, cy: float, r: float, start: float, end: float) -> None:
    """Append a circular arc (degrees, counter-clockwise) to `path` as cubic Beziers.

    The path must already stand at the arc's start point.
    """
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


def semicircle(cx: float, cy: float, r: float, facing: float, bleed: float, fill: Color) -> Path:
    """The half-disc centred on (cx, cy) that lies on the side `facing` (0 = right, 180 = left).

    With bleed, the disc continues past the edge up to `bleed` mm, so a slightly wide cut still
    shows the circle's own colour.
    """
    half = 90 + math.degrees(math.asin(min(bleed / r, 1.0)))
    start, end = facing - half, facing + half
    path = Path(fillColor=fill, strokeColor=None, strokeWidth=0)
    path.moveTo(cx + r * math.cos(math.radians(start)), cy + r * math.sin(math.radians(start)))
    arc(path, cx, cy, r, start, end)
    path.closePath()
    return path


def outline(cx: float, cy: float, r: float, facing: float, bleed: float, ink: Color) -> Path:
    """The semicircle's curved edge as a thin line (drawn inside the disc, so the disc keeps its
    radius): with light fills it keeps a pale semicircle visible on a pale face."""
    width = OUTLINE_MM
    half = 90 + math.degrees(math.asin(min(bleed / r, 1.0)))
    start, end = facing - half, facing + half
    inner = r - width / 2
    path = Path(fillColor=None, strokeColor=ink, strokeWidth=width)
    path.moveTo(cx + inner * math.cos(math.radians(start)), cy + inner * math.sin(math.radians(start)))
    arc(path, cx, cy, inner, start, end)
    return path


def profile(form: Form, card: Card) -> list[tuple[float, float]]:
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


def top_band(form: Form, card: Card, bleed: float, fill: Color) -> Polygon:
    """The band along the top edge, its inner line shaped by the form's profile."""
    w, h, m = card.width, card.height, card.band
    line = [(x, h - m + p) for x, p in profile(form, card)]
    points = [(-bleed, h + bleed), (w + bleed, h + bleed), (w + bleed, h - m)]
    points += list(reversed(line)) + [(-bleed, h - m)]
    return Polygon([v for point in points for v in point], fillColor=fill, strokeColor=None, strokeWidth=0)


def contrast(fill: Color) -> Color:
    """Black or white, whichever reads better on `fill`."""
    luminance = 0.2126 * fill.red + 0.7152 * fill.green + 0.0722 * fill.blue
    return black if luminance > 0.5 else white


def symbol(kind: str, x: float, y: float, size: float, ink: Color, facing: float) -> Group:
    """A small mark centred at (x, y) so colour is never the only cue. `facing` as in semicircle()."""
    group = Group()
    line = {"strokeColor": ink, "strokeWidth": size * 0.32, "strokeLineCap": 1}
    if kind == "dot":
        group.add(Circle(x, y, size * 0.6, fillColor=ink, strokeColor=None, strokeWidth=0))
    elif kind == "ring":
        group.add(Circle(x, y, size * 0.7, fillColor=None, **line))
    elif kind == "cross":
        path = Path(fillColor=None, **line)
        path.moveTo(x - size, y)
        path.lineTo(x + size, y)
        path.moveTo(x, y - size)
        path.lineTo(x, y + size)
        group.add(path)
    elif kind == "bar":
        path = Path(fillColor=None, **line)
        path.moveTo(x, y - size)
        path.lineTo(x, y + size)
        group.add(path)
    elif kind == "square":
        group.add(rect(x - size * 0.6, y - size * 0.6, size * 1.2, size * 1.2, fill=ink))
    elif kind == "triangle":  # points at the edge, so two halves make a bow tie
        d = -1 if facing == 0 else 1
        group.add(Polygon([x + d * size, y, x - d * size * 0.7, y + size, x - d * size * 0.7, y - size],
                          fillColor=ink, strokeColor=None, strokeWidth=0))
    return group


@dataclass(frozen=True)
class OmigaTile:
    """A tile face (and its deck's back), ready for imposition or an SVG of its own."""

    defn: Omiga
    deck: str
    index: int
    tile: Tile

    @property
    def width(self) -> float:
        return self.defn.card.width

    @property
    def height(self) -> float:
        return self.defn.card.height

    @property
    def look(self) -> DeckLook:
        return getattr(self.defn.looks(), self.deck)

    def front(self, bleed: float = 0.0, numbered: bool = True) -> Group:
        card, look, tile = self.defn.card, self.look, self.tile
        w, h, r = card.width, card.height, card.radius
        group = Group()
        group.add(rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour(look.face)))
        band = colour(look.band)
        group.add(top_band(self.defn.forms[tile.top], card, bleed, band))
        group.add(turned(Group(top_band(self.defn.forms[tile.bottom], card, bleed, band)), w, h))
        for cx, facing, name in ((0.0, 0.0, tile.left), (w, 180.0, tile.right)):
            paint = self.defn.looks().colours[name]
            group.add(semicircle(cx, h / 2, r, facing, bleed, colour(paint.fill)))
            if look.outline:
                group.add(outline(cx, h / 2, r, facing, bleed, colour(look.outline)))
            group.add(self.mark(paint, cx, facing))
        if numbered:  # a figure drawn smaller leaves it out rather than print it below 7 pt
            group.add(text(2.0, card.band + 1.2, f"{self.index + 1}", NUMBER_PT, fonts.BOLD,
                           fill=colour(look.ink)))
        return group

    def mark(self, paint: Colour, cx: float, facing: float) -> Group:
        r = self.defn.card.radius
        x = cx + (0.45 * r if facing == 0 else -0.45 * r)
        return symbol(paint.symbol, x, self.height / 2, 0.26 * r, contrast(colour(paint.fill)), facing)

    def back(self, bleed: float = 0.0) -> Group:
        """The deck's back; symmetric, so a small duplex misregistration never shows at an edge.
        A deck's own back image (art.white_back / art.black_back) replaces the emblem."""
        look, w, h = self.look, self.width, self.height
        ink = colour(look.back_ink)
        group = Group()
        group.add(rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour(look.back)))
        image = art_of(getattr(self.defn.art, f"{self.deck}_back"))
        if image is not None:  # art made for the tile covers its bleed too, so it runs past the cut
            group.add(image.shape(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed))
            return group
        ring = min(w, h) * 0.34
        group.add(Circle(w / 2, h / 2, ring, fillColor=None, strokeColor=ink, strokeWidth=0.7))
        group.add(Circle(w / 2, h / 2, ring - 1.6, fillColor=None, strokeColor=ink, strokeWidth=0.25))
        size = 8.5
        group.add(text(w / 2, h / 2 - 1.1, self.defn.title.upper(), size, fonts.BOLD, anchor="middle",
                       fill=ink))
        return group


def tile_on_table(tile: OmigaTile) -> Group:
    """The face as it lies on the table: black's tiles are turned to face their owner."""
    face = tile.front()
    return turned(face, tile.width, tile.height) if tile.deck == "black" else placed(face, (1, 0, 0, 1, 0, 0))
