"""PNG pictures of printgen's own PDF pages, so a PNG shows exactly what prints (pypdfium2, Pillow).
"""
from __future__ import annotations

import io
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable, Iterator

from printgen.core.staging import Held, in_memory
from printgen.drawing.document import Document
from printgen.output.pdf import render_pdf, write_pdf

if TYPE_CHECKING:
    from printgen.output.cellpages import Cells


def write_png(doc: Document) -> bytes:
    """The document's first page, drawn as PDF and rasterised at its `dpi`."""
    return png_from_pdf(write_pdf(doc, raster_dpi=doc.dpi), doc.dpi)


def write_pngs(docs: list[Document]) -> list[bytes]:
    """`write_pngs_stored` with every PNG held in memory."""
    return [png for png in write_pngs_stored(docs, in_memory) if isinstance(png, bytes)]


def write_pngs_stored(docs: list[Document], store: Callable[[bytes], Held]) -> list[Held]:
    """Many one-page pictures of one size and resolution (a deck's cards), a page of cells to a job
    on every core, each PNG handed to `store` where it is made."""
    from printgen.core.parallel import on_cores
    from printgen.output.cellpages import Cells

    cells = Cells.of(docs[0].paper.width, docs[0].paper.height, docs[0].dpi, len(docs))
    jobs = [partial(pictures, docs[start:start + cells.per_page], cells, store)
            for start in range(0, len(docs), cells.per_page)]
    return [png for run in on_cores(jobs, kind=list[Held]) for png in run]


def pictures(docs: list[Document], cells: Cells, store: Callable[[bytes], Held],
             before: Callable[[int], object] = lambda index: None) -> list[Held]:
    """A job's pictures (at most `cells.per_page`) as PNGs, drawn as the pages of one PDF so art and
    fonts they share are stored once (printgen.output.cellpages), each with the pixels its own
    document would have. `before(i)` runs just before docs[i] is drawn (a caller writes there what is drawn from
    the same shapes, while they are kept)."""
    from printgen.output.cellpages import cell_pages, rasterise_cells

    def each() -> Iterator[Document]:
        for index, doc in enumerate(docs):
            before(index)
            yield doc

    pdf = render_pdf(replace(docs[0], paper=cells.card_paper), cell_pages(each(), cells), [], raster_dpi=cells.dpi)
    return rasterise_cells(pdf, cells, len(docs), store)


def png_from_pdf(pdf: bytes, dpi: float, page: int = 0) -> bytes:
    """Render one page at `dpi` into PNG bytes (the same input gives the same bytes)."""
    return next(page_pngs(pdf, dpi, pages=range(page, page + 1)))


def page_pngs(pdf: bytes, dpi: float, compress_level: int = 3, pages: range | None = None) -> Iterator[bytes]:
    """Every page of `pdf` (or those in `pages`) as PNG bytes, one at a time (previews of many pages
    stay small in memory). zlib's level 3, as for a deck's card pictures (output.cellpages): Omiga's
    contact sheet takes 35 ms at it, 53 ms at level 6 for 12 % fewer bytes, the pixels the same."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for index in pages if pages is not None else range(len(document)):
            image = document[index].render(scale=dpi / 72, may_draw_forms=False).to_pil().convert("RGB")
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", compress_level=compress_level)
            yield buffer.getvalue()
    finally:
        document.close()


def page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()
