"""`printgen build`: every file a game makes, written only when every named game builds."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from printgen.cli import options
from printgen.cli.common import check_targets, paths_for, report
from printgen.cli.report import Built
from printgen.cli.engine import back_offset_for, build_all, build_games, write_results
from printgen.core.build import BuildOptions
from printgen.core.paper import SHEET_PAPERS, Flip
from printgen.core.problems import DefinitionError


@click.command("build")
@options.games
@options.paper
@options.layout
@options.rows
@options.where
@options.name
@options.guides
@options.booklet
@options.flip
@options.back_offset
@options.out("Folder to write into; each game gets a sub-folder.")
@options.templates
@options.allow_outside
@options.bleed(None, "Run the art of imposed pieces (Omiga tiles, Fracas tokens, deck cards) MM past "
                     "their cut lines; the PDF gets a TrimBox and a BleedBox. Overrides the "
                     "definition's bleed.")
@click.option("--dpi", type=click.IntRange(30, 600), default=None, metavar="DPI",
              help="Resolution of the PNG pictures of single pieces: each deck card and back with --png "
                   "(default 150), the Omiga contact sheet (default 80).")
@click.option("--pictures/--no-pictures", default=True,
              help="With --no-pictures, a deck's build writes its sheets (the PDF) without its overview "
                   "picture and the SVG of every card: a deck of a thousand cards builds sooner.")
@click.option("--png", is_flag=True,
              help="Also a PNG of every deck card and back, at --dpi (default 150), in png/. Drawing them "
                   "takes most of the build's time for a large deck.")
@click.option("--watch", is_flag=True,
              help="Keep running: rebuild whenever the definition, its art or a template changes "
                   "(Ctrl-C stops).")
def build_command(games: tuple[str, ...], paper: str, layout: str | None, rows: tuple[int, ...] | None,
                  where: str | None, name: str | None, guides: bool, booklet: bool, flip: Flip,
                  back_offset: tuple[float, float] | None, out_dir: Path, template_dirs: tuple[Path, ...],
                  allow_outside: bool, bleed: float | None, dpi: int | None, pictures: bool, png: bool,
                  watch: bool) -> None:
    """Build GAME (a bundled game id or a definition .yaml); with no GAME, build them all.

    Output goes to OUT/<game>/, the main PDF as <game>.pdf (OUT/NAME/NAME.pdf with --name). Nothing
    is written unless every requested game builds.
    """
    if png and not pictures:
        raise click.UsageError("--png and --no-pictures ask for opposite things: --png adds a PNG of every "
                               "card, --no-pictures leaves every picture out; give one of them")
    paths = paths_for(games)
    check_targets(paths, paper, name, out_dir)
    build_options = BuildOptions(SHEET_PAPERS[paper.lower()], flip, back_offset_for(back_offset, flip),
                                 template_dirs, bleed, dpi, pictures, paper_given=options.typed("paper"),
                                 layout=layout and layout.lower(), rows=rows, where=where, guides=guides,
                                 name=name, booklet=booklet, png=png)
    if watch:
        watch_builds(paths, build_options, out_dir, allow_outside)
        return
    with build_games(paths, build_options, allow_outside, near=out_dir) as built:
        write_results(built, out_dir)
        tell_old_pngs(built, out_dir)


def tell_old_pngs(builds: list[Built], out_dir: Path) -> None:
    """Say so when a game's png/ is from an earlier build (PNGs of cards are drawn only with --png): it is
    left as it was, like every file a build does not write, but beside fresh SVGs it could pass for new."""
    for built in builds:
        folder = out_dir / built.name / "png"
        if folder.is_dir() and not any(name.startswith("png/") for name in built.files):
            click.echo(f"printgen: {folder} is from an earlier build and was left as it was; build with --png "
                       "to draw the cards' PNGs again, or delete it", err=True)


def watch_builds(paths: list[Path], build_options: BuildOptions, out_dir: Path, allow_outside: bool,
                 **loop: Any) -> int:
    """Build now and after every change until Ctrl-C; a broken definition is reported and waited on,
    never the end of the run. `loop`: test settings for printgen.cli.watch.watch."""
    from printgen.cli.watch import Reads, watch

    reads = Reads()

    def rebuild(changed: list[Path]) -> set[Path]:
        started = time.monotonic()
        with build_all(paths, build_options, allow_outside, watching=reads, near=out_dir) as built:
            try:
                built.settle()
                write_results(built, out_dir)
                if not changed:  # said once, not at every save
                    tell_old_pngs(built, out_dir)
            except DefinitionError as exc:
                report(exc, then=" Watching for changes...")
            else:  # benchmarks/run.py reads the time taken
                took = time.monotonic() - started
                click.echo(f"printgen: {'rebuilt' if changed else 'built'} in {took:.2f} s; watching for "
                           "changes (Ctrl-C stops)", err=True)
            return built.watched

    return watch(paths, rebuild, "printgen: stopped watching.", **loop)
