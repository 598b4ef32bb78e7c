"""Bitmap art resampled once for a picture, rather than by the rasteriser on every card.

pdfium resamples every bitmap each time it draws it, so in a PDF drawn only to be rasterised, art
much larger than the pixels it covers is drawn from a Lanczos copy at those pixels. PDFs written to
disk keep the art as given; art inside a form (scale unknown) is left as it is.
"""
from __future__ import annotations

import io
import math
from typing import Any

RESAMPLE_FROM = 1.25  # larger by less than this: left to the rasteriser, as cheap either way
CACHED_BYTES = 64 * 1024 * 1024  # one art's resampled copies (a few sizes per deck)


def resampled_form(canvas: Any, renderer: Any, shape: Any) -> str | None:
    """A form of `shape`'s bitmap resampled to the pixels it covers, or None to draw it as it is."""
    if canvas._formData is not None:  # inside a form, where the scale is unknown
        return None
    a, b, c, d, _, _ = renderer._tracker.getState()["ctm"]  # local units to points
    per_point = canvas._printgen_raster_dpi / 72
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
    held = getattr(art.reader, "_image", None)
    if art.kind != "JPEG" and held is not None:
        return held
    from PIL import Image

    image = Image.open(io.BytesIO(art.data))  # in memory: nothing to close but the image itself
    if image.mode not in ("RGB", "L"):
        return None
    image.load()
    return image
