"""`printgen preview`: every page of every PDF a game builds, as PNGs.

The pictures come from rasterising the real PDFs (printgen.output.png), so a preview shows what will
print, not a second drawing that could disagree with it.
"""
from __future__ import annotations

from pathlib import PurePosixPath

from printgen.core.build import Artifact
from printgen.core.progress import progress
from printgen.output.png import page_count, page_pngs

SECONDS_PER_PAGE_AT_100_DPI = 0.08  # measured on A4 pages; time grows with the pixel count
FOLDER = "preview"


def preview_name(pdf_name: str, page: int, pages: int) -> str:
    """'omiga.pdf', page 3 of 12 -> 'preview/omiga-p03.png' (zero-padded, so names sort in order)."""
    stem = PurePosixPath(pdf_name).stem
    return f"{FOLDER}/{stem}-p{page:0{len(str(pages))}d}.png"


def previews(artifacts: list[Artifact], dpi: float) -> list[Artifact]:
    """A PNG per page of every PDF among `artifacts`, in build order."""
    pdfs = [a for a in artifacts if a.name.endswith(".pdf")]
    counts = [page_count(a.data) for a in pdfs]
    each = SECONDS_PER_PAGE_AT_100_DPI * (dpi / 100) ** 2
    out: list[Artifact] = []
    with progress(sum(counts), "Rendering previews", each) as bar:
        for pdf, pages in zip(pdfs, counts):
            for number, png in enumerate(page_pngs(pdf.data, dpi), start=1):
                out.append(Artifact(preview_name(pdf.name, number, pages), png))
                bar.update(1)
    return out
