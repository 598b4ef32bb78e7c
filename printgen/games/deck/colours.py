"""Colours a designer writes: a CSS name ('teal'), #rgb, #rrggbb, or #rgba and #rrggbbaa with transparency.

The names are the CSS named colours, as Pillow's ImageColor lists them; transparency and an
element's `opacity` become the colour's alpha, which the PDF writes as a real ExtGState alpha and
the SVG as fill-opacity and stroke-opacity."""
from __future__ import annotations

import difflib
import re
from typing import Any

from PIL import ImageColor
from reportlab.lib.colors import Color

from printgen.jinja.values import is_template

HEX = re.compile(r"#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")
WRITTEN = ("a CSS colour name such as 'teal', or #rgb, #rrggbb, #rgba or #rrggbbaa ('#1f5f99', or "
           "'#1f5f9980' half see-through), or 'none'")


def colour(text: str, opacity: float = 1.0) -> Color | None:
    """The colour `text` names (None for 'none' or nothing), its alpha times `opacity`;
    ValueError says what a colour looks like and the nearest name."""
    text = text.strip()
    if text.lower() in ("", "none"):
        return None
    hex_text = named(text.lower()) or text
    if not HEX.fullmatch(hex_text):
        raise ValueError(not_a_colour(text))
    digits = hex_text[1:]
    if len(digits) in (3, 4):
        digits = "".join(d * 2 for d in digits)
    red, green, blue = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    alpha = int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
    return Color(red, green, blue, alpha * opacity)


def named(name: str) -> str | None:
    """The #rrggbb of a CSS colour name, None for any other text. Pillow's table holds '#rrggbb'
    until its own getrgb() has read a name, and the (r, g, b) it found from then on."""
    found = ImageColor.colormap.get(name)
    if isinstance(found, tuple):
        return "#" + "".join(f"{channel:02x}" for channel in found[:3])
    return found if isinstance(found, str) else None


def not_a_colour(text: str) -> str:
    nearest = difflib.get_close_matches(text.lower(), list(ImageColor.colormap), n=1, cutoff=0.75)
    hint = f"; did you mean '{nearest[0]}'?" if nearest else ""
    shown = text if len(text) <= 40 else text[:37] + "..."
    return f"expected a colour: {WRITTEN} (got {shown!r}){hint}"


def literal_colour(value: Any) -> Any:
    """A pydantic after-validator: a colour written in the definition is checked as it is read;
    a Jinja expression is checked for each row as it is drawn."""
    if isinstance(value, str) and not is_template(value):
        colour(value)
    return value


def opacity(value: Any) -> float:
    """An opacity written as 0.5 or '50%'; ValueError in words when it is neither, or outside 0-1."""
    text = str(value).strip()
    try:
        found = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise ValueError(opacity_outside(value)) from None
    if not 0 <= found <= 1:
        raise ValueError(opacity_outside(value))
    return found


def opacity_outside(value: Any) -> str:
    shown = value if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else value
    return f"expected an opacity from 0 (not drawn) to 1 (solid), such as 0.5 or '50%' (got {str(shown)[:40]!r})"


def literal_opacity(value: Any) -> Any:
    """A pydantic before-validator: '50%' is 0.5; a Jinja expression is read for each row."""
    if isinstance(value, str) and not is_template(value):
        return opacity(value)
    return value
