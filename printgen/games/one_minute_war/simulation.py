"""Seeded simulated wars of One Minute War; each game has its own seed, so a run gives the same
numbers on any number of cores."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Callable

from printgen.core.parallel import on_cores
from printgen.games.one_minute_war.engine import ENDINGS, Fight, Result, Rules, War, ending, play, result, start
from printgen.games.one_minute_war.players import Player, Table

PARALLEL_FROM = 2000  # games in a run; fewer take too short a time to be worth sharing out
BATCH = 250  # games per job


@dataclass
class Tally:
    """Sums over the games of one match; adding tallies in any order gives the same result."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    rounds: int = 0
    longest: int = 0
    endings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENDINGS, 0))
    chosen: dict[int, int] = field(default_factory=dict)  # soldier (0: a fist) -> times shown, both sides

    def add(self, other: "Tally") -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.draws += other.draws
        self.rounds += other.rounds
        self.longest = max(self.longest, other.longest)
        for key, count in other.endings.items():
            self.endings[key] += count
        for number, count in other.chosen.items():
            self.chosen[number] = self.chosen.get(number, 0) + count


def game_rng(seed: int, first: str, second: str, game: int) -> random.Random:
    return random.Random(f"one_minute_war:{seed}:{first}:{second}:{game}")


def play_war(table: Table, players: tuple[Player, Player], rng: random.Random, max_rounds: int,
             tally: Tally) -> tuple[War, str]:
    """One war from the first round to its end, added to `tally`; its last state and how it ended."""
    rules = table.rules
    war, ended = start(rules), None
    while ended is None and war.rounds < max_rounds:
        moves = (players[0].move(table, war, 0, rng), players[1].move(table, war, 1, rng))
        for move in moves:
            shown = move.soldier if isinstance(move, Fight) else 0
            tally.chosen[shown] = tally.chosen.get(shown, 0) + 1
        war, _ = play(rules, war, moves, lambda side, choices: players[side].revive(table, choices, rng))
        ended = ending(rules, war)
    ended = ended or "agreed"  # the players stop after max_rounds
    counts = [len(army.standing) for army in war.armies]
    tally.games += 1
    if counts[0] == counts[1]:
        tally.draws += 1
    else:
        tally.wins[0 if counts[0] > counts[1] else 1] += 1
    tally.rounds += war.rounds
    tally.longest = max(tally.longest, war.rounds)
    tally.endings[ended] += 1
    return war, ended


def one_war(rules: Rules, shares: dict[int, Fraction], names: tuple[str, str], seed: int,
            max_rounds: int, game: int = 0) -> Result:
    """How war `game` of a seeded match ended, played again exactly as the run played it."""
    war, ended = play_war(Table(rules, dict(shares)), (Player(names[0]), Player(names[1])),
                          game_rng(seed, names[0], names[1], game), max_rounds, Tally())
    return result(war, ended)


def play_range(table: Table, names: tuple[str, str], seed: int, max_rounds: int, first: int,
               last: int) -> Tally:
    """Wars `first` to `last` of a match; `table` is shared by every batch of a run (in this process,
    or inherited by the helper that plays them), so batches reuse rounds already worked out."""
    players = (Player(names[0]), Player(names[1]))
    tally = Tally()
    for game in range(first, last):
        play_war(table, players, game_rng(seed, names[0], names[1], game), max_rounds, tally)
    return tally


def simulate(rules: Rules, shares: dict[int, Fraction], matches: list[tuple[str, str]], games: int,
             seed: int, max_rounds: int, progress: Callable[[int], None] | None = None,
             workers: int | None = None) -> list[Tally]:
    """`games` seeded wars per match, in batches on every core; `progress(n)` hears of each batch."""
    batches = [(m, a, min(a + BATCH, games)) for m in range(len(matches)) for a in range(0, games, BATCH)]
    table = Table(rules, dict(shares))
    jobs = [partial(play_range, table, matches[m], seed, max_rounds, a, b) for m, a, b in batches]

    def finished(index: int, _: Tally) -> None:
        if progress:
            progress(batches[index][2] - batches[index][1])

    totals = [Tally() for _ in matches]
    parallel = workers if games * len(matches) >= PARALLEL_FROM else 1
    for (m, _, _), tally in zip(batches, on_cores(jobs, finished, parallel, kind=Tally)):
        totals[m].add(tally)
    return totals
