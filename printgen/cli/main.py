"""The `printgen` command group and its entry point.

COMMANDS names each command's module, imported only when that command runs, so `--help` stays quick.
Problems in the user's files and unwritable files exit 2 for every command; anything else is a bug (3).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import NamedTuple

import click

from printgen import __version__
from printgen.drawing.checks import start_unchecked

EXIT_BUG = 3


class Entry(NamedTuple):
    """Where a command is defined, and its `--help` summary (the docstring's first sentence; a test checks)."""

    module: str
    function: str
    summary: str


COMMANDS: dict[str, Entry] = {
    "build": Entry("printgen.cli.build", "build_command",
                   "Build GAME (a bundled game id or a definition .yaml); with no GAME, build them all."),
    "calibrate": Entry("printgen.cli.calibrate", "calibrate_command",
                       "Write a two-page duplex calibration sheet that shows your printer's back offset."),
    "export": Entry("printgen.cli.export", "export_command", "Export GAME's cards, tiles or tokens one by "
                    "one, for a print shop or Tabletop Simulator."),
    "list": Entry("printgen.cli.listing", "list_command", "List the bundled games, the files each one "
                  "builds, and which ones `export`, `validate` and `replay` take."),
    "new": Entry("printgen.cli.new", "new_command",
                 "Start your own version of GAME in DIR: a copy of its definition, ready to edit."),
    "preview": Entry("printgen.cli.preview", "preview_command",
                     "Write a PNG of every page of every PDF that GAME builds, and print the PNGs' paths."),
    "replay": Entry("printgen.cli.replay", "replay_command", "Replay RECORD, a recorded game of GAME (a "
                    "bundled game id or a definition .yaml), and say what happened in each round, how "
                    "the game ended and who won."),
    "schema": Entry("printgen.cli.schema", "schema_command",
                    "Write the JSON Schema of GAME's definitions (of every game's, without GAME)."),
    "serve": Entry("printgen.cli.serve", "serve_command", "Show GAME's pages and pieces in your browser, "
                   "rebuilt whenever a file they come from is saved."),
    "validate": Entry("printgen.cli.validate", "validate_command", "Check a tile set, a soldier table or "
                      "a deck (a bundled game id or a definition .yaml) and report every problem."),
}


class CommandTable(MutableMapping[str, click.Command]):
    """The group's commands by name, each module imported when its command is first looked up."""

    def __init__(self, entries: dict[str, Entry]) -> None:
        self.entries = entries
        self.imported: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.imported:
            entry = self.entries[name]
            command = getattr(import_module(entry.module), entry.function)
            assert isinstance(command, click.Command), entry
            self.imported[name] = command
        return self.imported[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __setitem__(self, name: str, command: click.Command) -> None:
        raise TypeError(f"{name}: printgen's commands are added to COMMANDS in printgen/cli/main.py")

    def __delitem__(self, name: str) -> None:
        raise TypeError(f"{name}: printgen's commands are listed in COMMANDS in printgen/cli/main.py")


class Commands(click.Group):
    """printgen's command group: lazy commands, and the user's mistakes end every command the same way."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `printgen --help`, from the table, so listing imports no command."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=COMMANDS[name].summary).get_short_help_str(limit))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        from printgen.core.atomic import WriteFailed  # here: `--help` and `--version` never invoke
        from printgen.core.problems import DefinitionError

        try:
            return super().invoke(ctx)
        except (DefinitionError, WriteFailed) as exc:
            from printgen.cli.common import EXIT_BAD_INPUT, report

            if isinstance(exc, DefinitionError):
                report(exc)
            else:  # a read-only or missing folder, a file in the way, a full disk
                click.echo(f"printgen: {exc}; no half-written file was left under its name", err=True)
            ctx.exit(EXIT_BAD_INPUT)


@click.group(cls=Commands, commands=CommandTable(COMMANDS),
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printgen")
def cli() -> None:
    """Build print-and-play PDFs and SVGs from YAML game definitions.

    Every PDF prints at exact physical size: print it at "Actual size" (100 %), never "Fit to page".
    """


def main() -> None:
    """Entry point: bad input never shows a traceback; a real bug says how to report it."""
    start_unchecked()  # this process draws only printgen's pages
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("printgen: interrupted; files already written are complete.", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("PRINTGEN_DEBUG"):
            import traceback

            traceback.print_exc()
        click.echo(f"printgen: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in printgen; set PRINTGEN_DEBUG=1 to see the details.", err=True)
        sys.exit(EXIT_BUG)


if __name__ == "__main__":
    main()
