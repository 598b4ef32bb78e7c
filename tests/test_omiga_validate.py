"""`printgen validate`: the bundled set passes, each broken set in tests/omiga_sets fails with its own
message and exit 1, unreadable definitions exit 2, runs are reproducible, and simulated games obey
the placing rules (checked here by a separate, deliberately plain implementation)."""
from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from printgen.games import bundled_definition
from printgen.games.omiga.tileset import compile_set
from printgen.games.omiga.simulation import replay
from printgen.games.omiga.validator import read

SETS = Path(__file__).resolve().parent / "omiga_sets"

BROKEN = {
    "unknown_colour": ("white-05 has an unknown colour 'blue' on its left", "decks.white.tiles[4].left"),
    "unknown_form": ("black-10 has an unknown form 'zigzag' on its top", "decks.black.tiles[9].top"),
    "asymmetric_fits": ("the fit table is not symmetric: tip fits notch, but fits.notch does not list tip",
                        "fits.tip[0]"),
    "deck_size": ("the white deck declares 36 tiles but lists 35", "decks.white.size"),
    "duplicate": ("white-36 is the same tile as white-01", "decks.white.tiles[35]"),
    "setup": ("if white opens with white-04 (green|green tip/diagonal), black can never answer",
              "decks.white.tiles[3].top"),
    "dead_tile": ("white-01 (blue|blue flat/flat) can never be placed", "decks.white.tiles[0]"),
    "dead_side": ("nothing can ever touch the left of white-02", "decks.white.tiles[1].left"),
    "colour_balance": ("the white deck has 20 green and 16 pink semicircles on the left", "decks.white.tiles"),
    "tip_notch_balance": ("the white deck has 14 tiles with a tip on top but 12 with a bottom that fits "
                          "under it (notch)", "decks.white.tiles"),
    "diagonal_balance": ("the white deck has 12 tiles with a diagonal on top but 10 with a bottom that "
                         "fits under it (diagonal)", "decks.white.tiles"),
    "mirror": ("the decks do not mirror each other", "decks"),
    "play_draws": ("of games are drawn (max_draw_rate is 0.2, outside", "validation.thresholds.max_draw_rate"),
    "play_win_gap": ("a gap of 28.0 % (14.3-40.7) (max_win_gap is 0.04, outside the 95 % interval)",
                     "validation.thresholds.max_win_gap"),
}


def line_of(path: Path, dotted: str) -> int:
    defn, source = read(path)
    parts: list = []
    for piece in dotted.replace("]", "").split("."):
        name, *index = piece.split("[")
        parts.append(name)
        parts += [int(i) for i in index]
    return source.line_of(parts)


def test_the_bundled_set_is_valid(run_cli):
    result = run_cli("validate", "omiga")
    assert result.exit_code == 0, result.output
    assert "Result: valid (0 problems, 0 warnings)" in result.output
    assert "1000 games (seed 1, table 12 x 10)" in result.output


def test_every_broken_set_is_here():
    assert sorted(p.stem for p in SETS.glob("*.yaml")) == sorted(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_broken_set_fails_with_its_message(run_cli, name):
    path = SETS / f"{name}.yaml"
    message, where = BROKEN[name]
    result = run_cli("validate", path)
    assert result.exit_code == 1, result.output
    assert message in result.output
    located = f"{path.name}:{line_of(path, where)}: {where}: "
    assert any(located in line and message in line for line in result.output.splitlines()), result.output
    report = json.loads(run_cli("validate", path, "--json").stdout)
    assert report["valid"] is False and report["errors"] >= 1
    hit = next(p for p in report["problems"] if message in p["message"])
    assert hit["severity"] == "error" and hit["path"] == where
    if not name.startswith(("play", "deck_size", "asymmetric")):
        assert hit["tiles"], "a problem names the tiles involved"


def test_duplicates_can_be_a_warning(run_cli, tmp_path):
    text = (SETS / "duplicate.yaml").read_text().replace("duplicates: error", "duplicates: warning")
    text = text.replace("max_colour_spread: 1", "max_colour_spread: 2").replace("max_form_spread: 1",
                                                                                  "max_form_spread: 2")
    path = tmp_path / "dup.yaml"
    path.write_text(text)
    result = run_cli("validate", path)
    assert result.exit_code == 0, result.output
    assert "Warnings:" in result.output and "white-36 is the same tile as white-01" in result.output


@pytest.mark.parametrize("text,expected", [
    ("game: omiga\ntitle: [unclosed\n", "invalid YAML"),
    ("game: fracas\n", "game: validate checks the sets of one_minute_war, omiga, deck; this is a Fracas definition"),
])
def test_unreadable_definitions_exit_2(run_cli, tmp_path, text, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    result = run_cli("validate", path)
    assert result.exit_code == 2
    assert expected in result.output and "Traceback" not in result.output
    assert "bad.yaml:" in result.output


def test_schema_errors_exit_2_with_a_location(run_cli, copy_definition):
    path = copy_definition("omiga")
    lines = path.read_text().splitlines()
    target = next(i for i, t in enumerate(lines) if "- {left: green, right: pink, top: tip, bottom: notch}" in t)
    lines[target] = lines[target].replace(", bottom: notch", "")
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("validate", path, "--json")
    assert result.exit_code == 2
    body = json.loads(result.stdout)
    assert body["readable"] is False
    assert body["problems"][0]["line"] == target + 1
    assert body["problems"][0]["path"].endswith(".bottom")
    assert body["problems"][0]["message"] == "this key is required but missing"


def play_numbers(run_cli, *args: str) -> dict:
    result = run_cli("validate", "omiga", "--json", "--games", "300", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["play"]


def test_same_seed_same_numbers(run_cli):
    first = play_numbers(run_cli, "--seed", "7")
    assert play_numbers(run_cli, "--seed", "7") == first
    assert play_numbers(run_cli, "--seed", "8") != first
    assert first["games"] == 300 and first["seed"] == 7
    assert sum(first["outcomes"].values()) == 300


def test_simulation_gives_the_same_numbers_on_one_core_or_many(monkeypatch):
    from printgen.games.omiga import simulation as omiga_sim
    from printgen.games.omiga.simulation import simulate
    monkeypatch.setattr(omiga_sim, "PARALLEL_FROM", 100)  # use the worker pool for a short run
    defn, _ = read(bundled_definition("omiga"))
    cs = compile_set(defn)
    one = simulate(cs, 12, 10, 400, 3, workers=1)
    many = simulate(cs, 12, 10, 400, 3, workers=2)
    assert (one.outcomes, one.placements, one.looks, one.no_legal, one.dead_hands) == \
           (many.outcomes, many.placements, many.looks, many.no_legal, many.dead_hands)


def test_long_runs_show_a_progress_bar(run_cli):
    result = run_cli("validate", "omiga", "--games", "2000")
    assert result.exit_code == 0
    assert "Simulating games" in result.stderr
    assert "Simulating games" not in result.stdout


def test_show_writes_a_board(run_cli, tmp_path):
    result = run_cli("validate", "omiga", "--show", "--games", "50", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    svg = ET.parse(tmp_path / "omiga" / "board.svg").getroot()
    assert svg.get("width") == f"{12 * 42 + 24:g}mm"
    image = Image.open(io.BytesIO((tmp_path / "omiga" / "board.png").read_bytes()))
    assert image.format == "PNG" and image.width > 800
    assert "Omiga, seed 1, game 1: " in "".join(svg.itertext())  # the caption names the game


# -- the placing rules, checked independently ---------------------------------------------------
def legal(board: dict, cs, deck: int, tile: int, column: int, row: int) -> bool:
    """Plain restatement of the three placing conditions, for a tile as it lies on the table."""
    left, right, top, bottom = cs.table[deck][tile]
    if (column, row) in board:
        return False
    own = opponent = False
    for dc, dr in ((-1, 0), (1, 0), (0, 1), (0, -1)):
        other = board.get((column + dc, row + dr))
        if other is None:
            continue
        o_deck, o_tile = other
        ol, orr, ot, ob = cs.table[o_deck][o_tile]
        if (dc == -1 and orr != left) or (dc == 1 and ol != right):
            return False
        if (dr == 1 and not cs.fits(top, ob)) or (dr == -1 and not cs.fits(ot, bottom)):
            return False
        own |= o_deck == deck
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            other = board.get((column + dc, row + dr))
            opponent |= other is not None and other[0] != deck
    return own and opponent


def test_simulated_games_obey_the_placing_rules():
    defn, _ = read(bundled_definition("omiga"))
    cs = compile_set(defn)
    endings = set()
    for game in range(60):
        record = replay(cs, 12, 10, 5, game)
        first, second, *rest = record.placements
        assert (first.deck, first.column, first.row) == (0, 6, 4)
        assert (second.deck, second.column, second.row) == (1, 6, 5)
        assert cs.fits(cs.table[0][first.tile][2], cs.table[1][second.tile][3])
        board = {(first.column, first.row): (0, first.tile), (second.column, second.row): (1, second.tile)}
        for p in rest:
            assert legal(board, cs, p.deck, p.tile, p.column, p.row), (game, p)
            board[(p.column, p.row)] = (p.deck, p.tile)
        last = record.placements[-1]
        if record.outcome == "white_behind":
            assert board.get((last.column, last.row - 1), (None,))[0] == 1
        elif record.outcome == "white_edge":
            assert last.deck == 0 and last.row == 9
        elif record.outcome == "black_behind":
            assert board.get((last.column, last.row + 1), (None,))[0] == 0
        elif record.outcome == "black_edge":
            assert last.deck == 1 and last.row == 0
        elif record.outcome == "draw_edges":
            for deck in (0, 1):
                columns = {c for (c, _), (d, _) in board.items() if d == deck}
                assert {0, 11} <= columns
        endings.add(record.outcome)
        placed = [(p.deck, p.tile) for p in record.placements]
        assert len(placed) == len(set(placed))  # no tile is placed twice
    assert {"white_behind", "black_behind"} <= endings
