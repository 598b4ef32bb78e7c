"""Army sheets at the foot of the rulebook's last rules page, one per player for each game the
room holds, to count hits on fighters that survive several. A sheet has a line for each fighter
the largest army can hold (the budget spent on the cheapest size), no more."""
from __future__ import annotations

from math import floor

from reportlab.graphics.shapes import Group, Line, Rect
from reportlab.lib.colors import HexColor, black

from printgen.drawing import fonts
from printgen.drawing import style as house
from printgen.core.paper import font_mm
from printgen.drawing.picture import text, wrap
from printgen.games.quick_violence.model import QuickViolence

Box = tuple[float, float, float, float]  # x, y, w, h in mm

HEADING_PT = 10
NOTE_PT = 7.5
SMALL_PT = house.SMALL_PT  # the house small size, as the footer under it
ROW = 6.5  # mm a line at the least: room to write a name by hand (a game more fits at this)
MAX_ROW = 10.0  # mm: lines grow up to this to fill the band, rather than leave its foot blank
MIN_ROWS = 2  # the least worth printing, so a page never ends in over 40 mm of blank
SHEET_GAP = 5.0  # mm between one game's sheet and the next in a column
BOX = 3.2  # a hit box's side
BOX_GAP = 1.2
HEADING_DROP = 4.5  # from the band's top to the heading's baseline
HEAD_ROOM = 8.5  # from the band's top to the first note line's baseline
NOTE_LEAD = 3.2
NOTE_GAP = 2.5  # from the last note line's baseline to the top of the sheets
TABLE_HEAD = 9.0  # the player's line and the column names, above the first row
RULE = HexColor("#999999")
SOFT = HexColor("#555555")


def note(defn: QuickViolence) -> str:
    """How to fill the sheets in, with the damage points from the definition."""
    points = ", ".join(f"{size} {fighter.damage}" for size, fighter in defn.fighters.by_size())
    return (f"One sheet per player and game: circle each fighter's size, tick a box per hit; it dies "
            f"at its damage points ({points}).")


def note_lines(defn: QuickViolence, width: float) -> list[str]:
    return wrap(note(defn), fonts.REGULAR, NOTE_PT, width)


def height_needed(defn: QuickViolence, width: float) -> float:
    """The band's height for MIN_ROWS lines a player: below that, the sheets are left out."""
    rows = min(MIN_ROWS, most_fighters(defn))
    return HEAD_ROOM + (len(note_lines(defn, width)) - 1) * NOTE_LEAD + NOTE_GAP + TABLE_HEAD + rows * ROW


def most_fighters(defn: QuickViolence) -> int:
    """The most fighters an army can field: the whole budget spent on the cheapest size."""
    return defn.army_budget // min(fighter.cost for _, fighter in defn.fighters.by_size())


def army_sheets(defn: QuickViolence, band: Box, columns: list[Box]) -> Group:
    """The heading and note across the band, then in each column one player's sheet for each game
    that fits, its lines as tall as fills the band (up to MAX_ROW)."""
    x, y, w, h = band
    group = Group()
    group.add(text(x, y + h - HEADING_DROP, "Army sheets", HEADING_PT, fonts.BOLD,
                   fill=HexColor(defn.reference.accent)))  # in the accent, as every heading above it
    lines = note_lines(defn, w)
    base = y + h - HEAD_ROOM
    for k, line in enumerate(lines):
        group.add(text(x, base - k * NOTE_LEAD, line, NOTE_PT, fill=SOFT))
    top = base - (len(lines) - 1) * NOTE_LEAD - NOTE_GAP
    room = top - y
    rows = min(most_fighters(defn), floor((room - TABLE_HEAD) / ROW))
    games = max(1, floor((room + SHEET_GAP) / (TABLE_HEAD + rows * ROW + SHEET_GAP)))
    row = min(MAX_ROW, (room - games * TABLE_HEAD - (games - 1) * SHEET_GAP) / (games * rows))
    step = TABLE_HEAD + rows * row + SHEET_GAP
    for cx, _, cw, _ in columns:
        for game in range(games):
            group.add(player_sheet(defn, cx, top - game * step, cw, rows, row, game + 1 if games > 1 else 0))
    return group


def player_sheet(defn: QuickViolence, x: float, top: float, width: float, rows: int, row: float = ROW,
                 game: int = 0) -> Group:
    """One player's name and points (and which game, when there are several), then `rows` lines
    `row` mm tall of fighter, size and hit boxes."""
    hits = max(fighter.damage for _, fighter in defn.fighters.by_size())
    boxes = hits * BOX + (hits - 1) * BOX_GAP
    left = x + width - boxes
    size_x = left - 4.0 - fonts.text_width("   ".join(SIZE_WORDS), fonts.REGULAR, font_mm(SMALL_PT))
    group = Group()
    player = f"Game {game} \u00b7 Player" if game else "Player"
    start = x + fonts.text_width(player, fonts.BOLD, font_mm(SMALL_PT)) + 1.0
    group.add(text(x, top - 2.6, player, SMALL_PT, fonts.BOLD))
    group.add(Line(start, top - 3.0, x + width * 0.55, top - 3.0, strokeColor=RULE, strokeWidth=0.2))
    group.add(text(x + width, top - 2.6, f"points spent ______ of {defn.army_budget}", SMALL_PT,
                   anchor="end"))
    head = top - TABLE_HEAD
    for at, word in ((x, "Fighter"), (size_x, "Size"), (left, "Hits")):
        group.add(text(at, head + 1.2, word, SMALL_PT, fonts.BOLD, fill=SOFT))
    group.add(Line(x, head, x + width, head, strokeColor=black, strokeWidth=0.4, strokeLineCap=0))
    for k in range(1, rows + 1):
        group.add(fighter_line(x, head - k * row, width, size_x, left, hits, row))
    return group


SIZE_WORDS = ("S", "M", "L")  # small, medium, large: the letters a player circles


def fighter_line(x: float, y: float, width: float, size_x: float, left: float, hits: int,
                 row: float = ROW) -> Group:
    """A line to write on, the size letters to circle and the hit boxes from `left`, with its rule at y."""
    group = Group()
    group.add(Line(x, y, x + width, y, strokeColor=RULE, strokeWidth=0.2, strokeLineCap=0))
    middle = y + row / 2 - 1.0
    group.add(text(size_x, middle, "   ".join(SIZE_WORDS), SMALL_PT, fill=SOFT))
    for n in range(hits):
        group.add(Rect(left + n * (BOX + BOX_GAP), y + (row - BOX) / 2, BOX, BOX, fillColor=None,
                       strokeColor=SOFT, strokeWidth=0.25))
    return group
