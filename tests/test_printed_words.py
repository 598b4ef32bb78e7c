"""The words of the five bundled games' printed documents as a publisher would print them (issue 43):
no tool talk, one key for the edition's clarifications, full reference halves, and the Fracas tie
settled. Every test reads the real PDFs of the session's shared builds (A4 and Letter)."""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from printgen.games.header import RULING_KEY, RULING_MARK
from pdfmeasure import once_per_file
from typeset import half_blanks

GAMES = ("one_minute_war", "omiga", "quick_violence", "fracas", "armies")
PAPERS = ("a4", "letter")
MAX_FRONT_BLANK = 0.10  # of a reference card front's text box (the sheet's top half), at either column's foot
MAX_BACK_BLANK = 0.15  # of a card back's (the sheet's bottom half)
CARD_FRONTS = 2  # a cards file holds two half-page cards: each front carries the key once

# What a player holding the game does not need: the tool, its files and commands, and notes about
# the source text itself (those go to the docs).
TOOL_TALK = re.compile(r"printgen|\bYAML\b|\.ya?ml\b|\bvalidate\b|\bbuild again\b|--paper|--booklet"
                       r"|source rules|the source\b|name their author|\bdefinition\b", re.IGNORECASE)


@once_per_file
def pages_lines(path: Path) -> list[str]:
    """Each page's text as printed lines, read by position (pdfplumber)."""
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


@once_per_file
def pages_text(path: Path) -> list[str]:
    """Each page's text in the order it was drawn (pypdf follows the content stream): a paragraph
    reads whole even on a two-column page, where a reading by position interleaves the columns."""
    return [page.extract_text() or "" for page in pypdf.PdfReader(path).pages]


def flat(text: str) -> str:
    return " ".join(text.split())


def documents(folder: Path, game: str) -> list[Path]:
    found = sorted((folder / game).glob("*.pdf"))
    assert {p.name for p in found} >= {f"{game}.pdf", f"{game}-reference.pdf", f"{game}-reference-cards.pdf"}
    return found


def test_the_key_names_no_tool():
    assert RULING_KEY.startswith(RULING_MARK) and not TOOL_TALK.search(RULING_KEY)
    assert "clarification" in RULING_KEY


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_document_talks_about_the_tool(all_games_built, game, paper):
    """No printed line names printgen, YAML, a file of it or a command."""
    talk = [(path.name, n, line) for path in documents(all_games_built[paper], game)
            for n, text in enumerate(pages_lines(path), start=1) for line in text.splitlines()
            if TOOL_TALK.search(line)]
    assert talk == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_rulings_key_is_printed_once_per_document(all_games_built, game, paper):
    """Every document with a ruling mark explains it once: the rulebook and the sheet once, the cards
    file once on each card's front; a document without a mark prints no key."""
    key = flat(RULING_KEY)
    for path in documents(all_games_built[paper], game):
        pages = [flat(text) for text in pages_text(path)]
        keys = [text.count(key) for text in pages]
        marks = sum(text.count(RULING_MARK) for text in pages) - sum(keys)
        if path.name.endswith("-reference-cards.pdf"):
            assert keys[0] == CARD_FRONTS and sum(keys) == CARD_FRONTS and marks > 0, (path.name, keys)
        elif marks:
            assert sum(keys) == 1, (path.name, keys)
        else:
            assert sum(keys) == 0, (path.name, keys)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_reference_halves_are_full(all_games_built, game, paper):
    """Each half of the reference sheet and of the cards: neither column of a card's front more than
    a tenth blank at its foot, nor of its back more than 15 %."""
    folder = all_games_built[paper] / game
    ((top, bottom),) = half_blanks(folder / f"{game}-reference.pdf")
    (front, front_again), (back, back_again) = half_blanks(folder / f"{game}-reference-cards.pdf")
    for half in (top, front, front_again):
        assert half and max(half) <= MAX_FRONT_BLANK, (game, top, front, front_again)
    for half in (bottom, back, back_again):
        assert half and max(half) <= MAX_BACK_BLANK, (game, bottom, back, back_again)


@pytest.mark.parametrize("paper", PAPERS)
def test_fracas_settles_an_equal_token_ending_as_a_ruling(all_games_built, paper):
    """Both decks are empty when a game ends, so "more cards left" can never break a tie: the
    rulebook and the reference settle it as a marked ruling (a draw, the pot split)."""
    folder = all_games_built[paper] / "fracas"
    book = flat(" ".join(pages_text(folder / "fracas.pdf")))
    at = book.index("calls it a draw")
    assert "split the pot evenly" in book[at:at + 200] and RULING_MARK in book[at:at + 200]
    assert "more cards left to draw" in book[:at]  # the seed's own tie-break, and why it cannot apply
    for name in ("fracas-reference.pdf", "fracas-reference-cards.pdf"):
        sheet = flat(" ".join(pages_text(folder / name)))
        at = sheet.index("Level on tokens: a draw")
        assert RULING_MARK in sheet[at:at + 80], name
        assert "more cards left in their deck" not in sheet, name
        assert "Each card blocks once a turn" in sheet, name  # the block rule, on the reference too


@pytest.mark.parametrize("paper", PAPERS)
def test_the_fracas_example_is_true(all_games_built, paper):
    """Turn 4: a General may block the second 7; blocking saves 7 tokens at the cost of the General."""
    book = flat(" ".join(pages_text(all_games_built[paper] / "fracas" / "fracas.pdf")))
    assert "lost for nothing" not in book
    turn = book[book.index("Turn 4."):]
    assert "a General loses every skirmish" in turn and "no tokens would be lost" in turn
    assert "keeps all 20 tokens" in turn


@pytest.mark.parametrize("game, words", [
    ("fracas", "The original rules have no title; this edition calls the game Fracas."),
    ("armies", "The original rules have no title; this edition calls the game Armies."),
    ("quick_violence", "The original rules are headed Very Quick Violence."),
    ("fracas", "Contributed by Dan Shahin."),
])
def test_names_and_credits_in_the_seeds_terms(all_games_built, game, words):
    book = flat(" ".join(pages_text(all_games_built["a4"] / game / f"{game}.pdf")))
    assert book.count(words) == 1
    assert "Game design: Dan Shahin" not in book


RUN_GAP_MM = 3.0  # words further apart than this on one baseline belong to different columns or cells


def printed_runs(path: Path) -> list[tuple[int, str]]:
    """Every run of words printed level and close together (a line of one column), unrotated, with
    its page number: what a reader takes in as one line."""
    runs = []
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            turned = {id(c) for c in page.chars if abs(c["matrix"][1]) > 1e-6 or abs(c["matrix"][2]) > 1e-6}
            words = page.filter(lambda obj: id(obj) not in turned).extract_words()
            lines: dict[int, list[dict]] = {}
            for word in words:
                lines.setdefault(round(word["bottom"]), []).append(word)
            for row in lines.values():
                row.sort(key=lambda w: w["x0"])
                current = [row[0]["text"]]
                for before, word in zip(row, row[1:]):
                    if (word["x0"] - before["x1"]) * 25.4 / 72 > RUN_GAP_MM:
                        runs.append((number, " ".join(current)))
                        current = []
                    current.append(word["text"])
                runs.append((number, " ".join(current)))
    return runs


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", (*GAMES, "deck"))
def test_every_ruling_mark_follows_the_words_it_marks(all_games_built, game, paper):
    """A dagger marks the words before it ("the order cannot change later †."): never set after a
    sentence's full stop, where it reads as opening the next sentence ("later. † Then"), and never
    at the start of a line; only the key itself opens with one."""
    wrong = []
    for path in sorted((all_games_built[paper] / game).glob("*.pdf")):
        if path.name == "deck.pdf":
            continue  # the cards themselves: no ruling is marked on them
        for number, run in printed_runs(path):
            text = run.replace("\u00a0", " ")
            if re.search(rf"[.!?]\s*{RULING_MARK}", text) or (
                    text.startswith(RULING_MARK) and not RULING_KEY.startswith(text[:12])):
                wrong.append((path.name, number, run))
    assert not wrong, wrong
