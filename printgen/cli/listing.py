"""`printgen list`: the bundled games, what each builds, and which commands take them (by capability)."""
from __future__ import annotations

import click

from printgen.games import registry


@click.command("list")
def list_command() -> None:
    """List the bundled games, the files each one builds, and which ones `export`, `validate` and
    `replay` take."""
    for game in registry().values():
        click.echo(f"{game.id}  ({game.title})")
        for item in game.makes:
            click.echo(f"    {item}")
        if game.pieces is not None:
            click.echo(f"    printgen export {game.id} --print-shop | --tts: its pieces one by one")
        if game.validator is not None:
            checks = ("every card drawn as a build draws it, every problem and warning told, nothing written"
                      if game.cards else "checks that a version of it can be played and is fair")
            click.echo(f"    printgen validate {game.id}: {checks}")
        if game.replayer is not None:
            click.echo(f"    printgen replay {game.id} RECORD: replays a recorded game round by round")
