"""Text in a box on a card: wrapped, shrunk until it fits, with inline icons (`:sword:`) and styled
spans (printgen.games.deck.richtext).

Drawn as shapes rather than paragraphs so a face's PDF and SVG are the same picture."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping

from reportlab.graphics.shapes import Group, String
from reportlab.lib.colors import Color, HexColor

from printgen.core.paper import font_mm
from printgen.drawing import fonts
from printgen.drawing.picture import placed
from printgen.games.deck.richtext import PLAIN, Style, spans

ICON = re.compile(r":([A-Za-z0-9_-]{1,40}):")
SPACE = re.compile(r"(\s)")
STEP = 0.5  # pt between the sizes tried when shrinking
ASCENT = 0.76  # of the font size: the embedded sans's cap height sits about here below the top
ICON_GAP = 0.15  # of the font size, either side of an icon
CACHED_WIDTHS = 50_000  # measured words cached; a deck's cards share most of their words and sizes
TextWidths = Callable[[str, str, float], float]  # (text, font, size) -> width, as fonts.text_width


def text_widths() -> TextWidths:
    """fonts.text_width cached for one deck: fitting measures the same words at every size tried."""
    return lru_cache(maxsize=CACHED_WIDTHS)(fonts.text_width)


@dataclass(frozen=True)
class Token:
    text: str  # a word or part of one, or "" for an icon
    icon: Any = None  # the icon's Art
    style: Style = PLAIN  # its span's style (richtext)


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Type:
    """How a text box sets its spans: the face each style prints in, the element's size (a span's own
    size scales with it when the box shrinks its text) and colour."""

    face: Callable[[Style], str]
    size: float  # pt
    colour: Color

    def at(self, style: Style, size_pt: float) -> tuple[str, float]:
        """(font, size in mm) of a span's style with the text set at `size_pt`."""
        pt = size_pt if style.size is None else style.size * size_pt / self.size
        return self.face(style), font_mm(pt)


def tokens(text: str, icons: Mapping[str, Any]) -> list[list[list[Token]]]:
    """Words of each paragraph (a line break in the text); a word may change style part way, and
    an icon is a word of its own or glued to the word it touches."""
    paragraphs: list[list[list[Token]]] = [[]]
    word: list[Token] = []
    for span in spans(text):
        for piece in SPACE.split(span.text):
            if not piece or piece.isspace():
                if word:
                    paragraphs[-1].append(word)
                    word = []
                if piece == "\n":
                    paragraphs.append([])
                continue
            last = 0
            for match in ICON.finditer(piece):
                if match.group(1) not in icons:
                    continue
                if match.start() > last:
                    word.append(Token(piece[last:match.start()], style=span.style))
                word.append(Token("", icons[match.group(1)], span.style))
                last = match.end()
            if last < len(piece):
                word.append(Token(piece[last:], style=span.style))
    if word:
        paragraphs[-1].append(word)
    return paragraphs


def word_measure(word: list[Token], kind: Type, size_pt: float, measure: TextWidths) -> tuple[float, float]:
    """A word's width and its largest size (0 for no token), in mm: each token's style looked up once."""
    width = tallest = 0.0
    for t in word:
        font, size = kind.at(t.style, size_pt)
        width += icon_width(t.icon, size) if t.icon else measure(t.text, font, size)
        tallest = max(tallest, size)
    return width, tallest


def icon_width(art: Any, size: float) -> float:
    width, height = art.natural
    return size * width / height + 2 * ICON_GAP * size


@dataclass(frozen=True)
class Line:
    """One line's words, width and height (its largest size) in mm, measured once for both fitting
    and drawing."""

    words: list[list[Token]]
    width: float
    height: float


def lines_at(paragraphs: list[list[list[Token]]], kind: Type, size_pt: float, width: float,
             wrap: bool, measure: TextWidths) -> list[Line]:
    """Lines of words at a size: each paragraph (a line break in the text) starts a new line."""
    font, size = kind.at(PLAIN, size_pt)
    space = measure(" ", font, size)
    lines: list[Line] = []

    def finished(line: list[list[Token]], widths: list[float], heights: list[float]) -> Line:
        return Line(line, sum(widths) + space * max(0, len(line) - 1), max(heights, default=0.0) or size)

    for words in paragraphs:
        line: list[list[Token]] = []
        widths: list[float] = []
        heights: list[float] = []
        used = 0.0
        for word in words:
            w, h = word_measure(word, kind, size_pt, measure)
            if wrap and line and used + space + w > width:
                lines.append(finished(line, widths, heights))
                line, widths, heights, used = [], [], [], 0.0
            used += (space if line else 0) + w
            line.append(word)
            widths.append(w)
            heights.append(h)
        lines.append(finished(line, widths, heights))
    return lines


def baselines(lines: list[Line], size: float, line_height: float) -> tuple[list[float], float]:
    """Each line's baseline below the top of the text, and the text's height, in mm. Lines of one
    size keep the arithmetic they always had, so unstyled text prints byte for byte as before."""
    if all(line.height == size for line in lines):
        leading = size * line_height
        return [n * leading + size * ASCENT for n in range(len(lines))], size * (line_height * (len(lines) - 1) + 1)
    found, at = [], 0.0
    for n, line in enumerate(lines):
        at = line.height * ASCENT if n == 0 else at + line.height * line_height
        found.append(at)
    return found, (found[-1] + lines[-1].height * (1 - ASCENT)) if lines else 0.0


def fit(text: str, icons: Mapping[str, Any], kind: Type, least_pt: float, box: Box,
        wrap: bool, line_height: float, measure: TextWidths) -> tuple[float, list[Line]] | None:
    """The largest size down to `least_pt`, in steps of STEP, at which the text fits, with its lines;
    else None. Styled sizes shrink with the rest, never under MIN_PT; MarkupError for markup that
    cannot be read. Text that fits at one size fits at every smaller one (widths and heights scale
    with the size, and greedy wrapping into a relatively wider box never adds lines), so the sizes
    are searched by halving: some 8 tries for long text rather than 130."""
    paragraphs = tokens(text, icons)
    smallest = min((t.style.size for p in paragraphs for w in p for t in w if t.style.size), default=kind.size)
    sizes: list[float] = []
    size = kind.size
    while size >= least_pt - 1e-9 and smallest * size / kind.size >= fonts.MIN_PT - 1e-9:
        sizes.append(size)
        size = round(size - STEP, 2)

    def fitted(size: float) -> list[Line] | None:
        lines = lines_at(paragraphs, kind, size, box.width, wrap, measure)
        tall = baselines(lines, font_mm(size), line_height)[1]
        if max((line.width for line in lines), default=0.0) <= box.width + 1e-6 and tall <= box.height + 1e-6:
            return lines
        return None

    if not sizes:
        return None
    found = fitted(sizes[0])
    if found is not None:
        return sizes[0], found
    found = fitted(sizes[-1])
    if found is None:
        return None
    low, high = 0, len(sizes) - 1  # sizes[low] does not fit, sizes[high] does
    while high - low > 1:
        middle = (low + high) // 2
        lines = fitted(sizes[middle])
        if lines is None:
            low = middle
        else:
            high, found = middle, lines
    return sizes[high], found


def draw(lines: list[Line], kind: Type, size_pt: float, box: Box, align: str, valign: str,
         line_height: float, measure: TextWidths) -> Group:
    """The lines as strings and icons, in card coordinates (y down); each glyph is turned upright.
    Neighbouring words of one style are one string."""
    font, size = kind.at(PLAIN, size_pt)
    space = measure(" ", font, size)
    offsets, tall = baselines(lines, size, line_height)
    top = box.y + {"top": 0.0, "middle": (box.height - tall) / 2, "bottom": box.height - tall}[valign]
    group = Group()
    for line, offset in zip(lines, offsets):
        width = line.width
        x = box.x + {"left": 0.0, "center": (box.width - width) / 2, "right": box.width - width}[align]
        baseline = top + offset
        run, run_x, run_style = "", x, PLAIN

        def flush() -> None:
            if run.strip():
                run_font, run_size = kind.at(run_style, size_pt)
                colour = kind.colour if not run_style.colour else \
                    Color(*HexColor(run_style.colour).rgb(), kind.colour.alpha)  # the element's opacity kept
                group.add(upright(String(0, 0, run, fontName=run_font, fontSize=run_size, fillColor=colour),
                                  run_x, baseline))

        for i, word in enumerate(line.words):
            if i:
                run += " "
                x += space
            for token in word:
                token_font, token_size = kind.at(token.style, size_pt)
                if token.icon is None:
                    if token.style != run_style:
                        flush()
                        run, run_x, run_style = "", x, token.style
                    run += token.text
                    x += measure(token.text, token_font, token_size)
                    continue
                flush()
                w = icon_width(token.icon, token_size)
                group.add(upright(token.icon.shape(0, 0, w - 2 * ICON_GAP * token_size, token_size),
                                  x + ICON_GAP * token_size, baseline + token_size * (1 - ASCENT)))
                x += w
                run, run_x = "", x
        flush()
    return group


def upright(shape: Any, x: float, y: float) -> Group:
    """A shape drawn y-up, placed at (x, y) of a y-down card."""
    return placed(shape, (1, 0, 0, -1, x, y))
