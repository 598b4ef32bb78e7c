"""Decks: cards drawn from a layout and rows of data, imposed for duplex, gutterfold or fronts only,
with an SVG and a PNG of every card's face (and of each back) for checking art and for other tools."""
from __future__ import annotations

from functools import partial
from importlib import import_module
from typing import Any, Callable, Iterator, cast

from printgen.art.library import ArtContext
from printgen.core.build import BuildOptions
from printgen.core.names import Stems, stem, unwritable
from printgen.core.paper import SHEET_PAPERS, Flip, Paper
from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap
from printgen.drawing.document import Document, Growing, Page
from printgen.games import Game, Loaded, Validator
from printgen.games.deck.chosen import chosen_rows, guides, matching
from printgen.games.deck.drawn import DeckCard, Drawer
from printgen.games.deck.faces import Side
from printgen.games.deck.budget import check_drawn, count_drawn
from printgen.games.deck.layouts import check_layouts, deck_layouts
from printgen.games.deck.misprints import never_shown
from printgen.games.deck.model import Deck, check_elements, check_source, element_lists
from printgen.games.deck.overview import overview
from printgen.games.deck.placing import check_placing
from printgen.games.deck.rows import Row, read_beside, read_rows
from printgen.games.deck.sheets import duplex_sheets, filled, fold_half, gutterfold_sheets
from printgen.games.deck.typefaces import Family, named_faces
from printgen.games.deck.values import RowValues, TemplateFile, row_values
from printgen.jinja.values import MAX_PROBLEMS, is_template
from printgen.layout.cards import Card
from printgen.layout.imposition import Piece, per_sheet
from printgen.layout.sheet import Duplex

FACE_DPI = 150


def paper_of(defn: Deck, options: BuildOptions) -> Paper:
    """--paper when given, else the definition's paper when it names one, turned as
    `sheet.orientation` says; "auto" turns it only when that holds more cards on each sheet."""
    named = "paper" in defn.sheet.model_fields_set and not options.paper_given
    paper = SHEET_PAPERS[defn.sheet.paper] if named else options.paper
    turned = Paper(paper.name, paper.height, paper.width)
    if defn.sheet.orientation == "landscape":
        return turned
    if defn.sheet.orientation == "auto" and bleed_fit(defn, options, turned)[1] > bleed_fit(defn, options, paper)[1]:
        return turned
    return paper


def bleed_fit(defn: Deck, options: BuildOptions, paper: Paper) -> tuple[float, int, int]:
    """The bleed the build gives cards on `paper` (the one given, else 2 mm if free, else the most of
    1.5 or 1 mm that is, else none, as home printers expect), the cards one side holds with it, and
    the most it holds without bleed. Cut lines round every card leave the margins free of marks
    (duplex and fronts), which is what makes room for bleed on a full sheet."""
    width, height = defn.card.dimensions
    layout = options.layout or defn.sheet.layout
    area = fold_half(paper) if layout == "gutterfold" else paper
    marks = defn.sheet.cut == "marks" or layout == "gutterfold"
    most = per_sheet(area, width, height, 0.0, defn.sheet.gap, marks)
    given = options.bleed if options.bleed is not None else defn.card.bleed
    if given is None:
        tried = [defn.card.most_bleed] + [b for b in SMALLER_BLEEDS if b < defn.card.most_bleed]
        given = next((b for b in tried if per_sheet(area, width, height, b, defn.sheet.gap, marks) == most), 0.0)
    return given, per_sheet(area, width, height, given, defn.sheet.gap, marks), most


def sheet_places(defn: Deck, options: BuildOptions, paper: Paper, bleed: float) -> int:
    """How many cards one sheet holds, as the sheets lay them out (a gutterfold sheet: its left half)."""
    width, height = defn.card.dimensions
    layout = options.layout or defn.sheet.layout
    area = fold_half(paper) if layout == "gutterfold" else paper
    marks = defn.sheet.cut == "marks" or layout == "gutterfold"
    return per_sheet(area, width, height, bleed, defn.sheet.gap, marks)


SMALLER_BLEEDS = (1.5, 1.0)  # mm tried, in turn, when the usual bleed would cost a card


def names(rows: list[Row], values: list[RowValues], stems: Stems) -> list[str]:
    """Each card's file stem, taken from `stems` in row order: the `name` template, else the first
    column, else `card-<row>`; a stem an earlier card holds gets `-2`, `-3` (core/names.py)."""
    result = []
    for row, value in zip(rows, values):
        given = value.rendered.get(("name",)) or next((str(v) for v in row.values.values() if v), "")
        result.append(stems.take(stem(given, f"card-{row.index + 1:03}")))
    return result


MAX_TEMPLATE_BYTES = 256 * 1024  # an SVG template is a drawing of one card, not an archive


def template_files(defn: Deck, source: SourceMap, context: ArtContext) -> dict[str, TemplateFile]:
    """Each layout's SVG template file, read once; every problem with them located at its key."""
    files: dict[str, TemplateFile] = {}
    problems: list[Problem] = []
    for side, layout in deck_layouts(defn).items():  # side: "face", "back" or a named layout's prefix
        name = layout.template
        if name is None:
            continue
        try:
            path, data = read_beside(name, context, MAX_TEMPLATE_BYTES, "an SVG template")
            files[side] = TemplateFile(path, data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            problems.append(source.problem(layout.template_where, f"expected a UTF-8 text file (byte "
                                           f"{exc.start + 1} is not UTF-8); save it as UTF-8"))
        except (ValueError, OSError) as exc:
            problems.append(source.problem(layout.template_where, str(exc)))
    if problems:  # a template inherited by several layouts is told once
        raise DefinitionError(list(dict.fromkeys(problems)))
    return files


def font_family(defn: Deck, context: ArtContext, name: str) -> Family:
    """The faces of a text element's `font` other than printgen's own: a family under `fonts:`,
    else a .ttf file, one face (ValueError when it cannot be used)."""
    if name in defn.fonts:
        return Family(name, named_faces(defn.fonts[name]))
    return Family(name, {(False, False): context.library.add_font(name, context)})


def template_drawer(defn: Deck, files: dict[str, TemplateFile], context: ArtContext) -> Callable[[str, bytes], Any]:
    """A side's rendered SVG template -> its picture, its font-family names looked up among the
    deck's `fonts:` (then the family names inside its font files); one that is neither is
    drawn in printgen's sans, with a warning at the template's line."""
    from printgen.art.library import loaded_fonts
    from printgen.art.svg import embedded_fonts
    from printgen.drawing.fonts import user_family

    families = {name: named_faces(given) for name, given in defn.fonts.items()}
    inside = {**loaded_fonts(defn), **{font: user_family(font) or "user font" for font in context.library.fonts.values()}}

    def draw(side: str, data: bytes) -> Any:
        file = files[side]
        font_map = embedded_fonts(inside, told=True, families=families)
        return context.library.add_svg_text(file.path, data, context, file.text, font_map)
    return draw


def load_fonts(defn: Deck, source: SourceMap, context: ArtContext) -> None:
    """Every font the layouts name, loaded once, so a bad one is told once rather than every row."""
    problems = []
    for at, elements in element_lists(defn):
        for i, element in elements:
            if element.type == "text" and element.font.lower().endswith(".ttf") and element.font not in defn.fonts:
                try:
                    context.library.add_font(element.font, context)
                except ValueError as exc:
                    problems.append(source.problem((*at, i, "font"), str(exc)))
    if problems:
        raise DefinitionError(problems)


def loaded_icons(defn: Deck, loaded: Loaded, context: ArtContext) -> dict[str, Any]:
    """Each icon's picture; every icon that cannot be used is a problem at its own line, all at once."""
    icons, problems = {}, []
    for name, file in defn.icons.items():
        try:
            icons[name] = loaded.art.add_image(file, context)
        except ValueError as exc:
            problems.append(loaded.source.problem(("icons", name), str(exc)))
    if problems:
        raise DefinitionError(problems)
    return icons


def build_cards(defn: Deck, loaded: Loaded) -> list[DeckCard]:
    """Every row's card, to be drawn when a sheet or a picture asks for it (drawn.Drawer)."""
    problems: list[Problem] = []  # each stage's, so that one run tells every problem it can
    rows = gathered(problems, read_rows, defn, loaded.source, loaded.path.parent, loaded.allow_outside)
    context = ArtContext(loaded.path.parent, loaded.allow_outside, loaded.art)
    files = gathered(problems, template_files, defn, loaded.source, context) or {}
    icons = gathered(problems, loaded_icons, defn, loaded, context) or {}
    gathered(problems, load_fonts, defn, loaded.source, context)
    folder = None if loaded.allow_outside else context.base.resolve()
    values = None if rows is None else gathered(problems, row_values, defn, rows, loaded.source, files, folder)
    if problems or rows is None or values is None:
        raise DefinitionError(list(dict.fromkeys(problems)))
    count_drawn(rows, values)
    loaded.art.warnings.extend([w for w in never_shown(values, loaded.source) if w not in loaded.art.warnings])
    width, height = defn.card.dimensions
    layout = Side(width, height, defn.card.safe, icons, lambda name: loaded.art.add_image(name, context),
                  template_drawer(defn, files, context), partial(font_family, defn, context))
    drawer = Drawer(rows, values, layout, loaded.source)
    cards = []
    stems = Stems()  # svg/ and png/ hold faces and backs: one name space, faces first
    card_names = names(rows, values, stems)
    backs: dict[tuple[Any, ...], tuple[int, str, str]] = {}
    faces = set(card_names)
    labels = [back_label(defn, row, value) for row, value in zip(rows, values)]
    firsts: dict[str, Row] = {}  # each name told once, at the first row that makes it
    for row, label in zip(rows, labels):
        firsts.setdefault(label or "", row)
    unwritten = [p for label, row in firsts.items() if (p := label_problem(defn, row, label, loaded.source))]
    if unwritten:
        raise DefinitionError(unwritten[:MAX_PROBLEMS])
    for i, (row, value, name, label) in enumerate(zip(rows, values, card_names, labels)):
        # every row renders the same keys in the same order, so its values and name tell backs apart
        key = (tuple((k, v) for k, v in value.rendered.items() if k[0] == "back"), label)
        if key not in backs:
            backs[key] = (i, back_stem(label, name, bool(backs), faces, stems), label or "")
        back_row, back_name, given = backs[key]
        cards.append(DeckCard(name, width, height, i, back_row, back_name, row.copies, drawer, given))
    return cards


def gathered(problems: list[Problem], stage: Callable[..., Any], *args: Any) -> Any:
    """What `stage` gives, or None with its problems added to `problems`."""
    try:
        return stage(*args)
    except DefinitionError as exc:
        problems.extend(exc.problems)
        return None


def back_stem(label: str | None, card: str, more: bool, faces: set[str], stems: Stems) -> str:
    """A back's file stem: back.name made plain (`back-<it>` if a face has it), else `back` for the
    first back and `back-<first card>` for the others; then `-2`, `-3` if still taken."""
    if label is None:
        return stems.take(f"back-{card}" if more else "back")
    wanted = stem(label, "back")
    return stems.take(wanted, *([f"back-{wanted}"] if wanted in faces else []))


def label_problem(defn: Deck, row: Row, label: str, source: SourceMap) -> Problem | None:
    """Why a back's name cannot be written as typed in manifest.csv and decks.json, at the key that
    made it: the row's cell for a column, the row and `back.name` for an expression, else the key."""
    why = unwritable(label)
    if why is None:
        return None
    why = f"the back's name {label[:40]!r}{'...' if len(label) > 40 else ''}: {why}; " + (
        "shorten it" if why.startswith("it has") else "remove it")
    given = defn.back.name
    if given is None:  # the name of the layout back_layout chose
        return source.problem(("back_layout",), why)
    if is_template(given):
        return Problem(row.file, row.line, "", f"row {row.index + 1}: back.name "
                       f"({source.file}:{source.line_of(('back', 'name'))}): {why}")
    return row.problem(given, why) if given in row.values else source.problem(("back", "name"), why)


def back_label(defn: Deck, row: Row, value: RowValues) -> str | None:
    """What `back.name` calls this row's back: its expression rendered, the column it names, or its
    text; None when the definition gives no name (then backs are `back`, `back-<first card>`)."""
    given = defn.back.name
    if given is None:  # a back chosen from named layouts is called after its layout
        return value.sides["back"].name if defn.back_layout is not None else None
    if ("back", "name") in value.rendered:
        return value.rendered[("back", "name")].strip()
    if given in row.values:
        return "" if row.values[given] is None else str(row.values[given])
    return given


def selected(defn: Deck, cards: list[DeckCard], options: BuildOptions, loaded: Loaded) -> tuple[list[DeckCard], str]:
    """The cards `--rows` and `--where` choose, and what the captions say of them ('' for all)."""
    matched = matching(defn, cards[0].drawer.rows, options.where, loaded.source) if options.where and cards else None
    return chosen_rows(cards, options.rows, loaded.source, options.where, matched)


def drawn_all(cards: list[DeckCard]) -> list[DeckCard]:
    """The cards, each side drawn once now so that every problem is raised before any is used."""
    for card in cards:
        card.front()
        card.back()
    if cards and cards[0].drawer.found():
        raise DefinitionError(cards[0].drawer.found())
    return cards


def sheet_bleed(defn: Deck, options: BuildOptions, paper: Paper, loaded: Loaded) -> float:
    """The bleed `bleed_fit` chooses, warned when a bleed given costs cards."""
    given, fewer, most = bleed_fit(defn, options, paper)
    if 0 < fewer < most:
        if options.bleed is not None:
            what, advice = f"printgen: --bleed {given:g}", "build without --bleed to let the deck choose"
        else:
            what = f"{loaded.source.file}:{loaded.source.line_of(('card', 'bleed'))}: card.bleed"
            what, advice = f"{what}: {given:g} mm", "leave card.bleed out to let printgen choose"
        loaded.art.warnings.append(f"{what} fits {fewer} cards on each {paper.name} sheet, where {most} fit "
                                   f"without bleed; {advice}, or give 0")
    return given


def note_spare_places(cards: int, places: int, paper: Paper, loaded: Loaded) -> None:
    """A warning when a deck of more than one sheet ends on a sheet more than a quarter empty and has
    not said what the spare places hold: a sheet of card stock spent on a few cards, whose places
    `sheet.fill: blank` puts to use. A deck within one sheet needs that sheet anyway."""
    last = cards % places if places else 0
    if cards > places and last and places - last > places / 4:
        where = f"{loaded.source.file}:{loaded.source.line_of(('sheet', 'fill'))}"
        loaded.art.warnings.append(
            f"{where}: warning: sheet.fill: the last {paper.name} sheet holds {last} of {places} cards; "
            f"`fill: blank` puts blank cards to write on in its {places - last} spare places "
            f"(`fill: none` keeps them empty and says nothing)")


def build(defn: Deck, options: BuildOptions, loaded: Loaded) -> list[Document | Growing]:
    """deck.pdf and every card's pictures, each drawn only when its file is written (drawn.py)."""
    every = build_cards(defn, loaded)
    cards, part = selected(defn, every, options, loaded)
    pieces: list[Piece] = [card for card in cards for _ in range(card.copies)]
    paper = paper_of(defn, options)
    bleed = sheet_bleed(defn, options, paper, loaded)
    cards_only = len(pieces)
    if defn.sheet.fill == "blank" and not part:  # a whole deck's last sheet: its spare places hold blank cards
        pieces = filled(pieces, sheet_places(defn, options, paper, bleed), defn.card.safe, defn.card.corner_radius)
    elif not part and "fill" not in defn.sheet.model_fields_set:
        note_spare_places(len(pieces), sheet_places(defn, options, paper, bleed), paper, loaded)
    lines = defn.card.corner_radius if defn.sheet.cut == "lines" else None
    title = f"{defn.title} ({part})" if part else defn.title
    said = title.replace("{", "{{").replace("}", "}}")  # the captions are formatted with each sheet's number
    marks = partial(guides, bleed=bleed, safe=defn.card.safe) if options.guides else None
    proof = " Guides drawn: build without --guides to print." if options.guides else ""
    flip: Flip | None = None
    sheets: Callable[[], Iterator[Page]]
    layout = options.layout or defn.sheet.layout
    if layout == "gutterfold":
        caption = (f"{said}, sheet {{sheet}} of {{count}}. Print one-sided at actual size, cut round "
                   f"each pair, fold along the dotted line.{proof}")
        sheets = partial(gutterfold_sheets, pieces, paper, bleed, caption, lines, defn.sheet.gap, marks)
    else:
        fronts = layout == "fronts"
        duplex = Duplex(paper, options.flip, options.back_offset)
        cut = " Cut along the dashed lines." if lines is not None else " Cut from mark to mark."
        how = ("Print one-sided at actual size." if fronts else
               f'Print at actual size, choosing "{duplex.dialog}".') + cut + proof
        captions = {"front": f"{said}, sheet {{sheet}} of {{count}}, faces. {how}",
                    "back": f'{said}, sheet {{sheet}} of {{count}}, backs, printed with "{duplex.dialog}"'
                            f"{backs_read(duplex)}{proof}"}
        sheets = partial(duplex_sheets, pieces, duplex, bleed, captions, lines, fronts, defn.sheet.gap, marks)
        flip = None if fronts else options.flip
    try:
        sheets()  # the cards checked against the paper now; no sheet is drawn yet
    except ValueError as exc:
        raise DefinitionError([loaded.source.problem(("card",), str(exc))])
    unplaced = [card for card in cards if card.copies == 0]
    documents: list[Document | Growing] = [Document(f"{loaded.name}.pdf", paper, [], f"{title} \u2013 cards",
                          "Print at actual size (100 %)", flip, draw=partial(told, sheets, cards[:1], unplaced))]
    if options.pictures:
        documents.append(overview(defn.title, cards, part, f"{loaded.name}-overview.png"))
        documents += face_documents(defn, cards, (options.dpi or FACE_DPI) if options.png else None)
    if defn.rules is not None or defn.reference is not None:  # its cards drawn on its pictures' pixels
        from printgen.games.deck.rulesdocs import rules_documents

        # every row, whatever --rows chose, each drawn now so that a faulty card is told, never shown
        documents += rules_documents(defn, options, loaded, drawn_all(every), options.dpi or FACE_DPI,
                                     blank_cards=len(pieces) - cards_only)
    return documents


def backs_read(duplex: Duplex) -> str:
    """How the backs read, said after the print dialog's choice. A sheet turned side to side shows
    every back upright; one turned top to bottom (a long-edge flip of a landscape page) shows them
    upside down, turned 180 degrees so that each reads upright when its card is turned over like a
    page, as a player turns a card. Said that way, so nobody takes the sheet for misprinted."""
    if duplex.side_to_side:
        return ": the sheet turns over side to side, like a page."
    return ". Each back reads upright when you turn its card over like a page."


def told(sheets: Callable[[], Iterator[Page]], first: list[DeckCard], unplaced: list[DeckCard]) -> Iterator[Page]:
    """The sheets, then the cards with no copies drawn too, then every problem met, raised together."""
    yield from sheets()
    for card in unplaced:
        card.front()
        card.back()
    if first and first[0].drawer.found():
        raise DefinitionError(first[0].drawer.found())


def face_documents(defn: Deck, cards: list[DeckCard], dpi: float | None) -> list[Document]:
    """svg/ of every face and distinct back, and png/ at `dpi` when one is given (`build --png`), each SVG
    just before its PNG to share a drawing. The PNGs are opt-in: Pillow's encoder is most of the time
    a large deck takes to build (benchmarks/notes.md)."""
    documents: list[Document] = []
    size = Paper("card", *defn.card.dimensions)
    seen: set[str] = set()
    for card in cards:
        sides = [(card.name, "face")]
        if card.back_name not in seen:
            seen.add(card.back_name)
            sides.append((card.back_name, "back"))
        for name, side in sides:
            kinds = [("svg", 0.0)] + ([("png", dpi)] if dpi else [])
            documents += [Document(f"{kind}/{name}.{kind}", size, [], f"{defn.title}: {name}", dpi=at,
                                   draw=partial(picture, card, side)) for kind, at in kinds]
    return documents


def picture(card: DeckCard, side: str) -> list[Page]:
    """One side of one card as a page. Its problems are the deck PDF's to tell (`told`), all of
    them at once, so that a fault every row shares is told once, not once a picture."""
    return [Page([card.front() if side == "face" else card.back()])]


def pieces(loaded: Loaded, options: BuildOptions) -> list[Card]:
    """Each row's card once, with its copies, for `printgen export`; cards sharing a back are one deck."""
    defn: Deck = loaded.definition
    def deck(card: DeckCard) -> str:  # as back.name says, else after the game: the back's file says what it is
        if card.back_label:
            return card.back_label
        return defn.title if card.back_name == "back" else f"{defn.title} {card.back_name}"

    cards, _ = selected(defn, build_cards(defn, loaded), options, loaded)
    return [Card(card.name, "card", deck(card), card, card.copies) for card in drawn_all(cards)]


GAME = Game(
    id="deck",
    title="Deck",
    makes=["deck.pdf: the cards imposed with cut marks, backs for duplex (or gutterfold, or fronts only)",
           "deck-overview.png: every card's face in one grid, to look over and share",
           "svg/: every card's face and the back; png/ too with `build --png`",
           "deck-rules.pdf, deck-reference.pdf and deck-reference-cards.pdf: from the Markdown files "
           "`rules:` and `reference:` name"],
    model=Deck,
    build=build,
    checks=(check_elements, check_source, check_layouts, check_placing, check_drawn),
    pieces=pieces,
    bleed=True,
    cards=True,
    papers=tuple(SHEET_PAPERS),
    validator=lambda: cast(Validator, import_module("printgen.games.deck.validator")),
)
