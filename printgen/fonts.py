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

from .bounded import Budget, MiB
from .problems import display_name

REGULAR = "PG-Sans"
BOLD = "PG-Sans-Bold"
ITALIC = "PG-Sans-Italic"
BOLD_ITALIC = "PG-Sans-BoldItalic"
SVG_FAMILY = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"

_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}
_registered = False
FONT_BUDGET = Budget(4.0, 256 * MiB, "the font")  # reading one user font; SECURITY.md


def font_dir() -> Path:
    return Path(reportlab.__file__).parent / "fonts"


def register() -> None:
    """Register the font family once per process (idempotent)."""
    global _registered
    if _registered:
        return
    for name, filename in _FILES.items():
        # Subsets carry only the glyphs a document uses. reportlab's default also puts all of
        # ASCII in every first subset (some 7 KB a face in omiga.pdf), so that text reads without
        # a /ToUnicode map; printgen's PDFs always have one.
        pdfmetrics.registerFont(TTFont(name, str(font_dir() / filename), asciiReadable=False))
    for bold, italic, name in ((0, 0, REGULAR), (1, 0, BOLD), (0, 1, ITALIC), (1, 1, BOLD_ITALIC)):
        addMapping(REGULAR, bold, italic, name)
    _registered = True


_USER_FAMILIES: dict[str, str] = {}  # registered name of a user's font -> its family name, for SVG


def register_user_font(path: Path, data: bytes) -> str:
    """Register a user's TrueType font under a name taken from its content; ValueError if unusable.

    The name depends only on the bytes, so two builds embed the same font the same way.
    """
    import hashlib

    name = f"PG-User-{hashlib.sha256(data).hexdigest()[:12]}"
    if name not in _USER_FAMILIES:
        from .artmeasure import measure_font
        from .bounded import BudgetExceeded, run_bounded

        measure_font(path, data)  # tables and character maps, before any reader walks them

        def proof() -> None:  # read and subset once where the kernel bounds it
            read_font(path, name, data).face.makeSubset(list(range(32, 127)))

        try:
            run_bounded(proof, FONT_BUDGET)
        except BudgetExceeded as exc:
            raise ValueError(f"{display_name(path)}: {exc}")
        font = read_font(path, name, data)
        pdfmetrics.registerFont(font)
        family = getattr(font.face, "familyName", b"") or b""
        family = family.decode("latin-1") if isinstance(family, bytes) else str(family)
        # the name goes into SVG as CSS: control characters would break the XML, quotes the CSS
        family = "".join(c for c in family if c.isprintable() and c not in "'\"\\;<>&")
        _USER_FAMILIES[name] = family or "".join(c for c in path.stem if c.isalnum()) or "user font"
    return name


def read_font(path: Path, name: str, data: bytes) -> TTFont:
    import io

    try:
        return TTFont(name, io.BytesIO(data), asciiReadable=False)  # subsets as for Vera
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged font fails in many ways; say so, located
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{path.name} is not a TrueType font printgen can embed ({reason})")


def svg_family(font: str) -> str:
    """The CSS font-family an SVG writer should name for a registered font."""
    if font in _USER_FAMILIES:
        return f"'{_USER_FAMILIES[font]}', {SVG_FAMILY}"
    return SVG_FAMILY


def text_width(text: str, font: str, size: float) -> float:
    """Width of `text` in the same unit as `size` (mm in, mm out)."""
    register()
    return pdfmetrics.stringWidth(text, font, size)


def is_bold(font: str) -> bool:
    return font in (BOLD, BOLD_ITALIC)


def is_italic(font: str) -> bool:
    return font in (ITALIC, BOLD_ITALIC)
