"""The bundled sample deck, Potion Shop, built as it ships: its sheets, its rulebook and its
reference card, read back from the PDFs. The rules explain every mark a card carries, name every
potion, and say nothing of how they were made; no glyph on a card is under 7 pt."""
from __future__ import annotations

import csv

import pdfplumber

from printgen.games import bundled_definition


def built(run_cli, tmp_path):
    result = run_cli("build", bundled_definition("deck"), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / "deck"


def text_of(path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() for page in pdf.pages)


def test_the_sample_deck_ships_a_rulebook_and_a_reference_that_explain_its_cards(run_cli, tmp_path):
    folder = built(run_cli, tmp_path)
    with open(bundled_definition("deck").parent / "cards.csv", newline="", encoding="utf-8") as f:
        titles = [row["title"] for row in csv.DictReader(f)]
    rules, reference = text_of(folder / "deck-rules.pdf"), text_of(folder / "deck-reference.pdf")
    for text in (rules, reference):
        assert all(title in text for title in titles), [t for t in titles if t not in text]
        assert "printgen" not in text.lower() and "yaml" not in text.lower()
        for mark in ("Red star", "price", "draw the top card of the deck"):  # every symbol on a card explained
            assert mark.lower() in text.lower(), mark
        assert "Buy" in text and "Sell" in text
        assert "Potion Shop \u00b7" in text and "\u00b7 version 1.0 \u00b7 A small market game" in text  # footer
    with pdfplumber.open(folder / "deck-rules.pdf") as pdf:
        assert len(pdf.pages) == 2
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
    assert min(sizes) >= 6.99  # the card it shows part by part at its own size, never shrunk under 7 pt
    with pdfplumber.open(folder / "deck-reference.pdf") as pdf:
        assert len(pdf.pages) == 1


def test_no_glyph_on_the_sample_cards_is_under_7_pt_and_every_back_names_the_game(run_cli, tmp_path):
    folder = built(run_cli, tmp_path)
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
        backs = [page.extract_text() for page in pdf.pages[1::2]]
    assert min(sizes) >= 6.99
    assert all(text.count("Potion Shop") >= 9 for text in backs[:1])  # a full sheet: nine backs, each titled
