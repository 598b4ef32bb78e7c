"""Two-player zero-sum matrix games solved exactly, in fractions.

Floating-point solvers cannot tell whether a share is exactly 0 or 1/3, and games are at most
8 x 8, so the simplex method runs here exactly, with Bland's rule so it never cycles."""
from __future__ import annotations

from dataclasses import dataclass
import math
from fractions import Fraction
from typing import Sequence

Matrix = Sequence[Sequence[Fraction | int]]
Row = tuple[list[Fraction], str, Fraction]  # coefficients, "<=" / ">=" / "==", right-hand side


class Unbounded(ValueError):
    """The objective grows without limit (never for a game, whose strategies are bounded)."""


class Tableau:
    """A fraction-free (Bareiss) simplex tableau, entries times `scale`: integers beat `Fraction`."""

    def __init__(self, rows: list[list[int]], basis: list[int]) -> None:
        self.rows, self.basis, self.scale = rows, basis, 1
        self.costs: list[int] = []

    def price(self, goal: Sequence[int]) -> None:
        """Reduced costs of `goal` (whole numbers) for the current basis, in the tableau's scale."""
        width = len(self.rows[0])
        self.costs = [goal[j] * self.scale - sum(goal[b] * row[j] for row, b in zip(self.rows, self.basis))
                      if j < width - 1 else 0 for j in range(width)]

    def pivot(self, r: int, c: int) -> None:
        head, old, pivot_row = self.rows[r][c], self.scale, self.rows[r]
        if head < 0:  # only when an artificial variable is swapped out; keep the scale positive
            pivot_row = self.rows[r] = [-v for v in pivot_row]
            head = -head
        for i, row in enumerate(self.rows):
            if i != r:
                self.rows[i] = [(head * a - row[c] * b) // old for a, b in zip(row, pivot_row)]
        self.costs = [(head * a - self.costs[c] * b) // old for a, b in zip(self.costs, pivot_row)]
        self.basis[r], self.scale = c, head

    def optimise(self, allowed: Sequence[int]) -> None:
        """Pivot until no allowed column improves the objective, by Bland's rule so it never cycles."""
        order = sorted(allowed)
        while True:
            entering = next((j for j in order if self.costs[j] > 0), None)
            if entering is None:
                return
            ratios = [(Fraction(row[-1], row[entering]), self.basis[i], i)
                      for i, row in enumerate(self.rows) if row[entering] > 0]
            if not ratios:
                raise Unbounded("the objective has no maximum")
            self.pivot(min(ratios)[2], entering)

    def value_of(self, column: int) -> Fraction:
        for row, b in zip(self.rows, self.basis):
            if b == column:
                return Fraction(row[-1], self.scale)
        return Fraction(0)


def whole(values: Sequence[Fraction | int]) -> list[int]:
    """The values times the least common multiple of their denominators: a row that means the same."""
    fractions = [Fraction(v) for v in values]
    common = math.lcm(*(f.denominator for f in fractions))
    return [int(f * common) for f in fractions]


def linprog(objective: Sequence[Fraction | int], rows: Sequence[Row]) -> tuple[Fraction, list[Fraction]] | None:
    """Maximise objective . x over x >= 0 subject to `rows` (two phases); None if infeasible."""
    n = len(objective)
    slack_cols = [i for i, (_, op, _) in enumerate(rows) if op != "=="]
    width = n + len(slack_cols) + len(rows)
    table = []
    for i, (coeffs, op, rhs) in enumerate(rows):
        slacks = [0] * len(slack_cols)
        if op != "==":
            slacks[slack_cols.index(i)] = 1 if op == "<=" else -1
        row = whole([*coeffs, *slacks, *([0] * len(rows)), rhs])
        if row[-1] < 0:
            row = [-v for v in row]
        row[n + len(slack_cols) + i] = 1
        table.append(row)
    artificial = list(range(n + len(slack_cols), width))
    tableau = Tableau(table, list(artificial))
    tableau.price([-1 if j >= n + len(slack_cols) else 0 for j in range(width)])
    tableau.optimise(range(width))
    if any(tableau.value_of(a) > 0 for a in artificial):
        return None
    keep = [j for j in range(width) if j not in artificial]
    for i, b in enumerate(tableau.basis):  # an artificial still basic sits at zero: swap it out if it can be
        if b in artificial:
            j = next((j for j in keep if tableau.rows[i][j] != 0), None)
            if j is not None:
                tableau.pivot(i, j)
    goal = whole([*objective, *([0] * (width - n))])
    tableau.price(goal)
    tableau.optimise(keep)
    x = [tableau.value_of(j) for j in range(n)]
    return sum((Fraction(c) * v for c, v in zip(objective, x)), Fraction(0)), x


@dataclass(frozen=True)
class Solution:
    """The row player's side of a zero-sum game (payoffs to the row player)."""

    value: Fraction
    strategy: tuple[Fraction, ...]  # one optimal mixed strategy
    least: tuple[Fraction, ...]  # each pure strategy's lowest weight over all optimal strategies
    most: tuple[Fraction, ...]  # ... and its highest

    @property
    def unique(self) -> bool:
        return self.least == self.most


def optimal(matrix: Matrix) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The value and one optimal mix of the row player, from the shifted column problem's duals."""
    rows_n, cols_n = len(matrix), len(matrix[0])
    entries = [[Fraction(v) for v in row] for row in matrix]
    shift = 1 - min(min(row) for row in entries)
    common = math.lcm(*(v.denominator for row in entries for v in row), shift.denominator)
    table = [[int((v + shift) * common) for v in row] + [int(i == k) for k in range(rows_n)] + [common]
             for i, row in enumerate(entries)]
    tableau = Tableau(table, [cols_n + i for i in range(rows_n)])
    tableau.price([1] * cols_n + [0] * rows_n)
    tableau.optimise(range(cols_n + rows_n))
    total = sum((tableau.value_of(j) for j in range(cols_n)), Fraction(0))  # 1 / the shifted value
    prices = [Fraction(-tableau.costs[cols_n + i], tableau.scale) for i in range(rows_n)]
    return 1 / total - shift, tuple(p / sum(prices) for p in prices)


def guarantees(matrix: Matrix, value: Fraction) -> list[Row]:
    """The mixes that earn at least `value` against every column: the optimal ones, at the value."""
    rows_n, cols_n = len(matrix), len(matrix[0])
    rows: list[Row] = [([Fraction(matrix[i][j]) for i in range(rows_n)], ">=", value) for j in range(cols_n)]
    rows.append(([Fraction(1)] * rows_n, "==", Fraction(1)))
    return rows


def preferred(matrix: Matrix) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The optimal mix that earns most against a random column: independent of row order."""
    value, _ = optimal(matrix)
    rows_n, cols_n = len(matrix), len(matrix[0])
    against_any = [sum((Fraction(v) for v in matrix[i]), Fraction(0)) / cols_n for i in range(rows_n)]
    found = linprog(against_any, guarantees(matrix, value))
    assert found is not None  # an optimal mix exists
    return value, tuple(found[1])


def solve(matrix: Matrix) -> Solution:
    """Value, one optimal strategy, and the range of each weight over every optimal strategy."""
    value, strategy = preferred(matrix)
    optimal_mixes = guarantees(matrix, value)
    least, most = [], []
    for k in range(len(matrix)):
        pick = [Fraction(1 if i == k else 0) for i in range(len(matrix))]
        high = linprog(pick, optimal_mixes)
        low = linprog([-p for p in pick], optimal_mixes)
        assert high is not None and low is not None  # `strategy` satisfies them
        most.append(high[0])
        least.append(-low[0])
    return Solution(value, strategy, tuple(least), tuple(most))
