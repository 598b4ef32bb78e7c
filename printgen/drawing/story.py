"""The blocks rules text is set in: the house type scale, tables, list items and the blocks that
keep a heading with its text (printgen.drawing.markdown makes them from Markdown)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from printgen.core.paper import MM_PER_PT, pt
from printgen.drawing.libadapter import placed_at_a_frames_top
from printgen.drawing import fonts, style
from printgen.drawing.flow import BREAKS, Trial


NBSP = "\u00a0"
# a space after a number or a ruling's dagger, before a word, or before a dagger (markup tags skipped)
BOUND_SPACE = re.compile(r"(?<=[0-9\u2020]) (?=(?:<[^<>]*>)*[^\s<])|(?<=\S) (?=(?:<[^<>]*>)*\u2020)")


def bind_numbers(markup: str) -> str:
    """No line break between a number and its unit or name ("210 mm", "4 Archer"), nor on either
    side of a ruling's dagger, which stays with the words it marks ("later †."), never opening a
    line: the space there becomes a non-breaking one, as a typesetter sets it."""
    return BOUND_SPACE.sub(NBSP, markup)


def escape(value: str) -> str:
    """Text as reportlab's paragraph markup prints it: `<`, `>` and `&` as typed, a number bound
    to the word after it."""
    return bind_numbers(value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def words_of(text: str) -> list[str]:
    """The pieces a line may break between: split at ordinary spaces, never at a bound one."""
    return [word for word in re.split(r"[ \t\r\n]+", bind_numbers(text)) if word]


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    bullet: ParagraphStyle
    heading: ParagraphStyle
    title: ParagraphStyle
    subtitle: ParagraphStyle
    subheading: ParagraphStyle  # a third-level heading: body size, bold, in the accent


def styles(size: float = style.RULES_PT, accent: str | None = None, default: float = style.RULES_PT) -> Styles:
    """The house type scale (printgen.drawing.style) around a body `size`, for a document whose
    house body size is `default` (rulebook or reference): headings and the title at the scale's
    sizes, in `accent` when given."""
    fonts.register()
    ink = HexColor(accent) if accent else black
    heading, title = style.scaled(style.HEADING_PT, size, default), style.scaled(style.TITLE_PT, size, default)
    body = ParagraphStyle("body", fontName=fonts.REGULAR, bulletFontName=fonts.REGULAR, bulletFontSize=size,
                          fontSize=size, leading=size * 1.22,
                          spaceAfter=size * 0.35, allowWidows=0, allowOrphans=0)
    return Styles(
        body=body,
        bullet=ParagraphStyle("bullet", parent=body, leftIndent=size * 1.1, bulletIndent=size * 0.2,
                              spaceAfter=size * 0.2),
        heading=ParagraphStyle("heading", parent=body, fontName=fonts.BOLD, fontSize=heading,
                               leading=heading * 1.2, spaceBefore=size * 0.5, spaceAfter=size * 0.2,
                               keepWithNext=1, textColor=ink),
        title=ParagraphStyle("title", parent=body, fontName=fonts.BOLD, fontSize=title,
                             leading=title * 1.1, spaceAfter=size * 0.2, textColor=ink),
        subtitle=ParagraphStyle("subtitle", parent=body, fontName=fonts.ITALIC, spaceAfter=size * 0.6),
        subheading=ParagraphStyle("subheading", parent=body, fontName=fonts.BOLD, spaceBefore=size * 0.4,
                                  spaceAfter=size * 0.15, keepWithNext=1, textColor=ink),
    )


def table_style(commands: list[tuple]) -> TableStyle:
    """A TableStyle whose cells default to the embedded font (platypus would pick Helvetica)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), fonts.REGULAR)] + commands)


def accent_of(style: Styles) -> Color:
    """The colour a document's headings print in: its tables' heads are filled with it."""
    colour = style.heading.textColor
    return colour if isinstance(colour, Color) else black


RULE_GREY = HexColor("#9a9a9a")  # a table's grid lines


def grid_style(accent: Color, pad_x: float = 2.5, extra: Sequence[tuple] = ()) -> TableStyle:
    """printgen's one look for a table in rules and reference text, as a published rulebook sets
    one: the head row filled in the game's accent (its words white and bold), every cell ruled in
    light grey so the eye follows a row across a narrow column; `pad_x`: side padding in points."""
    return table_style([
        ("BACKGROUND", (0, 0), (-1, 0), accent),
        ("GRID", (0, 0), (-1, -1), 0.4, RULE_GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad_x), ("RIGHTPADDING", (0, 0), (-1, -1), pad_x),
        ("TOPPADDING", (0, 0), (-1, -1), 1.4), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
        *extra])


def cell_styles(style: Styles, size: float | None = None) -> tuple[ParagraphStyle, ParagraphStyle]:
    """A table's cell and head-cell paragraph styles (the head white and bold, for the accent
    fill), at the body size or at `size` pt."""
    size = size or style.body.fontSize
    cell = style.body.clone("cell", spaceAfter=0, fontSize=size, leading=size * 1.15)
    return cell, cell.clone("head", fontName=fonts.BOLD, textColor=white)


def grid_table(rows: Sequence[Sequence[str]], widths: Sequence[float], style: Styles, accent: Color,
               kind: type[Table] = Table, aligns: Sequence[str] = ()) -> Table:
    """printgen's fully ruled table, so the eye (and pdfplumber) finds each row: `rows` of paragraph
    markup, the first its head in white on `accent`; `widths` in points; `kind` may split its own way."""
    cell, head = cell_styles(style)
    cells = {align: cell.clone(f"ref-cell-{align}", alignment=ALIGN[align]) for align in ALIGN} | {"left": cell}
    heads = {align: head.clone(f"ref-head-{align}", alignment=ALIGN[align]) for align in ALIGN} | {"left": head}

    def paragraph(value: str, column: int, styles: dict[str, ParagraphStyle]) -> Paragraph:
        return Paragraph(value, styles[aligns[column] if column < len(aligns) else "left"])

    body = [[paragraph(value, i, heads if r == 0 else cells) for i, value in enumerate(row)]
            for r, row in enumerate(rows)]
    result = kind(body, colWidths=list(widths), repeatRows=1)
    result.setStyle(grid_style(accent))
    return result


ALIGN = {"left": 0, "center": 1, "right": 2}  # reportlab's paragraph alignments
GRID_PAD = 5.0  # pt: a grid cell's padding, left and right together

TableFactory = Callable[[float], Flowable]  # given the frame width in mm


class FitWidth(Flowable):
    """Builds its content for the width of whatever frame it lands in (tables need fixed widths),
    once a width: a layout wraps a block again at each trial height, and building a table's cells
    again each time was most of a rulebook's layout (reportlab wraps and draws a flowable as often
    as it is asked, as its own multi-pass builds do)."""

    def __init__(self, factory: TableFactory) -> None:
        super().__init__()
        self.factory = factory
        self.content: Flowable | None = None
        self.made: dict[float, Flowable] = {}

    def at_width(self, avail_width: float) -> Flowable:
        if avail_width not in self.made:
            self.made[avail_width] = self.factory(avail_width * MM_PER_PT)
        return self.made[avail_width]

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.content = self.at_width(avail_width)
        self.width, self.height = self.content.wrap(avail_width, avail_height)
        return self.width, self.height

    def draw(self) -> None:
        assert self.content is not None
        if not isinstance(self.canv, Trial):
            self.content.drawOn(self.canv, 0, 0)

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        """The content at this width, broken where it allows (asked only under Document.breaks)."""
        content = self.at_width(avail_width)
        section = getattr(self, "section", "")
        return [tagged(part, section) for part in content.split(avail_width, avail_height)]


class GapAfter(Spacer):
    """The space under a table or a picture, which a column's top swallows: a table that ends one
    column must not push the next column's first line down (their tops stay level)."""

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return (self.width, 0.0) if placed_at_a_frames_top(self) else (self.width, self.height)


ITEM_LINES = 14  # an item (bullet, run-in step or question) up to this many lines never breaks


class Item(Paragraph):
    """A list item, a numbered step or a question with its answer: read as one, so it moves to the
    next column whole rather than break, unless it is too long to be worth keeping together."""

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803 (reportlab's names)
        self.wrap(availWidth, availHeight)
        if self.height <= ITEM_LINES * self.style.leading:
            return []
        return super().split(availWidth, availHeight)


SHORT_LIST = 4  # bullets: a section of no more than this many is never broken between columns


def keep_headings_with_next(story: list[Flowable]) -> list[Flowable]:
    """A heading travels with the block after it; a section that is only a short list travels whole."""
    result: list[Flowable] = []
    i = 0
    while i < len(story):
        item, after = story[i], i + 1
        while after < len(story) and style_of(story[after], "name") == "bullet":
            after += 1
        bullets = after - i - 1
        ends = after == len(story) or style_of(story[after], "keepWithNext") or isinstance(story[after], BREAKS)
        keep = style_of(item, "keepWithNext")
        if keep and 1 < bullets <= SHORT_LIST and ends:
            result.append(tagged(Stack(story[i:after], whole=True), item.section))
            i = after
        elif keep and i + 1 < len(story) and not isinstance(story[i + 1], BREAKS):
            result.append(tagged(Stack([item, story[i + 1]]), item.section))
            i += 2
        else:
            result.append(item)
            i += 1
    return result


def style_of(flowable: Flowable, attribute: str) -> Any:
    return getattr(getattr(flowable, "style", None), attribute, None)


class Stack(Flowable):
    """Flowables that move to the next frame as one block (KeepTogether needs a doc template)."""

    def __init__(self, items: list[Flowable], whole: bool = False) -> None:
        super().__init__()
        self.items = items
        self.whole = whole  # never split: moves on to the next frame in one piece
        self.sizes: list[tuple[float, float]] = []

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.sizes = [item.wrap(avail_width, avail_height) for item in self.items]
        gaps = sum(max(a.getSpaceAfter(), b.getSpaceBefore()) for a, b in zip(self.items, self.items[1:]))
        self.width = max(w for w, _ in self.sizes)
        self.height = sum(h for _, h in self.sizes) + gaps
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return self.items[0].getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self.items[-1].getSpaceAfter()

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        """Items that fit, then as much of the next as fits; never a heading alone at the end."""
        if self.whole:
            return []
        used, section = 0.0, getattr(self, "section", "")
        for k, item in enumerate(self.items):
            gap = max(self.items[k - 1].getSpaceAfter(), item.getSpaceBefore()) if k else 0.0
            _, h = item.wrap(avail_width, avail_height)
            if used + gap + h <= avail_height:
                used += gap + h
                continue
            parts = item.split(avail_width, avail_height - used - gap) if used + gap < avail_height else []
            kept = self.items[:k] + parts[:1]
            rest = [tagged(part, section) for part in parts[1:]] if parts else [item]
            if not kept or style_of(kept[-1], "keepWithNext"):
                return []
            return [tagged(Stack(kept), section), *rest, *self.items[k + 1:]]
        return [self]

    def draw(self) -> None:
        y = self.height
        for k, (item, (_, h)) in enumerate(zip(self.items, self.sizes)):
            if k:
                y -= max(self.items[k - 1].getSpaceAfter(), item.getSpaceBefore())
            y -= h
            item.drawOn(self.canv, 0, y)


SHORT_ITEMS = 6  # a list of no more than this many items moves on whole...
HOLE_MM = 60.0  # ...as does a short table, unless that leaves more than this blank: a quarter of a column


class KeptList(Stack):
    """A short list: moves on whole, as a publisher keeps a few steps or choices in one place,
    unless that would leave more than HOLE_MM of the column blank; then it breaks between items."""

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        if avail_height <= pt(HOLE_MM):
            return []
        return super().split(avail_width, avail_height)


def keep_leads_with_blocks(items: list[Flowable]) -> list[Flowable]:
    """A sentence ending in a colon travels with the table, short list or picture (a flowable marked
    `keeps_lead`, such as a deck's card) after it, never alone at a column's foot."""
    result: list[Flowable] = []
    for item in items:
        lead = result[-1] if result else None
        parts = list(lead.items) if isinstance(lead, Stack) and not isinstance(lead, (KeptList, Masthead)) else [lead]
        last = parts[-1]
        if (isinstance(item, (FitWidth, KeptList)) or getattr(item, "keeps_lead", False)) and isinstance(last, Paragraph) \
                and last.text.rstrip().endswith(":"):
            last.style = last.style.clone(f"{last.style.name}-lead", keepWithNext=1)
            result[-1] = tagged(Stack([*parts, item]), getattr(item, "section", ""))
        else:
            result.append(item)
    return result


RULE_MM = 0.6  # the title block's rule, in the accent
RULE_GAP_MM = 1.5  # between the title block's last line and its rule


class Masthead(Stack):
    """The house title block, the same in every rulebook and reference: the title and its italic
    subtitles, no wider than a comfortable line, over a rule in the accent as wide as the frame (the
    page's text width where the page gives it a band of its own). A subtitle that needs more than a
    line has its lines balanced, so none ends on a lone word. Never split."""

    measure = style.HEAD_MEASURE  # mm: the widest its lines run; a game whose subtitle reads better whole may widen it

    def __init__(self, heads: list[Flowable], accent: Color) -> None:
        super().__init__(heads, whole=True)
        self.accent = accent
        self.words_height = 0.0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        measure = min(avail_width, pt(self.measure))  # short lines, as the body's
        self.sizes = [balanced(item, measure, avail_height) for item in self.items]
        gaps = sum(max(a.getSpaceAfter(), b.getSpaceBefore()) for a, b in zip(self.items, self.items[1:]))
        self.words_height = sum(h for _, h in self.sizes) + gaps
        self.width, self.height = avail_width, self.words_height + pt(RULE_GAP_MM + RULE_MM)
        return self.width, self.height

    def getSpaceAfter(self) -> float:  # noqa: N802 (reportlab's names)
        return pt(2.5)

    def draw(self) -> None:
        super().draw()  # the words from the top down, as a Stack draws them
        self.canv.saveState()
        self.canv.setFillColor(self.accent)
        self.canv.rect(0, 0, self.width, pt(RULE_MM), stroke=0, fill=1)
        self.canv.restoreState()


def balanced(item: Flowable, width: float, height: float) -> tuple[float, float]:
    """Wrap `item` at the narrowest width that keeps the line count it has at `width`: a paragraph
    of several lines then fills them evenly instead of leaving its last word alone."""
    full = item.wrap(width, height)
    if not isinstance(item, Paragraph) or full[1] < 1.5 * item.style.leading:
        return full  # a single line: nothing to balance
    low, high = width / 2, width
    while high - low > 1.0:  # to a point: the line count only changes at word boundaries
        middle = (low + high) / 2
        if item.wrap(middle, height)[1] > full[1]:
            low = middle
        else:
            high = middle
    return item.wrap(high, height)


def with_masthead(story: list[Flowable]) -> list[Flowable]:
    """The story with each title and the subtitles right under it (a reference's two halves have
    one each) as one Masthead."""
    result: list[Flowable] = []
    i = 0
    while i < len(story):
        if style_of(story[i], "name") != "title":
            result.append(story[i])
            i += 1
            continue
        end = i + 1
        while end < len(story) and style_of(story[end], "name") == "subtitle":
            end += 1
        colour = style_of(story[i], "textColor")
        accent = colour if isinstance(colour, Color) else black
        result.append(tagged(Masthead(story[i:end], accent), getattr(story[i], "section", "")))
        i = end
    return result


def tagged(flowable: Flowable, section: str) -> Flowable:
    """Remember a block's section, so an overflow error can name it."""
    flowable.section = section
    return flowable


BOX_WHOLE_MM = 90.0  # an example box no taller than this never breaks (a third of a column)


class ExampleBox(Flowable):
    """A block quote: an example set apart on a pale ground with a bar in the accent colour; moves
    on whole unless it is taller than BOX_WHOLE_MM."""

    BAR = 1.6  # pt
    PAD = 4.0  # pt
    GROUND = HexColor("#f0f0f0")

    def __init__(self, items: list[Flowable], accent: Color) -> None:
        super().__init__()
        self.items = items
        self.accent = accent
        self.inner = Stack(items)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        inside = avail_width - self.BAR - 2 * self.PAD
        _, height = self.inner.wrap(inside, avail_height)
        self.width, self.height = avail_width, height + 2 * self.PAD
        return self.width, self.height

    def getSpaceBefore(self) -> float:  # noqa: N802 (reportlab's names)
        return 2.0

    def getSpaceAfter(self) -> float:  # noqa: N802
        return 6.0

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        self.wrap(avail_width, avail_height)
        if self.height <= pt(BOX_WHOLE_MM):
            return []
        parts = self.inner.split(avail_width - self.BAR - 2 * self.PAD, avail_height - 2 * self.PAD)
        if len(parts) < 2:
            return []
        section = getattr(self, "section", "")
        first = parts[0].items if isinstance(parts[0], Stack) else [parts[0]]
        return [tagged(ExampleBox(first, self.accent), section), tagged(ExampleBox(parts[1:], self.accent), section)]

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(self.GROUND)
        canvas.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        canvas.setFillColor(self.accent)
        canvas.rect(0, 0, self.BAR, self.height, stroke=0, fill=1)
        canvas.restoreState()
        self.inner.drawOn(canvas, self.BAR + self.PAD, self.PAD)


class Row(Flowable):
    """Pictures side by side (a hand of cards), a gap between them, as wide as they are."""

    def __init__(self, items: Sequence[Flowable], gap: float) -> None:
        super().__init__()
        self.items = list(items)
        self.gap = gap
        self.sizes: list[tuple[float, float]] = []

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.sizes = [item.wrap(avail_width, avail_height) for item in self.items]
        self.width = sum(w for w, _ in self.sizes) + self.gap * (len(self.items) - 1)
        self.height = max(h for _, h in self.sizes)
        return self.width, self.height

    def draw(self) -> None:
        x = 0.0
        for item, (w, h) in zip(self.items, self.sizes):
            item.drawOn(self.canv, x, self.height - h)
            x += w + self.gap

