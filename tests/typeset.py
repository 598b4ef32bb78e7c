"""Measure how a rules or reference PDF is set: text sizes, body size, line lengths, and how far
each column falls short of its frame's foot; what tests/test_house_style.py holds."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pdfplumber

from pdfmeasure import MM

FOOT = 12.0  # mm: text lower than this is a page footer, not a column's text


@dataclass(frozen=True)
class Line:
    page: int
    column: int
    x0: float  # mm
    top: float  # mm from the page top
    bottom: float
    size: float  # pt of the line's most common glyph size
    text: str


def lines(path: Path) -> list[Line]:
    """Text lines, split at the page's middle when its text runs in columns."""
    found: list[Line] = []
    with pdfplumber.open(path) as pdf:
        for n, page in enumerate(pdf.pages):
            mid = float(page.width) / 2
            rows: dict[tuple[int, float], list[dict]] = {}
            for c in page.chars:
                if c["matrix"][1] or c["matrix"][2]:
                    continue  # turned text (cut labels along a side)
                column = 0 if c["x0"] < mid - 2 else 1
                rows.setdefault((column, round(c["bottom"], 0)), []).append(c)
            for (column, _), chars in rows.items():
                chars.sort(key=lambda c: c["x0"])
                text = "".join(c["text"] for c in chars)
                size = Counter(round(c["size"], 1) for c in chars).most_common(1)[0][0]
                found.append(Line(n, column, chars[0]["x0"] / MM, min(c["top"] for c in chars) / MM,
                                  max(c["bottom"] for c in chars) / MM, size, text))
    return found


def size_shares(path: Path) -> dict[float, float]:
    """Each glyph size (pt) and its share of the document's letters."""
    counts: Counter[float] = Counter()
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            counts.update(round(c["size"], 1) for c in page.chars if c["text"].strip())
    total = sum(counts.values()) or 1
    return {size: n / total for size, n in sorted(counts.items())}


def body_size(path: Path) -> float:
    shares = size_shares(path)
    return max(shares, key=lambda s: shares[s])
