"""The pictures `printgen serve` shows: every page of every PDF, and each piece's face and back.

Pages are rasterised from the PDFs the build made, like `printgen preview`, so the page shows what
prints. A build is deterministic, so a PDF whose bytes did not change keeps the pictures it had:
saving a deck's CSV re-draws the deck's sheets, not its unchanged reference. Runs of pages are
shared out over the cores (printgen.core.parallel).
"""
from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable

from printgen.core.build import Artifact, BuildOptions

if TYPE_CHECKING:
    from printgen.games import Loaded
    from printgen.layout.cards import Card

PAGES_PER_JOB = 3  # a job opens the PDF once; a few pages each keeps both cores busy
PIECE_DPI = 150.0  # pieces are small, and shown larger than the pages' share of them


@dataclass(frozen=True)
class Picture:
    """A PNG and its size in pixels."""

    png: bytes
    width: int
    height: int

    @classmethod
    def of(cls, png: bytes) -> "Picture":
        width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk, always first
        return cls(png, width, height)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.png).hexdigest()[:16]


@dataclass(frozen=True)
class Side:
    """One face or back of a piece: what it is called, how many of it print, its picture."""

    name: str
    quantity: int
    picture: Picture


@dataclass(frozen=True)
class Deck:
    """Pieces that share a back."""

    name: str
    back: Picture
    faces: list[Side]


class PageRaster:
    """Page pictures by PDF content and resolution; only those of the last call (a whole build's
    PDFs) are kept."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, float], list[Picture]] = {}

    def pages(self, pdfs: list[Artifact], dpi: float) -> list[list[Picture]]:
        """Each PDF's pages as pictures, rasterising only PDFs not seen at this `dpi` before."""
        from printgen.core.parallel import on_cores
        from printgen.output.png import page_count, rasterise

        keys = [(hashlib.sha256(pdf.data).hexdigest(), dpi) for pdf in pdfs]
        new = {key: pdf for key, pdf in zip(keys, pdfs) if key not in self.known}
        jobs: list[tuple[tuple[str, float], Callable[[], list[bytes]]]] = []
        for key, pdf in new.items():
            count = page_count(pdf.data)
            jobs += [(key, partial(rasterise, pdf.data, dpi, start, min(start + PAGES_PER_JOB, count)))
                     for start in range(0, count, PAGES_PER_JOB)]
        drawn: dict[tuple[str, float], list[Picture]] = {key: [] for key in new}
        for (key, _), pngs in zip(jobs, on_cores([job for _, job in jobs])):
            drawn[key] += [Picture.of(png) for png in pngs]
        self.known = {key: self.known.get(key) or drawn[key] for key in keys}
        return [self.known[key] for key in keys]


class PieceCache:
    """Each game's pieces as pictures, kept while the files the game built stay the same (a game
    that did not change among several served, or a rebuild that changed nothing it draws)."""

    def __init__(self) -> None:
        self.known: dict[str, list[Deck]] = {}
        self.used: dict[str, list[Deck]] = {}

    def decks(self, loaded: Loaded, built: list[Artifact], options: BuildOptions) -> list[Deck]:
        """The game's decks (none if it has no separate pieces), drawn only if not known."""
        if loaded.game.pieces is None:
            return []
        key = hashlib.sha256(str(loaded.path.resolve()).encode())
        for artifact in built:
            key.update(hashlib.sha256(artifact.name.encode() + b"\0" + artifact.data).digest())
        found = self.known.get(key.hexdigest())
        if found is None:
            from printgen.drawing.checks import unchecked_shapes

            with unchecked_shapes():  # as a build draws (a game may draw its pieces as it lists them)
                found = piece_decks(loaded.game.pieces(loaded, options))
        self.used[key.hexdigest()] = found
        return found

    def finish(self, kept: bool) -> None:
        """After a build: keep only what it used if it was shown (`kept`), else what was known."""
        if kept:
            self.known = self.used
        self.used = {}


def piece_decks(cards: list[Card], dpi: float = PIECE_DPI) -> list[Deck]:
    """Every card's face and each deck's back (printgen.layout.cards.Card), drawn at `dpi`."""
    from printgen.drawing.checks import unchecked_shapes
    from printgen.drawing.document import Document, Page
    from printgen.layout.cards import decks
    from printgen.core.paper import Paper
    from printgen.output.png import write_pngs

    grouped = decks(cards)
    sides = [(card.name, card.quantity, card.piece, card.piece.front) for members in grouped.values()
             for card in members]
    sides += [("back", sum(c.quantity for c in members), members[0].piece, members[0].piece.back)
              for members in grouped.values()]
    by_size: dict[tuple[float, float], list[int]] = {}
    for index, (_, _, piece, _) in enumerate(sides):
        by_size.setdefault((piece.width, piece.height), []).append(index)
    pictures: dict[int, Picture] = {}
    with unchecked_shapes():
        for (width, height), indices in by_size.items():
            paper = Paper("piece", width, height)
            documents = [Document(f"{sides[i][0]}.png", paper, [Page([sides[i][3](0.0)])], sides[i][0],
                                  dpi=dpi) for i in indices]
            for index, png in zip(indices, write_pngs(documents)):
                pictures[index] = Picture.of(png)
    faces = iter(range(len(cards)))
    backs = iter(range(len(cards), len(sides)))
    return [Deck(name, pictures[next(backs)],
                 [Side(sides[i][0], sides[i][1], pictures[i]) for i in (next(faces) for _ in members)])
            for name, members in grouped.items()]
