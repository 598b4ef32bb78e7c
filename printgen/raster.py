"""PNG pictures of PDF pages (contact sheets, board snapshots), made by rasterising printgen's own PDF
so a PNG always shows exactly what prints. pypdfium2 and Pillow are imported only when a PNG is made.
"""
from __future__ import annotations

import io


def png_from_pdf(pdf: bytes, dpi: float, page: int = 0) -> bytes:
    """Render one page at `dpi` into PNG bytes (the same input gives the same bytes)."""
    import pypdfium2 as pdfium  # heavy; only PNG outputs need it

    document = pdfium.PdfDocument(pdf)
    try:
        bitmap = document[page].render(scale=dpi / 72, may_draw_forms=False)
        image = bitmap.to_pil().convert("RGB")
    finally:
        document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=9)
    return buffer.getvalue()
