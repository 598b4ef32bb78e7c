"""`printgen preview`: every page of every PDF a game builds, as PNGs.

The pictures come from rasterising the real PDFs (printgen.output.png), so a preview shows what will
print, not a second drawing that could disagree with it.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import click

from printgen.cli import options
from printgen.cli.common import paths_for
from printgen.cli.engine import build_games, write_results
from printgen.core.build import Artifact, BuildOptions
from printgen.core.paper import PAPERS, Flip
from printgen.core.progress import progress

if TYPE_CHECKING:  # the registry is loaded in the worker
    from printgen.games import Loaded

SECONDS_PER_PAGE_AT_100_DPI = 0.08  # measured on A4 pages; time grows with the pixel count
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
    build_options = BuildOptions(PAPERS[paper], flip, (0.0, 0.0), template_dirs)
    work = partial(previewed, dpi=dpi)
    with build_games(paths_for(games), build_options, allow_outside, work) as built:
        write_results(built, out_dir, describe=lambda game: "\n".join(
            str(out_dir / game.name / name) for name in game.files))


def previewed(loaded: Loaded, build_options: BuildOptions, dpi: float) -> tuple[list[Artifact], Any]:
    """In the worker: the game built, and a PNG of every page of its PDFs (its only files)."""
    return previews(loaded.build(build_options), dpi), None


def preview_name(pdf_name: str, page: int, pages: int) -> str:
    """'omiga.pdf', page 3 of 12 -> 'preview/omiga-p03.png' (zero-padded, so names sort in order)."""
    stem = PurePosixPath(pdf_name).stem
    return f"{FOLDER}/{stem}-p{page:0{len(str(pages))}d}.png"


def previews(artifacts: list[Artifact], dpi: float) -> list[Artifact]:
    """A PNG per page of every PDF among `artifacts`, in build order."""
    from printgen.output.png import page_count, page_pngs  # the rasteriser, for this command only

    pdfs = [a for a in artifacts if a.name.endswith(".pdf")]
    counts = [page_count(a.data) for a in pdfs]
    each = SECONDS_PER_PAGE_AT_100_DPI * (dpi / 100) ** 2
    out: list[Artifact] = []
    with progress(sum(counts), "Rendering previews", each) as bar:
        for pdf, pages in zip(pdfs, counts):
            for number, png in enumerate(page_pngs(pdf.data, dpi), start=1):
                out.append(Artifact(preview_name(pdf.name, number, pages), png))
                bar.update(1)
    return out
