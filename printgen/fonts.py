"""Embedded fonts. reportlab's default Helvetica is never embedded, so every text uses a TrueType
font that is subset into the PDF. Bitstream Vera ships inside reportlab itself, so there is nothing
to download and the same bytes are used on every machine (which keeps output byte-identical).
"""
from __future__ import annotations

from pathlib import Path

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "PG-Sans"
BOLD = "PG-Sans-Bold"
ITALIC = "PG-Sans-Italic"
BOLD_ITALIC = "PG-Sans-BoldItalic"
SVG_FAMILY = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"

_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}
_registered = False


def font_dir() -> Path:
    return Path(reportlab.__file__).parent / "fonts"


def register() -> None:
    """Register the font family once per process (idempotent)."""
    global _registered
    if _registered:
        return
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_dir() / filename)))
    for bold, italic, name in ((0, 0, REGULAR), (1, 0, BOLD), (0, 1, ITALIC), (1, 1, BOLD_ITALIC)):
        addMapping(REGULAR, bold, italic, name)
    _registered = True


def text_width(text: str, font: str, size: float) -> float:
    """Width of `text` in the same unit as `size` (mm in, mm out)."""
    register()
    return pdfmetrics.stringWidth(text, font, size)


def is_bold(font: str) -> bool:
    return font in (BOLD, BOLD_ITALIC)


def is_italic(font: str) -> bool:
    return font in (ITALIC, BOLD_ITALIC)
