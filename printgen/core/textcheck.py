"""Refuse text that the printed page cannot show, before anything is drawn.

The embedded Bitstream Vera has about 280 glyphs; any other character would print as an empty box
(a control character also breaks SVG), which no user can fix on paper, so each is reported at its key.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any, Iterator

from printgen.core.fontfiles import FACE_FILES, font_dir, printable
from printgen.core.problems import Problem
from printgen.core.source import Loc, SourceMap

FONT_NAME = "Bitstream Vera Sans"
WHITESPACE_OK = {"\n", "\t"}  # printed as a space: paragraphs and single-line text both fold them


@lru_cache(maxsize=1)
def drawable() -> frozenset[int]:
    """Code points every face of the embedded font draws (the four Vera files share one map)."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    common = frozenset.intersection(*(printable(TTFontFile(str(font_dir() / name))) for name in FACE_FILES.values()))
    return frozenset(c for c in common if c >= 0x20 and unicodedata.category(chr(c)) not in ("Cn", "Co"))


@lru_cache(maxsize=64)
def drawable_in(font: str) -> frozenset[int]:
    """Code points the registered font `font` draws with a real glyph (fontfiles.printable), read
    once per font: a deck asks it of every text of every row."""
    from reportlab.pdfbase import pdfmetrics

    return printable(pdfmetrics.getFont(font).face)


def describe(char: str) -> str:
    """'U+05D0 HEBREW LETTER ALEF' (or the category for characters without a name)."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def problem_with(text: str, font_known: bool = True) -> str | None:
    """Why `text` cannot be printed, or None. With `font_known` False (a deck's CSV cell, whose font
    is only known where an element prints it, and checked there) only invisible characters count."""
    if text and not text.strip():
        return "only spaces, so nothing would print; write some text"
    glyphs = drawable()
    for index, char in enumerate(text):
        invisible = unicodedata.category(char) in ("Cc", "Cf", "Cs")
        if char in WHITESPACE_OK or ord(char) in glyphs or not (invisible or font_known):
            continue
        where = f"character {index + 1}"
        if invisible:
            return (f"{where} is {describe(char)}: an invisible control character that would "
                    f"print as a box or break the SVG file; remove it")
        return (f"{where} ({char!r}, {describe(char)}) is not in the embedded font ({FONT_NAME}), so "
                f"it would print as an empty box; use Latin letters, or spell it another way")
    for index, char in enumerate(text if font_known else ""):  # titles and logos are printed in capitals
        capital = char.upper()
        if char not in WHITESPACE_OK and any(ord(c) not in glyphs for c in capital):
            return (f"character {index + 1} ({char!r}, {describe(char)}) becomes {capital!r} where "
                    f"printgen prints in capitals (titles, logos), and the embedded font ({FONT_NAME}) "
                    f"has no such capital; spell it another way")
    return None


def missing_in_font(text: str, font: str) -> str | None:
    """Why the registered font `font` cannot draw `text` (a user's own font, say), or None."""
    glyphs = drawable_in(font)
    for index, char in enumerate(text):
        if char not in WHITESPACE_OK and char != " " and ord(char) not in glyphs:
            return f"character {index + 1} ({char!r}, {describe(char)}) is not in that font"
    return None


def strings(node: Any, loc: tuple[str | int, ...] = ()) -> Iterator[tuple[Loc, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from strings(value, loc + (key if isinstance(key, (str, int)) else str(key),))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from strings(value, loc + (index,))
    elif isinstance(node, str):
        yield loc, node


def unprintable(data: Any, source: SourceMap) -> list[Problem]:
    problems = []
    seen: dict[int, str | None] = {}  # an alias repeats one string object; check it once
    for loc, text in strings(data):
        if id(text) not in seen:
            seen[id(text)] = problem_with(text)
        reason = seen[id(text)]
        if reason is not None:
            problems.append(source.problem(loc, reason))
    return problems

