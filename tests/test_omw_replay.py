"""One Minute War's rules engine and `printgen replay`: recorded wars written from the rules, each
rule and each way a war ends played at least once, every forbidden move refused at its own round
and line, malformed records refused at every bad line at once. Most wars are replayed in-process
through the same functions the command uses; a few go through the command for its exit codes and
streams."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from printgen.games import bundled_definition
from printgen.games.one_minute_war.engine import Rules, Soldier
from printgen.games.one_minute_war.record import parse
from printgen.games.one_minute_war.replay import ReplayReport, read, replay_lines
from printgen.games.one_minute_war.engine import rules_of
from cputime import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "examples" / "records"
DEFN, _ = read(bundled_definition("one_minute_war"))
BUNDLED = rules_of(DEFN)  # 1 Priest (revives), 2 Princess > 5, 3 Spearman > 1 2, 4 Archer > 1 2 3, 5 Knight > 1 3 4


def war(text: str, rules: Rules = BUNDLED) -> ReplayReport:
    lines, problems = parse(text, rules)
    assert problems == []
    return replay_lines(rules, "war.txt", lines)


def standing(report: ReplayReport) -> tuple[list[int], list[int]]:
    red, blue = report.rounds[-1].standing
    return list(red), list(blue)


def refused_at(report: ReplayReport, line: int, round_: int, rule: str) -> str:
    assert report.forbidden is not None and report.refused is not None, report.as_text()
    assert (report.forbidden.line, report.refused.rule) == (line, rule)
    assert report.forbidden.message.startswith(f"round {round_}: ")
    assert len(report.rounds) == round_ - 1 and report.result is None
    return report.forbidden.message


def test_every_match_up_plays_as_the_rules_sheet_table_says():
    """The engine and the sheet's match-up table read the same definition: in an opening round,
    'wins' folds the other soldier down, 'falls' folds yours, 'both stand' folds nobody."""
    from printgen.games.one_minute_war.game import outcome
    soldiers = {s.number: s for s in DEFN.soldiers}
    for red in soldiers:
        for blue in soldiers:
            done = war(f"{red} {blue}").rounds[0].round
            said = outcome(soldiers[red], soldiers[blue])
            expected = {"wins": ((), (blue,)), "falls": ((red,), ()), "both stand": ((), ())}[said]
            assert done.fallen == expected, (red, blue)


def test_the_readme_war_defeats_every_blue_soldier():
    report = war((RECORDS / "first-war.txt").read_text())
    rounds = [p.round for p in report.rounds]
    assert rounds[2].fallen == ((1,), ()) and rounds[2].revived == (5, None)  # the Priest falls, revives
    assert rounds[3].revived == (None, 3)  # named: 1+3
    assert rounds[4].fallen == ((), ())  # twins
    assert rounds[6].fallen == ((3,), (4,))  # a fist: the sacrifice and the chosen Archer
    r = report.result
    assert r is not None and (r.ended_by, r.after_round, r.winner) == ("all_defeated", 10, 0)
    assert r.standing == ((2, 4), ())
    assert report.summary[-1] == "Red wins, 2 to 0."


def test_a_priest_with_nobody_down_revives_nobody_and_both_priests_stand():
    done = war("1 1").rounds[0].round
    assert done.fallen == ((), ()) and done.revived == (None, None)


def test_the_revival_is_compulsory_and_needs_a_name_only_when_there_is_a_choice():
    # Red loses the Knight and the Archer, then sends the Priest without naming whom he brings back
    message = refused_at(war("5 2\n4 5\n1 3\n"), 3, 3, "revive")
    assert "must bring back one of 4 or 5; write 1+N to say which" in message
    report = war("5 2\n4 5\n1+4 3\n")
    assert report.rounds[2].round.fallen == ((1,), ()) and report.rounds[2].round.revived == (4, None)
    assert standing(report) == ([2, 3, 4], [1, 2, 3, 4, 5])


@pytest.mark.parametrize("record,line,why", [
    ("5 2\n1+2 3\n", 2, "cannot bring back the Princess (2): the Princess (2) is standing"),
    ("1+1 3\n", 1, "cannot bring back the Priest (1): the Priest can never bring himself back"),
    ("4+5 3\n", 1, "the Archer (4) cannot bring a soldier back; only the Priest (1) can"),
])
def test_a_revival_named_wrongly_is_refused(record, line, why):
    message = refused_at(war(record), line, line, "revive")
    assert why in message


def test_a_fist_is_only_for_the_side_behind_and_folds_down_the_soldier_it_names():
    message = refused_at(war("0:3 4\n"), 1, 1, "sacrifice_only_when_behind")
    assert message == ("round 1: Red cannot show a fist: Red has 5 soldiers standing and Blue 5, and "
                       "only the side with fewer standing may sacrifice")
    report = war("5 2\n0:3 1\n")  # behind 4 to 5: the fist defeats Blue's Priest, who still revives nobody
    assert report.rounds[1].round.fallen == ((3,), (1,))
    assert standing(report) == ([1, 2, 4], [2, 3, 4, 5])
    assert "Red shows a fist and folds down the Spearman (3); Blue sends the Priest (1). Blue's Priest falls." \
        in report.rounds[1].text


def test_a_fist_names_a_standing_soldier_unless_only_one_can_be_given_up():
    message = refused_at(war("5 2\n0 4\n"), 2, 2, "sacrifice")
    assert "write 0:N with N one of 1, 2, 3, 4" in message
    message = refused_at(war("5 2\n0:5 4\n"), 2, 2, "sacrifice")
    assert message == "round 2: Red cannot fold down the Knight (5) for a sacrifice: the Knight is folded down already"
    # Red down to the Princess and the Spearman, the Princess just used twice: a bare fist gives up the Spearman
    report = war("1 3\n5 2\n4 5\n2 2\n2 2\n0 4\n")
    assert report.forbidden is None and report.rounds[-1].round.moves[0].soldier == 3


def test_a_fist_against_a_priest_defeats_him_but_his_revival_still_happens():
    # Blue loses the Spearman; Red loses the Knight and the Archer (so Red is behind); Blue's Priest
    # meets Red's fist: he falls, and brings the Spearman back
    report = war("4 3\n5 2\n4 5\n0:2 1\n")
    last = report.rounds[-1].round
    assert last.fallen == ((2,), (1,)) and last.revived == (None, 3)
    assert standing(report) == ([1, 3], [2, 3, 4, 5])


def test_no_soldier_is_chosen_three_rounds_running():
    message = refused_at(war((RECORDS / "third-round.txt").read_text()), 4, 3, "max_rounds_in_a_row")
    assert message == ("round 3: Red cannot choose the Archer (4): the Archer was used in rounds 1 and 2, and no "
                       "soldier may be used more than 2 rounds running")


def test_a_sacrifice_uses_the_soldier_it_folds_down():
    """The settled point: a soldier who fought the last two rounds cannot be given up for a fist."""
    # Red falls behind (the Knight, round 1), then sends the Archer twice; a fist giving him up is refused
    message = refused_at(war("5 2\n4 4\n4 4\n0:4 2\n"), 4, 4, "max_rounds_in_a_row")
    assert "cannot fold down the Archer (4) for a sacrifice: the Archer was used in rounds 2 and 3" in message
    assert message.endswith("a sacrifice uses the soldier it folds down")
    report = war("5 2\n4 4\n4 4\n0:3 2\n")  # another soldier may be given up instead
    assert report.forbidden is None and report.rounds[3].round.fallen == ((3,), (2,))


def test_a_folded_soldier_cannot_fight():
    message = refused_at(war("5 2\n5 1\n"), 2, 2, "folded_soldiers_cannot_fight")
    assert message == ("round 2: Red cannot choose the Knight (5): the Knight is folded down, and a folded-down "
                       "soldier cannot fight")


def test_a_player_whose_every_soldier_has_fought_twice_running_has_no_legal_move():
    """Red is down to the Knight, who fought rounds 5 and 6: he can neither fight nor be given up
    for a fist, so the war ends after round 6 and Blue, with more soldiers standing, wins."""
    report = war("1 3\n2 4\n3 5\n4 5\n5 1\n5 4\n")
    r = report.result
    assert r is not None and (r.ended_by, r.after_round, r.winner) == ("no_legal_move", 6, 1)
    assert r.standing == ((5,), (2, 3, 5))
    assert report.summary == [
        "The war ended after round 6: Red has no legal move, since every soldier standing was used "
        "in the last 2 rounds.",
        "Standing: Red 1 (Knight); Blue 3 (Princess, Spearman, Knight).", "Blue wins, 3 to 1."]
    assert refused_at(war("1 3\n2 4\n3 5\n4 5\n5 1\n5 4\n5 2\n"), 7, 7, "war_over").endswith(
        "the war already ended after round 6 (a side had no legal move); nothing more can be "
        "recorded after it")


def test_both_players_may_agree_to_stop_and_the_count_decides():
    report = war("4 3\nend\n")
    r = report.result
    assert r is not None and (r.ended_by, r.after_round, r.winner) == ("agreed", 1, 0)
    assert war("end").result == replace(r, after_round=0, standing=((1, 2, 3, 4, 5),) * 2,
                                        winner=None, leader=None)
    assert war("end\n").summary[-1] == "A draw, 5 to 5."


def test_a_record_that_stops_early_leaves_the_war_unfinished():
    report = war("# nothing decided yet\n4 3   # first blood\n\n")
    r = report.result
    assert r is not None and (r.ended_by, r.after_round, r.winner, r.leader) == ("unfinished", 1, None, 0)
    assert report.summary[-1] == "No winner yet: Red leads 5 to 4."


def variant(**changes: object) -> Rules:
    return replace(BUNDLED, **changes)


def test_variant_folded_soldiers_may_fight_and_stay_down():
    rules = variant(folded_can_fight=True)
    report = war("5 2\n5 3\n", rules)  # the folded Knight defeats the Spearman and stays folded
    assert report.rounds[1].round.fallen == ((), (3,)) and standing(report) == ([1, 2, 3, 4], [1, 2, 4, 5])


def test_variant_a_priest_who_may_revive_himself():
    assert war("1+1 3", variant(revives_himself=True)).rounds[0].round.revived == (1, None)


def test_variant_a_fallen_priest_revives_nobody():
    rules = variant(revives_when_defeated=False)
    report = war("5 2\n1 3\n", rules)
    assert report.rounds[1].round.revived == (None, None) and standing(report) == ([2, 3, 4], [1, 2, 3, 4, 5])
    message = refused_at(war("5 2\n1+5 3\n", rules), 2, 2, "revive")
    assert "the Priest fell this round, and a fallen Priest revives nobody" in message


def test_variant_one_round_at_a_time_and_fists_at_any_time():
    rules = variant(max_in_a_row=1, sacrifice_only_when_behind=False)
    message = refused_at(war("4 3\n4 1\n", rules), 2, 2, "max_rounds_in_a_row")
    assert "the Archer was used in round 1, and no soldier may be used two rounds running" in message
    both = war("0:2 0:3\n", rules).rounds[0].round  # two fists: each side folds down its own, nobody else
    assert both.fallen == ((2,), (3,))


def test_a_three_soldier_table_plays_to_a_draw():
    """Rock, paper and scissors as soldiers, without a reviver: each side is down to its Paper, and
    the North's has fought the last two rounds."""
    rules = Rules(("North", "South"), (Soldier(1, "Rock", frozenset({3}), False),
                                       Soldier(2, "Paper", frozenset({1}), False),
                                       Soldier(3, "Scissors", frozenset({2}), False)))
    report = war("1 3\n3 1\n1 2\n2 1\n2 2\n", rules)
    assert report.result is not None and report.result.ended_by == "no_legal_move"
    assert report.result.standing == ((2,), (2,)) and report.summary[-1] == "A draw, 1 to 1."


def test_malformed_lines_are_all_reported_at_their_lines():
    lines, problems = parse("4\n4 3 2\nx 3\n7 3\n0:9 1\n1+8 2\n4 3 # fine\n", BUNDLED)
    assert [n for n, _ in problems] == [1, 2, 3, 4, 5, 6] and [line.number for line in lines] == [7]
    said = dict(problems)
    assert said[1] == "expected two moves, Red's then Blue's, such as '5 1', or 'end' (got '4')"
    assert said[3] == ("expected a move such as '5' (a soldier), '0:2' (a fist, folding down soldier 2) or "
                       "'1+2' (the Priest, bringing back soldier 2) (got 'x')")
    assert said[4] == "'7': no soldier has the number 7; expected 1, 2, 3, 4 or 5, or 0 for a fist"
    assert "a fist folds down one of your soldiers" in said[5] and "to bring back" in said[6]


def test_the_command_exits_0_with_the_result_and_1_at_a_forbidden_move(run_cli, tmp_path):
    result = run_cli("replay", "one_minute_war", RECORDS / "first-war.txt", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert len(body["rounds"]) == 10 and body["rounds"][6]["moves"]["Red"] == {"kind": "fist", "folds": 3}
    assert body["rounds"][2]["line"] == 4 and body["rounds"][3]["revived"] == {"Red": None, "Blue": 3}
    assert {k: body["result"][k] for k in ("winner", "standing", "ended_by", "after_round")} == {
        "winner": "Red", "standing": {"Red": [2, 4], "Blue": []}, "ended_by": "all_defeated", "after_round": 10}
    record = RECORDS / "third-round.txt"
    refused = run_cli("replay", "one_minute_war", record)
    assert refused.exit_code == 1
    assert refused.stdout.splitlines()[-1].startswith("Round 2: Red sends the Archer (4)")
    assert refused.stderr.strip().endswith(":4: round 3: Red cannot choose the Archer (4): the Archer was used in "
                                           "rounds 1 and 2, and no soldier may be used more than 2 rounds running")
    body = json.loads(run_cli("replay", "one_minute_war", record, "--json").stdout)
    assert body["result"] is None and body["forbidden"]["rule"] == "max_rounds_in_a_row"
    assert (body["forbidden"]["line"], body["forbidden"]["round"], body["forbidden"]["side"]) == (4, 3, "Red")


def test_the_command_exits_2_for_a_malformed_record_or_a_definition_it_cannot_play(run_cli, tmp_path):
    record = tmp_path / "war.txt"
    record.write_text("4 3\n4\n5 5 5\n")
    result = run_cli("replay", "one_minute_war", record)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "war.txt:2: expected two moves" in result.stderr and "war.txt:3: expected two moves" in result.stderr
    assert "2 problems found" in result.stderr and result.stdout == ""
    record.write_bytes(b"4 3\n\xff\n")
    assert "war.txt:2: byte 0xFF is not UTF-8 text" in run_cli("replay", "one_minute_war", record).stderr
    other = run_cli("replay", "omiga", record)
    assert other.exit_code == 2
    assert "game: replay plays the games of one_minute_war, and this is a definition of Omiga" in other.stderr


def test_a_record_of_huge_numbers_or_words_is_refused_briefly_at_its_line(run_cli, tmp_path):
    """A 5,000-digit move once reached int() (which refuses over 4,300 digits: exit 3), and a
    500,000-character word was quoted whole; both are now a short located message, exit 2."""
    record = tmp_path / "war.txt"
    record.write_text("4 3\n" + "7" * 5000 + " 3\n" + "x" * 500_000 + " 1\n")
    with cpu_seconds() as took:
        result = run_cli("replay", "one_minute_war", record)
    assert took.seconds < 5
    assert result.exit_code == 2 and "Traceback" not in result.output and "internal error" not in result.output
    lines = result.stderr.splitlines()
    assert any(line.startswith(f"{record.name}:2: ") or ":2: expected a move" in line for line in lines)
    assert any(":3: expected a move" in line for line in lines)
    assert max(len(line) for line in lines) < 300, "a message quotes the whole word"
    assert "'7777777777777777777777777777777777777...'" in result.stderr


def test_replaying_needs_neither_the_drawing_code_nor_the_simulation():
    code = ("import sys\nfrom printgen.games.one_minute_war import engine, record, words, solve, players, "
            "simulation\nprint(' '.join(m for m in sys.modules if m.startswith(('reportlab', 'PIL', 'svglib'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def shown_run(text: str, command: str) -> list[str]:
    """The lines a README or guide shows after `$ command`, up to the end of its block."""
    return text.split(f"```\n$ {command}\n", 1)[1].split("```", 1)[0].splitlines()


def test_the_readme_and_the_guide_show_a_recorded_war_and_what_replay_prints(run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    readme, guide = (ROOT / "README.md").read_text(), (ROOT / "docs" / "one-minute-war-engine.md").read_text()
    record = (RECORDS / "first-war.txt").read_text()
    assert f"```\n{record}```" in readme and f"```\n{record}```" in guide
    command = "printgen replay one_minute_war docs/examples/records/first-war.txt"
    result = run_cli(*command.split()[1:])
    assert result.exit_code == 0 and shown_run(readme, command) == result.stdout.splitlines()
    command = "printgen replay one_minute_war docs/examples/records/third-round.txt"
    result = run_cli(*command.split()[1:])
    assert result.exit_code == 1
    assert shown_run(guide, command) == result.stdout.splitlines() + result.stderr.splitlines()
