"""Styled words in a deck's text box: `<b>`, `<i>` and `<font color="#c00000" size="12">`.

A small HTML subset, the one printgen's rulebooks and reportlab's paragraphs already read, so a
designer writes `<b>Draw</b> 2` in a spreadsheet cell as in the definition. It is read here into
spans of plain text and never handed to a markup engine, so no cell can ask for more than these
tags: anything else that looks like a tag prints as it is written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from printgen.drawing.fonts import MIN_PT

TAG = re.compile(r"<(/?)(b|i|font)(\s[^<>]{0,200})?>", re.IGNORECASE)  # bounded: each tag read once, briefly
ATTRIBUTE = re.compile(r"\s*([A-Za-z_-]+)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"']+)\s*")
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
ENTITY = re.compile("|".join(ENTITIES))
MAX_PT = 72.0


class MarkupError(ValueError):
    """Markup in a text that cannot be read; the message says where, by character."""


@dataclass(frozen=True)
class Style:
    """How a span prints; None keeps the element's own colour or size."""

    bold: bool = False
    italic: bool = False
    colour: str | None = None  # '#rrggbb'
    size: float | None = None  # points, before the box shrinks its text


PLAIN = Style()


@dataclass(frozen=True)
class Span:
    text: str
    style: Style = PLAIN


def plain(text: str) -> str:
    """`&lt;`, `&gt;` and `&amp;` as the characters they stand for, so a tag can be written literally."""
    return ENTITY.sub(lambda m: ENTITIES[m.group(0)], text)


def spans(text: str) -> list[Span]:
    """The text's spans in order; MarkupError for a tag left open, closed out of turn or misused."""
    found: list[Span] = []
    opened: list[tuple[str, int, Style]] = []  # tag name, character it opens at, style before it
    style, last = PLAIN, 0
    for match in TAG.finditer(text):
        if match.start() > last:
            found.append(Span(plain(text[last:match.start()]), style))
        last = match.end()
        closing, name, attributes = match.group(1) == "/", match.group(2).lower(), match.group(3) or ""
        at = match.start() + 1
        if closing:
            if attributes.strip():
                raise MarkupError(f"the </{name}> at character {at} takes nothing after its name")
            if not opened:
                raise MarkupError(f"the </{name}> at character {at} closes nothing; "
                                  f"write a plain < as &lt;")
            if opened[-1][0] != name:
                inner, inner_at, _ = opened[-1]
                raise MarkupError(f"the </{name}> at character {at} comes before the <{inner}> opened at "
                                  f"character {inner_at} is closed; close tags in the reverse order")
            style = opened.pop()[2]
            continue
        opened.append((name, at, style))
        style = styled(style, name, attributes, at)
    if last < len(text):
        found.append(Span(plain(text[last:]), style))
    if opened:
        name, at, _ = opened[-1]
        raise MarkupError(f"the <{name}> opened at character {at} is never closed")
    return [span for span in found if span.text]


def styled(style: Style, name: str, attributes: str, at: int) -> Style:
    """`style` with one opening tag's change."""
    if name in ("b", "i"):
        if attributes.strip():
            raise MarkupError(f"the <{name}> at character {at} takes nothing after its name")
        return replace(style, bold=True) if name == "b" else replace(style, italic=True)
    given = ATTRIBUTE.findall(attributes)
    if not given or ATTRIBUTE.sub("", attributes).strip():
        raise MarkupError(f"the <font> at character {at}: expected color=\"#rrggbb\" and/or size=\"points\", "
                          f"such as <font color=\"#c00000\" size=\"12\">")
    for key, quoted in given:
        value, key = quoted.strip("\"'"), key.lower()
        if key in ("color", "colour"):
            if not COLOUR.match(value):
                raise MarkupError(f"the <font> at character {at}: expected a colour as #rrggbb (got {value!r})")
            style = replace(style, colour=value)
        elif key == "size":
            try:
                size = float(value)
            except ValueError:
                size = -1.0
            if not MIN_PT <= size <= MAX_PT:
                raise MarkupError(f"the <font> at character {at}: expected a size from {MIN_PT:g} to "
                                  f"{MAX_PT:g} points, as no glyph prints under {MIN_PT:g} (got {value!r})")
            style = replace(style, size=size)
        else:
            raise MarkupError(f"the <font> at character {at} takes color and size, not {key}")
    return style
