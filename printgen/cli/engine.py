"""The work behind `build`, `build --watch`, `preview` and `export`: build every game in memory, then
write every file at once, and the back offset a build uses.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import click

from printgen.core.atomic import write_all
from printgen.core.build import Artifact, BuildOptions
from printgen.core.config import config_path, saved_back_offset
from printgen.core.paper import Flip
from printgen.core.parallel import beside
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.progress import progress
from printgen.games import Loaded, game_entry, game_ids, load

SECONDS_PER_GAME = 0.7  # a bundled game builds in 0.6-0.9 s
SECONDS_PER_FILE = 0.002  # written to a temporary file; the disk is waited on once for all
Results = list[tuple[Loaded, list[Artifact]]]
Outcome = tuple[list[str], tuple[Loaded, list[Artifact]] | None, list[Problem]]


def say_on_stderr(warning: str) -> None:
    click.echo(warning, err=True)


def build_games(paths: list[Path], options: BuildOptions, allow_outside: bool = False,
                warn: Callable[[str], None] = say_on_stderr) -> Results:
    """Build every definition in memory; raise one DefinitionError holding every game's problems.
    Warnings go to `warn` (stderr; `serve` also shows them in its page).

    The later half of the games is built meanwhile by a forked helper on another core, if there is
    one (printgen.core.parallel); the results, warnings and problems come out in the same order as
    ever. The later half is the larger one, because this process also preloads that half's games.
    """
    cut = max(1, len(paths) // 2)
    later = paths[cut:]
    if later:
        preload(later)
    with progress(len(paths), "Building", SECONDS_PER_GAME) as bar, \
            beside(lambda: [build_one(p, options, allow_outside) for p in later], fork=bool(later)) as helper:
        outcomes = []
        for path in paths[:cut]:
            outcomes.append(build_one(path, options, allow_outside))
            bar.update(1)
        outcomes += helper.result()
        bar.update(len(later))
    problems: list[Problem] = []
    results: Results = []
    for warnings, built, found in outcomes:
        for warning in warnings:  # art that cannot print exactly as drawn, a sheet that holds fewer
            warn(warning)
        results += [built] if built else []
        problems += found
    if problems:
        raise DefinitionError(problems)
    return results


def preload(paths: list[Path]) -> None:
    """Import the bundled games these definitions seem to be (by file name) before the helper forks,
    so that it shares those imports instead of repeating them; a wrong guess only costs an import."""
    for game_id in dict.fromkeys(p.stem for p in paths):
        if game_id in game_ids():
            game_entry(game_id)


def build_one(path: Path, options: BuildOptions, allow_outside: bool) -> Outcome:
    """(warnings about art and sheets, the loaded game and its files or None, problems) for one
    definition."""
    loaded = None
    try:
        loaded = load(path, allow_outside=allow_outside)
        artifacts = loaded.build(options)
        return list(loaded.art.warnings), (loaded, artifacts), []
    except DefinitionError as exc:  # warnings found before the problems are still worth telling
        return list(loaded.art.warnings) if loaded else [], None, list(exc.problems)


def write_results(results: Results, out_dir: Path,
                  describe: Callable[[Loaded, list[Artifact]], str] | None = None) -> None:
    """Write every file atomically (one wait for the disk for all of them), then say per game where
    they went."""
    total = sum(len(artifacts) for _, artifacts in results)
    with progress(total, "Writing", SECONDS_PER_FILE) as bar:
        def files() -> Iterator[tuple[Path, bytes]]:
            for loaded, artifacts in results:
                for artifact in artifacts:
                    yield out_dir / loaded.name / artifact.name, artifact.data
                    bar.update(1)
        write_all(files())
    for loaded, artifacts in results:
        click.echo(describe(loaded, artifacts) if describe else
                   f"{loaded.game.title}: {len(artifacts)} file(s) in {out_dir / loaded.name}")


def back_offset_for(given: tuple[float, float] | None, flip: Flip) -> tuple[float, float]:
    """--back-offset if given, else the saved one for this flip (said on stderr), else none."""
    if given is not None:
        return given
    saved = saved_back_offset(flip)
    if saved is None:
        return (0.0, 0.0)
    click.echo(f"printgen: using the saved back offset {saved[0]:g},{saved[1]:g} mm for {flip}-edge "
               f"printing (from {display_name(config_path())}); --back-offset overrides it", err=True)
    return saved
