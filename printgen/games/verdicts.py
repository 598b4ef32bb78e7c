"""What every game's `printgen validate` report shares: its findings sorted into errors and
warnings, valid while there is no error, and the closing line a script and a person both read."""
from __future__ import annotations

from typing import Any


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def pct(value: float) -> str:
    return f"{100 * value:.1f} %"


class Verdicts:
    """Mixed into a game's report dataclass, which holds `findings` (each with a `severity`)."""

    findings: list[Any]

    @property
    def errors(self) -> list[Any]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Any]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def valid(self) -> bool:
        return not self.errors

    def result_line(self, then: str = "") -> str:
        """`Result: valid (0 problems, 1 warning)`; `then` adds to what is counted."""
        verdict = "valid" if self.valid else "NOT valid"
        return (f"Result: {verdict} ({plural(len(self.errors), 'problem')}, "
                f"{plural(len(self.warnings), 'warning')}{then})")
