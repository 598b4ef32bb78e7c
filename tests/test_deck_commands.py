"""What designers reach for beside `build`: `--where` (cards chosen by a condition, as `when:`
takes it), `printgen validate` for a deck (every problem and warning a build would meet, nothing
written) and the overview picture (every face in one grid). Each read back from the files made:
cards counted on the PDF's sheets, captions read, the overview's cards found by its pixels."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pdfplumber
import pytest
from PIL import Image

from printgen.games import bundled_definition
from printgen.games.deck import overview

BAND_W = 57.5  # the sample's title band on each face
MM = 72 / 25.4
SAMPLE_ROWS = 8
COSTS = [2, 3, 1, 4, 2, 5, 1, 2]  # the sample's cost column, row by row
KINDS = ["fire", "ice", "earth", "air", "earth", "fire", "ice", "air"]
COPIES = [3, 2, 3, 1, 2, 1, 2, 2]


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """The bundled sample deck, copied once for the module; no test writes into it."""
    folder = tmp_path_factory.mktemp("sample") / "mine"
    shutil.copytree(bundled_definition("deck").parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return folder / "deck.yaml"


@pytest.fixture
def broken(tmp_path, sample) -> Path:
    """A copy of the sample in which row 2's text overflows its box and card.bleed costs cards."""
    folder = tmp_path / "broken"
    shutil.copytree(sample.parent, folder)
    csv = folder / "cards.csv"
    csv.write_text(csv.read_text().replace("Turn one market card sideways: until your next turn, nobody else may take it.",
                                           "Freeze a rival card until your next turn. " * 12))
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("card:\n", "card:\n  bleed: 6\n", 1))
    return deck


def faces(page) -> int:
    """Cards on a sheet of faces: the sample draws one 57.5 mm title band on each."""
    found = {(round(r["x0"]), round(r["top"])) for r in page.rects + page.curves
             if abs((r["x1"] - r["x0"]) / MM - BAND_W) < 0.02 and abs((r["bottom"] - r["top"]) / MM - 11) < 0.02}
    return len(found)


def caption(page) -> str:
    return "".join(c["text"] for c in page.chars if (float(page.height) - c["bottom"]) / MM < 9)


def data_line(deck: Path) -> int:
    return next(i for i, text in enumerate(deck.read_text().splitlines(), 1) if text.startswith("data:"))


# -- --where ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, rows", [
    (("--where", 'kind == "fire"'), [1, 6]),
    (("--where", "cost <= 2", "--rows", "1-4"), [1, 3]),
    (("--where", "{{ copies > 2 and kind != 'fire' }}"), [3]),  # a template, as `when:` takes too
])
def test_where_builds_only_the_rows_it_holds_for_and_the_captions_say_so(run_cli, sample, tmp_path, args, rows):
    out = tmp_path / "o"
    result = run_cli("build", sample, "--out", out, "--no-pictures", *args)
    assert result.exit_code == 0, result.output
    condition = args[1]
    with pdfplumber.open(out / "deck" / "deck.pdf") as pdf:
        fronts = pdf.pages[0::2]
        assert sum(faces(page) for page in fronts) == sum(COPIES[row - 1] for row in rows)
        text = "".join(page.extract_text() for page in fronts)
        for row, kind in enumerate(KINDS, 1):  # every card of a chosen row is there, none of the others
            assert (f"{kind.capitalize()} potion" in text) == any(KINDS[r - 1] == kind for r in rows)
        said = ", ".join(str(r) for r in rows)
        for page in pdf.pages:
            assert caption(page).startswith(f"Potion Shop (rows {said} of 8, where {condition}), sheet 1 of 1,")


def test_a_condition_printgen_cannot_read_is_a_usage_error(run_cli, sample, tmp_path):
    result = run_cli("build", sample, "--out", tmp_path / "o", "--where", 'kind = "fire"')
    assert result.exit_code == 2
    assert "Invalid value for '--where': 'kind = \"fire\"' is not a condition printgen can read" in result.output
    assert "such as 'type == \"hero\"'" in result.output
    assert not (tmp_path / "o").exists()


def test_a_name_that_is_no_column_is_told_at_the_data_with_the_columns_there_are(run_cli, sample, tmp_path):
    result = run_cli("build", sample, "--out", tmp_path / "o", "--where", 'knd == "fire"')
    assert result.exit_code == 2
    assert (f"deck.yaml:{data_line(sample)}: data: --where 'knd == \"fire\"': 'knd' is not a column of the deck; "
            "its columns are cost, kind, picture, text, title; did you mean 'kind'?") in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()


@pytest.mark.parametrize("args, said", [
    (("--where", 'kind == "Fire"'), "none of the deck's 8 rows makes it true"),
    (("--where", 'kind == "fire"', "--rows", "2-5"), "none of rows 2-5 of the deck's 8 rows makes it true"),
])
def test_a_condition_no_row_holds_for_is_a_clear_exit_2(run_cli, sample, tmp_path, args, said):
    result = run_cli("build", sample, "--out", tmp_path / "o", *args)
    assert result.exit_code == 2
    assert f"deck.yaml:{data_line(sample)}: data: --where {args[1]!r}: {said}, so there is no card to build" \
        in result.output
    assert not (tmp_path / "o").exists()


def test_a_condition_that_fails_on_a_row_is_told_at_that_row(run_cli, sample, tmp_path):
    result = run_cli("build", sample, "--out", tmp_path / "o", "--where", "10 / (cost - 1) > 1")
    assert result.exit_code == 2
    # rows 3 and 7 cost 1; the condition is worked out once for each cost, so row 3 tells it
    assert "cards.csv:4: row 3: --where '10 / (cost - 1) > 1': template error: ZeroDivisionError" in result.output
    assert "division by zero" in result.output and not (tmp_path / "o").exists()


def test_where_on_a_game_without_rows_is_a_warning_and_the_game_builds(run_cli, tmp_path):
    result = run_cli("build", "one_minute_war", "--out", tmp_path / "o", "--where", 'kind == "fire"')
    assert result.exit_code == 0, result.output
    assert ("printgen: --where: One Minute War has no sheets of cards from rows of data; --where applies to "
            "decks only and was left out") in result.output
    with pdfplumber.open(tmp_path / "o" / "one_minute_war" / "one_minute_war.pdf") as pdf:
        assert len(pdf.pages) == 2  # the whole game: its rules sheet, both sides


# -- validate --------------------------------------------------------------------------------------

def test_validate_passes_the_sample_and_writes_nothing(run_cli, sample, tmp_path, monkeypatch, all_games_built):
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.rglob("*")) + sorted(sample.parent.rglob("*"))
    result = run_cli("validate", sample)
    assert result.exit_code == 0, result.output
    assert sorted(tmp_path.rglob("*")) + sorted(sample.parent.rglob("*")) == before
    lines = result.output.splitlines()
    assert lines[-1] == "Result: valid (0 problems, 0 warnings)"
    # the sample as built (`printgen build --paper a4`, the session's build of every bundled game)
    with pdfplumber.open(all_games_built["a4"] / "deck" / "deck.pdf") as pdf:
        pages = len(pdf.pages)
    assert f"its sheets would be {pages} pages. Nothing was written." in result.output


def test_validate_reports_every_problem_and_warning_the_build_meets(run_cli, broken, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    built = run_cli("build", broken, "--out", tmp_path / "o")
    assert built.exit_code == 2
    said = [line for line in built.output.splitlines() if not line.startswith("printgen:")]
    problems = [line for line in said if ": warning" not in line and "card.bleed" not in line]
    warnings = [line for line in said if line not in problems]
    assert len(problems) == 1 and "row 2" in problems[0] and "does not fit" in problems[0]
    assert len(warnings) == 1 and "card.bleed: 6 mm fits" in warnings[0]
    result = run_cli("validate", broken)
    assert result.exit_code == 1, result.output
    shown = result.output.splitlines()
    assert problems[0] in shown and warnings[0] in shown
    assert shown[-1] == "Result: NOT valid (1 problem, 1 warning)"
    assert not (tmp_path / "o").exists() and not (tmp_path / "output").exists()
    report = json.loads(run_cli("validate", broken, "--json").output)
    assert (report["valid"], report["errors"], report["warnings"]) == (False, 1, 1)
    assert report["problems"][0]["line"] == 3 and report["problems"][0]["file"].endswith("cards.csv")


def test_validate_cannot_read_a_broken_file_exit_2(run_cli, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: deck\ntitle: [unclosed\n")
    result = run_cli("validate", deck)
    assert result.exit_code == 2
    assert "deck.yaml:2:" in result.output and "nothing was written" in result.output


def test_validate_show_is_for_boards_not_decks(run_cli, sample):
    result = run_cli("validate", sample, "--show")
    assert result.exit_code == 2 and "--show: a deck has no board to show" in result.output


# -- the overview picture --------------------------------------------------------------------------

def runs_across(pixels: list[tuple[int, int, int]]) -> int:
    """How many runs of card (not white, not the outline's grey alone) there are along a line."""
    count, inside = 0, False
    for r, g, b in pixels:
        card = min(r, g, b) < 245
        count += card and not inside
        inside = card
    return count


def cards_in(png: Path) -> tuple[int, list[int]]:
    """The overview's cards found by its pixels: rows of cards counted down a line 1.5 mm inside the
    first column's left edge, and the cards of each row along a line 1.5 mm below its top edge
    (each card a run of colour between white gaps); a deck this small is drawn at overview.DPI."""
    image = Image.open(png).convert("RGB")
    px = overview.DPI / 25.4
    x = round((overview.MARGIN + 1.5) * px)
    down = [image.getpixel((x, y)) for y in range(image.height)]
    top = round((overview.MARGIN + overview.HEADING) * px)
    rows = runs_across(down[top:])
    across = [runs_across([image.getpixel((x, round(top + (row * (88.9 + overview.GAP) + 1.5) * px)))
                           for x in range(image.width)]) for row in range(rows)]
    return rows, across


def test_overview_shows_every_face_once_in_a_grid(sample_deck_png):
    out = sample_deck_png.parent  # `printgen build deck --png` of the bundled sample
    png = out / "deck" / "deck-overview.png"
    image = Image.open(png)
    rows, across = cards_in(png)
    assert (rows, across) == (2, [4, 4])  # 8 faces, about 4:3
    # each card at its place shows its own face: the background colour of its kind
    face = Image.open(out / "deck" / "png" / "ember-tonic.png").convert("RGB")
    fire = face.getpixel((face.width // 2, face.height - 5))
    x, y = int(overview.MARGIN / 25.4 * 80) + 20, int((overview.MARGIN + overview.HEADING) / 25.4 * 80) + 250
    assert max(abs(a - b) for a, b in zip(image.convert("RGB").getpixel((x, y)), fire)) <= 3
    assert all(abs(got - want) <= 1 for got, want in zip(image.size, pixels(4, 2)))


def pixels(columns: int, rows: int) -> tuple[float, float]:
    w = columns * 63.5 + (columns - 1) * overview.GAP + 2 * overview.MARGIN
    h = rows * 88.9 + (rows - 1) * overview.GAP + 2 * overview.MARGIN + overview.HEADING
    return w / 25.4 * overview.DPI, h / 25.4 * overview.DPI


def test_overview_follows_where_and_no_pictures_leaves_it_out(run_cli, sample, tmp_path):
    result = run_cli("build", sample, "--out", tmp_path / "o", "--where", 'kind == "ice" or kind == "air"')
    assert result.exit_code == 0, result.output
    assert cards_in(tmp_path / "o" / "deck" / "deck-overview.png") == (2, [3, 1])  # 4 faces
    result = run_cli("build", sample, "--out", tmp_path / "p", "--no-pictures")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "p" / "deck" / "deck-overview.png").exists()


@pytest.mark.parametrize("count", [8, 1_000, 10_000])
def test_overview_of_a_large_deck_is_bounded_in_cards_and_pixels(count):
    cards = [SimpleNamespace(width=63.5, height=88.9, copies=2) for _ in range(count)]
    doc = overview.overview("Big", cards, "", "big-overview.png")  # type: ignore[arg-type]
    width_px, height_px = (side / 25.4 * doc.dpi for side in (doc.paper.width, doc.paper.height))
    assert width_px * height_px <= overview.MAX_PIXELS * 1.0001
    shown = min(count, overview.MAX_CARDS)
    columns, rows = overview.grid(shown, 63.5, 88.9)
    assert columns * rows >= shown > columns * (rows - 1)
    assert 1.0 <= (columns * 63.5) / (rows * 88.9) <= 1.7  # about 4:3
    said = overview.heading("Big", cards, "")  # type: ignore[arg-type]
    assert said.startswith(f"Big: {count:,} cards, {2 * count:,} with copies")
    assert ("the first 1,000 shown" in said) == (count > overview.MAX_CARDS)
