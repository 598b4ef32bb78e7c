"""`printgen replay`: play a recorded game through the game's rules, round by round."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from printgen.cli.common import EXIT_INVALID, game_of, resolve
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.games import registry


@click.command("replay")
@click.argument("target", metavar="GAME")
@click.argument("record", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the rounds and the result as JSON.")
def replay_command(target: str, record: Path, as_json: bool) -> None:
    """Replay RECORD, a recorded game of GAME (a bundled game id or a definition .yaml), and say
    what happened in each round, how the game ended and who won.

    RECORD holds one round a line, the first side's move then the second side's; `#` starts a
    comment and `end` means both players agreed to stop. A move is a soldier's number (4), a fist
    with the soldier folded down (0:3), or a reviver with the soldier he brings back (1+5).

    Exit status: 0 the record plays, 1 a move the rules forbid (named with its line and round),
    2 the definition or the record cannot be read.
    """
    path = resolve(target)
    game = game_of(path)  # imports that game alone; the others only to say which can be replayed
    if game is None or game.replayer is None:
        able = [g for g in registry().values() if g.replayer is not None]
        what = f"this is a definition of {game.title}" if game else "this file names none of them"
        raise DefinitionError([Problem(display_name(path), 1, "game", f"replay plays the games of "
                                       f"{', '.join(g.id for g in able)}, and {what}")])
    replayer = game.replayer()  # imported only now: only this command needs the engine
    defn, _ = replayer.read(path)
    report = replayer.replay(defn, record)
    click.echo(report.as_json() if as_json else report.as_text())
    if report.forbidden is not None:
        click.echo(f"{report.forbidden}", err=True)
        sys.exit(EXIT_INVALID)
