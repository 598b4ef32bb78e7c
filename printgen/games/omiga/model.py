"""The Omiga definition. Colour and form names are free text here, so unknown names are a
structure check that `printgen validate` reports with everything else."""
from __future__ import annotations

from typing import Annotated, Iterable, Literal, Optional

from pydantic import Field

from printgen.drawing.style import MIN_DIFFERENCE, RULES_PT, lightness
from printgen.art.library import ImageFile
from printgen.core.source import Loc
from printgen.games.header import Booklet, WithReference
from printgen.core.fields import HexColour, Strict
from printgen.core.paper import MAX_BLEED_MM

Name = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$",
                            description="a name of letters, digits, _ and -, starting with a letter")]
Millimetres = Annotated[float, Field(gt=0, le=120, allow_inf_nan=False)]
Rate = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
Severity = Literal["error", "warning"]
Symbol = Literal["none", "dot", "ring", "cross", "bar", "triangle", "square"]
DECKS = ("white", "black")


class Colour(Strict):
    """One semicircle colour as a palette prints it."""

    fill: HexColour
    label: Annotated[str, Field(min_length=1, max_length=16)]
    symbol: Symbol = "none"


class DeckLook(Strict):
    """How one deck's tiles are printed: face, form band, small print, and the back."""

    face: HexColour
    band: HexColour
    ink: HexColour
    back: HexColour
    back_ink: HexColour
    outline: Optional[HexColour] = None  # a line around each semicircle, for light fills
    hatch: Optional[HexColour] = None  # thin diagonal lines across face and back: a pattern, not a flood


class Palette(Strict):
    colours: dict[Name, Colour]
    white: DeckLook
    black: DeckLook


class Form(Strict):
    """A top/bottom edge form. On a bottom edge it is the top-edge form turned 180 degrees."""

    shape: Literal["tip", "notch", "diagonal", "flat"]
    direction: Literal["rising", "falling"] = "rising"  # diagonals only: as seen on a top edge


class Tile(Strict):
    left: Name
    right: Name
    top: Name
    bottom: Name

    def signature(self) -> tuple[str, str, str, str]:
        return (self.left, self.right, self.top, self.bottom)

    def describe(self) -> str:
        return f"{self.left}|{self.right} {self.top}/{self.bottom}"


class Deck(Strict):
    size: Annotated[int, Field(ge=1, le=200, description="how many tiles this deck must hold")]
    tiles: Annotated[list[Tile], Field(min_length=1, max_length=200)]


class Decks(Strict):
    white: Deck
    black: Deck


class TileGeometry(Strict):
    """Tile geometry in millimetres (see omiga_tile for the drawing)."""

    width: Millimetres = 42
    height: Millimetres = 42
    radius: Millimetres = 8
    band: Millimetres = 4.5
    form_depth: Millimetres = 3
    form_width: Millimetres = 24
    bleed: Annotated[float, Field(ge=0, le=MAX_BLEED_MM, allow_inf_nan=False)] = 2


class DeckArt(Strict):
    """Your own images for the deck backs; each fills the back and its bleed (proportions kept,
    centred) over the palette's back colour, in place of the printed emblem."""

    white_back: ImageFile = None
    black_back: ImageFile = None


class Table(Strict):
    columns: Annotated[int, Field(ge=3, le=40)] = 12
    rows: Annotated[int, Field(ge=4, le=40, multiple_of=2)] = 10


class Thresholds(Strict):
    max_win_gap: Rate = 0.10
    max_draw_rate: Rate = 0.20
    max_stall_rate: Rate = 0.05
    max_no_legal_rate: Rate = 0.80
    min_mean_placements: Annotated[float, Field(ge=0, le=1000)] = 4
    max_colour_spread: Annotated[int, Field(ge=0, le=200)] = 0
    max_form_spread: Annotated[int, Field(ge=0, le=200)] = 0


class Validation(Strict):
    games: Annotated[int, Field(ge=1, le=1_000_000)] = 1000
    seed: Annotated[int, Field(ge=0, le=2**31)] = 1
    table: Table = Field(default_factory=Table)
    duplicates: Severity = "warning"
    mirror: Severity = "warning"
    dead_sides: Severity = "error"
    unequal_decks: Severity = "error"
    thresholds: Thresholds = Field(default_factory=Thresholds)


class Omiga(WithReference):
    game: Literal["omiga"]
    palette: Name
    palettes: Annotated[dict[Name, Palette], Field(min_length=1)]
    colours: Annotated[list[Name], Field(min_length=1, max_length=8)]
    forms: Annotated[dict[Name, Form], Field(min_length=1, max_length=8)]
    fits: Annotated[dict[Name, Annotated[list[Name], Field(max_length=8)]], Field(max_length=8)]
    card: TileGeometry = Field(default_factory=TileGeometry)
    decks: Decks
    validation: Validation = Field(default_factory=Validation)
    text_size_pt: Annotated[float, Field(ge=7, le=12)] = RULES_PT
    booklet: Booklet = False
    art: DeckArt = Field(default_factory=DeckArt)
    low_ink: bool = Field(False, description="white faces and plain backs: about half the ink")

    def deck(self, name: str) -> Deck:
        return getattr(self.decks, name)

    def tiles(self) -> Iterable[tuple[str, int, Tile]]:
        for deck in DECKS:
            for i, tile in enumerate(self.deck(deck).tiles):
                yield deck, i, tile

    def looks(self) -> Palette:
        """The chosen palette; with `low_ink`, every face and back white (bands tell the decks apart)."""
        palette = self.palettes[self.palette]
        if not self.low_ink:
            return palette
        plain = {"face": "#ffffff", "back": "#ffffff", "hatch": None}
        return palette.model_copy(update={"white": palette.white.model_copy(update=plain),
                                          "black": palette.black.model_copy(update=plain)})


def tile_name(deck: str, index: int) -> str:
    """The tile's name everywhere (reports, SVG file names): deck and 1-based number."""
    return f"{deck}-{index + 1:02d}"


def check_palettes(defn: Omiga) -> Iterable[tuple[Loc, str]]:
    """Every palette prints every colour, the chosen palette exists, and symbols tell colours apart."""
    if defn.palette not in defn.palettes:
        yield ("palette",), (f"expected one of the palettes defined below: "
                             f"{', '.join(defn.palettes)} (got '{defn.palette}')")
    if len(set(defn.colours)) != len(defn.colours):
        yield ("colours",), "a colour is listed twice; list each once"
    for name, palette in defn.palettes.items():
        missing = [c for c in defn.colours if c not in palette.colours]
        extra = [c for c in palette.colours if c not in defn.colours]
        if missing:
            yield ("palettes", name, "colours"), (f"gives no fill for {', '.join(missing)}; every "
                                                  f"palette must print every colour in `colours`")
        for colour in extra:
            yield ("palettes", name, "colours", colour), (f"'{colour}' is not in `colours` "
                                                          f"({', '.join(defn.colours)})")
        symbols = [c.symbol for c in palette.colours.values()]
        if any(s != "none" for s in symbols) and (len(set(symbols)) != len(symbols) or "none" in symbols):
            yield ("palettes", name, "colours"), ("when one colour has a symbol, every colour needs a "
                                                  "different one, so the symbol alone tells them apart")


def check_geometry(defn: Omiga) -> Iterable[tuple[Loc, str]]:
    """Tile measurements that would make the printed parts overlap or leave the tile."""
    card = defn.card
    if card.form_depth >= card.band:
        yield ("card", "form_depth"), (f"expected less than card.band ({card.band:g} mm), or a tip "
                                       f"would reach the tile edge (got {card.form_depth:g})")
    if card.form_width > card.width - 4:
        yield ("card", "form_width"), (f"expected at most {card.width - 4:g} mm, 2 mm inside each side "
                                       f"of the tile (got {card.form_width:g})")
    room = card.height / 2 - card.band - card.form_depth - 1.0
    if card.radius > room:
        yield ("card", "radius"), (f"expected at most {room:.1f} mm, so the semicircles keep 1 mm clear "
                                   f"of the form bands (got {card.radius:g})")
    if card.radius > card.width / 2 - 2:
        yield ("card", "radius"), (f"the two semicircles would meet; expected at most "
                                   f"{card.width / 2 - 2:g} mm (got {card.radius:g})")
    if card.bleed >= card.radius:
        yield ("card", "bleed"), f"expected less than the radius ({card.radius:g} mm) (got {card.bleed:g})"


def lightness_warnings(defn: Omiga) -> Iterable[tuple[Loc, str]]:
    """Palette colours closer than 25 in L*, which a grey printer or colour-blind player could confuse."""
    palette = defn.palettes.get(defn.palette)
    if palette is None:
        return
    names = [c for c in defn.colours if c in palette.colours]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            la, lb = lightness(palette.colours[a].fill), lightness(palette.colours[b].fill)
            if abs(la - lb) < MIN_DIFFERENCE:
                yield (("palettes", defn.palette, "colours", b, "fill"),
                       f"{palette.colours[b].fill} has lightness {lb:.0f} and {a} has {la:.0f}; "
                       f"colours closer than {MIN_DIFFERENCE:.0f} print alike in black and white, so "
                       f"make one lighter or darker")
    yield from deck_differences(defn.palette, palette.white, palette.black)


def deck_differences(name: str, white: DeckLook, black: DeckLook) -> Iterable[tuple[Loc, str]]:
    """The decks must differ in lightness where they are told apart: on the faces, the face or the
    form bands (the standard palette prints both faces light and the black deck's bands dark); on
    the backs, the back or its emblem."""
    for parts, what in ((("face", "band"), "faces or form bands"), (("back", "back_ink"), "backs or back emblems")):
        steps = {part: abs(lightness(getattr(white, part)) - lightness(getattr(black, part))) for part in parts}
        if max(steps.values()) < MIN_DIFFERENCE:
            part = parts[1]
            yield (("palettes", name, "black", part),
                   f"{getattr(black, part)} has lightness {lightness(getattr(black, part)):.0f} and the white "
                   f"deck's {part} {lightness(getattr(white, part)):.0f} (their {parts[0]}s differ by "
                   f"{steps[parts[0]]:.0f}); the decks' {what} should differ by at least {MIN_DIFFERENCE:.0f}, "
                   f"or the decks print alike in black and white")
