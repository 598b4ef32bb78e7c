"""Commands for seeing and printing: `preview`, `calibrate`, `export`, and the engine behind `build`
(and `build --watch`): build every game in memory, then write.

These live beside cli.py rather than in it so that each job's options and messages stay together;
cli.py registers the commands on its group. Helpers from cli.py are imported inside functions,
because cli.py imports this module.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from printgen.core.atomic import write_all, write_bytes
from printgen.cli.common import fail, parse_offset, resolve
from printgen.cli.types import FiniteRange
from printgen.core.config import config_path, save_back_offset, saved_back_offset
from printgen.core.build import Artifact, BuildOptions
from printgen.games import Loaded, bundled_definition, game_entry, game_ids, load, registry
from printgen.core.parallel import beside
from printgen.core.paper import PAPERS, Flip
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.progress import progress

SECONDS_PER_GAME = 0.7  # a bundled game builds in 0.6-0.9 s
SECONDS_PER_FILE = 0.002  # written to a temporary file; the disk is waited on once for all
MAX_BLEED_MM = 6.0
Results = list[tuple[Loaded, list[Artifact]]]


def build_games(paths: list[Path], options: BuildOptions, allow_outside: bool = False) -> Results:
    """Build every definition in memory; raise one DefinitionError holding every game's problems.

    The later half of the games is built meanwhile by a forked helper on another core, if there is
    one (printgen.parallel); the results, warnings and problems come out in the same order as ever.
    The later half is the larger one, because this process also preloads that half's game modules.
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
        for warning in warnings:  # art that cannot print exactly as drawn
            click.echo(warning, err=True)
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


def build_one(path: Path, options: BuildOptions, allow_outside: bool
              ) -> tuple[list[str], tuple[Loaded, list[Artifact]] | None, list[Problem]]:
    """(art warnings, the loaded game and its files or None, problems) for one definition."""
    warnings: list[str] = []
    try:
        loaded = load(path, allow_outside=allow_outside)
        warnings = list(loaded.art.warnings)
        return warnings, (loaded, loaded.build(options)), []
    except DefinitionError as exc:
        return warnings, None, list(exc.problems)


def write_results(results: Results, out_dir: Path, describe: Callable[[Loaded, list[Artifact]], str]
                  | None = None) -> None:
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


def paths_for(games: tuple[str, ...]) -> list[Path]:
    return [resolve(g) for g in games] or [bundled_definition(g) for g in game_ids()]


def offset_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    return None if value is None else parse_offset(ctx, param, value)


def bail(error: DefinitionError) -> None:
    fail(error)


paper_option = click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True,
                            help="Paper size to print on.")
flip_option = click.option("--flip", type=click.Choice(["long", "short"]), default="long", show_default=True,
                           help="Which edge your printer turns the sheet over for two-sided printing.")
templates_option = click.option("--templates", "template_dirs", multiple=True,
                                type=click.Path(exists=True, file_okay=False, path_type=Path),
                                help="A folder of your own templates, searched before the bundled ones.")
outside_option = click.option("--allow-outside", is_flag=True,
                              help="Let a definition use art, fonts and templates from outside its folder.")


def out_option(default: str, what: str):
    return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
                        default=Path(default), show_default=True, help=what)


@click.command("preview")
@click.argument("games", nargs=-1, metavar="[GAME ...]")
@paper_option
@flip_option
@out_option("output", "Folder to write into; the pictures go in OUT/<game>/preview/.")
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True,
              help="Resolution of the pictures (100 is enough to proof-read; 300 to check fine lines).")
@templates_option
@outside_option
def preview_command(games: tuple[str, ...], paper: str, flip: Flip, out_dir: Path, dpi: int,
                    template_dirs: tuple[Path, ...], allow_outside: bool) -> None:
    """Write a PNG of every page of every PDF that GAME builds, and print the PNGs' paths.

    The pictures are drawn from the real PDFs, so they show exactly what will print. With no GAME,
    every bundled game is previewed. Nothing is written unless every game builds.
    """
    from printgen.cli.preview import previews

    options = BuildOptions(PAPERS[paper], flip, (0.0, 0.0), template_dirs)
    try:
        results = build_games(paths_for(games), options, allow_outside)
    except DefinitionError as exc:
        bail(exc)
    pictures = [(loaded, previews(artifacts, dpi)) for loaded, artifacts in results]
    write_results(pictures, out_dir, describe=lambda loaded, files: "\n".join(
        str(out_dir / loaded.name / f.name) for f in files))


@click.command("calibrate")
@paper_option
@flip_option
@click.option("--back-offset", "back_offset", default=None, callback=offset_option, metavar="X,Y",
              help="Print the sheet with this offset, to check it: a right offset reads as itself.")
@click.option("--save", "save", default=None, callback=offset_option, metavar="X,Y",
              help="Save X,Y (your two readings) as the back offset for --flip; build then uses it.")
@out_option("output", "Folder to write into; the sheet goes in OUT/calibrate/.")
def calibrate_command(paper: str, flip: Flip, back_offset: tuple[float, float] | None,
                      save: tuple[float, float] | None, out_dir: Path) -> None:
    """Write a two-page duplex calibration sheet that shows your printer's back offset.

    Print it double-sided at Actual size, hold it up to the light, and read the X and Y staircases
    and the flip arrow. Then pass --back-offset X,Y to build, or save it with --save X,Y so every
    build uses it (saved per --flip, in the user config file).
    """
    if save is not None:
        path = save_back_offset(flip, save)
        click.echo(f"Saved back offset {save[0]:g},{save[1]:g} mm for {flip}-edge printing in "
                   f"{display_name(path)}; printgen build uses it unless you give --back-offset.")
        return
    offset = back_offset if back_offset is not None else (0.0, 0.0)
    target = out_dir / "calibrate" / f"calibration-{paper}-{flip}.pdf"
    from printgen.layout.calibrate import calibration_pdf  # reportlab's drawing code, for this command only

    write_bytes(target, calibration_pdf(PAPERS[paper], flip, offset))
    click.echo(str(target))


@click.command("export")
@click.argument("games", nargs=-1, required=True, metavar="GAME ...")
@click.option("--print-shop", "print_shop", is_flag=True,
              help="One PDF per card or tile face and per back, with bleed, plus manifest.csv.")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets (up to 10 x 7), backs and decks.json.")
@click.option("--bleed", type=FiniteRange(0, MAX_BLEED_MM), default=3.0, show_default=True, metavar="MM",
              help="Print-shop bleed in mm: how far the art runs past each cut (0 to 6).")
@click.option("--dpi", type=click.IntRange(50, 600), default=200, show_default=True,
              help="Resolution of the Tabletop Simulator images.")
@out_option("output", "Folder to write into: OUT/<game>/print-shop/ and OUT/<game>/tts/.")
@templates_option
@outside_option
def export_command(games: tuple[str, ...], print_shop: bool, tts: bool, bleed: float, dpi: int,
                   out_dir: Path, template_dirs: tuple[Path, ...], allow_outside: bool) -> None:
    """Export GAME's cards, tiles or tokens one by one, for a print shop or Tabletop Simulator.

    Works for games made of separate pieces (see `printgen list`). Nothing is written unless
    every game exports.
    """
    from printgen.cli import export

    if not (print_shop or tts):
        raise click.UsageError("say what to export: --print-shop, --tts, or both")
    paths = paths_for(games)
    with_cards = [g.id for g in registry().values() if g.pieces is not None]
    try:
        # the same checks as build, so a definition that cannot build cannot export either
        results = build_games(paths, BuildOptions(PAPERS["a4"], templates=template_dirs), allow_outside)
    except DefinitionError as exc:
        bail(exc)
    for loaded, _ in results:
        if loaded.game.pieces is None:
            click.echo(f"printgen: {loaded.game.title} has no separate cards, tiles or tokens to export; "
                       f"export works for {', '.join(with_cards)}. Nothing was written.", err=True)
            sys.exit(2)
    exported: Results = []
    for loaded, _ in results:
        pieces = loaded.game.pieces
        assert pieces is not None  # every game without pieces was refused above
        cards = pieces(loaded.definition)
        files: list[Artifact] = []
        if print_shop:
            files += export.print_shop(loaded.game.title, cards, bleed)
        if tts:
            files += export.tts(loaded.name, cards, dpi)
        exported.append((loaded, files))
    write_results(exported, out_dir, describe=lambda loaded, files: describe_export(loaded, files, out_dir))


def describe_export(loaded: Loaded, files: list[Artifact], out_dir: Path) -> str:
    folders = sorted({f.name.split("/")[0] for f in files})
    return "\n".join(f"{loaded.game.title}: {sum(f.name.startswith(d + '/') for f in files)} file(s) in "
                     f"{out_dir / loaded.name / d}" for d in folders)
