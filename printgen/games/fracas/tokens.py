"""The Fracas life-token sheet: each player's tokens in a block of their colour, with cut lines.

Tokens, not a tracker, because lost life moves into a pot that is won later. Square tokens share
cuts, and the colour bleeds 2 mm past the outer cuts so a slightly-off cut leaves no sliver."""
from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from reportlab.graphics.shapes import Group, translate

from printgen.drawing import fonts
from printgen.drawing import style as house
from printgen.core.paper import Paper, font_mm
from printgen.drawing.picture import CUT, colour, guide, placed, text
from printgen.drawing.document import Located, Page
from printgen.games.fracas.model import Fracas, token_values
from printgen.games.fracas.piece_art import NAME_PT, TOKEN_PAD, Edges, PieceArt

MARGIN = 8.0  # mm from the paper edge to the title and the cut lines' ends
BLOCK_GAP = 12.0  # mm between the two players' blocks
OVERSHOOT = 3.0  # mm the cut lines run past the block, so each cut is easy to start
BLEED = 2.0  # mm of colour past the outer cut lines, as for every other piece
HEADER = 24.0  # mm from the top margin to the top of the blocks (title, note, block labels)
POT_MIN = 40.0  # mm: below this much free height the pot mat is left out
FOOT = house.FOOTER_Y + 6.0  # mm from the paper's foot kept for the running footer
TITLE_PT = house.TITLE_PT  # a component sheet titled as every rulebook and reference is


@dataclass(frozen=True)
class TokenLayout:
    """Where the blocks go on the page, in mm (y up)."""

    size: float
    columns: int
    rows: int
    values: tuple[int, ...]  # what each of one player's tokens is worth, in sheet order
    left: float  # x of the first block
    top: float  # y of the blocks' top edge

    @property
    def count(self) -> int:
        return len(self.values)

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
    values = tuple(token_values(defn))
    size, columns = defn.tokens.size, min(defn.tokens.columns, len(values))
    rows = ceil(len(values) / columns)
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
            f"{len(values)} tokens in rows of {columns} need {rows * size:.0f} mm of height and "
            f"{paper.name} paper has room for {room_h:.0f} mm; use more columns or a smaller size")))
    for i, player in enumerate(defn.players):
        need = fonts.text_width(player.name, fonts.BOLD, font_mm(NAME_PT)) + 2 * TOKEN_PAD
        if need > size:
            problems.append((("players", i, "name"), (
                f"the name '{player.name}' needs {need:.0f} mm on a {size:g} mm life token; "
                f"shorten it or enlarge tokens.size")))
    layout = TokenLayout(size, columns, rows, values, (paper.width - width) / 2,
                         paper.height - MARGIN - HEADER)
    return layout, problems


def edges(layout: TokenLayout, row: int, col: int, bleed: float) -> Edges:
    """The bleed past each cut of the token: `bleed` on the block's outline, none where shared."""
    return tuple(bleed if outer else 0.0 for outer in (  # type: ignore[return-value]
        col == 0, not has(layout, row + 1, col), not has(layout, row, col + 1), row == 0))


def block(art: PieceArt, index: int, layout: TokenLayout, x: float, bleed: float) -> Group:
    """One player's tokens, their colour bleeding past the block's outer cuts, and the cut grid."""
    s, top = layout.size, layout.top
    player = art.defn.players[index]
    group = Group()
    for k, (row, col) in enumerate(layout.cells()):
        group.add(placed(art.face(index, edges(layout, row, col, bleed), layout.values[k]),
                         translate(x + col * s, top - (row + 1) * s)))
    for x1, y1, x2, y2 in cut_lines(layout, x):
        group.add(guide(x1, y1, x2, y2, CUT))
    label_y = top + max(OVERSHOOT, bleed) + 1.5  # clear of the cut lines' ends and of the colour
    group.add(text(x, label_y, f"{player.name}: {label(layout.values)}", 9, fonts.BOLD,
                   fill=colour(player.colour)))
    return group


def label(values: tuple[int, ...]) -> str:
    """'20 life tokens', or with fives '20 life: 10 ones and 2 fives'."""
    ones, fives = values.count(1), values.count(5)
    if not fives:
        return f"{ones} life tokens"
    return f"{sum(values)} life: {ones} one{'s' * (ones != 1)} and {fives} five{'s' * (fives != 1)}"


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


def pot_box(layout: TokenLayout) -> tuple[float, float, float, float] | None:
    """Where the pot mat goes in the room under the tokens (x, y, w, h), down to the footer, so the
    sheet ends in a mat rather than in blank paper; None when too little room is left."""
    top = layout.top - layout.block_height - OVERSHOOT - 8
    height = top - FOOT
    if height < POT_MIN:
        return None
    width = 2 * layout.block_width + BLOCK_GAP
    return layout.left, top - height, width, height


def sheet_pieces(defn: Fracas, layout: TokenLayout, bleed: float) -> list[tuple[Any, ...]]:
    """Every piece the sheet draws, plus the backs export prints so a build checks them, in one batch."""
    keys: list[tuple[Any, ...]] = [("face", i, edges(layout, row, col, bleed), layout.values[k])
                                   for i in range(len(defn.players)) for k, (row, col) in enumerate(layout.cells())]
    keys += [("back", i, 0.0) for i in range(len(defn.players))]
    mat = pot_box(layout)
    return keys + ([("pot", mat[2], mat[3])] if mat else [])


def token_page(art: PieceArt, layout: TokenLayout, paper: Paper, bleed: float) -> Page:
    """The whole page, its TrimBox spanning both blocks' cuts and its BleedBox `bleed` mm outside."""
    defn = art.defn
    art.prepare(sheet_pieces(defn, layout, bleed))
    shapes = Group()
    title_y = paper.height - MARGIN - 6
    # the house style: the title in the game's accent with the credit in the source's own terms at
    # its right (where the other documents print it under their titles), and the grey footer worded
    # as theirs, with no closing full stop
    shapes.add(text(MARGIN, title_y, f"{defn.title}: life tokens", TITLE_PT, fonts.BOLD,
                    fill=colour(defn.reference.accent)))
    if defn.credit_line:
        shapes.add(text(paper.width - MARGIN, title_y, defn.credit_line, 8.5, anchor="end"))
    worth = "is worth the points it shows" if 5 in layout.values else "is one life point"
    shapes.add(text(MARGIN, title_y - 7, "Print single-sided at actual size, on card if you can. "
                    f"Cut along the dashed lines; each token {worth}.", 8.5))
    shapes.add(house.running_footer(paper, " \u00b7 ".join(filter(None, (defn.title, "life tokens",
                                                                       defn.credit or defn.credit_line.rstrip("."))))))
    for i in range(len(defn.players)):
        shapes.add(block(art, i, layout, layout.block_x(i), bleed))
    mat = pot_box(layout)
    if mat is not None:
        x, y, width, height = mat
        shapes.add(placed(art.get(("pot", width, height)), translate(x, y)))
    right = layout.block_x(len(defn.players) - 1) + layout.block_width
    trim = (layout.left, layout.top - layout.block_height, right, layout.top)
    bleed_box = (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed)
    return Page(shapes=[shapes], trim_box=trim, bleed_box=bleed_box)
