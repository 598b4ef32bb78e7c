"""The sample deck draws a picture per potion kind (`src: "{{ kind }}.svg"`), so its cards no longer
all carry one placeholder flask; the :flask: icon stays in the texts. Measured on the card PNGs the
build writes: the drawn shapes in the picture's frame, told from the card's own background."""
from __future__ import annotations

import numpy as np
from PIL import Image

from test_deck import build

DPI = 150
FRAME = (16.75, 20.0, 30.0, 30.0)  # mm: the sample's image element (x, y, width, height)
KINDS = {"fire": "ember-tonic", "ice": "frost-draught", "earth": "mossy-elixir", "air": "storm-flask"}


def drawn(png) -> np.ndarray:
    """The picture's frame, its background (taken from a corner of the frame) made white."""
    x, y, w, h = (round(v / 25.4 * DPI) for v in FRAME)
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


def test_each_potion_kind_has_a_picture_of_its_own(run_cli, deck, tmp_path):
    text = deck.read_text()
    assert 'src: "{{ kind }}.svg"' in text and "flask: flask.svg" in text  # the icon is still there
    folder = build(run_cli, deck, tmp_path / "out")
    shapes = {kind: drawn(folder / "png" / f"{card}.png") for kind, card in KINDS.items()}
    for kind, shape in shapes.items():
        assert 0.08 < inked(shape).mean() < 0.6, (kind, inked(shape).mean())  # a picture, not an empty or filled frame
    kinds = list(shapes)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            assert alike(shapes[a], shapes[b]) < 0.2, (a, b, alike(shapes[a], shapes[b]))
    # two earth potions share their picture to the pixel
    assert alike(shapes["earth"], drawn(folder / "png" / "quiet-syrup.png")) > 0.99
