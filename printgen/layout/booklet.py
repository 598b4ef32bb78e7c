"""Booklets: a rulebook set on half-size pages (A5 on A4, half Letter on Letter) and imposed two to a
landscape sheet in signature order, to print on both sides, fold in half and staple on the fold.

The half-size pages are finished first, their count known once their text fits; each is then drawn
once into a PDF form and placed on its sheet, so that a back turned 180 degrees turns its text too.
Duplex follows the paper: a landscape sheet's long edge is its top, so flipped on the short edge a
back is its front mirrored left to right (x -> W - x) and upright; on the long edge, top to bottom
(y -> H - y), printed turned 180 degrees. Then the back offset moves the whole back, as on every
duplex sheet.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from math import ceil
from typing import Any, Callable, Iterator

from reportlab.graphics.shapes import DirectDraw, Group
from reportlab.platypus import Flowable, PageBreak

from printgen.core.build import BuildOptions
from printgen.core.paper import MM_PER_PT, PT_PER_MM, SAFE_MARGIN_MM, Flip, Paper, font_mm, pt
from printgen.drawing import fonts, style
from printgen.drawing.document import Document, Growing, Page
from printgen.drawing.flow import fill
from printgen.drawing.libadapter import canvas_of, form_resources, keeping_drawing, needs_own_resources
from printgen.drawing.picture import FOLD, Matrix, guide, placed, text
from printgen.layout.rulebook import MARGIN, Rulebook, rulebook_document
from printgen.layout.sheet import Duplex
from printgen.output.reuse import draw_in_form

HALF_NAMES = {"A4": "A5", "US Letter": "half Letter"}
FOLD_MARK = 5.0  # mm: each fold mark's length, from the printer's safe margin inwards
FOLD_MARK_WIDTH = 0.4  # mm: solid, so a short mark reads as a mark and not as a dotted speck
CAPTION_PT = fonts.MIN_PT
CAPTION_LEADING = 3.2  # mm between the caption's two baselines


def half_page(paper: Paper) -> Paper:
    """A booklet's page: the paper halved across its long side (A4 -> A5, Letter -> 5.5 x 8.5 in)."""
    return Paper(HALF_NAMES.get(paper.name, f"half {paper.name}"), paper.height / 2, paper.width)


def landscape_sheet(paper: Paper) -> Paper:
    """The sheet a booklet prints on: the paper turned landscape, two half-size pages side by side."""
    return Paper(f"{paper.name} landscape", paper.height, paper.width)


def padded(count: int) -> int:
    """Pages a booklet of `count` pages prints, blanks included: a sheet folded once makes four."""
    return 4 * max(1, ceil(count / 4))


Sides = tuple[tuple[int, int], tuple[int, int]]  # (left, right) page numbers on the front, then the back


def signature_order(count: int) -> list[Sides]:
    """For each sheet, outermost first: the page numbers on its front (left, right) and on its back
    (left, right, as the back is seen turned over like a book's leaf). Numbers past `count` are
    blank pages, so the last page of text is never the back cover unless the count fills the sheets."""
    last = padded(count)
    return [((last - 2 * s, 2 * s + 1), (2 * s + 2, last - 2 * s - 1)) for s in range(last // 4)]


def back_turn(sheet: Paper, flip: Flip) -> Matrix:
    """Where a back drawn as seen turned over side to side prints for `flip`: as it is, or turned
    180 degrees when the sheet turns over top to bottom (the duplex rule of every sheet)."""
    return (1, 0, 0, 1, 0, 0) if Duplex(sheet, flip).side_to_side else (-1, 0, 0, -1, sheet.width, sheet.height)


@dataclass
class FinishedPages:
    """The booklet's pages with their story; drawn as one PDF form each, in reading order, the
    first time a sheet places one, so the text flows from page to page as in the plain rulebook."""

    paper: Paper  # the half-size page
    pages: list[Page]
    story: list[Flowable]
    breaks: bool
    whole: int = 0  # the last pages are sheets of their own (a page that must print at true size)
    names: list[str] = field(default_factory=list)  # each page's form, once drawn

    def define(self, canvas: Any) -> None:
        if self.names:
            return
        remaining = fill(self.pages, self.story, canvas, self.breaks, self.form_for(canvas))[0]
        if remaining:  # the dry run found that the story fits: this is printgen's bug
            raise RuntimeError("a booklet's text did not fit the pages it was measured for")

    def form_for(self, canvas: Any) -> Callable[[int, Page, Callable[[], None]], None]:
        def drawn(index: int, page: Page, pour_text: Callable[[], None]) -> None:
            name = f"PGBookletPage{index + 1}"
            canvas.beginForm(name, 0, 0, pt(self.paper.height), pt(2 * self.paper.width))  # room for a whole page
            draw_in_form(canvas, Group(*page.shapes, transform=(PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
            pour_text()
            if needs_own_resources(canvas):  # an opacity, spot colour or gradient: listed in the form
                canvas.endForm(Resources=form_resources(canvas))
            else:
                canvas.endForm()
            self.names.append(name)
        return drawn


class PlacedPage(DirectDraw):
    """One finished page where a sheet's transform puts it (millimetres, its lower-left corner at 0, 0)."""

    def __init__(self, book: FinishedPages, index: int) -> None:
        self.book = book
        self.index = index

    def getBounds(self) -> tuple[float, float, float, float]:
        return (0.0, 0.0, self.book.paper.width, self.book.paper.height)

    def copy(self) -> "PlacedPage":
        return PlacedPage(self.book, self.index)

    def drawDirectly(self, renderer: Any) -> None:
        canvas = canvas_of(renderer)
        with keeping_drawing(canvas):  # we are inside the sheet's own renderPDF.draw, which a
            self.book.define(canvas)  # drawing in the text (a figure) would otherwise undo
        canvas.saveState()
        canvas.scale(MM_PER_PT, MM_PER_PT)  # the form is in points, the sheet's shapes in mm
        canvas.doForm(self.book.names[self.index])
        canvas.restoreState()



def instructions(flip: Flip) -> tuple[str, str]:
    """The caption's two lines, in the words of a print dialog."""
    return (f"Booklet: Print on both sides, flip on {flip} edge, at Actual size (100%).",
            "Stack the sheets in order, fold them in half along the marks, staple twice on the fold.")


def caption(sheet: Paper, flip: Flip) -> Group:
    """On the first sheet's front, in the back cover's top margin: how to print, fold and staple.
    Its cap height stays below the 5 mm the printer cannot reach."""
    first = sheet.height - SAFE_MARGIN_MM - 0.75 * font_mm(CAPTION_PT) - 0.2
    middle = sheet.width / 4
    lines = instructions(flip)
    return Group(*(text(middle, first - i * CAPTION_LEADING, line, CAPTION_PT, anchor="middle")
                   for i, line in enumerate(lines)))


def fold_marks(sheet: Paper) -> Group:
    """Two short marks on the fold line, in the top and bottom margins from the safe margin in."""
    x = sheet.width / 2
    marks = Group()
    for y0, y1 in ((SAFE_MARGIN_MM, SAFE_MARGIN_MM + FOLD_MARK),
                   (sheet.height - SAFE_MARGIN_MM, sheet.height - SAFE_MARGIN_MM - FOLD_MARK)):
        mark = guide(x, y0, x, y1, FOLD)
        mark.strokeDashArray, mark.strokeWidth = None, FOLD_MARK_WIDTH
        marks.add(mark)
    return marks


def sheets(book: FinishedPages, sheet: Paper, flip: Flip, back_offset: tuple[float, float]) -> Iterator[Page]:
    """Front and back of every sheet: the fold marks on each front (the outside of the fold), the
    caption on the first; then each whole page on a sheet of its own, turned a quarter to lie on
    the landscape sheet edge to edge (the same paper: a printer prints it as the portrait page)."""
    count = len(book.pages) - book.whole
    half = book.paper.width
    turn = back_turn(sheet, flip)

    def side(numbers: tuple[int, int]) -> list[Any]:
        return [placed(PlacedPage(book, n - 1), (1, 0, 0, 1, x, 0))
                for n, x in zip(numbers, (0.0, half)) if n <= count]

    for s, (front, back) in enumerate(signature_order(count)):
        yield Page(shapes=[*side(front), fold_marks(sheet), *([caption(sheet, flip)] if s == 0 else [])])
        yield Page(shapes=[placed(Group(*side(back)), turn)], shift=back_offset)
    for n in range(count, len(book.pages)):
        yield Page(shapes=[placed(PlacedPage(book, n), (0, 1, -1, 0, sheet.width, 0))])


def booklet_document(laid: Document | Growing, options: BuildOptions, name: str, whole: int = 0) -> Document | Growing:
    """`laid`, a document laid out on `half_page(options.paper)`, as a booklet on `options.paper`;
    its last `whole` pages are laid out on `options.paper` itself and print after the booklet. A
    growing one stays growing: the layout step (printgen.layout.paging) finds its page count, then
    imposes the pages found on the sheets."""
    sheet = landscape_sheet(options.paper)
    pages = laid if isinstance(laid, Document) else laid.document
    if abs(pages.paper.width - sheet.width / 2) > 0.01 or abs(pages.paper.height - sheet.height) > 0.01:
        raise ValueError(f"a booklet on {options.paper.name} needs {half_page(options.paper).name} pages, "
                         f"not {pages.paper.name}")

    def booklet(finished: list[Page], story: list[Flowable]) -> Document:
        book = FinishedPages(pages.paper, finished, story, pages.breaks, whole)
        return Document(name, sheet, list(sheets(book, sheet, options.flip, options.back_offset)),
                        f"{pages.title} (booklet)", " ".join(instructions(options.flip)), options.flip,
                        overflow=pages.overflow, label=pages.label, problems=list(pages.problems),
                        author=pages.author)

    if isinstance(laid, Document):
        return booklet(list(laid.pages_now()), list(laid.story))
    return Growing(laid.document, laid.grow, then=booklet)


def booklet_name(stem: str) -> str:
    return f"{stem}-booklet.pdf"


def rulebook_booklet(book: Rulebook, options: BuildOptions, stem: str) -> Document | Growing:
    """A rulebook as a booklet, in one column: at A5 two columns would hold some 35 characters a
    line, one holds 75 to 85 at the house body size, which the eye takes in as a book's line."""
    one_column = replace(book, settings=book.settings.model_copy(update={"columns": 1}))
    name = booklet_name(stem)
    return booklet_document(rulebook_document(one_column, options, name, half_page(options.paper)), options, name)


def column(paper: Paper) -> tuple[float, float, float, float]:
    """A booklet page's one column, inside the house margins."""
    return (MARGIN, MARGIN, paper.width - 2 * MARGIN, paper.height - 2 * MARGIN)


def column_pages(paper: Paper, count: int, footer: Callable[[int], str]) -> list[Page]:
    """`count` booklet pages of one column, each with the house footer `footer(page number)`."""
    return [Page(shapes=[style.running_footer(paper, footer(n))], frames=[column(paper)])
            for n in range(1, count + 1)]


def first_guess(story: list[Flowable], paper: Paper, most: int) -> int:
    """The fewest pages of one column the text can need, so most builds try one count."""
    _, _, width, height = column(paper)
    total = sum(item.wrap(pt(width), pt(height))[1] + item.getSpaceBefore() + item.getSpaceAfter()
                for item in story if not isinstance(item, PageBreak))
    breaks = sum(isinstance(item, PageBreak) for item in story)
    return min(most, max(1 + breaks, int(0.9 * total / pt(height)) + 1))
