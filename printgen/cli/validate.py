"""`printgen validate`: check that a set plays, or that a deck builds, for every game with a validator."""
from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from printgen.cli import options
from printgen.cli.common import EXIT_INVALID, game_of, resolve
from printgen.cli.engine import BUILD_BUDGET
from printgen.cli.report import handed
from printgen.core.atomic import write_all
from printgen.core.bounded import BadReport, BudgetExceeded, problems_of, run_bounded
from printgen.core.build import Artifact
from printgen.core.staging import checked_file, place, private_folder, remove
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.progress import progress
from printgen.core.validation import shorten
from printgen.core.yamlread import read_yaml
from printgen.games import Game, output_name, registry

PROGRESS_FROM = 2000  # games; shorter runs finish before a bar would help
VALIDATE_BUDGET = replace(BUILD_BUDGET, what="the validation")


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
    """Check a tile set, a soldier table or a deck (a bundled game id or a definition .yaml) and
    report every problem.

    Exit status: 0 valid, 1 the set has problems (for a deck: problems a build would refuse), 2 the
    definition cannot be read. A deck is built in memory, as `printgen build --no-pictures` builds
    it, and nothing is written.

    The whole check runs in one bounded worker (printgen.core.bounded), as a build does.
    """
    path = resolve(target)
    folder = private_folder("printgen-validate-", out_dir if show else None)
    try:
        try:
            answer = run_bounded(lambda: validated(path, games, seed, as_json, show, thorough, allow_outside,
                                                   folder), VALIDATE_BUDGET)
        except BudgetExceeded as exc:
            raise DefinitionError([Problem(display_name(path), 1, "", str(exc))]) from None
        output, problems, usage, valid, files = checked(answer, folder)
        if usage:
            raise click.UsageError(usage)
        if output:
            click.echo(output)
        if problems:
            raise DefinitionError(problems)
        for name, size in files.items():
            write_all([(out_dir / output_name(path) / name, Path(checked_file(folder, name, size)))], inside=out_dir)
            click.echo(f"wrote {out_dir / output_name(path) / name}", err=True)
        if show and not files:
            click.echo("--show: no board drawn; fix the structure problems first", err=True)
    finally:
        remove(folder)
    sys.exit(0 if valid else EXIT_INVALID)


def checked(answer: Any, folder: str) -> tuple[str, list[Problem], str, bool, dict[str, int]]:
    """The worker's answer (`validated`), once each part has its kind and each file is checked in
    `folder`; BadReport otherwise."""
    files = handed(answer.get("files") if isinstance(answer, dict) else None, folder, "validate")
    if not (isinstance(answer, dict) and set(answer) == {"output", "problems", "usage", "valid", "files"}
            and isinstance(answer["output"], str) and isinstance(answer["usage"], str)
            and isinstance(answer["valid"], bool) and not any("/" in name for name in files)):
        raise BadReport("validate: the worker's answer is not one validate sends")
    return answer["output"], problems_of(answer["problems"], "validate"), answer["usage"], answer["valid"], files


def validated(path: Path, games: int | None, seed: int | None, as_json: bool, show: bool, thorough: bool,
              allow_outside: bool, folder: str) -> dict[str, Any]:
    """In the worker: read, check and simulate the set, drawing --show's boards into `folder`; the
    answer as plain data."""
    answer: dict[str, Any] = {"output": "", "problems": [], "usage": "", "valid": False, "files": []}
    game = game_of(path)  # which imports that game's code alone
    try:
        if game is None:
            raise unknown_game(path, validatable())
        if game.validator is None:
            raise DefinitionError([Problem(display_name(path), 1, "game", f"validate checks the "
                                           f"sets of {', '.join(g.id for g in validatable())}; this is a "
                                           f"{game.title} definition")])
        tv = game.validator()  # imported only now
        defn, source = tv.read(path, allow_outside)
    except DefinitionError as exc:
        if as_json:
            answer["output"] = json.dumps({"file": str(path), "readable": False, "valid": False, "problems": [
                {"file": p.file, "line": p.line, "path": p.path, "message": p.message} for p in exc.problems]},
                indent=2)
        answer["problems"] = [p.as_list() for p in exc.problems]
        return answer
    extra: dict[str, Any] = {}
    if show and not getattr(tv, "SHOWS", True):
        answer["usage"] = f"--show: a {game.title.lower()} has no board to show; `printgen build` draws its cards"
        return answer
    if thorough:
        if not getattr(tv, "THOROUGH", False):
            answer["usage"] = f"--thorough: {game.title}'s validator has no exhaustive search"
            return answer
        extra["thorough"] = True
    with progress(tv.simulated_games(defn, games), "Simulating games", 1 / PROGRESS_FROM) as bar:
        verdict = tv.check_set(defn, source, games, seed, bar.update, **extra)
    answer["output"] = verdict.as_json() if as_json else verdict.as_text()
    answer["valid"] = bool(verdict.valid)
    if show:
        from printgen.output.writers import write

        answer["files"] = place([Artifact(doc.name, write(doc)) for doc in tv.show_documents(verdict, seed)],
                                folder)
    return answer


def validatable() -> list[Game]:
    """The games validate checks, for a message about a file it cannot check (importing every game)."""
    return [g for g in registry().values() if g.validator is not None]


def unknown_game(path: Path, able: list[Game]) -> DefinitionError:
    """A file that names no game validate knows: its YAML's own problems, or where `game` goes."""
    data, source = read_yaml(path)
    got = data.get("game") if isinstance(data, dict) else None
    return DefinitionError([source.problem(("game",), f"validate checks the sets of "
                                           f"{', '.join(g.id for g in able)}; expected one of them "
                                           f"(got {'nothing' if got is None else shorten(got)})")])
