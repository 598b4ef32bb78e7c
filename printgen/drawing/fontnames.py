"""Each embedded font subset carries its names once: reportlab copies Vera's `name` table, every
record twice (Macintosh and Windows), into every subset. The Macintosh copy, matching the subset's
character map, is kept; no reader draws from this table, so what prints is unchanged.
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
    """`font`, its face's class swapped (TTFont offers no way to choose it), its data unchanged."""
    font.face.__class__ = OneCopyOfNames
    return font


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
