"""`printgen replay`: a recorded war played through the engine, round by round.

Malformed lines are all reported at once (exit 2); a forbidden move stops at its line (exit 1)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap
from printgen.core.validation import validate
from printgen.core.yamlread import read_yaml
from printgen.games.one_minute_war.engine import (Fight, Move, Refused, Result, Round, Rules, War, ending,
                                                  play, result, rules_of, start)
from printgen.games.one_minute_war.model import OneMinuteWar, check_sides, check_soldiers
from printgen.games.one_minute_war.record import Line, read_record
from printgen.games.one_minute_war.words import ending_words, round_words, standing_words, verdict_words


def read(path: Path) -> tuple[OneMinuteWar, SourceMap]:
    """The definition, checked as `build` checks its soldiers and sides, without loading art."""
    data, source = read_yaml(path)
    if not isinstance(data, dict) or data.get("game") != "one_minute_war":
        got = data.get("game") if isinstance(data, dict) else None
        raise DefinitionError([source.problem(("game",), f"printgen replay plays One Minute War, so "
                                              f"expected game: one_minute_war (got {got or 'nothing'})")])
    return validate(OneMinuteWar, data, source, (check_soldiers, check_sides)), source


@dataclass(frozen=True)
class Played:
    line: int
    round: Round
    text: str
    standing: tuple[tuple[int, ...], tuple[int, ...]]


@dataclass
class ReplayReport:
    """What a replay found: each round, then the result, or the move the rules refused."""

    rules: Rules
    record: str
    rounds: list[Played] = field(default_factory=list)
    result: Result | None = None
    summary: list[str] = field(default_factory=list)
    forbidden: Problem | None = None
    refused: Refused | None = None

    def as_text(self) -> str:
        return "\n".join([p.text for p in self.rounds] + self.summary)

    def as_json(self) -> str:
        sides = self.rules.sides
        body: dict[str, Any] = {"record": self.record, "rounds": [self.round_json(p) for p in self.rounds]}
        r = self.result
        body["result"] = None if r is None else {
            "winner": None if r.winner is None else sides[r.winner],
            "standing": {sides[s]: list(r.standing[s]) for s in (0, 1)}, "ended_by": r.ended_by,
            "after_round": r.after_round, "leader": None if r.leader is None else sides[r.leader],
            "text": " ".join(self.summary)}
        if self.forbidden is not None and self.refused is not None:
            body["forbidden"] = {"line": self.forbidden.line, "round": len(self.rounds) + 1,
                                 "side": None if self.refused.side is None else sides[self.refused.side], "rule": self.refused.rule,
                                 "message": self.refused.message}
        return json.dumps(body, indent=2)

    def round_json(self, played: Played) -> dict[str, Any]:
        sides, done = self.rules.sides, played.round
        return {"round": done.number, "line": played.line,
                "moves": {sides[s]: move_json(done.moves[s]) for s in (0, 1)},
                "fallen": {sides[s]: list(done.fallen[s]) for s in (0, 1)},
                "revived": {sides[s]: done.revived[s] for s in (0, 1)},
                "standing": {sides[s]: list(played.standing[s]) for s in (0, 1)},
                "text": played.text}


def move_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Fight):
        return {"kind": "soldier", "soldier": move.soldier, "revives": move.revive}
    return {"kind": "fist", "folds": move.soldier}


def replay(defn: OneMinuteWar, record: Path) -> ReplayReport:
    """Play the record's rounds in order; stop at the first forbidden move or after the war's end."""
    rules = rules_of(defn)
    shown, lines = read_record(record, rules)
    return replay_lines(rules, shown, lines)


def replay_lines(rules: Rules, shown: str, lines: list[Line]) -> ReplayReport:
    report = ReplayReport(rules, shown)
    war, ended = start(rules), None
    for line in lines:
        if ended is not None:
            return refused(report, shown, line.number, Refused(None, "war_over", f"the war already "
                           f"ended after round {war.rounds} ({ended_phrase(ended)}); nothing more "
                           "can be recorded after it"))
        if line.moves is None:
            ended = "agreed"
            continue
        try:
            war, done = play(rules, war, line.moves)
        except Refused as exc:
            return refused(report, shown, line.number, exc)
        text = round_words(rules, done, war)
        report.rounds.append(Played(line.number, done, text,
                                    (tuple(sorted(war.armies[0].standing)), tuple(sorted(war.armies[1].standing)))))
        ended = ending(rules, war)
    return finished(report, war, ended or "unfinished")


def ended_phrase(ended: str) -> str:
    return {"agreed": "both players agreed to stop", "all_defeated": "a side had no soldier standing",
            "no_legal_move": "a side had no legal move"}[ended]


def refused(report: ReplayReport, shown: str, line: int, exc: Refused) -> ReplayReport:
    number = len(report.rounds) + 1
    report.refused = exc
    report.forbidden = Problem(shown, line, "", f"round {number}: {exc.message}")
    return report


def finished(report: ReplayReport, war: War, ended_by: str) -> ReplayReport:
    outcome = result(war, ended_by)
    report.result = outcome
    rules = report.rules
    report.summary = [ending_words(rules, outcome, war), standing_words(rules, outcome),
                      verdict_words(rules, outcome)]
    return report
