"""The play check: simulated figures with their 95 % intervals, judged against the thresholds.

A figure breaks or keeps a threshold only when its whole interval does; otherwise it warns how
many games would settle it, so a chance gap is not read as an unbalanced set."""
from __future__ import annotations

import math
from typing import Any, Sequence

from printgen.games.intervals import Figure, Gap, Interval, Mean, Ratio, Share, judge, runs_needed
from printgen.games.omiga.checks import Finding, names_list
from printgen.games.omiga.model import Omiga
from printgen.games.omiga.simulation import OUTCOMES, Tally
from printgen.games.omiga.tileset import Compiled
from printgen.games.verdicts import pct

TOP_TILES = 6  # tiles named when a play threshold fails
CONFIDENCE = 0.95
# threshold key, figure, may the figure not exceed it (else not fall below), what it measures
THRESHOLDS = (("max_win_gap", "win_gap", True, "win gap"),
              ("max_draw_rate", "draw_rate", True, "draws"),
              ("max_stall_rate", "stall_rate", True, "stalls"),
              ("min_mean_placements", "mean_placements", False, "placements a game"),
              ("max_no_legal_rate", "no_legal_rate", True, "looks at a hand that found nothing to place"))
COUNTS = ("mean_placements", "no_legal_hands_per_game")  # figures that are not shares of 100 %


def figures(tally: Tally) -> dict[str, Figure]:
    n = tally.games
    o = dict(zip(OUTCOMES, tally.outcomes))
    white, black = o["white_behind"] + o["white_edge"], o["black_behind"] + o["black_edge"]
    return {
        "white_wins": Share(white, n), "white_behind": Share(o["white_behind"], n),
        "white_edge": Share(o["white_edge"], n),
        "black_wins": Share(black, n), "black_behind": Share(o["black_behind"], n),
        "black_edge": Share(o["black_edge"], n),
        "win_gap": Gap(white, black, n),
        "draw_rate": Share(o["draw_edges"] + o["draw_out"], n),
        "stall_rate": Share(o["stall"] + o["no_start"], n),
        "mean_placements": Mean(tally.placements, tally.placements_sq, n),
        "no_legal_rate": Ratio(tally.no_legal, tally.looks, tally.no_legal_sq, tally.looks_sq,
                               tally.looks_no_legal, n),
        "no_legal_hands_per_game": Mean(tally.no_legal, tally.no_legal_sq, n),
    }


def rounded(interval: Interval) -> Interval:
    """Rounded once, to what JSON shows, so the text and the JSON give the same bounds."""
    return Interval(*(round(b, 4) if math.isfinite(b) else b
                      for b in (interval.value, interval.low, interval.high)))


def bounds(interval: Interval) -> list[float | None]:
    """[low, high] for JSON; an unknown bound (one game: no spread between games yet) is null."""
    return [b if math.isfinite(b) else None for b in (interval.low, interval.high)]


def shown(key: str, value: float) -> str:
    return f"{value:.1f}" if key in COUNTS else f"{100 * value:.1f}"


def with_interval(key: str, interval: Interval) -> str:
    """'47.7 % (44.6-50.8)' or '17.3 (16.9-17.7)': the figure and its 95 % interval."""
    unit = "" if key in COUNTS else " %"
    if not (math.isfinite(interval.low) and math.isfinite(interval.high)):
        return f"{shown(key, interval.value)}{unit} (no interval from one game)"
    return (f"{shown(key, interval.value)}{unit} ({shown(key, interval.low)}-"
            f"{shown(key, interval.high)})")


def play_section(defn: Omiga, cs: Compiled, tally: Tally, seed: int) -> tuple[list[Finding], dict[str, Any]]:
    n = max(tally.games, 1)
    o = dict(zip(OUTCOMES, tally.outcomes))
    rate = {k: v / n for k, v in o.items()}
    measured = figures(tally)
    intervals = {key: rounded(figure.at(figure.runs)) for key, figure in measured.items()}
    gap = measured["win_gap"]
    assert isinstance(gap, Gap)
    stats: dict[str, Any] = {
        "simulated": True, "games": tally.games, "seed": seed, "confidence": CONFIDENCE,
        "table": f"{defn.validation.table.columns} x {defn.validation.table.rows}",
        **{side: {"wins": round(rate[f"{side}_behind"] + rate[f"{side}_edge"], 4),
                  "behind": round(rate[f"{side}_behind"], 4), "edge": round(rate[f"{side}_edge"], 4)}
           for side in ("white", "black")},
        "win_gap": intervals["win_gap"].value,
        "leader": {"first": "white", "second": "black", "neither": "neither"}[gap.leader()],
        "draw_rate": rate["draw_edges"] + rate["draw_out"],
        "draws": {"both_side_edges": o["draw_edges"], "out_of_tiles": o["draw_out"]},
        "stall_rate": rate["stall"] + rate["no_start"],
        "stalls": {"frozen": o["stall"], "no_opening": o["no_start"]},
        "mean_placements": tally.placements / n,
        "no_legal_rate": tally.no_legal / max(tally.looks, 1),
        "no_legal_hands_per_game": tally.no_legal / n,
        "outcomes": o,
    }
    ranked = sorted(((count, cs.names[d][i]) for d in (0, 1) for i, count in enumerate(tally.dead_hands[d])),
                    key=lambda x: (-x[0], x[1]))
    stuck = [name for count, name in ranked[:TOP_TILES] if count > 0]
    stats["tiles_most_often_in_a_dead_hand"] = stuck
    stats = {k: round(v, 4) if isinstance(v, float) else v for k, v in stats.items()}
    stats["intervals"] = {key: bounds(i) for key, i in intervals.items()}
    found: list[Finding] = []
    verdicts: dict[str, Any] = {}
    limits = defn.validation.thresholds
    for key, figure_key, at_most, label in THRESHOLDS:
        limit = float(getattr(limits, key))
        interval = intervals[figure_key]
        verdict = judge(interval, limit, at_most)
        needed = runs_needed(measured[figure_key], limit, at_most) if verdict == "unsure" else None
        verdicts[key] = {"figure": figure_key, "value": round(interval.value, 4),
                         "interval": bounds(interval), "limit": limit, "verdict": verdict,
                         "games_needed": needed}
        tiles = stuck if key in ("max_stall_rate", "max_no_legal_rate") else []
        message = judged(key, figure_key, label, interval, limit, verdict, needed, stats, tiles)
        if message:
            found.append(Finding("play", "error" if verdict == "over" else "warning",
                                 ("validation", "thresholds", key), message, tuple(tiles),
                                 topic=("threshold", key)))
    stats["verdicts"] = verdicts
    return found, stats


def judged(key: str, figure_key: str, label: str, interval: Interval, limit: float, verdict: str,
           needed: int | None, stats: dict[str, Any], tiles: Sequence[str]) -> str:
    """The message for a threshold the figure breaks or may break; "" when it keeps it."""
    if verdict == "ok":
        return ""
    measured = with_interval(figure_key, interval)
    if figure_key == "win_gap":
        what = (f"white wins {pct(stats['white']['wins'])} of games and black "
                f"{pct(stats['black']['wins'])}, a gap of {measured}")
    elif figure_key == "mean_placements":
        what = f"games last {measured} placements on average"
    elif figure_key == "no_legal_rate":
        what = f"{measured} of looks at a hand find nothing to place"
    elif figure_key == "stall_rate":
        what = f"{measured} of games stall: neither player can ever place again"
    else:
        what = f"{measured} of games are drawn"
    named = f"; tiles most often stuck in a hand: {names_list(tiles)}" if tiles else ""
    if verdict == "over":
        return f"{what} ({key} is {limit:g}, outside the 95 % interval){named}"
    settle = (f"try --games {needed}" if needed is not None else
              "the figure lies so close to the limit that even --games 1000000 may not settle it")
    return f"{what} ({key} is {limit:g}, inside the 95 % interval): not enough games to tell, {settle}"


def play_lines(p: dict[str, Any]) -> list[str]:
    """The play summary: what was simulated, then every figure with its interval and verdict."""
    if not p.get("simulated"):
        return [p["reason"]]
    i = {key: Interval(0.0, *(math.inf if b is None else b for b in bounds))
         for key, bounds in p["intervals"].items()}

    def fig(key: str, value: float) -> str:
        return with_interval(key, Interval(value, i[key].low, i[key].high))

    w, b = p["white"], p["black"]
    games = f"{p['games']} game{'s' * (p['games'] != 1)}"
    lines = [f"{games} (seed {p['seed']}, table {p['table']}), each figure with its 95 % interval:",
             f"white wins {fig('white_wins', w['wins'])}: behind {fig('white_behind', w['behind'])}, "
             f"far edge {fig('white_edge', w['edge'])}",
             f"black wins {fig('black_wins', b['wins'])}: behind {fig('black_behind', b['behind'])}, "
             f"far edge {fig('black_edge', b['edge'])}"]
    for key, figure_key, at_most, label in THRESHOLDS:
        v = p["verdicts"][key]
        limit = f"{v['limit']:g}" if figure_key in COUNTS else f"{100 * v['limit']:g} %"
        bound = "at most" if at_most else "at least"
        verdict = {"ok": "ok", "over": "TOO " + ("HIGH" if at_most else "LOW"),
                   "unsure": "not enough games to tell"}[v["verdict"]]
        lines.append(f"{label} {fig(figure_key, p[figure_key])}, {bound} {limit}: {verdict}")
    return lines
