"""CIE L*: how light a colour prints, on the scale a black-and-white printer or a colour-blind
player sees. Two colours that must be told apart need L* at least `MIN_DIFFERENCE` apart."""
from __future__ import annotations

MIN_DIFFERENCE = 25.0  # L* units; the print design rule for colours that carry meaning


def _linear(channel: float) -> float:
    """An sRGB channel (0..1) as linear light."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(hex_colour: str) -> float:
    """Relative luminance Y (0 black .. 1 white) of '#rrggbb'."""
    value = hex_colour.lstrip("#")
    r, g, b = (_linear(int(value[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def lightness(hex_colour: str) -> float:
    """L* (0 black .. 100 white) of '#rrggbb', for the D65 white of sRGB."""
    y = luminance(hex_colour)
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def ink(hex_colour: str) -> float:
    """Ink a fill lays down, 0 (paper) to 1 (black): rough, for comparing palettes."""
    return 1 - luminance(hex_colour)
