"""A picture of one simulated end position, drawn from white's seat, last tile outlined."""
from __future__ import annotations

from reportlab.graphics.shapes import Group, translate
from reportlab.lib.colors import HexColor

from printgen.art.library import template_folders
from printgen.drawing import fonts
from printgen.core.paper import Paper
from printgen.drawing.picture import placed, rect, text, turned
from printgen.drawing.document import Document, Page
from printgen.games.omiga.model import DECKS, Omiga
from printgen.games.omiga.simulation import Record
from printgen.games.omiga.tile import TileArt, tile_art

MARGIN = 12.0  # mm around the table
CAPTION = 12.0  # mm above the table for the caption
BOARD_DPI = 50
ENDINGS = {
    "white_behind": "white won by placing a tile behind a black tile",
    "white_edge": "white won by reaching the far edge",
    "black_behind": "black won by placing a tile behind a white tile",
    "black_edge": "black won by reaching the far edge",
    "draw_edges": "drawn: both players reached both side edges",
    "draw_out": "drawn: a player's last tiles fit nowhere",
    "stall": "stalled: neither player could ever place again",
    "no_start": "no start: black had no tile to answer white's opening",
}


def board(defn: Omiga, record: Record, heading: str, art: TileArt) -> tuple[Group, float, float]:
    w, h = defn.card.width, defn.card.height
    width = record.columns * w + 2 * MARGIN
    height = record.rows * h + 2 * MARGIN + CAPTION
    group = Group()
    group.add(rect(0, 0, width, height, fill=HexColor("#ffffff")))
    group.add(rect(MARGIN, MARGIN, record.columns * w, record.rows * h, fill=HexColor("#d9d2c3")))
    lines = HexColor("#c4bba8")
    for c in range(1, record.columns):
        group.add(rect(MARGIN + c * w - 0.15, MARGIN, 0.3, record.rows * h, fill=lines))
    for r in range(1, record.rows):
        group.add(rect(MARGIN, MARGIN + r * h - 0.15, record.columns * w, 0.3, fill=lines))
    for p in record.placements:
        face = art.face(DECKS[p.deck], p.tile, 0.0, True)  # as it lies: black's tiles face their owner
        on_table = turned(face, w, h) if DECKS[p.deck] == "black" else placed(face, (1, 0, 0, 1, 0, 0))
        group.add(placed(on_table, translate(MARGIN + p.column * w, MARGIN + p.row * h)))
    if record.placements:
        last = record.placements[-1]
        group.add(rect(MARGIN + last.column * w, MARGIN + last.row * h, w, h,
                       stroke=HexColor("#d62728"), stroke_width=1.2))
    top = MARGIN + record.rows * h
    group.add(text(MARGIN, top + 4, heading, 16, fonts.BOLD))
    group.add(text(width / 2, MARGIN / 2 - 1.5, "white's edge", 11, anchor="middle"))
    group.add(text(width - MARGIN, top + 4, "black's edge is the top of the table", 11, anchor="end"))
    return group, width, height


def board_documents(defn: Omiga, record: Record, seed: int, game: int) -> list[Document]:
    """board.svg and board.png of the end position of game `game`, tiles from the face template."""
    moves = max(len(record.placements) - 2, 0)
    title = (f"{defn.title}, seed {seed}, game {game + 1}: {ENDINGS[record.outcome]} "
             f"after {moves} placement{'s' * (moves != 1)}")
    group, width, height = board(defn, record, title, tile_art(defn, template_folders(defn.templates)))
    size = Paper("board", width, height)
    return [Document("board.svg", size, [Page([group])], title),
            Document("board.png", size, [Page([group])], f"{defn.title} board", dpi=BOARD_DPI)]
