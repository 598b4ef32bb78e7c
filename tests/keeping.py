"""Find what a reader would see broken across a column or page in a rules or reference PDF: a table
row going on in the next column, or a list item, numbered step or question whose lines run on into
the next column. Columns are the page's halves; text below 12 mm (the footer) is left out."""
from __future__ import annotations

import re
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
            words = without_full_width_lines(words, mid)
            for side in (False, True):
                rows = []
                for found_line in baselines([w for w in words if (w["x0"] > mid) == side]):
                    line = sorted(found_line, key=lambda w: w["x0"])
                    rows.append(Row(line[0]["x0"] / MM, line[0]["top"], " ".join(w["text"] for w in line),
                                    "Bold" in line[0]["fontname"], round(line[0]["size"], 1)))
                found.append(rows)
    return found, tables


def baselines(words: list[dict]) -> list[list[dict]]:
    """Words grouped by the line they sit on, top to bottom: a larger bullet's a little lower."""
    lines: list[list[dict]] = []
    for w in sorted(words, key=lambda w: w["bottom"]):
        if lines and w["bottom"] - lines[-1][0]["bottom"] <= 1.5:
            lines[-1].append(w)
        else:
            lines.append([w])
    return lines


def without_full_width_lines(words: list[dict], mid: float) -> list[dict]:
    """The words of the columns, without a line that runs across the middle of the page (a title
    block set across both columns), which belongs to neither."""
    kept = []
    for line in baselines(words):
        line.sort(key=lambda w: w["x0"])
        across = any(w["x0"] < mid < w["x1"] for w in line) or any(
            a["x1"] <= mid <= b["x0"] and (b["x0"] - a["x1"]) / MM < GAP for a, b in zip(line, line[1:]))
        if not across:
            kept += line
    return kept


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
        if row.top - above.top > body * 1.3:  # a paragraph's space above it (lines are 1.22 apart)
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


MARK = re.compile(r"^(\u2022|\u2013|\d{1,2}[.)])\s")  # how a list item's first line begins


@dataclass(frozen=True)
class TablePart:
    """A table (or the part of one) as printed: its rows' words, where it stands, in mm."""

    page: int
    side: int  # 0: the left half of the page, 1: the right
    top: float  # mm from the page's top
    bottom: float
    rows: list[list[str]]


@once_per_file
def table_parts(path: Path, pages: slice = slice(None)) -> list[TablePart]:
    """Every table with words in its head row, in reading order (page, column, top)."""
    found = []
    with pdfplumber.open(path) as pdf:
        for number, page in list(enumerate(pdf.pages))[pages]:
            mid = float(page.width) / 2
            for table in page.find_tables():
                rows = [[(cell or "").strip() for cell in row] for row in table.extract()]
                if not rows or not any(rows[0]):
                    continue  # a drawing's boxes, not a table
                x0, top, _, bottom = table.bbox
                found.append(TablePart(number, int(x0 > mid), top / MM, bottom / MM, rows))
    return sorted(found, key=lambda t: (t.page, t.side, t.top))


def split_tables(path: Path, most: int, pages: slice = slice(None)) -> list[list[str]]:
    """The head rows of tables of at most `most` rows under their head that print in two parts:
    a part in a later column or page repeating the head of the part before it."""
    parts = table_parts(path, pages)
    split = []
    for before, after in zip(parts, parts[1:]):
        if (before.page, before.side) != (after.page, after.side) and before.rows[0] == after.rows[0]:
            if len(before.rows) - 1 + len(after.rows) - 1 <= most:
                split.append(before.rows[0])
    return split


def item_run(rows: list[Row], from_end: bool) -> int:
    """How many items of one list the column's foot (or, not `from_end`, its top) holds: item first
    lines (a bullet or a number, at one indent) and the lines indented under them; 0 when the foot
    (top) is not a list's."""
    ordered = list(reversed(rows)) if from_end else list(rows)
    starts = [k for k, row in enumerate(ordered) if MARK.match(row.text)]
    if not starts or (not from_end and starts[0] != 0):
        return 0
    mark_x = ordered[starts[0]].x0
    if any(row.x0 <= mark_x + 1.0 for row in ordered[:starts[0]]):
        return 0  # the foot is a paragraph after the list, not the list
    count = 0
    for row in ordered[starts[0]:]:
        if MARK.match(row.text) and abs(row.x0 - mark_x) <= 1.0:
            count += 1
        elif row.x0 <= mark_x + 1.0:
            break  # the list's lead or heading, or what follows it
    return count


def split_lists(path: Path, most: int, pages: slice = slice(None)) -> list[tuple[str, str]]:
    """(the last item's first line before the break, the first line after it) for each list of at
    most `most` items that a column or page break runs through."""
    found, _ = columns(path, pages)
    found = [rows for rows in found if rows]
    split = []
    for before, after in zip(found, found[1:]):
        if not after or not MARK.match(after[0].text):
            continue  # the next column starts with something other than a list item
        tail = item_run(before, from_end=True)
        if tail == 0:
            continue
        head = item_run(after, from_end=False)
        if tail + head <= most:
            last = next(row.text for row in reversed(before) if MARK.match(row.text))
            split.append((last, after[0].text))
    return split
