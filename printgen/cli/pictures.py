"""The pictures `printgen serve` shows: every page of every PDF, and each piece's face and back.

Pages are rasterised from the PDFs the build made, like `printgen preview`, so the page shows what
prints. All of it is drawn in the build's worker (printgen.cli.engine), every page again at every
rebuild; runs of pages are shared out over the cores (printgen.core.parallel).
"""
from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

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
        """The picture of PNG bytes; ValueError for bytes that do not start as a PNG does."""
        if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
            raise ValueError("not a PNG picture")
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


def page_pictures(pdfs: list[Artifact], dpi: float) -> list[list[bytes]]:
    """Each PDF's pages as PNGs, runs of pages shared out over the cores."""
    from printgen.core.parallel import on_cores
    from printgen.output.png import page_count, rasterise

    jobs: list[tuple[int, Callable[[], list[bytes]]]] = []
    for index, pdf in enumerate(pdfs):
        count = page_count(pdf.data)
        jobs += [(index, partial(rasterise, pdf.data, dpi, start, min(start + PAGES_PER_JOB, count)))
                 for start in range(0, count, PAGES_PER_JOB)]
    drawn: list[list[bytes]] = [[] for _ in pdfs]
    for (index, _), pngs in zip(jobs, on_cores([job for _, job in jobs])):
        drawn[index] += pngs
    return drawn


def game_decks(loaded: Loaded, options: BuildOptions) -> list[Deck]:
    """The game's decks (none if it has no separate pieces), drawn as a build draws."""
    if loaded.game.pieces is None:
        return []
    from printgen.drawing.checks import unchecked_shapes

    with unchecked_shapes():  # as a build draws (a game may draw its pieces as it lists them)
        return piece_decks(loaded.game.pieces(loaded, options))


def served_work(dpi: float) -> Callable[[Loaded, BuildOptions], tuple[list[Artifact], Any]]:
    """The work `serve`'s worker does: build, then draw every page and piece. Its files are the
    PDFs and the pictures, named as `served_names` says; its extra data names the PDFs with their
    page counts and the decks with their faces' names and counts (printgen.cli.live reads it)."""
    def work(loaded: Loaded, options: BuildOptions) -> tuple[list[Artifact], Any]:
        pdfs = [a for a in loaded.build(options) if a.name.endswith(".pdf")]
        files = [Artifact(pdf.name, pdf.data) for pdf in pdfs]
        described: dict[str, Any] = {"pdfs": [], "decks": []}
        for pdf, pngs in zip(pdfs, page_pictures(pdfs, dpi)):
            described["pdfs"].append({"name": pdf.name, "pages": len(pngs)})
            files += [Artifact(page_name(pdf.name, n), png) for n, png in enumerate(pngs, start=1)]
        for number, deck in enumerate(game_decks(loaded, options)):
            described["decks"].append({"name": deck.name, "faces": [{"name": face.name, "quantity": face.quantity}
                                                                    for face in deck.faces]})
            files.append(Artifact(back_name(number), deck.back.png))
            files += [Artifact(face_name(number, i), face.picture.png) for i, face in enumerate(deck.faces)]
        return files, described
    return work


def page_name(pdf: str, number: int) -> str:
    return f"pages/{pdf[:-len('.pdf')]}-p{number}.png"


def back_name(deck: int) -> str:
    return f"backs/{deck}.png"


def face_name(deck: int, face: int) -> str:
    return f"faces/{deck}/{face}.png"


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
