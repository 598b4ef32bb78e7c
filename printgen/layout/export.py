"""A game's pieces one by one (`printgen export`): for a print shop, a PDF per face and per back with
bleed; for Tabletop Simulator, deck sheets of up to 10 x 7 faces and a back image. Both start from
the game's pieces (printgen.layout.cards), never the imposed sheets, so each piece has its trim size.
"""
from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from functools import partial
from typing import Callable, NamedTuple

from reportlab.graphics.shapes import Group, translate

from printgen.layout.cards import Card, decks
from printgen.core.build import Artifact
from printgen.core.names import Stems, stem
from printgen.core.staging import Held, Staging, in_memory
from printgen.core.paper import Paper
from printgen.drawing.picture import placed
from printgen.core.progress import progress
from printgen.drawing.document import Document, Page
from printgen.output.cellpages import sheet_png
from printgen.output.pdf import write_pdf
from printgen.output.writers import artifact, write

PRINT_SHOP_BLEED = 3.0  # mm: what most print shops ask for
PRINT_SHOP = "print-shop"
TTS = "tts"
TTS_COLUMNS, TTS_ROWS = 10, 7  # the largest deck sheet Tabletop Simulator takes
TTS_MIN_GRID = 2  # its deck dialog needs at least 2 x 2
TTS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1  # the last cell is kept for the hidden-card image
TTS_DPI = 200.0
TTS_MAX_PX = 8192  # per sheet side; TTS and most graphics cards cope with this
SECONDS_PER_PRINT_FILE = 0.004  # measured: 74 Omiga files in 0.2 s
PRINT_SHOP_RUN = 50  # print-shop PDFs made by one job on a core
SECONDS_PER_TTS_CARD = 0.006  # measured: 72 Omiga faces in 0.4 s


def single_pdf(drawing: Group, width: float, height: float, bleed: float, title: str) -> bytes:
    """One piece on a page of its trim size plus `bleed` all round: MediaBox = BleedBox, and the
    TrimBox `bleed` mm inside it."""
    paper = Paper("piece", width + 2 * bleed, height + 2 * bleed)
    page = Page(shapes=[placed(drawing, translate(bleed, bleed))],
                trim_box=(bleed, bleed, bleed + width, bleed + height),
                bleed_box=(0.0, 0.0, paper.width, paper.height))
    return write(Document("piece.pdf", paper, [page], title, "One piece, with bleed"))


def print_shop(title: str, cards: list[Card], bleed: float = PRINT_SHOP_BLEED,
               spool: Staging | None = None) -> list[Artifact]:
    """A PDF per face, a PDF per deck back, and manifest.csv listing size, bleed and quantity; the
    PDFs made in runs on every core (each embeds its own fonts, most of what one costs)."""
    from printgen.core.parallel import on_cores

    rows: list[dict[str, object]] = []
    wanted: list[ShopFile] = []
    stems = Stems()  # print-shop/ holds faces and backs: one name space, faces first
    files = {id(card): f"{stems.take(card.name)}.pdf" for card in cards}  # each a file stem already
    faces = set(files.values())
    for deck, members in decks(cards).items():
        back = back_stem(stem(deck, "deck"), "back-{}")
        back_file = f"{stems.take(back, *([f'back-{back}'] if f'{back}.pdf' in faces else []))}.pdf"
        for card in members:
            name = files[id(card)]
            wanted.append(ShopFile(name, card, "face", f"{title} {card.name} (face)"))
            rows.append(manifest_row(name, card, "face", bleed, card.quantity, back_file))
        first = members[0]
        wanted.append(ShopFile(back_file, first, "back", f"{title} {deck} (back)"))
        rows.append(manifest_row(back_file, first, "back", bleed, sum(c.quantity for c in members), ""))
    runs = [wanted[start:start + PRINT_SHOP_RUN] for start in range(0, len(wanted), PRINT_SHOP_RUN)]
    with progress(len(wanted), "Writing print-shop files", SECONDS_PER_PRINT_FILE) as bar:
        made = on_cores([partial(piece_pdfs, run, bleed, spool.keep if spool else in_memory) for run in runs],
                        lambda _, pdfs: bar.update(len(pdfs)), kind=list[Held])
    out = [artifact(f"{PRINT_SHOP}/{item.file}", pdf, spool)
           for run, pdfs in zip(runs, made) for item, pdf in zip(run, pdfs)]
    out.append(Artifact(f"{PRINT_SHOP}/manifest.csv", manifest_csv(rows)))
    return out


def back_stem(deck: str, pattern: str) -> str:
    """A back's file stem: the deck's own when it already says back ('fire-back'), so a deck
    named after its back (a deck's back.name) is not called back twice; else `pattern` of it."""
    return deck if "back" in deck.split("-") else pattern.format(deck)


class ShopFile(NamedTuple):
    """One print-shop PDF to make: its file name, the card, which side, and the PDF's title."""

    file: str
    card: Card
    side: str  # "face" or "back"
    title: str


def piece_pdfs(run: list[ShopFile], bleed: float, store: Callable[[bytes], Held]) -> list[Held]:
    """One run of print-shop PDFs, each side drawn with its bleed and handed to `store`."""
    return [store(single_pdf(item.card.piece.front(bleed) if item.side == "face" else item.card.piece.back(bleed),
                             *item.card.size, bleed, item.title)) for item in run]


def manifest_row(file: str, card: Card, side: str, bleed: float, quantity: int, back: str) -> dict[str, object]:
    width, height = card.size
    return {"file": file, "kind": card.kind, "side": side, "deck": card.deck,
            "trim_width_mm": f"{width:g}", "trim_height_mm": f"{height:g}", "bleed_mm": f"{bleed:g}",
            "quantity": quantity, "back": back}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula


def inert(value: object) -> object:
    """A text cell a spreadsheet shows as typed: one that would start a formula (a card titled
    `=cmd|' /C calc'!A0`) gets a leading apostrophe, as spreadsheets themselves write it."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def manifest_csv(rows: list[dict[str, object]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: inert(value) for key, value in row.items()} for row in rows)
    return buffer.getvalue().encode()


@dataclass(frozen=True)
class SheetGrid:
    """One TTS deck sheet: `count` faces in a columns x rows grid of cells of cell_px pixels."""

    columns: int
    rows: int
    count: int

    @classmethod
    def for_count(cls, count: int) -> "SheetGrid":
        columns = max(TTS_MIN_GRID, min(TTS_COLUMNS, count))
        return cls(columns, max(TTS_MIN_GRID, math.ceil(count / columns)), count)


def card_pixels(width: float, height: float, dpi: float) -> tuple[int, int]:
    """Whole pixels per card at `dpi`, lowered if a full 10-wide, 7-high sheet would be too big."""
    dpi = min(dpi, TTS_MAX_PX / (TTS_COLUMNS * width) * 25.4, TTS_MAX_PX / (TTS_ROWS * height) * 25.4)
    return max(1, round(width / 25.4 * dpi)), max(1, round(height / 25.4 * dpi))


def grid_png(drawings: list[Group], grid: SheetGrid, size_mm: tuple[float, float], px: tuple[int, int]) -> bytes:
    """Drawings left to right, top row first, each in its own whole-pixel cell, with the pixels of its
    card drawn alone (output.cellpages)."""
    w, h = size_mm
    pages = [Page([drawing]) for drawing in drawings]
    pdf = write_pdf(Document("sheet.pdf", Paper("card", w, h), pages, "Tabletop Simulator deck sheet"),
                    raster_dpi=px[0] / w * 25.4)
    return sheet_png(pdf, grid.columns, grid.rows, px)


def tts(game_id: str, cards: list[Card], dpi: float = TTS_DPI, spool: Staging | None = None) -> list[Artifact]:
    """Per deck: face sheets (`<deck>-1.png`, ...) and `<deck>-back.png`; `decks.json` describes them.
    A card of quantity 20 appears 20 times; a sheet's spare last cell shows the back, which TTS uses
    as the hidden-card picture."""
    store = spool.keep if spool else in_memory
    out: list[Artifact] = []
    described = []
    named, stems = Stems(), Stems()  # each deck's own stem; tts/'s files, every deck's, one name space
    with progress(sum(c.quantity for c in cards), "Drawing Tabletop Simulator sheets", SECONDS_PER_TTS_CARD) as bar:
        for deck, members in decks(cards).items():
            first = members[0]
            size = first.size
            px = card_pixels(*size, dpi)
            back = first.piece.back(0.0)
            faces = [card for card in members for _ in range(card.quantity)]
            own = named.take(stem(deck, "deck"))
            sheets = []
            for s in range(math.ceil(len(faces) / TTS_PER_SHEET)):
                batch = faces[s * TTS_PER_SHEET:(s + 1) * TTS_PER_SHEET]
                grid = SheetGrid.for_count(len(batch))
                drawings = [card.piece.front(0.0) for card in batch]
                if grid.columns * grid.rows > len(batch):
                    drawings += [Group()] * (grid.columns * grid.rows - len(batch) - 1) + [back]
                name = f"{stems.take(f'{own}-{s + 1}')}.png"
                out.append(artifact(f"{TTS}/{name}", store(grid_png(drawings, grid, size, px)), spool))
                sheets.append({"file": name, "columns": grid.columns, "rows": grid.rows, "count": grid.count,
                               "cards": [card.name for card in batch]})
                bar.update(len(batch))
            back_name = f"{stems.take(back_stem(own, '{}-back'))}.png"
            out.append(artifact(f"{TTS}/{back_name}", store(grid_png([back], SheetGrid(1, 1, 1), size, px)), spool))
            described.append({"deck": deck, "kind": first.kind, "card_mm": list(size), "card_px": list(px),
                              "back": back_name, "sheets": sheets})
    data = {"game": game_id, "note": "In Tabletop Simulator: Objects > Components > Cards > Custom Deck; "
            "give it a sheet as Face, the deck's back as Back, and the sheet's columns, rows and count.",
            "decks": described}
    out.append(Artifact(f"{TTS}/decks.json", (json.dumps(data, indent=2) + "\n").encode()))
    return out
