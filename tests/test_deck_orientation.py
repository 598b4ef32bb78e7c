"""A deck whose definition leaves `sheet.orientation` to printgen ("auto") is laid out the way round
that holds more cards: on Letter the sample's poker cards fit 8 a landscape sheet, 6 a portrait one.
Measured in the built PDF: the page size and the faces drawn on its first sheet."""
from __future__ import annotations

import pdfplumber
import pytest

from pdfmeasure import MM
from test_deck import BAND_W, build, rects


def first_sheet(folder) -> tuple[tuple[float, float], int]:
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        page = pdf.pages[0]
        return (round(float(page.width) / MM, 1), round(float(page.height) / MM, 1)), len(rects(page, BAND_W))


@pytest.mark.parametrize("paper, size, cards", [
    ("letter", (279.4, 215.9), 8),  # portrait Letter holds 6: a third of the sheet was left blank
    ("a4", (210.0, 297.0), 9),  # portrait A4 holds 9, landscape 8: A4 stays upright
])
def test_auto_orientation_takes_the_way_round_that_holds_more_cards(run_cli, deck, tmp_path, paper, size, cards):
    assert "orientation: auto" in deck.read_text()
    assert first_sheet(build(run_cli, deck, tmp_path / "out", "--paper", paper, "--no-pictures")) == (size, cards)


def test_with_bleed_given_a4_turns_too_when_that_holds_more(run_cli, deck, tmp_path):
    # 2 mm of bleed round each card: upright A4 holds 4 poker cards, turned 8
    folder = build(run_cli, deck, tmp_path / "out", "--paper", "a4", "--bleed", "2", "--no-pictures")
    assert first_sheet(folder) == ((297.0, 210.0), 8)


def test_a_fixed_orientation_is_kept_even_when_it_holds_fewer(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace("orientation: auto", "orientation: portrait", 1))
    assert first_sheet(build(run_cli, deck, tmp_path / "out", "--paper", "letter", "--no-pictures")) == (
        (215.9, 279.4), 6)
