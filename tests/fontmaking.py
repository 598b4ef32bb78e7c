"""Small TrueType fonts for tests, made from the Bitstream Vera files inside reportlab by changing a
few bytes: another font's name, a damaged glyph. (No font library is installed; the table directory
is read as tests/art_cases.py reads it.)"""
from __future__ import annotations

import struct
from pathlib import Path

import reportlab

from tests.art_cases import font_tables

FONTS = Path(reportlab.__file__).parent / "fonts"


def vera(face: str = "") -> bytes:
    """Vera.ttf, VeraBd.ttf ('Bd'), VeraIt.ttf ('It') or VeraBI.ttf ('BI')."""
    return (FONTS / f"Vera{face}.ttf").read_bytes()


def with_table(data: bytes, tag: bytes, table: bytes) -> bytes:
    """The font with its table `tag` replaced by `table`, appended at the end of the file."""
    out = bytearray(data)
    entry, _, _ = font_tables(data)[tag]
    while len(out) % 4:
        out.append(0)
    struct.pack_into(">LL", out, entry + 8, len(out), len(table))
    return bytes(out + table)


def renamed(data: bytes, family: str, postscript: str, style: str = "Regular") -> bytes:
    """The font calling itself `family` / `postscript` (its Windows naming records only)."""
    names = {1: family, 2: style, 4: f"{family} {style}", 6: postscript}
    strings = [text.encode("utf-16-be") for text in names.values()]
    records, at = b"", 0
    for name_id, text in zip(names, strings):
        records += struct.pack(">6H", 3, 1, 0x409, name_id, len(text), at)
        at += len(text)
    table = struct.pack(">3H", 0, len(names), 6 + 12 * len(names)) + records + b"".join(strings)
    return with_table(data, b"name", table)


def glyph_of(data: bytes, char: str) -> tuple[int, int]:
    """(where its glyph starts in the file, its length) for `char` in the font `data`."""
    import io

    from reportlab.pdfbase.ttfonts import TTFontFile

    face = TTFontFile(io.BytesIO(data))
    glyph = face.charToGlyph[ord(char)]
    _, offset, _ = font_tables(data)[b"glyf"]
    return offset + face.glyphPos[glyph], face.glyphPos[glyph + 1] - face.glyphPos[glyph]


def composite_pointing_nowhere(data: bytes, char: str = "é") -> bytes:
    """The font with `char`'s glyph (a composite, as Vera's accented letters are) built from a
    glyph that does not exist: ASCII still embeds, this character cannot."""
    start, _ = glyph_of(data, char)
    out = bytearray(data)
    assert struct.unpack_from(">h", out, start)[0] < 0, "expected a composite glyph"
    struct.pack_into(">H", out, start + 12, 0xFFFF)  # the first component's glyph index
    return bytes(out)
