"""The work behind `build`, `preview`, `export` and `serve`: each definition built in a bounded
worker of its own (printgen.core.bounded), which leaves its finished files in a private staging
folder next to the output and sends one JSON report (printgen.cli.report); this process never
loads a definition, checks each file, and renames it into place: a huge deck is never held in this
process's memory, and its bytes are written once.
"""
from __future__ import annotations

from contextlib import ExitStack, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

from printgen.cli.common import load_build_code
from printgen.cli.report import Built, checked, safe_name, scratch_in
from printgen.core.atomic import write_all
from printgen.core.bounded import MiB, Budget, BudgetExceeded, run_bounded
from printgen.core.build import Artifact, BuildOptions
from printgen.core.config import config_path, saved_back_offset
from printgen.core.paper import Flip
from printgen.core.plain import plain
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.progress import progress
from printgen.core.staging import place, private_folder, remove

if TYPE_CHECKING:  # loaded only in the worker
    from printgen.cli.watch import Reads
    from printgen.games import Loaded

# room to spare for the largest deck printgen takes (docs/decks.md)
BUILD_BUDGET = Budget(seconds=600.0, memory=2048 * MiB, what="the build")
SECONDS_PER_GAME = 0.7  # a bundled game builds in 0.6-0.9 s
SECONDS_PER_FILE = 0.002

Work = Callable[["Loaded", BuildOptions], "tuple[list[Artifact], Any]"]


def say_on_stderr(warning: str) -> None:
    click.echo(warning, err=True)


def whole_build(loaded: Loaded, options: BuildOptions) -> tuple[list[Artifact], Any]:
    """The `Work` of `build`: every file the game makes, nothing more to say."""
    return loaded.build(options), None


class Builds(list[Built]):
    """Every definition's build; used as a context manager, which removes the staging folders."""

    def __enter__(self) -> "Builds":
        return self

    def __exit__(self, *exc: object) -> None:
        for built in self:
            remove(built.folder)

    def settle(self, warn: Callable[[str], None] = say_on_stderr) -> "Builds":
        """Say every warning, then raise one DefinitionError with every definition's problems (the
        staging folders removed then); these builds if there are none."""
        with ExitStack() as on_failure:
            on_failure.enter_context(self)
            for built in self:
                for warning in built.warnings:  # art that cannot print exactly as drawn, a sheet that holds fewer
                    warn(warning)
            problems = [problem for built in self for problem in built.problems]
            if problems:
                raise DefinitionError(problems)
            on_failure.pop_all()  # the caller's `with` removes them once written
        return self

    @property
    def watched(self) -> set[Path]:
        return {path for built in self for path in built.watch}


def build_all(paths: list[Path], options: BuildOptions, allow_outside: bool = False,
              work: Work = whole_build, watching: Reads | None = None, near: Path | None = None) -> Builds:
    """Build each definition in a worker of its own; `Builds.settle` raises the problems.
    `watching`: each worker also lists the files its build opened, as `watching` heard them. `near`:
    the output folder, beside which the files wait (in the temporary folder without it)."""
    if len(paths) > 1:
        load_build_code()  # here once, not in each game's worker
    with ExitStack() as on_failure:
        builds = on_failure.enter_context(Builds())
        with progress(len(paths), "Building", SECONDS_PER_GAME) as bar:
            for path in paths:
                builds.append(build_one(path, options, allow_outside, work, watching, near))
                bar.update(1)
        on_failure.pop_all()  # the caller's `with` removes them
    return builds


def build_games(paths: list[Path], options: BuildOptions, allow_outside: bool = False,
                work: Work = whole_build, warn: Callable[[str], None] = say_on_stderr,
                near: Path | None = None) -> Builds:
    """`build_all`, its warnings said and its problems raised (the staging folders removed then)."""
    return build_all(paths, options, allow_outside, work, near=near).settle(warn)


def build_one(path: Path, options: BuildOptions, allow_outside: bool, work: Work = whole_build,
              watching: Reads | None = None, near: Path | None = None) -> Built:
    """One definition built by a worker under BUILD_BUDGET; a broken budget is a problem at line 1."""
    folder = private_folder("printgen-build-", near)
    with ExitStack() as on_failure:
        on_failure.callback(remove, folder)
        try:
            report = run_bounded(lambda: in_worker(path, options, allow_outside, work, folder, watching),
                                 BUILD_BUDGET)
            built = checked(report, path, folder)
        except (BudgetExceeded, DefinitionError) as exc:  # the latter raised outside the job's own catch
            problems = list(exc.problems) if isinstance(exc, DefinitionError) else [
                Problem(display_name(path), 1, "", str(exc))]
            built = Built(path, "", "", {}, [], problems, [path.resolve()], None, folder)
        on_failure.pop_all()  # the `Builds` it joins removes the folder
    return built


def in_worker(path: Path, options: BuildOptions, allow_outside: bool, work: Work, folder: str,
              watching: Reads | None) -> dict[str, Any]:
    """In the worker: load, build, leave the files in `folder`; the report as plain data. Drawn
    with reportlab's shape checks off, as the `printgen` command draws, whatever the process that
    asked did (a program using printgen, or the tests): svglib's art comes out in other bytes with
    them on."""
    from printgen.drawing.checks import unchecked_shapes
    from printgen.games import load

    options = replace(options, scratch=scratch_in(folder))
    loaded = None
    report: dict[str, Any] = {"name": "", "title": "", "files": [], "warnings": [], "problems": [],
                              "watch": [], "extra": None}
    opened: set[str] = set()  # the files the build opens, if watching
    try:
        with unchecked_shapes(), watching.recording(opened) if watching else nullcontext():
            loaded = load(path, allow_outside=allow_outside)
            if options.name is not None:
                loaded = replace(loaded, name=options.name)
            report["name"], report["title"] = loaded.name, loaded.title
            report["warnings"] += not_applied(loaded, options)
            artifacts, extra = work(loaded, options)
            report["extra"] = plain(extra)  # JSON data whether or not the work ran in a worker
        wrong = next((artifact.name for artifact in artifacts if not safe_name(artifact.name)), None)
        if wrong is not None:
            raise ValueError(f"a file name printgen made is not a plain relative name: {wrong!r}")
        report["files"] = place(artifacts, folder)
    except DefinitionError as exc:  # warnings found before the problems are still worth telling
        report["problems"] = [p.as_list() for p in exc.problems]
    if loaded is not None:
        report["warnings"] += list(loaded.art.warnings)
    report["watch"] = sorted({*opened, str(path.resolve())} if watching else ())
    return report


def not_applied(loaded: Loaded, options: BuildOptions) -> list[str]:
    """A warning for each option asked for that this game has nothing to apply to."""
    warnings = []
    if options.bleed is not None and not loaded.game.bleed:
        warnings.append(f"printgen: --bleed: {loaded.title} has no imposed pieces; its files have no bleed")
    if options.booklet and "booklet" not in loaded.game.model.model_fields:
        warnings.append(f"printgen: --booklet: {loaded.title} has no rulebook of several pages to fold into a "
                        "booklet; --booklet was left out")
    if not loaded.game.cards:
        given = [flag for flag, on in (("--layout", options.layout), ("--rows", options.rows),
                                       ("--where", options.where), ("--guides", options.guides)) if on]
        warnings += [f"printgen: {flag}: {loaded.title} has no sheets of cards from rows of data; {flag} "
                     "applies to decks only and was left out" for flag in given]
    return warnings


def write_results(builds: list[Built], out_dir: Path, describe: Callable[[Built], str] | None = None) -> None:
    """Put every file in place atomically (renamed from its staging folder, each checked first), one
    wait for the disk for all, then say per game where they went."""
    total = sum(len(built.files) for built in builds)
    with progress(total, "Writing", SECONDS_PER_FILE) as bar:
        def files() -> Iterator[tuple[Path, Path]]:
            for built in builds:
                for name in built.files:
                    yield out_dir / built.name / name, built.place(name)
                    bar.update(1)
        write_all(files(), inside=out_dir)
    for built in builds:
        click.echo(describe(built) if describe else
                   f"{built.title}: {len(built.files)} file(s) in {out_dir / built.name}")


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
