"""Imposition with shared cuts: pieces with alike backs sit edge to edge, one cut between two, and
bleed runs only round each block of alike pieces.

A misregistered back shows a sliver of its neighbour's back, which matters only where that back
differs; so bleed goes round blocks and in 2 x bleed gutters between unlike rows. Each piece is
drawn with bleed, then without on top, so inside a block every trim box shows only its own art;
the layer with bleed leaves its words out, which the layer on top prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Callable, Hashable, Sequence

from reportlab.graphics.shapes import Group, String, translate
from reportlab.lib.colors import HexColor

from printgen.core.paper import SAFE_MARGIN_MM, Paper, font_mm
from printgen.drawing import fonts
from printgen.drawing.document import Page
from printgen.drawing.picture import CUT, LineStyle, guide, placed, text
from printgen.layout.imposition import (CAPTION_GREY, CAPTION_PT, CAPTION_ROOM, EDGE, MARK_GAP, MARK_LENGTH, TICK_EDGE,
                                        Caption, ImposedSheet, Piece, cut_marks, finished, same_size, tick, too_big)
from printgen.layout.sheet import Box, Duplex
from printgen.output.reuse import Forms, reusable

# A cased trim line, dark under white: the white core shows on dark bands, the dark edges on light
# faces, so the cut reads on either; thin enough that half of it stays on each piece.
TRIM_CASING = LineStyle("trim", 0.6, None, HexColor("#111111"))  # heavier than the 0.3 mm grey hatching of a black deck
TRIM_CORE = LineStyle("trim-core", 0.2, None, HexColor("#ffffff"))  # a white core: the cut reads on white, hatched and dark bands alike
SHARED_MARK = LineStyle("cut", 0.45, CUT.dash)  # heavier than a lone piece's marks: they lead the knife
Kind = Callable[[Piece], Hashable]


@dataclass(frozen=True)
class Row:
    """Pieces of one kind side by side; a new kind always starts a new row."""

    kind: Hashable
    pieces: tuple[Piece, ...]


def rows_of(pieces: Sequence[Piece], columns: int, kind: Kind) -> list[Row]:
    rows: list[Row] = []
    for piece in pieces:
        key = kind(piece)
        if rows and rows[-1].kind == key and len(rows[-1].pieces) < columns:
            rows[-1] = Row(key, rows[-1].pieces + (piece,))
        else:
            rows.append(Row(key, (piece,)))
    return rows


def block_height(rows: Sequence[Row], height: float, bleed: float) -> float:
    """Rows stacked top to bottom with a 2 x bleed gutter wherever the kind changes."""
    gutters = sum(1 for a, b in zip(rows, rows[1:]) if a.kind != b.kind)
    return len(rows) * height + gutters * 2 * bleed


def sheets_of(rows: Sequence[Row], height: float, bleed: float, room: float) -> list[list[Row]]:
    """Rows dealt onto sheets in order, as many on each as its `room` (mm, bleed excluded) holds."""
    sheets: list[list[Row]] = []
    for row in rows:
        if sheets and block_height(sheets[-1] + [row], height, bleed) <= room + 1e-9:
            sheets[-1].append(row)
        else:
            sheets.append([row])
    return sheets


@dataclass(frozen=True)
class Frame:
    """Columns, the height rows may fill, and the caption's place ("foot" or turned at the "side")."""

    paper: Paper
    width: float
    height: float
    bleed: float
    columns: int
    room: float
    caption_at: str


def frame_for(paper: Paper, width: float, height: float, bleed: float) -> Frame:
    """The caption below the rows if it fits, else beside them, else below with a row given up."""
    columns = max(0, math.floor((paper.width - 2 * EDGE - 2 * bleed) / width + 1e-9))
    room = paper.height - 2 * EDGE - 2 * bleed
    side = (paper.width - columns * width) / 2 - bleed - MARK_GAP - MARK_LENGTH
    rows = math.floor(room / height + 1e-9)
    spare = room - rows * height  # mm the full block leaves free, top and bottom together
    if spare / 2 >= CAPTION_ROOM - 1e-9:
        return Frame(paper, width, height, bleed, columns, room, "foot")
    if side >= SAFE_MARGIN_MM + CAPTION_ROOM:
        return Frame(paper, width, height, bleed, columns, room, "side")
    return Frame(paper, width, height, bleed, columns, room - CAPTION_ROOM, "foot")


def boxes_for(frame: Frame, rows: Sequence[Row]) -> list[Box]:
    """Trim boxes, row by row from the top, the block centred above any foot caption's room."""
    paper, w, h, bleed = frame.paper, frame.width, frame.height, frame.bleed
    foot = CAPTION_ROOM if frame.room < paper.height - 2 * EDGE - 2 * bleed - 1e-9 else 0.0
    total = block_height(rows, h, bleed)
    top = foot + (paper.height - foot + total) / 2
    x0 = (paper.width - frame.columns * w) / 2
    boxes: list[Box] = []
    y = top
    for i, row in enumerate(rows):
        if i and row.kind != rows[i - 1].kind:
            y -= 2 * bleed
        y -= h
        boxes += [(x0 + c * w, y, w, h) for c in range(len(row.pieces))]
    return boxes


def trim_lines(boxes: Sequence[Box]) -> Group:
    """Every cut once, all casings first so no casing covers another cut's white core."""
    seen: dict[tuple[float, ...], tuple[float, float, float, float]] = {}
    for x, y, w, h in boxes:
        for edge in ((x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h), (x + w, y, x + w, y + h)):
            seen.setdefault(tuple(round(v, 4) for v in edge), edge)
    group = Group()
    for style in (TRIM_CASING, TRIM_CORE):
        for edge in seen.values():
            group.add(guide(*edge, style))
    return group


def side_caption(value: str, paper: Paper, room: float = SAFE_MARGIN_MM + CAPTION_ROOM) -> Group:
    """The caption turned to read upwards along the left margin, centred in the strip between
    TICK_EDGE and the cut marks (`room` mm from the edge), never nearer the edge than TICK_EDGE."""
    size = font_mm(CAPTION_PT)
    ascent, descent = fonts.ascent(fonts.REGULAR, size), fonts.descent(fonts.REGULAR, size)
    middle = (max(TICK_EDGE, SAFE_MARGIN_MM) + room) / 2
    baseline = max(middle + (ascent - descent) / 2, TICK_EDGE + ascent + 0.1)
    return Group(text(0, 0, value, CAPTION_PT, anchor="middle", fill=CAPTION_GREY), transform=(0, 1, -1, 0, baseline, paper.height / 2))


def without_text(group: Group) -> Group:
    """A copy of `group` without its text: the art that runs into the bleed, drawn under the piece
    drawn again without bleed, which prints every word (once, not twice at the same place)."""
    kept = [without_text(item) if isinstance(item, Group) else item
            for item in group.contents if not isinstance(item, String)]
    return Group(*kept, transform=group.transform)


def impose_shared(pieces: Sequence[Piece], duplex: Duplex, bleed: float, kind: Kind,
                  caption: Caption | None = None) -> list[ImposedSheet]:
    """Lay `pieces` out in order, kind by kind; ValueError if none fits the paper."""
    if not pieces:
        return []
    first = pieces[0]
    same_size(pieces)
    frame = frame_for(duplex.paper, first.width, first.height, bleed)
    if frame.columns == 0 or frame.room < first.height:
        raise too_big(first, bleed, duplex.paper)
    dealt = sheets_of(rows_of(pieces, frame.columns, kind), first.height, bleed, frame.room)
    return [sheet(rows, frame, duplex, caption, (s, len(dealt))) for s, rows in enumerate(dealt)]


def sheet(rows: Sequence[Row], frame: Frame, duplex: Duplex, caption: Caption | None,
          number: tuple[int, int]) -> ImposedSheet:
    boxes = boxes_for(frame, rows)
    batch = [piece for row in rows for piece in row.pieces]
    bleed = frame.bleed
    front, back = Page(), duplex.back_page()  # the back page carries the printer's offset
    backs = Forms()  # a deck's back is one group placed on every slot: digested once
    bare: dict[int, Group] = {}  # each drawn back once without its words, so still one group
    for layer in ((bleed, 0.0) if bleed > 0 else (0.0,)):
        for piece, box in zip(batch, boxes):
            face, turned = piece.front(layer), piece.back(layer)
            if layer:  # the layer on top prints the words; under it they would print twice
                face, turned = without_text(face), bare.setdefault(id(turned), without_text(turned))
            front.shapes.append(placed(face, translate(box[0], box[1])))
            back.shapes.append(placed(backs(turned), duplex.back_placement(box)))
    front.shapes.append(trim_lines(boxes))
    return finished(front, back, boxes, duplex, bleed, reusable(cut_marks(boxes, duplex.paper, bleed, SHARED_MARK)),
                    (caption(*number, "front"), caption(*number, "back")) if caption else None,
                    partial(side_caption, room=tick(min(x for x, _, _, _ in boxes) - bleed)[1])
                    if frame.caption_at == "side" else None)
