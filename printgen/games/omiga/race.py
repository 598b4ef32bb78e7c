"""The rules' race picture: 'A race, step by step' one panel a step (the start, white's tile, black's,
and a few tiles later the space where black can win), drawn from white's seat as the placing
picture draws tiles; the tiles each step lays are outlined in the accent, the winning space ticked.
Every tile is checked against conditions 2 and 3, so the picture cannot show a move the rules
forbid. Millimetres, y up."""
from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Group
from reportlab.lib.colors import Color

from printgen.core.paper import PT_PER_MM, font_mm, pt
from printgen.drawing import fonts
from printgen.drawing import style as house
from printgen.drawing.picture import rect, text
from printgen.games.omiga.model import Omiga
from printgen.games.omiga.placing import EMPTY, neighbours, tick, tile

Cell = tuple[int, int]  # (column, row); row 0 is white's side of the start, nearer white's seat
START: dict[Cell, str] = {(0, 0): "white"}  # white's first tile, in the middle
STEPS: tuple[tuple[str, tuple[tuple[str, Cell], ...], Cell | None], ...] = (  # caption, tiles laid, the space to aim for
    ("1. The start", (("black", (0, 1)),), None),
    ("2. White lays", (("white", (1, 0)),), None),
    ("3. Black lays", (("black", (1, 1)),), None),
    # black works round white's new tile; the space below it is behind it as black sees it
    ("4. The danger", (("black", (2, 1)), ("black", (2, 0)), ("black", (2, -1))), (1, -1)),
)
COLUMNS, ROWS = range(0, 3), range(-1, 2)  # the spaces each panel shows
PANEL_GAP = 4.0  # mm between panels
CAPTION_GAP = 1.5  # mm between a panel and its caption's cap height
DESCENT = 0.25  # of the caption's size: room under its baseline
NEW_LINE = 0.6  # mm: the outline of each tile the step lays (none at the start: both tiles are given)
LAYOUTS = ((2, 7.5), (4, 6.5), (4, 5.0))  # panels a row and mm a tile: the largest that fits first


def may_lay(board: dict[Cell, str], cell: Cell, deck: str) -> bool:
    """Conditions 2 and 3 (the forms and colours are taken to agree): a full edge with a tile of
    one's own, and an edge or a corner with the opponent's."""
    own = {c for c, d in board.items() if d == deck}
    theirs = set(board) - own
    return cell not in board and bool(neighbours(cell, False) & own) and bool(neighbours(cell, True) & theirs)


def behind(cell: Cell, deck: str) -> Cell:
    """The space behind a tile as its opponent sees it: towards the tile's owner's seat."""
    column, row = cell
    return (column, row - 1) if deck == "white" else (column, row + 1)


def boards() -> list[tuple[str, dict[Cell, str], list[Cell], Cell | None]]:
    """Each step's caption, the tiles on the table after it, the tiles it laid and the space it
    points at. Every tile after the start keeps conditions 2 and 3, and the last step's space is
    behind a white tile and open to black: the picture cannot show a move the rules forbid."""
    board, shown = dict(START), []
    for k, (caption, laid, aim) in enumerate(STEPS):
        for deck, cell in laid:
            if k and not may_lay(board, cell, deck):
                raise ValueError(f"the race picture's step {caption!r} breaks the rules")
            board[cell] = deck
        if aim is not None and not (may_lay(board, aim, "black") and any(
                behind(cell, deck) == aim for cell, deck in board.items() if deck == "white")):
            raise ValueError(f"the race picture's step {caption!r} points at a space black cannot win on")
        shown.append((caption, dict(board), [cell for _, cell in laid] if k else [], aim))
    return shown


def pitch(cell: float) -> float:
    """A panel's width (mm): its spaces, or its caption where that is wider, and the gap after it."""
    widest = max(fonts.text_width(words, fonts.REGULAR, font_mm(house.SMALL_PT)) for words, _, _ in STEPS)
    return max(len(COLUMNS) * cell, widest) + PANEL_GAP


def race_size(per_row: int, cell: float) -> tuple[float, float]:
    """The picture's width and height (mm) with `per_row` panels a row and tiles `cell` mm wide."""
    rows = -(-len(STEPS) // per_row)
    caption = font_mm(house.SMALL_PT) * (1 + DESCENT) + CAPTION_GAP
    return (per_row * pitch(cell) - PANEL_GAP, rows * (len(ROWS) * cell + caption) + (rows - 1) * PANEL_GAP)


def race_drawing(defn: Omiga, width: float, ink: Color, per_row: int = 4, cell: float = 6.5) -> Drawing:
    """The panels, `per_row` a row, each captioned; the tiles made smaller, never larger, when the
    column is narrower, the captions never (they stay at the house's small size)."""
    looks = defn.looks()
    if race_size(per_row, 0.0)[0] > width:  # the captions alone are too wide for a row: two a row
        per_row = 2
    cell = min(cell, ((width + PANEL_GAP) / per_row - PANEL_GAP) / len(COLUMNS))  # the captions keep their size
    size = house.SMALL_PT
    full, height = race_size(per_row, cell)
    foot = DESCENT * font_mm(size)  # a caption's baseline above its panel's foot
    caption = font_mm(size) * (1 + DESCENT) + CAPTION_GAP
    step, panel_h = pitch(cell), len(ROWS) * cell + caption
    depth = cell * defn.card.band / defn.card.height
    art = Group()
    for k, (words, board, laid, aim) in enumerate(boards()):
        row_of, place = divmod(k, per_row)
        x0, y0 = place * step, height - (row_of + 1) * panel_h - row_of * PANEL_GAP

        def at(spot: Cell) -> tuple[float, float]:
            return x0 + (spot[0] - COLUMNS[0]) * cell, y0 + caption + (spot[1] - ROWS[0]) * cell
        for column in COLUMNS:
            for row in ROWS:
                art.add(rect(*at((column, row)), cell, cell, stroke=EMPTY, stroke_width=0.2))
        for spot, deck in board.items():
            art.add(tile(*at(spot), cell, looks.white if deck == "white" else looks.black, depth))
        for spot in laid:
            art.add(rect(*at(spot), cell, cell, stroke=ink, stroke_width=NEW_LINE))
        if aim is not None:
            art.add(tick(*at(aim), cell, ink))
        art.add(text(x0, y0 + foot, words, size, fonts.REGULAR))
    drawing = Drawing(pt(full), pt(height))
    drawing.initialFontName = fonts.REGULAR  # else reportlab sets its Helvetica first, a font not embedded
    drawing.add(Group(art, transform=(PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
    return drawing
