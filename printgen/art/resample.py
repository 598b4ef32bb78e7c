"""Bitmap art resampled once for a picture, rather than by the rasteriser on every card.

A card's PNG is its PDF rasterised by pdfium, which resamples every bitmap it draws each time it
draws it, with a filter whose cost grows with the pixels read: a deck's art, made for print at
300 dpi and shown on 150 dpi pictures, was most of what a thousand pictures cost. In a PDF drawn
only to be rasterised, a bitmap at least RESAMPLE_FROM times larger than the pixels it will cover
is drawn instead from a copy resampled once, by Pillow's Lanczos filter (which averages every
pixel it drops, where a rasteriser samples), to those pixels. The PDFs printgen writes to disk
always hold the art as it was given.

Only art drawn straight onto a page is resampled: inside a form (a shape drawn once and placed
many times) the scale it will be placed at is not known, and the art is left as it is.
"""
from __future__ import annotations

import io
import math
from typing import Any

RESAMPLE_FROM = 1.25  # larger by less than this: left to the rasteriser, as cheap either way
CACHED_BYTES = 64 * 1024 * 1024  # the pixels of one art's resampled copies cached (it is drawn at a
# few sizes in a deck's pictures; a copy is at most the size of its card's picture)


def covered_pixels(canvas: Any, renderer: Any, shape: Any) -> tuple[int, int] | None:
    """The pixels `shape` covers when the page is rasterised at the canvas's dpi, or None where
    that is not known (inside a form)."""
    if canvas._formData is not None:
        return None
    a, b, c, d, _, _ = renderer._tracker.getState()["ctm"]  # local units to points
    per_point = canvas._printgen_raster_dpi / 72
    return (math.ceil(shape.width * math.hypot(a, b) * per_point),
            math.ceil(shape.height * math.hypot(c, d) * per_point))


def resampled_form(canvas: Any, renderer: Any, shape: Any) -> str | None:
    """The name of a form holding `shape`'s bitmap resampled to the pixels it covers (defined in
    this PDF on first use), or None to draw the art as it is."""
    covered = covered_pixels(canvas, renderer, shape)
    if covered is None or min(covered) < 1:
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
    """An ImageReader of the art at `size` pixels, made once for the art (`Art.resampled`); None
    for a JPEG whose colours are not RGB or grey (converting CMYK here could shift its colours)."""
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
    """The art's pixels: those its reader holds, or a JPEG's (already proven to decode within its
    budget when it was loaded: art.bitmap) decoded again."""
    held = getattr(art.reader, "_image", None)
    if art.kind != "JPEG" and held is not None:
        return held
    from PIL import Image

    image = Image.open(io.BytesIO(art.data))  # in memory: nothing to close but the image itself
    if image.mode not in ("RGB", "L"):
        return None
    image.load()
    return image
