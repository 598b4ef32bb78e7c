"""Rules fidelity (issue 36): every rule of a game's source, and every ruling of printgen's own, where
each document prints it.

tests/rules_maps/<game>.yaml lists the source's rules in printgen's own short words, each with an id
and, per document (rulebook: <game>.pdf, reference: <game>-reference.pdf, cards:
<game>-reference-cards.pdf), a phrase the document's text contains. `rulings` lists what printgen
decided itself (a rule the source leaves out, or one reading of an unclear sentence): wherever a
ruling is printed, the dagger (RULING_MARK) stands beside it, and the document explains the mark
once (the key line). Each game is built on A4 and on Letter; a document that drops a rule fails.

Beside it: each document names who made the game as the source does, and its PDF says so (Author:
the designer, or nothing when the source names nobody; Creator: printgen).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pypdf
import pytest
from ruamel.yaml import YAML

from printgen.games.header import RULING_KEY, RULING_MARK

MAPS = Path(__file__).parent / "rules_maps"
GAMES = ("one_minute_war", "omiga", "quick_violence", "fracas", "armies")
PAPERS = ("a4", "letter")
FILES = {"rulebook": "{game}.pdf", "reference": "{game}-reference.pdf", "cards": "{game}-reference-cards.pdf"}
BEFORE, AFTER = 80, 140  # characters: how near a phrase its ruling's mark must stand (its paragraph)


def the_map(game: str) -> dict:
    return YAML(typ="safe").load((MAPS / f"{game}.yaml").read_text(encoding="utf-8"))


def flat(text: str) -> str:
    return " ".join(text.split())


@lru_cache(maxsize=None)
def readings(path: Path) -> tuple[str, ...]:
    """The document's text in the order it was drawn (pypdf follows the page's content stream):
    printgen pours its story paragraph by paragraph, column after column, so a paragraph reads
    whole even on a two-column page and beside a card, where a reading by position would interleave."""
    return (flat(" ".join(page.extract_text() or "" for page in pypdf.PdfReader(path).pages)),)


def found(path: Path, phrase: str) -> list[tuple[str, int]]:
    """(text, index) of each place `phrase` occurs in either reading of the document."""
    phrase = flat(phrase)
    return [(text, m.start()) for text in readings(path) for m in re.finditer(re.escape(phrase), text)]


@pytest.fixture(scope="module")
def outputs(all_games_built) -> dict[str, Path]:
    return all_games_built


def test_every_game_has_a_map_with_rules_and_rulings():
    for game in GAMES:
        data = the_map(game)
        assert data["game"] == game and data["rules"] and data["rulings"], game
        ids = [item["id"] for item in data["rules"] + data["rulings"]]
        assert len(ids) == len(set(ids)), game
        for item in data["rules"] + data["rulings"]:
            assert item["rule"] and set(item["prints"]) <= set(FILES), (game, item["id"])


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_document_drops_a_rule_its_map_says_it_prints(outputs, game, paper):
    missing = []
    for item in the_map(game)["rules"] + the_map(game)["rulings"]:
        for document, phrase in item["prints"].items():
            path = outputs[paper] / game / FILES[document].format(game=game)
            if not found(path, phrase):
                missing.append((item["id"], document, phrase))
    assert missing == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_carries_the_mark_and_every_document_explains_it(outputs, game, paper):
    unmarked = []
    for item in the_map(game)["rulings"]:
        for document, phrase in item["prints"].items():
            path = outputs[paper] / game / FILES[document].format(game=game)
            places = found(path, phrase)
            if not any(RULING_MARK in text[max(0, at - BEFORE):at + len(flat(phrase)) + AFTER]
                       for text, at in places):
                unmarked.append((item["id"], document, phrase))
    assert unmarked == []
    for name in FILES.values():
        path = outputs[paper] / game / name.format(game=game)
        assert any(flat(RULING_KEY) in text for text in readings(path)), name


def credit_words(game: str) -> str:
    """The credit as the seed gives it ('Contributed by' where the seed says he contributed the
    game); empty where the seed names nobody: a document then says nothing about it."""
    data = the_map(game)["credit"]
    if not data["designer"]:
        return ""
    words = f"{data.get('credited_as', 'Game design:')} {data['designer']}."
    return f"{words} Published by {data['publisher']}." if data.get("publisher") else words


@pytest.mark.parametrize("game", GAMES)
def test_every_document_credits_the_game_as_its_source_does(outputs, game):
    designer = the_map(game)["credit"]["designer"] or ""
    folder = outputs["a4"] / game
    names = [name.format(game=game) for name in FILES.values()] + the_map(game).get("more_documents", [])
    for name in names:
        path = folder / name
        assert any(flat(credit_words(game)) in text for text in readings(path)), name
        assert not any("name their author" in text or "Game design: Dan" in text for text in readings(path)), name
        info = pypdf.PdfReader(path).metadata
        assert (info.get("/Author") or "") == designer and info.get("/Creator") == "printgen", name


def test_the_maps_name_whom_each_seed_names():
    # the seeds: Ransom Christofferson; Andreas Schleicher with Dionysos Games (2017); nobody for
    # Quick Violence; Dan Shahin; nobody for Armies
    named = {game: (the_map(game)["credit"]["designer"], the_map(game)["credit"].get("publisher"))
             for game in GAMES}
    assert named == {"one_minute_war": ("Ransom Christofferson", None),
                     "omiga": ("Andreas Schleicher", "Dionysos Games, 2017"),
                     "quick_violence": (None, None), "fracas": ("Dan Shahin", None),
                     "armies": (None, None)}
