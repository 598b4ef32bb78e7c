"""Measure how a rules or reference PDF is set: text sizes and their shares, body size, line lengths,
and how far each column of a page falls short of its frame's foot (what tests/test_house_style.py
holds); measured from the PDF alone, as a reader would see it."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pdfplumber

from pdfmeasure import MM, once_per_file

FOOT = 12.0  # mm: text lower than this is a page footer, not a column's text
MARGIN = 14.0  # mm: printgen's house margin at a rulebook page's top and foot
GAP = 2.5  # mm: a gap this wide between letters on one baseline separates two columns or cells


@dataclass(frozen=True)
class Line:
    page: int
    x0: float  # mm from the left edge
    bottom: float  # mm up from the paper's foot
    size: float  # pt: the line's most common glyph size
    text: str


CHAR_KEYS = ("text", "x0", "x1", "top", "bottom", "size", "matrix", "non_stroking_color")


@dataclass(frozen=True)
class Page:
    """What the measures here read of one page, taken from one pdfplumber reading of the file."""

    width: float
    height: float
    chars: list[dict]  # each glyph's CHAR_KEYS, spaces included
    marks: list[tuple[str, float, float, float]]  # every rect, curve, line and image: kind, x0, top, bottom


@once_per_file(copied=False)
def pages_of(path: Path) -> list[Page]:
    """Every page of `path`, read once for all the measures (pdfplumber's parse is the slow part);
    callers only read them."""
    with pdfplumber.open(path) as pdf:
        return [Page(float(page.width), float(page.height),
                     [{key: c[key] for key in CHAR_KEYS} for c in page.chars],
                     [(kind, o["x0"], o["top"], o["bottom"]) for kind in ("rect", "curve", "line", "image")
                      for o in page.objects.get(kind, [])])
                for page in pdf.pages]


def upright(chars: list[dict]) -> list[dict]:
    return [c for c in chars if not (c["matrix"][1] or c["matrix"][2])]


@once_per_file
def lines(path: Path, pages: slice = slice(None)) -> list[Line]:
    """Runs of text on one baseline with no column-wide gap in them: a column's (or a cell's) line."""
    found: list[Line] = []
    for n, page in list(enumerate(pages_of(path)))[pages]:
        height = page.height
        rows: dict[float, list[dict]] = {}
        for c in upright(page.chars):
            rows.setdefault(round(c["bottom"], 0), []).append(c)
        for chars in rows.values():
            chars.sort(key=lambda c: c["x0"])
            run = [chars[0]]
            for c in chars[1:] + [None]:
                if c is not None and (c["x0"] - run[-1]["x1"]) / MM < GAP:
                    run.append(c)
                    continue
                size = Counter(round(r["size"], 1) for r in run).most_common(1)[0][0]
                found.append(Line(n, run[0]["x0"] / MM, (height - max(r["bottom"] for r in run)) / MM,
                                  size, "".join(r["text"] for r in run)))
                run = [c] if c is not None else []
    return found


@once_per_file
def size_shares(path: Path) -> dict[float, float]:
    """Each glyph size (pt, to 0.1) and its share of the document's letters."""
    counts: Counter[float] = Counter()
    for page in pages_of(path):
        counts.update(round(c["size"], 1) for c in page.chars if c["text"].strip())
    total = sum(counts.values()) or 1
    return {size: n / total for size, n in sorted(counts.items())}


def body_size(path: Path) -> float:
    """The size most of the document's letters are set in."""
    shares = size_shares(path)
    return max(shares, key=lambda s: shares[s])


def longest_body_line(path: Path, pages: slice = slice(None)) -> Line:
    body = body_size(path)
    return max((line for line in lines(path, pages) if abs(line.size - body) < 0.05), key=lambda l: len(l.text))


@once_per_file
def column_blanks(path: Path, pages: slice = slice(None)) -> list[list[float]]:
    """For each page, each half's (column's) blank foot as a fraction of the text height between the
    house margins: 0 when text or a drawing reaches the bottom margin."""
    result = []
    for page in pages_of(path)[pages]:
        width, height = page.width, page.height
        usable = height / MM - 2 * MARGIN
        feet: dict[int, float] = {}
        things = ([(c["x0"], c["bottom"]) for c in upright(page.chars)]
                  + [(x0, bottom) for _, x0, _, bottom in page.marks])
        for x0, bottom in things:
            up = (height - bottom) / MM
            if up < FOOT:
                continue
            side = 0 if x0 < width / 2 - 2 else 1
            feet[side] = min(feet.get(side, height), up)
        result.append([max(0.0, (feet[side] - MARGIN) / usable) for side in sorted(feet)])
    return result


HALF_INSET = 8.0  # mm: a reference half's text box keeps this far from the paper's edges and the cut


def half_blanks(path: Path) -> list[list[list[float]]]:
    """For each page of a reference sheet or card file, each half (top, bottom) and each side (left,
    right): the blank at the foot of its text box, as a fraction of the box's height. What lies
    within the inset of the cut line (its label) or the paper's foot (the footer) is not counted."""
    result = []
    for page in pages_of(path):
        width, height = page.width, page.height / MM
        box = height / 2 - 2 * HALF_INSET
        feet: dict[tuple[int, int], float] = {}
        things = ([(c["x0"], c["top"], c["bottom"]) for c in upright(page.chars)]
                  + [(x0, top, bottom) for kind, x0, top, bottom in page.marks if kind != "line"])
        for x0, top, bottom in things:
            up, high = height - bottom / MM, height - top / MM
            half = 0 if up > height / 2 else 1
            floor = height / 2 + HALF_INSET if half == 0 else HALF_INSET
            if up < floor - 1 or high > floor + box + 1:
                continue  # the cut line's label or the footer
            key = (half, 0 if x0 < width / 2 - 2 else 1)
            feet[key] = min(feet.get(key, height), up - floor)
        result.append([[max(0.0, feet[(half, side)] / box) for side in (0, 1) if (half, side) in feet]
                       for half in (0, 1)])
    return result
