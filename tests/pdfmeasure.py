"""Measure real output: PDF geometry in millimetres (y up, as printgen draws it) and SVG trees."""
from __future__ import annotations

import copy
import functools
import hashlib
import os
import pickle
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pdfplumber

MM = 72 / 25.4
SVG_NS = {"svg": "http://www.w3.org/2000/svg"}
CUT_DASH = (3.0, 1.5)
FOLD_DASH = (0.5, 1.0)


# the folder of the builds every pytest-xdist worker shares (conftest.py sets it); measurements of
# the files in it are kept there too, so a worker reads what the other has measured
SHARED: list[Path] = []


def in_shared_build(path: Path | str) -> bool:
    """Whether `path` is a file of one of the session's shared builds (read-only by agreement)."""
    return bool(SHARED) and Path(path).is_relative_to(SHARED[0]) \
        and Path(path).relative_to(SHARED[0]).parts[0].startswith("shared-")


def kept(name: str, at: tuple, measure):
    """measure(), or what it gave when a worker measured the same file the same way before."""
    if not in_shared_build(at[0]):
        return measure()
    folder = SHARED[0] / "measured"
    folder.mkdir(exist_ok=True)
    keep = folder / f"{hashlib.sha256(repr((name, at)).encode()).hexdigest()}.pickle"
    if keep.exists():
        return pickle.loads(keep.read_bytes())
    value = measure()
    part = keep.with_suffix(f".{os.getpid()}")
    part.write_bytes(pickle.dumps(value))
    os.replace(part, keep)  # whole or not there
    return value


def once_per_file(measure=None, *, copied: bool = True):
    """`measure(path, ...)` read from the PDF once per test session: several tests (and one test,
    through helpers) measure the same built PDF the same way, and reading a PDF with pdfplumber is
    the slow part. Keyed by the file (path, size and modification time, so a file written again is
    read again) and the other arguments (a slice by its bounds); each caller gets its own copy, or
    with `copied=False` the one value, for large readings that callers only read (copying them
    would cost more than the measures). Kept in this process, and on disk for the files of the
    shared builds (see `kept`)."""
    if measure is None:
        return functools.partial(once_per_file, copied=copied)
    found: dict = {}

    def key(value):
        return ("slice", value.start, value.stop, value.step) if isinstance(value, slice) else value

    @functools.wraps(measure)
    def measured(path, *args, **kwargs):
        stat = Path(path).stat()
        at = (str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns, tuple(map(key, args)),
              tuple(sorted((name, key(value)) for name, value in kwargs.items())))
        if at not in found:
            found[at] = kept(f"{measure.__module__}.{measure.__qualname__}", at,
                             lambda: measure(path, *args, **kwargs))
        return copy.deepcopy(found[at]) if copied else found[at]

    return measured


def kept_page_objects(parse):
    """pdfplumber's `Page.parse_objects` (`parse`), read once per test session for each page of the
    shared builds' PDFs: dozens of tests open the same pages with pdfplumber, and its parse of a
    page (about a tenth of a CPU second for a rulebook page) was most of what they cost. What a page
    holds (chars, lines, rects, curves: plain dicts) is kept on disk through `kept`, keyed by the
    file (path, size, modification time), the page and the reading's options; each reader gets its
    own copy, unpickled. A page with images (whose streams point back into the open file) is
    parsed each time, as is every file outside the shared builds. conftest.py puts this in place
    for the session."""
    def parse_objects(page):
        path = page.pdf.path
        if path is None or not in_shared_build(Path(path).resolve()):
            return parse(page)
        stat = Path(path).stat()
        pdf = page.pdf
        at = (str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns, page.page_number, page.initial_doctop,
              repr(pdf.laparams), pdf.unicode_norm, pdf.raise_unicode_errors, pdf.password)
        parsed: list = []

        def plain():
            parsed.append(parse(page))
            return None if "image" in parsed[0] else parsed[0]
        value = kept("pdfplumber.page.Page.parse_objects", at, plain)
        if parsed:
            return parsed[0]
        return parse(page) if value is None else value

    return parse_objects


@dataclass(frozen=True)
class Seg:
    """A straight stroke in mm, endpoints sorted so that equal segments compare equal."""

    x1: float
    y1: float
    x2: float
    y2: float
    dash: tuple[float, ...]

    def key(self, places: int = 2) -> tuple:
        a = (round(self.x1, places), round(self.y1, places))
        b = (round(self.x2, places), round(self.y2, places))
        return (min(a, b), max(a, b), self.dash)

    @property
    def length(self) -> float:
        return ((self.x2 - self.x1) ** 2 + (self.y2 - self.y1) ** 2) ** 0.5


def segments(page: pdfplumber.page.Page, dash: tuple[float, ...] | None = None) -> list[Seg]:
    """Straight strokes on the page, in mm with y measured up from the bottom edge."""
    height = float(page.height)
    found = []
    for obj in page.lines + page.curves:
        pts = obj["pts"]
        pattern = tuple(float(v) for v in (obj.get("dash") or ([], 0))[0])
        if dash is not None and pattern != dash:
            continue
        for (xa, ta), (xb, tb) in zip(pts, pts[1:]):
            found.append(Seg(xa / MM, (height - ta) / MM, xb / MM, (height - tb) / MM, pattern))
    return found


def guides(page: pdfplumber.page.Page) -> list[Seg]:
    return segments(page, CUT_DASH) + segments(page, FOLD_DASH)


def page_size_mm(page: pdfplumber.page.Page) -> tuple[float, float]:
    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    return (x1 - x0) / MM, (y1 - y0) / MM


def chars_mm(page: pdfplumber.page.Page) -> list[dict]:
    """Characters with their box in mm (y up) and their text direction from the PDF matrix."""
    height = float(page.height)
    out = []
    for c in page.chars:
        a, b = c["matrix"][0], c["matrix"][1]
        out.append({"text": c["text"], "x0": c["x0"] / MM, "x1": c["x1"] / MM,
                    "y0": (height - c["bottom"]) / MM, "y1": (height - c["top"]) / MM,
                    "dir": (round(a / abs(a)) if a else 0, round(b / abs(b)) if b else 0),
                    "font": c["fontname"], "size": c["size"]})
    return out


def glyph_pt(char: dict) -> float:
    """A pdfplumber character's real size in points, however it is turned.

    pdfplumber's `size` is the height of the character's upright box, which for a glyph turned a
    quarter is its advance width. pdfminer boxes a glyph as `adv` by the font size in text space,
    mapped by `matrix`; the font size is recovered from that box and scaled by the matrix."""
    a, b, c, d = (float(v) for v in char["matrix"][:4])
    adv = float(char["adv"])
    if abs(d) > 1e-9:
        size = ((char["bottom"] - char["top"]) - abs(b) * adv) / abs(d)
    else:
        size = ((char["x1"] - char["x0"]) - abs(a) * adv) / abs(c)
    return size * (c * c + d * d) ** 0.5


def svg_root(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def reading_text(page: pdfplumber.page.Page) -> str:
    """A two-column page's text in reading order: the left half top to bottom, then the right
    (a full-width title comes out in two pieces; pdfplumber alone would interleave the columns)."""
    mid = float(page.width) / 2
    halves = (page.crop((0, 0, mid, page.height)), page.crop((mid, 0, page.width, page.height)))
    return " ".join(" ".join((half.extract_text() or "").split()) for half in halves)
