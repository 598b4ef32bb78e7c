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
    for element in tree.iterdescendants():  # comments too: no tag of theirs is entangling, no attribute
        if local(element.tag) in ENTANGLING:
            return True
        for name, value in element.attrib.items():
            if "href" in str(name) or name in ("class", "clip-path") or REFERENCE.search(str(value)):
                return True
    return False


class BatchConverter:
    """svglib for one template's SVGs, each part remembered across them with what svglib logged, so
    a remembered part brings the same notes as one converted now."""

    def __init__(self, path: Path, root_folder: Path | None, font_map: Any) -> None:
        self.path, self.root_folder, self.font_map = path, root_folder, font_map
        self.parts: dict[bytes, tuple[Any, tuple[str, ...]]] = {}  # a part's SVG -> its drawing, svglib's notes

    def convert(self, data: bytes, tree: Any) -> tuple[Any, tuple[str, ...]]:
        """svglib's drawing of `data` (parsed: `tree`) and what svglib logged, as art.svg.convert."""
        from reportlab.graphics.shapes import Drawing, Group

        if entangled(tree):
            return convert(self.path, data, self.root_folder, self.font_map, tree)
        from lxml import etree

        root = etree.tostring(etree.Element(tree.tag, dict(tree.attrib), nsmap=tree.nsmap))
        (frame, notes), *parts = [self.part(data, tree, root, child) for child in (None, *tree)
                                  if child is None or isinstance(child.tag, str)]
        main = Group(transform=frame.contents[0].transform)  # the root's: its size, viewBox and y flip
        for drawn, logged in parts:
            main.contents.extend(drawn.contents[0].contents)
            notes += logged
        drawing = Drawing(frame.width, frame.height)
        drawing.add(main)
        return drawing, notes

    def part(self, data: bytes, tree: Any, root: bytes, child: Any) -> tuple[Any, tuple[str, ...]]:
        """svglib's drawing of the root (`root`: its bare element, as text) holding `child` alone
        (None: nothing), converted once; the copy svglib reads is made only then."""
        from lxml import etree

        key = root + (etree.tostring(child, with_tail=False) if child is not None else b"")
        if key not in self.parts:
            alone = etree.Element(tree.tag, dict(tree.attrib), nsmap=tree.nsmap)
            if child is not None:
                alone.append(copy.deepcopy(child))
                alone[0].tail = None
            self.parts[key] = convert(self.path, data, self.root_folder, self.font_map, alone)
        return self.parts[key]
