"""Many SVGs from one template, converted by svglib with each distinct element converted once.

A piece template's SVGs share most elements, and svglib is slow per element, so where elements
cannot affect one another each top-level one is converted alone under a copy of the root and
remembered by its text. An SVG with styles, <defs>, <use>, `url(#...)` and the like goes whole.
"""
from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from printgen.art.svg import convert
from printgen.art.svgtree import local

# elements through which one part of an SVG can change how another is drawn
ENTANGLING = {"style", "defs", "use", "symbol", "clipPath", "mask", "marker", "pattern", "switch",
              "linearGradient", "radialGradient", "filter", "svg", "a", "image"}
REFERENCE = re.compile(r"url\(", re.IGNORECASE)  # a paint, clip or mask naming another element


def entangled(tree: Any) -> bool:
    """True when an element of the SVG may draw differently on its own than beside the others."""
    if any("space" in str(attribute) for attribute in tree.attrib):  # xml:space
        return True
    for element in tree.iterdescendants():
        if not isinstance(element.tag, str):
            continue
        if local(element.tag) in ENTANGLING:
            return True
        for name, value in element.attrib.items():
            if "href" in str(name) or name in ("class", "clip-path") or REFERENCE.search(str(value)):
                return True
    return False


class BatchConverter:
    """svglib for one template's SVGs, elements remembered across them with what svglib logged, so
    a cached drawing brings the same warnings (`notes`) as one converted now."""

    def __init__(self, path: Path, root_folder: Path | None, font_map: Any) -> None:
        self.path, self.root_folder, self.font_map = path, root_folder, font_map
        self.frames: dict[bytes, tuple[Any, tuple[str, ...]]] = {}  # root's attributes -> empty drawing
        self.shapes: dict[tuple[bytes, bytes], tuple[list[Any], tuple[str, ...]]] = {}  # -> its shapes
        self.notes: list[str] = []  # what svglib logged for the last SVG converted

    def convert(self, data: bytes, tree: Any) -> Any:
        from reportlab.graphics.shapes import Drawing, Group

        if entangled(tree):
            drawing, notes = self.whole(data, tree)
            self.notes = list(dict.fromkeys(notes))
            return drawing
        root = self.bare(tree)
        key = element_key(root)
        if key not in self.frames:
            self.frames[key] = self.whole(data, root)
        frame, notes = self.frames[key]
        found = list(notes)
        main = Group(transform=frame.contents[0].transform)
        for child in tree:
            if not isinstance(child.tag, str):
                continue
            text = element_key(child)
            if (key, text) not in self.shapes:
                alone = self.bare(tree)
                alone.append(copy.deepcopy(child))
                drawn, logged = self.whole(data, alone)
                self.shapes[(key, text)] = (list(drawn.contents[0].contents), logged)
            shapes, logged = self.shapes[(key, text)]
            main.contents.extend(shapes)
            found += logged
        self.notes = list(dict.fromkeys(found))
        drawing = Drawing(frame.width, frame.height)
        drawing.add(main)
        return drawing

    def whole(self, data: bytes, tree: Any) -> tuple[Any, tuple[str, ...]]:
        return convert(self.path, data, self.root_folder, self.font_map, tree)

    @staticmethod
    def bare(tree: Any) -> Any:
        from lxml import etree

        return etree.Element(tree.tag, dict(tree.attrib), nsmap=tree.nsmap)


def element_key(element: Any) -> bytes:
    """The element's own text (its tail left out), which tells its drawing apart."""
    from lxml import etree

    return bytes(etree.tostring(element, with_tail=False))
