"""A deck's own rulebook and reference card, from Markdown files beside its definition, set as the
bundled games' are (printgen.layout.rulebook, printgen.layout.reference), with the deck's cards,
icons and pictures in them:

- `![Mossback Toad](<card:Mossback Toad>)` or `![Mossback Toad](card:mossback-toad)` (the card's
  file name), `#back` for its back, `?width=40mm` for a size other than its own; several card
  pictures in one paragraph are a row (a hand, a tableau);
- `:name:` an icon of the deck's `icons:`;
- `![map](map.svg)` a picture beside the definition (SVG drawn as vectors, PNG, JPEG).
"""
from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, Sequence
from urllib.parse import unquote

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Group
from reportlab.platypus import Flowable

from printgen.art.library import ArtContext, resolve
from printgen.core.build import BuildOptions
from printgen.core.paper import MM_PER_PT, PT_PER_MM, Paper, pt
from printgen.core.problems import DefinitionError, MarkdownProblems, Problem, TextProblem
from printgen.drawing import fonts
from printgen.drawing.document import Blame, Document, Growing, Page
from printgen.drawing.markdown import NotPrintable, Picture
from printgen.games import Loaded
from printgen.games.deck.drawn import DeckCard
from printgen.games.deck.model import Deck
from printgen.games.deck.rulesfields import ReferenceText, RulebookText
from printgen.games.deck.shown import CardRow, ShownCard, card_title, find_card
from printgen.layout import reference, rulebook
from printgen.layout.icons import icon_png
from printgen.layout.reference import Reference, cut_short, ReferenceSettings, reference_documents
from printgen.layout.rulebook import Rulebook, RulebookSettings, rulebook_document

CARD_LINK = re.compile(r"(\]\()(card:[^()<>\n]*\s[^()<>\n]*?)(\))", re.I)  # a card's name with spaces
WIDTH = re.compile(r"^(\d+(?:\.\d+)?)\s*mm$")
MIN_WIDTH, MAX_WIDTH = 10.0, 300.0  # mm a picture or card may be asked to be
ICON_DPI = 600  # an icon is set in the text as a picture this sharp
ICON_EM = 1.0  # an icon's height, of the body size


def spaced_links(text: str) -> str:
    """`](card:Mossback Toad)` as CommonMark reads a destination with spaces, `](<card:Mossback Toad>)`,
    so the name can be written as it prints; other viewers show the line as text."""
    return CARD_LINK.sub(lambda m: f"{m.group(1)}<{m.group(2).strip()}>{m.group(3)}", text)


WARNING = re.compile(r"^[ \t]*<!--[ \t]*warning:[ \t]*(.*?)[ \t]*-->[ \t]*$", re.I | re.M)


class Notes:
    """The `<!-- warning: ... -->` comments a rules text's template wrote (Jinja decides, from the
    deck's rows, when to write one), each to be told at its line as the build's warning; the reader
    skips them as it skips every comment."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, int, str], None] = {}  # (rendered text, line, words), in order

    def __call__(self, text: str) -> str:
        for match in WARNING.finditer(text):
            self.found[(text, text.count("\n", 0, match.start()) + 1, match.group(1))] = None
        return spaced_links(text)

    def told(self, template: str, options: BuildOptions) -> list[str]:
        from printgen.jinja.render import source_line

        said = [Problem(*source_line(template, list(options.templates), text, line, "warning:"), "", words)
                for text, line, words in self.found]
        return [str(problem) for problem in dict.fromkeys(said)]


Callouts = tuple[tuple[float, float], ...]
MAX_CALLOUTS = 12  # numbered marks on one card picture: more would crowd it past reading


def asked(target: str) -> tuple[str, str, float | None, Callouts]:
    """`Mossback Toad#back?width=40mm&callouts=53,8;30,60` (in any order) as (name, side, width mm
    or None, callout points)."""
    text = unquote(target)
    width: float | None = None
    callouts: Callouts = ()
    side = "face"
    name = re.split(r"[#?]", text, maxsplit=1)[0]
    for kind, value in re.findall(r"([#?])([^#?]*)", text[len(name):]):
        if kind == "#":
            side = value.strip().lower()
            continue
        for query in value.split("&"):
            if query.partition("=")[0].strip() == "callouts":
                callouts = callouts_of(query.partition("=")[2])
            else:
                width = width_of(query)
    return name.strip(), side, width, callouts


def callouts_of(value: str) -> Callouts:
    """`53,8;30,60`: the points (mm across, mm down from the card's top-left) numbered 1, 2, ..."""
    points = []
    for pair in value.split(";"):
        found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*", pair)
        if found is None:
            raise NotPrintable(f"expected ?callouts= and points in mm from the card's top-left corner, such "
                               f"as ?callouts=53,8;30,60 (got {pair.strip()!r})")
        points.append((float(found.group(1)), float(found.group(2))))
    if len(points) > MAX_CALLOUTS:
        raise NotPrintable(f"expected at most {MAX_CALLOUTS} callouts on one card (got {len(points)})")
    return tuple(points)


def width_of(query: str) -> float:
    key, _, value = query.partition("=")
    found = WIDTH.match(value.strip())
    if key.strip() != "width" or found is None:
        raise NotPrintable(f"expected ?width= and a size in mm, such as ?width=40mm, or ?callouts= "
                           f"(got ?{query})")
    width = float(found.group(1))
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise NotPrintable(f"expected a width from {MIN_WIDTH:g} to {MAX_WIDTH:g} mm (got {width:g} mm)")
    return width


class PictureBlock(Flowable):
    """A picture beside the definition, as wide as asked or as the column, centred; never broken."""

    keeps_lead = True  # a sentence ending in a colon before it travels with it (layout.rulebook)

    def __init__(self, art: Any, width: float | None) -> None:
        super().__init__()
        self.art = art
        self.asked = width
        self.shown = (0.0, 0.0)  # mm, known once wrapped
        self.spaceBefore = self.spaceAfter = pt(2.0)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        nw, nh = self.art.natural
        width = min(avail_width * MM_PER_PT, self.asked or avail_width * MM_PER_PT)
        self.shown = (width, width * nh / nw)
        self.width, self.height = avail_width, pt(self.shown[1])
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        return []

    def draw(self) -> None:
        width, height = self.shown
        drawing = Drawing(pt(width), pt(height))
        drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise select Helvetica
        drawing.add(Group(self.art.shape(0, 0, width, height), transform=(PT_PER_MM, 0, 0, PT_PER_MM, 0, 0)))
        self.canv.saveState()
        self.canv.translate((self.width - pt(width)) / 2, 0)
        renderPDF.draw(drawing, self.canv, 0, 0)
        self.canv.restoreState()


def joined_row(made: list[Flowable], dpi: float) -> Flowable:
    """Card pictures in one paragraph as one row of cards; pictures of other kinds side by side."""
    from printgen.drawing.markdown import Row

    if all(isinstance(item, CardRow) for item in made):  # one line, or more when one would shrink them too far
        return CardRow([card for item in made for card in item.cards], dpi)
    return Row(made, pt(2.0))


def deck_hooks(cards: Sequence[DeckCard], loaded: Loaded, icons: Icons, dpi: float,
               notes: Notes | None = None, accent: str = "#444444") -> dict[str, Any]:
    """The cards by name, the deck's icons, and pictures beside the definition, for its texts: the
    keys a Rulebook or Reference takes for what its Markdown may show; `notes` gathers the text's
    warnings; `accent` colours a card's callouts."""
    context = ArtContext(loaded.path.parent, loaded.allow_outside, loaded.art)

    def card(picture: Picture) -> Flowable:
        name, side, width, callouts = asked(picture.target)
        if side not in ("face", "back"):
            raise NotPrintable(f"expected #back (or #face) after the card's name (got #{side})")
        try:
            found = find_card(cards, name)
            outside = [f"{x:g},{y:g}" for x, y in callouts if x > found.width or y > found.height]
            if outside:
                raise ValueError(f"the callout at {outside[0]} mm lies outside the {found.width:g} x "
                                 f"{found.height:g} mm card")
            return CardRow([ShownCard(found, side, width, callouts, accent)], dpi)
        except ValueError as exc:
            raise NotPrintable(str(exc)) from None

    def file(picture: Picture) -> Flowable:
        target = unquote(picture.target)
        name = re.split(r"[?#]", target, maxsplit=1)[0]
        query = target[len(name) + 1:] if target[len(name):].startswith("?") else ""
        width = width_of(query) if query else None
        try:
            return PictureBlock(loaded.art.add_image(name.strip(), context), width)
        except (ValueError, OSError) as exc:
            raise NotPrintable(f"the picture {name.strip()}: {exc}") from None

    return {"pictures": {"card": card, "": file}, "icons": icons, "row": lambda made: joined_row(made, dpi),
            "prepare": notes or spaced_links}


class Icons:
    """The deck's icons as paragraph markup, each a picture made once at ICON_DPI, one em high.
    reportlab's paragraphs take pictures only from files, so each is an unnamed temporary file
    (gone when closed, or when the process ends however it ends), read through /proc/self/fd;
    elsewhere a private folder in the build's scratch folder, removed when printgen stops."""

    def __init__(self, scratch: str | None = None) -> None:
        self.markup: dict[str, str] = {}
        self.files: list[IO[bytes]] = []  # kept open while the documents are written
        self.folder: Path | None = None
        self.scratch = scratch

    def __call__(self, name: str) -> str | None:
        return self.markup.get(name)

    def path_for(self, png: bytes) -> str:
        if sys.platform == "linux":
            handle = tempfile.TemporaryFile(dir=self.scratch)
            handle.write(png)
            handle.flush()
            self.files.append(handle)
            return f"/proc/self/fd/{handle.fileno()}"
        if self.folder is None:
            from printgen.core.staging import private_folder

            self.folder = Path(private_folder("printgen-icons-", inside=self.scratch))
        path = self.folder / f"icon-{len(self.markup)}.png"
        path.write_bytes(png)
        return str(path)


def deck_icons(defn: Deck, loaded: Loaded, size_pt: float, scratch: str | None = None) -> Icons:
    """Each of the deck's icons drawn once, as tall as the text is large."""
    icons = Icons(scratch)
    context = ArtContext(loaded.path.parent, loaded.allow_outside, loaded.art)
    height = size_pt * ICON_EM * MM_PER_PT
    for name, file in sorted(defn.icons.items()):
        art = loaded.art.add_image(file, context)  # already loaded by the cards: any fault is told there
        nw, nh = art.natural
        width = height * nw / nh
        png = icon_png(art.shape(0, 0, width, height), width, height, name, ICON_DPI)
        icons.markup[name] = (f'<img src="{icons.path_for(png)}" width="{pt(width):.2f}" height="{pt(height):.2f}" '
                              f'valign="{-0.18 * pt(height):.2f}"/>')
    return icons


def footer_credit(defn: Deck) -> str:
    """What a rules document's footer says after its page number: the game's version, then its credit."""
    return " \u00b7 ".join(part for part in (f"version {defn.version}" if defn.version else "", defn.credit) if part)


def context_of(defn: Deck, cards: Sequence[DeckCard], stem: str, blank_cards: int = 0) -> dict[str, Any]:
    """What Jinja in a rules text sees: the definition as plain data (`deck`), each card's row with
    its `title` and `copies` as `cards` ({{ cards | length }}, {% for card in cards %}), the names of
    the files the build writes (`deck_file`, `rules_file`, `reference_file`), and `blank_cards`: how
    many blank cards `sheet.fill: blank` adds on this build's paper (0 when the sheets come out full),
    so the rules can speak of them only where they are printed."""
    rows = []
    for card in cards:
        row = dict(card.drawer.rows[card.index].values)
        rows.append({**row, "title": row.get("title", card_title(card)), "copies": card.copies})
    return {"deck": defn.model_dump(mode="json", exclude={"rows"}), "title": defn.title, "credit": defn.credit,
            "cards": rows, "deck_file": f"{stem}.pdf", "rules_file": f"{stem}-rules.pdf",
            "reference_file": f"{stem}-reference-cards.pdf", "blank_cards": blank_cards}


def text_options(text: RulebookText | ReferenceText, loaded: Loaded, options: BuildOptions) -> tuple[str, BuildOptions]:
    """The text's template name and the options whose template folders find it first: its own folder."""
    context = ArtContext(loaded.path.parent, loaded.allow_outside, loaded.art)
    path = resolve(text.file, context)
    return path.name, replace(options, templates=(path.parent, *options.templates))


def rules_documents(defn: Deck, options: BuildOptions, loaded: Loaded, cards: Sequence[DeckCard],
                    dpi: float, blank_cards: int = 0) -> list[Document | Growing]:
    """<name>-rules.pdf and <name>-reference.pdf with -reference-cards.pdf, as the definition asks;
    `blank_cards`: how many the build's card sheets end in (the texts' `blank_cards`).
    Every problem of both texts is found first (read, then set in its columns) and told at once, each
    at its line of the Markdown file; nothing is written while one stands."""
    problems: list[Problem] = []
    found: dict[str, tuple[str, BuildOptions]] = {}
    for key, text in (("rules", defn.rules), ("reference", defn.reference)):
        if text is None:
            continue
        try:
            found[key] = text_options(text, loaded, options)
        except (ValueError, OSError) as exc:
            problems.append(loaded.source.problem((key,), str(exc)))
    if problems:
        raise DefinitionError(problems)
    context = context_of(defn, cards, loaded.name, blank_cards)
    documents: list[Document | Growing] = []
    notes = {key: Notes() for key in found}
    if defn.rules is not None:
        name, opts = found["rules"]
        book = Rulebook(title=defn.title, template=name, context=context, tables={},
                        settings=RulebookSettings(text_size_pt=defn.rules.text_size_pt, columns=defn.rules.columns),
                        accent=defn.rules.accent, credit=footer_credit(defn),
                        **deck_hooks(cards, loaded, deck_icons(defn, loaded, defn.rules.text_size_pt,
                                                               options.scratch), dpi, notes["rules"],
                                     defn.rules.accent))
        try:
            made = rulebook_document(book, opts, f"{loaded.name}-rules.pdf")
            items = made.grow.story()
            column = rulebook.plan(items, book.settings, opts.paper).column_width
            problems += located(set_in(items, column), opts)
            overflow = made.document.overflow
            if overflow is not None:  # told at the definition's `rules:`, in words for a deck's text
                made.document.overflow = Blame(("rules",), overflow.what, f"shorten {name} or show fewer cards "
                                               f"at their own size (?width=), or set a smaller text_size_pt")
            documents.append(made)
        except MarkdownProblems as exc:
            problems += located([exc], opts)
    if defn.reference is not None:
        name, opts = found["reference"]
        settings = ReferenceSettings(text_size_pt=defn.reference.text_size_pt, columns=defn.reference.columns,
                                     accent=defn.reference.accent)
        ref = Reference(title=defn.title, template=name, context=context, tables={}, settings=settings,
                        credit=footer_credit(defn),
                        **deck_hooks(cards, loaded, deck_icons(defn, loaded, settings.text_size_pt,
                                                               options.scratch), dpi, notes["reference"],
                                     settings.accent))
        try:
            column = reference.column_width(opts.paper, settings.columns)
            sides = reference.parts(ref, opts)
            width_problems = [p for half in sides for p in set_in(half, column)]
            problems += located(width_problems, opts)
            sheets = reference_documents(ref, opts, loaded.name, sides)
            if not width_problems:
                problems += located(overflowing(sheets[0], name, context, opts), opts)
            documents += sheets
        except MarkdownProblems as exc:
            problems += located([exc], opts)
        except DefinitionError as exc:  # a reference without its one page break
            problems += exc.problems
    if problems:
        raise DefinitionError(list(dict.fromkeys(problems)))
    for key, noted in notes.items():
        loaded.art.warnings.extend(noted.told(*found[key]))
    for document in documents:  # the PDF's Author: who the definition credits, if anyone
        (document if isinstance(document, Document) else document.document).author = defn.credit
    return documents


def set_in(items: list[Flowable], column: float) -> list[MarkdownProblems]:
    """Each block set at the column's width (mm), so a table too wide for it is found now."""
    found = []
    for item in items:
        try:
            item.wrap(pt(column), pt(1000))
        except MarkdownProblems as exc:
            found.append(exc)
    return found


def located(found: Sequence[MarkdownProblems], options: BuildOptions) -> list[Problem]:
    """Each problem at the line of the Markdown file (not its rendered text) that made it."""
    from printgen.jinja.render import source_line

    folders = list(options.templates)
    return [Problem(*source_line(exc.source, folders, exc.text, p.line, p.snippet), "", p.message)
            for exc in found for p in exc.problems]


def overflowing(sheet: Document, template: str, context: dict[str, Any], options: BuildOptions) -> list[MarkdownProblems]:
    """The reference sheet set on a page now: a section left over in a half is told at its heading."""
    from printgen.jinja.render import render
    halves = cut_short(sheet)
    if not halves:
        return []
    text = render(template, context, options.templates)  # as the layout rendered it
    return [MarkdownProblems(template, text, [TextProblem(heading_line(text, message), section_of(message),
                                                          overflow_words(message))]) for _, message in halves]


def overflow_words(message: str) -> str:
    """The layout's message, advising what a deck's reference text can change."""
    return re.sub(r"lower reference\.text_size_pt \(now [^)]*\)", "set reference.text_size_pt lower (9 pt at "
                  "the least), or give it fewer columns", message)


def section_of(message: str) -> str:
    found = re.search(r"section '([^']*)'", message)
    return found.group(1) if found else ""


def heading_line(text: str, message: str) -> int:
    """The line of the heading the message names, 1 when it cannot be found."""
    section = section_of(message)
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#") and section and section in line:
            return number
    return 1
