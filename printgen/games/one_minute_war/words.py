"""A round and a war's end in words, as `printgen replay` prints them."""
from __future__ import annotations

from printgen.games.one_minute_war.engine import Fight, Move, Result, Round, Rules, War, fighters


def move_words(rules: Rules, side: int, move: Move, first: bool) -> str:
    """'Red sends the Archer (4)', or for the second side 'Blue the Spearman (3)'."""
    name = rules.sides[side]
    assert move.soldier is not None
    soldier = rules.soldier(move.soldier)
    if isinstance(move, Fight):
        return f"{name} sends {soldier.called}" if first else f"{name} {soldier.called}"
    return f"{name} shows a fist and folds down {soldier.called}"


def round_words(rules: Rules, done: Round, war: War) -> str:
    """One line: both moves, who fell, who came back, and how many stand on each side."""
    a, b = done.moves
    joined = "; " if any(not isinstance(m, Fight) for m in done.moves) else ", "
    second = move_words(rules, 1, b, first=not isinstance(a, Fight) or not isinstance(b, Fight))
    text = f"Round {done.number}: {move_words(rules, 0, a, first=True)}{joined}{second}."
    falls = [f"{rules.sides[side]}'s {rules.soldier(n).name}" for side in (0, 1) for n in done.fallen[side]
             if isinstance(done.moves[side], Fight)]  # a sacrifice's soldier is named with the fist
    if falls:
        text += f" {' and '.join(falls)} {'falls' if len(falls) == 1 else 'fall'}."
    elif all(isinstance(m, Fight) for m in done.moves):
        text += " Both stand."
    for side in (0, 1):
        move, back = done.moves[side], done.revived[side]
        if back is not None and move.soldier is not None:
            text += (f" {rules.sides[side]}'s {rules.soldier(move.soldier).name} brings back "
                     f"{rules.soldier(back).called}.")
    counts = ", ".join(f"{rules.sides[side]} {len(war.armies[side].standing)}" for side in (0, 1))
    return f"{text} Standing: {counts}."


def ending_words(rules: Rules, outcome: Result, war: War) -> str:
    """How the war ended (or that it has not), and after which round."""
    n = outcome.after_round
    if outcome.ended_by == "agreed":
        return f"The war ended after round {n}: both players agreed to stop."
    if outcome.ended_by == "unfinished":
        return f"The record stops after round {n}; the war is not over."
    if outcome.ended_by == "all_defeated":
        beaten = [rules.sides[side] for side in (0, 1) if not war.armies[side].standing]
        who = " and ".join(beaten)
        return f"The war ended after round {n}: {who} {'has' if len(beaten) == 1 else 'have'} no soldier standing."
    stuck = [side for side in (0, 1) if not fighters(rules, war, side)]
    who = " and ".join(rules.sides[side] for side in stuck)
    m = rules.max_in_a_row
    return (f"The war ended after round {n}: {who} {'has' if len(stuck) == 1 else 'have'} no legal move, "
            f"since every soldier standing was used in the last {m} round{'s' * (m != 1)}.")


def standing_words(rules: Rules, outcome: Result) -> str:
    parts = []
    for side in (0, 1):
        names = [rules.soldier(n).name for n in outcome.standing[side]]
        parts.append(f"{rules.sides[side]} {len(names)}" + (f" ({', '.join(names)})" if names else ""))
    return f"Standing: {'; '.join(parts)}."


def verdict_words(rules: Rules, outcome: Result) -> str:
    counts = [len(s) for s in outcome.standing]
    if outcome.ended_by == "unfinished":
        if outcome.leader is None:
            return f"No winner yet: level at {counts[0]} each."
        lead = outcome.leader
        return f"No winner yet: {rules.sides[lead]} leads {counts[lead]} to {counts[1 - lead]}."
    if outcome.winner is None:
        return f"A draw, {counts[0]} to {counts[1]}."
    win = outcome.winner
    return f"{rules.sides[win]} wins, {counts[win]} to {counts[1 - win]}."
