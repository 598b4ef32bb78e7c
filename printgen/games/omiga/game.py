"""Omiga: tiles imposed for duplex, one SVG per tile, a PNG contact sheet, and a rules sheet.

The rules sheet comes first, so the whole file prints double-sided and is read rules first."""
from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any, cast

from reportlab.graphics.shapes import Drawing, Group, translate
from reportlab.lib.colors import HexColor, black
from reportlab.platypus import Flowable, Paragraph, Table

from printgen.art.library import template_folders
from printgen.drawing import fonts
from printgen.drawing.flow import made_once
from printgen.drawing import style as house
from printgen.drawing.columns import cut_to, leftover, level_height, under_masthead
from printgen.layout.cards import Card
from printgen.layout.reference import DataTable, Reference, reference_documents
from printgen.layout.shared_cuts import impose_shared
from printgen.core.paper import PT_PER_MM, Paper, pt
from printgen.drawing.picture import placed, rect, text, turned
from printgen.core.problems import DefinitionError
from printgen.layout.sheet import Duplex
from printgen.drawing.markdown import Hooks, blocks
from printgen.drawing.story import Masthead, Styles, accent_of, cell_styles, escape, grid_style, styles
from printgen.jinja.render import render
from printgen.core.build import BuildOptions
from printgen.drawing.document import Blame, Document, Grow, Growing, Page
from printgen.layout.booklet import booklet_document, booklet_name, column, column_pages, first_guess, half_page
from printgen.games import Game, Loaded, Validator
from printgen.games.edition_key import KEY_TABLE, key_caption
from printgen.games.omiga.checks import structure_errors
from printgen.games.omiga.drawn import drawn_warnings
from printgen.games.omiga.model import (DECKS, Colour, Omiga, check_geometry, check_palettes, lightness_warnings,
                                        tile_name)
from printgen.games.omiga.placing import placing_drawing
from printgen.games.omiga.race import LAYOUTS, race_drawing
from printgen.games.omiga.tile import OmigaTile, TileArt, all_tiles, tile_art

RULES_MARGIN = house.MARGIN  # mm around the rules page text
RULES_GUTTER = house.GUTTER  # mm between the two columns
MAX_BOOKLET_PAGES = 8  # half-size pages: the rules fill two whole pages
RULES_PAGES = 2  # the rules sheet, both sides, before the tile sheets
CONTACT_DPI = 80
CONTACT_GAP = 3.0  # mm between tiles on the contact sheet


def fit_words(defn: Omiga) -> str:
    """'diagonal meets diagonal, tip meets notch' from the fit table, each pair once."""
    pairs: list[str] = []
    for a, partners in defn.fits.items():
        for b in partners:
            if f"{b} meets {a}" not in pairs:
                pairs.append(f"{a} meets {b}")
    return ", ".join(pairs) or "no forms fit"


def edge_kinds(defn: Omiga) -> tuple[list[tuple[Colour, str]], list[tuple[str, str]]]:
    """Each colour (its paint, and its label with its symbol) and each form (its name with its shape,
    and the forms it joins), for the rules' table and the reference sheet's."""
    paints = [defn.looks().colours[name] for name in defn.colours]
    colours = [(paint, paint.label + (f" with a {paint.symbol}" if paint.symbol != "none" else ""))
               for paint in paints]
    forms = [(name + ("" if form.shape == name else f" ({form.shape})"),
              ", ".join(defn.fits.get(name, [])) or "nothing") for name, form in defn.forms.items()]
    return colours, forms


def reference_table(defn: Omiga, style: Styles, width: float) -> Table:
    """What each edge carries and what it joins: the colours (each with a swatch at the head of its
    Kind cell, under the one Kind heading), then the forms; each Edge cell spans its own rows, so no
    cell is left empty."""
    cell, head = cell_styles(style)
    colours, forms = edge_kinds(defn)
    rows: list[list[Any]] = [[Paragraph("Edge", head), Paragraph("Kind", head), "", Paragraph("Joins", head)]]
    spans: list[tuple[Any, ...]] = [("SPAN", (1, 0), (2, 0))]
    for r, (paint, kind) in enumerate(colours, start=1):
        rows.append([Paragraph("left and right", cell) if r == 1 else "", "", Paragraph(escape(kind), cell),
                     Paragraph(f"{escape(paint.label)}: the halves make one circle", cell)])
        spans.append(("BACKGROUND", (1, r), (1, r), HexColor(paint.fill)))
    first = len(rows)
    for kind, joins in forms:
        rows.append([Paragraph("top and bottom", cell) if len(rows) == first else "",
                     Paragraph(escape(kind), cell), "", Paragraph(escape(joins), cell)])
        spans.append(("SPAN", (1, len(rows) - 1), (2, len(rows) - 1)))  # a form has no swatch
    spans += [("SPAN", (0, low), (0, high)) for low, high in ((1, first - 1), (first, len(rows) - 1)) if high > low]
    swatch = 3.0  # mm
    rest = pt(width - swatch)
    table = Table(rows, colWidths=[rest * 0.24, pt(swatch), rest * 0.36, rest * 0.40])
    table.setStyle(grid_style(accent_of(style), extra=spans))
    return table


def example_pair(defn: Omiga, art: TileArt) -> tuple[OmigaTile, OmigaTile, OmigaTile] | None:
    """A white tile, a white neighbour on its right, and a black tile that fits above it."""
    tiles = all_tiles(defn, art)
    white = [t for t in tiles if t.deck == "white"]
    blacks = [t for t in tiles if t.deck == "black"]
    for low in white:
        right = next((t for t in white if t is not low and t.tile.left == low.tile.right), None)
        # a black tile lies turned: its own top edge meets the white tile's top
        up = next((t for t in blacks if t.tile.top in defn.fits.get(low.tile.top, [])), None)
        if right and up:
            return low, right, up
    return None


def example_drawing(defn: Omiga, art: TileArt, width: float) -> Drawing:
    """Three tiles as they lie on the table, at a reduced scale, bands and circles joined."""
    found = example_pair(defn, art)
    w, h = defn.card.width, defn.card.height
    scale = min(1.0, width / (2 * w))
    numbered = scale == 1.0  # smaller, the numbers would print below 7 pt; the text names the tiles
    drawing = Drawing(pt(2 * w * scale), pt(2 * h * scale))
    drawing.initialFontName = fonts.REGULAR
    if found is None:
        return drawing
    low, right, up = found
    outline = Group(*(placed(rect(0, 0, w, h, stroke=black, stroke_width=0.15), translate(x, y))
                      for x, y in ((0, 0), (w, 0), (0, h))))
    drawing.add(Group(low.front(numbered=numbered), placed(right.front(numbered=numbered), translate(w, 0)),
                      placed(turned(up.front(numbered=numbered), w, h), translate(0, h)), outline,
                      transform=(PT_PER_MM * scale, 0, 0, PT_PER_MM * scale, 0, 0)))
    return drawing


RULES_TEMPLATE = "omiga/rules.md.j2"


def example_words(defn: Omiga, art: TileArt) -> str:
    """The tiles of the example drawing, named as a player finds them: the deck, which the face
    shows, and the number printed in the tile's corner."""
    found = example_pair(defn, art)
    if not found:
        return "none in this set"
    low, right, up = found  # both lower tiles are white ones (example_pair)
    return (f"white tiles {low.index + 1} and {right.index + 1} side by side, black tile {up.index + 1} "
            f"above (turned, as black sees it)")


def rules_context(defn: Omiga, options: BuildOptions, art: TileArt, tile_pages: str = "",
                  placing: bool = True, race: bool = True) -> dict[str, Any]:
    """What the rules template reads; `tile_pages` names the tile sheets' pages of the same file
    ("3\u20138"), empty where the rules print apart from them (the booklet); `placing` and `race`,
    whether the placing and race pictures print."""
    example = example_words(defn, art)
    symbols = any(c.symbol != "none" for c in defn.looks().colours.values())
    return {"d": defn, "flip": options.flip, "fit_words": fit_words(defn), "symbols": symbols,
            "white_count": len(defn.decks.white.tiles), "black_count": len(defn.decks.black.tiles),
            "example": example, "tile_pages": tile_pages, "placing": placing, "race": race}


def rules_pdf_story(defn: Omiga, options: BuildOptions, art: TileArt, width: float, tile_pages: str = "",
                    placing: bool = True, race: tuple[int, float] | None = LAYOUTS[-2]):
    """The rules as flowables; `race` lays the race picture out (panels a row, mm a tile), None
    leaves it out."""
    style = styles(defn.text_size_pt, defn.reference.accent)
    text = render(RULES_TEMPLATE, rules_context(defn, options, art, tile_pages, placing, race is not None),
                  options.templates)
    tables = {"reference": lambda w: reference_table(defn, style, w),
              "example": lambda w: example_drawing(defn, art, w),
              "placing": lambda w: placing_drawing(defn, w, accent_of(style)),
              "race": lambda w: race_drawing(defn, w, accent_of(style), *(race or LAYOUTS[-1]))}
    return full_width_subtitle(blocks(text, RULES_TEMPLATE, style, Hooks(tables)))


def full_width_subtitle(story: list[Flowable]) -> list[Flowable]:
    """Omiga's subtitle (credit, players, tiles, the race) reads as one sentence: its title block
    runs as wide as the text, where it sets on one line, rather than the house's shorter measure."""
    for item in story[:1]:
        if isinstance(item, Masthead):
            item.measure = float("inf")
    return story


def rules_columns(paper: Paper) -> list[tuple[float, float, float, float]]:
    """Two columns, lines of about 60 characters: one column across the page is too long to read."""
    width = (paper.width - 2 * RULES_MARGIN - RULES_GUTTER) / 2
    height = paper.height - 2 * RULES_MARGIN
    return [(RULES_MARGIN, RULES_MARGIN, width, height),
            (RULES_MARGIN + width + RULES_GUTTER, RULES_MARGIN, width, height)]


def contact_sheet(defn: Omiga, art: TileArt, name: str, dpi: int | None = None) -> Document:
    """Both decks side by side, six tiles a row, as a PNG."""
    w, h, gap, margin, label = defn.card.width, defn.card.height, CONTACT_GAP, 10.0, 9.0
    per_row = 6
    rows = max(-(-len(defn.deck(d).tiles) // per_row) for d in DECKS)
    block = per_row * w + (per_row - 1) * gap
    paper = Paper("contact", 2 * block + 3 * margin, rows * h + (rows - 1) * gap + 2 * margin + label)
    page = Page()
    for d, deck in enumerate(DECKS):
        x0 = margin + d * (block + margin)
        top = paper.height - margin - label
        page.shapes.append(text(x0, top + 3, f"{deck} deck ({len(defn.deck(deck).tiles)} tiles)", 14,
                                fonts.BOLD))
        for i, tile in enumerate(defn.deck(deck).tiles):
            r, c = divmod(i, per_row)
            at = translate(x0 + c * (w + gap), top - (r + 1) * h - r * gap)
            page.shapes.append(placed(OmigaTile(defn, deck, i, tile, art).front(), at))
            page.shapes.append(placed(rect(0, 0, w, h, stroke=black, stroke_width=0.15), at))
    return Document(name, paper, [page], f"{defn.title} tiles", dpi=dpi or CONTACT_DPI)


def build(defn: Omiga, options: BuildOptions, loaded: Loaded) -> list[Document | Growing]:
    for loc, message in lightness_warnings(defn):
        found = loaded.source.problem(loc, message)
        loaded.art.warnings.append(f"{found.file}:{found.line}: warning: {found.path}: {found.message}")
    art = tile_art(defn, options.templates)
    bleed = defn.card.bleed if options.bleed is None else options.bleed  # --bleed wins
    card = reference(defn, art)
    try:
        art.prepare([bleed, 0.0])  # every face and back the sheets, SVGs and pictures need
        documents = [tiles_document(defn, options, loaded, art), *tile_svgs(defn, art),
                     contact_sheet(defn, art, f"{loaded.name}-tiles.png", options.dpi),
                     *reference_documents(card, options, loaded.name),
                     *([rules_booklet(defn, options, loaded.name, art)] if options.booklet or defn.booklet else [])]
    except Exception:  # the pieces' warnings are told with the problem (an unknown table's, say)
        if all((deck, i, 0.0, True) in art.faces for deck, i, _ in defn.tiles()):
            warn_drawn(defn, art, loaded)
        raise
    warn_drawn(defn, art, loaded)
    return documents


def warn_drawn(defn: Omiga, art: TileArt, loaded: Loaded) -> None:
    loaded.art.warnings.extend(w for w in drawn_warnings(defn, art) if w not in loaded.art.warnings)


def tile_svgs(defn: Omiga, art: TileArt) -> list[Document]:
    """One SVG per tile, titled by its tile, so renaming the set rewrites none of the files."""
    documents = []
    for tile in all_tiles(defn, art):
        name = tile_name(tile.deck, tile.index)
        documents.append(Document(f"svg/{name}.svg", Paper(name, tile.width, tile.height),
                                  [Page([tile.front()])], f"Omiga tile {name}"))
    return documents


def tiles_document(defn: Omiga, options: BuildOptions, loaded: Loaded, art: TileArt) -> Document:
    """The tile sheets (faces, backs, cut marks) and the rules page."""
    paper = options.paper
    tiles = all_tiles(defn, art)
    duplex = Duplex(paper, options.flip, options.back_offset)

    def caption(sheet: int, count: int, side: str) -> str:
        """Each tile page says which page of the whole file it is, as the rules' footer does."""
        page = f"page {RULES_PAGES + 2 * sheet + (1 if side == 'front' else 2)} of {RULES_PAGES + 2 * count}"
        if side == "front":
            return (f"{defn.title} tiles, sheet {sheet + 1} of {count}, faces ({page}). Print at actual size, "
                    f'choosing "{duplex.dialog}".')
        return f'{defn.title} tiles, sheet {sheet + 1} of {count}, backs ({page}), printed with "{duplex.dialog}".'

    frames = rules_columns(paper)
    try:
        bleed = defn.card.bleed if options.bleed is None else options.bleed  # --bleed wins
        sheets = impose_shared(tiles, duplex, bleed, lambda tile: cast(OmigaTile, tile).deck, caption)
    except ValueError as exc:
        raise DefinitionError([loaded.source.problem(("card", "width"), str(exc))])
    total = RULES_PAGES + 2 * len(sheets)  # the rules, then each sheet's front and back
    tile_pages = f"{RULES_PAGES + 1}\u2013{total}"

    @made_once
    def story_of(placing: bool, race: tuple[int, float] | None) -> list[Flowable]:
        return rules_pdf_story(defn, options, art, frames[0][2], tile_pages, placing, race)

    @cache
    def level(placing: bool, race: tuple[int, float] | None) -> float | None:
        """The least height (mm) the second page's columns can be cut to and still take the rules
        with these pictures, so they end level; None when even whole columns cannot. Finding it
        proves the fit too: one trial a choice where the fit and the level were two."""
        story = story_of(placing, race)
        first = under_masthead(story[0], frames) if story else frames
        height = level_height(lambda: story_of(placing, race), [first], frames)
        return height if height < whole or not leftover(story, [first, frames]) else None

    # each picture where the sheet has room for it: the placing picture first (the core rule's),
    # then the race's, as large as the room allows (on the bundled set both fit A4 and Letter, so
    # both at their largest are tried first, and fit at the first trial)
    whole = max(h for *_, h in frames)
    placing = True
    race: tuple[int, float] | None = LAYOUTS[0]
    if level(placing, race) is None:
        placing = level(True, None) is not None
        race = next((layout for layout in LAYOUTS if level(placing, layout) is not None), None)
    story = story_of(placing, race)
    first = under_masthead(story[0], frames) if story else frames  # the title block across the page
    height = level(placing, race)
    last = cut_to(frames, whole if height is None else height)  # the columns end level
    # the footer counts the pages of the whole file, as the player holds them, not the rules alone
    rules = [Page(shapes=[house.running_footer(paper, house.footer_words(defn.title, "rules", n, total, defn.credit))],
                  frames=box)  # one sheet: tiles start on a new one
             for n, box in ((1, first), (2, last))]
    pages = rules + [page for sheet in sheets for page in (sheet.front, sheet.back)]
    return Document(f"{loaded.name}.pdf", paper, pages, f"{defn.title} \u2013 rules and tiles",
                    "Print the whole file double-sided at actual size", options.flip, story,
                    overflow=Blame(("text_size_pt",), "the rules do not fit on their two pages",
                                   "lower text_size_pt"))


def rules_booklet(defn: Omiga, options: BuildOptions, stem: str, art: TileArt) -> Document | Growing:
    """The rules as a booklet of half-size pages in one column; the tiles stay in the main PDF."""
    half = half_page(options.paper)
    name = booklet_name(stem)

    def story() -> list[Flowable]:
        return rules_pdf_story(defn, options, art, column(half)[2])

    def pages(count: int) -> list[Page]:
        return column_pages(half, count, lambda n: house.footer_words(defn.title, "rules", n, count, defn.credit))

    pages_doc = Growing(Document(name, half, [], f"{defn.title} \u2013 rules",
                                 overflow=Blame(("text_size_pt",), f"the rules need more than {MAX_BOOKLET_PAGES} "
                                                f"pages of {half.name} paper", "lower text_size_pt")),
                        Grow(pages, story, first_guess(story(), half, MAX_BOOKLET_PAGES), MAX_BOOKLET_PAGES))
    return booklet_document(pages_doc, options, name)


def joins_table(defn: Omiga) -> DataTable:
    """Each edge colour and form with what it joins, for the reference sheet."""
    colours, forms = edge_kinds(defn)
    rows = [("left, right", kind, f"{paint.label}: one whole circle") for paint, kind in colours]
    rows += [("top, bottom", kind, joins) for kind, joins in forms]
    return DataTable(("Edge", "Kind", "Joins"), rows, (0.26, 0.37, 0.37))


def reference(defn: Omiga, art: TileArt) -> Reference:
    """The reference card: where a tile may go and what joins on the front, start and end behind."""
    return Reference(title=defn.title, template="omiga/reference.md.j2",
                     context={"d": defn, "white_count": len(defn.decks.white.tiles),
                              "black_count": len(defn.decks.black.tiles), "example": example_words(defn, art)},
                     tables={"joins": joins_table(defn), "example": lambda w: example_drawing(defn, art, w),
                             KEY_TABLE: key_caption},
                     settings=defn.reference, credit=defn.credit,
                     sections={"What joins": ("colours",)})


def cards(loaded: Loaded, options: BuildOptions) -> list[Card]:
    """Every tile face and one back per deck for `printgen export`, from the build's templates."""
    defn: Omiga = loaded.definition
    art = tile_art(defn, [*options.templates, *template_folders(defn.templates)])
    return [Card(tile_name(t.deck, t.index), "tile", t.deck, t) for t in all_tiles(defn, art)]


GAME = Game(
    id="omiga",
    title="Omiga",
    makes=["omiga.pdf: the rules on one sheet, then the 72 tiles with cut lines and their backs, "
           "all double-sided",
           "svg/: one SVG per tile (white-01.svg ... black-36.svg)",
           "omiga-tiles.png: a contact sheet of every tile",
           "omiga-reference.pdf: a one-page reference (where a tile may go, what joins, start and end)",
           "omiga-reference-cards.pdf: the same as two double-sided half-page cards",
           "omiga-booklet.pdf: with --booklet or booklet: true, the rules as an A5 (half-Letter) booklet"],
    model=Omiga,
    build=build,
    checks=(check_palettes, check_geometry, structure_errors),
    pieces=cards,
    bleed=True,
    validator=lambda: cast(Validator, import_module("printgen.games.omiga.validator")),
)
