"""Confidence intervals for figures measured by simulation, and how many runs would settle a verdict.

A figure is judged against its limit only when its whole 95 % interval lies on one side. Shares use
Wilson's interval (sound at 0 % and 100 %); means and ratios use the spread measured between runs.
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
    """A figure whose interval can be worked out for any number of runs, the rest as measured."""

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
    """Two exclusive outcomes' difference as a share of all runs, from Wilson's interval of the
    first's share among decided runs; `at` is the gap's size, `leader` who is ahead."""

    first: int
    second: int
    runs: int

    def at(self, runs: float) -> Interval:
        decided = self.first + self.second
        if not self.runs or not decided:
            return Interval(0.0, 0.0, 0.0)
        share = wilson(self.first * runs / self.runs, decided * runs / self.runs)
        scale, gap = decided / self.runs, abs(self.first - self.second) / self.runs
        low, high = scale * (2 * share.low - 1), scale * (2 * share.high - 1)  # the first's lead, signed
        if low >= 0:
            return Interval(gap, low, high)
        return Interval(gap, -high, -low) if high <= 0 else Interval(gap, 0.0, max(-low, high))

    def leader(self) -> str:
        return "first" if self.first > self.second else "second" if self.second > self.first else "neither"


@dataclass(frozen=True)
class Mean:
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
    """A ratio of two sums over runs; runs are the independent units, so spread is between runs."""

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
    """"over" or "ok" when the whole interval breaks or keeps the limit (a maximum when `at_most`)."""
    low, high = interval.low, interval.high
    if at_most:
        return "over" if low > limit else "ok" if high <= limit else "unsure"
    return "over" if high < limit else "ok" if low >= limit else "unsure"


def runs_needed(figure: Figure, limit: float, at_most: bool = True) -> int | None:
    """The fewest runs (two significant digits) that would settle the verdict if the figure stayed
    as measured; None when even MOST_RUNS would not."""
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
