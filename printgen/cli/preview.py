"""`printgen preview`: every page of every PDF a game builds, rasterised, so it shows what prints."""
from __future__ import annotations

from functools import partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import click

from printgen.cli import options
from printgen.cli.common import check_targets, paths_for
from printgen.cli.engine import build_games, write_results
from printgen.core.build import Artifact, BuildOptions
from printgen.core.paper import SHEET_PAPERS, Flip

if TYPE_CHECKING:  # the registry is loaded in the worker
    from printgen.games import Loaded

FOLDER = "preview"


@click.command("preview")
@options.games
@options.paper
@options.flip
@options.out("Folder to write into; the pictures go in OUT/<game>/preview/.")
@click.option("--dpi", type=click.IntRange(20, 600), default=100, show_default=True,
              help="Resolution of the pictures (100 is enough to proof-read; 300 to check fine lines).")
@options.templates
@options.allow_outside
def preview_command(games: tuple[str, ...], paper: str, flip: Flip, out_dir: Path, dpi: int,
                    template_dirs: tuple[Path, ...], allow_outside: bool) -> None:
    """Write a PNG of every page of every PDF that GAME builds, and print the PNGs' paths.

    The pictures are drawn from the real PDFs, so they show exactly what will print. With no GAME,
    every bundled game is previewed. Nothing is written unless every game builds.
    """
    paths = paths_for(games)
    check_targets(paths, paper, None, out_dir)
    build_options = BuildOptions(SHEET_PAPERS[paper], flip, (0.0, 0.0), template_dirs,
                                 paper_given=options.typed("paper"))
    work = partial(previewed, dpi=dpi)
    with build_games(paths, build_options, allow_outside, work, near=out_dir) as built:
        write_results(built, out_dir, describe=lambda game: "\n".join(
            str(out_dir / game.name / name) for name in game.files))


def previewed(loaded: Loaded, build_options: BuildOptions, dpi: float) -> tuple[list[Artifact], Any]:
    """In the worker: a PNG of every page of the game's PDFs (its only files), drawn as `serve` draws them."""
    from printgen.cli.pictures import page_pictures
    from printgen.core.staging import Staging
    from printgen.output.writers import artifact

    spool = Staging(build_options.scratch)
    pdfs = [a for a in loaded.build(build_options) if a.name.endswith(".pdf")]
    return [artifact(preview_name(pdf.name, n, len(pngs)), png, spool)
            for pdf, pngs in zip(pdfs, page_pictures(pdfs, dpi, spool.keep, "Rendering previews"))
            for n, png in enumerate(pngs, start=1)], None


def preview_name(pdf_name: str, page: int, pages: int) -> str:
    """'omiga.pdf', page 3 of 12 -> 'preview/omiga-p03.png' (zero-padded, so names sort in order)."""
    stem = PurePosixPath(pdf_name).stem
    return f"{FOLDER}/{stem}-p{page:0{len(str(pages))}d}.png"
