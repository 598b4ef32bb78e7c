"""What every command shares: finding a game or a definition, reading an offset, reporting problems.

A command that finds problems in the user's files lists them (the first MAX_SHOWN), says how many
there are and that nothing was written, and exits with EXIT_BAD_INPUT.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import click

from printgen.core.problems import DefinitionError, Problem
from printgen.games import bundled_definition, game_ids

EXIT_BAD_INPUT = 2
MAX_BACK_OFFSET_MM = 20.0


def parse_offset(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected two numbers in mm as X,Y such as 1.5,-0.5 (got {value!r})")
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in (x, y)):
        raise click.BadParameter(f"each offset must be a number of mm between -{MAX_BACK_OFFSET_MM:g} "
                                 f"and {MAX_BACK_OFFSET_MM:g} (got {value!r})")
    return (x, y)


def resolve(target: str) -> Path:
    """A bundled game id, or the path of a definition file."""
    if target in game_ids():
        return bundled_definition(target)
    path = Path(target)
    if path.is_file():
        return path
    known = ", ".join(game_ids())
    raise click.BadParameter(f"'{target}' is neither a bundled game ({known}) nor a definition file",
                             param_hint="GAME")


def fail(problems: list[Problem] | DefinitionError) -> None:
    report = problems.report() if isinstance(problems, DefinitionError) else DefinitionError(problems).report()
    lines = report.splitlines()
    click.echo("\n".join(lines[:MAX_SHOWN]), err=True)  # a flood of one mistake helps nobody
    count = len(lines)
    more = f" (the first {MAX_SHOWN} are shown)" if count > MAX_SHOWN else ""
    click.echo(f"printgen: {count:,} problem{'s' if count != 1 else ''} found{more}; nothing was written.",
               err=True)
    sys.exit(EXIT_BAD_INPUT)


MAX_SHOWN = 100  # problems listed; the count says how many there are in all
