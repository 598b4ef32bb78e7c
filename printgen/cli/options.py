"""The options several commands share, each declared once so the commands cannot drift apart."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from printgen.core.paper import MAX_BLEED_MM, PAPERS

MAX_BACK_OFFSET_MM = 20.0
F = TypeVar("F", bound=Callable[..., Any])


class FiniteRange(click.FloatRange):
    """A FloatRange that also refuses nan (which passes every bound) and infinities."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number is not None and not math.isfinite(number):
            self.fail(f"expected a number (got {value!r})", param, ctx)
        return number


def parse_offset(ctx: click.Context | None, param: click.Parameter | None,
                 value: str | None) -> tuple[float, float] | None:
    """'1.5,-0.5' -> (1.5, -0.5): two finite numbers of mm, each within MAX_BACK_OFFSET_MM."""
    if value is None:
        return None
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected two numbers in mm as X,Y such as 1.5,-0.5 (got {value!r})")
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in (x, y)):
        raise click.BadParameter(f"each offset must be a number of mm between -{MAX_BACK_OFFSET_MM:g} "
                                 f"and {MAX_BACK_OFFSET_MM:g} (got {value!r})")
    return (x, y)


games = click.argument("games", nargs=-1, metavar="[GAME ...]")
paper = click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="a4",
                     show_default=True, help="Paper size to print on.")
flip = click.option("--flip", type=click.Choice(["long", "short"], case_sensitive=False), default="long",
                    show_default=True,
                    help="Which edge your printer turns the sheet over for two-sided printing.")
back_offset = click.option(
    "--back-offset", "back_offset", default=None, callback=parse_offset, metavar="X,Y",
    help="Shift the back side by X,Y mm (x right, y up, as the back page is viewed) to cancel your "
         "printer's two-sided misregistration. Default: the offset saved by `printgen calibrate "
         "--save`, else 0,0.")
templates = click.option("--templates", "template_dirs", multiple=True,
                         type=click.Path(exists=True, file_okay=False, path_type=Path),
                         help="A folder of your own templates, searched before the bundled ones "
                              "(repeatable).")
allow_outside = click.option("--allow-outside", is_flag=True,
                             help="Let a definition use art, fonts and templates from outside its own "
                                  "folder.")


def out(what: str) -> Callable[[F], F]:
    """--out, default `output`; `what` says what goes where."""
    return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
                        default=Path("output"), show_default=True, help=what)


def bleed(default: float | None, what: str) -> Callable[[F], F]:
    """--bleed MM, from 0 to MAX_BLEED_MM; `what` says what it runs past."""
    return click.option("--bleed", type=FiniteRange(0, MAX_BLEED_MM), default=default,
                        show_default=default is not None, metavar="MM", help=what)
