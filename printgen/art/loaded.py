"""Art once it is loaded: what it is, its natural size, and how it is drawn (as a PDF form named
after its content, so art on a hundred tiles is stored once and output stays byte-identical).

pdfium resamples every bitmap each time it draws it, so in a PDF drawn only to be rasterised, art
much larger than the pixels it covers is drawn from a Lanczos copy at those pixels, made once for
the picture rather than by the rasteriser on every card. PDFs written to disk keep the art as given;
art inside a form (scale unknown) is left as it is.
"""
from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.graphics.shapes import DirectDraw

from printgen.drawing import fonts
from printgen.drawing.libadapter import (canvas_of, current_transform, draw_nested, form_resources, in_form,
                                          reader_pixels)
from printgen.drawing.numbers import num

RESAMPLE_FROM = 1.25  # larger by less than this: left to the rasteriser, as cheap either way
CACHED_BYTES = 64 * 1024 * 1024  # one art's resampled copies (a few sizes per deck)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Art:
    """One image file, loaded once: its kind, its natural size and what draws it."""

    path: Path
    kind: str  # "PNG", "JPEG" or "SVG"
    data: bytes = field(repr=False)
    digest: str
    natural: tuple[float, float]  # width, height in any unit; only the ratio matters
    drawing: Any = field(default=None, repr=False)  # the svglib Drawing for SVG art
    reader: Any = field(default=None, repr=False)  # the reportlab ImageReader for PNG and JPEG art
    warnings: tuple[str, ...] = ()  # what svglib leaves out of an SVG or said, as `file:line: warning: ...`
    elements: int = 0  # SVG elements drawn, <use> copies counted (printgen.art.measure)
    resampled: dict[tuple[int, int], Any] = field(default_factory=dict, repr=False, compare=False)  # resampled_reader's

    @property
    def form_name(self) -> str:
        return f"PGArt{self.digest[:16]}"

    def shape(self, x: float, y: float, w: float, h: float) -> "ArtShape":
        """A shape drawing the art as large as fits in the box (mm), proportions kept, centred."""
        nw, nh = self.natural
        scale = min(w / nw, h / nh)
        fw, fh = nw * scale, nh * scale
        return ArtShape(self, x + (w - fw) / 2, y + (h - fh) / 2, fw, fh)


class ArtShape(DirectDraw):
    """Draws art in a reportlab shape tree; printgen's SVG writer asks it for an element too."""

    def __init__(self, art: Art, x: float, y: float, width: float, height: float) -> None:
        self.art, self.x, self.y, self.width, self.height = art, x, y, width, height

    def getBounds(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.width, self.y + self.height)

    def copy(self) -> "ArtShape":
        return ArtShape(self.art, self.x, self.y, self.width, self.height)

    def getProperties(self) -> dict[str, Any]:
        """What decides the look; shape fingerprints read this, never the image bytes."""
        return {"art": self.art.digest, "x": self.x, "y": self.y, "width": self.width,
                "height": self.height}

    def drawDirectly(self, renderer: Any) -> None:
        """Define the art's form once per PDF, then place it; a PDF to be rasterised draws a large
        bitmap from a copy resampled to the pixels it covers."""
        canvas, art = canvas_of(renderer), self.art
        name = art.form_name
        if art.drawing is None and getattr(canvas, "raster_dpi", None):
            name = resampled_form(canvas, renderer, self) or name
        if not canvas.hasForm(name):
            define_form(canvas, art)
        sx, sy = (1.0, 1.0) if art.drawing is None else (art.drawing.width, art.drawing.height)
        canvas.saveState()
        canvas.transform(self.width / sx, 0, 0, self.height / sy, self.x, self.y)
        canvas.doForm(name)
        canvas.restoreState()

    def svg_element(self, writer: Any) -> Any:
        """A <use> of the art, which is stored once per SVG file in <defs> as a data URI."""
        import base64

        art, doc = self.art, writer.document
        ident = f"art-{art.digest[:12]}"
        if ident not in writer.art_ids:
            writer.art_ids.add(ident)
            mime = {"PNG": "image/png", "JPEG": "image/jpeg", "SVG": "image/svg+xml"}[art.kind]
            href = f"data:{mime};base64,{base64.b64encode(art.data).decode('ascii')}"
            doc.defs.add(doc.image(href=href, insert=(0, 0), size=(1, 1), id=ident,
                                   preserveAspectRatio="none"))
        # The writer's root is y-up; an image's first row must land at the top of the box.
        matrix = (self.width, 0, 0, -self.height, self.x, self.y + self.height)
        return doc.use(f"#{ident}", transform="matrix(" + " ".join(num(v) for v in matrix) + ")")


def define_form(canvas: Any, art: Art) -> None:
    """Store the art once in this PDF: a unit-square form for bitmaps, the drawing's own box for SVG."""
    if art.drawing is None:
        canvas.beginForm(art.form_name, 0, 0, 1, 1)
        canvas.drawImage(art.reader, 0, 0, 1, 1, mask="auto")
        canvas.endForm()
    else:
        canvas.beginForm(art.form_name, 0, 0, art.drawing.width, art.drawing.height)
        # renderPDF starts every drawing in its initial font: svglib leaves Helvetica there, which the
        # form would name (never embedded) though no glyph of the drawing uses it
        art.drawing.initialFontName = fonts.REGULAR
        draw_nested(art.drawing, canvas)  # we are inside the page's own renderPDF.draw
        canvas.endForm(Resources=form_resources(canvas))


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def resampled_form(canvas: Any, renderer: Any, shape: Any) -> str | None:
    """A form of `shape`'s bitmap resampled to the pixels it covers, or None to draw it as it is."""
    if in_form(canvas):  # inside a form, where the scale is unknown
        return None
    a, b, c, d, _, _ = current_transform(renderer)  # local units to points
    per_point = canvas.raster_dpi / 72
    covered = (math.ceil(shape.width * math.hypot(a, b) * per_point),
               math.ceil(shape.height * math.hypot(c, d) * per_point))
    if min(covered) < 1:
        return None
    art = shape.art
    width, height = (int(v) for v in art.natural)
    if width < RESAMPLE_FROM * covered[0] or height < RESAMPLE_FROM * covered[1]:
        return None
    name = f"{art.form_name}at{covered[0]}x{covered[1]}"
    if not canvas.hasForm(name):
        reader = resampled_reader(shape, covered)
        if reader is None:
            return None
        canvas.beginForm(name, 0, 0, 1, 1)
        canvas.drawImage(reader, 0, 0, 1, 1, mask="auto")
        canvas.endForm()
    return name


def resampled_reader(shape: Any, size: tuple[int, int]) -> Any:
    """The art at `size` pixels, cached; None for a JPEG neither RGB nor grey (CMYK could shift)."""
    from reportlab.lib.utils import ImageReader

    cache = shape.art.resampled
    found = cache.get(size)
    if found is None:
        image = decoded(shape.art)
        if image is None:
            return None
        if sum(4 * width * height for width, height in cache) + 4 * size[0] * size[1] > CACHED_BYTES:
            cache.clear()
        from PIL import Image

        found = cache[size] = ImageReader(image.resize(size, Image.Resampling.LANCZOS))
    return found


def decoded(art: Any) -> Any:
    """The reader's pixels, or a JPEG's decoded again (proven within budget when it was loaded)."""
    held = reader_pixels(art.reader)
    if art.kind != "JPEG" and held is not None:
        return held
    from PIL import Image

    image = Image.open(io.BytesIO(art.data))  # in memory: nothing to close but the image itself
    if image.mode not in ("RGB", "L"):
        return None
    image.load()
    return image
