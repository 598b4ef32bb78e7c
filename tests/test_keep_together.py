"""Issue 35: what is read together stays together. Every bundled rules and reference PDF, built on A4
and on Letter, is read back with pdfplumber: no table row goes on in the next column or page, and
no list item, numbered step or question with its answer runs on across a column or page."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

import keeping

from keeping import Row, broken_rows, columns, item_start, split_items, split_lists, split_tables
from typeset import body_size

PAPERS = ("a4", "letter")
GAMES = ("fracas", "armies", "omiga", "one_minute_war", "quick_violence")


def rules_pages(name: str, count: int) -> slice:
    """The pages of running text: Omiga's tile sheets and Quick Violence's measuring page are not."""
    if name == "omiga.pdf":
        return slice(0, 2)
    if name == "quick_violence.pdf":
        return slice(0, count - 1)
    return slice(None)


def documents(folder: Path, game: str) -> list[Path]:
    return [folder / game / f"{game}{suffix}.pdf" for suffix in ("", "-reference", "-reference-cards")]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_table_row_item_step_or_question_breaks(all_games_built, game, paper):
    for path in documents(all_games_built[paper], game):
        with pdfplumber.open(path) as pdf:
            pages = rules_pages(path.name, len(pdf.pages))
        found, tables = columns(path, pages)
        assert sum(len(rows) for rows in found) > 20, path.name  # the text was read
        assert broken_rows(tables) == [], path.name
        assert split_items(path, body_size(path), pages) == [], path.name


SHORT_TABLE = 8  # rows under the head (issue 43): such a table never prints in two parts
SHORT_LIST = 6  # items: such a list never breaks between columns or pages


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_short_table_or_short_list_splits(all_games_built, game, paper):
    """Issue 43: a table of up to 8 rows, or a list of up to 6 items, stays in one column; read as a
    table part repeating the head of the part before it in another column, or a column whose foot
    is a list's items and the next column's top more of them."""
    for path in documents(all_games_built[paper], game):
        with pdfplumber.open(path) as pdf:
            pages = rules_pages(path.name, len(pdf.pages))
        assert split_tables(path, SHORT_TABLE, pages) == [], path.name
        assert split_lists(path, SHORT_LIST, pages) == [], path.name


def test_the_detectors_find_a_split_table_and_a_split_list():
    part = {"page": 0, "top": 10.0, "bottom": 50.0}
    head = ["Step", "What you do"]
    before = keeping.TablePart(side=0, rows=[head, ["1", "a"], ["2", "b"]], **part)
    after = keeping.TablePart(side=1, rows=[head, ["3", "c"]], **part)
    assert keeping.item_run([Row(14.0, 700.0, "Actions, in any mix:", False, 9.5),
                             Row(14.7, 712.0, "\u2022 Move: one leap", False, 9.5),
                             Row(18.0, 724.0, "along its arrow.", False, 9.5)], from_end=True) == 1
    assert keeping.item_run([Row(14.7, 60.0, "\u2022 Attack: one enemy", False, 9.5),
                             Row(14.7, 72.0, "\u2022 Defend: first", False, 9.5),
                             Row(14.0, 84.0, "Actions not used are lost.", False, 9.5)], from_end=False) == 2
    assert keeping.item_run([Row(14.7, 700.0, "\u2022 Move", False, 9.5),
                             Row(14.0, 712.0, "A paragraph after the list.", False, 9.5)], from_end=True) == 0
    original = keeping.table_parts
    try:
        keeping.table_parts = lambda path, pages=slice(None): [before, after]  # type: ignore[assignment]
        assert keeping.split_tables(Path("x.pdf"), SHORT_TABLE) == [head]
        assert keeping.split_tables(Path("x.pdf"), 2) == []  # a long table may break
    finally:
        keeping.table_parts = original


@pytest.mark.parametrize("paper", PAPERS)
def test_long_tables_that_break_repeat_their_head(all_games_built, paper):
    # a table part at a column's top starts with the head row, in bold white on the accent
    for game in ("fracas", "armies"):
        path = all_games_built[paper] / game / f"{game}.pdf"
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                for table in page.find_tables():
                    if not any((cell or "").strip() for cell in table.extract()[0]):
                        continue  # a drawing's boxes, not a table
                    top = page.crop(table.rows[0].bbox)
                    fonts = {c["fontname"] for c in top.chars}
                    assert fonts and all("Bold" in f for f in fonts), (game, table.extract()[0])


def test_the_detector_finds_a_broken_step():
    # the check itself: a column ending inside a bold-led step, the next starting mid-sentence
    before = [Row(14.0, 100.0, "Turn 3. Red untaps and draws, leaving the", True, 9.5),
              Row(14.0, 111.6, "King upright so that the", False, 9.5)]
    assert item_start(before, 9.5) == before[0]
    assert broken_rows([[["Role", "What"], ["A", "b"]], [["Role", "What"], ["", "goes on"]]]) == [["", "goes on"]]


@pytest.mark.parametrize("paper", PAPERS)
def test_the_armies_positions_drawing_and_its_table_share_a_column(all_games_built, paper):
    """"Marking lost stamina": the four poses of a card and the table of SP left in each are read
    together, so they print in one column of one page (the table once followed on the sheet's back)."""
    found = []
    with pdfplumber.open(all_games_built[paper] / "armies" / "armies.pdf") as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            middle = float(page.width) / 2
            words = page.extract_words()
            for word, after in zip(words, words[1:]):
                if (word["text"], after["text"]) in (("nothing", "lost"), ("Position", "SP")):  # under the
                    found.append((word["text"], number, word["x0"] < middle, word["top"]))  # upright pose; the head
    assert len(found) == 2, found
    (_, page_a, left_a, top_a), (_, page_b, left_b, top_b) = sorted(found, key=lambda f: f[0] != "nothing")
    assert (page_a, left_a) == (page_b, left_b) and top_a < top_b, found  # the table under the drawing
