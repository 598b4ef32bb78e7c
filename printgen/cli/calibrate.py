"""`printgen calibrate`: a duplex sheet that shows a printer's back offset, and `--save` to keep it."""
from __future__ import annotations

from pathlib import Path

import click

from printgen.cli import options
from printgen.core.atomic import write_bytes
from printgen.core.config import save_back_offset
from printgen.core.paper import SHEET_PAPERS, Flip
from printgen.core.problems import display_name


@click.command("calibrate")
@options.paper
@options.flip
@click.option("--back-offset", "back_offset", default=None, callback=options.parse_offset, metavar="X,Y",
              help="Print the sheet with this offset, to check it: a right offset reads as itself.")
@click.option("--save", "save", default=None, callback=options.parse_offset, metavar="X,Y",
              help="Save X,Y (your two readings) as the back offset for --flip; build then uses it.")
@options.out("Folder to write into; the sheet goes in OUT/calibrate/.")
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

    write_bytes(target, calibration_pdf(SHEET_PAPERS[paper], flip, offset))
    click.echo(str(target))
