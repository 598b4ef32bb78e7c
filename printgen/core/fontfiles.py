"""Which file holds each face of the embedded font (Vera, inside reportlab); in core because
`textcheck` needs the character map long before anything is drawn."""
from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

REGULAR = "PG-Sans"
BOLD = "PG-Sans-Bold"
ITALIC = "PG-Sans-Italic"
BOLD_ITALIC = "PG-Sans-BoldItalic"
FACE_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}


def font_dir() -> Path:
    import reportlab

    return Path(reportlab.__file__).parent / "fonts"


def printable(face: Any) -> frozenset[int]:
    """Code points a TrueType face (reportlab's TTFontFile, as read) draws with a glyph of its own.

    A character map may list a character and still send it to glyph 0 (.notdef, the empty box),
    to a copy of that box, to an empty glyph (nothing prints, which is right only for spaces), or
    to a glyph outside the glyph table (a damaged file); none of those prints the character."""
    glyphs, places = face.get_table("glyf"), face.glyphPos
    notdef = glyphs[places[0]:places[1]] if len(places) > 1 else b""
    found = set()
    for code, glyph in face.charToGlyph.items():
        if not 0 < glyph < len(places) - 1:
            continue
        start, end = places[glyph], places[glyph + 1]
        if not 0 <= start <= end <= len(glyphs):
            continue
        outline = glyphs[start:end]
        if (notdef and outline == notdef) or (not outline and unicodedata.category(chr(code)) != "Zs"):
            continue
        found.add(code)
    return frozenset(found)
