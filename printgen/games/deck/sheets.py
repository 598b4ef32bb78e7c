"""A deck's sheets: duplex, gutterfold or fronts only, with cut marks or cut lines."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from reportlab.graphics.shapes import Group, translate
from reportlab.lib.colors import HexColor

from printgen.core.paper import SAFE_MARGIN_MM, Paper
from printgen.drawing.document import Page
from printgen.drawing.picture import CUT, FOLD, guide, placed, rect
from printgen.layout.imposition import (CAPTION_ROOM, Grid, ImposedSheet, Piece, caption_text, cut_marks,
                                        impose_lazily, trim_and_bleed)
from printgen.layout.sheet import Box, Duplex
from printgen.output.reuse import Forms

FOLD_MARGIN = 5.0  # mm the fold line stops short of the paper edge
Guides = Callable[[Sequence[Box]], Group]  # `--guides`: outlines drawn round these trim boxes


BLANK_FRAME = HexColor("#c8c8c8")  # light grey: shows where writing is safe, and prints as a hairline


@dataclass(frozen=True)
class BlankCard:
    """A card to write your own on, for a sheet's spare places (`sheet.fill: blank`): a plain face
    with a faint frame `safe` mm inside its cut, and the back of the card `like`."""

    like: Piece
    safe: float
    radius: float

    @property
    def width(self) -> float:
        return self.like.width

    @property
    def height(self) -> float:
        return self.like.height

    def front(self, bleed: float = 0.0) -> Group:
        inset = self.safe
        return Group(rect(inset, inset, self.width - 2 * inset, self.height - 2 * inset, stroke=BLANK_FRAME,
                          stroke_width=0.3, radius=max(0.0, self.radius - inset / 2)))

    def back(self, bleed: float = 0.0) -> Group:
        return self.like.back(bleed)


def filled(pieces: Sequence[Piece], per_sheet: int, safe: float, radius: float) -> list[Piece]:
    """The pieces, then as many blank cards (with the last piece's back) as the last sheet has spare
    places, so no sheet prints with holes in it."""
    if not pieces or per_sheet <= 0:
        return list(pieces)
    spare = -len(pieces) % per_sheet
    return [*pieces, *[BlankCard(pieces[-1], safe, radius)] * spare]


def cut_lines(boxes: Sequence[Box], radius: float) -> Group:
    """A dashed outline round every card, corners rounded like the card."""
    group = Group()
    for x, y, w, h in boxes:
        outline = rect(x, y, w, h, stroke=CUT.colour, stroke_width=CUT.width, radius=radius)
        outline.strokeDashArray = list(CUT.dash or ())
        group.add(outline)
    return group


def duplex_sheets(pieces: Sequence[Piece], duplex: Duplex, bleed: float, captions: dict[str, str],
                  lines: float | None, fronts_only: bool, gap: float = 0.0,
                  guides: Guides | None = None) -> Iterator[Page]:
    """Pages for duplex (a front then its back) or fronts alone, each drawn when asked for. With cut
    lines round every card, the margins need no marks, and the cards may come nearer the edge."""
    def caption(sheet: int, count: int, side: str) -> str:
        return captions[side].format(sheet=sheet + 1, count=count)

    sheets = impose_lazily(pieces, duplex, bleed, caption, gap, marks=lines is None)
    return duplex_pages(sheets, lines, fronts_only, duplex, guides)


def duplex_pages(sheets: Iterator[ImposedSheet], lines: float | None, fronts_only: bool, duplex: Duplex,
                 guides: Guides | None) -> Iterator[Page]:
    for sheet in sheets:
        if lines is not None:
            sheet.front.shapes.append(cut_lines(sheet.boxes, lines))
        if guides is not None:
            sheet.front.shapes.append(guides(sheet.boxes))
            sheet.back.shapes.append(guides([duplex.back_box(box) for box in sheet.boxes]))
        yield sheet.front
        if not fronts_only:
            yield sheet.back


def fold_half(paper: Paper) -> Paper:
    """The half of a gutterfold sheet that holds the fronts (the backs take the other half)."""
    return Paper(paper.name, paper.width / 2, paper.height)


def gutterfold_sheets(pieces: Sequence[Piece], paper: Paper, bleed: float, caption: str,
                      lines: float | None, gap: float = 0.0, guides: Guides | None = None) -> Iterator[Page]:
    """Fronts left, backs mirrored right and a fold line between, for one-sided printing."""
    if not pieces:
        return iter(())
    first = pieces[0]
    grid = Grid(fold_half(paper), first.width, first.height, bleed, gap).with_caption()
    if grid.per_page == 0:
        raise ValueError(f"a {first.width:g} x {first.height:g} mm card with {bleed:g} mm bleed does not "
                         f"fit on half of a {paper.name} sheet; use landscape, a larger paper or "
                         f"the duplex layout")
    return gutterfold_pages(pieces, paper, bleed, caption, lines, grid, guides)


def gutterfold_pages(pieces: Sequence[Piece], paper: Paper, bleed: float, caption: str,
                     lines: float | None, grid: Grid, guides: Guides | None = None) -> Iterator[Page]:
    fold = Duplex.folded(paper)  # folding about the middle turns each card over side to side
    slots = grid.boxes()
    count = math.ceil(len(pieces) / grid.per_page)
    forms = Forms()
    for s in range(count):
        batch = pieces[s * grid.per_page:(s + 1) * grid.per_page]
        boxes = slots[:len(batch)]
        page = Page()
        backs = [fold.back_box(box) for box in boxes]
        for piece, box in zip(batch, boxes):
            page.shapes.append(placed(piece.front(bleed), translate(box[0], box[1])))
            page.shapes.append(placed(forms(piece.back(bleed)), fold.back_placement(box)))
        page.shapes.append(cut_marks(list(boxes) + backs, paper, bleed))
        # the fold line stops above the caption, which is centred on it
        page.shapes.append(guide(paper.width / 2, SAFE_MARGIN_MM + CAPTION_ROOM, paper.width / 2,
                                 paper.height - FOLD_MARGIN, FOLD))
        if lines is not None:
            page.shapes.append(cut_lines(list(boxes) + backs, lines))
        if guides is not None:
            page.shapes.append(guides(list(boxes) + backs))
        if bleed > 0:
            page.trim_box, page.bleed_box = trim_and_bleed(list(boxes) + backs, bleed)
        page.shapes.append(caption_text(caption.format(sheet=s + 1, count=count), paper))
        yield page

