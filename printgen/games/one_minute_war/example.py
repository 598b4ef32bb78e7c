"""A short war played through the engine, for the rules sheet's worked example.

The moves are a fixed script; what each round does is worked out by the engine from the soldier
table, so the example stays true for a homebrew table (it stops at the first move that table
forbids, and is left out when fewer than MIN_ROUNDS rounds can be played)."""
from __future__ import annotations

from dataclasses import dataclass

from printgen.games.one_minute_war.engine import (Fight, Move, Refused, Round, Rules, Sacrifice, barred,
                                                  ending, play, rules_of, start)
from printgen.games.one_minute_war.model import OneMinuteWar

# (first side's move, second side's move): a soldier's number, 0 for a fist folding down the soldier
# after the colon ("0:2"), and a reviver's choice after a plus ("1+4")
SCRIPT = (("4", "3"), ("4", "5"), ("1", "2"), ("5", "0:2"), ("2", "5"), ("2", "1+5"))
# the rounds that carry the war on to its end (with the bundled table, Blue's last soldier falls in
# round 10), told where the sheet has room for them
TO_THE_END = (("1+5", "4"), ("2", "5"), ("5", "4"), ("3", "0:1"))
MIN_ROUNDS = 3


@dataclass(frozen=True)
class ExampleRound:
    """One round as the rules sheet tells it, in plain words for the template."""

    number: int
    shown: tuple[str, str]  # what each side showed: "4 (Archer)" or "a fist"
    happened: str  # who fell, who was brought back
    before: tuple[int, int]  # soldiers standing on each side as the round began
    standing: tuple[int, int]  # and once it was settled
    sits_out: list[str]  # soldiers who must sit out the next round, "Red's Archer"
    ended: str = ""  # how the war ended with this round ("all_defeated", "no_legal_move"), if it did


def move_of(text: str) -> Move:
    if text.startswith("0"):
        return Sacrifice(int(text[2:]) if ":" in text else None)
    number, _, back = text.partition("+")
    return Fight(int(number), int(back) if back else None)


def told(rules: Rules, done: Round) -> tuple[tuple[str, str], str]:
    """What each side showed and what came of it, in words."""
    sides = rules.sides
    shown = []
    for move in done.moves:
        if isinstance(move, Sacrifice):
            shown.append("a fist")
        else:
            shown.append(f"{move.soldier} ({rules.soldier(move.soldier).name})")
    events = []
    fists = [isinstance(move, Sacrifice) for move in done.moves]
    fought = [n for side in (0, 1) for n in done.fallen[side] if not fists[side]]
    if not any(fists) and not fought:
        events.append("neither soldier beats the other, so both stand")
    for side in (0, 1):
        move = done.moves[side]
        if isinstance(move, Sacrifice) and move.soldier is not None:
            given = rules.soldier(move.soldier)
            events.append(f"{sides[side]} folds down the {given.name} to pay for the fist"
                          + (" (given up, he does not fight, so he brings nobody back)" if given.revives else ""))
    for side in (0, 1):
        move = done.moves[side]
        back = done.revived[side] if isinstance(move, Fight) else None
        for number in done.fallen[side]:
            if not (isinstance(move, Sacrifice) and move.soldier == number):
                still = f", but still brings the {rules.soldier(back).name} back" if back and number == move.soldier else ""
                events.append(f"{sides[side]}'s {rules.soldier(number).name} falls{still}")
    for side in (0, 1):
        back = done.revived[side]
        move = done.moves[side]
        if back is not None and isinstance(move, Fight) and move.soldier not in done.fallen[side]:
            events.append(f"{sides[side]}'s {rules.soldier(move.soldier).name} brings the "
                          f"{rules.soldier(back).name} back")
    happened = "; ".join(events)
    return (shown[0], shown[1]), happened[0].upper() + happened[1:]


def example_war(defn: OneMinuteWar, to_the_end: bool = False) -> list[ExampleRound]:
    """The scripted rounds the definition's table allows, told round by round; `to_the_end`: with
    the rounds that play on until the war is over."""
    rules = rules_of(defn)
    war = start(rules)
    found: list[ExampleRound] = []
    for first, second in SCRIPT + (TO_THE_END if to_the_end else ()):
        try:
            moves = (move_of(first), move_of(second))
            before = (len(war.armies[0].standing), len(war.armies[1].standing))
            war, done = play(rules, war, moves, choose=lambda side, candidates: candidates[0])
        except (Refused, KeyError, ValueError):
            break
        shown, happened = told(rules, done)
        counts = (len(war.armies[0].standing), len(war.armies[1].standing))
        resting = [f"{rules.sides[side]}'s {rules.soldier(army.last).name}" for side, army in enumerate(war.armies)
                   if army.last is not None and barred(rules, army, army.last) and army.last in army.standing]
        ended = ending(rules, war) or ""
        found.append(ExampleRound(done.number, shown, happened, before, counts, resting, ended))
        if ended:
            break
    return found if len(found) >= MIN_ROUNDS else []


def example_data(defn: OneMinuteWar, to_the_end: bool = False) -> list[dict[str, object]]:
    """The example's rounds as plain data (lists, strings and numbers), what a template is given;
    `to_the_end`: played on until the war is over, or [] when the table does not let it end."""
    sides = [side.name for side in defn.sides]
    rounds = example_war(defn, to_the_end)
    if to_the_end and not (rounds and rounds[-1].ended):
        return []
    return [{"number": r.number, "shown": list(r.shown), "happened": r.happened, "before": list(r.before),
             "standing": list(r.standing), "sits_out": list(r.sits_out), "ended": r.ended,
             # "Red 5, Blue 4", each side's name bound to its count so a line never parts them
             "score": ", ".join(f"{name}\u00a0{count}" for name, count in zip(sides, r.standing))}
            for r in rounds]
