"""The backend-neutral picture: reportlab.graphics.shapes, with every coordinate in millimetres.

printgen adds only what cards need: millimetre text sizes, word wrapping, and cut/fold line styles.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from reportlab.graphics.shapes import Group, Line, Rect, String, mmult, rotate, translate
from reportlab.lib.colors import Color, HexColor, black

from printgen.drawing import fonts
from printgen.core.paper import font_mm

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


@dataclass(frozen=True)
class LineStyle:
    """A named stroke; the dash pattern is what tells cut lines from fold lines on paper."""

    name: str
    width: float  # mm
    dash: tuple[float, ...] | None  # mm on/off lengths
    colour: Color = black


CUT = LineStyle("cut", 0.25, (3.0, 1.5))
FOLD = LineStyle("fold", 0.3, (0.5, 1.0))


def guide(x1: float, y1: float, x2: float, y2: float, style: LineStyle) -> Line:
    return Line(x1, y1, x2, y2, strokeColor=style.colour, strokeWidth=style.width,
                strokeDashArray=list(style.dash) if style.dash else None, strokeLineCap=0)


def colour(value: str) -> Color:
    return HexColor(value)


ONE_LINE = {ord("\n"): " ", ord("\t"): " ", ord("\r"): " "}


def hex_of(value: Color) -> str:
    """'#rrggbb', channels rounded as a renderer rounds a PDF colour (reportlab's hexval truncates)."""
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in value.rgb())


def tint(base: Color, amount: float) -> Color:
    """Mix a colour with white, so large areas stay light and cheap to print."""
    return Color(*(c + (1 - c) * amount for c in (base.red, base.green, base.blue)))


def text(x: float, y: float, value: str, size_pt: float, font: str = fonts.REGULAR,
         anchor: str = "start", fill: Color = black) -> String:
    """One line of text at `size_pt` points; line breaks and tabs (no glyphs) become spaces."""
    fonts.register()
    return String(x, y, value.translate(ONE_LINE), fontName=font, fontSize=font_mm(size_pt),
                  textAnchor=anchor, fillColor=fill)


def wrap(value: str, font: str, size_pt: float, width: float) -> list[str]:
    """Greedy word wrap to `width` mm. A word longer than the width stays whole (callers check)."""
    size = font_mm(size_pt)
    lines: list[str] = []
    current = ""
    for word in value.split():
        trial = f"{current} {word}".strip()
        if current and fonts.text_width(trial, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def widest(lines: Iterable[str], font: str, size_pt: float) -> float:
    return max((fonts.text_width(line, font, font_mm(size_pt)) for line in lines), default=0.0)


def rect(x: float, y: float, w: float, h: float, fill: Color | None = None,
         stroke: Color | None = None, stroke_width: float = 0.2, radius: float = 0) -> Rect:
    return Rect(x, y, w, h, rx=radius, ry=radius, fillColor=fill, strokeColor=stroke,
                strokeWidth=stroke_width)


def placed(shape_or_group: Group | object, matrix: Matrix) -> Group:
    return Group(shape_or_group, transform=matrix)


def turned(group: Group, width: float, height: float) -> Group:
    """The same picture rotated 180 degrees inside its own width x height box."""
    return placed(group, mmult(translate(width, height), rotate(180)))


def compose(*matrices: Matrix) -> Matrix:
    """compose(A, B, C) applies C first, then B, then A (like A @ B @ C)."""
    result: Sequence[float] = IDENTITY
    for matrix in matrices:
        result = mmult(result, matrix)
    return tuple(result)  # type: ignore[return-value]
