"""What a template's text may ask reportlab to do: bold, italics and a few more, nothing else.

reportlab's markup can open files or URLs (`<img>`) and call canvas methods (`<onDraw>`); YAML values
are escaped already, so this checks the template's own text and makes bad markup a located error.
"""
from __future__ import annotations

import re
from typing import Any

TAGS = {"b": (), "strong": (), "i": (), "em": (), "u": (), "strike": (), "super": (), "sup": (),
        "sub": (), "br": (), "font": ("color", "size"), "span": ("color", "size")}
TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w:.-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
ATTRIBUTE = re.compile(r"([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)")
COLOUR = re.compile(r"^(#[0-9A-Fa-f]{6}|[A-Za-z]{3,20})$")
SIZE = re.compile(r"^\d{1,2}(\.\d+)?$")


def escape(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def tag_problem(markup: str) -> tuple[str, str] | None:
    """(the offending tag, why) for the first tag printgen's text does not allow, else None."""
    allowed = ", ".join(f"<{name}>" for name in TAGS)
    for match in TAG.finditer(markup):
        name = match.group(2).lower()
        if name not in TAGS:
            return match.group(0), (f"the tag <{name}> is not allowed in printgen's text; use {allowed}, "
                                    f"and write a plain < as &lt;")
        for attribute, value in ATTRIBUTE.findall(match.group(3)):
            attribute, value = attribute.lower(), value.strip("\"'")
            if attribute not in TAGS[name]:
                return match.group(0), (f"<{name} {attribute}=...> is not allowed; <{name}> takes "
                                        f"{' and '.join(TAGS[name]) or 'no attributes'}")
            if attribute == "color" and not COLOUR.match(value):
                return match.group(0), f"color={value!r} is not a colour; write it as #rrggbb"
            if attribute == "size" and not (SIZE.match(value) and 4 <= float(value) <= 72):
                return match.group(0), f"size={value!r}: expected a point size from 4 to 72"
    return None


class AnyTable(dict[str, Any]):
    """Every `@table NAME` exists here: the game checks the names; this only checks the markup."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: Any) -> Any:
        from reportlab.platypus import Spacer

        return lambda width: Spacer(1, 1)


def markup_problem(markup: str) -> tuple[str, str] | None:
    """(where, why) for the first thing in `markup` that reportlab would refuse or misuse, else None."""
    found = tag_problem(markup)
    if found:
        return found
    from printgen.drawing.story import build_story, styles

    try:
        build_story(markup, AnyTable(), styles())
    except ValueError as exc:  # reportlab's paragraph parser: unclosed tags and the like
        message = str(exc).split("caused exception", 1)[-1].strip()
        reason = next((line for line in message.splitlines() if line.strip()), type(exc).__name__)
        snippet = re.search(r"<para>(.*?)</para>", str(exc), re.S)
        return (snippet.group(1)[:60] if snippet else ""), f"the text's markup cannot be read ({reason[:120]})"
    return None


def line_of(source: str, snippet: str) -> int:
    """The 1-based line of the template source where `snippet` (or its first tag) appears, else 1."""
    for probe in (snippet, (TAG.search(snippet) or re.search("", snippet)).group(0)):  # type: ignore[union-attr]
        if probe:
            index = source.find(probe)
            if index >= 0:
                return source.count("\n", 0, index) + 1
    return 1
