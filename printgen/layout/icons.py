"""A text's icon as a small PNG picture: reportlab's paragraphs take inline pictures only as image
files, so an icon drawn from shapes is rasterised once here, in the layout step, and a game that
sets icons in its text never calls a writer itself."""
from __future__ import annotations

from typing import Any

from printgen.core.paper import Paper
from printgen.drawing.document import Document, Page
from printgen.output.png import write_png


def icon_png(shape: Any, width: float, height: float, name: str, dpi: float) -> bytes:
    """The shape, drawn at (0, 0) to width x height mm, as a PNG of that size at `dpi`."""
    return write_png(Document("icon.png", Paper("icon", width, height), [Page([shape])], name, dpi=dpi))
