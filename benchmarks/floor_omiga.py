"""The floor: the least work that prints Omiga's 72 tile faces, for printgen to be measured against.

Bare reportlab canvas calls, the tile data hard-coded as the 36 combinations each deck holds, no
YAML, no model, no checks, no backs, no cut marks, no rules page. The geometry is printgen's own
(42 mm tiles, 8 mm semicircles as 45-degree Bezier pieces, 4.5 mm bands with 24 x 3 mm forms, the
same grid on A4) and the tile numbers use the same embedded TrueType font, so the page carries the
same ink as printgen's face pages.

    python benchmarks/floor_omiga.py OUT.pdf
"""
from __future__ import annotations

import math
import sys
from itertools import product

import reportlab
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
PAPER = (210.0, 297.0)
W = H = 42.0
RADIUS, BAND, DEPTH, SPAN = 8.0, 4.5, 3.0, 24.0
COLUMNS, ROWS = 4, 6  # what fits inside printgen's 9.5 mm mark margins
FILLS = {"green": "#2f9e57", "pink": "#e4589b"}
DECKS = (("#ffffff", "#8f8f8f"), ("#202020", "#8f8f8f"))  # face, band (the number uses the band grey)
FORMS = ("diagonal", "tip", "notch")
TILES = list(product(FILLS, FILLS, FORMS, FORMS))  # left, right, top, bottom: 36 per deck


def profile(form: str) -> list[tuple[float, float]]:
    """The band's inner line along a top edge, as (x, push out of the band)."""
    a, b = (W - SPAN) / 2, (W + SPAN) / 2
    if form == "diagonal":
        return [(a, 0.0), (a, -DEPTH), (b, DEPTH), (b, 0.0)]
    return [(a, 0.0), (W / 2, DEPTH if form == "tip" else -DEPTH), (b, 0.0)]


def band(c: Canvas, form: str) -> None:
    """The top band; the caller turns the canvas for a bottom one."""
    p = c.beginPath()
    p.moveTo(0, H)
    p.lineTo(W, H)
    p.lineTo(W, H - BAND)
    for x, push in reversed(profile(form)):
        p.lineTo(x, H - BAND + push)
    p.lineTo(0, H - BAND)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def semicircle(c: Canvas, cx: float, facing: float) -> None:
    """Four 45-degree Bezier pieces, as printgen draws them."""
    k = 4 / 3 * math.tan(math.radians(45) / 4)
    a = math.radians(facing - 90)
    p = c.beginPath()
    p.moveTo(cx + RADIUS * math.cos(a), H / 2 + RADIUS * math.sin(a))
    for _ in range(4):
        b = a + math.radians(45)
        x0, y0, x3, y3 = math.cos(a), math.sin(a), math.cos(b), math.sin(b)
        p.curveTo(cx + RADIUS * (x0 - k * y0), H / 2 + RADIUS * (y0 + k * x0),
                  cx + RADIUS * (x3 + k * y3), H / 2 + RADIUS * (y3 - k * x3),
                  cx + RADIUS * x3, H / 2 + RADIUS * y3)
        a = b
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def tile(c: Canvas, deck: int, number: int, left: str, right: str, top: str, bottom: str) -> None:
    face, grey = DECKS[deck]
    c.setFillColor(HexColor(face))
    c.rect(0, 0, W, H, stroke=0, fill=1)
    c.setFillColor(HexColor(grey))
    band(c, top)
    c.saveState()
    c.translate(W, H)
    c.rotate(180)
    band(c, bottom)
    c.restoreState()
    for cx, facing, name in ((0.0, 0.0, left), (W, 180.0, right)):
        c.setFillColor(HexColor(FILLS[name]))
        semicircle(c, cx, facing)
    c.setFillColor(HexColor(grey))
    c.setFont("VeraBd", 5 / MM)
    c.drawString(1.6, BAND + 1.2, str(number))


def main(out: str) -> None:
    pdfmetrics.registerFont(TTFont("VeraBd", f"{reportlab.__path__[0]}/fonts/VeraBd.ttf"))
    c = Canvas(out, pagesize=(PAPER[0] * MM, PAPER[1] * MM), invariant=1, pageCompression=1)
    x0, y0 = (PAPER[0] - COLUMNS * W) / 2, (PAPER[1] - ROWS * H) / 2
    faces = [(d, i + 1, *t) for d in (0, 1) for i, t in enumerate(TILES)]
    per_page = COLUMNS * ROWS
    for first in range(0, len(faces), per_page):
        c.scale(MM, MM)
        for slot, face in enumerate(faces[first:first + per_page]):
            row, column = divmod(slot, COLUMNS)
            c.saveState()
            c.translate(x0 + column * W, y0 + (ROWS - 1 - row) * H)
            tile(c, *face)
            c.restoreState()
        c.showPage()
    c.save()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "floor_omiga.pdf")
