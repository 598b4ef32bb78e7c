"""Find what a reader would see broken across a column or page in a rules or reference PDF: a table
row going on in the next column, or a list item, numbered step or question whose lines run on into
the next column. Columns are the page's halves; text below 12 mm (the footer) is left out."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pdfplumber

from pdfmeasure import MM, once_per_file

FOOT = 12.0  # mm
GAP = 2.5  # mm between words that are no longer one line of one column


@dataclass(frozen=True)
class Row:
    """One line of running text in a column (table cells left out)."""

    x0: float  # mm
    top: float  # pt from the page top
    text: str
    bold: bool  # its first word is bold: a run-in step number, a question, a table head
    size: float


@once_per_file
def columns(path: Path, pages: slice = slice(None)) -> tuple[list[list[Row]], list[list[list[str | None]]]]:
    """Each column's text lines in reading order, and every table part in reading order."""
    found: list[list[Row]] = []
    tables: list[list[list[str | None]]] = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[pages]:
            mid, height = float(page.width) / 2, float(page.height)
            parts = sorted(page.find_tables(), key=lambda t: (t.bbox[0] > mid, t.bbox[1]))
            tables += [t.extract() for t in parts]
            boxes = [t.bbox for t in parts]
            words = [w for w in page.extract_words(extra_attrs=["fontname", "size"])
                     if (height - w["bottom"]) / MM > FOOT and w["upright"]
                     and not any(b[0] - 1 <= w["x0"] <= b[2] + 1 and b[1] - 1 <= w["top"] <= b[3] + 1 for b in boxes)]
            for side in (False, True):
                lines: dict[float, list[dict]] = {}
                for w in words:
                    if (w["x0"] > mid) == side:
                        lines.setdefault(round(w["bottom"]), []).append(w)
                rows = []
                for key in sorted(lines):
                    line = sorted(lines[key], key=lambda w: w["x0"])
                    rows.append(Row(line[0]["x0"] / MM, line[0]["top"], " ".join(w["text"] for w in line),
                                    "Bold" in line[0]["fontname"], round(line[0]["size"], 1)))
                found.append(rows)
    return found, tables


def broken_rows(tables: list[list[list[str | None]]]) -> list[list[str | None]]:
    """Table parts whose first row under the head goes on from a row above: its first cell empty."""
    broken = []
    for part in tables[1:]:
        row = part[1] if len(part) > 1 else []
        # None is no cell at all (a drawing pdfplumber takes for a table); "" is an emptied one
        if row and row[0] is not None and not row[0].strip() and any((cell or "").strip() for cell in row):
            broken.append(row)
    return broken


def item_start(rows: list[Row], body: float) -> Row | None:
    """The first line of the paragraph a column ends with, if that paragraph is an item (a bullet, or
    a paragraph led by bold words: a numbered step, a question with its answer)."""
    if not rows:
        return None
    k = len(rows) - 1
    while k > 0:
        row, above = rows[k], rows[k - 1]
        if row.bold or row.text.startswith("\u2022") or abs(row.size - body) > 0.05:
            break
        if row.top - above.top > body * 1.6:  # a paragraph's space above it
            break
        k -= 1
    start = rows[k]
    if abs(start.size - body) > 0.05:
        return None
    return start if start.bold or start.text.startswith("\u2022") else None


def split_items(path: Path, body: float, pages: slice = slice(None)) -> list[tuple[str, str]]:
    """(an item's first line, the line it runs on with at the next column's top) for each item that
    breaks between columns or pages."""
    found, _ = columns(path, pages)
    found = [rows for rows in found if rows]
    split = []
    for before, after in zip(found, found[1:]):
        start = item_start(before, body)
        top = after[0]
        if start is None or top.bold or top.text.startswith("\u2022") or abs(top.size - body) > 0.05:
            continue
        left = min(r.x0 for r in after)
        ended = before[-1].text.rstrip().endswith((".", "?", "!", ")", ":")) and top.text[:1].isupper()
        if top.x0 > left + 1.5 or not ended:  # indented like a bullet's second line, or mid-sentence
            split.append((start.text, top.text))
    return split
