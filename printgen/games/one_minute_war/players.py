"""The players of simulated wars: `uniform`, `equilibrium` and `best_reply`.

The last two fold down and bring back soldiers by their shares in the opening's optimal mix."""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Callable

from printgen.games.one_minute_war.engine import (Army, Fight, Move, Rules, Sacrifice, War, fighters,
                                                  offerings, play)
from printgen.games.one_minute_war.solve import preferred

FIST = 0  # the action that stands for a sacrifice
Stage = tuple[list[int], list[int], tuple[tuple[int, ...], ...]]  # actions of each side, payoffs to side 0


class Table:
    """What players of one table share: rules, soldiers' worth and every round's game by position."""

    def __init__(self, rules: Rules, shares: dict[int, Fraction]) -> None:
        self.rules = rules
        self.worth = {s.number: (float(shares.get(s.number, 0)), len(s.beats)) for s in rules.soldiers}
        self.stages: dict[tuple[Army, Army], Stage] = {}
        self.payoffs: dict[tuple[int, int, tuple[frozenset[int], frozenset[int]]], int] = {}
        self.mixes: dict[tuple[tuple[int, ...], ...], tuple[tuple[float, ...], tuple[float, ...]]] = {}

    def actions(self, war: War, side: int) -> list[int]:
        fist = [FIST] if offerings(self.rules, war, side) else []
        return fighters(self.rules, war, side) + fist

    def stage(self, war: War) -> Stage:
        """Both sides' actions and the round's payoff to the first side for every pair of them."""
        found = self.stages.get(war.armies)
        if found is None:
            mine, theirs = self.actions(war, 0), self.actions(war, 1)
            standing = (war.armies[0].standing, war.armies[1].standing)
            payoffs = tuple(tuple(self.payoff(a, b, standing) for b in theirs) for a in mine)
            found = self.stages[war.armies] = (mine, theirs, payoffs)
        return found

    def payoff(self, a: int, b: int, standing: tuple[frozenset[int], frozenset[int]]) -> int:
        """The change in (first side's soldiers standing - second's) when the first plays `a` and
        the second `b`; it depends only on who stands."""
        key = (a, b, standing)
        found = self.payoffs.get(key)
        if found is None:
            war = War((Army(standing[0]), Army(standing[1])))
            moves = (self.sample_move(war, 0, a), self.sample_move(war, 1, b))
            after, _ = play(self.rules, war, moves, lambda side, choices: choices[0])
            found = self.payoffs[key] = (len(after.armies[0].standing) - len(after.armies[1].standing)
                                         - len(standing[0]) + len(standing[1]))
        return found

    def sample_move(self, war: War, side: int, action: int) -> Move:
        return Fight(action) if action != FIST else Sacrifice(min(war.armies[side].standing))

    def mix(self, payoffs: tuple[tuple[int, ...], ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Each side's optimal mix for a round's game, solved once per distinct game."""
        found = self.mixes.get(payoffs)
        if found is None:
            _, first = preferred(payoffs)
            _, second = preferred([[-payoffs[i][j] for i in range(len(payoffs))] for j in range(len(payoffs[0]))])
            found = self.mixes[payoffs] = (tuple(float(w) for w in first), tuple(float(w) for w in second))
        return found


Picker = Callable[[Table, War, int, random.Random], int]


def uniform_action(table: Table, war: War, side: int, rng: random.Random) -> int:
    return rng.choice(table.actions(war, side))


def equilibrium_action(table: Table, war: War, side: int, rng: random.Random) -> int:
    mine, theirs, payoffs = table.stage(war)
    weights = table.mix(payoffs)[side]
    return rng.choices(mine if side == 0 else theirs, weights)[0]


def best_reply_action(table: Table, war: War, side: int, rng: random.Random) -> int:
    mine, theirs, payoffs = table.stage(war)
    if side == 0:
        own, totals = mine, [sum(row) for row in payoffs]
    else:
        own, totals = theirs, [-sum(row[j] for row in payoffs) for j in range(len(theirs))]
    best = max(totals)
    return rng.choice([a for a, total in zip(own, totals) if total == best])


class Player:
    """One side's way of playing: the move each round, and whom to fold down or bring back."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pick: Picker = {"uniform": uniform_action, "equilibrium": equilibrium_action,
                             "best_reply": best_reply_action}[name]

    def move(self, table: Table, war: War, side: int, rng: random.Random) -> Move:
        action = self.pick(table, war, side, rng)
        if action != FIST:
            return Fight(action)
        choices = offerings(table.rules, war, side)
        least_worth = min(choices, key=lambda n: (table.worth[n], n))
        return Sacrifice(rng.choice(choices) if self.name == "uniform" else least_worth)

    def revive(self, table: Table, choices: list[int], rng: random.Random) -> int:
        return rng.choice(choices) if self.name == "uniform" else max(choices, key=lambda n: (table.worth[n], -n))
