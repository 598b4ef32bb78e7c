"""`printgen export`: the pieces of every game that has them, for a print shop or Tabletop Simulator
(the files themselves are made by printgen.output.export)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from printgen.cli import options
from printgen.cli.common import EXIT_BAD_INPUT, paths_for
from printgen.cli.engine import Results, build_games, write_results
from printgen.core.build import Artifact, BuildOptions
from printgen.core.paper import PAPERS
from printgen.games import Loaded, registry


@click.command("export")
@click.argument("games", nargs=-1, required=True, metavar="GAME ...")
@click.option("--print-shop", "print_shop", is_flag=True,
              help="One PDF per card or tile face and per back, with bleed, plus manifest.csv.")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets (up to 10 x 7), backs and decks.json.")
@options.bleed(3.0, "Print-shop bleed in mm: how far the art runs past each cut.")
@click.option("--dpi", type=click.IntRange(50, 600), default=200, show_default=True,
              help="Resolution of the Tabletop Simulator images.")
@options.out("Folder to write into: OUT/<game>/print-shop/ and OUT/<game>/tts/.")
@options.templates
@options.allow_outside
def export_command(games: tuple[str, ...], print_shop: bool, tts: bool, bleed: float, dpi: int,
                   out_dir: Path, template_dirs: tuple[Path, ...], allow_outside: bool) -> None:
    """Export GAME's cards, tiles or tokens one by one, for a print shop or Tabletop Simulator.

    Works for games made of separate pieces (see `printgen list`). Nothing is written unless
    every game exports.
    """
    if not (print_shop or tts):
        raise click.UsageError("say what to export: --print-shop, --tts, or both")
    # the same checks as build, so a definition that cannot build cannot export either; a deck's
    # pictures of single cards are left out: they draw the faces the sheets draw, and are not kept
    build_options = BuildOptions(PAPERS["a4"], templates=template_dirs, pictures=False)
    results = build_games(paths_for(games), build_options, allow_outside)
    with_pieces = [g.id for g in registry().values() if g.pieces is not None]
    for loaded, _ in results:
        if loaded.game.pieces is None:
            click.echo(f"printgen: {loaded.title} has no separate cards, tiles or tokens to export; "
                       f"export works for {', '.join(with_pieces)}. Nothing was written.", err=True)
            sys.exit(EXIT_BAD_INPUT)
    from printgen.drawing.checks import unchecked_shapes

    with unchecked_shapes():  # as a build draws, so a program using printgen gets the same pieces
        exported: Results = [(loaded, exported_files(loaded, build_options, print_shop, tts, bleed, dpi))
                             for loaded, _ in results]
    write_results(exported, out_dir, describe=lambda loaded, files: describe_export(loaded, files, out_dir))


def exported_files(loaded: Loaded, build_options: BuildOptions, print_shop: bool, tts: bool, bleed: float,
                   dpi: int) -> list[Artifact]:
    """One game's print-shop files and Tabletop Simulator sheets, as asked."""
    from printgen.core.spill import Spill
    from printgen.output import export  # the drawing and rasterising code, for this command only
    from printgen.output.writers import SPILL_AFTER

    pieces = loaded.game.pieces
    assert pieces is not None  # every game without pieces was refused before
    cards = pieces(loaded, build_options)
    spill = Spill() if len(cards) > SPILL_AFTER else None  # thousands of files: not all held in memory
    files: list[Artifact] = []
    if print_shop:
        files += export.print_shop(loaded.title, cards, bleed, spill)
    if tts:
        files += export.tts(loaded.name, cards, dpi, spill)
    return files


def describe_export(loaded: Loaded, files: list[Artifact], out_dir: Path) -> str:
    folders = sorted({f.name.split("/")[0] for f in files})
    return "\n".join(f"{loaded.title}: {sum(f.name.startswith(d + '/') for f in files)} file(s) in "
                     f"{out_dir / loaded.name / d}" for d in folders)
