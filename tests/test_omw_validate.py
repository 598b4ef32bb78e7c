"""`printgen validate` for One Minute War: the exact solver on games whose answer can be checked by
hand, the bundled table's figures, broken homebrew tables failing at their lines, thresholds,
seeds, and the picture of a simulated war's end."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from fractions import Fraction as F
from pathlib import Path

import pytest

from building import edited
from printgen.games import bundled_definition
from printgen.games.one_minute_war import simulation
from printgen.games.one_minute_war.engine import Rules, Soldier, rules_of
from printgen.games.one_minute_war.opening import opening
from printgen.games.one_minute_war.solve import optimal, preferred, solve
from printgen.games.one_minute_war.validator import read

BUNDLED = rules_of(read(bundled_definition("one_minute_war"))[0])


def table(*soldiers: tuple[str, list[int]]) -> Rules:
    return Rules(("North", "South"), tuple(Soldier(i, name, frozenset(beats), False)
                                           for i, (name, beats) in enumerate(soldiers, start=1)))


def test_the_solver_answers_small_games_worked_out_by_hand():
    # [[2, -1], [-1, 1]]: the row mix (p, 1-p) earns 3p - 1 and 1 - 2p; equal at p = 2/5, value 1/5
    assert optimal([[2, -1], [-1, 1]]) == (F(1, 5), (F(2, 5), F(3, 5)))
    # a saddle point: the second row guarantees 2, the first only 1
    assert optimal([[3, 1], [2, 2]]) == (F(2), (F(0), F(1)))
    # every mix of two equal rows is optimal; the shares range over all of them
    s = solve([[1, 1], [1, 1]])
    assert (s.value, s.least, s.most, s.unique) == (F(1), (F(0), F(0)), (F(1), F(1)), False)
    # of several optimal mixes, the one that does best against a random column: the second row
    # earns (0 + 2) / 2 against a random column, the first (0 + 1) / 2
    assert preferred([[0, 1], [0, 2], [-1, 5]]) == (F(0), (F(0), F(1), F(0)))


def test_rock_paper_scissors_as_soldiers_needs_each_a_third_of_the_time():
    op = opening(table(("Rock", [3]), ("Paper", [1]), ("Scissors", [2])))
    assert op.solution.value == 0 and op.solution.unique
    assert op.shares == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)} and op.never == {}


def test_a_dominated_soldier_is_never_worth_choosing():
    """The Pebble defeats only the Scissors and falls to the Rock and the Paper; the Rock does as
    well against everyone and also defeats the Pebble. Against the others' thirds the Pebble earns
    (-1 - 1 + 1) / 3 < 0, so the only optimal mix leaves him out."""
    rules = table(("Rock", [3, 4]), ("Paper", [1, 4]), ("Scissors", [2]), ("Pebble", [3]))
    op = opening(rules)
    assert op.shares == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3), 4: F(0)} and op.solution.unique
    assert op.never == {4: "the Rock does at least as well against every choice, and better against some"}


def test_two_soldiers_alike_share_one_third_between_them():
    rules = table(("Rock", [3]), ("Paper", [1, 4]), ("Scissors", [2]), ("Stone", [3]))
    s = opening(rules).solution
    assert not s.unique and (s.least[0], s.most[0], s.least[3], s.most[3]) == (0, F(1, 3), 0, F(1, 3))
    assert s.strategy[0] + s.strategy[3] == F(1, 3)


def test_the_bundled_table_solved_by_hand():
    """The Princess does everything the Priest does and also defeats the Knight; the Archer does
    everything the Spearman does, defeats him, and falls only to the Knight. Without those two, the
    Princess, the Archer and the Knight are rock, paper and scissors: a third each, value 0."""
    op = opening(BUNDLED)
    assert op.choices == [1, 2, 3, 4, 5]  # no fist in an opening round: nobody is behind
    assert op.shares == {1: 0, 2: F(1, 3), 3: 0, 4: F(1, 3), 5: F(1, 3)} and op.solution.unique
    assert op.never == {1: "the Princess does at least as well against every choice, and better against some",
                        3: "the Archer does at least as well against every choice, and better against some"}


@pytest.fixture(scope="module")
def bundled_report():
    """The bundled table as `printgen validate one_minute_war --json --games 120` reports it (the
    four default matches, 120 wars each), once for the tests here."""
    from click.testing import CliRunner
    from printgen.cli.main import cli
    result = CliRunner().invoke(cli, ["validate", "one_minute_war", "--json", "--games", "120"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_bundled_table_is_valid_with_its_figures(bundled_report):
    r = bundled_report
    assert (r["valid"], r["errors"], r["warnings"]) == (True, 0, 0)
    assert r["opening"]["shares"] == {"1 Priest": "0", "2 Princess": "1/3", "3 Spearman": "0",
                                      "4 Archer": "1/3", "5 Knight": "1/3"}
    assert r["opening"]["value"] == "0" and r["opening"]["unique"] is True
    play = r["play"]
    assert (play["games"], play["seed"], play["max_rounds"]) == (120, 1, 100)
    for m in play["matches"]:
        wins = sum(round(w["rate"] * 120) for w in m["wins"].values()) + round(m["draws"]["rate"] * 120)
        assert wins == 120 and sum(m["ended_by"].values()) == 120
        for rate in (*m["wins"].values(), m["draws"]):
            assert rate["low"] <= rate["rate"] <= rate["high"]
    uniform, equilibrium, mixed, _ = play["matches"]
    assert mixed["players"] == {"Red": "equilibrium", "Blue": "uniform"}
    assert mixed["wins"]["Red"]["low"] > mixed["wins"]["Blue"]["high"]  # the solver's players are better
    shown = equilibrium["shown"]  # equilibrium players show the Princess, Archer and Knight most
    assert min(shown["2 Princess"], shown["4 Archer"], shown["5 Knight"]) > max(shown["1 Priest"], shown["3 Spearman"])


def test_the_docs_show_what_validate_prints():
    """The docs' run of `printgen validate one_minute_war` (1000 wars a match): its opening line,
    and its first match played again here (uniform players need no solver, so it is quick)."""
    from printgen.games.one_minute_war.validator import match_stats, match_summary
    docs = (Path(__file__).resolve().parents[1] / "docs" / "one-minute-war-engine.md").read_text()
    block = docs.split("```\n$ printgen validate one_minute_war\n", 1)[1].split("```", 1)[0]
    lines = block.strip().splitlines()
    assert lines[0].startswith("One Minute War soldier table") and lines[-1] == "Result: valid (0 problems, 0 warnings)"
    assert lines[2] == "  card      ok    every name and ability measured on its tab, as build measures it"
    assert lines[3] == ("  opening   ok    solved exactly: value 0; Princess 1/3, Archer 1/3, Knight 1/3 (the only "
                        "optimal mix); never worth choosing: Priest, Spearman")
    defn, _ = read(bundled_definition("one_minute_war"))
    [tally] = simulation.simulate(BUNDLED, opening(BUNDLED).shares, [("uniform", "uniform")], 1000, 1, 100, workers=1)
    assert lines[5] == "      " + match_summary(match_stats(BUNDLED, ("uniform", "uniform"), tally), defn)
    assert len(lines) == 10 and all(line.startswith("      ") and " vs " in line for line in lines[5:9])


def located(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), start=1) if needle in line)


def test_a_soldier_nobody_defeats_fails_at_his_line(run_cli, copy_definition):
    path = edited(copy_definition, "one_minute_war", [("    beats: [5]\n", "    beats: []\n")])
    result = run_cli("validate", path, "--games", "20", "--json")
    assert result.exit_code == 1, result.output
    problems = {p["path"]: p for p in json.loads(result.stdout)["problems"]}
    knight = problems["soldiers[4]"]
    assert knight["line"] == located(path, "- number: 5") and knight["soldiers"] == ["Knight"]
    assert knight["message"].startswith("nobody defeats the Knight (5): only a fist can fold the Knight down")
    worth = problems["validation.thresholds.min_worth_choosing"]
    assert worth["line"] == located(path, "min_worth_choosing:")
    assert worth["message"].startswith("only 2 soldiers (Princess, Knight) are worth choosing in the opening round")


def test_a_soldier_who_defeats_everyone_fails_with_every_reason(run_cli, copy_definition):
    path = edited(copy_definition, "one_minute_war", [("    beats: [5]\n", "    beats: []\n"),
                                                      ("    beats: [1, 3, 4]\n", "    beats: [1, 2, 3, 4]\n")])
    result = run_cli("validate", path, "--games", "20")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    where = f"{path.name}:{located(path, 'beats: [1, 2, 3, 4]')}: soldiers[4].beats: the Knight (5) defeats every other soldier"
    assert any(where in line for line in lines), result.stdout
    share = f"{path.name}:{located(path, 'max_share:')}: validation.thresholds.max_share: every optimal mix of " \
            f"the opening round gives the Knight a share of at least 1 (100 %); max_share is 0.5"
    assert any(line.endswith(share) for line in lines), result.stdout
    assert "  structure FAIL" in result.stdout and "  opening   FAIL" in result.stdout
    # both sides send out the Knight every other round, so equilibrium players never end a war
    assert "100.0 % of wars are still going after 100 rounds when equilibrium (Red) against equilibrium " \
           "(Blue)" in result.stdout
    assert lines[-1].startswith("Result: NOT valid (")


def test_a_table_the_engine_cannot_read_is_reported_without_play(run_cli, copy_definition):
    path = edited(copy_definition, "one_minute_war", [("    beats: [5]\n", "    beats: [7]\n")])
    body = json.loads(run_cli("validate", path, "--json").stdout)
    assert body["valid"] is False and "play" not in body and "opening" not in body
    assert body["problems"][0]["message"].startswith("Princess beats 7, but no soldier has that number")


def test_a_threshold_the_wars_break_is_an_error_at_its_line(run_cli, copy_definition):
    path = edited(copy_definition, "one_minute_war", [("    max_mean_rounds: 40\n", "    max_mean_rounds: 3\n")])
    result = run_cli("validate", path, "--games", "20")
    assert result.exit_code == 1
    line = located(path, "max_mean_rounds: 3")
    broken = [s for s in result.stdout.splitlines() if f":{line}: validation.thresholds.max_mean_rounds: wars last" in s]
    assert len(broken) == 4 and all(s.endswith("(max_mean_rounds is 3)") for s in broken)
    assert any("when uniform (Red) against uniform (Blue)" in s for s in broken)


def test_same_seed_same_numbers_on_one_core_or_two(monkeypatch):
    shares = opening(BUNDLED).shares
    monkeypatch.setattr(simulation, "PARALLEL_FROM", 10)
    matches = [("uniform", "equilibrium"), ("best_reply", "uniform")]
    one = simulation.simulate(BUNDLED, shares, matches, 100, 5, 100, workers=1)
    two = simulation.simulate(BUNDLED, shares, matches, 100, 5, 100, workers=2)
    other = simulation.simulate(BUNDLED, shares, matches, 100, 6, 100, workers=1)
    assert [vars(t) for t in one] == [vars(t) for t in two] != [vars(t) for t in other]
    assert all(t.games == 100 for t in one)


def test_show_draws_the_end_of_the_first_simulated_war(run_cli, tmp_path):
    result = run_cli("validate", "one_minute_war", "--games", "10", "--show", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "one_minute_war" / "war.svg").getroot()
    fills = [e.get("fill") for e in root.iter() if e.tag.endswith("rect")]
    heading = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    standing = heading.split("; ")[-1]  # "Red 0, Blue 2"
    counts = {side: int(n) for side, n in (part.split() for part in standing.split(", "))}
    assert fills.count("#b03a2e") == counts["Red"] and fills.count("#1f5f99") == counts["Blue"]
    assert (tmp_path / "one_minute_war" / "war.png").read_bytes().startswith(b"\x89PNG")


def test_validate_names_the_games_it_checks(run_cli, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("title: no game here\n")
    result = run_cli("validate", path)
    assert result.exit_code == 2
    assert "bad.yaml:1: game: validate checks the sets of one_minute_war, omiga, deck; expected one of them " \
           "(got nothing)" in result.stderr


def test_long_runs_show_a_progress_bar(run_cli, monkeypatch):
    from printgen.cli import validate
    monkeypatch.setattr(validate, "PROGRESS_FROM", 40)
    result = run_cli("validate", "one_minute_war", "--games", "10")  # 4 matches of 10 wars
    assert result.exit_code == 0 and "Simulating games" in result.stderr


SIXTH = ("    ability: Defeats 1, 3 and 4\n    beats: [1, 3, 4]\n",
         "    ability: Defeats 1, 3 and 4\n    beats: [1, 3, 4]\n"
         "  - number: 6\n    name: Crossbowman\n    ability: Defeats 4 and 5\n    beats: [4, 5]\n")


def test_a_soldier_table_build_refuses_is_never_reported_valid(run_cli, copy_definition, tmp_path):
    # issue 36: a sixth soldier narrows every tab until two names no longer fit; validate said
    # "valid" and build then failed. Now validate measures the card as build does.
    path = edited(copy_definition, "one_minute_war", [SIXTH])
    built = run_cli("build", path, "--out", tmp_path / "out")
    assert built.exit_code != 0 and "wider than its" in built.output
    result = run_cli("validate", path, "--games", "20", "--json")
    body = json.loads(result.stdout)
    assert result.exit_code == 1 and body["valid"] is False
    card = [p for p in body["problems"] if p["check"] == "card"]
    assert {p["path"] for p in card} >= {"soldiers[2].name", "soldiers[5].name"}  # Spearman, Crossbowman
    assert all(p["severity"] == "error" for p in card)
    assert "card      FAIL" in run_cli("validate", path, "--games", "20").stdout


def test_the_bundled_table_passes_the_card_check(run_cli):
    text = run_cli("validate", "one_minute_war", "--games", "20").stdout
    assert "card      ok" in text and "abilities against beats" in text


@pytest.mark.parametrize("old, new, named, true", [
    ("    ability: Defeats the Knight\n", "    ability: Defeats the Knight and the Archer\n",
     "says the Princess defeats the Archer (4), whom beats does not list", "Defeats the Knight"),
    ("    ability: Defeats 1, 2 and 3\n", "    ability: Defeats 1 and 2\n",
     "leaves out the Spearman (3), whom beats lists", "Defeats all but the Knight"),
    ("    ability: Defeats Priest and Princess\n", "    ability: Defeats priest and knight\n",
     "says the Spearman defeats the Knight (5), whom beats does not list and leaves out the Princess (2), whom "
     "beats lists", "Defeats the Priest and the Princess"),
    # the cases: a beats list edited under an ability that was true of the old one
    ("    beats: [1, 2]\n", "    beats: [1]\n",
     "says the Spearman defeats the Princess (2), whom beats does not list", "Defeats the Priest"),
    ("    ability: Defeats the Knight\n", "    ability: Defeats nobody at all\n",
     "leaves out the Knight (5), whom beats lists", "Defeats the Knight"),
])
def test_an_ability_that_does_not_match_beats_stops_build_and_fails_validate(run_cli, copy_definition, tmp_path,
                                                                             old, new, named, true):
    path = edited(copy_definition, "one_minute_war", [(old, new)])
    built = run_cli("build", path, "--out", tmp_path / "out")
    assert built.exit_code == 2 and not (tmp_path / "out").exists()
    assert f".ability: the " in built.stderr and named in built.stderr and f"write '{true}'" in built.stderr
    result = run_cli("validate", path, "--games", "20", "--json")
    body = json.loads(result.stdout)
    wrong = [p for p in body["problems"] if p["path"].endswith(".ability")]
    assert len(wrong) == 1 and wrong[0]["severity"] == "error" and named in wrong[0]["message"], wrong
    assert result.exit_code == 1 and body["valid"] is False
    line = int(built.stderr.split(".yaml:")[1].split(":")[0])
    assert wrong[0]["line"] == line  # both point at the same ability line


def test_an_ability_true_of_its_beats_in_other_words_is_accepted(run_cli, copy_definition, tmp_path):
    """'Defeats all but the Princess' for beats [1, 3, 4] (the Knight's) is true, and no false alarm."""
    path = edited(copy_definition, "one_minute_war", [("    ability: Defeats 1, 3 and 4\n",
                                                       "    ability: Defeats all but the Princess\n")])
    built = run_cli("build", path, "--out", tmp_path / "out")
    assert built.exit_code == 0, built.stderr
    front = ET.parse(tmp_path / "out" / path.stem / "svg" / f"{path.stem}-card-front.svg")
    tab_lines = [t.text or "" for t in front.iter() if t.tag.endswith("text")]
    assert " ".join(tab_lines).count("Defeats all but the Princess") == 2  # the Knight's tab in both rows
    body = json.loads(run_cli("validate", path, "--games", "20", "--json").stdout)
    assert not [p for p in body["problems"] if p["path"].endswith(".ability")]


def test_an_ability_naming_nobody_or_only_its_own_soldier_is_left_alone(run_cli):
    body = json.loads(run_cli("validate", "one_minute_war", "--games", "20", "--json").stdout)
    assert not [p for p in body["problems"] if p["path"].endswith(".ability")]
