"""Quick Violence: a rulebook whose last page is an exact-scale measuring page, and a reference card.

Rules, fighter table and card are all generated from the YAML, so they always agree with the page."""
from __future__ import annotations

from math import ceil
from typing import Callable

from reportlab.graphics.shapes import Group
from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, PageBreak, Paragraph, Table

from printgen.drawing import fonts
from printgen.drawing.flow import made_once
from printgen.drawing import style as house
from printgen.core.source import SourceMap
from printgen.core.paper import MM_PER_PT, Paper, pt
from printgen.core.problems import DefinitionError
from printgen.layout.reference import (DataTable, Reference, data_table, reference_documents,
                                       reference_styles)
from printgen.drawing.markdown import Hooks, blocks
from printgen.drawing.story import Styles, accent_of, cell_styles, escape, grid_style, styles
from printgen.jinja.render import render
from printgen.core.build import BuildOptions
from printgen.drawing.columns import cut_to, level_height, under_masthead
from printgen.drawing.document import Blame, Document, DoesNotFit, Grow, Growing, Page
from printgen.games import Game, Loaded
from printgen.games.edition_key import KEY_TABLE, key_caption
from printgen.games.quick_violence.model import (PRINTGEN_RANGE_MM, SIZES, Dimension, QuickViolence,
                                                  check_army)
from printgen.games.quick_violence.army_sheet import army_sheets
from printgen.games.quick_violence.army_sheet import height_needed as sheets_needed
from printgen.games.quick_violence.captions import ArrowLabels
from printgen.games.quick_violence.measuring_page import DIMENSIONS, MeasuringPage, inches, number, rounded
from printgen.games.pieces import templates_for
from printgen.layout.booklet import booklet_document, booklet_name, column_pages, first_guess, half_page

MARGIN = house.MARGIN  # mm around the text pages; well inside what any printer can print
GUTTER = 7.0
CELL_PAD = 2.0  # points
MAX_RULE_PAGES = 8
MAX_BOOKLET_PAGES = 2 * MAX_RULE_PAGES  # half-size pages
MEASURING_MAX_PT = 9.0  # the measuring page's text never grows past this: the arrows need the room
SHARES = (0.28, 0.24, 0.24, 0.24)  # the reference sheet's fighter table: row names, then one per size
BOOK_SHARES = (0.25, 0.25, 0.25, 0.25)  # in the rulebook's narrow column: "363.74 mm" fits one line
FOOTER_Y = 8.0
SHEETS_GAP = 5.0  # mm between the levelled columns of the last rules page and the army sheets
TEMPLATES = "quick_violence"


def lengths(paper: Paper) -> dict[str, float]:
    """Each page-dimension arrow's length on `paper`, mm."""
    return {"width": paper.width, "length": paper.height, "diagonal": paper.diagonal}


def fighter_rows(defn: QuickViolence, paper: Paper, moves_with: Callable[[str, str], str]) -> list[list[str]]:
    """The fighter table's rows, a size a column; `moves_with(label, mm)` sets the arrow's cell."""
    sizes = [f for _, f in defn.fighters.by_size()]
    arrows = [moves_with(defn.labels.of(f.move), rounded(lengths(paper)[f.move])) for f in sizes]
    return [["Cost", *(f"{f.cost} point{'s' if f.cost != 1 else ''}" for f in sizes)],
            ["Actions", *(str(f.actions) for f in sizes)], ["Moves with", *arrows],
            ["Defend bonus", *(f"+{f.defence}" for f in sizes)], ["Damage points", *(str(f.damage) for f in sizes)]]


def users(defn: QuickViolence) -> dict[str, list[str]]:
    """Which fighter sizes move with each page-dimension arrow."""
    found: dict[str, list[str]] = {"width": [], "length": [], "diagonal": []}
    for size, fighter in defn.fighters.by_size():
        found[fighter.move].append(size)
    return found


def example_armies(defn: QuickViolence, limit: int = 3) -> list[str]:
    """A few armies that spend the whole budget, from the most fighters to the fewest."""
    return [", ".join(f"{k} {size}" for k, size in zip(n, SIZES) if k) for n in full_armies(defn, limit)]


def full_armies(defn: QuickViolence, limit: int = 3) -> list[tuple[int, int, int]]:
    """How many small, medium and large fighters in a few armies that spend the whole budget."""
    (c0, c1, c2) = (f.cost for _, f in defn.fighters.by_size())
    budget = defn.army_budget
    exact = [(a, b, (budget - a * c0 - b * c1) // c2)
             for a in range(budget // c0 + 1) for b in range((budget - a * c0) // c1 + 1)
             if (budget - a * c0 - b * c1) % c2 == 0]
    exact.sort(key=lambda n: (-sum(n), n))
    if len(exact) > limit:  # keep the extremes and the most varied army in between
        varied = max(exact[1:-1], key=lambda n: (sum(1 for k in n if k), -abs(sum(n) - sum(exact[0]) / 2)))
        exact = [exact[0], varied, exact[-1]]
    return exact


def hit_chance(attacker: int, target: int) -> float:
    """The chance that an attacker with bonus `attacker` out-rolls a target with bonus `target`, D6 each."""
    sides = range(1, 7)
    return sum(a + attacker > t + target for a in sides for t in sides) / 36


def odds_table(defn: QuickViolence) -> DataTable:
    """Key numbers for the table: the chance of a hit, by the target's bonus (rows) and the
    attacker's (columns): 0 when not defending, else its size's bonus."""
    bonuses = sorted({0, *(f.defence for _, f in defn.fighters.by_size())})
    name = {0: "+0"} | {f.defence: f"+{f.defence}" for _, f in defn.fighters.by_size()}
    rows = [[name[t], *(f"{round(100 * hit_chance(a, t))} %" for a in bonuses)] for t in bonuses]
    head = ("Target", *(name[a] for a in bonuses))
    first = 0.2
    return DataTable(head, rows, (first, *((1 - first) / len(bonuses),) * len(bonuses)))


def armies_table(defn: QuickViolence) -> DataTable:
    """A few armies that spend every point, with what their size means in play."""
    rows = []
    for counts in full_armies(defn):
        n = sum(counts)
        army = ", ".join(f"{k} {size}" for k, size in zip(counts, SIZES) if k)
        rows.append([army, str(n), str(half_up(n)), f"the {ordinal(half_up(n))} loss"])
    return DataTable(("Army", "Fighters", "Per turn", "Beaten at"), rows, (0.36, 0.2, 0.18, 0.26))


def half_up(count: int) -> int:
    return ceil(count / 2)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


SPANS: tuple[tuple[Dimension, str], ...] = (("width", "edge to edge"), ("length", "edge to edge"),
                                             ("diagonal", "corner to corner"))


def context(defn: QuickViolence, paper: Paper) -> dict:
    """Everything the templates may use: the definition, the paper's arrows and worked numbers."""
    length = lengths(paper)
    return {
        "d": defn, "f": defn.fighters, "labels": defn.labels, "paper": paper.name,
        "sizes": [(size, fighter, defn.labels.of(fighter.move), rounded(length[fighter.move]))
                  for size, fighter in defn.fighters.by_size()],
        "arrows": [{"label": defn.labels.of(dim), "dimension": dim, "span": span,
                    "length": rounded(length[dim]), "who": ", ".join(users(defn)[dim])}
                   for dim, span in SPANS],
        "range": number(defn.range_mm), "range_in": inches(defn.range_mm),
        "printgen_range": number(PRINTGEN_RANGE_MM), "range_is_printgens": defn.range_mm == PRINTGEN_RANGE_MM,
        "armies": example_armies(defn),
        "activation": [(n, half_up(n)) for n in (1, 4, 5)],
        "losing": [(n, ordinal(half_up(n))) for n in (4, 5)],
        "arrow": {size: f"{defn.labels.of(f.move)} ({rounded(length[f.move])} mm)"
                  for size, f in defn.fighters.by_size()},
        "example_side": 4, "example_activations": half_up(4),
        "reach": [(size, rounded(f.actions * length[f.move])) for size, f in defn.fighters.by_size()],
        "duel": duel(defn),
    }


def duel(defn: QuickViolence) -> dict | None:
    """The reference's example turn: the army of most fighters against the one of fewest, when
    they may activate different numbers a turn (None when they may not)."""
    armies = full_armies(defn)
    many, few = armies[0], armies[-1]
    if half_up(sum(many)) == half_up(sum(few)):
        return None
    name = {counts: army for counts, army in zip(armies, example_armies(defn))}
    return {"many": name[many], "many_turn": half_up(sum(many)), "few": name[few], "few_turn": half_up(sum(few)),
            "left": half_up(sum(many)) - half_up(sum(few))}


def too_wide(defn: QuickViolence, font: str, size: float, room: float) -> list[tuple[Dimension, str]]:
    """The page arrows' labels wider than `room` set in `font` at `size` (one unit): a table cell
    would break them mid-word."""
    labels = [(dim, defn.labels.of(dim)) for dim in DIMENSIONS]
    return [(dim, label) for dim, label in labels if fonts.text_width(label, font, size) > room]


def fighter_table(defn: QuickViolence, paper: Paper, style: Styles, source: SourceMap,
                  width: float) -> Table:
    """The fighter sizes as columns, so the table reads in a narrow column; a word too wide for
    its cell is an error, since it would be broken."""
    cell, head = cell_styles(style)
    side = cell.clone("qv-side", fontName=fonts.BOLD)  # the row names, on white
    room = min(pt(width) * s - 2 * CELL_PAD for s in BOOK_SHARES[1:])
    problems = [source.problem(("labels", dim), f"'{label}' is wider than its {room * MM_PER_PT:.1f} mm cell in "
                               "the fighter table; use a shorter word or a smaller text_size_pt")
                for dim, label in too_wide(defn, fonts.BOLD, cell.fontSize, room)]
    if problems:
        raise DefinitionError(problems)
    rows: list[list[Flowable]] = [[Paragraph("", head)] + [Paragraph(s.capitalize(), head) for s in SIZES]]
    for name, *values in fighter_rows(defn, paper, lambda label, mm: f"<b>{escape(label)}</b><br/>{mm} mm"):
        rows.append([Paragraph(name, side)] + [Paragraph(value, cell) for value in values])
    table = Table(rows, colWidths=[pt(width) * s for s in BOOK_SHARES])
    table.setStyle(grid_style(accent_of(style), pad_x=CELL_PAD))
    return table



def columns(paper: Paper) -> list[tuple[float, float, float, float]]:
    """Two text columns inside the page margin, above the footer."""
    width = (paper.width - 2 * MARGIN - GUTTER) / 2
    height = paper.height - 2 * MARGIN
    return [(MARGIN, MARGIN, width, height), (MARGIN + width + GUTTER, MARGIN, width, height)]


def pages_for(story: list[Flowable], paper: Paper) -> int:
    """A first guess at the rules' page count from the text's height, so most builds render once."""
    _, _, width, height = columns(paper)[0]
    breaks = sum(isinstance(item, PageBreak) for item in story)
    total = sum(item.wrap(pt(width), pt(height))[1] + item.getSpaceBefore() + item.getSpaceAfter()
                for item in story if not isinstance(item, PageBreak))
    return min(MAX_RULE_PAGES, max(1 + breaks, ceil(total / (len(columns(paper)) * pt(height)))))


def rule_pages(defn: QuickViolence, paper: Paper, count: int,
               rules: Callable[[], list[Flowable]]) -> list[Page]:
    """`count` pages of two columns; on the last, the columns end level as high as the rules allow
    and the army sheets fill the foot (no page but the measuring page ends in blank paper)."""
    full = columns(paper)
    story = rules()
    first = under_masthead(story[0], full) if story else full  # the title block across the first page
    title, lone = first[:len(first) - len(full)], first[len(first) - len(full):]
    before = ([first] + [full] * (count - 2)) if count > 1 else []
    last = full if count > 1 else lone
    height = level_height(rules, before, last)
    pages = [Page(shapes=[house.running_footer(paper, house.footer_words(defn.title, "rules", n, count + 1,
                                                                         defn.credit))], frames=full)
             for n in range(1, count + 1)]
    pages[0].frames = first
    pages[-1].frames = (title if count == 1 else []) + cut_to(last, height)
    room = last[0][3]
    band = (MARGIN, MARGIN, paper.width - 2 * MARGIN, room - height - SHEETS_GAP)
    if band[3] >= sheets_needed(defn, band[2]):
        pages[-1].shapes.append(army_sheets(defn, band, full))
    return pages


def rulebook(defn: QuickViolence, options: BuildOptions, loaded: Loaded, page: MeasuringPage,
             labels: list[Group], booklet: bool = False) -> Document | Growing:
    """The rules in two columns, then the measuring page; the writer grows the rules as needed.
    `booklet`: the rules as a booklet instead, the measuring page after it on its own sheet."""
    paper, style = options.paper, styles(defn.text_size_pt, defn.reference.accent)
    measuring_style = styles(min(defn.text_size_pt, MEASURING_MAX_PT), defn.reference.accent,
                             default=house.REFERENCE_PT)  # headings in the accent, as in the rules

    def story_of(template: str, style: Styles) -> list[Flowable]:
        tables = {"fighters": lambda width: fighter_table(defn, paper, style, loaded.source, width)}
        text = render(f"{TEMPLATES}/{template}", context(defn, paper), options.templates)
        return blocks(text, f"{TEMPLATES}/{template}", style, Hooks(tables))

    @made_once
    def rules() -> list[Flowable]:
        return story_of("rules.md.j2", style)

    def story() -> list[Flowable]:
        return rules() + [PageBreak()] + story_of("measuring.md.j2", measuring_style)

    last = Page(shapes=page.shapes(labels), frames=[page.text_box()])
    advice = "lower text_size_pt or shorten the template"
    measuring = Blame(("text_size_pt",), f"the measuring page's text does not fit its box on {paper.name} "
                      "paper", advice)
    if booklet:
        return rules_booklet(defn, options, loaded.name, rules, story, last, measuring)
    try:
        first = pages_for(rules(), paper)
    except DefinitionError:  # a fighter table that cannot be set: the writer meets it again and reports it
        first = 1
    document = Document(f"{loaded.name}.pdf", paper, [], f"{defn.title} \u2013 rulebook and measuring page",
                        "Print at Actual size: the measuring page is the game's ruler", None,
                        overflow=Blame(("text_size_pt",), f"the rules need more than {MAX_RULE_PAGES} pages of "
                                       f"{paper.name} paper", advice))
    return Growing(document, Grow(lambda count: rule_pages(defn, paper, count, rules) + [last], story, first,
                                  MAX_RULE_PAGES, fixed_last=measuring))


def rules_booklet(defn: QuickViolence, options: BuildOptions, stem: str, rules: Callable[[], list[Flowable]],
                  story: Callable[[], list[Flowable]], last: Page, measuring: Blame) -> Document | Growing:
    """The rules on half-size pages in one column, imposed as a booklet; the measuring page, which
    must print on the whole paper it measures, follows on a sheet of its own."""
    half = half_page(options.paper)
    name = booklet_name(stem)

    def pages(count: int) -> list[Page]:  # the measuring page is the book's last, as in the plain rulebook
        return column_pages(half, count, lambda n: house.footer_words(defn.title, "rules", n, count + 1,
                                                                     defn.credit)) + [last]

    try:
        first = first_guess(rules(), half, MAX_BOOKLET_PAGES)
    except DefinitionError:  # a fighter table that cannot be set: the writer meets it again and reports it
        first = 1
    pages_doc = Growing(Document(name, half, [], f"{defn.title} \u2013 rulebook and measuring page",
                                 overflow=Blame(("text_size_pt",), f"the rules need more than {MAX_BOOKLET_PAGES} "
                                                f"pages of {half.name} paper", measuring.advice)),
                        Grow(pages, story, first, MAX_BOOKLET_PAGES, fixed_last=measuring))
    return booklet_document(pages_doc, options, name, whole=1)


def reference(defn: QuickViolence, paper: Paper) -> Reference:
    """The reference sheet through printgen.reference, like every game's: the fighter table and the
    turn on the top half (a card's front), actions, damage and the arrows on the bottom (its back)."""
    rows = fighter_rows(defn, paper, lambda label, mm: f"{label} ({mm} mm)")
    table = DataTable(("", *(s.capitalize() for s in SIZES)), rows, SHARES)
    settings = defn.reference

    def fighters(width: float) -> Flowable:
        """The shared data table, after checking no label would be broken mid-word."""
        style = reference_styles(settings)
        room = width * SHARES[1] / sum(SHARES) - 2 * 2.5 * MM_PER_PT
        for dim, label in too_wide(defn, fonts.REGULAR, style.body.fontSize * MM_PER_PT, room):  # the first
            raise DoesNotFit(("labels", dim), f"'{label}' is wider than its {room:.1f} mm cell in the fighter "
                             "table; use a shorter word or a smaller reference.text_size_pt")
        return data_table(table, style, HexColor(settings.accent), width)

    return Reference(title=defn.title, template=f"{TEMPLATES}/reference.md.j2",
                     context=context(defn, paper), settings=settings, credit=defn.credit,
                     tables={"fighters": fighters, "odds": odds_table(defn), "armies": armies_table(defn),
                             KEY_TABLE: key_caption},
                     sections={"Fighters": ("fighters",), "The arrows": ("labels",)})


def measuring_page(defn: QuickViolence, paper: Paper) -> MeasuringPage:
    colours = {name: HexColor(value) for name, value in defn.colours.model_dump().items()}
    reach = tuple((size, fighter.actions, fighter.move) for size, fighter in defn.fighters.by_size())
    return MeasuringPage(paper, defn.labels, defn.range_mm, users(defn), colours, reach,
                         HexColor(defn.reference.accent))


def build(defn: QuickViolence, options: BuildOptions, loaded: Loaded) -> list[Document | Growing]:
    page = measuring_page(defn, options.paper)
    problems = [loaded.source.problem(loc, message) for loc, message in page.problems()]
    if problems:  # a range arrow that does not fit makes the rest of the book meaningless
        raise DefinitionError(problems)
    labels = ArrowLabels(page, templates_for(defn, options.templates, loaded.art.warnings))
    drawn = labels.drawn()
    return [rulebook(defn, options, loaded, page, drawn),
            *([rulebook(defn, options, loaded, page, drawn, booklet=True)] if options.booklet or defn.booklet else []),
            *reference_documents(reference(defn, options.paper), options, loaded.name)]


GAME = Game(
    id="quick_violence",
    title="Quick Violence",
    makes=["quick_violence.pdf: the rulebook, ending with the exact-scale measuring page",
           "quick_violence-reference.pdf: the one-page reference sheet (fighter table, the turn)",
           "quick_violence-reference-cards.pdf: the same as two double-sided half-page cards",
           "quick_violence-booklet.pdf: with --booklet or booklet: true, the rules as an A5 (half-Letter) booklet"],
    model=QuickViolence,
    build=build,
    checks=(check_army,),
)
