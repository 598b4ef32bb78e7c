"""The sample deck draws a picture of its own for every potion (`src: "potions/{{ title ... }}.svg"`),
and tells each kind by a symbol beside its name as well as by its colour (the :fire: icon and
friends in the kind line); the rare potions carry a star, and the sheets say how to cut. Measured on
the card PNGs and the sheets the build writes."""
from __future__ import annotations

import csv

import numpy as np
import pdfplumber
from PIL import Image

from test_deck import build

DPI = 150
FRAME = (11.75, 16.0, 40.0, 38.0)  # mm: the sample's image element (x, y, width, height)
KIND_LINE = (5.0, 80.5, 8.0, 5.0)  # mm: the kind's symbol, at the start of the kind line


def region(png, box) -> np.ndarray:
    """A box of the card, its background (taken from the box's corner) made white."""
    x, y, w, h = (round(v / 25.4 * DPI) for v in box)
    with Image.open(png) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=float)[y:y + h, x:x + w]
    rgb[np.abs(rgb - rgb[1, 1]).sum(axis=2) <= 60] = 255
    return rgb


def inked(picture: np.ndarray) -> np.ndarray:
    return (picture < 255).any(axis=2)


def alike(a: np.ndarray, b: np.ndarray) -> float:
    """Of the pixels either picture draws on, the share both draw in much the same colour."""
    union = inked(a) | inked(b)
    same = np.abs(a - b).sum(axis=2) <= 60
    return float((same & union).sum() / max(1, union.sum()))


def rows(deck):
    with open(deck.parent / "cards.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_every_potion_has_a_picture_of_its_own(run_cli, deck, tmp_path):
    folder = build(run_cli, deck, tmp_path / "out", "--png")
    names = {r["title"]: r["title"].lower().replace(" ", "-") for r in rows(deck)}
    assert len(names) == 8 and all((deck.parent / "potions" / f"{n}.svg").is_file() for n in names.values())
    shapes = {title: region(folder / "png" / f"{name}.png", FRAME) for title, name in names.items()}
    for title, shape in shapes.items():
        assert 0.08 < inked(shape).mean() < 0.6, (title, inked(shape).mean())  # a picture, not an empty or filled frame
    titles = list(shapes)
    for i, a in enumerate(titles):
        for b in titles[i + 1:]:  # Ember Tonic no longer looks like Cinder Brew, nor Frost Draught like Glass Mist
            assert alike(shapes[a], shapes[b]) < 0.35, (a, b, alike(shapes[a], shapes[b]))


def test_each_kind_has_a_symbol_and_the_rare_potions_a_star(run_cli, deck, tmp_path):
    folder = build(run_cli, deck, tmp_path / "out", "--png")
    by_kind: dict[str, list[np.ndarray]] = {}
    for row in rows(deck):
        name = row["title"].lower().replace(" ", "-")
        by_kind.setdefault(row["kind"], []).append(region(folder / "png" / f"{name}.png", KIND_LINE))
    assert sorted(by_kind) == ["air", "earth", "fire", "ice"]
    for kind, symbols in by_kind.items():
        assert inked(symbols[0]).mean() > 0.03, kind  # a symbol is drawn there
        assert alike(symbols[0], symbols[1]) > 0.9, kind  # the same symbol on every card of a kind
    kinds = list(by_kind)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            assert alike(by_kind[a][0], by_kind[b][0]) < 0.5, (a, b)
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        fronts = [page for page in pdf.pages[0::2]]
        text = " ".join(page.extract_text() for page in fronts)
        stars = [c for page in fronts for c in page.curves
                 if tuple(round(v, 3) for v in c.get("non_stroking_color") or ()) == (0.69, 0.227, 0.18)]
    rare = [r for r in rows(deck) if int(r["cost"]) >= 4]
    assert len(stars) == sum(int(r["copies"]) for r in rare) == 2 and text.count(", rare") == 2
    assert all(page.extract_text().splitlines()[-1].endswith("Cut along the dashed lines.") for page in fronts)
