"""Command-line value types that refuse what click's own let through.

click.FloatRange accepts `nan` (every comparison with NaN is false, so no bound ever fails) and a
NaN that reaches the drawing code writes `nan` into the PDF, which viewers cannot read.
"""
from __future__ import annotations

import math
from typing import Any

import click


class FiniteRange(click.FloatRange):
    """A FloatRange that also refuses nan and infinities."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number is not None and not math.isfinite(number):
            self.fail(f"expected a number (got {value!r})", param, ctx)
        return number
