"""What a deck would misprint without a word: text its font cannot draw, an icon no one defined,
a `when:` no row makes true. Told at the row (or, for `when:`, warned at its line) before the
sheets are trusted, since a box or a stray ':gem:' is only found once the cards are cut."""
from __future__ import annotations

import re
from typing import Any, Mapping

from printgen.core.source import SourceMap, dotted
from printgen.core.textcheck import FONT_NAME, WHITESPACE_OK, describe, drawable_in
from printgen.drawing import fonts
from printgen.games.deck.textbox import ICON
from printgen.games.deck.values import RowValues

ICON_LIKE = re.compile(r":([A-Za-z][A-Za-z0-9_-]{0,39}):")  # ':gem:', not '10:30:45'
STYLES = {fonts.REGULAR: "", fonts.BOLD: " Bold", fonts.ITALIC: " Oblique", fonts.BOLD_ITALIC: " Bold Oblique"}


def unknown_icon(text: str, icons: Mapping[str, Any]) -> str | None:
    """Why an icon the text shows cannot be drawn (it was never given under `icons:`), or None."""
    missing = [m.group(0) for m in ICON_LIKE.finditer(text) if m.group(1) not in icons]
    if not missing:
        return None
    there = (f"the icons are {', '.join(f':{name}:' for name in icons)}" if icons else
             "the deck has no icons")
    return (f"{missing[0]} is not an icon, so it would print as the text {missing[0]!r}; {there} (under "
            f"'icons:'); add it there, or correct the name")


def missing_glyph(text: str, icons: Mapping[str, Any], font: str, font_file: str) -> str | None:
    """Why `font` (registered; `font_file` as the definition names it) cannot draw the text, or None."""
    fonts.register()  # a card may be checked before anything has measured text
    glyphs = drawable_in(font)
    shown = ICON.sub(lambda m: " " if m.group(1) in icons else m.group(0), text)
    char = next((c for c in shown if c not in WHITESPACE_OK and c != " " and ord(c) not in glyphs), None)
    if char is None:
        return None
    name = f"{FONT_NAME}{STYLES[font]}" if font in STYLES else font_file
    return (f"{char!r} ({describe(char)}) is not in the font it is printed in ({name}), so it would print "
            f"as an empty box; spell it another way, or print it in a font that has it")


def never_shown(values: list[RowValues], source: SourceMap) -> list[str]:
    """A warning, at its line, for each `when:` no row makes true: its element is on no card, most
    likely a misspelt value ('Shp' for 'Ship'), though a deck may hold one back on purpose. An
    element a layout inherits counts as shown if any layout drawing it shows it."""
    seen: dict[tuple[Any, ...], tuple[str, str, bool]] = {}  # where written -> (when, type, shown)
    for value in values:
        for side, layout in value.sides.items():
            for i, placed in enumerate(layout.elements):
                element = placed.element
                if element.when is None:
                    continue
                _, _, shown = seen.get(placed.where, ("", "", False))
                seen[placed.where] = (element.when, element.type, shown or value.shown(side, i))
    return [f"{source.file}:{source.line_of((*where, 'when'))}: {dotted((*where, 'when'))}: no row makes {when!r} "
            f"true, so this {kind} is on no card; check the values it compares against the rows'"
            for where, (when, kind, shown) in seen.items() if not shown]
