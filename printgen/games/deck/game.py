"""Decks: cards drawn from a layout and rows of data, imposed for duplex, gutterfold or fronts only,
with an SVG and a PNG of every card's face (and of each back) for checking art and for other tools."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Iterator

from printgen.art.library import ArtContext
from printgen.core.build import BuildOptions
from printgen.core.paper import SHEET_PAPERS, Flip, Paper
from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap
from printgen.drawing.document import Document, Page
from printgen.games import Game, Loaded
from printgen.games.deck.chosen import chosen_rows, guides
from printgen.games.deck.drawn import DeckCard, Drawer
from printgen.games.deck.faces import Side
from printgen.games.deck.budget import check_drawn, count_drawn
from printgen.games.deck.layouts import check_layouts, deck_layouts
from printgen.games.deck.misprints import never_shown
from printgen.games.deck.model import Deck, check_elements, check_source, element_lists
from printgen.games.deck.placing import check_placing
from printgen.games.deck.rows import Row, read_beside, read_rows
from printgen.games.deck.sheets import duplex_sheets, fold_half, gutterfold_sheets
from printgen.games.deck.values import RowValues, TemplateFile, row_values
from printgen.layout.cards import Card, slug
from printgen.layout.imposition import per_sheet
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
    """The bleed the build gives cards on `paper` (the one given, else 2 mm if free, else none, as
    home printers expect), the cards one side holds with it, and the most it holds without bleed."""
    width, height = defn.card.dimensions
    area = fold_half(paper) if (options.layout or defn.sheet.layout) == "gutterfold" else paper
    most = per_sheet(area, width, height, 0.0, defn.sheet.gap)
    given = options.bleed if options.bleed is not None else defn.card.bleed
    if given is None:
        bled = per_sheet(area, width, height, defn.card.most_bleed, defn.sheet.gap)
        given = defn.card.most_bleed if bled == most else 0.0
    return given, per_sheet(area, width, height, given, defn.sheet.gap), most


def names(rows: list[Row], values: list[RowValues]) -> list[str]:
    """A file name for each card: the `name` template, else the first column, made unique."""
    used: dict[str, int] = {}
    result = []
    for row, value in zip(rows, values):
        given = value.rendered.get(("name",)) or next((str(v) for v in row.values.values() if v), "")
        stem = slug(given, f"card-{row.index + 1:03}")[:60]
        used[stem] = used.get(stem, 0) + 1
        result.append(stem if used[stem] == 1 else f"{stem}-{used[stem]}")
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


def load_fonts(defn: Deck, source: SourceMap, context: ArtContext) -> None:
    """Every font the layouts name, loaded once, so a bad one is told once rather than every row."""
    problems = []
    for at, elements in element_lists(defn):
        for i, element in elements:
            if element.type == "text" and element.font.lower().endswith(".ttf"):
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
    rows = read_rows(defn, loaded.source, loaded.path.parent, loaded.allow_outside)
    context = ArtContext(loaded.path.parent, loaded.allow_outside, loaded.art)
    files = template_files(defn, loaded.source, context)
    values = row_values(defn, rows, loaded.source, files, None if loaded.allow_outside else context.base.resolve())
    count_drawn(rows, values)
    loaded.art.warnings.extend([w for w in never_shown(values, loaded.source) if w not in loaded.art.warnings])
    width, height = defn.card.dimensions
    icons = loaded_icons(defn, loaded, context)
    load_fonts(defn, loaded.source, context)
    layout = Side(width, height, defn.card.safe, icons, lambda name: loaded.art.add_image(name, context),
                  lambda side, data: loaded.art.add_svg_text(files[side].path, data, context),
                  lambda name: loaded.art.add_font(name, context))
    drawer = Drawer(rows, values, layout, loaded.source)
    cards = []
    card_names = names(rows, values)
    backs: dict[tuple[Any, ...], tuple[int, str, str]] = {}
    used = set(card_names)  # file stems taken: the cards', then each named back's
    for i, (row, value, name) in enumerate(zip(rows, values, card_names)):
        # every row renders the same keys in the same order, so its values and name tell backs apart
        label = back_label(defn, row, value)
        key = (tuple((k, v) for k, v in value.rendered.items() if k[0] == "back"), label)
        if key not in backs:
            stem = ("back" if not backs else f"back-{name}") if label is None else \
                unused(label, set(card_names), used)
            used.add(stem)
            backs[key] = (i, stem, label or "")
        back_row, back_name, given = backs[key]
        cards.append(DeckCard(name, width, height, i, back_row, back_name, row.copies, drawer, given))
    return cards


def unused(label: str, cards: set[str], used: set[str]) -> str:
    """A named back's file stem: the name slugged, `back-` before it if a card has that name, and
    `-2`, `-3` after it when backs that differ come out with one name."""
    stem = slug(label, "back")[:60]
    stem = f"back-{stem}" if stem in cards else stem
    n, found = 1, stem
    while found in used:
        n += 1
        found = f"{stem}-{n}"
    return found


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


def build(defn: Deck, options: BuildOptions, loaded: Loaded) -> list[Document]:
    """deck.pdf and every card's pictures, each drawn only when its file is written (drawn.py)."""
    cards, part = chosen_rows(build_cards(defn, loaded), options.rows, loaded.source)
    pieces = [card for card in cards for _ in range(card.copies)]
    paper = paper_of(defn, options)
    bleed = sheet_bleed(defn, options, paper, loaded)
    lines = defn.card.corner_radius if defn.sheet.cut == "lines" else None
    title = f"{defn.title} ({part})" if part else defn.title
    marks = partial(guides, bleed=bleed, safe=defn.card.safe) if options.guides else None
    proof = " Guides drawn: build without --guides to print." if options.guides else ""
    flip: Flip | None = None
    sheets: Callable[[], Iterator[Page]]
    layout = options.layout or defn.sheet.layout
    if layout == "gutterfold":
        caption = (f"{title}, sheet {{sheet}} of {{count}}. Print one-sided at actual size, cut round "
                   f"each pair, fold along the dotted line.{proof}")
        sheets = partial(gutterfold_sheets, pieces, paper, bleed, caption, lines, defn.sheet.gap, marks)
    else:
        fronts = layout == "fronts"
        duplex = Duplex(paper, options.flip, options.back_offset)
        how = ("Print one-sided at actual size." if fronts else
               f'Print at actual size, choosing "{duplex.dialog}".') + proof
        captions = {"front": f"{title}, sheet {{sheet}} of {{count}}, faces. {how}",
                    "back": f'{title}, sheet {{sheet}} of {{count}}, backs, printed with "{duplex.dialog}": '
                            f"the sheet turns over {duplex.turn}.{proof}"}
        sheets = partial(duplex_sheets, pieces, duplex, bleed, captions, lines, fronts, defn.sheet.gap, marks)
        flip = None if fronts else options.flip
    try:
        sheets()  # the cards checked against the paper now; no sheet is drawn yet
    except ValueError as exc:
        raise DefinitionError([loaded.source.problem(("card",), str(exc))])
    unplaced = [card for card in cards if card.copies == 0]
    documents = [Document(f"{loaded.name}.pdf", paper, [], f"{title} \u2013 cards",
                          "Print at actual size (100 %)", flip, draw=partial(told, sheets, cards[:1], unplaced))]
    if options.pictures:
        documents += face_documents(defn, cards, options.dpi or FACE_DPI)
    return documents


def told(sheets: Callable[[], Iterator[Page]], first: list[DeckCard], unplaced: list[DeckCard]) -> Iterator[Page]:
    """The sheets, then the cards with no copies drawn too, then every problem met, raised together."""
    yield from sheets()
    for card in unplaced:
        card.front()
        card.back()
    if first and first[0].drawer.found():
        raise DefinitionError(first[0].drawer.found())


def face_documents(defn: Deck, cards: list[DeckCard], dpi: float) -> list[Document]:
    """svg/ and png/ of every face and distinct back, each SVG just before its PNG to share a drawing."""
    documents: list[Document] = []
    size = Paper("card", *defn.card.dimensions)
    seen: set[str] = set()
    for card in cards:
        sides = [(card.name, "face")]
        if card.back_name not in seen:
            seen.add(card.back_name)
            sides.append((card.back_name, "back"))
        for name, side in sides:
            documents += [Document(f"{kind}/{name}.{kind}", size, [], f"{defn.title}: {name}", dpi=at,
                                   draw=partial(picture, card, side)) for kind, at in (("svg", 0.0), ("png", dpi))]
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

    cards, _ = chosen_rows(build_cards(defn, loaded), options.rows, loaded.source)
    return [Card(card.name, "card", deck(card), card, card.copies) for card in drawn_all(cards)]


GAME = Game(
    id="deck",
    title="Deck",
    makes=["deck.pdf: the cards imposed with cut marks, backs for duplex (or gutterfold, or fronts only)",
           "svg/ and png/: every card's face and the back"],
    model=Deck,
    build=build,
    checks=(check_elements, check_source, check_layouts, check_placing, check_drawn),
    pieces=pieces,
    bleed=True,
    cards=True,
    papers=tuple(SHEET_PAPERS),
)
