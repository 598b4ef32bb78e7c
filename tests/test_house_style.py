"""Issue 35: the five games' rules and reference PDFs read as one family. Measured in the files
`printgen build` writes on A4 and Letter: a few text sizes, one body size for rulebooks and one for
references, lines of at most 90 characters, columns that end near their foot and level on a last
page, headings in each game's own accent, and a running footer on every page."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest
from ruamel.yaml import YAML

from printgen.drawing import style
from printgen.drawing.style import lightness
from printgen.games import bundled_definition
from pdfmeasure import MM
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


def subtitle_lines(path: Path) -> list[list[str]]:
    """The italic lines right under each title of a PDF (its masthead subtitles), top down."""
    result = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            rows: dict[float, list[dict]] = {}
            for word in page.extract_words(extra_attrs=["fontname", "size"]):
                rows.setdefault(round(word["top"], 0), []).append(word)
            ordered = sorted(rows.items())
            for i, (top, words) in enumerate(ordered):
                if max(w["size"] for w in words) < 15:
                    continue  # not a title
                found, last = [], top
                for next_top, next_words in ordered[i + 1:]:
                    if next_top - last > 9 * MM or not all("Oblique" in w["fontname"] for w in next_words):
                        break
                    found.append(" ".join(w["text"] for w in sorted(next_words, key=lambda w: w["x0"])))
                    last = next_top
                result.append(found)
    return result


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_a_reference_subtitle_breaks_only_between_sentences(all_games_built, game, paper):
    """Each line of a reference half's subtitle ends a sentence, one sentence a line as the rulebooks
    set theirs: a long subtitle is not balanced into two half-width lines broken mid-sentence."""
    for path in references(all_games_built[paper], game):
        mastheads = subtitle_lines(path)
        assert len(mastheads) >= 2 and any(mastheads), (path.name, mastheads)
        for found in mastheads:
            for line in found:
                assert line.endswith((".", "!", "?")), (path.name, found)


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
    """Every rules page; the reference sheet and cards have none (cut into cards, a page footer would
    stay on one card only: tests/test_reference_sheets.py holds that each card names its maker)."""
    title = YAML(typ="safe").load(bundled_definition(game).read_text())["title"]
    for path in [rules(all_games_built[paper], game)]:
        pages = pages_of(path)[rules_pages(path)] if path.name == f"{game}.pdf" else pages_of(path)
        for number, page in enumerate(pages, start=1):
            # below the 8 mm that any page's text keeps from the paper's foot
            foot = [c for c in page.chars if page.height - c["bottom"] < 8 * 72 / 25.4]
            words = "".join(c["text"] for c in sorted(foot, key=lambda c: c["x0"]))
            assert re.match(rf"{re.escape(title)} \u00b7 rules \u00b7 page {number} of \d+",
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
            assert len(pages) % 2 == 0 or any(line.endswith("The back of this sheet is left blank")
                                              for line in foot), foot


def test_each_game_has_its_own_accent_distinct_in_grey(all_games_built):
    accents = {}
    for game in GAMES:
        accents[game] = YAML(typ="safe").load(bundled_definition(game).read_text())["reference"]["accent"].lower()
        assert accents[game] == style.ACCENTS[game]
        # and the rulebook's headings print in it
        red, green, blue = (int(accents[game][i:i + 2], 16) / 255 for i in (1, 3, 5))
        heading = style.HEADING_PT
        first = pages_of(rules(all_games_built["a4"], game))[0]
        inks = {tuple(round(v, 2) for v in c["non_stroking_color"]) for c in first.chars if abs(c["size"] - heading) < 0.05}
        assert (round(red, 2), round(green, 2), round(blue, 2)) in inks, (game, inks)
    values = sorted(lightness(colour) for colour in accents.values())
    assert len(set(accents.values())) == len(GAMES)
    assert all(b - a >= 5 for a, b in zip(values, values[1:])), values
    assert values[-1] <= 50  # dark enough under a table head's white words


# -- issue 43: one house style ----------------------------------------------------------------------

MAX_TYPE_SIZES = 8  # across every rules and reference document of the five games
RARE = 0.001  # a size carrying less than this share of all their glyphs is a picture's label


def documents(folder: Path, game: str) -> list[tuple[Path, slice]]:
    """Each rules and reference PDF of `game`, with the pages of it that are set text."""
    book = rules(folder, game)
    return [(book, rules_pages(book)), *((path, slice(None)) for path in references(folder, game))]


def glyph_sizes(folder: Path) -> Counter:
    counts: Counter = Counter()
    for game in GAMES:
        for path, pages in documents(folder, game):
            for page in pages_of(path)[pages]:
                counts.update(round(c["size"], 1) for c in page.chars if c["text"].strip())
    return counts


@pytest.mark.parametrize("paper", PAPERS)
def test_at_most_eight_text_sizes_across_rules_and_references(all_games_built, paper):
    counts = glyph_sizes(all_games_built[paper])
    total = sum(counts.values())
    sizes = sorted(size for size, n in counts.items() if n >= RARE * total)
    assert len(sizes) <= MAX_TYPE_SIZES, sizes
    assert len(style.TYPE_SCALE) <= MAX_TYPE_SIZES
    for game in GAMES:  # the set text of a reference is the house scale and nothing else
        for path in references(all_games_built[paper], game):
            shares = Counter(round(c["size"], 1) for page in pages_of(path) for c in page.chars if c["text"].strip())
            assert {size for size, n in shares.items() if n >= 20} <= set(style.TYPE_SCALE), (path.name, shares)


def rgb(colour) -> tuple[float, ...]:
    values = tuple(colour or (0,))
    return tuple(round(v, 2) for v in (values * 3 if len(values) == 1 else values))


def accent_rgb(game: str) -> tuple[float, ...]:
    value = style.ACCENTS[game]
    return tuple(round(int(value[i:i + 2], 16) / 255, 2) for i in (1, 3, 5))


@dataclass(frozen=True)
class TitleBlock:
    x0: float  # mm: the title's left edge
    body_x0: float  # mm: the left edge of the text under it
    rule_x0: float  # mm
    rule_height: float  # mm
    rule_width: float  # mm
    words_width: float  # mm: the widest line of the title block
    gap: float  # mm from the title block's last line to its rule


def title_blocks(path: Path, game: str) -> list[TitleBlock]:
    """Each title on page 1 (a reference sheet has one in each half) and the rule under it."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        chars = [c for c in page.chars if c["text"].strip() and c["upright"]]
        titles: dict[float, list[dict]] = {}
        for c in chars:
            if abs(c["size"] - style.TITLE_PT) < 0.05:
                assert rgb(c["non_stroking_color"]) == accent_rgb(game), (path.name, c["text"])
                titles.setdefault(round(c["bottom"]), []).append(c)
        found = []
        for bottom, line in sorted(titles.items()):
            x0 = min(c["x0"] for c in line)
            rules_under = sorted((r for r in page.rects if rgb(r["non_stroking_color"]) == accent_rgb(game)
                                  and r["top"] > bottom and abs(r["x0"] - x0) < 2 * MM and r["height"] < 1 * MM),
                                 key=lambda r: r["top"])
            assert rules_under, (path.name, "no rule under the title")
            rule = rules_under[0]
            block = [c for c in chars if bottom - style.TITLE_PT <= c["top"] and c["bottom"] <= rule["top"]
                     and abs(c["x0"] - x0) < rule["width"]]
            under = [c for c in chars if rule["bottom"] < c["top"] < rule["bottom"] + 30 * MM]
            found.append(TitleBlock(x0 / MM, min(c["x0"] for c in under) / MM, rule["x0"] / MM, rule["height"] / MM,
                                    rule["width"] / MM, (max(c["x1"] for c in block) - x0) / MM,
                                    (rule["top"] - max(c["bottom"] for c in block)) / MM))
        return found


@pytest.mark.parametrize("paper", PAPERS)
def test_one_title_block_in_every_rulebook_and_reference(all_games_built, paper):
    """The title at the scale's title size in the accent, at the text's left edge, over a rule in
    the accent as thick in every document, at least as wide as the block's words, the same distance
    under them; the two halves of a reference sheet each open with one."""
    gaps, thicknesses = [], []
    for game in GAMES:
        for path in (rules(all_games_built[paper], game), references(all_games_built[paper], game)[0]):
            blocks = title_blocks(path, game)
            assert len(blocks) == (2 if "reference" in path.name else 1), (path.name, blocks)
            for block in blocks:
                assert abs(block.x0 - block.body_x0) < 1.0, (path.name, block)  # the text's left edge
                assert abs(block.rule_x0 - block.x0) < 1.0, (path.name, block)
                assert block.rule_width >= block.words_width - 0.5, (path.name, block)
                gaps.append(block.gap)
                thicknesses.append(round(block.rule_height, 2))
    assert len(set(thicknesses)) == 1, thicknesses
    assert max(gaps) - min(gaps) < 1.0, gaps


@pytest.mark.parametrize("paper", PAPERS)
def test_one_table_style_filled_head_in_the_accent(all_games_built, paper):
    """Every table of set text, in every game: its head row's words white and bold on a fill in
    the game's accent, its cells ruled (pdfplumber finds it by its lines)."""
    seen = set()
    for game in GAMES:
        for path, pages in documents(all_games_built[paper], game):
            body = body_size(path)
            with pdfplumber.open(path) as pdf:
                for page in pdf.pages[pages]:
                    for table in page.find_tables():
                        head = page.crop(table.rows[0].bbox).chars
                        words = [c for c in head if c["text"].strip()]
                        if not words or any(round(c["size"], 1) not in (body, style.dense(body)) for c in words):
                            continue  # a picture's boxes (a card, tiles), not a table of text
                        seen.add(game)
                        assert all(rgb(c["non_stroking_color"]) == (1.0, 1.0, 1.0) for c in words), path.name
                        assert all("Bold" in c["fontname"] for c in words), path.name
                        x0, top, x1, bottom = table.rows[0].bbox
                        assert any(rgb(r["non_stroking_color"]) == accent_rgb(game) and r["x0"] <= x0 + 1
                                   and r["x1"] >= x1 - 1 and r["top"] <= top + 1 and r["bottom"] >= bottom - 1
                                   for r in page.rects), (path.name, "head not filled in the accent")
                    text = page.extract_text() or ""
                    assert "\\" not in text, (path.name, "a backslash printed")
    assert seen == set(GAMES), seen


@pytest.mark.parametrize("paper", PAPERS)
def test_the_cut_line_leaves_no_stub_of_a_dash_beside_its_words(all_games_built, paper):
    """Issue 43: the white ground under a reference's cut-line words starts where a dash ends and
    ends where the next begins (the dashes run 3 mm on, 1.5 mm off from the 5 mm safe margin)."""
    on, off, safe = 3.0, 1.5, 5.0
    for game in GAMES:
        for path in references(all_games_built[paper], game):
            with pdfplumber.open(path) as pdf:
                for page in pdf.pages:
                    middle = float(page.height) / 2
                    words = [c for c in page.chars if abs((c["top"] + c["bottom"]) / 2 - middle) < 2 * MM]
                    grounds = [r for r in page.rects if rgb(r["non_stroking_color"]) == (1.0, 1.0, 1.0)
                               and abs((r["top"] + r["bottom"]) / 2 - middle) < 1 * MM]
                    assert words and len(grounds) == 1, path.name
                    x0, x1 = grounds[0]["x0"] / MM, grounds[0]["x1"] / MM
                    assert x0 <= min(c["x0"] for c in words) / MM and max(c["x1"] for c in words) / MM <= x1
                    width = float(page.width) / MM  # a back's line is turned over: its dashes start at the right
                    phases = [((x0 - safe - on) / (on + off), (x1 - safe) / (on + off)),
                              ((width - safe - x1 - on) / (on + off), (width - safe - x0) / (on + off))]
                    assert any(all(abs(v - round(v)) < 0.01 for v in phase) for phase in phases), (path.name, x0, x1)
