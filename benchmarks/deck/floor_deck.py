"""The floor for the deck benchmark: a bare reportlab script drawing the same cards as
make_deck.py's deck, four to an A4 sheet as printgen places them, with a page of backs after each, and nothing else: no
definition, no checks, no pictures per card.

    python benchmarks/deck/floor_deck.py FOLDER OUT.pdf
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

W, H = 63.5 * mm, 88.9 * mm
PAGE = (210 * mm, 297 * mm)


def face(c: Canvas, x: float, y: float, row: dict[str, str], folder: Path) -> None:
    c.setFillColorRGB(0.953, 0.937, 0.902)
    c.rect(x - 2 * mm, y - 2 * mm, W + 4 * mm, H + 4 * mm, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setStrokeColorRGB(0.25, 0.25, 0.25)
    c.roundRect(x + 3 * mm, y + H - 14 * mm, 57.5 * mm, 11 * mm, 2 * mm, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(x + 5 * mm, y + H - 10 * mm, row["title"])
    c.setFillColorRGB(0.25, 0.25, 0.25)
    c.circle(x + 53 * mm, y + H - 8.5 * mm, 5 * mm, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont("Helvetica-Bold", 14)
    c.drawCentredString(x + 53 * mm, y + H - 10 * mm, row["cost"])
    c.drawImage(str(folder / "art.png"), x + 11.75 * mm, y + H - 53 * mm, 40 * mm, 36 * mm)
    text = row["text"].replace(":gem:", "").strip()
    c.drawImage(str(folder / "icon.png"), x + 5 * mm, y + H - 62 * mm, 3.5 * mm, 3.5 * mm)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica", 10)
    for n, line in enumerate(simpleSplit(text, "Helvetica", 10, 49 * mm)):
        c.drawString(x + 9.5 * mm if n == 0 else x + 5 * mm, y + H - 62 * mm - n * 12, line)


def back(c: Canvas, x: float, y: float) -> None:
    c.setFillColorRGB(0.184, 0.243, 0.306)
    c.rect(x - 2 * mm, y - 2 * mm, W + 4 * mm, H + 4 * mm, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont("Helvetica-Bold", 14)
    c.drawCentredString(x + W / 2, y + H / 2, "Benchmark")


def main() -> None:
    folder, out = Path(sys.argv[1]), sys.argv[2]
    with open(folder / "cards.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    c = Canvas(out, pagesize=PAGE, invariant=1, pageCompression=1)
    # the sheets printgen makes of this deck: 2 x 2 cards 4 mm apart (2 mm bleed each), centred
    left, low = (PAGE[0] - 2 * W - 4 * mm) / 2, (PAGE[1] - 2 * H - 4 * mm) / 2
    slots = [(left + i * (W + 4 * mm), low + j * (H + 4 * mm)) for j in range(2) for i in range(2)]
    for start in range(0, len(rows), len(slots)):
        batch = rows[start:start + len(slots)]
        for row, (x, y) in zip(batch, slots):
            face(c, x, y, row, folder)
        c.showPage()
        for _, (x, y) in zip(batch, slots):
            back(c, PAGE[0] - x - W, y)
        c.showPage()
    c.save()


if __name__ == "__main__":
    main()
