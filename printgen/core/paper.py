"""Paper sizes and unit conversion. All of printgen's geometry is in millimetres."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PT_PER_MM = 72 / 25.4
MM_PER_PT = 25.4 / 72
SAFE_MARGIN_MM = 5.0  # home printers cannot print the outer 4-6 mm
MAX_BLEED_MM = 6.0  # print shops ask for 3 mm, 1/8 inch or 5 mm

Flip = Literal["long", "short"]


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float

    @property
    def diagonal(self) -> float:
        return (self.width ** 2 + self.height ** 2) ** 0.5


PAPERS: dict[str, Paper] = {  # what every game is laid out for: a home printer's paper
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("US Letter", 215.9, 279.4),
}
# every paper a definition can name; the larger ones only for games that say so (Game.papers)
SHEET_PAPERS: dict[str, Paper] = {**PAPERS, "a3": Paper("A3", 297.0, 420.0),
                                  "tabloid": Paper("Tabloid", 279.4, 431.8)}


def pt(size_mm: float) -> float:
    return size_mm * PT_PER_MM


def font_mm(size_pt: float) -> float:
    return size_pt * MM_PER_PT
