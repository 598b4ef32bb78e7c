"""A card's face or back for one row, drawn in millimetres as reportlab shapes.

The layout is y down from the top-left; the side's group turns it y up, text and images upright."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Mapping

from reportlab.graphics.shapes import Ellipse, Group, Path, PolyLine, Polygon
from reportlab.lib.colors import Color

from printgen.drawing.fonts import MIN_PT
from printgen.drawing.picture import Matrix, rect
from printgen.games.deck.misprints import missing_glyph, unknown_icon
from printgen.games.deck.colours import colour, opacity
from printgen.games.deck.model import Element, negative_stroke
from printgen.games.deck.paths import path_of
from printgen.games.deck.units import length
from printgen.games.deck.placing import centre_of, corners, on_card, placed_element, turning
from printgen.games.deck.reach import LIMIT, out_of_reach
from printgen.games.deck.richtext import MarkupError, Style, spans
from printgen.games.deck.textbox import Box, TextWidths, Type, draw, fit, text_widths, upright
from printgen.games.deck.typefaces import OWN_FACES, Family, NoFace, face_words, own_family
from printgen.output.reuse import reusable



class Unfit(ValueError):
    """A value of one element that cannot be drawn; `key` is the element's key at fault."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass
class Side:
    """What a side needs besides its layout: the card's size, the safe inset, icons and images."""

    width: float
    height: float
    safe: float
    icons: Mapping[str, Any]
    image: Callable[[str], Any]  # file name -> loaded Art (or ValueError)
    template: Callable[[str, bytes], Any]  # a rendered SVG -> Art (or ValueError)
    font: Callable[[str], Family]  # a .ttf file or a name under fonts: -> its faces (or ValueError)
    widths: TextWidths = field(default_factory=text_widths)  # every card's text measured through it


def number(value: Any, key: str, unit: str = "mm", limit: float = LIMIT, hint: str = "") -> float:
    """`value` read as a number from -`limit` to `limit` (a length in mm may carry its unit,
    '2.5in'); Unfit at `key` says what was expected."""
    if unit == "mm":
        try:
            result = length(value)
        except ValueError as exc:
            raise Unfit(key, str(exc)) from None
    else:
        try:
            result = float(value)
        except (TypeError, ValueError):
            raise Unfit(key, f"expected a number of {unit}{hint} (got {str(value)!r})") from None
    if out_of_reach(result, limit):
        raise Unfit(key, f"expected a number of {unit} between {-limit:g} and {limit:g} (got {value!r})")
    return result


def paint(value: Any, key: str, opacity: float = 1.0) -> Color | None:
    """The colour `value` names, its alpha times the element's `opacity`; None for 'none'."""
    try:
        return colour("" if value is None else str(value), opacity)
    except ValueError as exc:
        raise Unfit(key, str(exc)) from None


def opaque(value: Any) -> float:
    """An element's opacity for this row, 0 to 1."""
    try:
        return opacity(value)
    except ValueError as exc:
        raise Unfit("opacity", str(exc)) from None


def draw_element(el: Element, v: Callable[[str], Any], side: Side) -> Any:
    """One element with the row's values (`v(key)`), in card coordinates, y down, turned and
    clipped as it asks (printgen.games.deck.placing)."""
    alpha = 1.0 if el.type == "image" else opaque(v("opacity"))
    stroke, width = paint(v("stroke"), "stroke", alpha), number(v("stroke_width"), "stroke_width")
    if width < 0:
        raise Unfit("stroke_width", negative_stroke(width))
    if width == 0:  # a PDF line of width 0 is the thinnest the printer can make, not none
        stroke = None
    box = None
    if el.type in ("rect", "ellipse", "image", "text"):
        box = Box(number(v("x"), "x"), number(v("y"), "y"), number(v("width"), "width"), number(v("height"), "height"))
        if box.width <= 0 or box.height <= 0:
            raise Unfit("width", f"expected a width and height above 0 (got {box.width:g} x {box.height:g})")
    angle = number(v("rotate"), "rotate", "degrees", 3600, ", clockwise")
    if el.type == "text" and box is not None:
        matrix = turning(angle, *origin(v, (box.x + box.width / 2, box.y + box.height / 2)))
        return placed_element(text_element(el, v, side, box, matrix, alpha), matrix, el.clip)
    shape = shape_of(el, v, side, box, stroke, width, alpha)
    middle = (box.x + box.width / 2, box.y + box.height / 2) if box else centre_of(shape.getBounds())
    return placed_element(shape, turning(angle, *origin(v, middle)), el.clip)


def origin(v: Callable[[str], Any], middle: tuple[float, float]) -> tuple[float, float]:
    """The point an element turns about: its `origin` in mm, else the middle of its box or bounds."""
    given = v("origin")
    if given is None:
        return middle
    x, y = (number(c, "origin") for c in given)
    return x, y


def shape_of(el: Element, v: Callable[[str], Any], side: Side, box: Box | None, stroke: Color | None,
             width: float, alpha: float = 1.0) -> Any:
    """Any element but text, unturned; `alpha` scales its fill's and stroke's."""
    if el.type == "rect" and box:
        return rect(box.x, box.y, box.width, box.height, fill=paint(v("fill"), "fill", alpha), stroke=stroke,
                    stroke_width=width, radius=min(number(v("radius"), "radius"), box.width / 2, box.height / 2))
    if el.type == "ellipse" and box:
        return Ellipse(box.x + box.width / 2, box.y + box.height / 2, box.width / 2, box.height / 2,
                       fillColor=paint(v("fill"), "fill", alpha), strokeColor=stroke, strokeWidth=width)
    if el.type in ("line", "polygon"):
        points = [number(c, "points") for point in (v("points") or []) for c in point]
        if el.type == "line":
            return PolyLine(points, strokeColor=stroke, strokeWidth=width, strokeLineCap=1)
        return Polygon(points, fillColor=paint(v("fill"), "fill", alpha), strokeColor=stroke, strokeWidth=width)
    if el.type == "path":
        x, y = number(v("x"), "x"), number(v("y"), "y")
        try:
            shape: Path = path_of(str(v("d")), x, y)
        except ValueError as exc:
            raise Unfit("d", str(exc)) from None
        shape.fillColor, shape.strokeColor, shape.strokeWidth = paint(v("fill"), "fill", alpha), stroke, width
        return shape
    assert box is not None  # an image: the kinds with a box were read above
    try:
        art = side.image(str(v("src")))
    except ValueError as exc:
        raise Unfit("src", str(exc)) from None
    return upright(art.shape(0, 0, box.width, box.height), box.x, box.y + box.height)


def text_element(el: Element, v: Callable[[str], Any], side: Side, box: Box, matrix: Matrix | None = None,
                 alpha: float = 1.0) -> Group:
    """A text box, every corner of it (turned by `matrix`) inside the safe area."""
    low, high = side.safe - 1e-6, (side.width - side.safe + 1e-6, side.height - side.safe + 1e-6)
    if not all(low <= cx <= high[0] and low <= cy <= high[1]
               for cx, cy in corners(box.x, box.y, box.width, box.height, matrix)):
        turned = " turned as it is" if matrix else ""
        raise Unfit("rotate" if matrix else "x", f"the text box ({box.x:g}, {box.y:g}, {box.width:g} x "
                    f"{box.height:g} mm){turned} leaves the safe area, {side.safe:g} mm inside the cut; "
                    f"move it in or make it smaller")
    try:
        family = own_family(el.font) if el.font in OWN_FACES else side.font(el.font)
    except ValueError as exc:
        raise Unfit("font", str(exc)) from None
    least = el.min_size or el.size
    value = "" if v("text") is None else str(v("text"))
    kind = Type(partial(face, family), el.size, paint(v("colour"), "colour", alpha) or Color(0, 0, 0, alpha))
    try:
        found_spans = spans(value)
        shown = "".join(span.text for span in found_spans)  # what prints: the words, not the tags
        misprint = unknown_icon(shown, side.icons)
        for span in found_spans:  # each word asked of the face it prints in
            misprint = misprint or missing_glyph(span.text, side.icons, face(family, span.style),
                                                 face_label(el.font, family, span.style))
        if misprint:
            raise Unfit("text", misprint)
        found = fit(value, side.icons, kind, least, box, el.wrap, el.line_height, side.widths)
    except MarkupError as exc:
        raise Unfit("text", str(exc)) from None
    except NoFace as exc:
        raise Unfit("font", str(exc)) from None
    if found is None:
        shrink = f"even at {least:g} pt" if least < el.size else f"at {el.size:g} pt (set min_size to let it shrink)"
        smallest = min((span.style.size for span in spans(value) if span.style.size), default=None)
        if smallest is not None and el.size * MIN_PT / smallest > least:
            shrink = (f"at any size its <font size=\"{smallest:g}\"> words allow, since they shrink with the "
                      f"rest and no glyph prints under {MIN_PT:g} pt")
        raise Unfit("text", f"the text does not fit its {box.width:g} x {box.height:g} mm box {shrink}; "
                            f"shorten it or enlarge the box")
    size, lines = found
    return draw(lines, kind, size, box, el.align, el.valign, el.line_height, side.widths)


def face_label(font: str, family: Family, style: Style) -> str:
    """The font as a message names it: `Body (bold face)` for a face of a family under fonts:."""
    wanted = (family.base[0] or style.bold, family.base[1] or style.italic)
    if font.lower().endswith(".ttf") or wanted == (False, False):
        return font
    return f"{font} ({face_words(wanted)[0]} face)"


def face(family: Family, style: Style) -> str:
    """The registered font a span prints in: bold and italic combine with the element's own face."""
    return family.face(style.bold, style.italic)


@dataclass
class DrawnSide:
    """One side of one card, drawn once and shared by every bleed `at(bleed)` puts it over."""

    content: list[Any]
    background: Color | None
    width: float
    height: float
    reuse: bool = False  # placed more than once: stored once in a PDF (printgen.output.reuse)
    drawn: dict[float, Any] = field(default_factory=dict)
    shared: dict[Any, Any] = field(default_factory=dict, repr=False)  # shapes the deck's cards share

    def at(self, bleed: float) -> Any:
        """The elements in y-up over the background run into `bleed`, shared deck-wide via `shared`."""
        if bleed not in self.drawn:
            width, height, background = self.width, self.height, self.background
            group = Group()
            if background is not None:
                key = ("background", background.red, background.green, background.blue, background.alpha, width,
                       height, bleed)
                if key not in self.shared:
                    self.shared[key] = rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, fill=background)
                group.add(self.shared[key])
            group.add(Group(*(on_card(shape, width, height, bleed) for shape in self.content),
                            transform=(1, 0, 0, -1, 0, height)))
            self.drawn[bleed] = reusable(group) if self.reuse else group
        return self.drawn[bleed]
