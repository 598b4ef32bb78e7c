"""Many one-page pictures of one size (a deck's cards) drawn as the cells of one large PDF page, then
rasterised cell by cell: pdfium starts afresh on every page (parsing it, its fonts, its images),
which fifty cards to a page share. Each cell is rendered through a matrix that puts it on a whole
pixel at the scale of a page of the card's own size, clipped to its own rectangle a card apart from
the next, so each picture is the card drawn alone (float rounding at a larger offset turns a few
anti-aliased edge values by one level). The same cells in one picture make `sheet_png` (TTS).
"""
from __future__ import annotations

import ctypes
import math
import struct
import zlib
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from reportlab.graphics.shapes import _CLOSEPATH, _LINETO, _MOVETO, Group, Path
from reportlab.lib.rl_accel import fp_str

from printgen.core.paper import MM_PER_PT, Paper, pt
from printgen.core.spool import Held
from printgen.drawing.document import Document, Page

CELLS_PER_PAGE = 50  # a page is also one job for a core: its shared art decoded once a job
MAX_PAGE_PT = 14400.0  # the largest page PDF readers are asked to accept (200 inches)
PNG_LEVEL = 3  # zlib: 1 is hardly quicker and 5 % larger; 6 is 10 % smaller and twice as slow


@dataclass(frozen=True)
class Cells:
    """Where each picture lies: `columns` x `rows` cells a page, each card `width` x `height` mm,
    cells two cards apart (a card's width of blank between two), rendered at `dpi`."""

    width: float
    height: float
    dpi: float
    columns: int
    rows: int

    @classmethod
    def of(cls, width: float, height: float, dpi: float, count: int) -> "Cells":
        most_across = max(1, int(MAX_PAGE_PT // (2 * pt(width))))
        most_down = max(1, int(MAX_PAGE_PT // (2 * pt(height))))
        wanted = max(1, min(count, CELLS_PER_PAGE))
        columns = min(most_across, math.ceil(math.sqrt(wanted)))
        rows = min(most_down, math.ceil(wanted / columns))
        return cls(width, height, dpi, columns, rows)

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def paper(self) -> Paper:
        """The page: the cells, rounded up to whole points (pdfium places a page rendered through a
        matrix by its size in whole points)."""
        return Paper("cells", math.ceil(pt(2 * self.width * self.columns)) * MM_PER_PT,
                     math.ceil(pt(2 * self.height * self.rows)) * MM_PER_PT)

    @property
    def pixels(self) -> tuple[int, int]:
        """A picture's size in pixels: as pypdfium2 renders a page of the card's own size, whose width
        pdfium reads as a 32-bit float from the digits reportlab writes."""
        scale = self.dpi / 72
        return math.ceil(as_read(pt(self.width)) * scale), math.ceil(as_read(pt(self.height)) * scale)

    def origin(self, cell: int) -> tuple[float, float]:
        """The card's lower left corner on its page, in mm: the first cell at the top left, each card
        at the top left of a slot twice its size."""
        column, row = cell % self.columns, cell // self.columns
        return 2 * self.width * column, 2 * self.height * (self.rows - row) - self.height


def as_read(points: float) -> float:
    """A page size in points as pdfium reads it from a PDF reportlab wrote."""
    return float(struct.unpack("f", struct.pack("f", float(fp_str(points))))[0])


def cell_pages(docs: Iterable[Document], cells: Cells) -> Iterator[Page]:
    """Each document's first page in the next cell, clipped to the card, `per_page` cells a page."""
    page = Page()
    for doc in docs:
        if len(page.shapes) == cells.per_page:
            yield page
            page = Page()
        first = next(islice(doc.pages_now(), 1), Page())  # no page: a blank picture, in its turn
        page.shapes.append(in_cell(first, cells, len(page.shapes)))
    if page.shapes:
        yield page


def in_cell(page: Page, cells: Cells, cell: int) -> Group:
    x, y = cells.origin(cell)
    corners = [0, 0, cells.width, 0, cells.width, cells.height, 0, cells.height]
    edge = Path(corners, [_MOVETO, _LINETO, _LINETO, _LINETO, _CLOSEPATH], isClipPath=1, strokeColor=None,
                fillColor=None)
    content = Group(*page.shapes, transform=(1, 0, 0, 1, *page.shift))
    return Group(edge, content, transform=(1, 0, 0, 1, x, y))


class RowBitmap:
    """A pdfium bitmap drawn straight into RGB rows laid out as PNG stores them (one filter byte, 0,
    before each row), so the rows are compressed where they lie, with no copy."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.row = 3 * width + 1
        self.rows = (ctypes.c_ubyte * (self.row * height))()
        self.view = memoryview(self.rows).cast("B")
        self.handle = self.part(0, 0, width, height)

    def part(self, left: int, top: int, width: int, height: int) -> Any:
        """A pdfium bitmap of the `width` x `height` pixels from (`left`, `top`), sharing these rows."""
        import pypdfium2.raw as pdfium_c

        return pdfium_c.FPDFBitmap_CreateEx(width, height, pdfium_c.FPDFBitmap_BGR,
                                            ctypes.addressof(self.rows) + 1 + top * self.row + 3 * left, self.row)

    def draw(self, page: Any, matrix: Any) -> bytes:
        """The page drawn through `matrix` on white, clipped to the bitmap, as PNG bytes."""
        self.fill_white()
        render(self.handle, page, matrix, self.width, self.height)
        return self.png()

    def fill_white(self) -> None:
        import pypdfium2.raw as pdfium_c

        pdfium_c.FPDFBitmap_FillRect(self.handle, 0, 0, self.width, self.height, 0xFFFFFFFF)

    def png(self) -> bytes:
        self.view[0::self.row] = bytes(self.height)  # every row unfiltered, whatever was drawn
        return png_of_rows(self.view, self.width, self.height)

    def close(self) -> None:
        import pypdfium2.raw as pdfium_c

        pdfium_c.FPDFBitmap_Destroy(self.handle)


def render(bitmap: Any, page: Any, matrix: Any, width: int, height: int) -> None:
    """pdfium draws `page` through `matrix` into `bitmap` (`width` x `height`), clipped to it."""
    import pypdfium2.raw as pdfium_c

    flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER  # as pypdfium2 renders, in RGB order
    clip = pdfium_c.FS_RECTF(0, 0, width, height)
    pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap, page, ctypes.byref(matrix), ctypes.byref(clip), flags)


def sheet_png(pdf: bytes, cells: Cells, px: tuple[int, int]) -> bytes:
    """The cells of the first page of `pdf` side by side in one PNG, each exactly `px` pixels (a
    Tabletop Simulator sheet), each drawn into its own part of the rows, clipped to it: drawn side
    by side, float rounding put a card's edge a hair past a pixel, into the card above."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    width, height = px
    bitmap = RowBitmap(cells.columns * width, cells.rows * height)
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        bitmap.fill_white()
        for cell in range(cells.per_page):
            row, column = divmod(cell, cells.columns)
            matrix = cell_matrix(cells, cell, page.get_width(), page.get_height(), px)
            part = bitmap.part(column * width, row * height, width, height)
            try:
                render(part, page, matrix, width, height)
            finally:
                pdfium_c.FPDFBitmap_Destroy(part)
        page.close()
        return bitmap.png()
    finally:
        document.close()
        bitmap.close()


def rasterise_cells(pdf: bytes, cells: Cells, count: int, store: Callable[[bytes], Held]) -> list[Held]:
    """The first `count` cells of the first page as PNG bytes, each handed to `store` once made."""
    import pypdfium2 as pdfium

    bitmap = RowBitmap(*cells.pixels)
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        pictures = [store(bitmap.draw(page, cell_matrix(cells, cell, page.get_width(), page.get_height())))
                    for cell in range(count)]
        page.close()
        return pictures
    finally:
        document.close()
        bitmap.close()


def cell_matrix(cells: Cells, cell: int, page_width: float, page_height: float,
                pixels: tuple[int, int] | None = None) -> Any:
    """What pdfium applies after its own page matrix (the page, top down, fitted to its size in whole
    points) so that the cell fills a bitmap of `pixels` (the card's own, `cells.pixels`, unless
    given) at the scale a page of the card's own size gets."""
    import pypdfium2.raw as pdfium_c

    width, height = pixels or cells.pixels
    scale_x, scale_y = width / as_read(pt(cells.width)), height / as_read(pt(cells.height))
    x, y = cells.origin(cell)
    left, top = pt(x), pt(y + cells.height)
    fit_x, fit_y = int(page_width) / page_width, int(page_height) / page_height
    return pdfium_c.FS_MATRIX(scale_x / fit_x, 0, 0, scale_y / fit_y, -scale_x * left,
                              scale_y * top - scale_y / fit_y * int(page_height))


def png_of_rows(rows: memoryview | bytes, width: int, height: int) -> bytes:
    """A PNG of 8-bit RGB `rows`, each led by its filter byte, stored unfiltered: Pillow's trying all
    five filters a row took most of its time and made cards of flat colour and text larger."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL))
            + png_chunk(b"IEND", b""))


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
