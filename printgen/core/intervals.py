"""Confidence intervals for figures measured by simulation, and how many runs would settle a verdict.

A simulated figure is a sample: 200 games of a perfectly even tile set give a win gap of 10 % or
more about one time in seven. So a validator judges a figure against its limit only when the whole
95 % interval lies on one side of the limit, and otherwise says how many runs would be needed if
the figure stayed as measured. Shares of runs use Wilson's score interval, which stays inside 0..1
and behaves at 0 % and 100 %, where the textbook interval collapses to a point; averages and ratios
of sums per run use the normal approximation with the variance measured between runs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol

Z95 = 1.959963984540054  # two-sided 95 %: the normal quantile at 0.975
MOST_RUNS = 1_000_000  # `--games` accepts no more, so no suggestion goes past it
FEWEST_SUGGESTED = 100  # what to suggest when a single run left the spread between runs unknown
Verdict = Literal["ok", "over", "unsure"]


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float


class Figure(Protocol):
    """A measured figure whose interval can be worked out for any number of runs, the rates and
    the spread between runs staying as measured (to say how many runs would settle it)."""

    @property
    def runs(self) -> int: ...

    def at(self, runs: float) -> Interval: ...


def wilson(hits: float, runs: float, z: float = Z95) -> Interval:
    """Wilson's score interval for a share of `hits` in `runs` (0..1 for no runs at all)."""
    if runs <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = hits / runs
    z2 = z * z
    denominator = 1 + z2 / runs
    centre = (p + z2 / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Share:
    """`hits` of `runs` runs ended one way (a win, a draw, a stall)."""

    hits: int
    runs: int

    def at(self, runs: float) -> Interval:
        return wilson(self.hits * runs / self.runs, runs) if self.runs else wilson(0, 0)


@dataclass(frozen=True)
class Gap:
    """How far apart two exclusive outcomes are, as a share of all runs (white's wins minus black's).

    Among the runs that ended in either outcome, the first one's share has Wilson's interval; the
    gap is that share's distance from one half, scaled by the share of runs that were decided.
    `at` gives the interval of the gap's size; `leader` says which outcome is ahead."""

    first: int
    second: int
    runs: int

    def signed(self, runs: float) -> Interval:
        decided = self.first + self.second
        if not self.runs or not decided:
            return Interval(0.0, 0.0, 0.0)
        share = wilson(self.first * runs / self.runs, decided * runs / self.runs)
        scale = decided / self.runs
        return Interval((self.first - self.second) / self.runs, scale * (2 * share.low - 1),
                        scale * (2 * share.high - 1))

    def at(self, runs: float) -> Interval:
        s = self.signed(runs)
        if s.low >= 0:
            return Interval(abs(s.value), s.low, s.high)
        if s.high <= 0:
            return Interval(abs(s.value), -s.high, -s.low)
        return Interval(abs(s.value), 0.0, max(-s.low, s.high))

    def leader(self) -> str:
        return "first" if self.first > self.second else "second" if self.second > self.first else "neither"


@dataclass(frozen=True)
class Mean:
    """The average of a count per run, from the sum and the sum of squares over runs."""

    total: float
    total_sq: float
    runs: int

    def at(self, runs: float) -> Interval:
        if self.runs < 2:
            value = self.total / self.runs if self.runs else 0.0
            return Interval(value, -math.inf, math.inf)
        value = self.total / self.runs
        variance = max(self.total_sq - self.total * value, 0.0) / (self.runs - 1)
        half = Z95 * math.sqrt(variance / runs)
        return Interval(value, value - half, value + half)


@dataclass(frozen=True)
class Ratio:
    """A ratio of two sums over runs (of a player's looks at a hand, the share that found nothing to
    place): runs are the independent units, so the spread is measured between runs."""

    top: float
    bottom: float
    top_sq: float
    bottom_sq: float
    cross: float
    runs: int

    def at(self, runs: float) -> Interval:
        if self.bottom <= 0:
            return Interval(0.0, 0.0, 1.0)
        value = self.top / self.bottom
        if self.runs < 2:
            return Interval(value, 0.0, 1.0)
        residual = self.top_sq - 2 * value * self.cross + value * value * self.bottom_sq
        per_run = self.bottom / self.runs
        half = Z95 * math.sqrt(max(residual, 0.0) / (self.runs - 1) / runs) / per_run
        return Interval(value, max(0.0, value - half), min(1.0, value + half))


def judge(interval: Interval, limit: float, at_most: bool = True) -> Verdict:
    """"over" when the whole interval breaks the limit, "ok" when it keeps it, else "unsure".
    `at_most`: the figure may not exceed the limit (else it may not fall below it)."""
    low, high = interval.low, interval.high
    if at_most:
        return "over" if low > limit else "ok" if high <= limit else "unsure"
    return "over" if high < limit else "ok" if low >= limit else "unsure"


def runs_needed(figure: Figure, limit: float, at_most: bool = True) -> int | None:
    """The fewest runs (rounded up to two significant digits) after which the interval would
    settle the verdict if the figure stayed as measured; None when even MOST_RUNS would not (the
    figure lies on the limit)."""
    def settled(runs: float) -> bool:
        return judge(figure.at(runs), limit, at_most) != "unsure"

    if figure.runs < 2 and isinstance(figure, (Mean, Ratio)):
        return FEWEST_SUGGESTED  # the spread between runs is unknown until there are two
    low = max(figure.runs, 1)
    if settled(low):
        return None
    high = low
    while not settled(high):
        if high >= MOST_RUNS:
            return None
        low, high = high, min(high * 2, MOST_RUNS)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if settled(middle) else (middle, high)
    return min(round_up(high), MOST_RUNS)


def round_up(n: int) -> int:
    """n rounded up to two significant digits: 1234 -> 1300, 87 -> 87."""
    step = 10 ** max(len(str(n)) - 2, 0)
    return -(-n // step) * step
