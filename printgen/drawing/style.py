"""printgen's house style, in one place, so the five games' rulebooks and reference sheets read as one
family: a short type scale, one body size for rulebooks and one for references, the same margins,
headings in the game's accent colour and a running footer on every page.

The accents differ in hue and, as each may be printed in grey, in lightness (CIE L*) too: how light
a colour prints, on the scale a black-and-white printer or a colour-blind player sees. Two colours
that must be told apart need L* at least `MIN_DIFFERENCE` apart.
"""
from __future__ import annotations

from types import MappingProxyType

from reportlab.graphics.shapes import Group
from reportlab.lib.colors import HexColor

from printgen.core.paper import Paper
from printgen.drawing.picture import text

RULES_PT = 9.5  # the body size of every rulebook
REFERENCE_PT = 9.0  # the body size of every reference sheet (denser, read at the table)
SMALL_PT = 7.5  # footers, captions, the cut line's words and the credit line; 7 pt stays the floor for pieces
DENSE_PT = 8.5  # a table of many narrow columns (a match-up grid), where body type would not fit
HEADING_PT = 11.5  # every section heading, rulebook or reference
TITLE_PT = 20.0  # every document's title

# the type scale: a rules or reference document prints these sizes and no others (at the default
# body sizes); a designer's own text_size_pt scales headings and title with it, so the steps keep
# their proportions
TYPE_SCALE = (SMALL_PT, DENSE_PT, REFERENCE_PT, RULES_PT, HEADING_PT, TITLE_PT)


def scaled(size_pt: float, body: float, default_body: float) -> float:
    """A step of the type scale for a document whose body is `body` pt where the house sets
    `default_body`: the house size itself at the default, in proportion otherwise."""
    return size_pt if abs(body - default_body) < 1e-9 else round(size_pt * body / default_body, 1)


def dense(body: float) -> float:
    """The size of a dense table's type in a document whose body is `body` pt: DENSE_PT at either
    house body size, nine tenths of a designer's own."""
    return DENSE_PT if body in (RULES_PT, REFERENCE_PT) else round(body * 0.9, 1)


MARGIN = 14.0  # mm from the paper edge to a rulebook's text, on every side
GUTTER = 7.0  # mm between columns
FOOTER_Y = 8.0  # mm: the footer's baseline, well clear of the 5 mm safe margin
FOOTER_GREY = "#666666"
MAX_MEASURE = 120.0  # mm: a text column wider than this is split in two (lines of 90 characters at most)
HEAD_MEASURE = 140.0  # mm: the widest a title block's lines run (about 85 characters of body type)

MIN_DIFFERENCE = 25.0  # L* units; the print design rule for colours that carry meaning
DEFAULT_ACCENT = "#444444"
ACCENTS = MappingProxyType({  # CIE L* 20, 26, 32, 39, 46: five steps apart in grey
    "quick_violence": "#3f2260",  # plum
    "fracas": "#6e241c",  # oxblood
    "armies": "#1f4e79",  # navy
    "omiga": "#2f6649",  # green
    "one_minute_war": "#966200",  # ochre
})


def _linear(channel: float) -> float:
    """An sRGB channel (0..1) as linear light."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(hex_colour: str) -> float:
    """Relative luminance Y (0 black .. 1 white) of '#rrggbb'."""
    value = hex_colour.lstrip("#")
    r, g, b = (_linear(int(value[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def lightness(hex_colour: str) -> float:
    """L* (0 black .. 100 white) of '#rrggbb', for the D65 white of sRGB."""
    y = luminance(hex_colour)
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def footer_words(title: str, kind: str, page: int, count: int, credit: str = "") -> str:
    """The running footer: the game, what the document is, page n of m, and who made the game."""
    words = f"{title} \u00b7 {kind} \u00b7 page {page} of {count}"
    return f"{words} \u00b7 {credit}" if credit else words


def split_wide(box: tuple[float, float, float, float]) -> list[tuple[float, float, float, float]]:
    """A text frame (x, y, w, h mm) as two columns when it is too wide for comfortable lines."""
    x, y, w, h = box
    if w <= MAX_MEASURE:
        return [box]
    half = (w - GUTTER) / 2
    return [(x, y, half, h), (x + half + GUTTER, y, half, h)]


FOOTER_LEADING = 3.2  # mm between the footer's baseline and that of a line above it


def running_footer(paper: Paper, words: str, y: float = FOOTER_Y, above: str = "",
                   centre: float | None = None) -> Group:
    """The footer line, centred at the page's foot (or on `centre`, mm) in small grey type, its
    baseline `y` mm up; `above`: a second line over it (a key to a mark, a note on the last page, or
    the first half of a footer set beside a piece), so neither runs off the page."""
    middle = paper.width / 2 if centre is None else centre
    group = Group(text(middle, y, words, SMALL_PT, anchor="middle", fill=HexColor(FOOTER_GREY)))
    if above:
        group.add(text(middle, y + FOOTER_LEADING, above, SMALL_PT, anchor="middle", fill=HexColor(FOOTER_GREY)))
    return group
