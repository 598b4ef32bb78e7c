"""The targets, judged from one run's figures: each ratio compares figures of that run. Issue 32
(simplify) set the current ones for a first build, `--help` and a rebuild in `build --watch`; the
older ones of issue 8 that still apply are kept. Issue 8's "decksmith at least 12x slower than
build omiga" was met only by the whole-build cache, which issue 32 removed, so it is shown as a
figure, not judged. The deck's targets are judged by benchmarks/deck/run_deck.py."""
from __future__ import annotations

from dataclasses import dataclass

from measure import Figure


@dataclass(frozen=True)
class Target:
    name: str
    measured: float | None  # None: could not be measured in this run
    limit: float
    unit: str
    at_least: bool = False  # True: the measured value must reach the limit, not stay under it

    @property
    def met(self) -> bool:
        if self.measured is None:
            return False
        return self.measured >= self.limit if self.at_least else self.measured <= self.limit

    def shown(self, value: float) -> str:
        return f"{value:.2f}{self.unit}" if self.unit in ("x", " s") else f"{value:.1f}{self.unit}"

    def row(self) -> tuple[str, str, str, str]:
        sign = ">=" if self.at_least else "<="
        if self.measured is None:
            return (self.name, "not measured", f"{sign} {self.shown(self.limit)}", "not measured")
        if self.met:
            result = "met"
        else:
            off = (self.limit / self.measured if self.at_least else self.measured / self.limit) - 1
            result = f"missed by {self.shown(abs(self.measured - self.limit))} ({off:.0%} off)"
        return (self.name, self.shown(self.measured), f"{sign} {self.shown(self.limit)}", result)


def check_targets(figures: dict[str, Figure], inner: dict[str, float]) -> list[Target]:
    omiga, floor = figures["omiga"].wall, figures["floor"].wall
    python = figures["python"].wall if "python" in figures else None
    return [
        Target("build omiga / floor (wall)", omiga / floor, 8.0, "x"),  # issue 32
        Target("printgen --help / python -c pass (wall)",  # issue 32
               figures["help"].wall / python if python else None, 4.0, "x"),
        Target("rebuild of omiga after a title edit in `build --watch`",  # issue 32, its own figure
               inner.get("rebuild_after_edit"), 0.35, " s"),
        Target("omiga.pdf size", inner["size_omiga"] / 1024, 64.0, " KiB"),
        Target("build omiga peak memory", figures["omiga"].peak_mib, 80.0, " MiB"),
        Target("static checks of 10,000 tiles", inner["static_10000"], 1.0, " s"),
        Target("1,000 simulated games", inner["games_1000"], 5.0, " s"),
    ]
