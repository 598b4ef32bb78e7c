"""What every command shares: finding a game or a definition, and reporting problems.

Commands raise DefinitionError and the group (printgen.cli.main) reports it, so none prints problems.
"""
from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

import click

from printgen.core.bundled import bundled_definition, game_ids
from printgen.core.problems import DefinitionError, display_name, shown

if TYPE_CHECKING:  # imported when used, in a worker
    from printgen.games import Game

EXIT_INVALID = 1  # `validate`: the file reads, but the set it defines has problems
EXIT_BAD_INPUT = 2
MAX_SHOWN = 100  # problems listed; the count says how many there are in all


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


def paths_for(games: tuple[str, ...]) -> list[Path]:
    """The definitions GAME ... name; every bundled game's when none is named."""
    return [resolve(g) for g in games] or [bundled_definition(g) for g in game_ids()]


def game_of(path: Path) -> Game | None:
    """The game a definition names, or None if it cannot tell (the build will say why)."""
    from printgen.core.yamlread import read_yaml
    from printgen.games import game_entry

    try:
        data, _ = read_yaml(path)
    except DefinitionError:
        return None
    game_id = data.get("game") if isinstance(data, dict) else None
    return game_entry(game_id) if isinstance(game_id, str) and game_id in game_ids() else None


def report(error: DefinitionError, then: str = "") -> None:
    """The first MAX_SHOWN problems on stderr (a flood of one mistake helps nobody), their count, and `then`."""
    lines = error.report().splitlines()
    click.echo("\n".join(lines[:MAX_SHOWN]), err=True)
    count = len(lines)
    more = f" (the first {MAX_SHOWN} are shown)" if count > MAX_SHOWN else ""
    click.echo(f"printgen: {count:,} problem{'s' if count != 1 else ''} found{more}; nothing was written.{then}",
               err=True)


def check_targets(paths: list[Path], paper: str, name: str | None, out_dir: Path | None) -> None:
    """Usage errors found before any worker starts: a paper a game is not laid out for, --name for
    several games, and two definitions that would write one folder of `out_dir` (the second over the first)."""
    from printgen.core.paper import PAPERS
    from printgen.core.build import output_name
    from printgen.core.names import unwritable

    if paper.lower() not in PAPERS:
        for path in paths:
            game = game_of(path)
            if game is not None and paper.lower() not in game.papers:
                raise click.UsageError(f"--paper {paper}: {game.title} is laid out for "
                                       f"{' and '.join(game.papers)} only")
    if name is not None and len(paths) > 1:
        raise click.UsageError(f"--name {name}: names the output of one GAME, but {len(paths)} are built; "
                               "build them one at a time")
    if name is None:
        for path in paths:
            wrong = unwritable(output_name(path))
            if wrong is not None:
                raise click.UsageError(f"{shown(display_name(path))}: the output folder and its files are named "
                                       f"after this file, but {wrong}; rename the file, or give --name NAME")
    if name is None and out_dir is not None:
        seen: dict[str, Path] = {}
        for path in paths:
            stem = output_name(path)
            if stem in seen:
                raise click.UsageError(f"{display_name(seen[stem])} and {display_name(path)} would both be "
                                       f"written to {out_dir / stem}; build them one at a time, each with "
                                       "its own --name")
            seen[stem] = path


# what every build's worker imports as it draws and writes, besides the games' own code
SHARED_CODE = ("printgen.output.writers", "printgen.output.pdf", "printgen.output.svg", "printgen.output.png",
               "printgen.output.cellpages", "pypdfium2", "PIL.PngImagePlugin", "svgwrite", "printgen.art.svg",
               "printgen.art.svgbatch", "svglib.svglib", "printgen.layout.paging", "printgen.layout.icons")


def load_build_code() -> None:
    """Import once, in this process, the code every build's forked worker would otherwise import
    afresh (about a quarter of a CPU-second a build): before several games' builds, before a watch's
    rebuilds, and in the test suite. A build of one game leaves it all to its worker."""
    from printgen.games import registry

    for module in SHARED_CODE:
        import_module(module)
    registry()  # and every game's code
