"""`printgen validate` for One Minute War: is a soldier table playable, and is it balanced?

Simulated matches are told in numbers and words: win and draw rates with 95 % intervals, rounds per
war, how wars ended, which soldiers were shown, and the thresholds they break. An unreadable
definition exits 2; every finding is reported together, and errors exit 1."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal

from printgen.games.intervals import wilson
from printgen.core.problems import Problem
from printgen.core.source import Loc, SourceMap
from printgen.drawing.document import Document
from printgen.games.one_minute_war.abilities import check_abilities
from printgen.games.one_minute_war.engine import Rules, rules_of
from printgen.games.one_minute_war.model import OneMinuteWar, check_sides, check_soldiers
from printgen.games.one_minute_war.opening import Opening, called, label, opening
from printgen.games.one_minute_war.simulation import Tally, simulate
from printgen.games.verdicts import Verdicts, pct

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    check: str  # structure, opening or play
    severity: Severity
    loc: Loc
    message: str
    soldiers: tuple[str, ...] = ()


def read(path: Path, allow_outside: bool = False) -> tuple[OneMinuteWar, SourceMap]:
    """The definition as `build` loads it; the table's own checks come later, as findings."""
    from printgen.games import read_as

    return read_as(path, "one_minute_war", "printgen validate checks soldier tables here", allow_outside)


def structure(defn: OneMinuteWar) -> list[Finding]:
    """The table's own mistakes; past them, a soldier nobody defeats or who defeats everyone."""
    found = [Finding("structure", "error", loc, message)
             for check in (check_soldiers, check_sides) for loc, message in check(defn)]
    if found:
        return found
    numbers = {s.number for s in defn.soldiers}
    for i, s in enumerate(defn.soldiers):
        if not any(s.number in other.beats for other in defn.soldiers):
            found.append(Finding("structure", "error", ("soldiers", i), (
                f"nobody defeats the {s.name} ({s.number}): only a fist can fold the {s.name} down, so "
                f"the {s.name} never falls in a fight; add {s.number} to some soldier's beats"), (s.name,)))
        if numbers - {s.number} <= set(s.beats):
            found.append(Finding("structure", "error", ("soldiers", i, "beats"), (
                f"the {s.name} ({s.number}) defeats every other soldier, so whoever shows the {s.name} "
                f"can only win or stand; take someone out of the {s.name}'s beats"), (s.name,)))
    if not defn.restrictions.only_chosen_soldiers_can_fall:
        found.append(Finding("structure", "warning", ("restrictions", "only_chosen_soldiers_can_fall"),
                             "false changes nothing in play: no rule makes any other soldier fall, "
                             "so the rules are played as if it were true"))
    return found


def card_findings(defn: OneMinuteWar) -> list[Finding]:
    """What `build` measures before it draws: every name and ability fits its tab (a sixth soldier
    narrows all the tabs), so a table `build` refuses is never reported valid."""
    from printgen.games.one_minute_war.card import check_card_text

    return [Finding("card", "error", loc, message) for loc, message in check_card_text(defn)]


def ability_findings(defn: OneMinuteWar) -> list[Finding]:
    """The check `build` makes: an ability that claims other defeats than `beats` plays (the tab
    would tell the players one thing and the game play another). An error, as it stops `build`, but
    one the engine can still play, so the opening and the simulation still run."""
    return [Finding("structure", "error", loc, message, (defn.soldiers[loc[1]].name,))
            for loc, message in check_abilities(defn) if isinstance(loc[1], int)]


def opening_findings(defn: OneMinuteWar, rules: Rules, op: Opening) -> list[Finding]:
    t = defn.validation.thresholds
    found = []
    for choice, least in zip(op.choices, op.solution.least):
        if least > t.max_share:
            name = called(rules, choice)
            found.append(Finding("opening", "error", ("validation", "thresholds", "max_share"), (
                f"every optimal mix of the opening round gives {name} a share of at least {least} "
                f"({100 * float(least):.0f} %); max_share is {t.max_share:g}"), (name.split(" ", 1)[1],)))
    worth = op.worth_choosing()
    if len(worth) < t.min_worth_choosing:
        names = [rules.soldier(n).name for n in worth]
        idle = [rules.soldier(n).name for n in op.never if n in rules.numbers]
        found.append(Finding("opening", "error", ("validation", "thresholds", "min_worth_choosing"), (
            f"only {len(worth)} soldier{'s' * (len(worth) != 1)} ({', '.join(names)}) "
            f"{'are' if len(worth) != 1 else 'is'} worth choosing in the opening round; "
            f"min_worth_choosing is {t.min_worth_choosing}"), tuple(idle)))
    return found


def opening_stats(rules: Rules, op: Opening) -> dict[str, Any]:
    s = op.solution
    return {"value": str(s.value), "unique": s.unique,
            "shares": {label(rules, c): str(w) for c, w in zip(op.choices, s.strategy)},
            "share_ranges": {label(rules, c): [str(lo), str(hi)]
                             for c, lo, hi in zip(op.choices, s.least, s.most)},
            "never_worth_choosing": {label(rules, c): why for c, why in op.never.items()}}


ENDED = {"all_defeated": "a side defeated", "no_legal_move": "no legal move", "agreed": "stopped"}


def rate(count: int, games: int) -> dict[str, float]:
    found = wilson(count, games)
    return {"rate": round(count / max(games, 1), 4), "low": round(found.low, 4), "high": round(found.high, 4)}


def match_stats(rules: Rules, names: tuple[str, str], tally: Tally) -> dict[str, Any]:
    n = tally.games
    shown = sum(tally.chosen.values())
    return {
        "players": {rules.sides[0]: names[0], rules.sides[1]: names[1]},
        "games": n,
        "wins": {rules.sides[s]: rate(tally.wins[s], n) for s in (0, 1)},
        "draws": rate(tally.draws, n),
        "mean_rounds": round(tally.rounds / max(n, 1), 2),
        "longest": tally.longest,
        "ended_by": {key: tally.endings[key] for key in ("all_defeated", "no_legal_move", "agreed")},
        "stopped_at_max_rounds": round(tally.endings["agreed"] / max(n, 1), 4),
        "shown": {label(rules, k): round(v / max(shown, 1), 4) for k, v in sorted(tally.chosen.items())},
    }


def interval(r: dict[str, float]) -> str:
    return f"{pct(r['rate'])} [{100 * r['low']:.1f}-{100 * r['high']:.1f}]"


def match_summary(m: dict[str, Any], defn: OneMinuteWar) -> str:
    (first, a), (second, b) = m["players"].items()
    n = max(m["games"], 1)
    ended = ", ".join(f"{ENDED[k]} {pct(v / n)}" for k, v in m["ended_by"].items() if v)
    return (f"{a} ({first}) vs {b} ({second}): {first} wins {interval(m['wins'][first])}, {second} "
            f"{interval(m['wins'][second])}, draws {interval(m['draws'])}; {m['mean_rounds']:.1f} rounds "
            f"a war (longest {m['longest']}); ended: {ended}")


def play_findings(defn: OneMinuteWar, stats: list[dict[str, Any]]) -> list[tuple[Loc, str]]:
    """(key path, message) for each threshold a match breaks."""
    t = defn.validation.thresholds
    found: list[tuple[Loc, str]] = []
    for m in stats:
        (first, a), (second, b) = m["players"].items()
        who = f"{a} ({first}) against {b} ({second})"
        n = max(m["games"], 1)
        checks = [
            ("max_draw_rate", m["draws"]["rate"] > t.max_draw_rate,
             f"{pct(m['draws']['rate'])} of wars are drawn"),
            ("max_no_legal_rate", m["ended_by"]["no_legal_move"] / n > t.max_no_legal_rate,
             f"{pct(m['ended_by']['no_legal_move'] / n)} of wars end with a side that has no legal move"),
            ("max_stopped_rate", m["stopped_at_max_rounds"] > t.max_stopped_rate,
             f"{pct(m['stopped_at_max_rounds'])} of wars are still going after "
             f"{defn.validation.max_rounds} rounds"),
            ("min_mean_rounds", m["mean_rounds"] < t.min_mean_rounds,
             f"wars last only {m['mean_rounds']:.1f} rounds on average"),
            ("max_mean_rounds", m["mean_rounds"] > t.max_mean_rounds,
             f"wars last {m['mean_rounds']:.1f} rounds on average"),
        ]
        for key, broken, what in checks:
            if broken:
                found.append((("validation", "thresholds", key),
                              f"{what} when {who} ({key} is {getattr(t, key):g})"))
    return found


@dataclass
class Report(Verdicts):
    file: str
    defn: OneMinuteWar
    source: SourceMap
    findings: list[Finding] = field(default_factory=list)
    sections: dict[str, Any] = field(default_factory=dict)

    def located(self, finding: Finding) -> Problem:
        return self.source.problem(finding.loc, finding.message)

    def as_json(self) -> str:
        problems = [{"severity": f.severity, "check": f.check, "file": p.file, "line": p.line,
                     "path": p.path, "message": f.message, "soldiers": list(f.soldiers)}
                    for f, p in ((f, self.located(f)) for f in self.findings)]
        body = {"file": self.file, "readable": True, "valid": self.valid, "errors": len(self.errors),
                "warnings": len(self.warnings), "problems": problems, **self.sections}
        return json.dumps(body, indent=2)

    def as_text(self) -> str:
        d = self.defn
        lines = [f"{d.title} soldier table {self.file}: {len(d.soldiers)} soldiers a side"]
        for check, summary in self.summaries():
            mine = [f for f in self.findings if f.check == check]
            mark = "FAIL" if any(f.severity == "error" for f in mine) else ("warn" if mine else "ok")
            lines.append(f"  {check:<9} {mark:<4}  {summary[0]}")
            lines += [f"      {more}" for more in summary[1:]]
        for title, group in (("Problems", self.errors), ("Warnings", self.warnings)):
            if group:
                lines.append(f"{title}:")
                lines += [f"  {p}" for p in sorted((self.located(f) for f in group), key=lambda p: (p.line, p.message))]
        lines.append(self.result_line())
        return "\n".join(lines)

    def summaries(self) -> list[tuple[str, list[str]]]:
        out = [("structure", ["numbers, beats and sides checked; who can defeat whom; abilities "
                              "against beats"]),
               ("card", ["every name and ability measured on its tab, as build measures it"])]
        o = self.sections.get("opening")
        if o is not None:
            mix = ", ".join(f"{name.split(' ', 1)[1]} {share}" for name, share in o["shares"].items()
                            if share != "0")
            unique = "the only optimal mix" if o["unique"] else "one of several optimal mixes"
            never = ", ".join(name.split(" ", 1)[1] for name in o["never_worth_choosing"]) or "none"
            out.append(("opening", [f"solved exactly: value {o['value']}; {mix} ({unique}); "
                                    f"never worth choosing: {never}"]))
        p = self.sections.get("play")
        if p is not None:
            head = (f"{p['games']} wars a match (seed {p['seed']}, stopped after {p['max_rounds']} "
                    f"rounds); 95 % intervals in brackets")
            out.append(("play", [head] + [match_summary(m, self.defn) for m in p["matches"]]))
        return out


def check_set(defn: OneMinuteWar, source: SourceMap, games: int | None = None, seed: int | None = None,
              progress: Callable[[int], None] | None = None, workers: int | None = None) -> Report:
    """Every check; the opening round and the simulation need a table the engine can play."""
    report = Report(source.file, defn, source)
    report.findings += structure(defn) + card_findings(defn)  # the card measured as build measures it
    if any(f.check == "structure" and not f.soldiers and f.severity == "error" for f in report.findings):
        return report  # numbers or beats the engine cannot read
    report.findings += ability_findings(defn)
    rules = rules_of(defn)
    op = opening(rules)
    report.findings += opening_findings(defn, rules, op)
    report.sections["opening"] = opening_stats(rules, op)
    v = defn.validation
    games = v.games if games is None else games
    seed = v.seed if seed is None else seed
    matches: list[tuple[str, str]] = [(a, b) for a, b in v.matches]
    tallies = simulate(rules, op.shares, matches, games, seed, v.max_rounds, progress, workers)
    stats = [match_stats(rules, names, tally) for names, tally in zip(matches, tallies)]
    report.findings += [Finding("play", "error", loc, message) for loc, message in play_findings(defn, stats)]
    report.sections["play"] = {"games": games, "seed": seed, "max_rounds": v.max_rounds, "matches": stats}
    return report


def simulated_games(defn: OneMinuteWar, games: int | None = None) -> int:
    """How many wars `check_set` plays, for a progress bar."""
    return (defn.validation.games if games is None else games) * len(defn.validation.matches)


def show_documents(report: Report, seed: int | None = None) -> list[Document]:
    """war.svg and war.png of how the first war ended (nothing if the table cannot be played)."""
    from printgen.games.one_minute_war.position import heading_of, position_documents
    from printgen.games.one_minute_war.simulation import one_war

    if "play" not in report.sections:
        return []
    defn = report.defn
    rules = rules_of(defn)
    seed = defn.validation.seed if seed is None else seed
    first, second = defn.validation.matches[0]
    shares = opening(rules).shares
    outcome = one_war(rules, shares, (first, second), seed, defn.validation.max_rounds)
    return position_documents(defn, rules, outcome, heading_of(defn, rules, outcome, (first, second), seed))
