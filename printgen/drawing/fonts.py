"""Embedded fonts: Bitstream Vera, shipped inside reportlab, subset into every PDF, so nothing is
downloaded and output is byte-identical everywhere (Helvetica is never embedded).
"""
from __future__ import annotations

from functools import cache

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printgen.core.fontfiles import BOLD, BOLD_ITALIC, FACE_FILES, ITALIC, REGULAR, font_dir
from printgen.drawing.fontnames import with_one_copy_of_names

__all__ = ["BOLD", "BOLD_ITALIC", "ITALIC", "MIN_PT", "REGULAR", "descent", "register", "svg_family",
           "text_width"]

SVG_FAMILY = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"


@cache
def register() -> None:
    for name, filename in FACE_FILES.items():
        # no ASCII forced into every first subset: printgen's PDFs always have a /ToUnicode map
        font = TTFont(name, str(font_dir() / filename), asciiReadable=False)
        pdfmetrics.registerFont(with_one_copy_of_names(font))
    for bold, italic, name in ((0, 0, REGULAR), (1, 0, BOLD), (0, 1, ITALIC), (1, 1, BOLD_ITALIC)):
        addMapping(REGULAR, bold, italic, name)


USER_FAMILIES: dict[str, str] = {}  # a user font's registered name -> family (art.userfont fills it)


def svg_family(font: str) -> str:
    if font in USER_FAMILIES:
        return f"'{USER_FAMILIES[font]}', {SVG_FAMILY}"
    return SVG_FAMILY


def text_width(text: str, font: str, size: float) -> float:
    """Width of `text` in the same unit as `size` (mm in, mm out)."""
    register()
    return pdfmetrics.stringWidth(text, font, size)


def descent(font: str, size: float) -> float:
    """How far the lowest glyph reaches below the baseline, in the unit of `size`."""
    register()
    return -pdfmetrics.getDescent(font, size)


def ascent(font: str, size: float) -> float:
    register()
    return pdfmetrics.getAscent(font, size)


MIN_PT = 7.0  # no glyph printgen prints is smaller: below it, home inkjets blur and readers squint


def is_bold(font: str) -> bool:
    return font in (BOLD, BOLD_ITALIC)


def is_italic(font: str) -> bool:
    return font in (ITALIC, BOLD_ITALIC)
