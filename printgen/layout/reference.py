"""Reference sheets: a game's quick rules on one page, or as two half-page cards with cut marks.

A game supplies a `Reference` (a Markdown template, context, tables, settings); everything before
`<!-- page break -->` fills the top half, the rest the bottom. Text is never shrunk: a half that overflows becomes a
problem located at its section's YAML key. Sheet and cards are two files because duplex is per PDF.

Neither has a running footer: both are cut into cards, where a page's footer would survive on the
bottom card only, and at the foot of a full Letter half it ran into the text and into the strip many
printers cannot reach. Each card names its game in its title, and its title block carries the credit.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from math import ceil, floor
from functools import partial
from itertools import takewhile
from typing import Annotated, Any, Callable, Mapping, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field
from reportlab.graphics.shapes import Group
from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, PageBreak, Paragraph, Table
from reportlab.platypus.doctemplate import LayoutError

from printgen.drawing import fonts, style
from printgen.core.build import BuildOptions
from printgen.drawing.document import Document, Located, Page, cut_short as halves_cut_short
from printgen.drawing.flow import Trial, fill
from printgen.core.source import Loc
from printgen.core.paper import MM_PER_PT, Flip, Paper, font_mm, pt
from printgen.drawing.picture import CUT, guide, rect, text
from printgen.core.problems import MarkdownProblems, TextProblem
from printgen.layout.sheet import Duplex
from printgen.drawing.columns import least_fitting, reckoned_height
from printgen.drawing.flow import ColumnBreak, pour
from printgen.drawing.markdown import Hooks, PictureMaker, blocks
from printgen.drawing.story import Masthead, Stack, Styles, escape, grid_table, styles, tagged
from printgen.jinja.render import render

INSET = 8.0  # mm between a half's text and the paper edge or the cut line (5 mm safe margin + slack)
COLUMN_GAP = 6.0  # mm between columns
HEAD_GAP = 3.0  # mm between a half's title block (its rule) and its columns
HALVES = ("top half", "bottom half")
SAFE = 5.0  # mm: guides stop at the printer's safe margin


class ReferenceSettings(BaseModel):
    """The `reference:` block a game's YAML carries; it only sets how the sheet looks."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text_size_pt: Annotated[float, Field(ge=7, le=12, allow_inf_nan=False,
                                         description="body text size; never below 7 pt")] = style.REFERENCE_PT
    columns: Annotated[int, Field(ge=1, le=3, description="columns in each half of the page")] = 2
    accent: Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$",
                                 description="colour of headings and table heads, #rrggbb")] = style.DEFAULT_ACCENT


@dataclass(frozen=True)
class DataTable:
    """A table whose rows come from the YAML; `widths` are fractions of the column width."""

    header: Sequence[str]
    rows: Sequence[Sequence[str]]
    widths: Sequence[float]


Figure = Callable[[float], Flowable]  # column width in mm -> a flowable that fits it


@dataclass(frozen=True)
class Reference:
    title: str  # the game's title; the sheet is called "<title> reference sheet" in errors
    template: str  # e.g. "fracas/reference.md.j2", looked up through the user's template folders
    context: Mapping[str, Any]
    tables: Mapping[str, Union[DataTable, Figure]]
    settings: ReferenceSettings
    settings_loc: Loc = ("reference",)  # where `settings` sits in the YAML
    credit: str = ""  # who made the game: a card prints it in its title block (the template places it)
    sections: Mapping[str, Loc] = field(default_factory=dict)  # heading -> YAML key behind it
    pictures: Mapping[str, PictureMaker] = field(default_factory=dict)  # `![alt](scheme:...)` sources
    icons: Callable[[str], str | None] | None = None  # `:name:` -> paragraph markup (None: unknown)
    row: Callable[[list[Flowable]], Flowable] | None = None  # several pictures of one paragraph (a row of cards)
    prepare: Callable[[str], str] | None = None  # the text before it is read, its lines kept

    @property
    def sheet_name(self) -> str:
        return f"{self.title} reference sheet"


# -- flowables -------------------------------------------------------------------------------------

def reference_styles(settings: ReferenceSettings) -> Styles:
    """The house styles, tightened for a dense sheet, with headings in the accent colour."""
    size = settings.text_size_pt
    base = styles(size, settings.accent, style.REFERENCE_PT)
    return Styles(
        body=base.body.clone("ref-body", spaceAfter=size * 0.3),
        bullet=base.bullet.clone("ref-bullet", spaceAfter=size * 0.15),
        heading=base.heading.clone("ref-heading", spaceBefore=size * 0.6, spaceAfter=size * 0.25),
        title=base.title.clone("title", spaceAfter=size * 0.1),
        subtitle=base.subtitle.clone("subtitle", spaceAfter=size * 0.2),
        subheading=base.subheading.clone("ref-subheading", spaceBefore=size * 0.3),
    )


def data_table(table: DataTable, style: Styles, accent: Color, width_mm: float,
               kind: type[Table] = Table) -> Table:
    """A fully ruled table of the definition's values, printed as typed; `kind` may split its own way."""
    total = sum(table.widths)
    rows = [[escape(h) for h in table.header]] + [[escape(value) for value in row] for row in table.rows]
    return grid_table(rows, [pt(width_mm) * w / total for w in table.widths], style, accent, kind)


def is_head(item: Flowable) -> bool:
    """The title block (or, in a story made without one, a title or subtitle paragraph)."""
    return isinstance(item, Masthead) or (isinstance(item, Paragraph) and item.style.name in ("title", "subtitle"))


class Half(Flowable):
    """A half: title block, then columns; what does not fit stays in `leftover` to be reported."""

    def __init__(self, items: list[Flowable], columns: int, label: str, box: tuple[float, float]) -> None:
        super().__init__()
        # full size, so a partly filled frame refuses it and it moves to the next one
        self.width, self.height = pt(box[0]), pt(box[1]) - 0.01
        self.head = list(takewhile(is_head, items))
        self.body = items[len(self.head):]
        self.columns = columns
        self.label = label
        self.leftover: list[Flowable] = []
        self.column_width = 0.0  # points, known once drawn
        self.told: tuple[Reference, Paper] | None = None  # the reference and paper its overflow names

    def overflow(self) -> tuple[Loc, str] | None:
        """Where and what to tell once drawn, if its text did not all fit (drawing.document.cut_short)."""
        if self.told is None or not self.leftover:
            return None
        ref, paper = self.told
        return overflow_problem(ref, self, paper)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        top = self.height
        if self.head:
            block = Stack(self.head)  # the title block: its words no wider than a comfortable line
            _, h = block.wrap(self.width, self.height)
            if h > self.height:
                self.leftover = self.head + self.body
                return
            block.drawOn(self.canv, 0, top - h)
            top -= h + pt(HEAD_GAP)
        gap = pt(COLUMN_GAP)
        self.column_width = (self.width - (self.columns - 1) * gap) / self.columns
        pending = keep_sections_whole(self.body, self.column_width, max(top, 0))
        tall = self.level(pending, max(top, 0))  # the columns end level, the space left under them
        for i in range(self.columns):
            x = i * (self.column_width + gap)
            if i:
                self.canv.setStrokeColor(HexColor("#bbbbbb"))
                self.canv.setLineWidth(0.4)
                self.canv.line(x - gap / 2, top - tall, x - gap / 2, top)
            self.fill(self.canv, x, top - tall, tall, pending)
        self.leftover = pending

    def fill(self, canvas: Canvas, x: float, y: float, height: float, pending: list[Flowable]) -> None:
        frame = Frame(x, y, self.column_width, height, leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0, showBoundary=0)
        try:
            pour(frame, pending, canvas, False)  # whole blocks: a table or paragraph never breaks here
        except LayoutError:  # a block taller than a whole column: it stays in `pending`
            pass

    def level(self, pending: list[Flowable], full: float) -> float:
        """The least column height (pt) that takes all of `pending`; `full` when one column is all
        there is or even `full` is too little. Reckoned from the blocks' heights, then proved by
        filling the columns on a throwaway canvas (searched for by trial only if that fails)."""
        canvas = Trial()

        def fits(height: float) -> bool:
            trial = list(pending)
            for _ in range(self.columns):
                self.fill(canvas, 0, 0, height, trial)
            return not trial

        if self.columns == 1:
            return full
        return least_fitting(fits, reckoned_height(pending, self.column_width, full, self.columns), full, pt(1))


def keep_sections_whole(items: list[Flowable], width: float, height: float) -> list[Flowable]:
    """Each section as one block so it shares a column; one taller than a column flows on."""
    groups: list[list[Flowable]] = []
    current = object()
    for item in items:
        section = getattr(item, "section", None)
        if isinstance(item, ColumnBreak):  # the designer's break stands alone, between blocks
            groups.append([item])
            current = object()
        elif groups and not isinstance(groups[-1][0], ColumnBreak) and (section is None or section == current):
            groups[-1].append(item)
        else:
            groups.append([item])
            current = section
    result: list[Flowable] = []
    for group in groups:
        block = tagged(Stack(group, whole=True), getattr(group[0], "section", ""))
        if len(group) > 1 and block.wrap(width, height)[1] <= height:
            result.append(block)
        else:
            result.extend(group)
    return result


def overflow_problem(ref: Reference, half: Half, paper: Paper) -> tuple[Loc, str]:
    """Name the sheet, the half and the first section that did not fit, at its YAML key."""
    sections = list(dict.fromkeys(getattr(item, "section", "") or "(untitled)" for item in half.leftover))
    first = sections[0]
    width = half.column_width or half.width or pt(100)
    spill = sum(item.wrap(width, pt(1000))[1] + item.getSpaceAfter() for item in half.leftover)
    more = f" (and {', '.join(repr(s) for s in sections[1:])} after it)" if sections[1:] else ""
    size_key = ".".join(str(p) for p in (*ref.settings_loc, "text_size_pt"))
    loc = ref.sections.get(first, (*ref.settings_loc, "text_size_pt"))
    return loc, (
        f"the {ref.sheet_name} ({paper.name}), {half.label}: section '{first}'{more} does not fit "
        f"its box ({spill * MM_PER_PT:.0f} mm of text left over); shorten it, or lower {size_key} "
        f"(now {ref.settings.text_size_pt:g} pt, 7 pt at the least)")


# -- pages -----------------------------------------------------------------------------------------

def half_boxes(paper: Paper) -> list[tuple[float, float, float, float]]:
    """The text boxes of the top and bottom halves, in mm, inset from paper edges and the cut."""
    w, h = paper.width, paper.height / 2
    return [(INSET, h + INSET, w - 2 * INSET, h - 2 * INSET), (INSET, INSET, w - 2 * INSET, h - 2 * INSET)]


def column_width(paper: Paper, columns: int) -> float:
    """A half's column width in mm, so a game can draw its figures before the layout asks."""
    box = pt(half_boxes(paper)[0][2])
    return (box - (columns - 1) * pt(COLUMN_GAP)) / columns * MM_PER_PT


def parts(ref: Reference, options: BuildOptions) -> list[list[Flowable]]:
    """Render the template and split its story at its page break into the two halves."""
    style = reference_styles(ref.settings)
    accent = HexColor(ref.settings.accent)
    factories: dict[str, Callable[[float], Flowable]] = {
        name: partial(data_table, table, style, accent) if isinstance(table, DataTable) else table
        for name, table in ref.tables.items()}
    text = render(ref.template, dict(ref.context), options.templates)
    story = blocks(text, ref.template, style, Hooks(factories, ref.pictures, ref.icons, row=ref.row,
                                                    prepare=ref.prepare))
    result: list[list[Flowable]] = [[]]
    for item in story:
        if isinstance(item, PageBreak):
            result.append([])
        else:
            result[-1].append(item)
    if len(result) != 2:
        breaks = [getattr(item, "line", 1) for item in story if isinstance(item, PageBreak)]
        raise MarkdownProblems(ref.template, text, [TextProblem(
            breaks[1] if len(breaks) > 1 else len(text.splitlines()), "page break" if breaks else "",
            f"a reference text needs exactly one <!-- page break --> between its two halves, the card's "
            f"front and back (found {len(breaks)})")])
    return result


def cut_line(paper: Paper, label: str, words: bool = True) -> Group:
    """The dashed line across the middle, on a white ground where `label` sits (its words printed
    unless not `words`). The ground starts where a dash ends and ends where one begins, so no stub
    of a dash is left beside the words."""
    y, middle = paper.height / 2, paper.width / 2
    left, right = middle - label_width(label) / 2, middle + label_width(label) / 2
    if CUT.dash:
        period, dash = sum(CUT.dash), CUT.dash[0]
        left = SAFE + floor((left - SAFE - dash) / period) * period + dash  # the end of a dash
        right = SAFE + ceil((right - SAFE) / period) * period  # the start of one
    group = Group(guide(SAFE, y, paper.width - SAFE, y, CUT), rect(left, y - 2, right - left, 4, fill=white))
    if words:
        group.add(cut_label(paper, label))
    return group


def label_width(label: str) -> float:
    return fonts.text_width(label, fonts.ITALIC, font_mm(style.SMALL_PT)) + 4


def cut_label(paper: Paper, label: str) -> Group:
    """Small print centred on the cut line, on the white ground `cut_line` lays for it."""
    y, x, size = paper.height / 2, paper.width / 2, style.SMALL_PT
    return Group(text(x, y - font_mm(size) * 0.35, label, size, fonts.ITALIC, anchor="middle"))


def sheet_document(ref: Reference, options: BuildOptions, name: str, sides: list[list[Flowable]]) -> Document:
    """The one-page sheet: first half (`sides[0]`) on top, second half below, a cut line between them."""
    boxes = half_boxes(options.paper)
    halves = [Half(part, ref.settings.columns, label, boxes[0][2:]) for part, label in zip(sides, HALVES)]
    page = Page(shapes=[cut_line(options.paper, "Print one-sided at actual size; cut here for two half-page "
                                                "cards")], frames=boxes)
    return document(ref, [page], list(halves), halves, options.paper, name, f"{ref.title} \u2013 reference sheet",
                    "Print single-sided at actual size (100 %)", None)


def cards_document(ref: Reference, options: BuildOptions, name: str, sides: list[list[Flowable]]) -> Document:
    """One duplex sheet: two copies of a card, first half (`sides[0]`) on the front and second on the back."""
    paper = options.paper
    duplex = Duplex(paper, options.flip, options.back_offset)
    boxes = half_boxes(paper)
    front = Page(shapes=[cut_line(paper, f'Print at actual size, choosing "{duplex.dialog}"; cut here')],
                 frames=boxes)
    back = duplex.back_page()  # the printer's back offset moves everything on it
    # the line is mirrored with the back; its label, centred, is drawn unmirrored so it reads
    label = f"The cards' backs, printed with \"{duplex.dialog}\"; cut here"
    back.shapes = [Group(cut_line(paper, label, words=False), transform=duplex.mirror()), cut_label(paper, label)]
    back.frames = [duplex.back_box(box) for box in boxes]
    halves = [Half(sides[side], ref.settings.columns, f"card {label}", boxes[0][2:])  # both copies: the same flowables
              for side, label in enumerate(("front", "back")) for _ in range(2)]
    story: list[Flowable] = [halves[0], halves[1], PageBreak(), halves[2], halves[3]]
    return document(ref, [front, back], story, halves, paper, name, f"{ref.title} \u2013 reference cards",
                    "Print double-sided at actual size (100 %), then cut along the dashed line", options.flip)


def document(ref: Reference, pages: list[Page], story: list[Flowable], halves: list[Half], paper: Paper, name: str,
             title: str, subject: str, flip: Flip | None) -> Document:
    """The pages as a document; a half that overflowed is told once per message, after drawing
    (drawing.document.cut_short asks each half)."""
    for half in halves:
        half.told = (ref, paper)
    return Document(name, paper, pages, title, subject, flip, story, label=f"the {ref.sheet_name} ({paper.name})")


def cut_short(sheet: Document) -> Located:
    """The halves of a reference document that its text overflows, found by pouring its story on a
    throwaway canvas now, as the writer will (a game asks this to place the problems in its own
    Markdown, before the build writes the file); no PDF is written."""
    fonts.register()
    fill(sheet.pages, sheet.story, Trial(), sheet.breaks)
    return halves_cut_short(sheet.story)


def reference_documents(ref: Reference, options: BuildOptions, stem: str,
                        sides: list[list[Flowable]] | None = None) -> list[Document]:
    """`<stem>-reference.pdf` (the one-page sheet) and `<stem>-reference-cards.pdf` (duplex cards),
    of the reference's two halves `sides` (read from its Markdown here when not given). Each
    document, and each copy of a card, pours the same flowables: a layout leaves them as they were
    (platypus lays one story out again on each pass of its multiBuild)."""
    sides = parts(ref, options) if sides is None else sides
    return [sheet_document(ref, options, f"{stem}-reference.pdf", sides),
            cards_document(ref, options, f"{stem}-reference-cards.pdf", sides)]
