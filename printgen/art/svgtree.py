"""An SVG file's element tree, parsed safely: no entities, no network, libxml2's size limits."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from printgen.art.loaded import first_line
from printgen.core.problems import display_name

SVG_NS = "http://www.w3.org/2000/svg"


def local(tag: Any) -> str:
    return tag.split("}", 1)[-1] if isinstance(tag, str) else ""


def parse(path: Path, data: bytes) -> Any:
    """The SVG's element tree (lxml, with line numbers); ValueError for broken or non-SVG files."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.parse(io.BytesIO(data), parser).getroot()
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"{display_name(path)} is not a readable SVG file (line {exc.lineno}: "
                         f"{first_line(exc.msg or exc)})")
    if root is None or root.tag != f"{{{SVG_NS}}}svg":
        got = local(root.tag) if root is not None else "nothing"
        raise ValueError(f"{display_name(path)} is XML but not SVG: expected an <svg> root element in the SVG "
                         f"namespace (got <{got}>)")
    return root
