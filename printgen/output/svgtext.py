"""svgwrite's elements written out as text, the same characters svgwrite's own `tostring()` gives,
and the text of shapes drawn again kept for reuse.

svgwrite writes an element by building an ElementTree copy of it and serialising that: attributes
sorted by name, those that are None or empty left out, `<name />` for an element with neither text
nor children. That takes as long as building the element, and its result cannot hold text written
before. `serialise` writes the same characters straight from the element, and can put text
already written (a child drawn before) inside any element. Classes it does not know are left to
svgwrite's own `tostring()`, so nothing svgwrite can write comes out differently.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Sequence

from printgen.output.svgwrite_unchecked import svgwrite_module

SEEN = 4096  # shapes remembered as written once (held meanwhile, so an id names one shape)
KEPT = 2048  # shapes whose text is kept

Attributes = Callable[[Any], dict[str, Any]]


def escape_text(text: str) -> str:
    """Character data as ElementTree escapes it."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


ATTRIBUTE_ONLY = (('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def escape_attribute(text: str) -> str:
    """An attribute value as ElementTree escapes it: as character data, and quotes and line breaks
    and tabs too (so that a reader gets them back rather than spaces)."""
    text = escape_text(text)
    for character, entity in ATTRIBUTE_ONLY:
        if character in text:
            text = text.replace(character, entity)
    return text


@lru_cache(maxsize=None)
def known() -> dict[type, tuple[Attributes, bool]]:
    """svgwrite's classes written here, each with its attributes as its get_xml completes them, and
    whether its element holds text."""
    svgwrite = svgwrite_module()
    from svgwrite.utils import strlist

    def own(element: Any) -> dict[str, Any]:
        return element.attribs

    def document(element: Any) -> dict[str, Any]:
        return dict(element.attribs, xmlns="http://www.w3.org/2000/svg", baseProfile=element.profile,
                    version=element.version, **{"xmlns:xlink": "http://www.w3.org/1999/xlink",
                                                "xmlns:ev": "http://www.w3.org/2001/xml-events"})

    def points(element: Any) -> dict[str, Any]:
        return dict(element.attribs, points=element.points_to_string(element.points))

    def path(element: Any) -> dict[str, Any]:
        return dict(element.attribs, d=str(strlist(element.commands, " ")))

    def link(element: Any) -> dict[str, Any]:
        if not hasattr(element, "href"):
            return element.attribs
        href = element.href if isinstance(element.href, str) else element.href.get_iri()
        return dict(element.attribs, **{"xlink:href": href})

    plain = {svgwrite.drawing.Drawing: document, svgwrite.container.Group: own, svgwrite.container.Defs: own,
             svgwrite.shapes.Line: own, svgwrite.shapes.Rect: own, svgwrite.shapes.Circle: own,
             svgwrite.shapes.Ellipse: own, svgwrite.shapes.Polyline: points, svgwrite.shapes.Polygon: points,
             svgwrite.path.Path: path, svgwrite.image.Image: own, svgwrite.container.Use: link,
             svgwrite.base.Title: own}
    return {**{kind: (attributes, False) for kind, attributes in plain.items()}, svgwrite.text.Text: (own, True)}


def serialise(element: Any, written: Sequence[str] = (), into: Any = None) -> str:
    """`element` as svgwrite's tostring() writes it, with the text `written` put after the
    children of `into` (the element itself unless given), as if it were more children."""
    parts: list[str] = []
    write(element, parts, written, element if into is None else into)
    return "".join(parts)


def write(element: Any, parts: list[str], written: Sequence[str], into: Any) -> None:
    kind = known().get(type(element))
    if kind is None:  # a class not known here: svgwrite writes it itself
        parts.append(element.tostring())
        return
    attributes, holds_text = kind
    name = element.elementname
    if not hasattr(element, "attribs"):  # a <title>: an ElementTree element already
        text = element.xml.text
        parts.append(f"<{name}>{escape_text(text)}</{name}>" if text else f"<{name} />")
        return
    parts.append("<" + name)
    for key, value in sorted(attributes(element).items()):
        if value is not None:
            value = element.value_to_string(value)
            if value:
                parts.append(f' {key}="{escape_attribute(value)}"')
    text = str(element.text) if holds_text else ""
    children = element.elements
    more = written if element is into else ()
    if not (text or children or more):
        parts.append(" />")
        return
    parts.append(">")
    if text:
        parts.append(escape_text(text))
    for child in children:
        write(child, parts, written, into)
    parts.extend(more)
    parts.append(f"</{name}>")


class Fragments:
    """The text of shapes written more than once (a deck's box, cost and back on every card), by
    the shape itself: a shape is never changed once it is drawn, so drawn again it writes the same
    text. Kept from its second writing on; an id names one shape while the shape is held here."""

    def __init__(self) -> None:
        self.once: dict[int, Any] = {}
        self.texts: dict[int, tuple[Any, str]] = {}

    def kept(self, shape: Any) -> str | None:
        found = self.texts.get(id(shape))
        return found[1] if found is not None and found[0] is shape else None

    def seen(self, shape: Any, text: str) -> None:
        """`shape` was written as `text`, which stands for it in any document."""
        key = id(shape)
        if self.once.get(key) is shape:
            if len(self.texts) >= KEPT:
                self.texts.clear()
            self.texts[key] = (shape, text)
            return
        if len(self.once) >= SEEN:
            self.once.clear()
        self.once[key] = shape
