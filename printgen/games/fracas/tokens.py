"""The Fracas life-token sheet: each player's tokens in a block of their colour, with cut lines.

Why tokens rather than a 0-20 life tracker: in Fracas lost life is not just subtracted, it moves
into a pot that the player with more tokens wins when a deck runs out, and the next game starts
from the tokens each player kept. Tokens you can push across the table model that directly; a
tracker would need a third dial for the pot and sums at every skirmish.

Tokens are squares in a grid, so one straight cut serves two tokens. The block's colour runs 1 mm
past its outer cut lines (bleed), so a cut a little off the line leaves no white sliver.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from reportlab.graphics.shapes import Circle, Group
from reportlab.lib.colors import Color, white

from printgen.drawing import fonts
from printgen.art.library import art_of
from printgen.core.paper import Paper, font_mm
from printgen.drawing.picture import CUT, colour, guide, rect, text, tint
from printgen.drawing.document import Located, Page
from printgen.games.fracas.model import Fracas, Player

MARGIN = 8.0  # mm from the paper edge to the title and the cut lines' ends
BLOCK_GAP = 12.0  # mm between the two players' blocks
OVERSHOOT = 3.0  # mm the cut lines run past the block, so each cut is easy to start
BLEED = 1.0  # mm of colour past the outer cut lines
HEADER = 24.0  # mm from the top margin to the top of the blocks (title, note, block labels)
NAME_PT = 7.0
POT_MIN = 40.0  # mm: below this much free height the pot mat is left out
TOKEN_PAD = 2.0  # mm kept clear inside a token's cut lines: round its image, below and beside its name
TOKEN_ART_BOTTOM = 4.5  # mm: a token's image starts above the owner's name (its 7 pt glyph boxes reach 4.47)



@dataclass(frozen=True)
class TokenLayout:
    """Where the blocks go on the page, in mm (y up)."""

    size: float
    columns: int
    rows: int
    count: int
    left: float  # x of the first block
    top: float  # y of the blocks' top edge

    @property
    def block_width(self) -> float:
        return self.columns * self.size

    @property
    def block_height(self) -> float:
        return self.rows * self.size

    def block_x(self, i: int) -> float:
        return self.left + i * (self.block_width + BLOCK_GAP)

    def cells(self) -> list[tuple[int, int]]:
        """(row, column) of each token, row 0 at the top."""
        return [(k // self.columns, k % self.columns) for k in range(self.count)]


def plan(defn: Fracas, paper: Paper) -> tuple[TokenLayout, Located]:
    """Lay the two blocks side by side; anything that cannot fit is a located problem."""
    size, columns = defn.tokens.size, min(defn.tokens.columns, defn.life)
    rows = ceil(defn.life / columns)
    width = 2 * columns * size + BLOCK_GAP
    room_w = paper.width - 2 * (MARGIN + OVERSHOOT)
    room_h = paper.height - 2 * MARGIN - HEADER - OVERSHOOT
    problems: Located = []
    if width > room_w:
        problems.append((("tokens", "columns"), (
            f"two blocks of {columns} tokens of {size:g} mm are {width:.0f} mm wide and {paper.name} "
            f"paper has room for {room_w:.0f} mm; use fewer columns or a smaller tokens.size")))
    if rows * size > room_h:
        problems.append((("tokens", "size"), (
            f"{defn.life} tokens in rows of {columns} need {rows * size:.0f} mm of height and "
            f"{paper.name} paper has room for {room_h:.0f} mm; use more columns or a smaller size")))
    for i, player in enumerate(defn.players):
        need = fonts.text_width(player.name, fonts.BOLD, font_mm(NAME_PT)) + 2 * TOKEN_PAD
        if need > size:
            problems.append((("players", i, "name"), (
                f"the name '{player.name}' needs {need:.0f} mm on a {size:g} mm life token; "
                f"shorten it or enlarge tokens.size")))
    layout = TokenLayout(size, columns, rows, defn.life, (paper.width - width) / 2,
                         paper.height - MARGIN - HEADER)
    return layout, problems


def token(player: Player, size: float) -> Group:
    """One token in its own size x size box: a ring and the value 1 (or the player's own
    `token_image`, as large as fits above the name), and the owner's name, its glyphs' boxes
    TOKEN_PAD inside the bottom cut."""
    ink = colour(player.colour)
    group = Group()
    image = art_of(player.token_image)
    if image is not None:
        group.add(image.shape(TOKEN_PAD, TOKEN_ART_BOTTOM, size - 2 * TOKEN_PAD,
                              size - TOKEN_ART_BOTTOM - TOKEN_PAD))
    else:
        centre = size / 2 + 2.0
        group.add(Circle(size / 2, centre, size * 0.32, fillColor=white, strokeColor=ink, strokeWidth=0.6))
        number = size * 0.72  # pt
        group.add(text(size / 2, centre - font_mm(number) * 0.36, "1", number, fonts.BOLD,
                       anchor="middle", fill=ink))
    baseline = TOKEN_PAD + fonts.descent(fonts.BOLD, font_mm(NAME_PT))
    group.add(text(size / 2, baseline, player.name, NAME_PT, fonts.BOLD, anchor="middle", fill=ink))
    return group


def block(player: Player, layout: TokenLayout, x: float, bleed: float = BLEED) -> Group:
    """One player's tokens, the colour behind them (`bleed` mm past the outer cut lines), and the
    dashed grid to cut them apart."""
    s, top = layout.size, layout.top
    group = Group()
    ink = colour(player.colour)
    for row, col in layout.cells():
        cx, cy = x + col * s, top - (row + 1) * s
        pad = [bleed if edge else 0 for edge in (col == 0, row == layout.rows - 1 or not
                                                 has(layout, row + 1, col),
                                                 col == layout.columns - 1 or not has(layout, row, col + 1),
                                                 row == 0)]
        group.add(rect(cx - pad[0], cy - pad[1], s + pad[0] + pad[2], s + pad[1] + pad[3],
                       fill=tint(ink, 0.8)))
    for row, col in layout.cells():
        cx, cy = x + col * s, top - (row + 1) * s
        moved = Group(token(player, s), transform=(1, 0, 0, 1, cx, cy))
        group.add(moved)
    for x1, y1, x2, y2 in cut_lines(layout, x):
        group.add(guide(x1, y1, x2, y2, CUT))
    label_y = top + max(OVERSHOOT, bleed) + 1.5  # clear of the cut lines' ends and of the colour
    group.add(text(x, label_y, f"{player.name}: {layout.count} life tokens", 9, fonts.BOLD,
                   fill=ink))
    return group


def has(layout: TokenLayout, row: int, col: int) -> bool:
    return 0 <= col < layout.columns and 0 <= row and row * layout.columns + col < layout.count


def cut_lines(layout: TokenLayout, x: float) -> list[tuple[float, float, float, float]]:
    """One straight dashed line per grid line, running OVERSHOOT past the outermost tokens."""
    s, top, o = layout.size, layout.top, OVERSHOOT
    lines = []
    for k in range(layout.rows + 1):  # horizontal line k, k rows below the top
        cols = [c for c in range(layout.columns) if has(layout, k - 1, c) or has(layout, k, c)]
        y = top - k * s
        lines.append((x + min(cols) * s - o, y, x + (max(cols) + 1) * s + o, y))
    for j in range(layout.columns + 1):  # vertical line j, j tokens from the left
        rows = [r for r in range(layout.rows) if has(layout, r, j - 1) or has(layout, r, j)]
        lines.append((x + j * s, top - (max(rows) + 1) * s - o, x + j * s, top + o))
    return lines


def pot(layout: TokenLayout, paper: Paper, accent: Color) -> Group:
    """A mat for the pot, in the room left under the tokens (left out if there is too little)."""
    group = Group()
    top = layout.top - layout.block_height - OVERSHOOT - 8
    height = min(top - MARGIN, 90.0)
    if height < POT_MIN:
        return group
    width = 2 * layout.block_width + BLOCK_GAP
    x, y = layout.left, top - height
    group.add(rect(x, y, width, height, stroke=accent, stroke_width=0.5, radius=4))
    group.add(text(x + width / 2, y + height / 2 + 2, "THE POT", 16, fonts.BOLD, anchor="middle",
                   fill=tint(accent, 0.45)))
    group.add(text(x + width / 2, y + height / 2 - 5, "Life lost to unblocked attacks waits here.", 9,
                   anchor="middle"))
    group.add(text(x + width / 2, y + height / 2 - 10, "When a deck runs out, the player with more "
                   "tokens takes it all.", 9, anchor="middle"))
    return group


def token_page(defn: Fracas, layout: TokenLayout, paper: Paper, bleed: float = BLEED) -> Page:
    """The whole page: title, a how-to line, both blocks and the pot mat. The TrimBox spans both
    blocks' cut lines and the BleedBox lies `bleed` mm outside it."""
    shapes = Group()
    title_y = paper.height - MARGIN - 6
    shapes.add(text(MARGIN, title_y, f"{defn.title}: life tokens", 16, fonts.BOLD))
    shapes.add(text(MARGIN, title_y - 7, "Print single-sided at actual size, on card if you can. "
                    "Cut along the dashed lines; each token is one life point.", 8.5))
    for i, player in enumerate(defn.players):
        shapes.add(block(player, layout, layout.block_x(i), bleed))
    shapes.add(pot(layout, paper, colour(defn.reference.accent)))
    right = layout.block_x(len(defn.players) - 1) + layout.block_width
    trim = (layout.left, layout.top - layout.block_height, right, layout.top)
    bleed_box = (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed)
    return Page(shapes=[shapes], trim_box=trim, bleed_box=bleed_box)
