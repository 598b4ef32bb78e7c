"""Numbers written into files: short and deterministic, the same text for the same value."""
from __future__ import annotations


def num(value: float) -> str:
    """Short, deterministic number formatting (0.1 micrometre is far below print resolution)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
