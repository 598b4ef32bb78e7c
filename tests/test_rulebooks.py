"""The Fracas and Armies rulebooks and Fracas's separate token sheet, measured in the PDFs
`printgen build` writes, on A4 and on Letter: what each file holds and how its first page says to
print it, the sections in order, the rules fixes, and that every page but the last ends level.
"""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from building import build, edited
from printgen.drawing import style
from pdfmeasure import CUT_DASH, MM, once_per_file, reading_text, segments

PAPERS = ("a4", "letter")
GAMES = ("fracas", "armies")
FOOTER_MM = 12.0  # the page footer sits below this; body text sits above the 14 mm margin
MAX_FOOT_MM = 70.0  # the 14 mm margin and at most a quarter of a column left blank (issue 35)
HEADING_PT = style.HEADING_PT  # the house heading size
SECTIONS = {
    "fracas": ["What you need", "Setting up", "Who goes first", "The cards", "Your turn",
               "Attacking", "Settling a skirmish", "The end of a game", "Winning the match",
               "An example of play", "Questions that come up"],
    "armies": ["What you need", "Setting up", "Armies and stamina", "A round", "Who wins a round",
               "Winning", "Marking lost stamina", "An example of play", "Questions that come up"],
}


@pytest.fixture(scope="module")
def built(card_games_built) -> dict[str, Path]:
    return card_games_built


@once_per_file
def words_of(path: Path) -> list[str]:
    """Each page's text in reading order, without the footer (it spans both columns, and a sentence
    running from one column into the next would read with the footer in its middle); read once per
    file (several tests read the same rulebook)."""
    with pdfplumber.open(path) as pdf:
        return [reading_text(page.crop((0, 0, page.width, page.height - FOOTER_MM * MM))) for page in pdf.pages]


@once_per_file
def headings(path: Path) -> list[tuple[int, str]]:
    """(page, text) of every line set bold at the heading size, in reading order."""
    found = []
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            mid = float(page.width) / 2
            words = [w for w in page.extract_words(extra_attrs=["fontname", "size"])
                     if "Bold" in w["fontname"] and abs(w["size"] - HEADING_PT) < 0.05]
            lines: dict[tuple[bool, float], list[dict]] = {}
            for w in words:
                lines.setdefault((w["x0"] > mid, round(w["top"], 1)), []).append(w)
            for key in sorted(lines):
                found.append((number, " ".join(w["text"] for w in sorted(lines[key], key=lambda w: w["x0"]))))
    return found


def duplex(path: Path) -> str:
    return str(pypdf.PdfReader(path).trailer["/Root"]["/ViewerPreferences"]["/Duplex"])


def column_feet(page) -> list[float]:
    """How high above the paper's bottom edge each column's lowest body text ends, in mm."""
    height, mid = float(page.height), float(page.width) / 2
    feet: dict[bool, float] = {}
    for c in page.chars:
        y = (height - c["bottom"]) / MM
        if c["text"].strip() and y > FOOTER_MM:
            side = c["x0"] > mid
            feet[side] = min(feet.get(side, y), y)
    return [feet[side] for side in sorted(feet)]


def test_fracas_tokens_are_a_pdf_of_their_own_printed_single_sided(built):
    for paper, out in built.items():
        tokens, book = out / "fracas" / "fracas-tokens.pdf", out / "fracas" / "fracas.pdf"
        assert duplex(tokens) == "/Simplex"
        (page,) = words_of(tokens)
        assert "Print single-sided" in page and "Red: 20 life: 10 ones and 2 fives" in page
        with pdfplumber.open(tokens) as pdf:
            assert len(segments(pdf.pages[0], CUT_DASH)) > 10  # the grid to cut the tokens apart
        with pdfplumber.open(book) as pdf:  # the duplex rulebook has no tokens anywhere
            for number, page in enumerate(pdf.pages, start=1):
                assert segments(page, CUT_DASH) == [], (paper, number)
                assert not [c for c in page.chars if c["text"] == "1" and c["size"] > 12], (paper, number)
        assert "the life-token sheet" in words_of(book)[0]  # the rules say where the tokens are, as printed


@pytest.fixture(scope="module")
def flipped(built, short_flip_built) -> dict[str, Path]:
    """`printgen build fracas armies --flip FLIP` on A4: long is the default, so the session's A4
    build is that build; short is the session's `short_flip_built`."""
    return {"long": built["a4"], "short": short_flip_built}


@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_rulebook_says_on_its_first_page_to_print_both_sides_and_which_edge(flipped, flip):
    out = flipped[flip]
    for game in GAMES:
        book = out / game / f"{game}.pdf"
        first = words_of(book)[0]
        assert "on both sides of the paper" in first and f"on its {flip} edge" in first, first[:300]
        assert duplex(book) == f"/DuplexFlip{flip.capitalize()}Edge"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_come_first_with_every_section_in_order(built, game):
    for paper, out in built.items():
        book = out / game / f"{game}.pdf"
        found = headings(book)
        names = [text for _, text in found]
        assert [s for s in names if s in SECTIONS[game]] == SECTIONS[game], (paper, names)
        first_page = [text for page, text in found if page == 1]
        assert first_page[:3] == ["What you need", "What the game is about", "Setting up"], (paper, first_page)
        assert words_of(book)[0].startswith(game.capitalize())  # the title leads page 1


def test_fracas_says_who_goes_first_and_how_one_general_enlists_a_pair(built):
    out = built["a4"]
    book = " ".join(words_of(out / "fracas" / "fracas.pdf"))
    section = book[book.index("Who goes first"):book.index("The cards")]
    assert "toss a coin" in section and "\u2020" in section  # marked as a ruling (issues 36, 43)
    # the sentence runs from the first column into the second, where the reader may take in the
    # title band's last words between them
    assert re.search(r"the player holding fewer (.* )?tokens goes first", section), section
    assert "so a General shares the suit of only one of them. That is enough: either suit will do" in book
    assert "only a joker enlists a pair" in book  # the stricter reading, in the notes on this edition
    assert "the only one under which a pair can ever be enlisted" not in book  # false: a joker can
    assert "this edition lets either suit do" in book and "printgen" not in book
    sheet = " ".join(words_of(out / "fracas" / "fracas-reference.pdf"))
    assert "A coin toss in the first game" in sheet and "tokens \u2020" in sheet
    assert "if either of the two shares the General's suit \u2020" in sheet  # the Enlist step, from the YAML


def test_armies_no_longer_says_a_card_is_never_played_twice(built):
    for out in built.values():
        for name in ("armies.pdf", "armies-reference.pdf", "armies-reference-cards.pdf"):
            text = " ".join(words_of(out / "armies" / name))
            assert "played twice" not in text and "then looks" not in text, name
            assert "shuffled into a new fighting pile" in text, name  # the round's Discard step
        book = " ".join(words_of(out / "armies" / "armies.pdf"))
        assert "Cards played earlier can therefore come round again" in book
        assert "Pick up your army cards and look at them" in book


def test_the_examples_name_real_cards_and_follow_the_rules(built):
    fracas = " ".join(words_of(built["a4"] / "fracas" / "fracas.pdf"))
    example = fracas[fracas.index("An example of play"):fracas.index("Questions that come up")]
    for words in ("Turn 1.", "Turn 4.", "King of hearts", "the Ace of diamonds on the 8 of clubs",
                  "Now 14 beats 10", "throws the Jack in front of the attack", "keeps all 20 tokens",
                  "9 against 9 is a tie, so both are discarded"):
        assert words in example, words
    armies = " ".join(words_of(built["a4"] / "armies" / "armies.pdf"))
    example = armies[armies.index("An example of play"):armies.index("Questions that come up")]
    for words in ("Round 1.", "Round 5.", "Tom's Queen loses 1 SP and is turned sideways: 1 SP left",
                  "Mia's King loses 1 SP and is turned sideways: 2 SP left",
                  "Tom turns up the Ace, fresh with 4 SP"):
        assert words in example, words


def test_the_armies_example_is_played_out_from_the_definition(run_cli, copy_definition, tmp_path):
    path = edited(copy_definition, "armies", [("    index: Q\n    stamina: 2\n", "    index: Q\n    stamina: 3\n")])
    assert run_cli("build", path, "--out", tmp_path).exit_code == 0
    book = " ".join(words_of(tmp_path / "armies" / "armies.pdf"))
    assert "Tom's Queen loses 1 SP and is turned diagonal: 1 SP left" in book  # a 3 SP Queen survives
    assert "Tom turns up the Ace" not in book


@pytest.mark.parametrize("game", GAMES)
def test_questions_that_come_up_are_answered(built, game):
    book = " ".join(words_of(built["letter"] / game / f"{game}.pdf"))
    start = book.index("Questions that come up")
    ends = [book.index(h, start) for h in ("Playing well", "The original rules have no title") if h in book[start:]]
    questions = book[start:min(ends)]
    assert len(re.findall(r"\?", questions)) >= 5


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_page_but_the_last_ends_near_its_foot(built, game, paper):
    with pdfplumber.open(built[paper] / game / f"{game}.pdf") as pdf:
        pages = pdf.pages
        assert len(pages) >= 2
        for number, page in enumerate(pages[:-1], start=1):
            feet = column_feet(page)
            assert len(feet) == 2 and max(feet) <= MAX_FOOT_MM, (number, feet)
        last = column_feet(pages[-1])  # the last page's two columns end level within 15 % of a column
        column = float(pages[-1].height) / MM - 2 * 14
        assert len(last) == 2 and abs(last[0] - last[1]) < 0.15 * column, last


def test_a_larger_text_size_takes_more_pages_and_still_ends_them_level(run_cli, copy_definition, tmp_path, built):
    path = edited(copy_definition, "armies", [("rules:\n  text_size_pt: 9.5\n", "rules:\n  text_size_pt: 12\n")])
    assert run_cli("build", path, "--out", tmp_path / "big").exit_code == 0
    # the usual size: `printgen build armies` on A4, the default paper (the session's build)
    big, usual = (pypdf.PdfReader(d / "armies" / "armies.pdf") for d in (tmp_path / "big", built["a4"]))
    assert len(big.pages) > len(usual.pages)
    with pdfplumber.open(tmp_path / "big" / "armies" / "armies.pdf") as pdf:
        footer = pdf.pages[-1].extract_text().splitlines()[-1]
        assert footer.startswith(f"Armies \u00b7 rules \u00b7 page {len(pdf.pages)} of {len(pdf.pages)} \u00b7 ")
        for page in pdf.pages[:-1]:
            assert max(column_feet(page)) <= MAX_FOOT_MM


def test_a_rules_text_size_below_7_pt_is_refused_where_it_is_written(run_cli, copy_definition, tmp_path):
    path = copy_definition("fracas")
    text = path.read_text()
    path.write_text(text.replace("rules:\n  text_size_pt: 9.5\n", "rules:\n  text_size_pt: 6\n"))
    result = run_cli("build", path, "--out", tmp_path)
    assert result.exit_code == 2
    line = next(n for n, l in enumerate(path.read_text().splitlines(), 1) if l == "  text_size_pt: 6")
    assert re.search(rf"fracas\.yaml:{line}: rules\.text_size_pt: expected .*7", result.output), result.output


def test_list_names_the_rulebooks_and_the_token_sheet(run_cli):
    listed = run_cli("list").stdout
    assert "fracas.pdf: the rulebook" in listed and "armies.pdf: the rulebook" in listed
    assert "fracas-tokens.pdf: a page of life tokens" in listed and "(print single-sided)" in listed


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_column_ends_with_a_heading_and_no_table_row_breaks(built, game, paper):
    tables = []  # every table part in reading order, through the whole booklet
    with pdfplumber.open(built[paper] / game / f"{game}.pdf") as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            mid = float(page.width) / 2
            words = [w for w in page.extract_words(extra_attrs=["fontname", "size"])
                     if (float(page.height) - w["bottom"]) / MM > FOOTER_MM]
            for side in (False, True):
                column = [w for w in words if (w["x0"] > mid) == side]
                if column:
                    lowest = max(column, key=lambda w: w["bottom"])
                    assert abs(lowest["size"] - HEADING_PT) > 0.05, (number, side, lowest["text"])
            found = sorted(page.find_tables(), key=lambda t: (t.bbox[0] > mid, t.bbox[1]))
            tables += [table.extract() for table in found]
    for before, after in zip(tables, tables[1:]):
        tail = after[1] if len(after) > 1 else []
        assert not (tail and not tail[0] and any(tail)), (before[-1], tail)  # a row going on here
    assert tables


@pytest.mark.parametrize("paper", PAPERS)
def test_a_short_list_is_never_broken_between_pages(all_games_built, paper):
    # One Minute War's round, step by step, is a heading and five numbered steps: on A4 and Letter
    # alike they stand together in one column, wherever the flow puts them
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        found = [(number, page) for number, page in enumerate(pdf.pages)
                 if "A round, step by step" in (page.extract_text() or "")]
        assert len(found) == 1
        number, page = found[0]
        heading = page.search("A round, step by step")[0]
        starts = [page.search(words) for words in ("Only the side with fewer", "Pick a soldier in secret",
                                                   "On three, show", "Fold down whoever", "Nobody standing")]
    assert all(len(hits) == 1 for hits in starts), starts  # every step on the heading's page
    for hits in starts:
        assert hits[0]["top"] > heading["top"] and abs(hits[0]["x0"] - heading["x0"]) < 12 * MM


def test_a_rulebook_with_a_page_break_of_its_own_still_ends_in_level_columns(run_cli, tmp_path):
    """A designer's `<!-- page break -->` in a copied rules template: the pages after it fill as before, and
    the last page's two columns still end level (the break was once put back after the page it
    ended, which left the last page as one long column and an empty one)."""
    from typeset import column_blanks

    assert run_cli("new", "fracas", tmp_path / "mine", "--templates").exit_code == 0
    rules = tmp_path / "mine" / "templates" / "fracas" / "rules.md.j2"
    text = rules.read_text()
    assert text.count("\n## Setting up\n") == 1
    rules.write_text(text.replace("\n## Setting up\n", "\n<!-- page break -->\n\n## Setting up\n"))
    blanks = column_blanks(build(tmp_path / "out", str(tmp_path / "mine" / "mine.yaml")) / "mine" / "mine.pdf")
    assert len(blanks) >= 3 and blanks[0][1] > 0.5  # the first page ends where the designer broke it
    last = blanks[-1]
    assert len(last) == 2 and abs(last[0] - last[1]) <= 0.15, blanks
