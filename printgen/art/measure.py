"""Art measured from its structure before anything decodes it, in time linear in its size.

A few kilobytes can claim millions of shapes (nested `<use>`), gigapixels or billions of font
characters; decoders find out by trying. Over a limit, the file is refused with the measured
figure. Every limit is in SECURITY.md.
"""
from __future__ import annotations

import base64
import binascii
import io
import math
import os
import re
import struct
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.art.svgtree import local, parse
from printgen.core.problems import display_name

MAX_SVG_ELEMENTS = 10_000  # after <use> expansion; svglib needs about 0.3 ms per element
MAX_SVG_DEPTH = 100  # elements inside elements, <use> included; svglib recurses per level
MAX_SVG_NUMBER = 10_000_000  # a coordinate or length beyond this is a mistake, not art
MAX_SVG_IMAGE_PIXELS = 16_000_000  # bitmaps inside one SVG, counted once per time they are drawn
MAX_SVG_FILES = 8  # SVG files one SVG may draw through <use> or <image>, itself included
MAX_FONT_TABLES = 100  # real fonts have 10 to 40
MAX_FONT_CODES = 0x110000  # every Unicode code point once; a cmap subtable may map no more

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
GEOMETRY = {"x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "fx",
            "fy", "dx", "dy", "points", "d", "transform", "gradientTransform", "patternTransform",
            "viewBox", "stroke-width", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit",
            "font-size", "offset", "rotate", "textLength"}
# cheap first test: a long run of digits, an exponent, or a word float() reads as a number
SUSPECT = re.compile(r"\d{8}|\d[eE]\+?\d|(?<![A-Za-z])(?:nan|inf)", re.IGNORECASE)
NUMBER = re.compile(r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
                    r"|(?<![A-Za-z])(?:nan|infinity|inf)(?![A-Za-z]))", re.IGNORECASE)
CSS_DECLARATION = re.compile(r"([\w-]+)\s*:\s*([^;{}]+)")
LENGTH = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|infinity|inf))"
                    r"\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*$", re.IGNORECASE)


class TooCostly(ValueError):
    """The art would cost more to read than printgen allows; the message has the figure."""


# -- SVG -------------------------------------------------------------------------------------------

@dataclass
class SvgMeasure:
    """What drawing one SVG takes: elements after <use> (nesting and bitmap pixels are checked as it is
    walked), and the files it reads."""

    elements: int = 0
    files: list[Path] = field(default_factory=list)
    pictures: list[Path] = field(default_factory=list)  # bitmap files it names, read when it is written
    absent: list[Path] = field(default_factory=list)  # files it names that are not there (yet)

    @property
    def linked(self) -> list[Path]:
        """Files besides the SVG that its drawing reads or names (`build --watch` watches them)."""
        return self.files[1:] + self.pictures + self.absent


def measure_svg(root: Any, path: Path, root_folder: Path | None) -> SvgMeasure:
    """TooCostly when over a limit; `root_folder` is where linked files must lie (None: anywhere)."""
    check_size(root, path)
    measure = SvgMeasure(files=[path.resolve()])
    measure.elements = SvgWalk(root, path, root_folder, measure).visit(root, 0)[0]
    return measure


def check_size(root: Any, path: Path) -> None:
    """The <svg> box: width and height positive and sane, a viewBox of four finite numbers."""
    line = root.sourceline or 1
    for name in ("width", "height"):
        value = root.get(name)
        match = LENGTH.match(value) if value is not None else None
        if match is None:
            continue  # absent, or a form svglib reads its own way (it fails clearly if it cannot)
        number = float(match.group(1))
        if not math.isfinite(number) or not 0 < number <= MAX_SVG_NUMBER:
            raise TooCostly(f"{display_name(path)}:{line}: the <svg> {name} is {value.strip()!r}; expected a "
                            f"positive number up to {MAX_SVG_NUMBER:,} (set the size in your "
                            f"editor)")
    box = root.get("viewBox")
    if box is not None:
        numbers = [float(n) for n in NUMBER.findall(box)]
        sane = all(math.isfinite(n) and abs(n) <= MAX_SVG_NUMBER for n in numbers)
        if len(numbers) != 4 or not sane or numbers[2] <= 0 or numbers[3] <= 0:
            raise TooCostly(f"{display_name(path)}:{line}: the viewBox is {box.strip()!r}; expected four finite "
                            f"numbers (x, y, width, height) with a positive width and height")


class SvgWalk:
    """Counts elements, nesting and pixels as svglib draws them, each <use> a copy; memoised per
    element, so a chain of groups repeating each other costs one visit per element."""

    def __init__(self, root: Any, path: Path, root_folder: Path | None, measure: SvgMeasure,
                 active_files: tuple[Path, ...] = ()) -> None:
        self.path, self.root_folder, self.measure = path, root_folder, measure
        self.active_files = active_files + (path.resolve(),)
        self.ids: dict[str, Any] = {}
        for element in root.iter("{*}*"):
            ident = element.get("id")
            if ident is not None:
                self.ids.setdefault(ident, element)
        self.memo: dict[Any, tuple[int, int, int]] = {}
        self.active: set[Any] = set()

    def where(self, element: Any) -> str:
        return f"{display_name(self.path)}:{element.sourceline or 1}"  # named only for a message

    def visit(self, element: Any, depth: int) -> tuple[int, int, int]:
        """(elements, height, pixels) of `element` with everything it draws, copies included."""
        if element in self.memo:
            self.check_depth(element, depth + self.memo[element][1])
            return self.memo[element]
        if element in self.active:
            raise TooCostly(f"{self.where(element)}: this <{local(element.tag)}> refers back to "
                            f"itself through <use>; remove the loop")
        self.check_depth(element, depth + 1)
        self.active.add(element)
        self.check_numbers(element)
        elements, height, pixels = 1, 1, 0
        name = local(element.tag)
        # what <defs> holds is drawn only where a <use> names it, and counted there
        parts = [] if name == "defs" else [child for child in element if isinstance(child.tag, str)]
        if name in ("use", "image"):
            elements, height, pixels = self.referenced(element, depth)
            self.check_totals(element, elements, pixels)
        for part in parts:
            count, tall, drawn = self.visit(part, depth + 1)
            elements, height, pixels = elements + count, max(height, tall + 1), pixels + drawn
            self.check_totals(element, elements, pixels)
        self.active.discard(element)
        self.memo[element] = (elements, height, pixels)
        return elements, height, pixels

    def check_depth(self, element: Any, depth: int) -> None:
        if depth > MAX_SVG_DEPTH:
            raise TooCostly(f"{self.where(element)}: elements nest more than {MAX_SVG_DEPTH} deep "
                            f"here (counting what <use> repeats); printgen reads at most "
                            f"{MAX_SVG_DEPTH} levels: flatten the groups in your editor")

    def check_totals(self, element: Any, elements: int, pixels: int) -> None:
        if elements > MAX_SVG_ELEMENTS:
            raise TooCostly(f"{self.where(element)}: this <{local(element.tag)}> draws more than "
                            f"{MAX_SVG_ELEMENTS:,} elements, counting every copy <use> makes; art "
                            f"may draw at most {MAX_SVG_ELEMENTS:,}: simplify it, or export it as "
                            f"PNG")
        if pixels > MAX_SVG_IMAGE_PIXELS:
            most = MAX_SVG_IMAGE_PIXELS // 1_000_000
            raise TooCostly(f"{self.where(element)}: the bitmaps drawn up to here have "
                            f"{pixels:,} pixels in all (copies counted); the bitmaps inside one "
                            f"SVG may have at most {most} million: use smaller images, or give "
                            f"the image to printgen as PNG or JPEG")

    def check_numbers(self, element: Any) -> None:
        """Geometry finite and within ±MAX_SVG_NUMBER (inf and nan reach the PDF as words)."""
        declarations = []
        if local(element.tag) == "style" and element.text:  # a stylesheet: its geometry properties
            declarations = [(k, v) for k, v in CSS_DECLARATION.findall(element.text)
                            if k in GEOMETRY]
        for key, value in [*element.attrib.items(), *declarations]:
            name = local(key)
            if name == "style":
                pairs = [d.split(":", 1) for d in str(value).split(";") if ":" in d]
                values = [(k.strip(), v) for k, v in pairs if k.strip() in GEOMETRY]
            elif name in GEOMETRY:
                values = [(name, str(value))]
            else:
                continue
            for name, text in values:
                if not SUSPECT.search(text):
                    continue
                for token in NUMBER.findall(text):
                    number = float(token)
                    if not math.isfinite(number) or abs(number) > MAX_SVG_NUMBER:
                        raise TooCostly(f"{self.where(element)}: {name} holds {token!r}; expected "
                                        f"finite numbers up to {MAX_SVG_NUMBER:,} in size")

    def referenced(self, element: Any, depth: int) -> tuple[int, int, int]:
        """What a <use> or <image> draws: (elements, height, pixels), itself included."""
        href = (element.get(XLINK_HREF) or element.get("href") or "").strip()
        if href.startswith("data:"):
            return 1, 1, data_uri_pixels(href, self.where(element))
        if href.startswith("#") and href[1:] in self.ids:
            count, tall, pixels = self.visit(self.ids[href[1:]], depth + 1)
            return count + 1, tall + 1, pixels
        target_path = self.external(href.partition("#")[0]) if href and not href.startswith("#") else None
        if target_path is None:  # nothing named, or an element or file svglib would not draw
            return 1, 1, 0
        if target_path.suffix.lower() == ".svg":
            count, tall, pixels = self.external_svg(element, target_path, depth)
            return count + 1, tall + 1, pixels
        if target_path not in self.measure.pictures:
            self.measure.pictures.append(target_path)
        try:
            with target_path.open("rb") as handle:
                data = handle.read(1 << 20)  # headers sit in the first bytes; enough for JPEG's too
        except OSError:
            return 1, 1, 0
        return 1, 1, header_pixels(data, self.where(element))

    def external(self, iri: str) -> Path | None:
        """The file an href names, where svglib would read it; None where svglib would not."""
        if "://" in iri or os.path.isabs(iri):
            return None
        target = Path(os.path.normpath(self.path.parent / iri))
        if self.root_folder is not None:
            try:
                Path(os.path.realpath(target)).relative_to(os.path.realpath(self.root_folder))
            except ValueError:
                return None
        if target.is_file():
            return target
        if target not in self.measure.absent:  # drawn as soon as it is saved: a build depends on it
            self.measure.absent.append(target)
        return None

    def external_svg(self, element: Any, target: Path, depth: int) -> tuple[int, int, int]:
        resolved = target.resolve()
        if resolved in self.active_files:
            raise TooCostly(f"{self.where(element)}: this refers back to {display_name(target)}, "
                            f"which is already being drawn; remove the loop")
        if resolved not in self.measure.files:
            self.measure.files.append(resolved)
        if len(self.measure.files) > MAX_SVG_FILES:
            raise TooCostly(f"{self.where(element)}: the art draws more than {MAX_SVG_FILES} SVG "
                            f"files through <use> and <image>; combine them into one file")
        try:
            data = target.read_bytes()
        except OSError:
            return 1, 1, 0
        root = parse(target, data)
        walk = SvgWalk(root, target, self.root_folder, self.measure, self.active_files)
        count, tall, pixels = walk.visit(root, depth + 1)
        self.check_depth(element, depth + tall + 1)
        return count, tall, pixels


def data_uri_pixels(href: str, where: str) -> int:
    """Pixels of a base64 PNG or JPEG in a data: URI, from its header (0 for what svglib skips)."""
    match = re.match(r"data:image/(jpe?g|png);base64,", href, re.IGNORECASE)
    if not match:
        return 0
    try:
        data = base64.b64decode(href[match.end():].encode("ascii", "ignore"))
    except (binascii.Error, ValueError):
        return 0
    return header_pixels(data, where)


def header_pixels(data: bytes, where: str) -> int:
    from PIL import Image

    try:
        with warnings.catch_warnings():  # a big claim is reported below, not as a Python warning
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:  # reads the header only
                return int(probe.width) * int(probe.height)
    except Image.DecompressionBombError:
        raise TooCostly(f"{where}: an image inside the SVG claims far more pixels than "
                        f"{MAX_SVG_IMAGE_PIXELS // 1_000_000} million")
    except Exception:  # noqa: BLE001 - unreadable: svglib reports it when it tries
        return 0


# -- fonts -----------------------------------------------------------------------------------------

def measure_font(path: Path, data: bytes) -> None:
    """TooCostly or ValueError if the table directory or character maps are inconsistent or huge."""
    shown = path.name

    def refuse(what: str) -> ValueError:
        return ValueError(f"{shown} is not a TrueType font printgen can embed ({what})")

    if len(data) < 12:
        raise refuse("the file is too short to be a font")
    tag = data[:4]
    if tag == b"OTTO":
        raise refuse("it has PostScript (CFF) outlines; convert it to TrueType outlines")
    if tag == b"ttcf":
        raise refuse("it is a font collection; save the one font you need as .ttf")
    if tag not in (b"\x00\x01\x00\x00", b"true"):
        raise refuse("it does not start like a TrueType font")
    count = struct.unpack_from(">H", data, 4)[0]
    if 12 + 16 * count > len(data):
        raise refuse(f"its table directory lists {count} tables and runs past the end of the file")
    if count > MAX_FONT_TABLES:
        raise TooCostly(f"{shown}: the font lists {count} tables; a font has at most "
                        f"{MAX_FONT_TABLES}, so the file is damaged")
    tables: dict[bytes, tuple[int, int]] = {}
    for n in range(count):
        name, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * n)
        if offset + length > len(data):
            raise refuse(f"its {name.decode('latin-1')!r} table runs past the end of the file")
        tables[name] = (offset, length)
    if b"cmap" in tables:
        measure_cmap(data, *tables[b"cmap"], refuse, shown)


def measure_cmap(data: bytes, start: int, length: int, refuse: Any, shown: str) -> None:
    """Each subtable maps at most MAX_FONT_CODES code points, counted from its written ranges."""
    end = start + length

    def read(fmt: str, at: int) -> tuple[int, ...]:
        if at < start or at + struct.calcsize(fmt) > end:
            raise refuse("its character map runs past the end of its table")
        return struct.unpack_from(fmt, data, at)

    _, subtables = read(">HH", start)
    for n in range(subtables):
        platform, encoding, offset = read(">HHL", start + 4 + 8 * n)
        at = start + offset
        fmt = read(">H", at)[0]
        codes = cmap_codes(fmt, at, read, refuse)
        if codes > MAX_FONT_CODES:
            raise TooCostly(f"{shown}: its character map (format {fmt}, platform {platform}, "
                            f"encoding {encoding}) claims {codes:,} characters; a font can map "
                            f"at most {MAX_FONT_CODES:,} (every Unicode code point), so the file "
                            f"is damaged or made to stall readers")


def cmap_codes(fmt: int, at: int, read: Any, refuse: Any) -> int:
    """How many code points one subtable claims (what a reader loops over)."""
    if fmt == 4:
        seg_count = read(">H", at + 6)[0] // 2
        ends = read(f">{seg_count}H", at + 14)
        starts = read(f">{seg_count}H", at + 16 + 2 * seg_count)
        return sum(max(0, e - s + 1) for s, e in zip(starts, ends))
    if fmt in (12, 13):
        groups = read(">L", at + 12)[0]
        read(">L", at + 16 + 12 * max(groups - 1, 0))  # the last group lies inside the table
        total = 0
        for n in range(groups):
            first, last = read(">LL", at + 16 + 12 * n)
            if last < first:
                raise refuse("its character map has a range that ends before it starts")
            total += last - first + 1
            if total > MAX_FONT_CODES:
                return total
        return total
    if fmt == 10:
        return int(read(">L", at + 16)[0])
    if fmt == 6:
        return int(read(">H", at + 8)[0])
    if fmt == 2:
        keys = read(">256H", at + 6)
        total = 0
        for key in keys:
            if key:  # reportlab takes the key itself as the subheader's index: count what it reads
                total += read(">H", at + 518 + 8 * key + 2)[0]
        return total
    return 0
