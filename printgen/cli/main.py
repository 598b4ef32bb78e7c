"""The `printgen` command group and its entry point.

Each command lives in a module of its own (build, validate, replay, preview, serve, calibrate, export, new,
schema, listing) and is registered here; this module is the only one that imports them. Two failures are
answered here for every command, so no command reports them itself: problems in the user's files
(DefinitionError: every problem, located, exit 2) and a file that cannot be written (WriteFailed:
exit 2). Anything else is printgen's own bug: `internal error`, exit 3.
"""
from __future__ import annotations

import os
import sys
import traceback

import click

from printgen import __version__
from printgen.cli.build import build_command
from printgen.cli.calibrate import calibrate_command
from printgen.cli.common import EXIT_BAD_INPUT, report
from printgen.cli.export import export_command
from printgen.cli.listing import list_command
from printgen.cli.new import new_command
from printgen.cli.preview import preview_command
from printgen.cli.replay import replay_command
from printgen.cli.schema import schema_command
from printgen.cli.serve import serve_command
from printgen.cli.validate import validate_command
from printgen.core.atomic import WriteFailed
from printgen.core.problems import DefinitionError
from printgen.drawing.checks import start_unchecked

EXIT_BUG = 3


class Commands(click.Group):
    """printgen's command group: the user's mistakes end every command the same way."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except DefinitionError as exc:
            report(exc)
            ctx.exit(EXIT_BAD_INPUT)
        except WriteFailed as exc:  # a read-only or missing folder, a file in the way, a full disk
            click.echo(f"printgen: {exc}; no half-written file was left under its name", err=True)
            ctx.exit(EXIT_BAD_INPUT)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printgen")
def cli() -> None:
    """Build print-and-play PDFs and SVGs from YAML game definitions.

    Every PDF prints at exact physical size: print it at "Actual size" (100 %), never "Fit to page".
    """


for command in (list_command, build_command, validate_command, replay_command, preview_command,
                calibrate_command, export_command, new_command, schema_command, serve_command):
    cli.add_command(command)


def main() -> None:
    """Entry point: bad input never shows a traceback; a real bug says how to report it."""
    start_unchecked()  # this process draws only printgen's pages
    try:
        cli(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("printgen: interrupted; files already written are complete.", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("PRINTGEN_DEBUG"):
            traceback.print_exc()
        click.echo(f"printgen: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in printgen; set PRINTGEN_DEBUG=1 to see the details.", err=True)
        sys.exit(EXIT_BUG)


if __name__ == "__main__":
    main()
