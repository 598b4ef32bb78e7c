"""`<image>` in an SVG placed as a browser places it: in its box, at the aspect ratio its
`preserveAspectRatio` asks (xMidYMid meet when unset), whatever the picture is.

svglib stretches a bitmap to the box, and draws an SVG picture at the picture's own size from the
box's corner, ignoring the box. So before svglib runs, each `<image>` of a file or a data URI is
given the rectangle the picture really covers (a bitmap keeps its element, resized; an SVG picture
becomes an empty `<g>` filled afterwards with the picture converted on its own); `slice` adds a clip
to the box. An `<image>` whose picture or lengths cannot be read is left to svglib as before.
"""
from __future__ import annotations

import base64
import copy
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from printgen.art.svgtree import SVG_NS, local

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
PLACEHOLDER = "printgen-image-"  # ids of the groups an SVG picture is put into
PX_PER = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}
LENGTH = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")
PX_PER_POINT = 96 / 72  # an SVG picture's drawing is in points; its natural size in px
ALIGNS = {"min": 0.0, "mid": 0.5, "max": 1.0}


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float


def length(text: str | None, default: float | None = None) -> float | None:
    """An SVG length in user units (px); `default` when unset, None when it cannot be read here."""
    if text is None or not text.strip():
        return default
    match = LENGTH.match(text)
    return float(match.group(1)) * PX_PER[match.group(2) or ""] if match else None


def fitted(box: Box, natural: tuple[float, float], aspect: str | None) -> tuple[Box, bool]:
    """Where a picture of `natural` size lands in `box` under `preserveAspectRatio` `aspect`, and
    whether it overflows the box (slice), so it needs clipping to it."""
    words = (aspect or "").split()
    if words and words[0] == "defer":  # only for pictures of an SVG's own; ignored as browsers do
        words = words[1:]
    align = words[0] if words else "xMidYMid"
    if align == "none":
        return box, False
    slice_ = len(words) > 1 and words[1] == "slice"
    match = re.fullmatch(r"x(Min|Mid|Max)Y(Min|Mid|Max)", align)
    fx, fy = (ALIGNS[match.group(1).lower()], ALIGNS[match.group(2).lower()]) if match else (0.5, 0.5)
    nw, nh = natural
    scale = (max if slice_ else min)(box.width / nw, box.height / nh)
    w, h = nw * scale, nh * scale
    placed = Box(box.x + (box.width - w) * fx, box.y + (box.height - h) * fy, w, h)
    return placed, slice_ and (w > box.width + 1e-9 or h > box.height + 1e-9)


def bitmap_size(data: bytes) -> tuple[float, float] | None:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as probe:  # the header only: pixels are left to svglib
            return float(probe.width), float(probe.height)
    except Exception:  # noqa: BLE001 - a picture svglib will refuse in its own words
        return None


def target_of(href: str, folder: Path, root_folder: Path | None) -> Path | None:
    """The file an href names, where svglib reads it (beside the SVG, inside `root_folder`)."""
    iri = href.partition("#")[0]
    if not iri or "://" in iri or iri.startswith("data:") or os.path.isabs(iri):
        return None
    target = Path(os.path.normpath(folder / iri))
    if root_folder is not None:
        try:
            Path(os.path.realpath(target)).relative_to(os.path.realpath(root_folder))
        except ValueError:
            return None
    return target if target.is_file() else None


SvgPicture = Callable[[Path, bytes], Any]  # an SVG picture's file and bytes -> its svglib Drawing


@dataclass
class Placed:
    """What fills one placeholder group after svglib has run: a picture's drawing and its box."""

    drawing: Any
    box: Box


def place_images(tree: Any, path: Path, root_folder: Path | None,
                 picture: SvgPicture) -> tuple[Any, dict[str, Placed]]:
    """`tree` with every `<image>` placed as SVG says (a copy when it has any), and the SVG
    pictures `fill_placeholders` puts into their groups once svglib has run."""
    if not any(True for _ in tree.iter(f"{{{SVG_NS}}}image")):
        return tree, {}
    tree = copy.deepcopy(tree)
    placed: dict[str, Placed] = {}
    for n, image in enumerate(list(tree.iter(f"{{{SVG_NS}}}image"))):
        found = picture_of(image, path, root_folder, picture)
        box = None if found is None else box_of(image, found[1], found[0] is not None)
        if found is None or box is None:
            continue  # a picture svglib cannot read, or lengths in % or em: left to svglib
        drawing, natural = found
        inside, clipped = fitted(box, natural, image.get("preserveAspectRatio"))
        ident = f"{PLACEHOLDER}{n}"
        holder = image.makeelement(f"{{{SVG_NS}}}g", {})
        for key in ("transform", "id", "class", "style", "opacity", "display", "visibility"):
            if image.get(key) is not None:
                holder.set(key, image.get(key))
        if clipped:
            clip = image.makeelement(f"{{{SVG_NS}}}clipPath", {"id": f"{ident}-clip"})
            clip.append(image.makeelement(f"{{{SVG_NS}}}rect", {
                "x": repr(box.x), "y": repr(box.y), "width": repr(box.width), "height": repr(box.height)}))
            image.addprevious(clip)
            holder.set("clip-path", f"url(#{ident}-clip)")
        if drawing is not None:
            holder.append(image.makeelement(f"{{{SVG_NS}}}g", {"id": ident}))
            placed[ident] = Placed(drawing, inside)
        else:
            bitmap = copy.copy(image)
            for key in ("transform", "preserveAspectRatio", "style", "class", "opacity", "id"):
                bitmap.attrib.pop(key, None)
            for key, value in zip(("x", "y", "width", "height"), (inside.x, inside.y, inside.width, inside.height)):
                bitmap.set(key, repr(value))
            holder.append(bitmap)
        holder.tail = image.tail
        image.getparent().replace(image, holder)
    return tree, placed


def picture_of(image: Any, path: Path, root_folder: Path | None,
               picture: SvgPicture) -> tuple[Any, tuple[float, float]] | None:
    """(an SVG picture's drawing or None for a bitmap, its natural size) of what `image` shows."""
    href = (image.get(XLINK_HREF) or image.get("href") or "").strip()
    drawing, natural = None, None
    if href.startswith("data:"):
        match = re.match(r"data:image/(jpe?g|png);base64,", href, re.IGNORECASE)
        natural = bitmap_size(base64.b64decode(href[match.end():].encode("ascii", "ignore"))) if match else None
    else:
        target = target_of(href, path.parent, root_folder)
        if target is None:
            return None
        data = target.read_bytes()
        if target.suffix.lower() == ".svg":
            drawing = picture(target, data)
            natural = (float(drawing.width), float(drawing.height))
        else:
            natural = bitmap_size(data)
    if natural is None or not all(natural):
        return None
    return drawing, natural


def box_of(image: Any, natural: tuple[float, float], vector: bool) -> Box | None:
    """The box `image` gives its picture in user units: a missing width or height follows the
    picture's proportions, both missing its natural size (`vector`: measured in points)."""
    x, y = length(image.get("x"), 0.0), length(image.get("y"), 0.0)
    width, height = length(image.get("width")), length(image.get("height"))
    if x is None or y is None or (image.get("width") and width is None) or (image.get("height") and height is None):
        return None
    nw, nh = (v * PX_PER_POINT for v in natural) if vector else natural
    if width is None and height is None:
        width, height = nw, nh
    elif width is None:
        width = (height or 0.0) * nw / nh
    elif height is None:
        height = width * nh / nw
    if width is None or height is None or width <= 0 or height <= 0:
        return None
    return Box(x, y, width, height)


def fill_placeholders(drawing: Any, placed: dict[str, Placed]) -> None:
    """Put each SVG picture into its placeholder group of svglib's `drawing` (user units, y down),
    scaled from its own points, y up, onto the box it covers."""
    from reportlab.graphics.shapes import Group

    if not placed:
        return
    stack = list(getattr(drawing, "contents", []))
    while stack:
        shape = stack.pop()
        if not isinstance(shape, Group):
            continue
        ident = getattr(shape, "svgid", None)
        if ident in placed:
            art, box = placed[ident].drawing, placed[ident].box
            transform = (box.width / art.width, 0, 0, -box.height / art.height, box.x, box.y + box.height)
            shape.add(Group(*art.contents, transform=transform))
        else:
            stack.extend(shape.contents)
