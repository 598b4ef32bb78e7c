"""Many one-page pictures of one size (a deck's cards) drawn as the pages of one PDF, then rasterised
page by page with pypdfium2 and written as PNG by Pillow: one PDF for fifty cards stores the art and
fonts they share once, and each card, on a page of its own size, has exactly the pixels it has drawn
alone. The same pages side by side in one picture make `sheet_png` (TTS).
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from printgen.core.paper import MM_PER_PT, Paper, pt
from printgen.core.staging import Held
from printgen.drawing.document import Document, Page

CELLS_PER_PAGE = 50  # pictures in one PDF, which is also one job for a core: its shared art decoded once a job
MAX_PAGE_PT = 14400.0  # the largest page PDF readers are asked to accept (200 inches)
PNG_LEVEL = 3  # zlib: 1 is hardly quicker and 5 % larger; 6 is 10 % smaller and twice as slow


@dataclass(frozen=True)
class Cells:
    """How many pictures one job draws: `columns` x `rows` of them (as if in a grid, which a TTS
    sheet is), each card `width` x `height` mm, rendered at `dpi`."""

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
        """The grid's size, two cards apart, rounded up to whole points (within what readers accept)."""
        return Paper("cells", math.ceil(pt(2 * self.width * self.columns)) * MM_PER_PT,
                     math.ceil(pt(2 * self.height * self.rows)) * MM_PER_PT)

    @property
    def card_paper(self) -> Paper:
        """The page each picture is drawn on: the card's own size."""
        return Paper("card", self.width, self.height)


def cell_pages(docs: Iterable[Document], cells: Cells) -> Iterator[Page]:
    """Each document's first page (no page: a blank picture, in its turn), for pages of the card's size."""
    del cells  # every page is the card's own size
    for doc in docs:
        yield next(islice(doc.pages_now(), 1), Page())


def png_of(image: Any) -> bytes:
    """PNG bytes of a Pillow image (8-bit RGB), at a quick compression level."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


def rendered(page: Any, scale: float) -> Any:
    """One pypdfium2 page as an RGB Pillow image at `scale` pixels a point (drawn in RGB order, so
    Pillow takes pdfium's pixels as they are)."""
    image = page.render(scale=scale, may_draw_forms=False, rev_byteorder=True).to_pil()
    return image if image.mode == "RGB" else image.convert("RGB")


def sheet_png(pdf: bytes, columns: int, rows: int, px: tuple[int, int]) -> bytes:
    """The pages of `pdf` side by side, left to right, top row first, each exactly `px` pixels, in one
    PNG (a Tabletop Simulator sheet). A page is rendered at the scale that gives it `px[0]` pixels
    across; where that scale does not give `px[1]` down (the card's height rounds the other way),
    the picture is resized by that one pixel."""
    import pypdfium2 as pdfium
    from PIL import Image

    width, height = px
    sheet = Image.new("RGB", (columns * width, rows * height), "white")
    document = pdfium.PdfDocument(pdf)
    try:
        for index in range(min(len(document), columns * rows)):
            page = document[index]
            image = rendered(page, (width - 1e-6) / page.get_width())
            page.close()
            if image.size != px:
                image = image.resize(px, Image.Resampling.LANCZOS)
            row, column = divmod(index, columns)
            sheet.paste(image, (column * width, row * height))
        return png_of(sheet)
    finally:
        document.close()


def rasterise_cells(pdf: bytes, cells: Cells, count: int, store: Callable[[bytes], Held]) -> list[Held]:
    """The first `count` pages as PNG bytes at `cells.dpi`, each handed to `store` once made."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        pictures = []
        for index in range(count):
            page = document[index]
            pictures.append(store(png_of(rendered(page, cells.dpi / 72))))
            page.close()
        return pictures
    finally:
        document.close()
