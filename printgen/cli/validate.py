"""`printgen validate`: check that a set (an Omiga tile set, a One Minute War soldier table) plays,
for every game with a validator."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from printgen.cli import options
from printgen.cli.common import EXIT_INVALID, game_of, resolve
from printgen.core.atomic import write_bytes
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.validation import shorten
from printgen.core.yamlread import read_yaml
from printgen.games import Game, output_name, registry

PROGRESS_FROM = 2000  # games; shorter runs finish before a bar would help


@click.command("validate")
@click.argument("target", metavar="PATH")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=None,
              help="Games to simulate (default: validation.games in the definition).")
@click.option("--seed", type=click.IntRange(0, 2**31), default=None,
              help="Seed for the simulation (default: validation.seed); same seed, same numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON for machines.")
@click.option("--show", is_flag=True, help="Also write an SVG and a PNG of one simulated end position.")
@click.option("--thorough", is_flag=True,
              help="Also search every set-up and first move one by one (small sets), as a cross-check.")
@options.out("Folder for --show; the pictures go in OUT/<name>/.")
@options.allow_outside
def validate_command(target: str, games: int | None, seed: int | None, as_json: bool, show: bool,
                     thorough: bool, out_dir: Path, allow_outside: bool) -> None:
    """Check a tile set or a soldier table (a bundled game id or a definition .yaml) and report
    every problem.

    Exit status: 0 valid, 1 the set has problems, 2 the definition cannot be read.
    """
    path = resolve(target)
    able = [g for g in registry().values() if g.validator is not None]
    game = game_of(path)
    try:
        if game is None:
            raise unknown_game(path, able)
        if game.validator is None:
            raise DefinitionError([Problem(display_name(path), 1, "game", f"validate checks the "
                                           f"sets of {', '.join(g.id for g in able)}; this is a "
                                           f"{game.title} definition")])
        tv = game.validator()  # imported only now: only this command needs the simulation
        defn, source = tv.read(path, allow_outside)
    except DefinitionError as exc:
        if as_json:
            click.echo(json.dumps({"file": str(path), "readable": False, "valid": False, "problems": [
                {"file": p.file, "line": p.line, "path": p.path, "message": p.message} for p in exc.problems]},
                indent=2))
        raise
    extra: dict[str, Any] = {}
    if thorough:  # a validator that offers an exhaustive search says so (THOROUGH = True)
        if not getattr(tv, "THOROUGH", False):
            raise click.UsageError(f"--thorough: {game.title}'s validator has no exhaustive search")
        extra["thorough"] = True
    total = tv.simulated_games(defn, games)
    if total >= PROGRESS_FROM:
        with click.progressbar(length=total, label="Simulating games", file=sys.stderr) as bar:
            verdict = tv.check_set(defn, source, games, seed, bar.update, **extra)
    else:
        verdict = tv.check_set(defn, source, games, seed, **extra)
    click.echo(verdict.as_json() if as_json else verdict.as_text())
    if show:
        from printgen.output.writers import write  # reportlab's canvas, only when a board is drawn

        documents = tv.show_documents(verdict, seed)
        for doc in documents:
            write_bytes(out_dir / output_name(path) / doc.name, write(doc))
            click.echo(f"wrote {out_dir / output_name(path) / doc.name}", err=True)
        if not documents:
            click.echo("--show: no board drawn; fix the structure problems first", err=True)
    sys.exit(0 if verdict.valid else EXIT_INVALID)


def unknown_game(path: Path, able: list[Game]) -> DefinitionError:
    """A file that names no game validate knows: its YAML's own problems, or where `game` goes."""
    data, source = read_yaml(path)
    got = data.get("game") if isinstance(data, dict) else None
    return DefinitionError([source.problem(("game",), f"validate checks the sets of "
                                           f"{', '.join(g.id for g in able)}; expected one of them "
                                           f"(got {'nothing' if got is None else shorten(got)})")])
