"""What Fracas, Armies and Omiga print, read as a player holding the paper reads it (issue 43): the
rules name the printed sheets, never a file; Omiga's rules name the tiles as the tiles are labelled;
its reference table labels every column and leaves no cell empty without meaning; its rules word the
forms as they are printed; the Fracas tokens' names are well above the 7 pt floor and the sheet
ends in its pot mat, not in blank paper. Every test reads the session's shared builds (A4, Letter)."""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pdfmeasure import MM, glyph_pt, once_per_file
from printgen.drawing import style as house
from printgen.games.fracas.piece_art import FACE_NAME_PT
from printgen.games.omiga.tile import NUMBER_PT

PAPERS = ("a4", "letter")
GAMES = ("fracas", "armies", "omiga")
FILE_NAME = re.compile(r"\b[\w-]+\.(?:pdf|png|svg)\b", re.IGNORECASE)
TILE_ID = re.compile(r"\b(?:white|black)-\d+\b")


def flat(text: str) -> str:
    return " ".join(text.split())


@once_per_file
def book_text(path: Path) -> str:
    """The document's words in drawing order (pypdf), so a sentence reads whole across columns; read
    once per file for the session (several tests read the same PDFs, and pypdf's reading is slow)."""
    return flat(" ".join(page.extract_text() or "" for page in pypdf.PdfReader(path).pages))


def printed(folder: Path, game: str) -> list[Path]:
    found = sorted((folder / game).glob("*.pdf"))
    assert f"{game}.pdf" in {p.name for p in found}
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_document_names_a_file(all_games_built, game, paper):
    """A player holds paper: no printed word is a file name (fracas-tokens.pdf, white-01.svg)."""
    named = [(path.name, hit) for path in printed(all_games_built[paper], game)
             for hit in FILE_NAME.findall(book_text(path))]
    assert named == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game, sheets", [
    ("fracas", ("Cut them from the life-token sheet", "The reference sheet puts the turn")),
    ("armies", ("The reference sheet gathers a round",)),
])
def test_the_rules_name_the_printed_sheets(all_games_built, game, paper, sheets):
    book = book_text(all_games_built[paper] / game / f"{game}.pdf")
    for words in sheets:
        assert book.count(words) == 1, words


def test_the_sheets_the_rules_name_carry_those_names(all_games_built):
    """What the rules call the life-token sheet is titled so; what they call the reference sheet is
    one page, printed one-sided and cut in two."""
    folder = all_games_built["a4"]
    assert "Fracas: life tokens" in book_text(folder / "fracas" / "fracas-tokens.pdf")
    for game in ("fracas", "armies"):
        sheet = folder / game / f"{game}-reference.pdf"
        assert len(pypdf.PdfReader(sheet).pages) == 1
        assert "Print one-sided at actual size; cut here" in book_text(sheet)


# -- Omiga: the tiles named as they are labelled -------------------------------------------------

EXAMPLE = re.compile(r"white tiles (\d+) and (\d+) side by side, black tile (\d+) above")


def is_tile_number(char: dict) -> bool:
    """A digit of a tile number: bold, at NUMBER_PT (a footer's or caption's digits are regular)."""
    return char["text"].isdigit() and "Bold" in char["fontname"] and abs(glyph_pt(char) - NUMBER_PT) < 0.05


def tile_numbers(page) -> list[int]:
    """The numbers set in NUMBER_PT digits on a page, the tile numbers (no caption, no emblem): runs of
    digits on one baseline with no gap between them."""
    digits = sorted({(round(c["top"], 1), round(c["x0"], 2), round(c["x1"], 2), c["text"])  # read twice: once
                     for c in page.chars if is_tile_number(c)})
    numbers: list[list] = []
    for top, x0, x1, text in digits:
        if numbers and numbers[-1][0] == top and x0 - numbers[-1][1] < 1.0:
            numbers[-1][1:] = [x1, numbers[-1][2] + text]
        else:
            numbers.append([top, x1, text])
    return [int(text) for _, _, text in numbers]


def number_digits(page) -> list[str]:
    """The tile numbers printed on a page: the digits set at the tile number's size."""
    found = {(round(c["top"], 1), round(c["x0"], 2), c["text"]) for c in page.chars
             if is_tile_number(c)}  # a glyph read twice counts once
    return sorted(text for *_, text in found)


@pytest.mark.parametrize("paper", PAPERS)
def test_omiga_names_each_tile_as_it_is_labelled(all_games_built, paper):
    """The rules' and the reference's example name the tiles by deck and the number printed in
    their corner, and the drawing beside the words prints those very numbers; no printed document
    names a tile 'white-01', which no tile shows."""
    folder = all_games_built[paper] / "omiga"
    for path in printed(all_games_built[paper], "omiga"):
        assert not TILE_ID.search(book_text(path)), path.name
    rules = book_text(folder / "omiga.pdf")
    low, right, up = EXAMPLE.search(rules).groups()
    with pdfplumber.open(folder / "omiga.pdf") as pdf:
        example_page = next(page for page in pdf.pages[:2]
                            if "Three tiles as they lie" in flat(page.extract_text() or ""))
        assert number_digits(example_page) == sorted(low + right + up)
        assert NUMBER_PT in house.TYPE_SCALE and NUMBER_PT > 7.0  # the house's caption size
        # the tile sheets print the same numbers in the same size: 1 to 36 on each deck's faces
        faces = [pdf.pages[i] for i in range(2, len(pdf.pages), 2)]
        assert sorted(n for page in faces for n in tile_numbers(page)) == sorted([*range(1, 37)] * 2)
    assert EXAMPLE.search(book_text(folder / "omiga-reference.pdf")).groups() == (low, right, up)


def reference_table(page):
    return next(t for t in page.find_tables() if "Edge" in (t.extract() or [[]])[0])


def fills(page) -> list[tuple[tuple[float, ...], tuple[float, float, float, float]]]:
    return [(tuple(r["non_stroking_color"] or ()), (r["x0"], r["top"], r["x1"], r["bottom"]))
            for r in page.rects if r["fill"]]


@pytest.mark.parametrize("paper", PAPERS)
def test_omiga_reference_table_labels_every_column_and_fills_every_cell(all_games_built, paper):
    """The head row names every column (a cell pdfplumber reads as None is spanned by its
    neighbour); a body cell without words is a colour swatch, filled; the Edge cells span their rows."""
    with pdfplumber.open(all_games_built[paper] / "omiga" / "omiga.pdf") as pdf:
        page = pdf.pages[0]
        table = reference_table(page)
        rows = table.extract()
        assert [cell for cell in rows[0] if cell is not None] == ["Edge", "Kind", "Joins"]
        assert all(cell != "" for cell in rows[0])
        swatches = 0
        for words, cells in zip(rows[1:], table.rows[1:]):
            for text, box in zip(words, cells.cells):
                if text == "":
                    filled = [colour for colour, (x0, top, x1, bottom) in fills(page)
                              if abs(x0 - box[0]) < 1 and abs(x1 - box[2]) < 1
                              and top <= box[1] + 1 and bottom >= box[3] - 1 and colour not in ((1,), (1, 1, 1))]
                    assert filled, ("an empty cell that is no swatch", box)
                    swatches += 1
        assert swatches == 2  # green and pink
        edges = [row[0] for row in rows[1:]]
        assert [e for e in edges if e] == ["left and\nright", "top and\nbottom"]
        assert all(e is None for e in edges if not e)  # spanned, not left blank


@pytest.mark.parametrize("paper", PAPERS)
def test_omiga_words_the_forms_as_printed(all_games_built, paper):
    """The tiles print the forms as bands (light on the white deck, dark on the black one, hatch
    behind): no 'grey gutter' is printed, so the rules speak of the bands closing into one strip."""
    rules = book_text(all_games_built[paper] / "omiga" / "omiga.pdf")
    assert "gutter" not in rules
    assert "their bands close into one even strip" in rules


# -- Fracas: the token sheet ---------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPERS)
def test_fracas_token_names_are_set_well_above_the_floor(all_games_built, paper):
    """Each token's owner's name at FACE_NAME_PT (8.5 pt), one of the house sizes; nothing on the
    sheet below 7 pt."""
    with pdfplumber.open(all_games_built[paper] / "fracas" / "fracas-tokens.pdf") as pdf:
        page = pdf.pages[0]
        names = [w for w in page.extract_words(extra_attrs=["size"]) if w["text"] in ("Red", "Black")]
        assert len(names) == 24  # 10 ones and 2 fives a player
        assert {round(w["size"], 1) for w in names} == {FACE_NAME_PT}
        assert FACE_NAME_PT in house.TYPE_SCALE
        assert min(glyph_pt(c) for c in page.chars if c["text"].strip()) >= 7.0 - 0.01


@pytest.mark.parametrize("paper", PAPERS)
def test_fracas_tokens_come_as_ones_and_fives_worth_each_players_life(all_games_built, paper):
    """20 life a player as 10 one-point and 2 five-point tokens (tokens.fives: 2), so a hit of 14
    is paid with three tokens; the big numerals in each player's colour say so, and the rules tell
    a player what to take."""
    with pdfplumber.open(all_games_built[paper] / "fracas" / "fracas-tokens.pdf") as pdf:
        page = pdf.pages[0]
        big = [c for c in page.chars if c["size"] > 12 and c["text"] in "15"]
        inks = sorted({tuple(c["non_stroking_color"]) for c in big})
        assert len(inks) == 2
        for ink in inks:
            worth = sorted(c["text"] for c in big if tuple(c["non_stroking_color"]) == ink)
            assert worth == ["1"] * 10 + ["5"] * 2
        assert "Red: 20 life: 10 ones and 2 fives" in (page.extract_text() or "")
    rules = book_text(all_games_built[paper] / "fracas" / "fracas.pdf")
    assert "10 one-point and 2 five-point tokens" in rules
    assert "count their points" in rules


def test_fracas_fives_worth_more_than_a_players_life_are_refused_where_written(run_cli, copy_definition, tmp_path):
    path = copy_definition("fracas")
    text = path.read_text()
    assert text.count("  fives: 2 ") == 1
    path.write_text(text.replace("  fives: 2 ", "  fives: 5 "))
    line = 1 + path.read_text()[:path.read_text().index("  fives: 5")].count("\n")
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert re.search(rf"fracas\.yaml:{line}: tokens\.fives: 5 five-point tokens are worth 25 and each player "
                     r"has 20 life; use at most 4", result.output), result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("paper", PAPERS)
def test_fracas_token_sheet_ends_in_its_pot_mat(all_games_built, paper):
    """The pot mat runs down to the house margin above the footer: the page is not a quarter blank."""
    with pdfplumber.open(all_games_built[paper] / "fracas" / "fracas-tokens.pdf") as pdf:
        page = pdf.pages[0]
        height = float(page.height)
        marks = [*page.rects, *page.curves, *page.lines]
        lowest = min((height - m["bottom"]) / MM for m in marks)  # mm above the paper's foot
        assert lowest <= house.MARGIN + 0.5, lowest
        blank = (lowest - house.MARGIN) / (height / MM - 2 * house.MARGIN)
        assert blank < 0.25
