"""Embedded fonts: Bitstream Vera, shipped inside reportlab, subset into every PDF, so nothing is
downloaded and output is byte-identical everywhere (Helvetica is never embedded).

Each embedded subset carries its names once: reportlab copies Vera's `name` table, every record
twice (Macintosh and Windows), into every subset. The Macintosh copy, matching the subset's
character map, is kept; no reader draws from this table, so what prints is unchanged.
"""
from __future__ import annotations

import struct

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from printgen.core.fontfiles import BOLD, BOLD_ITALIC, FACE_FILES, ITALIC, REGULAR, font_dir

__all__ = ["BOLD", "BOLD_ITALIC", "ITALIC", "MIN_PT", "REGULAR", "descent", "register", "svg_family",
           "text_width"]

SVG_FAMILY = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"


def register() -> None:
    """Register the embedded faces with reportlab, once a process (its registry remembers them; a
    lookup there, as every measured text asks, is as quick as a cache)."""
    try:
        pdfmetrics.getFont(REGULAR)
        return
    except KeyError:
        pass
    for name, filename in FACE_FILES.items():
        # no ASCII forced into every first subset: printgen's PDFs always have a /ToUnicode map
        font = TTFont(name, str(font_dir() / filename), asciiReadable=False)
        font.face.__class__ = OneCopyOfNames  # TTFont offers no way to choose it; the data is unchanged
        pdfmetrics.registerFont(font)
    for bold, italic, name in ((0, 0, REGULAR), (1, 0, BOLD), (0, 1, ITALIC), (1, 1, BOLD_ITALIC)):
        addMapping(REGULAR, bold, italic, name)


USER_PREFIX = "PG-User-"  # a user's font registers as this and a digest of its file (art.library)


def user_family(font: str) -> str | None:
    """The family name an SVG asks for a user's font by, None for any other font: read from
    reportlab's own registry (process-wide, where art.library registers the font), made safe as CSS."""
    if not font.startswith(USER_PREFIX) or font not in pdfmetrics.getRegisteredFontNames():
        return None
    return css_family(getattr(pdfmetrics.getFont(font).face, "familyName", b"")) or "user font"


def css_family(family: bytes | str | None) -> str:
    """A font's family name as it may stand in SVG's CSS: control characters would break the XML,
    quotes the CSS."""
    text = (family or b"").decode("latin-1") if isinstance(family, (bytes, type(None))) else str(family)
    return "".join(c for c in text if c.isprintable() and c not in "'\"\\;<>&")


def svg_family(font: str) -> str:
    family = user_family(font)
    return SVG_FAMILY if family is None else f"'{family}', {SVG_FAMILY}"


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


MACINTOSH = 1  # platform id
RECORD = struct.Struct(">6H")  # platform, encoding, language, name id, length, offset
HEADER = struct.Struct(">3H")  # format, count, where the strings start


class OneCopyOfNames(TTFontFace):
    """A face whose subsets get `one_copy_of_names` of its naming table."""

    def get_table(self, tag: str) -> bytes:
        table: bytes = super().get_table(tag)
        return one_copy_of_names(table) if tag == "name" else table


def one_copy_of_names(table: bytes) -> bytes:
    """Only the Macintosh records when they name everything the others do; else the table
    unchanged, so no name is ever lost."""
    try:
        version, count, start = HEADER.unpack_from(table, 0)
        records = [RECORD.unpack_from(table, HEADER.size + RECORD.size * i) for i in range(count)]
    except struct.error:
        return table
    kept = [record for record in records if record[0] == MACINTOSH]
    if version != 0 or not kept or not {r[3] for r in records} <= {r[3] for r in kept}:
        return table
    strings = [table[start + offset:start + offset + length] for *_, length, offset in kept]
    if any(len(text) != record[4] for text, record in zip(strings, kept)):
        return table  # a record points past the end of the table
    out, at = [HEADER.pack(0, len(kept), HEADER.size + RECORD.size * len(kept))], 0
    for (platform, encoding, language, name_id, length, _), text in zip(kept, strings):
        out.append(RECORD.pack(platform, encoding, language, name_id, length, at))
        at += length
    return b"".join(out + strings)
