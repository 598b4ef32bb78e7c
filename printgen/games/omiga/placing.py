"""The rules' placing picture: a few tiles seen from white's seat, drawn as plain squares in the
decks' own colours, and the spaces where white may lay ticked, worked out from conditions 2 and 3
so the picture can never disagree with the words. Millimetres, y up."""
from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Group, Line, PolyLine
from reportlab.lib.colors import Color, HexColor

from printgen.core.paper import PT_PER_MM, font_mm, pt
from printgen.drawing import fonts
from printgen.drawing import style as house
from printgen.drawing.picture import rect, text
from printgen.games.omiga.model import DeckLook, Omiga

CELL = 9.0  # mm: one tile's square in the picture
COLUMNS, ROWS = range(-1, 3), range(0, 2)  # the spaces beside the four tiles
WHITE, BLACK = ((0, 0), (1, 0)), ((0, 1), (1, 1))  # white's row nearer white's seat (the foot)
KEY_GAP = 5.0  # mm between the grid and its key
SWATCH = 4.5  # mm: a key entry's little tile
LINE = 0.25  # mm: tile outlines
LABEL_GAP = 1.5  # mm between a key's little tile and its words
CAP = 0.73  # the font's cap height, of its size: a label centred on its little tile
EMPTY = HexColor("#c8c8c8")  # the table's empty spaces, a faint outline
OUTLINE = HexColor("#575757")


def neighbours(cell: tuple[int, int], corners: bool) -> set[tuple[int, int]]:
    x, y = cell
    steps = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0) and (corners or not dx * dy)]
    return {(x + dx, y + dy) for dx, dy in steps}


def white_may_lay() -> list[tuple[int, int]]:
    """Empty spaces of the picture that share an edge with a white tile (condition 2) and meet a
    black one by an edge or a corner (condition 3); the forms and colours are taken to agree."""
    taken = set(WHITE) | set(BLACK)
    return [(x, y) for y in ROWS for x in COLUMNS if (x, y) not in taken
            and neighbours((x, y), False) & set(WHITE) and neighbours((x, y), True) & set(BLACK)]


def tile(x: float, y: float, size: float, look: DeckLook, depth: float) -> Group:
    """A tile as a square: its deck's face, its bands at the top and bottom, its hatch if any."""
    group = Group(rect(x, y, size, size, fill=HexColor(look.face)))
    if look.hatch:
        pitch = size / 5
        for t in (k * pitch for k in range(5)):  # 45 degree lines, each cut at the square's sides
            group.add(Line(x + t, y, x + size, y + size - t, strokeColor=HexColor(look.hatch), strokeWidth=0.15))
            if t:
                group.add(Line(x, y + t, x + size - t, y + size, strokeColor=HexColor(look.hatch), strokeWidth=0.15))
    group.add(rect(x, y, size, depth, fill=HexColor(look.band)))
    group.add(rect(x, y + size - depth, size, depth, fill=HexColor(look.band)))
    group.add(rect(x, y, size, size, stroke=OUTLINE, stroke_width=LINE))
    return group


def tick(x: float, y: float, size: float, ink: Color) -> PolyLine:
    points = [(0.25, 0.52), (0.43, 0.32), (0.76, 0.74)]
    return PolyLine([v for px, py in points for v in (x + px * size, y + py * size)], strokeColor=ink,
                    strokeWidth=size * 0.09, strokeLineCap=1, strokeLineJoin=1)


def placing_drawing(defn: Omiga, width: float, ink: Color) -> Drawing:
    """The grid of spaces with its four tiles and white's spaces ticked in `ink` (the rules' accent),
    and a key beside it; the whole made smaller, never larger, when the column is narrower."""
    looks = defn.looks()
    depth = CELL * defn.card.band / defn.card.height
    grid = Group()
    for y in ROWS:
        for x in COLUMNS:
            grid.add(rect((x - COLUMNS[0]) * CELL, (y - ROWS[0]) * CELL, CELL, CELL, stroke=EMPTY, stroke_width=0.2))
    for cells, look in ((WHITE, looks.white), (BLACK, looks.black)):
        for x, y in cells:
            grid.add(tile((x - COLUMNS[0]) * CELL, (y - ROWS[0]) * CELL, CELL, look, depth))
    for x, y in white_may_lay():
        grid.add(tick((x - COLUMNS[0]) * CELL, (y - ROWS[0]) * CELL, CELL, ink))
    key_x, size = len(COLUMNS) * CELL + KEY_GAP, house.SMALL_PT
    entries: list[tuple[str, Group | PolyLine]] = [
        ("white's tile", tile(key_x, 0, SWATCH, looks.white, depth * SWATCH / CELL)),
        ("black's tile", tile(key_x, 0, SWATCH, looks.black, depth * SWATCH / CELL)),
        ("white may lay here", tick(key_x, 0, SWATCH, ink))]
    height = len(ROWS) * CELL
    step = height / len(entries)
    key = Group()
    for k, (words, swatch) in enumerate(entries):
        low = height - (k + 1) * step + (step - SWATCH) / 2  # the little tile's foot
        key.add(Group(swatch, transform=(1, 0, 0, 1, 0, low)))
        key.add(text(key_x + SWATCH + LABEL_GAP, low + SWATCH / 2 - CAP * font_mm(size) / 2, words, size))
    full = key_x + SWATCH + LABEL_GAP + max(fonts.text_width(w, fonts.REGULAR, font_mm(size)) for w, _ in entries)
    scale = min(1.0, width / full)
    drawing = Drawing(pt(full * scale), pt(height * scale))
    drawing.initialFontName = fonts.REGULAR  # else reportlab sets its Helvetica first, a font not embedded
    drawing.add(Group(grid, key, transform=(PT_PER_MM * scale, 0, 0, PT_PER_MM * scale, 0, 0)))
    return drawing
