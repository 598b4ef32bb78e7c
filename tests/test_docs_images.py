"""The guides' pictures are what printgen makes now: docs/make_images.py remakes every one of them
into a scratch folder and each must match the PNG committed in docs/images, to a small tolerance.

All of them are remade (about 20 s of builds on an idle machine, 35 s on a busy one), since a
subset would miss the picture a change happened to touch. Left out, and why:
  quality-*.png   docs/print-quality.md's before-and-after pictures need a build made by printgen
                  as it was before the print-quality work (`make_images.py quality OLD_BUILD`);
  serve-page.png  a browser's screenshot, recorded by tests/test_serve.py, not by make_images.py.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from building import shared

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "docs" / "images"
NOT_REMADE = ("quality-", "serve-page")
# a pixel counts as changed when a channel moves by more than LEVELS; a picture may have at most
# SHARE of its pixels changed (0.02 %: a moved cut line on a tile sheet changes ten times as many)
LEVELS = 32
SHARE = 0.0002


# every test here on one pytest-xdist worker (`--dist loadgroup` in pyproject.toml), which runs
# make_images.py once while the other worker goes on with the rest of the suite
pytestmark = pytest.mark.xdist_group("docs-images")


def make_images(into: Path, built: Path, deck: Path) -> None:
    """docs/make_images.py into `into`, reading the bundled games from the session's build of them
    (`built`: `printgen build --paper a4`) and the sample deck from its (`deck`: `printgen build
    card_defs/deck.yaml --png`, the same files as make_images.py's `printgen build deck --png`)
    rather than building them again."""
    env = {**os.environ, "MAKE_IMAGES_INTO": str(into), "MAKE_IMAGES_BUILT": str(built),
           "MAKE_IMAGES_DECK_BUILT": str(deck),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, str(ROOT / "docs" / "make_images.py")], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, timeout=600)


@pytest.fixture(scope="module")
def remade(tmp_path_factory, all_games_built, sample_deck_png) -> Path:
    """The pictures, made once for the whole session (whichever worker asks first makes them)."""
    built, deck = all_games_built["a4"], sample_deck_png.parent
    return shared(tmp_path_factory, {"docs-images": lambda into: make_images(into, built, deck)})["docs-images"]


def committed() -> list[str]:
    return sorted(p.name for p in COMMITTED.glob("*.png") if not p.name.startswith(NOT_REMADE))


def test_make_images_remakes_every_committed_picture_and_no_other(remade):
    assert committed() and sorted(p.name for p in remade.glob("*.png")) == committed()


@pytest.mark.parametrize("name", committed())
def test_each_picture_matches_what_printgen_makes_now(remade, name):
    with Image.open(COMMITTED / name) as old, Image.open(remade / name) as new:
        assert old.size == new.size, f"{name}: {old.size} committed, {new.size} made now; run docs/make_images.py"
        a = np.asarray(old.convert("RGB"), dtype=int)
        b = np.asarray(new.convert("RGB"), dtype=int)
    changed = float((np.abs(a - b).max(axis=2) > LEVELS).mean())
    assert changed <= SHARE, f"{name}: {changed:.3%} of its pixels changed; run python docs/make_images.py"
