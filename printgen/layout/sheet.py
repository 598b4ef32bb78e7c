"""Sheets: where components go on paper, and what lands behind them in a duplex print.

A printer turns the paper over on its long or short edge. A portrait page's long edges are its
sides, a landscape page's are its top and bottom, so the flip and the page's orientation together
say whether the sheet turns over side to side (the back of x is W - x) or top to bottom (the back
of y is H - y, upside down). A component draws in its own mm box, its `back()` as turned about its
vertical axis; the sheet places both, turning backs 180 degrees when the sheet turns top to
bottom, and the back offset moves the whole back page as the back page is viewed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from reportlab.graphics.shapes import Group, rotate, translate

from printgen.core.paper import Flip, Paper
from printgen.drawing.picture import CUT, FOLD, Matrix, compose, guide, placed, text
from printgen.drawing.document import Page

Box = tuple[float, float, float, float]  # x, y, w, h in mm, y up from the bottom edge


class Component(Protocol):
    @property
    def width(self) -> float: ...  # mm; read-only, so a property or a frozen field satisfies it
    @property
    def height(self) -> float: ...

    def front(self) -> Group: ...
    def back(self) -> Group: ...
    def guides(self) -> Group: ...


@dataclass(frozen=True)
class Duplex:
    """How the back of a sheet lines up with its front, for the paper's flip edge and the page's
    orientation (`paper` as the page is drawn: wider than tall is landscape)."""

    paper: Paper
    flip: Flip = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def folded(cls, paper: Paper) -> "Duplex":
        """A sheet folded about its vertical middle (gutterfold): cards turn over side to side
        whichever way the page is turned."""
        return cls(paper, "short" if landscape(paper) else "long")

    @property
    def side_to_side(self) -> bool:
        """True when the sheet turns over about the page's vertical axis: a long-edge flip of a
        portrait page, a short-edge flip of a landscape one."""
        return (self.flip == "long") != landscape(self.paper)

    def mirror(self) -> Matrix:
        """Front-page point -> the back-page point printed behind it (before the back offset)."""
        if self.side_to_side:
            return (-1, 0, 0, 1, self.paper.width, 0)
        return (1, 0, 0, -1, 0, self.paper.height)

    def back_placement(self, box: Box) -> Matrix:
        """Transform for a component's back() so it lies behind the front placed at `box`."""
        x, y, w, h = box
        if self.side_to_side:
            return translate(self.paper.width - x - w, y)
        return compose(translate(x + w, self.paper.height - y), rotate(180))

    def back_page(self) -> Page:
        """A back page, shifted whole by the offset, as misregistration moves the whole back image."""
        return Page(shift=self.back_offset)

    def back_box(self, box: Box) -> Box:
        """Where the area `box` of the front falls on the back page (before the offset)."""
        x, y, w, h = box
        if self.side_to_side:
            return (self.paper.width - x - w, y, w, h)
        return (x, self.paper.height - y - h, w, h)

    @property
    def dialog(self) -> str:
        """What to choose in a print dialog, in its words; the edge is the paper's, as dialogs mean it."""
        return f"Print on both sides, flip on {self.flip} edge"

    @property
    def turn(self) -> str:
        """How the sheet turns over, seen on this page: what the dialog's choice means here."""
        return "side to side" if self.side_to_side else "top to bottom"


def landscape(paper: Paper) -> bool:
    return paper.width > paper.height


@dataclass
class DuplexSheet:
    duplex: Duplex
    front: Page = field(default_factory=Page)
    back: Page = field(default_factory=Page)
    boxes: list[Box] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.back.shift = self.duplex.back_offset

    def place(self, component: Component, x: float, y: float) -> Box:
        box = (x, y, component.width, component.height)
        at = translate(x, y)
        self.front.shapes += [placed(component.front(), at), placed(component.guides(), at)]
        self.back.shapes += [placed(component.back(), self.duplex.back_placement(box)),
                             placed(component.guides(), compose(self.duplex.mirror(), at))]
        self.boxes.append(box)
        return box


def frames_around(area: Box, obstacle: Box, gap: float) -> list[Box]:
    """Text frames filling `area` in reading order, `gap` mm clear of an `obstacle` in a corner.

    The frame beside the obstacle runs on to meet the full-width frame (it is already `gap` clear
    of the obstacle's side), so a column reads on with no gap where the two frames join."""
    ax, ay, aw, ah = area
    ox, oy, ow, oh = obstacle
    top, bottom = ay + ah, ay
    left_width = ox - gap - ax
    right_x = ox + ow + gap
    beside_x, beside_w = (ax, left_width) if left_width >= (ax + aw) - right_x else (right_x, ax + aw - right_x)
    if oy + oh >= top - gap:  # obstacle at the top
        frames = [(beside_x, oy - gap, beside_w, top - oy + gap), (ax, bottom, aw, oy - gap - bottom)]
    else:  # obstacle at the bottom
        frames = [(ax, oy + oh + gap, aw, top - (oy + oh + gap)), (beside_x, bottom, beside_w, oy + oh + gap - bottom)]
    return [f for f in frames if f[2] > 0 and f[3] > 0]


def line_legend(x: float, y: float, size_pt: float = 7) -> Group:
    """A small key: which line is cut and which is folded. (x, y) is its lower-left corner."""
    dash = CUT.dash or (3.0, 1.5)  # the cut line is always dashed; the fallback only satisfies types
    cut_sample = 2 * dash[0] + dash[1]  # whole dashes only, so the sample reads cleanly
    fold_x = x + cut_sample + 12
    return Group(guide(x, y + 1, x + cut_sample, y + 1, CUT), text(x + cut_sample + 2, y, "cut", size_pt),
                 guide(fold_x, y + 1, fold_x + 9.5, y + 1, FOLD), text(fold_x + 11.5, y, "fold", size_pt))
