"""The PDF writer: reportlab's canvas in invariant mode, with embedded fonts and print preferences.
Shapes are in millimetres; one story of text flows through the frames of all pages in order, so
rules text moves from the front of a sheet to its back without the game knowing where it breaks.
"""
from __future__ import annotations

import io
from typing import Any, Iterable

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Group
from reportlab.pdfbase.pdfdoc import PDFArray, PDFBase85Encode, PDFName, PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from printgen.drawing import fonts
from printgen.drawing.document import Document, Page, TextOverflow
from printgen.drawing.libadapter import ascii85_now, binary_streams, last_page
from printgen.drawing.flow import pour_page
from printgen.core.paper import PT_PER_MM, Paper, pt

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", None: "Simplex"}


def write_pdf(doc: Document, raster_dpi: float | None = None) -> bytes:
    """The document as PDF bytes, its pages as laid out (printgen.layout.paging set a growing
    document's count before). `raster_dpi`: see render_pdf."""
    return render_pdf(doc, doc.pages_now(), doc.story, raster_dpi)


class PrintCanvas(Canvas):
    """reportlab's canvas, carrying what printgen's own shapes read while it draws them: the
    resolution a PDF drawn only to be rasterised gets (art.loaded), and this document's shared forms
    by content (output.reuse)."""

    def __init__(self, *args: Any, raster_dpi: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.raster_dpi = raster_dpi
        self.printgen_forms: dict[str, str] = {}


def render_pdf(doc: Document, pages: Iterable[Page], story: list[Flowable],
               raster_dpi: float | None = None) -> bytes:
    """Draw `pages` at the document's paper size and return the PDF bytes (nothing touches the
    disk here); `story` flows through their frames in order. `raster_dpi`: the PDF is only drawn
    to be rasterised at this resolution, so large bitmaps may be resampled (art.loaded)."""
    paper = doc.paper
    fonts.register()
    buffer = io.BytesIO()
    canvas = PrintCanvas(buffer, pagesize=(pt(paper.width), pt(paper.height)), invariant=1,
                         pageCompression=1, initialFontName=fonts.REGULAR, initialFontSize=10,
                         raster_dpi=raster_dpi)
    canvas.setTitle(doc.title)
    canvas.setSubject(doc.subject)
    canvas.setAuthor(doc.author)  # the game's designer (Loaded.build); printgen is the Creator
    canvas.setCreator("printgen")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX[doc.flip])
    remaining = list(story or [])
    carried = into_last = False  # the page before passed text on (to this page; to the last)
    for page in pages:
        # reportlab keeps a box for every later page, so each page sets (or clears) its own
        canvas.setTrimBox(page_box(page.trim_box, page.shift))
        canvas.setBleedBox(page_box(page.bleed_box, page.shift))
        canvas.saveState()
        canvas.translate(pt(page.shift[0]), pt(page.shift[1]))
        draw_shapes(canvas, page.shapes, paper)
        passed = pour_page(page, remaining, canvas, doc.breaks)  # what did not fit goes on
        canvas.restoreState()
        into_last, carried = carried, passed
        canvas.showPage()
        encode_page_now(canvas)
    if remaining:
        raise TextOverflow(remaining, into_last)
    with binary_streams():  # the forms are encoded as the file is saved
        canvas.save()
    return buffer.getvalue()


@binary_streams()
def encode_page_now(canvas: Canvas) -> None:
    """Compress the page just finished now, exactly as reportlab would when the PDF is saved (the
    same bytes), rather than hold its operators as text: some 20 KB a sheet of a large deck."""
    page = last_page(canvas)
    if page.Contents or not page.stream or page.Override_default_compilation:
        return
    stream = PDFStream()
    stream.__Comment__ = "page stream"
    content, names = page.stream, list[PDFName]()
    if page.compression:
        for encoding in reversed([PDFBase85Encode, PDFZCompress] if ascii85_now() else [PDFZCompress]):
            content = encoding.encode(content)
            names.insert(0, PDFName(encoding.pdfname))
        stream.dictionary["Filter"] = PDFArray(names)
    stream.content = content
    page.Contents, page.stream = stream, None


def page_box(box: tuple[float, float, float, float] | None,
             shift: tuple[float, float]) -> tuple[float, ...] | None:
    """A page box in points, moved with the page's content (a back offset moves the trim too)."""
    return None if box is None else tuple(pt(v + shift[i % 2]) for i, v in enumerate(box))


def draw_shapes(canvas: Canvas, shapes: list[Any], paper: Paper) -> None:
    if not shapes:
        return
    drawing = Drawing(pt(paper.width), pt(paper.height))
    drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise select Helvetica
    drawing.add(Group(*shapes, transform=(PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
    renderPDF.draw(drawing, canvas, 0, 0)
