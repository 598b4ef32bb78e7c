"""Simulated matches in numbers and words: win and draw rates with 95 % intervals, rounds per war,
how wars ended, which soldiers were shown, and the thresholds they break."""
from __future__ import annotations

from typing import Any

from printgen.core.source import Loc
from printgen.games.one_minute_war.engine import Rules
from printgen.games.one_minute_war.model import OneMinuteWar
from printgen.games.one_minute_war.opening import label
from printgen.core.intervals import wilson
from printgen.games.one_minute_war.simulation import Tally
from printgen.games.verdicts import pct

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
