"""The pictures `printgen serve` shows: every page of every PDF, and each piece's face and back.

Pages are rasterised from the real PDFs, so the page shows what prints; each picture is kept on
disk as it is made, so a deck that builds also serves under the same memory bound.
"""
from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from printgen.core.build import Artifact, BuildOptions
from printgen.core.staging import Held, Staging, in_memory

if TYPE_CHECKING:
    from printgen.games import Loaded
    from printgen.layout.cards import Card

PAGES_PER_JOB = 3  # a job opens the PDF once; a few pages each keeps both cores busy
PIECE_DPI = 150.0  # pieces are shown larger than the pages' share of them
SECONDS_PER_PAGE_AT_100_DPI = 0.08
Store = Callable[[bytes], Held]
Deck = tuple[str, Held, list[tuple[str, int, Held]]]  # name, back, faces (name, quantity, picture)


@dataclass(frozen=True)
class Picture:
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


def served_work(dpi: float) -> Callable[[Loaded, BuildOptions], tuple[list[Artifact], Any]]:
    """The work of `serve`'s worker: the PDFs and every page and piece drawn; its extra data is the
    page's description of the game (printgen.cli.serve): each PDF's link and pages, each deck's back
    and faces, each picture by its address under /files/NAME/ (with a digest of its PNG) and size."""
    def work(loaded: Loaded, options: BuildOptions) -> tuple[list[Artifact], Any]:
        from urllib.parse import quote

        from printgen.output.writers import artifact

        spool = Staging(options.scratch)

        def shown(name: str, png: Held) -> dict[str, Any]:  # kept as a file, described for the page
            files.append(artifact(name, png, spool))
            picture = Picture.of(files[-1].data)
            return {"src": f"{href(name)}?v={picture.digest}", "width": picture.width, "height": picture.height}

        def href(name: str) -> str:
            return quote(f"/files/{loaded.name}/{name}")

        # the page shows the PDFs and the pieces below, not the build's own picture of each card
        files = [a for a in loaded.build(replace(options, pictures=False)) if a.name.endswith(".pdf")]
        pdfs = [{"name": pdf.name, "href": href(pdf.name), "pages": [
            shown(page_name(pdf.name, n), png) for n, png in enumerate(pngs, start=1)]}
            for pdf, pngs in zip(list(files), page_pictures(files, dpi, spool.keep))]
        cards = []
        if loaded.game.pieces is not None:
            from printgen.drawing.checks import unchecked_shapes

            with unchecked_shapes():  # as a build draws
                cards = loaded.game.pieces(loaded, options)
        decks = [{"name": name, "back": shown(back_name(number), back),
                  "faces": [{"name": n, "quantity": q, **shown(face_name(number, i), png)}
                            for i, (n, q, png) in enumerate(faces)]}
                 for number, (name, back, faces) in enumerate(piece_decks(cards, spool.keep))]
        return files, {"pdfs": pdfs, "decks": decks}
    return work


def page_pictures(pdfs: list[Artifact], dpi: float, store: Store = in_memory, label: str = "") -> list[list[Held]]:
    """Each PDF's pages as PNGs, each handed to `store` as made, on every core; a `label` shows progress."""
    from printgen.core.parallel import on_cores
    from printgen.core.progress import progress
    from printgen.output.png import page_count

    counts = [page_count(pdf.data) for pdf in pdfs]
    jobs = [(index, partial(rasterised, pdf.data, dpi, start, min(start + PAGES_PER_JOB, count), store))
            for index, (pdf, count) in enumerate(zip(pdfs, counts)) for start in range(0, count, PAGES_PER_JOB)]
    drawn: list[list[Held]] = [[] for _ in pdfs]
    with progress(sum(counts) if label else 0, label, SECONDS_PER_PAGE_AT_100_DPI * (dpi / 100) ** 2) as bar:
        for (index, _), pngs in zip(jobs, on_cores([job for _, job in jobs], lambda _, pngs: bar.update(len(pngs)),
                                                         kind=list[Held])):
            drawn[index] += pngs
    return drawn


def rasterised(pdf: bytes, dpi: float, first: int, last: int, store: Store) -> list[Held]:
    """Pages first..last-1 of `pdf`, each stored as soon as it is drawn."""
    from printgen.output.png import page_pngs

    return [store(png) for png in page_pngs(pdf, dpi, pages=range(first, last))]


def page_name(pdf: str, number: int) -> str:
    return f"pages/{pdf[:-len('.pdf')]}-p{number}.png"


def back_name(deck: int) -> str:
    return f"backs/{deck}.png"


def face_name(deck: int, face: int) -> str:
    return f"faces/{deck}/{face}.png"


def piece_decks(cards: list[Card], store: Store = in_memory, dpi: float = PIECE_DPI) -> list[Deck]:
    """Every card's face and each deck's back drawn at `dpi`, pieces of a size together, each stored as made."""
    from printgen.drawing.checks import unchecked_shapes
    from printgen.drawing.document import Document
    from printgen.layout.cards import decks
    from printgen.core.paper import Paper
    from printgen.output.png import write_pngs_stored

    grouped = decks(cards)
    sides = [(card.name, card.quantity, card.piece, card.piece.front) for members in grouped.values()
             for card in members]
    sides += [("back", 0, members[0].piece, members[0].piece.back) for members in grouped.values()]
    by_size: dict[tuple[float, float], list[int]] = {}
    for index, (_, _, piece, _) in enumerate(sides):
        by_size.setdefault((piece.width, piece.height), []).append(index)
    pictures: dict[int, Held] = {}
    with unchecked_shapes():
        for (width, height), indices in by_size.items():
            documents = [Document(f"{sides[i][0]}.png", Paper("piece", width, height), [], sides[i][0], dpi=dpi,
                                  draw=partial(drawn_side, sides[i][3])) for i in indices]  # drawn when made
            pictures.update(zip(indices, write_pngs_stored(documents, store)))
    faces, backs = iter(range(len(cards))), iter(range(len(cards), len(sides)))
    return [(name, pictures[next(backs)], [sides[i][:2] + (pictures[i],) for i in (next(faces) for _ in members)])
            for name, members in grouped.items()]


def drawn_side(side: Callable[[float], Any]) -> list[Any]:
    """One side of a piece as the single page of its picture, without bleed."""
    from printgen.drawing.document import Page

    return [Page([side(0.0)])]
