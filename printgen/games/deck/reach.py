"""How far a deck's numbers may reach: every coordinate and length a card draws, wherever it comes
from (the YAML, a CSV or TSV cell, a workbook cell, a rendered template, a path's or a clip's `d`),
is checked here before reportlab sees it, since the PDF writer cannot write infinity or 1e300."""
from __future__ import annotations

LIMIT = 1000.0  # mm either side of a card's corner: no card is anywhere near this


def out_of_reach(value: float, limit: float = LIMIT) -> bool:
    """True for infinity, NaN and anything further than `limit` from 0."""
    return not -limit <= value <= limit
