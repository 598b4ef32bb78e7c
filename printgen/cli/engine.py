"""The work behind `build`, `build --watch`, `preview` and `export`: build every game in memory, then
write every file at once, and the back offset a build uses.
"""
from __future__ import annotations

import os
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, TypeVar

import click

from printgen.core.atomic import write_all
from printgen.core.build import Artifact, BuildOptions
from printgen.core.bundled import game_ids
from printgen.core.config import config_path, saved_back_offset
from printgen.core.paper import Flip
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.progress import progress

if TYPE_CHECKING:  # the registry (pydantic, the YAML reader) is imported only when a game is loaded:
    # a build the cache answers, which is given its files without loading anything, never needs it
    from printgen.cli.resultcache import Found
    from printgen.core.buildcache import Entry
    from printgen.games import Loaded

SECONDS_PER_GAME = 0.7  # a bundled game builds in 0.6-0.9 s
SECONDS_PER_FILE = 0.002  # written to a temporary file; the disk is waited on once for all
Results = list[tuple["Loaded", list[Artifact]]]


class Titled(Protocol):
    @property
    def title(self) -> str: ...


class Built(Protocol):
    """A built game as the line saying where its files went needs it: a loaded game, or one whose
    files came from the build cache (printgen.cli.resultcache.Replayed)."""

    @property
    def name(self) -> str: ...
    @property
    def game(self) -> Titled: ...
    @property
    def title(self) -> str: ...


Made = tuple[Built, list[Artifact]]
Outcome = tuple[list[str], Made | None, list[Problem], "tuple[str, Entry, Any] | None"]
B = TypeVar("B", bound=Built)


def say_on_stderr(warning: str) -> None:
    click.echo(warning, err=True)


def build_games(paths: list[Path], options: BuildOptions, allow_outside: bool = False,
                warn: Callable[[str], None] = say_on_stderr) -> Results:
    """Build every definition in memory; raise one DefinitionError holding every game's problems.
    Warnings go to `warn` (stderr; `serve` also shows them in its page). A game kept by the
    build cache (printgen.cli.resultcache) is loaded again but not drawn."""
    from printgen.games import Loaded

    results = []
    for loaded, artifacts in build_any(paths, options, allow_outside, warn, whole=True):
        if not isinstance(loaded, Loaded):
            raise TypeError("a whole build gave a game that was not loaded")
        results.append((loaded, artifacts))
    return results


def build_files(paths: list[Path], options: BuildOptions, allow_outside: bool = False) -> list[Made]:
    """`build_games` for a caller that only writes the files: a game kept by the build cache is
    neither loaded nor drawn, only its files and warnings given again."""
    return build_any(paths, options, allow_outside, say_on_stderr, whole=False)


def build_any(paths: list[Path], options: BuildOptions, allow_outside: bool, warn: Callable[[str], None],
              whole: bool) -> list[Made]:
    """The games kept by the build cache first, then the others: the later half of those is built
    meanwhile by a forked helper on another core, if there is one (printgen.core.parallel); the
    results, warnings and problems come out in the same order as ever. The later half is the
    larger one, because this process also preloads that half's games.
    """
    from printgen.cli.resultcache import look_up_all

    kept = [replay(path, looked_up, allow_outside, whole)
            for path, looked_up in zip(paths, look_up_all(paths, options, allow_outside))]
    building = [path for path, found in zip(paths, kept) if found is None]
    fresh = iter(build_all(building, options, allow_outside))
    problems: list[Problem] = []
    results: list[Made] = []
    for path, found in zip(paths, kept):
        warnings, made, trouble, cached = found if found is not None else next(fresh)
        for warning in warnings:  # art that cannot print exactly as drawn, a sheet that holds fewer
            warn(warning)
        if made and cached is not None:
            remember(cached, made)
            if found is None:  # built now (here or by the helper): on disk once edits pause
                store_later(path, cached, made)
        results += [made] if made else []
        problems += trouble
    if problems:
        raise DefinitionError(problems)
    return results


def build_all(paths: list[Path], options: BuildOptions, allow_outside: bool) -> list[Outcome]:
    """Build each definition (none when the cache had them all: then nothing more is imported)."""
    if not paths:
        return []
    from printgen.core.parallel import beside

    cut = max(1, len(paths) // 2)
    later = paths[cut:]
    if later:
        preload(later)
    with progress(len(paths), "Building", SECONDS_PER_GAME) as bar, \
            beside(lambda: [build_one(p, options, allow_outside) for p in later], fork=bool(later)) as helper:
        built = []
        for path in paths[:cut]:
            built.append(build_one(path, options, allow_outside))
            bar.update(1)
        built += helper.result()
        bar.update(len(later))
    return built


def replay(path: Path, found: Found | None, allow_outside: bool, whole: bool) -> Outcome | None:
    """The outcome of an earlier build of the same input, if the cache found one that still holds;
    `whole`: with the game loaded (not drawn), for callers that need more than the files."""
    from printgen.cli.resultcache import replayed

    if found is None:
        return None
    key, entry, artifacts, loaded = found
    if loaded is None and whole:
        from printgen.games import load

        try:
            loaded = load(path, allow_outside=allow_outside)
        except DefinitionError:  # it built before, so this is not expected; build it to say why
            return None
    made: Made = (loaded if loaded is not None else replayed(entry), artifacts)
    return list(entry.warnings), made, [], (key, entry, loaded)


def store_later(path: Path, kept: tuple[str, Entry, Any], made: Made) -> None:
    """In a process that rebuilds, a build made now waits here to be stored on disk once edits
    pause (core.buildcache.Later), wherever it was made: a helper's own queue would end with it."""
    from printgen.core import buildcache

    if buildcache.MEMORY.on:
        buildcache.LATER.add(kept[0], kept[1], made[1], os.path.abspath(path))


def remember(kept: tuple[str, Entry, Any], made: Made) -> None:
    from printgen.cli.resultcache import Replayed, remember as keep

    key, entry, loaded = kept  # a game given again by the cache (Replayed) was not loaded
    keep(key, entry, made[1], loaded if loaded is not None else None if isinstance(made[0], Replayed) else made[0])


def preload(paths: list[Path]) -> None:
    """Import the bundled games these definitions seem to be (by file name) before the helper forks,
    so that it shares those imports instead of repeating them; a wrong guess only costs an import."""
    from printgen.games import game_entry

    for game_id in dict.fromkeys(p.stem for p in paths):
        if game_id in game_ids():
            game_entry(game_id)


def build_one(path: Path, options: BuildOptions, allow_outside: bool) -> Outcome:
    """(warnings about art and sheets, the loaded game and its files or None, problems, what the
    build cache kept of it or None) for one definition. A build that succeeds is kept
    (printgen.cli.resultcache), by whichever process ran it."""
    from printgen.cli.resultcache import Recording
    from printgen.games import load

    loaded = None
    recording = Recording.start(path, options, allow_outside)
    try:
        with recording or nullcontext():
            loaded = load(path, allow_outside=allow_outside)
            artifacts = loaded.build(options)
        warnings = list(loaded.art.warnings)
        entry = recording.finish(loaded, artifacts, warnings) if recording else None
        kept = (recording.key, entry, None) if recording and entry else None
        return warnings, (loaded, artifacts), [], kept
    except DefinitionError as exc:  # warnings found before the problems are still worth telling
        return list(loaded.art.warnings) if loaded else [], None, list(exc.problems), None


def write_results(results: list[tuple[B, list[Artifact]]], out_dir: Path,
                  describe: Callable[[B, list[Artifact]], str] | None = None) -> None:
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
                   f"{loaded.title}: {len(artifacts)} file(s) in {out_dir / loaded.name}")


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
