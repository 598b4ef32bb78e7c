"""PNG and JPEG art: the pixel count its header states checked first, then every pixel decoded
once, so a damaged file is told now (Pillow's own limits guard the decode itself)."""
from __future__ import annotations

import io
import struct
import warnings
from pathlib import Path
from typing import Any

from printgen.art.loaded import Art, digest, first_line
from printgen.core.problems import display_name

MAX_PIXELS = 60_000_000  # a full A4 page at 600 dpi is 35 Mpx; refused before decoding, not after


def load_bitmap(path: Path, data: bytes, kind: str) -> Art:
    """Decode fully, so a truncated or mislabelled file is caught now, after checking the header."""
    from reportlab.lib.utils import ImageReader

    usable = readable_bitmap(display_name(path), data, kind)
    # reportlab copies JPEG data into the PDF as it is; other kinds go in as decoded pixels
    reader = ImageReader(io.BytesIO(data) if kind == "JPEG" else usable)
    return Art(path, kind, data, digest(data), (float(usable.size[0]), float(usable.size[1])),
               reader=reader)


def readable_bitmap(shown: str, data: bytes, kind: str) -> Any:
    """The decoded image (palette, 16-bit and other modes as RGBA), or ValueError saying why not;
    the header is checked before any pixel is decoded."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # refused below instead
            with Image.open(io.BytesIO(data)) as probe:
                if probe.format != kind:
                    raise ValueError(f"{shown} is named like a {kind} image but holds "
                                     f"{probe.format or 'other'} data; save it as {kind} or rename it")
                if probe.width * probe.height > MAX_PIXELS:
                    raise ValueError(f"{shown} is {probe.width} x {probe.height} pixels; art may have at "
                                     f"most {MAX_PIXELS // 1_000_000} million (300 dpi needs about 12 "
                                     f"pixels per mm)")
                probe.load()
                return probe.copy() if probe.mode in ("RGB", "RGBA", "L") else probe.convert("RGBA")
    except UnidentifiedImageError:
        raise ValueError(f"{shown} is not a readable {kind} image (damaged, or another format)")
    except Image.DecompressionBombError:
        raise ValueError(f"{shown} has far more pixels than art may have (at most "
                         f"{MAX_PIXELS // 1_000_000} million)")
    except (OSError, SyntaxError, struct.error) as exc:
        raise ValueError(f"{shown} is not a readable {kind} image ({first_line(exc)})")
