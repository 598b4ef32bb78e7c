"""Synthetic Omiga tile sets far larger than a real game, to measure how the checks scale.

A real deck holds at most 200 tiles (the schema says so), so a 10,000-tile set cannot come from a
YAML file: it is built from the bundled definition with pydantic's model_construct, which skips
the size limit but not the checks' own code paths. Eight colours and eight forms (4,096 edge
signatures a deck) give the buckets something to do; a fixed seed gives the same set every time.
"""
from __future__ import annotations

import random

from printgen.games.omiga.model import Deck, Decks, Form, Omiga, Tile

COLOURS = [f"c{i}" for i in range(8)]
FORMS = {
    "rise": Form(shape="diagonal", direction="rising"),
    "fall": Form(shape="diagonal", direction="falling"),
    "tip": Form(shape="tip"), "tip2": Form(shape="tip"),
    "notch": Form(shape="notch"), "notch2": Form(shape="notch"),
    "flat": Form(shape="flat"), "flat2": Form(shape="flat"),
}
# exactly the pairs whose drawn shapes interlock, so the fit table itself is sound
FITS = {"rise": ["rise"], "fall": ["fall"], "tip": ["notch", "notch2"], "tip2": ["notch", "notch2"],
        "notch": ["tip", "tip2"], "notch2": ["tip", "tip2"], "flat": ["flat", "flat2"],
        "flat2": ["flat", "flat2"]}


def deck(count: int, rng: random.Random) -> Deck:
    forms = list(FORMS)
    tiles = [Tile.model_construct(left=rng.choice(COLOURS), right=rng.choice(COLOURS),
                                  top=rng.choice(forms), bottom=rng.choice(forms))
             for _ in range(count)]
    return Deck.model_construct(size=count, tiles=tiles)


def tile_set(base: Omiga, tiles: int, seed: int = 8) -> Omiga:
    """`tiles` tiles in all, half in each deck, on the bundled definition's other settings."""
    rng = random.Random(f"synthetic:{tiles}:{seed}")
    decks = Decks.model_construct(white=deck(tiles // 2, rng), black=deck(tiles - tiles // 2, rng))
    return base.model_copy(update={"colours": COLOURS, "forms": FORMS, "fits": FITS, "decks": decks})
