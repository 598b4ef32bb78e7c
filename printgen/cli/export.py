"""`printgen export`: the pieces of every game that has them, for a print shop or Tabletop Simulator."""
from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from printgen.cli import options
from printgen.cli.common import EXIT_BAD_INPUT, check_targets, paths_for
from printgen.cli.engine import build_games, write_results
from printgen.cli.report import Built
from printgen.core.bounded import BadReport
from printgen.core.build import Artifact, BuildOptions
from printgen.core.paper import PAPERS

if TYPE_CHECKING:  # the registry is loaded in the worker
    from printgen.games import Loaded


@click.command("export")
@click.argument("games", nargs=-1, required=True, metavar="GAME ...")
@click.option("--print-shop", "print_shop", is_flag=True,
              help="One PDF per card or tile face and per back, with bleed, plus manifest.csv.")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets (up to 10 x 7), backs and decks.json.")
@options.bleed(3.0, "Print-shop bleed in mm: how far the art runs past each cut.")
@click.option("--dpi", type=click.IntRange(50, 600), default=200, show_default=True,
              help="Resolution of the Tabletop Simulator images.")
@options.out("Folder to write into: OUT/<game>/print-shop/ and OUT/<game>/tts/.")
@options.rows
@options.name
@options.templates
@options.allow_outside
def export_command(games: tuple[str, ...], print_shop: bool, tts: bool, bleed: float, dpi: int,
                   out_dir: Path, rows: tuple[int, ...] | None, name: str | None, template_dirs: tuple[Path, ...],
                   allow_outside: bool) -> None:
    """Export GAME's cards, tiles or tokens one by one, for a print shop or Tabletop Simulator.

    Works for games made of separate pieces (see `printgen list`). Nothing is written unless
    every game exports.
    """
    if not (print_shop or tts):
        raise click.UsageError("say what to export: --print-shop, --tts, or both")
    # a deck's pictures of single cards are left out: the sheets draw the same faces
    paths = paths_for(games)
    check_targets(paths, "a4", name, out_dir)
    build_options = BuildOptions(PAPERS["a4"], templates=template_dirs, pictures=False, rows=rows, name=name)
    work = partial(exported_work, print_shop=print_shop, tts=tts, bleed=bleed, dpi=dpi)
    with build_games(paths, build_options, allow_outside, work, near=out_dir) as built:
        for game in built:
            if game.extra is not None:  # a game without separate pieces: its worker said which have them
                refused = game.extra.get("refused") if isinstance(game.extra, dict) else None
                if not isinstance(refused, str):
                    raise BadReport("export: the worker's answer is not one an export sends")
                click.echo(refused, err=True)
                sys.exit(EXIT_BAD_INPUT)
        write_results(built, out_dir, describe=lambda game: describe_export(game, out_dir))


def exported_work(loaded: Loaded, build_options: BuildOptions, print_shop: bool, tts: bool, bleed: float,
                  dpi: int) -> tuple[list[Artifact], Any]:
    """In the worker: build (so what cannot build cannot export), then the exported files, or why none."""
    loaded.build(build_options)
    if loaded.game.pieces is None:
        from printgen.games import registry

        with_pieces = [g.id for g in registry().values() if g.pieces is not None]
        return [], {"refused": f"printgen: {loaded.title} has no separate cards, tiles or tokens to export; "
                               f"export works for {', '.join(with_pieces)}. Nothing was written."}
    from printgen.core.staging import Staging
    from printgen.drawing.checks import unchecked_shapes
    from printgen.layout import export  # the drawing and rasterising code, for this command only
    from printgen.output.writers import SPOOL_AFTER

    with unchecked_shapes():  # as a build draws, so a program using printgen gets the same pieces
        cards = loaded.game.pieces(loaded, build_options)
        # thousands of files: not all held in memory
        spool = Staging(build_options.scratch) if len(cards) > SPOOL_AFTER else None
        files = export.print_shop(loaded.title, cards, bleed, spool) if print_shop else []
        return files + (export.tts(loaded.name, cards, dpi, spool) if tts else []), None


def describe_export(game: Built, out_dir: Path) -> str:
    folders = sorted({name.split("/")[0] for name in game.files})
    return "\n".join(f"{game.title}: {sum(name.startswith(d + '/') for name in game.files)} file(s) in "
                     f"{out_dir / game.name / d}" for d in folders)
