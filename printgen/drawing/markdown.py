"""Rules text written in Markdown, set as printgen's blocks: markdown-it-py reads it (CommonMark
plus GitHub's tables and strikethrough), and `blocks` turns its tree into flowables.

A designer writes what any Markdown viewer shows: `# title` (and italic paragraphs right under it,
the subtitle), `##` sections, lists, `| tables |`, `> examples`, `---`. What a game draws itself
comes in as an HTML comment, which viewers hide: `<!-- table: NAME -->`, `<!-- page break -->`,
`<!-- column break -->`. Other raw HTML is a located problem, links print as their text and are
never fetched, and pictures come only from the `Hooks` a caller gives (`![alt](card:Title)`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from reportlab.lib.colors import Color, HexColor, black
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph, Table
from reportlab.platypus.flowables import HRFlowable

from printgen.core.paper import MM_PER_PT, pt
from printgen.core.problems import MarkdownProblems, TextProblem
from printgen.core.textcheck import FONT_NAME, describe, drawable
from printgen.drawing import fonts
from printgen.drawing.flow import ColumnBreak
from printgen.drawing.story import (GRID_PAD, SHORT_ITEMS, ExampleBox, FitWidth, GapAfter, Item, Row, Styles, TableFactory, escape,
                                    KeptList, bind_numbers, grid_table, keep_headings_with_next,
                                    keep_leads_with_blocks, tagged, with_masthead, words_of)

MAX_NESTING = 8  # lists and quotes inside each other, at the most; deeper is a located problem
READ_NESTING = 100  # markdown-it skips what lies deeper than this, so MAX_NESTING is told first
MAX_LIST_DEPTH = 4  # levels of list inside list that printgen indents
MAX_TABLE_CELLS = 2000  # cells in one Markdown table
MAX_TABLE_COLUMNS = 12
MAX_PICTURES = 200  # pictures in one document

DIRECTIVE = re.compile(r"<!--(.*?)-->", re.S)
TABLE = re.compile(r"^table\s*:\s*([\w.-]+)$")
OWN_NUMBER = re.compile(r"^<b>(\d{1,2}[.)])</b>[ \u00a0]+")  # a bullet item led by its own bold number
ICON = re.compile(r":([a-z0-9][a-z0-9_-]*):")


class NotPrintable(Exception):
    """Raised by a hook (a picture source, an icon) for something the text asks for that cannot be
    printed; the message says why, and the story places it at its line."""


@dataclass(frozen=True)
class Picture:
    """An image the text asks for: `![alt](source "title")`; `scheme` is what comes before the first
    colon (`card` in `card:Mossback Toad`), '' for a plain file name."""

    source: str
    alt: str
    title: str
    line: int

    @property
    def scheme(self) -> str:
        head, colon, _ = self.source.partition(":")
        return head.lower() if colon and re.fullmatch(r"[A-Za-z][\w+.-]*", head) and len(head) > 1 else ""

    @property
    def target(self) -> str:
        """The source after its scheme: `Mossback Toad` in `card:Mossback Toad`."""
        return self.source.split(":", 1)[1] if self.scheme else self.source


PictureMaker = Callable[[Picture], Flowable]  # may raise NotPrintable


@dataclass(frozen=True)
class Hooks:
    """What the text may ask for beyond Markdown: the game's named tables and figures, picture
    sources by scheme, inline `:icon:`s (name -> paragraph markup, None when unknown), and the table
    class that decides how a Markdown table breaks between columns."""

    tables: Mapping[str, TableFactory] = field(default_factory=dict)
    pictures: Mapping[str, PictureMaker] = field(default_factory=dict)
    icons: Callable[[str], str | None] | None = None
    table_kind: type[Table] = Table
    row: Callable[[list[Flowable]], Flowable] | None = None  # several pictures of one paragraph; else Row
    prepare: Callable[[str], str] | None = None  # the text before it is read, its lines kept (a deck's card links)


def parser() -> MarkdownIt:
    """CommonMark with GitHub's tables and strikethrough; raw HTML is read so it can be refused."""
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": READ_NESTING}).enable(["table", "strikethrough"])
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]  # a source as written: card:Mossback Toad
    return md


def blocks(text: str, source: str, style: Styles, hooks: Hooks = Hooks()) -> list[Flowable]:
    """The flowables of Markdown `text` (`source` names it in problems); raises MarkdownProblems
    with every problem found, each at its line."""
    if hooks.prepare is not None:
        text = hooks.prepare(text)
    setter = Setter(style, hooks, source, text)
    setter.document(SyntaxTreeNode(parser().parse(text)))
    if setter.problems:
        raise MarkdownProblems(source, text, setter.problems)
    return keep_leads_with_blocks(keep_headings_with_next(with_masthead(setter.story)))


def plain_text(node: SyntaxTreeNode) -> str:
    """The words of an inline node, without markup (a section's name)."""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(plain_text(child) for child in node.children)


def own_numbers(node: SyntaxTreeNode) -> str:
    """The widest bold number leading an item of a bullet list (`- **1.** ...`), '' when none does."""
    marks = []
    for item in node.children:
        paragraph = item.children[0] if item.children else None
        inline = paragraph.children[0] if paragraph is not None and paragraph.type == "paragraph" else None
        lead = inline.children[0] if inline is not None and inline.children else None
        if lead is not None and lead.type == "strong" and re.fullmatch(r"\d{1,2}[.)]", plain_text(lead)):
            marks.append(plain_text(lead))
    return max(marks, key=len, default="")


def first_line(node: SyntaxTreeNode) -> int:
    return (node.map[0] + 1) if node.map else 1


class Setter:
    """Walks the Markdown tree once, appending blocks to `story` and problems to `problems`."""

    def __init__(self, style: Styles, hooks: Hooks, source: str, text: str) -> None:
        self.source, self.markdown = source, text
        self.style = style
        self.hooks = hooks
        self.story: list[Flowable] = []
        self.problems: list[TextProblem] = []
        self.section = ""
        self.pictures = 0
        self.after_title = False  # italic paragraphs right under a `# title` are its subtitle
        self.html_lines: set[int] = set()  # lines whose raw HTML has been told
        self.glyph_lines: set[int] = set()  # lines whose missing glyph has been told
        self.nesting = 0  # lists and quotes around the block being set
        self.indent = 0.0  # pt: where the words of the list item around the block being set begin
        self.line = 1  # the line of the inline text being set

    def problem(self, line: int, snippet: str, message: str) -> None:
        self.problems.append(TextProblem(line, snippet, message))

    # -- blocks ------------------------------------------------------------------------------------

    def document(self, root: SyntaxTreeNode) -> None:
        for node in root.children:
            self.story.extend(self.block(node, 0))

    def block(self, node: SyntaxTreeNode, depth: int) -> list[Flowable]:
        """The flowables of one block node; a heading also names the section of what follows."""
        kind, line = node.type, first_line(node)
        title, self.after_title = self.after_title, False
        if kind == "heading":
            words = plain_text(node.children[0]).strip()
            if node.tag == "h1":
                self.after_title = True
            if node.tag in ("h1", "h2"):
                self.section = words
            style = {"h1": self.style.title, "h2": self.style.heading}.get(node.tag, self.style.subheading)
            return [self.tag(Paragraph(self.inline(node.children[0], line), style))]
        if kind == "paragraph":
            return self.paragraph(node, line, title)
        if kind in ("bullet_list", "ordered_list", "blockquote") and self.nesting >= MAX_NESTING:
            self.problem(line, "", f"lists and quotes go at most {MAX_NESTING} deep inside each other; "
                                   f"make this one shallower")
            return []
        if kind in ("bullet_list", "ordered_list"):
            return self.nested(lambda: self.listing(node, depth))
        if kind == "blockquote":
            inner = self.nested(lambda: [item for child in node.children for item in self.block(child, depth)])
            return [self.tag(ExampleBox(inner, self.box_accent()))] if inner else []
        if kind == "table":
            return self.table(node, line)
        if kind == "hr":
            return [self.tag(HRFlowable(width="100%", thickness=0.6, color=HexColor("#999999"),
                                        spaceBefore=self.style.body.fontSize * 0.3,
                                        spaceAfter=self.style.body.fontSize * 0.6))]
        if kind in ("code_block", "fence"):
            lines = node.content.rstrip("\n").split("\n")
            return [self.tag(Paragraph("<br/>".join(escape(text) for text in lines), self.style.body))]
        if kind == "html_block":
            return self.html_block(node, line)
        self.problem(line, "", f"Markdown's {kind.replace('_', ' ')} is not something printgen can print")
        return []

    def nested(self, make: Callable[[], list[Flowable]]) -> list[Flowable]:
        self.nesting += 1
        try:
            return make()
        finally:
            self.nesting -= 1

    def tag(self, flowable: Flowable) -> Flowable:
        return tagged(flowable, self.section)

    def paragraph(self, node: SyntaxTreeNode, line: int, title: bool) -> list[Flowable]:
        inline = node.children[0]
        parts = [child for child in inline.children  # what it holds, without line ends and empty words
                 if child.type != "softbreak" and not (child.type == "text" and not child.content.strip())]
        if parts and all(child.type == "image" for child in parts):
            return self.pictures_row([child for child in parts if child.type == "image"], line)
        if title and len(parts) == 1 and parts[0].type == "em":  # a subtitle, in the title band
            self.after_title = True
            return [self.tag(Paragraph(self.inline(parts[0], line, top=True), self.style.subtitle))]
        words = self.inline(inline, line)
        kind = Item if parts and parts[0].type == "strong" else Paragraph  # a run-in step, a question
        return [self.tag(kind(words, self.style.body))]

    def listing(self, node: SyntaxTreeNode, depth: int) -> list[Flowable]:
        """Each item a bullet (or a number), its later paragraphs and lists indented under it."""
        if depth >= MAX_LIST_DEPTH:
            self.problem(first_line(node), "", f"lists go at most {MAX_LIST_DEPTH} deep; make this one shallower")
            return []
        size, bullet = self.style.body.fontSize, self.style.bullet
        number = int(node.attrs.get("start", 1) or 1) if node.type == "ordered_list" else 0
        last = f"{number + len(node.children) - 1}." if node.type == "ordered_list" else own_numbers(node)
        # the marks hang from the text's edge around them; the words line up past the widest mark
        step = max(bullet.leftIndent - bullet.bulletIndent, stringWidth(last + " ", bullet.fontName, size))
        if depth or last:
            bullet = bullet.clone(bullet.name, bulletIndent=self.indent + bullet.bulletIndent,
                                  leftIndent=self.indent + bullet.bulletIndent + step)
        outer, self.indent = self.indent, bullet.leftIndent
        try:
            made = self.items(node, depth, bullet, number)
        finally:
            self.indent = outer
        if depth == 0 and 1 < len(node.children) <= SHORT_ITEMS and made:  # a short list moves on whole
            return [self.tag(KeptList(made))]
        return made

    def items(self, node: SyntaxTreeNode, depth: int, bullet: ParagraphStyle, number: int) -> list[Flowable]:
        result: list[Flowable] = []
        for k, item in enumerate(node.children):
            mark = f"{number + k}." if node.type == "ordered_list" else ("\u2022" if depth % 2 == 0 else "\u2013")
            first = True
            for child in item.children:
                if child.type == "paragraph" and first:
                    words = self.inline(child.children[0], first_line(child))
                    own = OWN_NUMBER.match(words) if node.type == "bullet_list" else None
                    if own:  # "- **1.** ...": a step numbered by its own words, set as a numbered list sets it
                        mark, words = own.group(1), words[own.end():]
                    result.append(self.tag(Item(words, bullet, bulletText=mark)))
                elif child.type == "paragraph":
                    result.append(self.tag(Item(self.inline(child.children[0], first_line(child)), bullet)))
                else:
                    if first:  # an item that starts with a list or a table: its mark stands alone
                        result.append(self.tag(Item("", bullet, bulletText=mark)))
                    result.extend(self.block(child, depth + 1) if child.type.endswith("_list")
                                  else self.block(child, depth))
                first = False
            if first:  # an empty item
                result.append(self.tag(Item("", bullet, bulletText=mark)))
        return result

    def table(self, node: SyntaxTreeNode, line: int) -> list[Flowable]:
        rows: list[list[str]] = []
        aligns: list[str] = []
        plain: list[list[str]] = []
        for part in node.children:  # thead, tbody
            for row in part.children:
                rows.append([self.inline(cell.children[0], first_line(row)) if cell.children else ""
                             for cell in row.children])
                plain.append([plain_text(cell.children[0]) if cell.children else "" for cell in row.children])
                if not aligns:
                    aligns = [align_of(str(cell.attrs.get("style", ""))) for cell in row.children]
        cells = sum(len(row) for row in rows)
        if cells > MAX_TABLE_CELLS or len(aligns) > MAX_TABLE_COLUMNS:
            self.problem(line, "|", f"a table may have at most {MAX_TABLE_COLUMNS} columns and "
                                    f"{MAX_TABLE_CELLS} cells (this one: {len(aligns)} and {cells})")
            return []
        factory = MarkdownTable(rows, plain, aligns, self.style, self.box_accent(), self.hooks.table_kind,
                                (self.source, self.markdown, line))
        return [self.tag(FitWidth(factory)), GapAfter(1, self.style.body.spaceAfter)]

    def html_block(self, node: SyntaxTreeNode, line: int) -> list[Flowable]:
        """Comments: printgen's directives, or nothing; any other HTML is a problem."""
        result: list[Flowable] = []
        rest = DIRECTIVE.sub("", node.content).strip()
        if rest:
            self.problem(line, rest.split("\n", 1)[0][:40], raw_html(rest))
        for match in DIRECTIVE.finditer(node.content):
            where = line + node.content.count("\n", 0, match.start())
            result.extend(self.directive(" ".join(match.group(1).split()), where))
        return result

    def directive(self, words: str, line: int) -> list[Flowable]:
        lowered = words.lower()
        table = TABLE.match(words)
        if table:
            name = table.group(1)
            if name not in self.hooks.tables:
                known = ", ".join(sorted(self.hooks.tables)) or "none"
                self.problem(line, f"table: {name}", f"the text asks for an unknown table '{name}' (known: {known})")
                return []
            return [self.tag(FitWidth(self.hooks.tables[name])), GapAfter(1, self.style.body.spaceAfter)]
        if lowered == "page break":
            mark = PageBreak()
            mark.line = line  # a reference text with a break too many is told at it
            return [mark]
        if lowered == "column break":
            return [ColumnBreak()]
        if re.split(r"[\s:_-]", lowered)[0] in ("table", "page", "column", "pagebreak", "newpage"):
            self.problem(line, words[:40], f"'<!-- {words} -->' is not one of printgen's comments; write "
                                           f"<!-- table: NAME -->, <!-- page break --> or <!-- column break -->")
        return []  # any other comment is a comment

    def pictures_row(self, images: list[SyntaxTreeNode], line: int) -> list[Flowable]:
        made: list[Flowable] = []
        for image in images:
            picture = Picture(str(image.attrs.get("src", "")), plain_text(image), str(image.attrs.get("title") or ""),
                              line)
            flowable = self.picture(picture)
            if flowable is not None:
                made.append(flowable)
        if not made:
            return []
        row = self.hooks.row or (lambda items: Row(items, pt(2.0)))
        return [self.tag(made[0] if len(made) == 1 else row(made))]

    def picture(self, picture: Picture) -> Flowable | None:
        self.pictures += 1
        if self.pictures > MAX_PICTURES:
            if self.pictures == MAX_PICTURES + 1:
                self.problem(picture.line, picture.source, f"a document may show at most {MAX_PICTURES} pictures")
            return None
        maker = self.hooks.pictures.get(picture.scheme)
        if maker is None:
            known = ", ".join(f"'{s}:'" if s else "a file name" for s in sorted(self.hooks.pictures))
            self.problem(picture.line, picture.source,
                         f"no picture can come from '{picture.source}' here"
                         + (f" (this text may show: {known})" if known else " (this text shows no pictures)"))
            return None
        try:
            return maker(picture)
        except NotPrintable as exc:
            self.problem(picture.line, picture.source, str(exc))
            return None

    def box_accent(self) -> Color:
        colour = self.style.heading.textColor
        return colour if isinstance(colour, Color) else black

    # -- inline ------------------------------------------------------------------------------------

    def inline(self, node: SyntaxTreeNode, line: int, top: bool = False) -> str:
        """Paragraph markup for reportlab: text escaped, emphasis as <i>/<b>; `top` drops the node's
        own emphasis (a subtitle is italic already)."""
        self.line = line  # counted on at each line end, so a problem names its own line
        return bind_numbers("".join(self.marked(child) for child in node.children) if top or node.type == "inline"
                            else self.marked(node))

    def marked(self, node: SyntaxTreeNode) -> str:
        kind, line = node.type, self.line
        inner = "".join(self.marked(child) for child in node.children) if node.children else ""
        if kind == "text":
            return self.text(node.content, line)
        if kind == "code_inline":
            self.printable(node.content, line)
            return escape(node.content)
        if kind in ("softbreak", "hardbreak"):
            self.line += 1
            return " " if kind == "softbreak" else "<br/>"
        if kind == "em":
            return f"<i>{inner}</i>"
        if kind == "strong":
            return f"<b>{inner}</b>"
        if kind == "s":
            return f"<strike>{inner}</strike>"
        if kind == "link":  # printed as its words; never followed
            return inner
        if kind == "image":
            self.problem(line, str(node.attrs.get("src", "")), "a picture stands in a paragraph of its own "
                                                               "(a blank line before and after it)")
            return ""
        if kind == "html_inline":  # a comment is nothing; a tag is told once a line, where it opens
            if not node.content.startswith(("<!--", "</")) and line not in self.html_lines:
                self.html_lines.add(line)
                self.problem(line, node.content[:40], raw_html(node.content))
            return ""
        return inner

    def text(self, words: str, line: int) -> str:
        self.printable(words, line)
        if self.hooks.icons is None:
            return escape(words)
        out, at = [], 0
        for match in ICON.finditer(words):
            try:
                made = self.hooks.icons(match.group(1))
            except NotPrintable as exc:
                self.problem(line, match.group(0), str(exc))
                continue
            if made is None:
                self.problem(line, match.group(0), f"no icon called '{match.group(1)}'")
                continue
            out += [escape(words[at:match.start()]), made]
            at = match.end()
        return "".join(out) + escape(words[at:])


    def printable(self, words: str, line: int) -> None:
        """A character the embedded font cannot draw would print as an empty box: told at its line."""
        glyphs = drawable()
        missing = next((char for char in words if ord(char) not in glyphs and not char.isspace()), None)
        if missing is not None and line not in self.glyph_lines:
            self.glyph_lines.add(line)
            self.problem(line, missing, f"'{missing}' ({describe(missing)}) is not in the embedded font "
                                        f"({FONT_NAME}), so it would print as an empty box; spell it another way")


def raw_html(html: str) -> str:
    shown = " ".join(html.split())[:40]
    return (f"raw HTML ({shown}) is not printed; write Markdown instead (**bold**, *italic*), or a "
            f"backslash before a < that should print")


def align_of(css: str) -> str:
    match = re.search(r"text-align:\s*(left|center|right)", str(css))
    return match.group(1) if match else "left"


class MarkdownTable:
    """A Markdown table built for the width it lands in: columns share the width by how much they
    hold, and none is narrower than its longest word (else the table is too wide: a problem)."""

    def __init__(self, rows: list[list[str]], plain: list[list[str]], aligns: list[str], style: Styles,
                 accent: Color, kind: type[Table], where: tuple[str, str, int]) -> None:
        self.rows, self.plain, self.aligns, self.style = rows, plain, aligns, style
        self.accent, self.kind, self.where = accent, kind, where

    def widths(self, width: float) -> list[float]:
        size = self.style.body.fontSize
        columns = len(self.aligns)
        least = [GRID_PAD + max((stringWidth(word, fonts.BOLD, size) for row in self.plain
                                 for word in words_of(row[i] if i < len(row) else "")), default=size)
                 for i in range(columns)]
        natural = [GRID_PAD + max((stringWidth(row[i] if i < len(row) else "", fonts.BOLD, size)
                                   for row in self.plain), default=size) for i in range(columns)]
        if sum(least) > width + 0.01:  # found while laying out, so told from here
            source, text, line = self.where
            raise MarkdownProblems(source, text, [TextProblem(line, "|", (
                f"the table is too wide for its column: its longest words need {sum(least) * MM_PER_PT:.0f} mm, "
                f"the column is {width * MM_PER_PT:.0f} mm; shorten them, or give the table fewer columns"))])
        if sum(natural) <= width:  # room to spare: each column grows with what it holds
            return [n * width / sum(natural) for n in natural]
        # from each column's least width, share the rest in proportion to what it still wants
        spare, wants = width - sum(least), [n - low for n, low in zip(natural, least)]
        return [low + spare * want / sum(wants) for low, want in zip(least, wants)]

    def __call__(self, width_mm: float) -> Flowable:
        width = pt(width_mm)
        return grid_table(self.rows, self.widths(width), self.style, self.accent, self.kind, self.aligns)
