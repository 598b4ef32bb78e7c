"""Text in a box on a card: wrapped, shrunk until it fits, with inline icons (`:sword:`).

Drawn as shapes rather than paragraphs so a face's PDF and SVG are the same picture."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from reportlab.graphics.shapes import Group, String
from reportlab.lib.colors import Color

from printgen.core.paper import font_mm
from printgen.drawing import fonts
from printgen.drawing.picture import placed

ICON = re.compile(r":([A-Za-z0-9_-]{1,40}):")
STEP = 0.5  # pt between the sizes tried when shrinking
ASCENT = 0.76  # of the font size: the embedded sans's cap height sits about here below the top
ICON_GAP = 0.15  # of the font size, either side of an icon
CACHED_WIDTHS = 50_000  # measured words cached; a deck's cards share most of their words and sizes

@dataclass
class TextWidths:
    """fonts.text_width cached per deck: fitting measures the same words at every size tried."""

    cache: dict[tuple[str, str, float], float] = field(default_factory=dict)

    def __call__(self, text: str, font: str, size: float) -> float:
        key = (text, font, size)
        width = self.cache.get(key)
        if width is None:
            if len(self.cache) >= CACHED_WIDTHS:
                self.cache.clear()
            width = self.cache[key] = fonts.text_width(text, font, size)
        return width


@dataclass(frozen=True)
class Token:
    text: str  # a word, or "" for an icon
    icon: Any = None  # the icon's Art


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float


def tokens(paragraph: str, icons: Mapping[str, Any]) -> list[list[Token]]:
    """Words of one paragraph; an icon is a word of its own, or glued to the word it touches."""
    words: list[list[Token]] = []
    for word in paragraph.split():
        parts: list[Token] = []
        last = 0
        for match in ICON.finditer(word):
            if match.group(1) not in icons:
                continue
            if match.start() > last:
                parts.append(Token(word[last:match.start()]))
            parts.append(Token("", icons[match.group(1)]))
            last = match.end()
        if last < len(word):
            parts.append(Token(word[last:]))
        words.append(parts)
    return words


def word_width(word: list[Token], font: str, size: float, measure: TextWidths) -> float:
    return sum(icon_width(t.icon, size) if t.icon else measure(t.text, font, size) for t in word)


def icon_width(art: Any, size: float) -> float:
    width, height = art.natural
    return size * width / height + 2 * ICON_GAP * size


@dataclass(frozen=True)
class Line:
    """One line's words and width in mm, measured once for both fitting and drawing."""

    words: list[list[Token]]
    width: float


def lines_at(paragraphs: list[list[list[Token]]], font: str, size_pt: float, width: float,
             wrap: bool, measure: TextWidths) -> list[Line]:
    """Lines of words at a size: each paragraph (a line break in the text) starts a new line."""
    size = font_mm(size_pt)
    space = measure(" ", font, size)
    lines: list[Line] = []
    for words in paragraphs:
        line: list[list[Token]] = []
        widths: list[float] = []
        used = 0.0
        for word in words:
            w = word_width(word, font, size, measure)
            if wrap and line and used + space + w > width:
                lines.append(Line(line, sum(widths) + space * max(0, len(line) - 1)))
                line, widths, used = [], [], 0.0
            used += (space if line else 0) + w
            line.append(word)
            widths.append(w)
        lines.append(Line(line, sum(widths) + space * max(0, len(line) - 1)))
    return lines


def fit(text: str, icons: Mapping[str, Any], font: str, size_pt: float, least_pt: float, box: Box,
        wrap: bool, line_height: float, measure: TextWidths) -> tuple[float, list[Line]] | None:
    """The largest size down to `least_pt` at which the text fits, with its lines; else None."""
    paragraphs = [tokens(paragraph, icons) for paragraph in text.split("\n")]
    size = size_pt
    while size >= least_pt - 1e-9:
        lines = lines_at(paragraphs, font, size, box.width, wrap, measure)
        tall = font_mm(size) * (line_height * (len(lines) - 1) + 1)
        if max((line.width for line in lines), default=0.0) <= box.width + 1e-6 and tall <= box.height + 1e-6:
            return size, lines
        size = round(size - STEP, 2)
    return None


def draw(lines: list[Line], font: str, size_pt: float, box: Box, colour: Color,
         align: str, valign: str, line_height: float, measure: TextWidths) -> Group:
    """The lines as strings and icons, in card coordinates (y down); each glyph is turned upright."""
    size = font_mm(size_pt)
    space = measure(" ", font, size)
    leading = size * line_height
    tall = size * (line_height * (len(lines) - 1) + 1)
    top = box.y + {"top": 0.0, "middle": (box.height - tall) / 2, "bottom": box.height - tall}[valign]
    group = Group()
    for n, line in enumerate(lines):
        width = line.width
        x = box.x + {"left": 0.0, "center": (box.width - width) / 2, "right": box.width - width}[align]
        baseline = top + n * leading + size * ASCENT
        run, run_x = "", x
        for i, word in enumerate(line.words):
            if i:
                run += " "
                x += space
            for token in word:
                if token.icon is None:
                    run += token.text
                    x += measure(token.text, font, size)
                    continue
                if run.strip():
                    group.add(upright(String(0, 0, run, fontName=font, fontSize=size, fillColor=colour),
                                      run_x, baseline))
                w = icon_width(token.icon, size)
                group.add(upright(token.icon.shape(0, 0, w - 2 * ICON_GAP * size, size),
                                  x + ICON_GAP * size, baseline + size * (1 - ASCENT)))
                x += w
                run, run_x = "", x
        if run.strip():
            group.add(upright(String(0, 0, run, fontName=font, fontSize=size, fillColor=colour), run_x, baseline))
    return group


def upright(shape: Any, x: float, y: float) -> Group:
    """A shape drawn y-up, placed at (x, y) of a y-down card."""
    return placed(shape, (1, 0, 0, -1, x, y))
