"""A user's TrueType font: its tables measured (art.measure), then read and registered under a name
taken from its bytes alone, so two builds embed it the same way."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printgen.art.loaded import first_line
from printgen.art.measure import measure_font
from printgen.drawing.fonts import USER_FAMILIES


def register_user_font(path: Path, data: bytes) -> str:
    """Register a user's TrueType font under a name taken from its content; ValueError if unusable."""
    digest = hashlib.sha256(data).hexdigest()
    name = f"PG-User-{digest[:12]}"
    if name not in USER_FAMILIES:
        measure_font(path, data)  # tables and character maps, before any reader walks them
        try:
            font = TTFont(name, io.BytesIO(data), asciiReadable=False)  # subsets as for Vera
            font.face.makeSubset(list(range(32, 127)))  # a font that cannot be subset fails here, not in a PDF
        except (MemoryError, RecursionError):
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged font fails in many ways; say so, located
            raise ValueError(f"{path.name} is not a TrueType font printgen can embed ({first_line(exc)})")
        pdfmetrics.registerFont(font)
        family = getattr(font.face, "familyName", b"") or b""
        family = family.decode("latin-1") if isinstance(family, bytes) else str(family)
        # the name goes into SVG as CSS: control characters would break the XML, quotes the CSS
        family = "".join(c for c in family if c.isprintable() and c not in "'\"\\;<>&")
        USER_FAMILIES[name] = family or "".join(c for c in path.stem if c.isalnum()) or "user font"
    return name

