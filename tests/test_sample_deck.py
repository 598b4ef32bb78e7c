"""The bundled sample deck, Potion Shop, built as it ships on A4 and on Letter: its sheets, its
rulebook and its reference card, read back from the PDFs. The rules explain every mark a card
carries with the mark itself drawn beside its meaning, name every potion, fill their pages, and
say nothing of how they were made; the tinted cards have bleed in the gutters between them and a
dashed cut line round each; no glyph on a card is under 7 pt."""
from __future__ import annotations

import csv
import re

import pdfplumber
import pytest
from ruamel.yaml import YAML

from printgen.games import bundled_definition
from typeset import column_blanks, half_blanks


# one pytest-xdist worker runs every test here (`--dist loadgroup`, pyproject.toml), so the
# module-scoped builds (the sample deck on each paper) are made once, not once on each worker
pytestmark = pytest.mark.xdist_group("sample-deck")

MM = 72 / 25.4
CARD = (63.5, 88.9)  # poker, mm
MOST_BLANK = 0.25  # of a rules page's column, or of a reference half's, at its foot
TINTS = {"#f6d5c8", "#d6e6f5", "#dcebd2", "#ece6f5"}  # the four kinds' backgrounds (deck.yaml)


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory):
    """The deck built once on each paper: its output folder."""
    from click.testing import CliRunner

    from printgen.cli.main import cli

    out = tmp_path_factory.mktemp(f"potion-{request.param}")
    result = CliRunner().invoke(cli, ["build", str(bundled_definition("deck")), "--paper", request.param,
                                      "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out / "deck"


def text_of(path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() for page in pdf.pages)


def definition() -> dict:
    return YAML(typ="safe").load(bundled_definition("deck").read_text(encoding="utf-8"))


def test_the_sample_deck_ships_a_rulebook_and_a_reference_that_explain_its_cards(built):
    with open(bundled_definition("deck").parent / "cards.csv", newline="", encoding="utf-8") as f:
        titles = [row["title"] for row in csv.DictReader(f)]
    rules, reference = text_of(built / "deck-rules.pdf"), text_of(built / "deck-reference.pdf")
    for text in (rules, reference):
        assert all(title in text for title in titles), [t for t in titles if t not in text]
        assert "printgen" not in text.lower() and "yaml" not in text.lower()
        for mark in ("Red star", "price", "draw the top card of the deck"):  # every symbol on a card explained
            assert mark.lower() in text.lower(), mark
        assert "Buy" in text and "Sell" in text
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        assert len(pdf.pages) == 2
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
    assert min(sizes) >= 6.99  # the card it shows part by part at its own size, never shrunk under 7 pt
    with pdfplumber.open(built / "deck-reference.pdf") as pdf:
        assert len(pdf.pages) == 1


def test_every_footer_reads_as_a_published_games(built):
    """The game, the document, page n of m and the edition: no tagline, nothing about the tool."""
    for name, kind in (("deck-rules.pdf", "rules"), ("deck-reference.pdf", "reference"),
                       ("deck-reference-cards.pdf", "reference")):
        with pdfplumber.open(built / name) as pdf:
            count = len(pdf.pages)
            for number, page in enumerate(pdf.pages, start=1):
                footer = page.extract_text().splitlines()[-1]
                assert footer == f"Potion Shop \u00b7 {kind} \u00b7 page {number} of {count} \u00b7 version 1.0", footer


def test_no_rules_page_or_reference_half_is_more_than_a_quarter_blank(built):
    """Measured as the house-style tests measure: the blank under each column's last line."""
    rules = column_blanks(built / "deck-rules.pdf")
    assert len(rules) == 2
    for number, page in enumerate(rules, start=1):
        assert len(page) == 2 and max(page) <= MOST_BLANK, (number, page)
    for name in ("deck-reference.pdf", "deck-reference-cards.pdf"):
        for page in half_blanks(built / name):
            for half in page:
                assert len(half) == 2 and max(half) <= MOST_BLANK, (name, page)


def icon_beside(page, words: str) -> bool:
    """True when a picture stands on the line of `words`, just before them (an icon set in the text)."""
    found = page.search(re.escape(words))
    assert found, words
    for hit in found:
        for image in page.images:
            level = image["top"] < (hit["top"] + hit["bottom"]) / 2 < image["bottom"]
            if level and 0 <= hit["x0"] - image["x1"] <= 4 * MM:
                return True
    return False


def test_every_symbol_on_a_card_is_drawn_beside_its_meaning(built):
    """The price disc, the rare star, the flask and the kinds' symbols: each legend line carries the
    icon itself, and the cards draw the very same files."""
    defn = definition()
    icons = defn["icons"]
    assert {"flask", "star", "price", "fire", "ice", "earth", "air"} <= set(icons)
    rare = [e for e in defn["face"]["layout"] if e.get("when") == "cost >= 4"]
    assert [e["type"] for e in rare] == ["image"] and rare[0]["src"] == icons["star"]  # the card's star is the icon
    assert not [e for e in defn["face"]["layout"] if e["type"] == "polygon"]
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        page = pdf.pages[0]
        for words in ("Price.", "Red star.", "Flask.", "fire,", "ice,", "air."):
            assert icon_beside(page, words), words
    with pdfplumber.open(built / "deck-reference.pdf") as pdf:
        page = pdf.pages[0]
        for words in ("dark disc", "red star", "flask"):
            assert icon_beside(page, words), words
        row = page.search("the kind: fire, ice, earth, air")[0]
        kinds = [i for i in page.images if i["top"] < (row["top"] + row["bottom"]) / 2 < i["bottom"]
                 and i["x1"] < row["x0"]]
        assert len(kinds) == 4  # the four kinds' symbols on their row


def test_tinted_cards_bleed_into_gutters_with_a_dashed_cut_line_round_each(built):
    """Each card's colour runs past its own cut line by the sheet's bleed, so two cards of different
    colours meet only in the gutter between their cuts; a dashed outline marks every cut, even
    between two cards of one colour, and the caption says how to print and cut. The cut lines do the
    work of marks, so the margins carry none (that is what leaves room for bleed on a full sheet)."""
    with pdfplumber.open(built / "deck.pdf") as pdf:
        page = pdf.pages[0]
        trim, bleed_box = page.page_obj.attrs["TrimBox"], page.page_obj.attrs["BleedBox"]
        bleed = (float(trim[0]) - float(bleed_box[0])) / MM
        assert 1.0 <= bleed <= 2.0 + 1e-6
        tints = [r for r in page.rects if r.get("fill") and "#%02x%02x%02x" % tuple(
            round(v * 255) for v in r["non_stroking_color"]) in TINTS]
        cuts = [c for c in page.curves if c.get("dash") and c["dash"][0]]
        cards = 9 if page.width < page.height else 8  # A4 upright, Letter turned: as many as without bleed
        assert len(tints) == len(cuts) == cards
        for tint in tints:  # the colour reaches `bleed` past the cut on every side
            assert abs(tint["width"] / MM - CARD[0] - 2 * bleed) < 0.05
            assert abs(tint["height"] / MM - CARD[1] - 2 * bleed) < 0.05
            (cut,) = [c for c in cuts if abs(c["x0"] - tint["x0"] - bleed * MM) < 0.2
                      and abs(c["top"] - tint["top"] - bleed * MM) < 0.2]
            assert abs(cut["width"] / MM - CARD[0]) < 0.1 and abs(cut["height"] / MM - CARD[1]) < 0.1
        for a in tints:  # tints meet, never overlap: each cut has its own colour's bleed beyond it
            for b in tints:
                if a is not b:
                    overlap_x = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                    overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                    assert overlap_x <= 0.05 or overlap_y <= 0.05
        for dashed in [o for o in page.lines + page.curves if o.get("dash") and o["dash"][0]]:  # no margin marks
            assert any(t["x0"] <= dashed["x0"] and dashed["x1"] <= t["x1"] and t["top"] <= dashed["top"]
                       and dashed["bottom"] <= t["bottom"] for t in tints), dashed["pts"][:2]
        caption = page.extract_text().splitlines()[-1]
        assert 'Print at actual size, choosing "Print on both sides, flip on long edge".' in caption
        assert caption.endswith("Cut along the dashed lines.")
        for c in page.chars:  # no text within 5 mm of the paper's edge
            assert 5 * MM <= c["x0"] and c["x1"] <= page.width - 5 * MM
            assert 5 * MM <= c["top"] and c["bottom"] <= page.height - 5 * MM


def test_no_glyph_on_the_sample_cards_is_under_7_pt_and_every_back_names_the_game(built):
    with pdfplumber.open(built / "deck.pdf") as pdf:
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
        back = pdf.pages[1]  # a full sheet of backs (on Letter turned 180 degrees, as its flip needs)
        titles = [c for c in back.chars if c["text"] == "P" and c["size"] > 12]  # the sign's 13 pt "Potion Shop"
        cards = 9 if back.width < back.height else 8
    assert min(sizes) >= 6.99
    assert len(titles) == cards
