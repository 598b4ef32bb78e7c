"""The deck definition: the card's size, where its rows come from, and how faces and backs look.

Layout coordinates are millimetres from the top-left, y down, as a designer reads a ruler, and may be
written with another unit ('2.5in', printgen.games.deck.units); colours are checked as they are read
(printgen.games.deck.colours); values may be Jinja expressions over the row (printgen.games.deck.values)."""
from __future__ import annotations

import difflib
from typing import Annotated, Any, Iterable, Literal, Mapping, Optional, Union

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from printgen.art.library import FileName, FontFile
from printgen.core.fields import Name, Strict
from printgen.core.paper import MAX_BLEED_MM
from printgen.core.source import Loc
from printgen.games.deck.rulesfields import ReferenceText, RulebookText, file_alone_too
from printgen.games.deck.colours import WRITTEN, literal_colour, literal_opacity, opacity_outside
from printgen.games.deck.units import literal_length, type_size, with_units
from printgen.games.header import Definition

SIZES: dict[str, tuple[float, float]] = {  # width, height in mm, portrait
    "poker": (63.5, 88.9), "bridge": (57.2, 88.9), "tarot": (70.0, 120.0), "mini": (44.5, 63.5),
    "square": (63.5, 63.5), "euro": (59.0, 92.0), "mini-euro": (45.0, 68.0), "domino": (44.5, 88.9),
    "business": (50.8, 88.9), "jumbo": (88.9, 127.0), "token": (25.4, 25.4),
}
FONT_STYLES = ("regular", "bold", "italic", "bold-italic")

Number = Annotated[Union[float, str], BeforeValidator(literal_length("mm")), Field(description=(
    "a length: a number of millimetres, or with its unit ('2.5in', '6.35cm', '18pt', '4mm'), or a Jinja "
    "expression such as '{{ 10 + cost }}'"))]
Mm = BeforeValidator(literal_length("mm"))  # a float key in millimetres that also takes '2.5in'
Pt = BeforeValidator(type_size)  # a type size in points, 7 to 72, that also takes '4mm'
Units = Field(json_schema_extra=lambda schema: with_units(schema))  # editors take '2.5in' too
Paint = Annotated[str, AfterValidator(literal_colour), Field(max_length=400, description=(
    f"a colour: {WRITTEN}; or a Jinja expression giving one"))]
Opacity = Annotated[Union[float, str], BeforeValidator(literal_opacity), Field(description=(
    "how opaque the element is, from 0 (not drawn) to 1 (solid), as 0.5 or '50%', or a Jinja expression"))]
Text = Annotated[str, Field(max_length=4000)]
ElementId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$",
                                 description="letters, digits, _ and -, such as 'title' or 'cost-badge'")]
LayoutName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_ .-]*$",
                                  description="a layout's name, as a row's value gives it: letters, digits, "
                                              "spaces, _, - and .")]
Column = Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                              description="a column name: letters, digits and _, not starting with a "
                                          "digit, so templates can say {{ name }}")]


def named_size(value: Any) -> Any:
    """A card size not among SIZES told in words, with the nearest name; other values are pydantic's."""
    if isinstance(value, str) and value not in SIZES:
        nearest = difflib.get_close_matches(value.lower(), list(SIZES), n=1, cutoff=0.6)
        hint = f"; did you mean '{nearest[0]}'?" if nearest else ""
        raise ValueError(f"expected a card size: {', '.join(SIZES)}; or leave size out and give width and height, "
                         f"such as width: 70 and height: '4.5in' (got {value[:40]!r}){hint}")
    return value


DEFAULT_BLEED = 2.0  # mm: enough for a cut or a duplex back a little off, as print shops ask


class CardSize(Strict):
    size: Annotated[Optional[Literal[tuple(SIZES)]], BeforeValidator(named_size), Field(  # type: ignore[valid-type]
        description=f"a usual size: {', '.join(SIZES)}; or give width and height")] = "poker"
    width: Annotated[Optional[float], Field(gt=10, le=300, allow_inf_nan=False), Mm, Units] = None
    height: Annotated[Optional[float], Field(gt=10, le=400, allow_inf_nan=False), Mm, Units] = None
    corner_radius: Annotated[float, Field(ge=0, le=20, allow_inf_nan=False,
                                          description="rounding of the cut guides' corners, mm"), Mm, Units] = 3.0
    bleed: Annotated[Optional[float], Field(ge=0, le=MAX_BLEED_MM, allow_inf_nan=False, description=(
        "how far backgrounds run past the cut, mm; left out, 2 mm when a sheet holds as many "
        "cards with it as without, else none and the cards stand edge to edge")), Mm, Units] = None
    safe: Annotated[float, Field(ge=0, le=20, allow_inf_nan=False,
                                 description="inset of the safe area inside the cut, mm; text "
                                             "must stay inside it"), Mm, Units] = 3.0

    @property
    def most_bleed(self) -> float:
        """The bleed a card is drawn for when the sheet has room: the one given, else the usual 2 mm."""
        return DEFAULT_BLEED if self.bleed is None else self.bleed

    @property
    def dimensions(self) -> tuple[float, float]:
        if self.width is not None and self.height is not None:
            return self.width, self.height
        return SIZES[self.size or "poker"]


class Clip(Strict):
    """A shape in card millimetres outside which an element paints nothing (printgen.games.deck.placing)."""

    type: Annotated[Optional[Literal["card", "rect", "ellipse", "path"]], Field(
        description="card, rect, ellipse or path; left out, path when 'd' is given, else rect")] = None
    x: Annotated[float, Field(ge=-100, le=500, allow_inf_nan=False), Mm, Units] = 0.0
    y: Annotated[float, Field(ge=-100, le=500, allow_inf_nan=False), Mm, Units] = 0.0
    width: Annotated[Optional[float], Field(gt=0, le=500, allow_inf_nan=False), Mm, Units] = None
    height: Annotated[Optional[float], Field(gt=0, le=500, allow_inf_nan=False), Mm, Units] = None
    radius: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False, description="a rect's rounded "
                                                                                  "corners, mm"), Mm, Units] = 0.0
    d: Annotated[Optional[str], Field(max_length=20_000, description="SVG path data in card mm")] = None

    @model_validator(mode="before")
    @classmethod
    def card_written_alone(cls, value: Any) -> Any:
        """`clip: card` is `{type: card}`; any other word is told in printgen's words, not as a
        mismatch with each of pydantic's choices."""
        if isinstance(value, str):
            if value == "card":
                return {"type": "card"}
            raise ValueError(f"expected card, or a shape such as {{type: ellipse, x: 5, y: 5, width: 20, "
                             f"height: 20}} or {{d: 'M 0 0 L 10 0 L 5 8 Z'}}")
        return value


class Element(Strict):
    """One thing drawn on a face or back. Which keys apply depends on `type` (see docs/decks.md)."""

    type: Literal["rect", "ellipse", "line", "polygon", "path", "image", "text"]
    id: Annotated[Optional[ElementId], Field(description="a short name a layout extending this one uses "
                                             "to replace or remove the element")] = None
    when: Annotated[Optional[str], Field(max_length=400, description="a Jinja condition over the row, "
                                         "such as 'cost > 2'; the element is drawn only when it holds")] = None
    x: Number = 0.0
    y: Number = 0.0
    width: Optional[Number] = None
    height: Optional[Number] = None
    radius: Number = 0.0
    points: Annotated[Optional[list[Annotated[list[Number], Field(min_length=2, max_length=2)]]],
                      Field(max_length=200, description="[x, y] pairs in mm")] = None
    d: Annotated[Optional[str], Field(max_length=20_000, description="SVG path data in mm, "
                                      "e.g. 'M 0 0 L 10 0 L 5 8 Z'")] = None
    fill: Optional[Paint] = None
    stroke: Optional[Paint] = None
    stroke_width: Annotated[Union[float, str], Field(description=(
        "the outline's width in mm or with a unit ('1pt'; 0: no outline), or a Jinja expression")), Mm, Units] = 0.3
    src: Optional[Annotated[str, Field(min_length=1, max_length=300)]] = None
    text: Optional[Text] = None
    font: Annotated[str, Field(min_length=1, max_length=300, description=(
        "regular, bold, italic or bold-italic (printgen's own sans), or a TrueType font file (.ttf) "
        "beside the definition"))] = "regular"
    size: Annotated[float, Field(ge=7, le=72, allow_inf_nan=False, description=(
        "text size in points, 7 at the least (or with a unit: '4mm')")), Pt, Units] = 10.0
    min_size: Annotated[Optional[float], Field(ge=7, le=72, allow_inf_nan=False, description=(
        "shrink text that does not fit down to this size, 7 pt at the least")), Pt, Units] = None
    colour: Paint = "#000000"
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    wrap: bool = True
    line_height: Annotated[float, Field(ge=0.8, le=3)] = 1.2
    opacity: Opacity = 1.0
    rotate: Annotated[Union[float, str], Field(description=(
        "degrees the element turns, clockwise as seen on the card (negative: anticlockwise), "
        "or a Jinja expression"))] = 0.0
    origin: Annotated[Optional[list[Number]], Field(min_length=2, max_length=2, description=(
        "[x, y] in mm of the point it turns about; left out, the centre of its box (of its points' "
        "or path's bounds for a line, polygon or path)"))] = None
    clip: Annotated[Optional[Clip], Field(description=(
        "card (the card with its bleed), or a shape it never paints outside: {type: rect, x, y, "
        "width, height}, {type: ellipse, ...} or {d: 'M ...'}, in card mm"),
        json_schema_extra=lambda schema: schema["anyOf"].insert(0, {"const": "card"}))] = None


class Face(Strict):
    template: Annotated[Optional[FileName], Field(description=(
        "an SVG Jinja template beside the definition, such as 'face.svg.j2', rendered for every row "
        "(its columns, plus card.width, card.height, card.safe and card.bleed in mm) and drawn "
        "under the layout"))] = None
    layout: Annotated[list[Element], Field(max_length=200)] = Field(default_factory=list)
    background: Optional[Paint] = "#ffffff"


class Back(Face):
    """A face with a name, since backs that differ by row become files and decks of their own."""

    name: Annotated[Optional[str], Field(min_length=1, max_length=400, description=(
        "what the back is called in file names and exports: plain text, a column's name, or a Jinja "
        "expression such as '{{ kind }} back', so backs that differ by row each have a name; with "
        "back_layout, the layout's name unless this says otherwise"))] = None


class Layout(Strict):
    """A named look for a side, which may start from another (`extends`) and change it by element ids."""

    extends: Annotated[Optional[LayoutName], Field(description="the layout this one starts from: its "
                                                   "background, template and elements")] = None
    template: Annotated[Optional[FileName], Field(description=(
        "an SVG Jinja template beside the definition drawn under the elements, as a face's template; "
        "null to drop the one inherited"))] = None
    background: Optional[Paint] = "#ffffff"
    layout: Annotated[list[Element], Field(max_length=200, description="elements drawn after (over) "
                                           "those inherited")] = Field(default_factory=list)
    replace: Annotated[dict[ElementId, Element], Field(max_length=200, description=(
        "inherited elements by id, each drawn instead of it, in its place"))] = Field(default_factory=dict)
    change: Annotated[dict[ElementId, dict[Annotated[str, Field(max_length=40)], Any]], Field(
        max_length=200, description=("inherited elements by id, each with the keys given here changed, such "
                                     "as {title: {y: 8, colour: '#ffffff'}}; the rest as inherited"))] = \
        Field(default_factory=dict)
    remove: Annotated[list[ElementId], Field(max_length=200, description="ids of inherited elements "
                                             "not to draw")] = Field(default_factory=list)


FontName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z][A-Za-z0-9 _-]*$",
                                description="a name for the font, as a text element's font and an SVG "
                                            "template's font-family give it: letters, digits, spaces, _ and -")]


class FontFaces(Strict):
    """One font family: a TrueType file per face; <b> and <i> in a text set in it use them."""

    regular: FontFile
    bold: FontFile = None
    italic: FontFile = None
    bold_italic: FontFile = None

    @model_validator(mode="before")
    @classmethod
    def one_file(cls, value: Any) -> Any:
        """`Title: title.ttf` is a family of one face, `{regular: title.ttf}`."""
        return {"regular": value} if isinstance(value, str) else value


class Sheet(Strict):
    paper: Literal["a4", "letter", "a3", "tabloid"] = "a4"
    orientation: Annotated[Literal["auto", "portrait", "landscape"], Field(
        description="auto: landscape only when it holds more cards on each sheet")] = "auto"
    gap: Annotated[float, Field(ge=0, le=20, allow_inf_nan=False, description="mm between cards"), Mm, Units] = 0.0
    layout: Annotated[Literal["duplex", "gutterfold", "fronts"], Field(
        description="duplex: backs on the reverse; gutterfold: each back beside its front, to fold; "
                    "fronts: faces only")] = "duplex"
    cut: Literal["marks", "lines"] = "marks"
    fill: Annotated[Literal["none", "blank"], Field(
        description="blank: the last sheet's spare places hold blank cards (a plain face, the deck's "
                    "back) to write your own on; none: they stay empty")] = "none"


Scalar = Union[bool, int, float, str, None]


class Deck(Definition):
    game: Literal["deck"]
    title: Annotated[str, Field(min_length=1, max_length=60)]
    card: CardSize = Field(default_factory=CardSize)
    data: Annotated[Optional[FileName], Field(description=(
        "a file beside the definition with a header row: CSV (UTF-8), TSV (.tsv, tab separated) or "
        "an Excel workbook (.xlsx; its first sheet, or a named one as 'cards.xlsx#Ships')"))] = None
    rows: Annotated[Optional[list[dict[Column, Scalar]]], Field(max_length=10_000)] = None
    columns: Annotated[dict[Column, Literal["text", "whole number", "number", "yes/no"]], Field(
        max_length=100, description="how to read a column: text, whole number, number or yes/no")] = \
        Field(default_factory=dict)
    copies: Column = "copies"
    name: Annotated[Optional[str], Field(max_length=400, description="a Jinja expression naming a "
                                         "card's files, such as '{{ title }}'")] = None
    icons: Annotated[dict[Name, FileName], Field(max_length=100, description="pictures text can show "
                                                 "inline as :name:")] = Field(default_factory=dict)
    face: Optional[Face] = None
    back: Back = Field(default_factory=Back)
    layouts: Annotated[dict[LayoutName, Layout], Field(max_length=100, description=(
        "named layouts, which face_layout and back_layout choose among for each row"))] = \
        Field(default_factory=dict)
    face_layout: Annotated[Optional[str], Field(min_length=1, max_length=400, description=(
        "instead of 'face': the name of a layout in 'layouts', or a Jinja expression giving one for "
        "each row, such as '{{ type }}'"))] = None
    back_layout: Annotated[Optional[str], Field(min_length=1, max_length=400, description=(
        "instead of 'back': the name of a layout in 'layouts', or a Jinja expression giving one "
        "for each row"))] = None
    sheet: Sheet = Field(default_factory=Sheet)
    fonts: Annotated[dict[FontName, FontFaces], Field(max_length=20, description=(
        "your own fonts by name: a TrueType file ('Title: fonts/title.ttf'), or a family of up to "
        "four ({regular: ..., bold: ..., italic: ..., bold_italic: ...}); a text element's font and "
        "an SVG template's font-family may name them"))] = Field(default_factory=dict)
    version: Annotated[str, Field(max_length=40, description=(
        "the game's version or edition, such as 1.2: the rules documents' footers print it"))] = ""
    rules: Annotated[Optional[RulebookText], Field(description=(
        "a rulebook in Markdown beside the definition, such as rules.md: <name>-rules.pdf"),
        json_schema_extra=file_alone_too)] = None
    reference: Annotated[Optional[ReferenceText], Field(description=(
        "a reference card in Markdown, such as reference.md, its two halves split by <!-- page break -->: "
        "<name>-reference.pdf and <name>-reference-cards.pdf"),
        json_schema_extra=file_alone_too)] = None


OWN_KEYS = {
    "rect": {"x", "y", "width", "height", "radius", "fill", "stroke", "stroke_width"},
    "ellipse": {"x", "y", "width", "height", "fill", "stroke", "stroke_width"},
    "line": {"points", "stroke", "stroke_width"},
    "polygon": {"points", "fill", "stroke", "stroke_width"},
    "path": {"x", "y", "d", "fill", "stroke", "stroke_width"},
    "image": {"x", "y", "width", "height", "src"},
    "text": {"x", "y", "width", "height", "text", "font", "size", "min_size", "colour", "align",
             "valign", "wrap", "line_height"},
}
PLACED = {"rotate", "origin", "clip"}  # every kind turns and clips (printgen.games.deck.placing)
OWN_KEYS = {kind: keys | PLACED | ({"opacity"} if kind != "image" else set()) for kind, keys in OWN_KEYS.items()}
NEEDED = {"rect": ("width", "height"), "ellipse": ("width", "height"), "line": ("points",),
          "polygon": ("points",), "path": ("d",), "image": ("src", "width", "height"),
          "text": ("text", "width", "height")}


def element_lists(defn: Deck) -> Iterable[tuple[Loc, list[tuple[int | str, Element]]]]:
    """Every list of elements as written, where it is (face.layout, layouts.ship.replace) and each
    element by its index or, in a `replace`, its id."""
    for side in ("face", "back"):
        if getattr(defn, side) is not None:
            yield (side, "layout"), list(enumerate(getattr(defn, side).layout))
    for name, layout in defn.layouts.items():
        yield ("layouts", name, "layout"), list(enumerate(layout.layout))
        yield ("layouts", name, "replace"), list(layout.replace.items())


def check_elements(defn: Deck) -> Iterable[tuple[Loc, str]]:
    """Each element's keys fit its type: a key another type uses is a mistake, a needed one missing."""
    for at, elements in element_lists(defn):
        for i, element in elements:
            for key, message in element_problems(element, defn.fonts):
                yield (*at, i, *key), message
    for name in defn.fonts:
        if name in FONT_STYLES:
            yield ("fonts", name), f"'{name}' is printgen's own face; give your font another name"


def element_problems(element: Element, fonts: Mapping[str, Any]) -> Iterable[tuple[Loc, str]]:
    """What is wrong with one element as a whole, each at its key (() for the element itself);
    `fonts` are the deck's own, by name."""
    given = element.model_fields_set - {"type", "when", "id"}
    for key in sorted(given - OWN_KEYS[element.type]):
        yield (key,), (f"{article(element.type)} {element.type} takes no '{key}'; it takes "
                       f"{', '.join(sorted(OWN_KEYS[element.type]))}")
    for key in NEEDED[element.type]:
        if getattr(element, key) is None:
            yield (), f"{article(element.type)} {element.type} needs '{key}'"
    if element.font not in FONT_STYLES and not element.font.lower().endswith(".ttf") and element.font not in fonts:
        named = f", a font under fonts: ({', '.join(fonts)})" if fonts else ""
        yield ("font",), (f"expected {', '.join(FONT_STYLES)}{named} or a TrueType font "
                          f"file such as 'fonts/title.ttf' (got {element.font!r})")
    if isinstance(element.stroke_width, float) and element.stroke_width < 0:
        yield ("stroke_width",), negative_stroke(element.stroke_width)
    if isinstance(element.opacity, float) and not 0 <= element.opacity <= 1:
        yield ("opacity",), opacity_outside(element.opacity)
    if element.type in ("line", "polygon") and element.points is not None:
        least = 2 if element.type == "line" else 3
        if len(element.points) < least:
            yield ("points",), f"a {element.type} needs at least {least} points"


def negative_stroke(width: float) -> str:
    """What is said of a stroke width below 0, given in the definition or worked out for a row."""
    return f"expected a width of 0 mm or more, 0 for no outline (got {width:g})"


def article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def check_source(defn: Deck) -> Iterable[tuple[Loc, str]]:
    if defn.data is None and defn.rows is None:
        yield ("game",), ("expected the cards' rows: 'data: cards.csv' (a CSV file beside the definition) "
                          "or 'rows:' (a list of rows here)")
    if defn.data is not None and defn.rows is not None:
        yield ("rows",), "expected 'data' or 'rows', not both"
    if (defn.card.width is None) != (defn.card.height is None):
        yield ("card",), "expected both width and height, or neither (then 'size' sets them)"
