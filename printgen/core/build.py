"""What a build is asked for and what it gives back: options in, files out; in core, so that layout
code and every game can speak of a build without knowing the registry of games.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.core.paper import Flip, Paper


@dataclass(frozen=True)
class BuildOptions:
    paper: Paper
    flip: Flip = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    templates: tuple[Path, ...] = ()
    bleed: float | None = None  # mm; `--bleed` overrides a definition's own bleed where a game has one
    dpi: int | None = None  # `--dpi`: pictures of single pieces (deck cards, the Omiga contact sheet)
    pictures: bool = True  # `--no-pictures`: no SVG and PNG of every deck card (the sheets alone)
    paper_given: bool = False  # `--paper` was typed, so it overrides the paper a definition names
    layout: str | None = None  # `--layout`: duplex, gutterfold or fronts, over a deck's sheet.layout
    rows: tuple[int, ...] | None = None  # `--rows`: the 1-based data rows to build, in order
    where: str | None = None  # `--where`: a condition over a deck's row, as `when:` takes, to build only those
    guides: bool = False  # `--guides`: trim, safe-area and bleed outlines on every card
    name: str | None = None  # `--name`: the output folder and file stem, over the definition's file name
    booklet: bool = False  # `--booklet`: the rulebook also as an A5 (half-Letter) booklet, as `booklet: true` asks
    scratch: str | None = None  # this build's own temporary files: inside its staging folder, so they
    # go with it however the build ends (set by the worker, cli.engine.in_worker); None: the system's


@dataclass(frozen=True)
class Artifact:
    """One output file, relative to the game's output folder: its bytes, or the file and size it was
    kept as on disk once made (printgen.core.staging), which `spool` keeps alive while the artifact is."""

    name: str
    held: bytes
    spooled: tuple[str, int] | None = None
    spool: Any = field(default=None, compare=False, repr=False)

    @property
    def data(self) -> bytes:
        if self.spooled is None:
            return self.held
        path, size = self.spooled
        with open(path, "rb") as kept:
            return kept.read(size)


def output_name(path: Path) -> str:
    """The output stem: the file name without `.yaml` or leading dots, so `...yaml` stays inside."""
    return path.stem.lstrip(".") or "definition"
