"""Issue 35: the five games' rules and reference PDFs read as one family. Measured in the files
`printgen build` writes on A4 and Letter: a few text sizes, one body size for rulebooks and one for
references, lines of at most 90 characters, columns that end near their foot and level on a last
page, headings in each game's own accent, and a running footer on every page."""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from ruamel.yaml import YAML

from printgen.drawing import style
from printgen.drawing.style import lightness
from printgen.games import bundled_definition
from typeset import body_size, column_blanks, half_blanks, longest_body_line, pages_of, size_shares

PAPERS = ("a4", "letter")
GAMES = ("fracas", "armies", "omiga", "one_minute_war", "quick_violence")
FLOWING = ("fracas", "armies", "quick_violence")  # booklets whose text flows from page to page
MAX_SIZES = 8  # text sizes that each carry at least 2 % of a document's letters
MAX_CHARS = 90
MAX_BLANK = 0.25  # of a column, at the foot of a page that is not the last
MAX_UNLEVEL = 0.15  # of a column, between the last page's column ends


def rules_pages(path: Path) -> slice:
    count = len(pages_of(path))
    return {"omiga.pdf": slice(0, 2), "quick_violence.pdf": slice(0, count - 1)}.get(path.name, slice(None))


def rules(folder: Path, game: str) -> Path:
    return folder / game / f"{game}.pdf"


def references(folder: Path, game: str) -> list[Path]:
    return [folder / game / f"{game}-reference{s}.pdf" for s in ("", "-cards")]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_few_sizes_one_body_size_and_short_lines(all_games_built, game, paper):
    book = rules(all_games_built[paper], game)
    assert body_size(book) == style.RULES_PT
    for path in [book, *references(all_games_built[paper], game)]:
        shares = size_shares(path)
        common = [size for size, share in shares.items() if share >= 0.02]
        assert len(common) <= MAX_SIZES, (path.name, common)
        line = longest_body_line(path, rules_pages(path) if path == book else slice(None))
        assert len(line.text) <= MAX_CHARS, (path.name, line)
    for path in references(all_games_built[paper], game):  # one size for every reference, no exceptions
        assert body_size(path) == style.REFERENCE_PT, path.name
    assert style.RULES_PT >= 9 and style.REFERENCE_PT >= 9


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_columns_end_near_the_foot_and_level_on_the_last_page(all_games_built, game, paper):
    """Every game's rules: the booklets, Omiga's two pages before its tiles and the One Minute War
    sheet, whose back ends in two columns under the card."""
    path = rules(all_games_built[paper], game)
    blanks = column_blanks(path, rules_pages(path))
    assert len(blanks) >= 2
    for number, page in enumerate(blanks[:-1], start=1):
        assert len(page) == 2 and max(page) <= MAX_BLANK, (number, page)
    last = blanks[-1]
    assert len(last) == 2 and abs(last[0] - last[1]) <= MAX_UNLEVEL, last


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_reference_halves_carry_similar_amounts(all_games_built, game, paper):
    """A reference card's front and back are about as full: their columns' blank feet, averaged
    over each half, differ by at most MAX_UNLEVEL of a half's text box, on the sheet and the cards."""
    sheet, cards = references(all_games_built[paper], game)
    ((top, bottom),) = half_blanks(sheet)
    assert abs(mean(top) - mean(bottom)) <= MAX_UNLEVEL, (top, bottom)
    front, back = half_blanks(cards)
    for half, like in ((front[0], top), (front[1], top), (back[0], bottom), (back[1], bottom)):
        assert half == pytest.approx(like, abs=0.01), (front, back)  # each card as the sheet's half


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_page_has_the_running_footer(all_games_built, game, paper):
    title = YAML(typ="safe").load(bundled_definition(game).read_text())["title"]
    for path in [rules(all_games_built[paper], game), *references(all_games_built[paper], game)]:
        pages = pages_of(path)[rules_pages(path)] if path.name == f"{game}.pdf" else pages_of(path)
        for number, page in enumerate(pages, start=1):
            # below the 8 mm that any page's text keeps from the paper's foot
            foot = [c for c in page.chars if page.height - c["bottom"] < 8 * 72 / 25.4]
            words = "".join(c["text"] for c in sorted(foot, key=lambda c: c["x0"]))
            assert re.match(rf"{re.escape(title)} \u00b7 (rules|reference) \u00b7 page {number} of \d+",
                            words), (path.name, words)
            assert {round(c["size"], 1) for c in foot} == {style.SMALL_PT}
            assert min(c["x0"] for c in foot) > 5 * 72 / 25.4  # clear of the edge
            assert min(page.height - c["bottom"] for c in foot) >= 5 * 72 / 25.4


@pytest.mark.parametrize("paper", PAPERS)
def test_a_booklet_with_an_odd_page_count_says_its_last_back_is_blank(all_games_built, paper):
    for game in FLOWING:
        path = rules(all_games_built[paper], game)
        with pdfplumber.open(path) as pdf:
            pages = pdf.pages[rules_pages(path)]
            foot = (pages[-1].extract_text() or "").splitlines()[-2:]  # the footer and a line over it
            assert len(pages) % 2 == 0 or any(line.endswith("the back of this sheet is left blank")
                                              for line in foot), foot


def test_each_game_has_its_own_accent_distinct_in_grey(all_games_built):
    accents = {}
    for game in GAMES:
        accents[game] = YAML(typ="safe").load(bundled_definition(game).read_text())["reference"]["accent"].lower()
        assert accents[game] == style.ACCENTS[game]
        # and the rulebook's headings print in it
        red, green, blue = (int(accents[game][i:i + 2], 16) / 255 for i in (1, 3, 5))
        heading = style.RULES_PT * style.HEADING
        first = pages_of(rules(all_games_built["a4"], game))[0]
        inks = {tuple(round(v, 2) for v in c["non_stroking_color"]) for c in first.chars if abs(c["size"] - heading) < 0.05}
        assert (round(red, 2), round(green, 2), round(blue, 2)) in inks, (game, inks)
    values = sorted(lightness(colour) for colour in accents.values())
    assert len(set(accents.values())) == len(GAMES)
    assert all(b - a >= 5 for a, b in zip(values, values[1:])), values
    assert values[-1] <= 50  # dark enough under a table head's white words
