"""Write deck.csv: Omiga's 72 tiles as rows for decksmith, so the peer draws what printgen draws.

decksmith places every element in whole pixels from one YAML layout (deck.yaml) and one CSV row per
card, so the geometry that printgen computes from the definition is computed here once, at 300 dpi:
the two band outlines (each form padded to the same number of points, since a layout has a fixed
point count), the semicircle colours and the deck's face colour. A full circle centred on a tile
edge stands in for each semicircle: the card's own edge clips it to a half.

    python benchmarks/decksmith/make_deck.py   # rewrites benchmarks/decksmith/deck.csv
"""
from __future__ import annotations

import csv
from itertools import product
from pathlib import Path

DPI = 300
PX = DPI / 25.4  # pixels per mm
W = round(42 * PX)
BAND, DEPTH, SPAN = 4.5 * PX, 3 * PX, 24 * PX
FILLS = {"green": (0x2F, 0x9E, 0x57), "pink": (0xE4, 0x58, 0x9B)}
FACES = ((0xFF, 0xFF, 0xFF), (0x20, 0x20, 0x20))  # white deck, black deck
FORMS = ("diagonal", "tip", "notch")
POINTS = 8


def inner(form: str) -> list[tuple[float, float]]:
    """The band's inner line on a top edge as (x, push towards the edge), always four points."""
    a, b = (W - SPAN) / 2, (W + SPAN) / 2
    if form == "diagonal":
        return [(a, 0.0), (a, -DEPTH), (b, DEPTH), (b, 0.0)]
    tip = DEPTH if form == "tip" else -DEPTH
    return [(a, 0.0), (W / 2, tip), (W / 2, tip), (b, 0.0)]


def top_band(form: str) -> list[tuple[int, int]]:
    """The top band outline in image pixels (y down)."""
    line = [(x, BAND - push) for x, push in reversed(inner(form))]
    points = [(0, 0), (W, 0), (W, BAND)] + line + [(0, BAND)]
    return [(round(x), round(y)) for x, y in points]


def bottom_band(form: str) -> list[tuple[int, int]]:
    """The bottom band: the top band turned 180 degrees about the tile's centre."""
    return [(W - x, W - y) for x, y in top_band(form)]


def row(deck: int, number: int, left: str, right: str, top: str, bottom: str) -> dict[str, int]:
    values = {"number": number}
    values.update(zip(("face_r", "face_g", "face_b"), FACES[deck]))
    values.update(zip(("left_r", "left_g", "left_b"), FILLS[left]))
    values.update(zip(("right_r", "right_g", "right_b"), FILLS[right]))
    for prefix, points in (("t", top_band(top)), ("b", bottom_band(bottom))):
        for i, (x, y) in enumerate(points, start=1):
            values[f"{prefix}{i}x"], values[f"{prefix}{i}y"] = x, y
        # decksmith puts a polygon's bounding box at `position`: keep the drawn points where they are
        values[f"{prefix}x"] = min(x for x, _ in points)
        values[f"{prefix}y"] = min(y for _, y in points)
    return values


def main() -> None:
    tiles = list(product(FILLS, FILLS, FORMS, FORMS))
    rows = [row(d, i + 1, *t) for d in (0, 1) for i, t in enumerate(tiles)]
    with open(Path(__file__).with_name("deck.csv"), "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), delimiter=";", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
