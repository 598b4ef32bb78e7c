"""Each embedded font subset carries its names (copyright, family, licence) once, not twice.

reportlab copies a font's `name` table whole into every subset it embeds. Vera's holds each record
twice, once for Macintosh (one byte a character) and once for Windows (two), and its licence text
is 2.3 KB: the second copy cost some 1.7 KB a face after compression, 5 KB of omiga.pdf's 67 KB.
The subset's character map is a Macintosh one (reportlab writes only that), so the Macintosh
records are the ones kept; the licence and copyright notices stay in the font. No PDF reader draws
a glyph from this table, so what prints is unchanged.
"""
from __future__ import annotations

import struct

from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

MACINTOSH = 1  # platform id
RECORD = struct.Struct(">6H")  # platform, encoding, language, name id, length, offset
HEADER = struct.Struct(">3H")  # format, count, where the strings start


class OneCopyOfNames(TTFontFace):
    """A face whose subsets get `one_copy_of_names` of its naming table."""

    def get_table(self, tag: str) -> bytes:
        table: bytes = super().get_table(tag)
        return one_copy_of_names(table) if tag == "name" else table


def with_one_copy_of_names(font: TTFont) -> TTFont:
    """`font`, whose subsets will carry its names once. reportlab's TTFont makes its face itself,
    with no way to choose the face's class, so the class is changed after it is made; the face's
    data and everything it read from the file stay as they are."""
    font.face.__class__ = OneCopyOfNames
    return font


def one_copy_of_names(table: bytes) -> bytes:
    """The naming table with only its Macintosh records when they name everything the other
    platforms' records do (as Vera's do); any other table (another format, a name only Windows
    has, a table that does not parse) is returned unchanged, so no name is ever lost."""
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
