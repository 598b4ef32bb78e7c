"""The options several commands share, each declared once so the commands cannot drift apart."""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from printgen.core.paper import MAX_BLEED_MM, SHEET_PAPERS

MAX_BACK_OFFSET_MM = 20.0
MOST_ROWS = 20_000  # a deck's most rows (printgen.games.deck.rows.MAX_ROWS), so --rows 1-99999999 is refused here
ROWS_SPEC = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,59}")  # the whole name (fullmatch): no newline after it
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


def typed(name: str) -> bool:
    """Whether the option `name` was typed on the command line (not left to its default)."""
    return click.get_current_context().get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE


def parse_rows(ctx: click.Context | None, param: click.Parameter | None,
               value: str | None) -> tuple[int, ...] | None:
    """'1,3,10-12' -> (1, 3, 10, 11, 12): 1-based data rows, each once, in order."""
    if value is None:
        return None
    chosen: set[int] = set()
    for part in value.split(","):
        found = ROWS_SPEC.match(part)
        if not found:
            raise click.BadParameter(f"expected row numbers and ranges such as 5-8 or 1,3,10-12 (got {value!r})")
        first, last = int(found[1]), int(found[2] or found[1])
        if first < 1 or last < first:
            raise click.BadParameter(f"expected rows from 1 and ranges from low to high such as 5-8 "
                                     f"(got {part.strip()!r})")
        if last > MOST_ROWS:
            raise click.BadParameter(f"a deck has at most {MOST_ROWS:,} rows (got {part.strip()!r})")
        chosen.update(range(first, last + 1))
    return tuple(sorted(chosen))


MAX_WHERE = 400  # characters, as an element's `when:`


def parse_where(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """A condition over a row, as an element's `when:` takes it ('type == "hero"'), read by the
    deck's own template sandbox now, so a mistyped one stops the command before any work."""
    if value is None:
        return None
    from jinja2 import TemplateSyntaxError

    from printgen.core.textcheck import problem_with
    from printgen.games.deck.values import condition
    from printgen.jinja.sandbox import BoundedSandbox

    example = "such as 'type == \"hero\"' or 'cost > 2 and type != \"spell\"'"
    if not value.strip() or len(value) > MAX_WHERE:
        raise click.BadParameter(f"expected a condition over a row's columns of 1 to {MAX_WHERE} characters, "
                                 f"{example} (got {len(value)} characters)")
    unprintable = problem_with(value)
    if unprintable:
        raise click.BadParameter(f"{value!r}: {unprintable}")
    try:
        BoundedSandbox().parse(condition(value))
    except TemplateSyntaxError as exc:
        raise click.BadParameter(f"{value!r} is not a condition printgen can read ({exc.message}); expected "
                                 f"a condition over a row's columns, as an element's `when:` takes, {example}")
    return value


def parse_name(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """A folder and file stem: letters, digits, '.', '_' and '-', so it names one folder inside --out."""
    if value is not None and (not NAME.fullmatch(value) or value.endswith(".")):
        raise click.BadParameter(f"expected a name of letters, digits, '.', '_' and '-', starting with a "
                                 f"letter or digit, at most 60 characters, such as potions-v2 (got {value!r})")
    return value


games = click.argument("games", nargs=-1, metavar="[GAME ...]")
paper = click.option("--paper", type=click.Choice(list(SHEET_PAPERS), case_sensitive=False), default="a4",
                     show_default=True, help="Paper size to print on; typed to build or preview, it overrides "
                                             "the paper a deck names. A3 and tabloid suit decks; the other "
                                             "games are laid out for A4 and letter only.")
layout = click.option("--layout", type=click.Choice(["duplex", "gutterfold", "fronts"], case_sensitive=False),
                      default=None, help="A deck's sheets: duplex (backs on the reverse), gutterfold (each "
                                         "back beside its front, to fold) or fronts (faces only); overrides "
                                         "the deck's sheet.layout. Other games warn that it does not apply.")
rows = click.option("--rows", default=None, callback=parse_rows, metavar="ROWS",
                    help="Build only these data rows of a deck, counted from 1 below the header: 5-8 or "
                         "1,3,10-12. Each page's caption says which rows it holds.")
where = click.option("--where", default=None, callback=parse_where, metavar="CONDITION",
                     help="Build only a deck's rows for which CONDITION holds, written as an element's "
                          "`when:`: 'type == \"hero\"' or 'cost > 2'. With --rows, only those rows of "
                          "the ones named. Each page's caption says which rows it holds.")
guides = click.option("--guides", is_flag=True,
                      help="Draw each card's trim (magenta), safe area (cyan, dashed) and bleed (orange) "
                           "as thin lines over the art, for checking a layout; never for the final print.")
name = click.option("--name", default=None, callback=parse_name, metavar="NAME",
                    help="Name the output folder and files NAME (OUT/NAME/NAME.pdf) instead of after the "
                         "definition file; one GAME only.")
booklet = click.option("--booklet", is_flag=True,
                       help="Also write GAME-booklet.pdf: the rulebook on A5 pages (half-Letter on letter), "
                            "two to a sheet in booklet order, to print on both sides, fold and staple.")
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
