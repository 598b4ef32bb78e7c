"""The rules' race picture: the first three tiles of 'A race, step by step', one panel a step, drawn
from white's seat as the placing picture draws tiles; each step's new tile is outlined in the
accent. Each new tile is checked against conditions 2 and 3, so the picture cannot show a move the
rules forbid. Millimetres, y up."""
from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Group
from reportlab.lib.colors import Color

from printgen.core.paper import PT_PER_MM, font_mm, pt
from printgen.drawing import fonts
from printgen.drawing import style as house
from printgen.drawing.picture import rect, text
from printgen.games.omiga.model import Omiga
from printgen.games.omiga.placing import EMPTY, neighbours, tile

Cell = tuple[int, int]  # (column, row); row 0 is white's side, nearer white's seat
STEPS: tuple[tuple[str, str, Cell], ...] = (  # caption, whose tile, where it goes
    ("1. The start", "black", (0, 1)),
    ("2. White lays", "white", (1, 0)),
    ("3. Black lays", "black", (1, 1)),
)
START: dict[Cell, str] = {(0, 0): "white"}  # white's first tile, in the middle
COLUMNS, ROWS = 3, 2  # the spaces each panel shows
CELL = 8.0  # mm: one tile's square; three panels fit a rules column at full size
PANEL_GAP = 6.0  # mm between panels
CAPTION_GAP = 1.5  # mm between a panel and its caption's cap height
DESCENT = 0.25  # of the caption's size: room under its baseline
NEW_LINE = 0.6  # mm: the outline of the step's new tile (none at the start: both tiles are given)


def may_lay(board: dict[Cell, str], cell: Cell, deck: str) -> bool:
    """Conditions 2 and 3 (the forms and colours are taken to agree): a full edge with a tile of
    one's own, and an edge or a corner with the opponent's."""
    own = {c for c, d in board.items() if d == deck}
    theirs = set(board) - own
    return cell not in board and bool(neighbours(cell, False) & own) and bool(neighbours(cell, True) & theirs)


def boards() -> list[tuple[str, dict[Cell, str], Cell]]:
    """Each step's caption, the tiles on the table after it, and its new tile; the start's black
    tile only joins white's, as setting up has it, and every later one keeps conditions 2 and 3."""
    board, shown = dict(START), []
    for k, (caption, deck, cell) in enumerate(STEPS):
        if k and not may_lay(board, cell, deck):
            raise ValueError(f"the race picture's step {caption!r} breaks the rules")
        board[cell] = deck
        shown.append((caption, dict(board), cell))
    return shown


def race_drawing(defn: Omiga, width: float, ink: Color) -> Drawing:
    """The three panels side by side, each captioned; the tiles made smaller, never larger, when the
    column is narrower, the captions never (they stay at the house's small size)."""
    looks = defn.looks()
    scale = min(1.0, width / (len(STEPS) * COLUMNS * CELL + (len(STEPS) - 1) * PANEL_GAP))
    cell, gap, size = CELL * scale, PANEL_GAP * scale, house.SMALL_PT
    depth = cell * defn.card.band / defn.card.height
    foot = DESCENT * font_mm(size)  # the captions' baseline
    low = foot + font_mm(size) + CAPTION_GAP  # the panels' foot
    art = Group()
    for k, (caption, board, new) in enumerate(boards()):
        x0 = k * (COLUMNS * cell + gap)
        for column in range(COLUMNS):
            for row in range(ROWS):
                art.add(rect(x0 + column * cell, low + row * cell, cell, cell, stroke=EMPTY, stroke_width=0.2))
        for (column, row), deck in board.items():
            look = looks.white if deck == "white" else looks.black
            art.add(tile(x0 + column * cell, low + row * cell, cell, look, depth))
        if k:
            column, row = new
            art.add(rect(x0 + column * cell, low + row * cell, cell, cell, stroke=ink, stroke_width=NEW_LINE))
        art.add(text(x0, foot, caption, size, fonts.REGULAR))
    full = len(STEPS) * COLUMNS * cell + (len(STEPS) - 1) * gap
    drawing = Drawing(pt(full), pt(low + ROWS * cell))
    drawing.add(Group(art, transform=(PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
    return drawing
