"""`printgen build`'s options for decks (--layout, --rows, --name, --guides, --paper) and a deck's
data as TSV and .xlsx: every build read back from its PDF, pages counted and rectangles measured."""
from __future__ import annotations

import csv
import io
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from building import build as build_once
from conftest import cards_only
from printgen.games import bundled_definition

MM = 72 / 25.4
CARD_W, CARD_H = 63.5, 88.9
BAND_W = 57.5  # the sample's title band on each face, 3 mm inside the card
FRAME_W = 46.5  # the sample back's plain panel (back.svg.j2), FRAME_IN mm inside the card
FRAME_IN = 8.5
SAFE = 3.0  # the sample's card.safe
CARDS = 16  # the sample's 8 rows, copies counted
TRIM, SAFE_COLOUR, BLEED = (0.9, 0.0, 0.6), (0.0, 0.6, 0.85), (1.0, 0.5, 0.0)  # printgen.games.deck.chosen



def build(run_cli, deck: Path, out: Path, *args: str) -> Path:
    result = run_cli("build", deck, "--out", out, "--no-pictures", *args)
    assert result.exit_code == 0, result.output
    return out / deck.stem / f"{deck.stem}.pdf"


@pytest.fixture(scope="module")
def as_it_is(tmp_path_factory) -> Path:
    """`printgen build DECK --no-pictures` of the `deck` fixture's deck (the sample's cards only,
    conftest.py) as it is, made once for the tests that build exactly that: its PDF."""
    folder = tmp_path_factory.mktemp("as-it-is")
    shutil.copytree(bundled_definition("deck").parent, folder / "mine", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    deck = cards_only(folder / "mine" / "deck.yaml")
    return build_once(folder / "out", str(deck), "--no-pictures") / "deck" / "deck.pdf"


def boxes(page, width: float, colour: tuple[float, ...] | None = None) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) in mm, y up, of every rectangle `width` mm wide (stroked in `colour` if given)."""
    found = set()
    for r in page.rects + page.curves:
        w, h = (r["x1"] - r["x0"]) / MM, (r["bottom"] - r["top"]) / MM
        stroke = tuple(round(c, 2) for c in (r.get("stroking_color") or ()))
        if abs(w - width) < 0.02 and (colour is None or stroke == colour):
            found.add((round(r["x0"] / MM, 2), round((float(page.height) - r["bottom"]) / MM, 2), round(w, 2),
                       round(h, 2)))
    return sorted(found)


def bands(page) -> list[tuple[float, float, float, float]]:
    """The sample's title bands: one on each face."""
    return [box for box in boxes(page, BAND_W) if abs(box[3] - 11) < 0.02]


BLANK_FRAME = (0.78, 0.78, 0.78)  # a blank card's writing frame (sheet.fill: blank), SAFE mm inside its cut


def blanks(page) -> list[tuple[float, float, float, float]]:
    """The blank cards that fill out the sample's last sheet: their faint frames."""
    return boxes(page, CARD_W - 2 * SAFE, BLANK_FRAME)


def caption(page) -> str:
    """The page's caption: the text in the bottom margin (or the top margin, where the back of a
    sheet turned over top to bottom has it, behind the front's)."""
    height = float(page.height)
    return "".join(c["text"] for c in page.chars if min(height - c["bottom"], c["top"]) / MM < 9)


def texts(pdf_path: Path) -> list[str]:
    with pdfplumber.open(pdf_path) as pdf:
        return [page.extract_text() for page in pdf.pages]


# -- --layout ------------------------------------------------------------------------------------

def test_layout_gutterfold_and_fronts_override_the_decks_duplex(run_cli, deck, tmp_path, as_it_is):
    with pdfplumber.open(as_it_is) as pdf:  # the deck's own `layout: duplex`
        assert len(pdf.pages) == 4  # 16 cards, 9 a sheet (the last ends in 2 blanks), each a front and a back
        assert len(boxes(pdf.pages[1], FRAME_W)) == 9
    with pdfplumber.open(build(run_cli, deck, tmp_path / "fold", "--layout", "gutterfold")) as pdf:
        # the sheet turned: 2 x 2 fronts on the left half of each sheet (3 upright), backs on the right
        assert len(pdf.pages) == 4
        placed = 0
        for page in pdf.pages:
            width = float(page.width) / MM
            found = bands(page)
            placed += len(found)
            assert found and all(x - 3 + CARD_W <= width / 2 for x, *_ in found)
            assert len(boxes(page, FRAME_W)) == len(found) + len(blanks(page))  # a blank has the back too
            assert all(x >= width / 2 for x, *_ in boxes(page, FRAME_W))
            assert "fold along the dotted line" in caption(page)
        assert placed == CARDS
    with pdfplumber.open(build(run_cli, deck, tmp_path / "fronts", "--layout", "fronts")) as pdf:
        assert len(pdf.pages) == 2
        assert sum(len(bands(p)) for p in pdf.pages) == CARDS
        assert not any(boxes(p, FRAME_W) for p in pdf.pages)
        assert "Print one-sided" in caption(pdf.pages[0])


def test_layout_on_a_game_without_card_sheets_is_a_warning(run_cli, tmp_path):
    result = run_cli("build", "omiga", "--out", tmp_path / "o", "--layout", "fronts")
    assert result.exit_code == 0, result.output
    assert "--layout: Omiga has no sheets of cards from rows of data; --layout applies to decks only" in result.output
    assert (tmp_path / "o" / "omiga" / "omiga.pdf").is_file()


# -- --rows --------------------------------------------------------------------------------------

def test_rows_builds_only_those_rows_and_the_captions_say_so(run_cli, deck, tmp_path):
    with pdfplumber.open(build(run_cli, deck, tmp_path / "o", "--rows", "2-3")) as pdf:
        assert len(pdf.pages) == 2  # 2 + 3 copies: one sheet
        text = pdf.pages[0].extract_text()
        assert text.count("Frost Draught") == 2 and text.count("Mossy Elixir") == 3
        assert "Ember Tonic" not in text and "Storm Flask" not in text
        assert len(bands(pdf.pages[0])) == 5
        for page in pdf.pages:
            assert caption(page).startswith("Potion Shop (rows 2-3 of 8), sheet 1 of 1,")
    with pdfplumber.open(build(run_cli, deck, tmp_path / "p", "--rows", "1,4,7-8")) as pdf:
        text = pdf.pages[0].extract_text()
        assert "(rows 1, 4, 7-8 of 8)" in caption(pdf.pages[0])
        assert len(bands(pdf.pages[0])) == 3 + 1 + 2 + 2
        assert "Frost Draught" not in text and "Gale Water" in text


def test_rows_past_the_end_are_located_at_the_data(run_cli, deck, tmp_path):
    result = run_cli("build", deck, "--out", tmp_path / "o", "--rows", "7-12")
    assert result.exit_code == 2
    line = next(i for i, text in enumerate(deck.read_text().splitlines(), 1) if text.startswith("data:"))
    assert (f"deck.yaml:{line}: data: --rows 7-12: the deck has 8 rows, so row 9 is past the end; expected rows "
            "from 1 to 8") in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()


@pytest.mark.parametrize("spec, said", [
    ("3-1", "ranges from low to high"), ("0", "expected rows from 1"), ("a", "expected row numbers and ranges"),
    ("", "expected row numbers"), ("2,,3", "expected row numbers"), ("1-99999", "at most 20,000 rows"),
])
def test_a_bad_rows_spec_is_a_usage_error(run_cli, deck, tmp_path, spec, said):
    result = run_cli("build", deck, "--out", tmp_path / "o", "--rows", spec)
    assert result.exit_code == 2
    assert "Invalid value for '--rows'" in result.output and said in result.output
    assert not (tmp_path / "o").exists()


# -- --name --------------------------------------------------------------------------------------

def test_name_renames_the_folder_and_the_files(run_cli, deck, tmp_path):
    result = run_cli("build", deck, "--out", tmp_path / "o", "--name", "potions-v2")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "o" / "potions-v2"
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["potions-v2"]
    assert (folder / "potions-v2.pdf").is_file() and not (folder / "deck.pdf").exists()
    assert len(list((folder / "svg").glob("*.svg"))) == 9  # 8 faces and the shared back
    with pdfplumber.open(folder / "potions-v2.pdf") as pdf:
        assert len(pdf.pages) == 4


@pytest.mark.parametrize("name", ["../up", "a/b", ".hidden", "x" * 61, "end."])
def test_a_bad_name_is_a_usage_error(run_cli, deck, tmp_path, name):
    result = run_cli("build", deck, "--out", tmp_path / "o", "--name", name)
    assert result.exit_code == 2 and "Invalid value for '--name'" in result.output
    assert not (tmp_path / "o").exists()


def test_name_with_two_games_and_two_definitions_of_one_name_are_usage_errors(run_cli, deck, tmp_path):
    result = run_cli("build", deck, "omiga", "--out", tmp_path / "o", "--name", "both")
    assert result.exit_code == 2 and "--name both: names the output of one GAME, but 2 are built" in result.output
    other = tmp_path / "elsewhere"
    shutil.copytree(deck.parent, other)
    result = run_cli("build", deck, other / "deck.yaml", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "deck.yaml would both be written to" in result.output and "each with its own --name" in result.output
    assert not (tmp_path / "o").exists()


# -- --guides ------------------------------------------------------------------------------------

def test_guides_outline_trim_safe_area_and_bleed_of_every_card(run_cli, deck, tmp_path):
    with pdfplumber.open(build(run_cli, deck, tmp_path / "plain", "--bleed", "2")) as pdf:
        assert not boxes(pdf.pages[0], CARD_W, TRIM)  # never drawn unless asked for
    with pdfplumber.open(build(run_cli, deck, tmp_path / "o", "--bleed", "2", "--guides", "--flip", "short")) as pdf:
        for page in pdf.pages:
            trims = boxes(page, CARD_W, TRIM)
            assert len(trims) == len(bands(page) + blanks(page) or boxes(page, FRAME_W)) > 0
            safes = boxes(page, CARD_W - 2 * SAFE, SAFE_COLOUR)
            bleeds = boxes(page, CARD_W + 4, BLEED)
            for x, y, w, h in trims:
                assert abs(h - CARD_H) < 0.02
                assert (round(x + SAFE, 2), round(y + SAFE, 2), w - 2 * SAFE, round(h - 2 * SAFE, 2)) in safes
                assert (round(x - 2, 2), round(y - 2, 2), w + 4, round(h + 4, 2)) in bleeds
            assert len(safes) == len(bleeds) == len(trims)
            assert "Guides drawn: build without --guides to print." in caption(page)
        front = pdf.pages[0]
        # each title band sits 3 mm inside a trim box
        assert all(any(abs(bx - 3 - x) < 0.02 for x, *_ in boxes(front, CARD_W, TRIM)) for bx, *_ in bands(front))
        for back in pdf.pages[1::2]:  # turned on the short edge: each back's panel FRAME_IN mm inside a guide's trim
            trims = {(x, y) for x, y, *_ in boxes(back, CARD_W, TRIM)}
            frames = boxes(back, FRAME_W)
            assert frames and all((round(x - FRAME_IN, 2), round(y - FRAME_IN, 2)) in trims for x, y, *_ in frames)
        widths = {round(r["linewidth"] / MM, 2) for r in front.rects if r.get("stroking_color") and
                  tuple(round(c, 2) for c in r["stroking_color"]) in (TRIM, SAFE_COLOUR, BLEED)}
        assert widths == {0.15}


# -- --paper -------------------------------------------------------------------------------------

def test_paper_a3_builds_a_deck_on_a3_and_is_refused_for_a4_and_letter_games(run_cli, deck, tmp_path):
    with pdfplumber.open(build(run_cli, deck, tmp_path / "o", "--paper", "a3")) as pdf:
        # turned, since A3 holds 6 x 3 poker cards across and 4 x 4 upright (9 on upright A4)
        assert {(round(float(p.width) / MM), round(float(p.height) / MM)) for p in pdf.pages} == {(420, 297)}
        assert len(pdf.pages) == 2 and len(bands(pdf.pages[0])) == 16 and len(blanks(pdf.pages[0])) == 2
    for game, title in (("omiga", "Omiga"), ("one_minute_war", "One Minute War")):
        result = run_cli("build", game, "--out", tmp_path / "x", "--paper", "a3")
        assert result.exit_code == 2
        assert f"--paper a3: {title} is laid out for a4 and letter only" in result.output
    assert not (tmp_path / "x").exists()
    result = run_cli("build", deck, "--out", tmp_path / "t", "--paper", "tabloid", "--no-pictures")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "t" / "deck" / "deck.pdf") as pdf:
        assert (round(float(pdf.pages[0].width) / MM, 1), round(float(pdf.pages[0].height) / MM, 1)) == (279.4, 431.8)


def test_paper_given_overrides_the_paper_the_deck_names(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace("orientation: auto", "paper: a3\n  orientation: portrait"))
    with pdfplumber.open(build(run_cli, deck, tmp_path / "named")) as pdf:
        assert round(float(pdf.pages[0].width) / MM) == 297
    with pdfplumber.open(build(run_cli, deck, tmp_path / "given", "--paper", "letter")) as pdf:
        assert round(float(pdf.pages[0].width) / MM, 1) == 215.9


# -- data: TSV and .xlsx -------------------------------------------------------------------------

def sample_rows(deck: Path) -> list[list[str]]:
    with open(deck.parent / "cards.csv", newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def write_xlsx(path: Path, rows: list[list[object]], sheet: str = "Ships", before: str | None = None) -> None:
    book = openpyxl.Workbook()
    if before:
        book.active.title = before
        book.active.append(["nothing", "here"])
        book.create_sheet(sheet)
    else:
        book.active.title = sheet
    for row in rows:
        book[sheet].append(row)
    book.save(path)


def typed(rows: list[list[str]]) -> list[list[object]]:
    """The sample's rows as a spreadsheet holds them: numbers as numbers (cost 2.0 as a float, too)."""
    return [rows[0]] + [[float(v) if i == 2 else int(v) if v.isdigit() else v for i, v in enumerate(row)]
                        for row in rows[1:]]


def with_data(deck: Path, data: str) -> Path:
    deck.write_text(deck.read_text().replace("data: cards.csv", f"data: {data}"))
    return deck


def test_tsv_and_xlsx_data_build_the_same_cards_as_the_csv(run_cli, deck, tmp_path, as_it_is):
    """The same rows from a TSV file or a workbook's sheet give the CSV's PDF, byte for byte."""
    rows = sample_rows(deck)
    expected = as_it_is  # the deck's own cards.csv
    assert sum(t.count("Mossy Elixir") for t in texts(expected)) == 3
    with open(deck.parent / "cards.tsv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f, delimiter="\t").writerows(rows)
    write_xlsx(deck.parent / "cards.xlsx", typed(rows), "Potions", before="Notes")
    assert build(run_cli, with_data(deck, "cards.tsv"), tmp_path / "tsv").read_bytes() == expected.read_bytes()
    deck.write_text(deck.read_text().replace("data: cards.tsv", "data: cards.xlsx#Potions"))
    assert build(run_cli, deck, tmp_path / "xlsx").read_bytes() == expected.read_bytes()
    write_xlsx(deck.parent / "first.xlsx", typed(rows), "Only")  # no sheet named: the first
    deck.write_text(deck.read_text().replace("data: cards.xlsx#Potions", "data: first.xlsx"))
    assert build(run_cli, deck, tmp_path / "first").read_bytes() == expected.read_bytes()


def test_an_xlsx_cell_problem_is_told_at_its_cell(run_cli, deck, tmp_path):
    rows = typed(sample_rows(deck))
    rows[3][2] = "x"  # sheet row 4, column C: cost
    rows[5][2] = 3.5  # a whole number column refuses 3.5 (and took 2.0 in the other rows)
    rows[2][5] = "lots"  # copies (after text and picture)
    write_xlsx(deck.parent / "cards.xlsx", rows)
    result = run_cli("build", with_data(deck, "cards.xlsx#Ships"), "--out", tmp_path / "o")
    assert result.exit_code == 2
    lines = [line.split("/mine/")[-1] for line in result.output.splitlines() if "cards.xlsx:" in line]
    assert lines == ["cards.xlsx:Ships!F3: column 'copies': expected a whole number (got 'lots')",
                     "cards.xlsx:Ships!C4: column 'cost': expected a whole number (got 'x')",
                     "cards.xlsx:Ships!C6: column 'cost': expected a whole number (got '3.5')"], result.output
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()


def test_xlsx_sheets_and_files_that_cannot_be_read_are_located(run_cli, deck, tmp_path):
    write_xlsx(deck.parent / "cards.xlsx", typed(sample_rows(deck)), "My Ships")
    result = run_cli("build", with_data(deck, "cards.xlsx#Crew"), "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "cards.xlsx:1: no sheet named 'Crew'; the workbook's sheets are 'My Ships'" in result.output
    rows = typed(sample_rows(deck))
    rows[1][3] = "long " * 801
    write_xlsx(deck.parent / "cards.xlsx", rows, "My Ships")
    deck.write_text(deck.read_text().replace("cards.xlsx#Crew", "cards.xlsx#My Ships"))
    result = run_cli("build", deck, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "cards.xlsx:'My Ships'!D2: column 'text': a value may have at most 4,000 characters" in result.output
    (deck.parent / "cards.xlsx").write_bytes(b"not a zip at all")
    result = run_cli("build", deck, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "cards.xlsx:1: cannot read this file as an Excel workbook (.xlsx)" in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_an_xlsx_that_unpacks_huge_or_spans_too_many_rows_is_refused_unread(run_cli, deck, tmp_path):
    rows = typed(sample_rows(deck))
    write_xlsx(deck.parent / "cards.xlsx", rows)
    bomb = io.BytesIO()
    with zipfile.ZipFile(deck.parent / "cards.xlsx") as source, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            out.writestr(item, source.read(item))
        out.writestr("xl/media/padding.bin", b"\0" * (130 * 2**20))  # 130 MiB of zeros: 130 KB packed
    (deck.parent / "cards.xlsx").write_bytes(bomb.getvalue())
    assert (deck.parent / "cards.xlsx").stat().st_size < 2**20
    result = run_cli("build", with_data(deck, "cards.xlsx"), "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "cards.xlsx:1: the workbook unpacks to 130 MiB; a deck's data may unpack to at most 128 MiB" in result.output
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.active["A50000"] = "far below"
    book.save(deck.parent / "cards.xlsx")
    result = run_cli("build", deck, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "cards.xlsx:1: the sheet 'Sheet' spans 50,000 rows; a deck may have at most 20,000 rows" in result.output


def test_xlsx_dates_and_yes_no_cells_read_as_text(run_cli, deck, tmp_path):
    import datetime

    rows = typed(sample_rows(deck))
    rows[0] += ["released", "rare"]
    for row in rows[1:]:
        row += [datetime.datetime(2024, 5, 1), True]
    write_xlsx(deck.parent / "cards.xlsx", rows)
    text = deck.read_text().replace("data: cards.csv", "data: cards.xlsx").replace(
        "  cost: whole number", "  cost: whole number\n  rare: yes/no")
    deck.write_text(text.replace('name: "{{ title }}"', 'name: "{{ title }}-{{ released }}-{{ rare }}"'))
    result = run_cli("build", deck, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o" / "deck" / "svg" / "ember-tonic-2024-05-01-true.svg").is_file()


def test_export_takes_rows_and_name(run_cli, deck, tmp_path):
    result = run_cli("export", deck, "--print-shop", "--rows", "2-3", "--name", "pots", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "o" / "pots" / "print-shop"
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as f:
        manifest = {row["file"]: int(row["quantity"]) for row in csv.DictReader(f)}
    assert manifest == {"frost-draught.pdf": 2, "mossy-elixir.pdf": 3, "back-potion-shop.pdf": 5}
    with pdfplumber.open(folder / "mossy-elixir.pdf") as pdf:
        assert "Mossy Elixir" in pdf.pages[0].extract_text()
        width = float(pdf.pages[0].width) / MM
        assert abs(width - (CARD_W + 6)) < 0.05  # 3 mm print-shop bleed each side


def test_watching_follows_a_workbook_named_with_its_sheet(deck):
    from printgen.cli.engine import build_all
    from printgen.cli.watch import Reads
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS

    write_xlsx(deck.parent / "cards.xlsx", typed(sample_rows(deck)))
    with_data(deck, "cards.xlsx#Ships")
    with build_all([deck], BuildOptions(PAPERS["a4"], pictures=False), watching=Reads()) as built:
        assert (deck.parent / "cards.xlsx").resolve() in built.watched


def test_tsv_problems_and_unread_spreadsheet_formats_are_located(run_cli, deck, tmp_path):
    rows = sample_rows(deck)
    rows[2].append("one too many")
    with open(deck.parent / "cards.tsv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f, delimiter="\t").writerows(rows)
    result = run_cli("build", with_data(deck, "cards.tsv"), "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "cards.tsv:3: 7 values but the header names 6 columns; quote values holding a tab" in result.output
    (deck.parent / "cards.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    deck.write_text(deck.read_text().replace("data: cards.tsv", "data: cards.xls"))
    result = run_cli("build", deck, "--out", tmp_path / "o")
    line = next(i for i, text in enumerate(deck.read_text().splitlines(), 1) if text.startswith("data:"))
    assert result.exit_code == 2
    assert f"deck.yaml:{line}: data: cannot read .xls files; save the sheet as .xlsx, or as CSV (UTF-8)" in result.output
    assert not (tmp_path / "o").exists()


def test_rows_and_guides_on_a_game_without_card_sheets_are_warnings(run_cli, tmp_path):
    result = run_cli("build", "one_minute_war", "--out", tmp_path / "o", "--rows", "1-2", "--guides")
    assert result.exit_code == 0, result.output
    for flag in ("--rows", "--guides"):
        assert f"printgen: {flag}: One Minute War has no sheets of cards from rows of data" in result.output
    assert (tmp_path / "o" / "one_minute_war" / "one_minute_war.pdf").is_file()


def test_blank_cards_fill_a_whole_decks_last_sheet_but_not_a_build_of_some_rows(run_cli, deck, tmp_path, as_it_is):
    """`sheet.fill: blank`: on A4 (9 a sheet) the sample's 16 cards end in 7 cards and 2 blanks, and
    on Letter (8 a sheet) they fill two sheets with none; `--rows` picks cards to proof, so its sheet
    keeps its spare places empty."""
    with pdfplumber.open(as_it_is) as pdf:  # A4, build's default paper
        last = pdf.pages[-2]
        assert len(pdf.pages) == 4 and len(bands(last)) == 7 and len(blanks(last)) == 2
        assert len(boxes(pdf.pages[-1], FRAME_W)) == 9  # every place has its back
    with pdfplumber.open(build(run_cli, deck, tmp_path / "letter", "--paper", "letter")) as pdf:
        assert len(pdf.pages) == 4 and not any(blanks(page) for page in pdf.pages)
        assert [len(bands(page)) for page in pdf.pages[0::2]] == [8, 8]
    with pdfplumber.open(build(run_cli, deck, tmp_path / "some", "--rows", "3", "--paper", "letter")) as pdf:
        assert len(pdf.pages) == 2 and 0 < len(bands(pdf.pages[0])) < 8 and not blanks(pdf.pages[0])
