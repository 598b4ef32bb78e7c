"""The PDF writer: reportlab's canvas in invariant mode, with embedded fonts and print preferences.

Pages carry shapes in millimetres (drawn by renderPDF under a mm->pt scale) and optional text
frames. One story of flowing text is poured through the frames of all pages in order, so rules text
moves from the front of a sheet to its back without the game code knowing where the break falls.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from reportlab.graphics.renderPDF import draw as render_drawing
from reportlab.graphics.shapes import Drawing, Group
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, PageBreak

from printgen.drawing import fonts
from printgen.core.paper import PT_PER_MM, Flip, Paper, pt

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", None: "Simplex"}


@dataclass
class Page:
    """One side of a sheet: millimetre shapes and the rectangles text may flow into."""

    shapes: list[Any] = field(default_factory=list)
    frames: list[tuple[float, float, float, float]] = field(default_factory=list)  # x, y, w, h mm
    trim_box: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1 mm, before `shift`
    bleed_box: tuple[float, float, float, float] | None = None
    shift: tuple[float, float] = (0.0, 0.0)  # mm; moves all content (a duplex back offset)


class TextOverflow(Exception):
    """The story did not fit in the frames it was given."""

    def __init__(self, leftover: list[Flowable]) -> None:
        self.leftover = leftover
        heading = next((f for f in leftover if getattr(f, "section", None)), None)
        where = f" (from section '{heading.section}')" if heading else ""
        super().__init__(f"{len(leftover)} block(s) of text did not fit on the pages{where}")


@dataclass
class PdfMeta:
    title: str
    subject: str = ""
    author: str = "printgen"
    flip: Flip | None = "long"


def render_pdf(pages: list[Page], paper: Paper, meta: PdfMeta,
               story: list[Flowable] | None = None) -> bytes:
    """Draw every page and return the PDF bytes (nothing touches the disk here)."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(pt(paper.width), pt(paper.height)), invariant=1,
                    pageCompression=1, initialFontName=fonts.REGULAR, initialFontSize=10)
    canvas.setTitle(meta.title)
    canvas.setSubject(meta.subject)
    canvas.setAuthor(meta.author)
    canvas.setCreator("printgen")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX[meta.flip])
    remaining = list(story or [])
    for page in pages:
        chunk, broke = take_until_page_break(remaining)
        # reportlab keeps a box for every later page, so each page sets (or clears) its own
        canvas.setTrimBox(page_box(page.trim_box, page.shift))
        canvas.setBleedBox(page_box(page.bleed_box, page.shift))
        canvas.saveState()
        canvas.translate(pt(page.shift[0]), pt(page.shift[1]))
        draw_shapes(canvas, page.shapes, paper)
        for x, y, w, h in page.frames:
            frame = Frame(pt(x), pt(y), pt(w), pt(h), leftPadding=0, rightPadding=0,
                          topPadding=0, bottomPadding=0, showBoundary=0)
            frame.addFromList(chunk, canvas)
        canvas.restoreState()
        if chunk:  # whatever did not fit goes on to the next page, still ahead of its page break
            remaining[:0] = chunk + ([PageBreak()] if broke else [])
        canvas.showPage()
    if remaining:
        raise TextOverflow(remaining)
    canvas.save()
    return buffer.getvalue()


def page_box(box: tuple[float, float, float, float] | None,
             shift: tuple[float, float]) -> tuple[float, ...] | None:
    """A page box in points, moved with the page's content (a back offset moves the trim too)."""
    if box is None:
        return None
    x0, y0, x1, y1 = box
    dx, dy = shift
    return tuple(pt(v) for v in (x0 + dx, y0 + dy, x1 + dx, y1 + dy))


def take_until_page_break(story: list[Flowable]) -> tuple[list[Flowable], bool]:
    """Remove and return the flowables before the next page break, and whether one was found."""
    for i, item in enumerate(story):
        if isinstance(item, PageBreak):
            chunk = story[:i]
            del story[:i + 1]
            return chunk, True
    chunk = story[:]
    story.clear()
    return chunk, False


def draw_shapes(canvas: Canvas, shapes: list[Any], paper: Paper) -> None:
    if not shapes:
        return
    drawing = Drawing(pt(paper.width), pt(paper.height))
    drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise select Helvetica
    root = Group(transform=(PT_PER_MM, 0, 0, PT_PER_MM, 0, 0))
    for shape in shapes:
        root.add(shape)
    drawing.add(root)
    render_drawing(drawing, canvas, 0, 0)
