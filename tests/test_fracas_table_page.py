"""Issue 43 (Fracas 8.0 -> 8.5): the Fracas rulebook's odd last sheet no longer has a blank back.
Its fourth page pictures the table at the end of turn 2 of the worked example, with the turn's steps
under it; every page before it ends near its foot, and the worked example points to the picture.
Measured in the PDFs `printgen build` writes on A4 and Letter; beside it, the reworded Enlist cell
and the two Quick Violence passages reworded in the same round."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pdfmeasure import MM, glyph_pt, once_per_file
from typeset import FOOT, MARGIN, column_blanks

from printgen.drawing import style

PAPERS = ("a4", "letter")
MAX_BLANK = 0.25  # of a column (or of the page's text height), at the foot of a page


def flat(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)


@once_per_file
def reading(path: Path) -> str:
    """The rulebook's text a column at a time (the left half of each page before the right); read
    once per file for the session, as several tests read the same rulebook."""
    with pdfplumber.open(path) as pdf:
        parts = []
        for page in pdf.pages:
            mid = float(page.width) / 2
            for box in ((0, 0, mid, page.height), (mid, 0, page.width, page.height)):
                parts.append(" ".join((page.crop(box).extract_text() or "").split()))
        return " ".join(parts)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_rulebook_fills_both_sides_of_its_sheets(all_games_built, paper):
    path = all_games_built[paper] / "fracas" / "fracas.pdf"
    with pdfplumber.open(path) as pdf:
        count = len(pdf.pages)
        assert count % 2 == 0, count  # no sheet with an empty back
        for number, page in enumerate(pdf.pages, start=1):
            text = " ".join((page.extract_text() or "").split())
            assert "left blank" not in text, number
            assert f"Fracas \u00b7 rules \u00b7 page {number} of {count}" in text
    text_pages = column_blanks(path, slice(0, count - 1))  # the pages set in two columns
    for number, blanks in enumerate(text_pages, start=1):
        assert len(blanks) == 2 and max(blanks) <= MAX_BLANK, (paper, number, blanks)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_last_page_pictures_the_table_down_to_its_foot(all_games_built, paper):
    with pdfplumber.open(all_games_built[paper] / "fracas" / "fracas.pdf") as pdf:
        page = pdf.pages[-1]
        height = float(page.height)
        words = " ".join((page.extract_text() or "").split())
        for phrase in ("The table at a glance", "Turn 2 of the example", "Black's side", "Red's side",
                       "the pot: empty so far", "20 life tokens", "discard pile", "arrived tapped",
                       "A turn, in 6 steps", "1. Untap", "4. Enlist", "6. Discard"):
            assert phrase in words, phrase
        # the drawing and its words reach within a quarter of the text height of the bottom margin
        body = [c for c in page.chars if (height - c["bottom"]) / MM > FOOT]
        lowest = min([(height - c["bottom"]) / MM for c in body]
                     + [(height - o["bottom"]) / MM for o in page.rects + page.curves + page.lines])
        usable = height / MM - 2 * MARGIN
        assert (lowest - MARGIN) / usable <= MAX_BLANK, lowest
        # the eight cards in play, each with its rank in bold in its owner's colour: Black's two
        # Queens, Jack, 10 and 8; Red's King and two 7s
        colours = {(0.184314, 0.231373, 0.270588): "Black", (0.690196, 0.227451, 0.180392): "Red"}
        ranks = sorted((colours[tuple(round(v, 6) for v in c["non_stroking_color"])], c["text"]) for c in body
                       if c["fontname"].endswith("Bold") and c["text"] in "QJK0123456789"
                       and tuple(round(v, 6) for v in c["non_stroking_color"]) in colours)
        assert ranks == sorted([("Black", r) for r in "QQJ108"] + [("Red", r) for r in "K77"]), ranks
        # every word at least the house's smallest size, however the picture is scaled, and clear of the edges
        assert min(glyph_pt(c) for c in body if c["text"].strip()) >= style.SMALL_PT - 0.05
        for c in page.chars:
            assert c["x0"] >= 5 * MM and float(page.width) - c["x1"] >= 5 * MM and c["top"] >= 5 * MM


@pytest.mark.parametrize("paper", PAPERS)
def test_the_example_points_to_the_picture_only_where_it_is_printed(all_games_built, run_cli, tmp_path, paper):
    assert "The last page pictures the table at this moment." in reading(
        all_games_built[paper] / "fracas" / "fracas.pdf")
    assert run_cli("build", "fracas", "--booklet", "--paper", paper, "--out", tmp_path).exit_code == 0
    booklet = tmp_path / "fracas" / "fracas-booklet.pdf"
    text = flat(booklet)

    def says(phrase: str) -> bool:  # a booklet's pages that are turned upside down read backwards
        return phrase in text or phrase[::-1] in text
    assert says("Turn 2.") and says("Black's reply.")
    assert not says("pictures the table") and not says("The table at a glance")  # the booklet has no such page


@pytest.mark.parametrize("paper", PAPERS)
def test_the_enlist_step_says_the_pair_rule_plainly(all_games_built, paper):
    folder = all_games_built[paper] / "fracas"
    for name in ("fracas.pdf", "fracas-reference.pdf", "fracas-reference-cards.pdf"):
        text = reading(folder / name)
        assert "if either of the two shares the General's suit \u2020; the other need not." in text, name
        assert "(strictly, both must" not in text and "only a Joker can)" not in text, name
    # the stricter reading stays, in plain words, in the rulebook's notes on this edition
    assert "Read strictly, both must share the General's suit" in reading(folder / "fracas.pdf")


@pytest.mark.parametrize("paper", PAPERS)
def test_quick_violence_example_and_measuring_page_read_plainly(all_games_built, paper):
    path = all_games_built[paper] / "quick_violence" / "quick_violence.pdf"
    rules = reading(path)  # the measuring page's upright words read across, on their own below
    with pdfplumber.open(path) as pdf:
        last = pdf.pages[-1]
        level = last.filter(lambda o: o["object_type"] != "char" or abs(o["matrix"][1]) < 1e-6)
        measuring = " ".join((level.extract_text() or "").split())
    assert "the bonus going on" not in rules
    assert "since a defending fighter's bonus counts when it attacks as well" in rules
    assert "so the attack hits" in rules
    assert "These arrows run to the paper's edges on purpose" in measuring
    assert "so their heads print cut off" in measuring


def test_rules_of_your_own_end_without_the_picture_of_the_bundled_example(run_cli, tmp_path):
    mine = tmp_path / "mine" / "fracas"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text("# House Fracas\n\n## Our way\nWe play to 10 tokens.\n"
                                      "{% if closing_page %}Never printed.{% endif %}\n")
    assert run_cli("build", "fracas", "--templates", tmp_path / "mine", "--out", tmp_path / "out").exit_code == 0
    with pdfplumber.open(tmp_path / "out" / "fracas" / "fracas.pdf") as pdf:
        text = " ".join(p.extract_text() or "" for p in pdf.pages)
        assert len(pdf.pages) == 1 and "We play to 10 tokens." in text
        assert "The table at a glance" not in text and "Never printed." not in text
        assert "page 1 of 1" in text and "left blank" in text  # a one-page book says its back is blank
