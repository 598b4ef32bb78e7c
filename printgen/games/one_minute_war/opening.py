"""The opening round of One Minute War as a matrix game, solved exactly.

Its value is always 0; what tells a designer something is each soldier's share of the optimal mix."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from printgen.games.one_minute_war.engine import Rules, start
from printgen.games.one_minute_war.players import FIST, Table
from printgen.games.one_minute_war.solve import Solution, solve


@dataclass(frozen=True)
class Opening:
    """The opening round's choices, exact solution, and why each unused choice is unused."""

    choices: list[int]  # soldiers' numbers, and FIST where a fist is allowed
    payoffs: tuple[tuple[int, ...], ...]
    solution: Solution
    never: dict[int, str]

    @property
    def shares(self) -> dict[int, Fraction]:
        return dict(zip(self.choices, self.solution.strategy))

    def worth_choosing(self) -> list[int]:
        return [c for c, most in zip(self.choices, self.solution.most) if most > 0 and c != FIST]


def opening(rules: Rules) -> Opening:
    mine, _, payoffs = Table(rules, {}).stage(start(rules))
    solution = solve(payoffs)
    never = {choice: reason(rules, mine, payoffs, i) for i, choice in enumerate(mine)
             if solution.most[i] == 0}
    return Opening(mine, payoffs, solution, never)


def called(rules: Rules, choice: int) -> str:
    return "a fist" if choice == FIST else f"the {rules.soldier(choice).name}"


def label(rules: Rules, choice: int) -> str:
    """'0 fist', '4 Archer': how a report's numbers name a choice."""
    return "0 fist" if choice == FIST else f"{choice} {rules.soldier(choice).name}"


def reason(rules: Rules, choices: list[int], payoffs: tuple[tuple[int, ...], ...], i: int) -> str:
    """Why no optimal mix uses choice i: a choice at least as good against everything, if any."""
    row = payoffs[i]
    better = [j for j, other in enumerate(payoffs)
              if j != i and all(a >= b for a, b in zip(other, row)) and other != row]
    if better:
        return f"{called(rules, choices[better[0]])} does at least as well against every choice, and better against some"
    return "against the other side's optimal mix this choice loses more often than it wins"
