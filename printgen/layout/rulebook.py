"""Rulebooks: a game's full rules as a booklet of pages in columns, from a Markdown Jinja template.

Where a reference sheet squeezes the rules onto a page, a rulebook has room to teach them. The
template also gets `flip` and `paper`; its title band spans the first page, and the page count
grows from an estimate while the text overflows, up to MAX_PAGES.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, partial
from itertools import takewhile
from math import ceil
from typing import Annotated, Any, Callable, Mapping, Union

from pydantic import BaseModel, ConfigDict, Field
from reportlab.graphics.shapes import Group
from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, PageBreak, Table

from printgen.core.build import BuildOptions
from printgen.core.paper import Paper, pt
from printgen.core.source import Loc
from printgen.drawing.document import Blame, Document, DoesNotFit, Grow, Growing, Page
from printgen.drawing.columns import BAND_GAP
from printgen.drawing.flow import Trial, frame_at, pour
from printgen.drawing.libadapter import frame_cursor
from printgen.drawing import style
from printgen.drawing.markdown import Hooks, PictureMaker, blocks
from printgen.drawing.story import HOLE_MM, Stack, Styles, keep_leads_with_blocks, styles
from printgen.jinja.render import render
from printgen.layout.reference import DataTable, Figure, data_table, is_head

MARGIN = style.MARGIN
GUTTER = style.GUTTER
MAX_PAGES = 12
BALANCE_STEP = 2.0  # mm: the last page's columns grow by this until its text fits them
LEVEL_TRIES = 16  # and then by up to this many steps more, to end them level


class RulebookSettings(BaseModel):
    """The `rules:` block of a game's YAML: how its rulebook's text is set."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text_size_pt: Annotated[float, Field(ge=7, le=12, allow_inf_nan=False,
                                         description="body text size; never below 7 pt")] = style.RULES_PT
    columns: Annotated[int, Field(ge=1, le=3, description="text columns on each page")] = 2


@dataclass(frozen=True)
class Rulebook:
    title: str  # the game's title
    template: str  # e.g. "fracas/rules.md.j2", looked up through the user's template folders
    context: Mapping[str, Any]
    tables: Mapping[str, Union[DataTable, Figure]]
    settings: RulebookSettings
    accent: str  # #rrggbb for headings and table heads
    credit: str = ""  # who made the game, in every page's footer
    settings_loc: Loc = ("rules",)  # where `settings` sits in the YAML
    key: str = ""  # a line every page's footer repeats: what the mark on printgen's rulings means
    pictures: Mapping[str, PictureMaker] = field(default_factory=dict)  # `![alt](scheme:...)` sources
    icons: Callable[[str], str | None] | None = None  # `:name:` -> paragraph markup (None: unknown)
    row: Callable[[list[Flowable]], Flowable] | None = None  # several pictures of one paragraph (a row of cards)
    prepare: Callable[[str], str] | None = None  # the text before it is read, its lines kept
    # a drawn page after the text (a play aid on what would be a blank back), its footer added here
    closing: Callable[[Paper], Group] | None = None


def rulebook_styles(settings: RulebookSettings, accent: str) -> Styles:
    """The house styles with headings and the title in the game's accent colour."""
    base = styles(settings.text_size_pt, accent)
    size = settings.text_size_pt
    return replace(base, heading=base.heading.clone("rules-heading", spaceBefore=size * 0.9),
                   subtitle=base.subtitle.clone("subtitle", spaceAfter=size * 0.2))


SHORT_TABLE = 8  # rows under the head: a table no longer than this moves on whole (see story.HOLE_MM)


class RulesTable(Table):
    """Breaks only between rows, never inside one, and repeats its head row after the break; a
    short table moves on whole, as a publisher keeps a small table in one piece, unless that would
    leave more than HOLE_MM of its column blank."""

    def __init__(self, data: Any, *args: Any, **kwargs: Any) -> None:
        """Counts its rows: a Table keeps them only privately, and makes its split halves through
        this class, so each half counts its own."""
        self.rows = len(data)
        super().__init__(data, *args, **kwargs)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803 (reportlab's names)
        if self.rows - self.repeatRows <= SHORT_TABLE and availHeight <= pt(HOLE_MM):
            return []
        parts = super().split(availWidth, availHeight)  # by rows only: a Table's default
        if len(parts) == 2 and getattr(parts[0], "rows", 0) <= self.repeatRows + 1:
            return []  # a head row with one row under it is no start: move the table on
        return parts


def markdown(book: Rulebook, options: BuildOptions, closing: bool = False) -> str:
    """The book's Markdown, rendered once per build, as its story is made (every layout pass pours
    a copy of it). `closing`: the book ends in its drawn page, which the text may point to (a
    booklet leaves it out)."""
    context = {**book.context, "flip": options.flip, "paper": options.paper.name, "closing_page": closing}
    return render(book.template, context, options.templates)


def story(book: Rulebook, text: str) -> list[Flowable]:
    style = rulebook_styles(book.settings, book.accent)
    accent = HexColor(book.accent)
    factories = {name: partial(data_table, table, style, accent, kind=RulesTable) if isinstance(table, DataTable)
                 else table for name, table in book.tables.items()}
    hooks = Hooks(factories, book.pictures, book.icons, RulesTable, row=book.row, prepare=book.prepare)
    return keep_leads_with_blocks(blocks(text, book.template, style, hooks))




@dataclass(frozen=True)
class Layout:
    """The first page's title band (if any) and the columns, in mm."""

    paper: Paper
    columns: int
    band: float  # height of the title band; 0 when there is none

    @property
    def width(self) -> float:
        return self.paper.width - 2 * MARGIN

    @property
    def column_width(self) -> float:
        return (self.width - (self.columns - 1) * GUTTER) / self.columns

    def column_frames(self, top: float) -> list[tuple[float, float, float, float]]:
        w = self.column_width
        return [(MARGIN + i * (w + GUTTER), MARGIN, w, top - MARGIN) for i in range(self.columns)]

    @property
    def body_top(self) -> float:
        return self.paper.height - MARGIN

    @property
    def first_top(self) -> float:
        return self.body_top - self.band - BAND_GAP if self.band else self.body_top


def plan(items: list[Flowable], settings: RulebookSettings, paper: Paper) -> Layout:
    """Measure the title band: the story's heads set across the full text width."""
    heads = list(takewhile(is_head, items))
    band = 0.0
    if heads:
        _, height = Stack(heads).wrap(pt(band_width(paper)), pt(paper.height))  # a Masthead limits its measure
        band = height / pt(1) + 0.5  # a hair of room, far less than any heading after it needs
    return Layout(paper, settings.columns, band)


def band_width(paper: Paper) -> float:
    """The title band's width: the text width (the title block keeps its lines to a comfortable
    measure, and rules its foot across the whole width)."""
    return paper.width - 2 * MARGIN


def pages(book: Rulebook, layout: Layout, count: int, sheets: bool = True) -> list[Page]:
    """`count` pages: the first with the title band and a rule under it, each with a footer;
    `sheets`: printed as they come on both sides, so an odd last page says its back is blank."""
    result = []
    total = count + closing_pages(book, sheets)
    for n in range(1, count + 1):
        words = style.footer_words(book.title, "rules", n, total, book.credit)
        notes = [book.key] if book.key else []
        if sheets and n == total and total % 2:  # a booklet printed on both sides: say why the last back is empty
            notes.append("The back of this sheet is left blank")
        page = Page(shapes=[style.running_footer(layout.paper, words, above=" \u00b7 ".join(notes))])
        if n == 1 and layout.band:
            top = layout.body_top
            page.frames.append((MARGIN, top - layout.band, band_width(layout.paper), layout.band))
        page.frames += layout.column_frames(layout.first_top if n == 1 else layout.body_top)
        result.append(page)
    return result


def closing_pages(book: Rulebook, sheets: bool) -> int:
    """1 when the book ends in a drawn page: on full-size sheets only (a booklet's pages are too small)."""
    return 1 if sheets and book.closing is not None else 0


def closing_page(book: Rulebook, paper: Paper, count: int) -> Page:
    """The drawn last page, page `count`, with the running footer of the pages before it."""
    assert book.closing is not None
    words = style.footer_words(book.title, "rules", count, count, book.credit)
    notes = ["The back of this sheet is left blank"] if count % 2 else []
    return Page(shapes=[book.closing(paper), style.running_footer(paper, words, above=" \u00b7 ".join(notes))])


def balanced(layout: Layout, last: Page, remaining: list[Flowable]) -> Page:
    """The last page, its columns cut to share evenly the text `remaining` that reaches it and fits
    it (printgen.layout.paging pours the pages before; here trials on a throwaway canvas)."""
    canvas = Trial()
    fixed, columns = last.frames[:-layout.columns], last.frames[-layout.columns:]
    if not remaining or any(isinstance(item, PageBreak) for item in remaining):
        return last
    _, bottom, _, full = columns[0]
    top = bottom + full

    last_ends: dict[int, float] = {}  # the last column given the story's last n blocks whole: where it ended

    @cache  # each height poured once
    def uneven(height: float) -> float | None:
        """How far apart (pt) the columns end when cut to `height`; None when the text overflows.
        Heights are tried from the least up, and blocks that fit the last column at one height sit
        in a taller one just as they did, so that column is poured once for each set it is given."""
        trial = list(remaining)
        for box in fixed:
            pour(frame_at(*box), trial, canvas, True)
        ends = []
        for x, _, w, _ in columns[:-1]:
            frame = frame_at(x, top - height, w, height)
            pour(frame, trial, canvas, True)
            ends.append(frame_cursor(frame))
        given = len(trial) if not trial or trial[0] is remaining[-len(trial)] else -1  # -1: a block's split part
        if given not in last_ends:
            x, _, w, _ = columns[-1]
            frame = frame_at(x, top - height, w, height)
            pour(frame, trial, canvas, True)
            if trial:
                return None
            if given >= 0:
                last_ends[given] = frame_cursor(frame)
            ends.append(frame_cursor(frame))
        else:
            ends.append(last_ends[given])
        return max(ends) - min(ends)

    width = pt(layout.column_width)
    needed = sum(item.wrap(width, pt(full))[1] + item.getSpaceBefore() for item in remaining) / pt(1)
    height = min(full, needed / layout.columns)
    while height < full and uneven(height) is None:
        height = min(full, height + BALANCE_STEP)
    if height >= full:
        return last
    # a block that moves whole can leave one column short: a little more height may end them level
    tries = [h for h in (height + k * BALANCE_STEP for k in range(LEVEL_TRIES)) if h < full]
    height = min(tries, key=lambda h: (1e9 if uneven(h) is None else uneven(h), h))
    frames = fixed + [(x, top - height, w, height) for x, _, w, _ in columns]
    return Page(shapes=last.shapes, frames=frames)


def estimate(items: list[Flowable], layout: Layout) -> int:
    """A first guess at the page count, never more than needed (an extra page would print blank)."""
    width = pt(layout.column_width)
    body = [item for item in items if not is_head(item) and not isinstance(item, PageBreak)]
    total = sum(item.wrap(width, pt(layout.paper.height))[1] + item.getSpaceBefore() + item.getSpaceAfter()
                for item in body)
    first = pt(layout.first_top - MARGIN) * layout.columns
    rest = pt(layout.body_top - MARGIN) * layout.columns
    breaks = sum(isinstance(item, PageBreak) for item in items)
    needed = 1 + max(0, ceil((0.9 * total - first) / rest))
    return min(MAX_PAGES, max(1 + breaks, needed))


def rulebook_document(book: Rulebook, options: BuildOptions, name: str, paper: Paper | None = None) -> Growing:
    """The rulebook on the build's paper, or on `paper`: a booklet's half-size page."""
    sheets, paper = paper is None, paper or options.paper
    text = markdown(book, options, closing=bool(closing_pages(book, sheets)))
    items = story(book, text)
    layout = plan(items, book.settings, paper)
    try:
        first_guess = estimate(items, layout)
    except DoesNotFit:  # a figure too wide for a column: writing the book names it, with its key
        first_guess = 1
    size_key = ".".join(str(p) for p in (*book.settings_loc, "text_size_pt"))
    advice = f"lower {size_key} or shorten the template"
    document = Document(name, paper, [], f"{book.title} \u2013 rules",
                        f"Print on both sides at actual size, turning on the {options.flip} edge", options.flip,
                        overflow=Blame((*book.settings_loc, "text_size_pt"),
                                       f"the {book.title} rules need more than {MAX_PAGES} pages of "
                                       f"{paper.name} paper", advice),
                        label=f"the {book.title} rules ({paper.name})", breaks=True)
    grow = Grow(partial(pages, book, layout, sheets=sheets), lambda: items, first_guess, MAX_PAGES,
                balance=partial(balanced, layout))
    if not closing_pages(book, sheets):
        return Growing(document, grow)

    def closed(found: list[Page], flowed: list[Flowable]) -> Document:
        return replace(document, pages=[*found, closing_page(book, paper, len(found) + 1)], story=flowed)
    return Growing(document, grow, then=closed)
