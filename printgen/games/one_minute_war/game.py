"""One Minute War: a one-sheet duplex rules document with a fold-and-cut card of soldier tabs."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import cast

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Paragraph, Table

from printgen.drawing import fonts
from printgen.drawing.flow import made_once
from printgen.drawing.columns import cut_to, leftover, level_height
from printgen.drawing import style as house
from printgen.core.paper import pt
from printgen.drawing.picture import placed
from printgen.core.problems import DefinitionError
from printgen.layout.reference import DataTable, Reference, reference_documents, reference_styles
from printgen.layout.sheet import Duplex, DuplexSheet, frames_around, line_legend
from printgen.drawing.markdown import Hooks, blocks
from printgen.drawing.story import (Stack, Styles, accent_of, cell_styles, escape, grid_style, styles, tagged,
                                   words_of)
from printgen.jinja.render import render
from printgen.core.build import BuildOptions
from printgen.core.paper import Paper
from printgen.drawing.document import Blame, Document, Page
from printgen.games import Game, Loaded, Replayer, Validator
from printgen.games.one_minute_war.abilities import check_abilities
from printgen.games.one_minute_war.example import example_data
from printgen.games.one_minute_war.card import WarCard, check_card_text, tab_warnings
from printgen.games.edition_key import KEY_TABLE, key_caption
from printgen.games.pieces import templates_for
from printgen.games.one_minute_war.model import OneMinuteWar, Soldier, check_sides, check_soldiers

PAGE_MARGIN = 9.0  # mm; above the 5 mm safe margin, so home printers never clip text or card
GAP = 5.0  # mm between the card and the text that flows around it
LEGEND_HEIGHT = 6.0
NARROW_TABLE = 120.0  # mm: a match-up table narrower than this is set with numbered heads
FOOT = 12.0  # mm: the text's lowest line stays above the running footer


RULES_TEMPLATE = "one_minute_war/rules.md.j2"
SOLDIER_HEADER = ("No.", "Soldier", "Defeats", "Ability")


def soldier_rows(defn: OneMinuteWar) -> list[tuple[str, str, str, str]]:
    """One row per soldier, in number order; the rules sheet and the reference share them."""
    names = {s.number: s.name for s in defn.soldiers}
    return [(str(s.number), s.name, ", ".join(f"{n} {names[n]}" for n in sorted(s.beats)) or "\u2013",
             s.ability) for s in sorted(defn.soldiers, key=lambda s: s.number)]


def soldier_table(defn: OneMinuteWar, style: Styles, width: float):
    """The ability table, generated from the soldier list so the text and tabs always agree."""
    cell, head = cell_styles(style)
    rows = [[Paragraph(h, head) for h in SOLDIER_HEADER]]
    rows += [[Paragraph(escape(value), cell) for value in row] for row in soldier_rows(defn)]
    widths = [0.09, 0.21, 0.32, 0.38]
    table = Table(rows, colWidths=[pt(width) * f for f in widths], repeatRows=1)
    table.setStyle(grid_style(accent_of(style), pad_x=2))
    return table


def outcome(attacker: Soldier, defender: Soldier) -> str:
    """What happens to `attacker` when he meets `defender`, from the attacker's side."""
    if defender.number in attacker.beats:
        return "wins"
    if attacker.number in defender.beats:
        return "falls"
    return "both stand"


@dataclass(frozen=True)
class LoneVictim:
    """A soldier who defeats exactly one other: once that one has fallen, he can win no more."""

    soldier: str
    victim: str


@dataclass(frozen=True)
class Tips:
    """The rules' tips, worked out from the soldier table so a homebrew table gets true ones."""

    reviver_stands_against: list[str]
    lone_victims: list[LoneVictim]


def tips(defn: OneMinuteWar) -> Tips:
    order = sorted(defn.soldiers, key=lambda s: s.number)
    names = {s.number: s.name for s in order}
    reviver = next((s for s in order if s.revives), None)
    stands = [] if reviver is None else [s.name for s in order if outcome(reviver, s) != "falls"]
    if len(stands) == len(order):
        stands = []
    return Tips(stands, [LoneVictim(s.name, names[s.beats[0]]) for s in order if len(s.beats) == 1])


EXAMPLE_SECTION = "An example war"
TIPS_SECTION = "Tips"


def example_whole(story: list[Flowable]) -> list[Flowable]:
    """The story with the example war's heading and rounds as one block that never splits: read
    round by round, it is no use begun in one column and ended in another."""
    kept = [i for i, item in enumerate(story) if getattr(item, "section", "") == EXAMPLE_SECTION]
    if not kept:
        return story
    first, last = kept[0], kept[-1] + 1
    return [*story[:first], tagged(Stack(story[first:last], whole=True), EXAMPLE_SECTION), *story[last:]]


REVIVE_MARK = "+revive"  # beside the reviver's name in the match-up table: he revives whatever the cell says


def widest_word(texts: list[str], font: str, size: float) -> float:
    """The width (points) of the widest word in `texts` (a number and the name after it are one),
    and a point to spare for rounding: a table cell never breaks inside a word."""
    return max(fonts.text_width(word, font, size) for text in texts for word in words_of(text)) + 1.0


def matchup_table(defn: OneMinuteWar, style: Styles, width: float):
    """Every pairing at a glance: row = your soldier, column = the one he meets.

    Cells hold only 'wins', 'falls' or 'both stand'; the reviver's row head carries the revival
    once. Each column is as wide as its widest word needs (no word is ever broken), the rest of
    the width going to the result columns; too narrow for the names, the heads are numbers."""
    order = sorted(defn.soldiers, key=lambda s: s.number)
    plain, white_head = cell_styles(style, house.dense(style.body.fontSize))
    cell = plain.clone("mcell", alignment=1, splitLongWords=0)
    head = white_head.clone("mhead", alignment=1, splitLongWords=0)
    side = cell.clone("mside", fontName=fonts.BOLD)  # the row heads, on white
    pad = 1.5 if width < NARROW_TABLE else 6.0  # points each side of a cell's text
    size = cell.fontSize
    results = ["wins", "falls", "both stand"]
    corner = "yours v. theirs"

    def heads(named: bool) -> list[str]:
        return [f"{s.number} {s.name}" if named else str(s.number) for s in order]

    def row_words(named: bool) -> list[str]:
        return [h + (f" {REVIVE_MARK}" if s.revives else "") for h, s in zip(heads(named), order)]

    result_need = max(widest_word(results, fonts.REGULAR, size), widest_word(heads(width >= NARROW_TABLE),
                                                                             fonts.BOLD, size)) + 2 * pad
    named = True
    first = widest_word([corner, *row_words(True)], fonts.BOLD, size) + 2 * pad
    if first + len(order) * result_need > pt(width):  # the names do not fit: number the rows too
        named = False
        first = widest_word([corner, *row_words(False)], fonts.BOLD, size) + 2 * pad
    columns = heads(named and width >= NARROW_TABLE)
    rest = (pt(width) - first) / len(order)
    rows = [[Paragraph(corner, head)] + [Paragraph(escape(h), head) for h in columns]]
    shading = []
    for r, mine in enumerate(order, start=1):
        name = escape(f"{mine.number} {mine.name}" if named else str(mine.number))
        mark = f"<br/>{REVIVE_MARK}" if mine.revives else ""
        row = [Paragraph(name + mark, side)]
        for c, theirs in enumerate(order, start=1):
            result = outcome(mine, theirs)
            row.append(Paragraph(result, cell))
            fill = {"wins": "#d9ead3", "falls": "#f4cccc"}.get(result)
            if fill:
                shading.append(("BACKGROUND", (c, r), (c, r), HexColor(fill)))
        rows.append(row)
    table = Table(rows, colWidths=[first] + [rest] * len(order))
    table.setStyle(grid_style(accent_of(style), pad, [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2), *shading]))
    return table


def rules_sheet(defn: OneMinuteWar, options: BuildOptions, card: WarCard, loaded: Loaded) -> DuplexSheet:
    """The sheet's two sides before the rules flow in: the card at the front's top right and its
    back where the printer turns it, their cut-and-fold legends, the text's frames around both, and
    the running footers."""
    paper = options.paper
    duplex = Duplex(paper, options.flip, options.back_offset)
    sheet = DuplexSheet(duplex)
    x = paper.width - PAGE_MARGIN - card.width
    y = paper.height - PAGE_MARGIN - card.height
    if x < PAGE_MARGIN + 40:
        raise DefinitionError([loaded.source.problem(("card", "width"), f"the card ({card.width:g} mm "
                                                     f"wide) leaves no room for text on {paper.name} paper")])
    box = sheet.place(card, x, y)
    legend_y = y - LEGEND_HEIGHT + 1.5
    sheet.front.shapes.append(line_legend(x, legend_y))
    back_x, back_y, _, _ = duplex.back_box(box)
    sheet.back.shapes.append(line_legend(back_x, back_y - LEGEND_HEIGHT + 1.5 if duplex.side_to_side
                                         else back_y + card.height + 2.5))

    # the text keeps clear of the footer at the foot; a frame as wide as the page is set in two columns
    area = (PAGE_MARGIN, FOOT, paper.width - 2 * PAGE_MARGIN, paper.height - PAGE_MARGIN - FOOT)
    keep_clear = (x, y - LEGEND_HEIGHT, card.width, card.height + LEGEND_HEIGHT)
    sheet.front.frames = [c for f in frames_around(area, keep_clear, GAP) for c in house.split_wide(f)]
    bx, by, bw, bh = duplex.back_box(keep_clear)
    card_at_foot = by < FOOT  # turned top to bottom, the card's back lies at the foot of page 2
    if card_at_foot:  # the footer moves beside it, in two lines, and the text keeps clear of both
        area = (area[0], FOOT + house.FOOTER_LEADING, area[2], area[3] - house.FOOTER_LEADING)
    sheet.back.frames = [c for f in frames_around(area, (bx, by, bw, bh), GAP) for c in house.split_wide(f)]
    for n, side in enumerate((sheet.front, sheet.back), start=1):
        if n == 2 and card_at_foot:  # left of the card's back, in two lines: game and page, then credit
            words = house.footer_words(defn.title, "rules", n, 2)
            footer = house.running_footer(paper, defn.credit or words, above=words if defn.credit else "",
                                          centre=(PAGE_MARGIN + bx - GAP) / 2)
        else:
            footer = house.running_footer(paper, house.footer_words(defn.title, "rules", n, 2, defn.credit))
        side.shapes.append(footer)
    return sheet


def build(defn: OneMinuteWar, options: BuildOptions, loaded: Loaded) -> list[Document]:
    paper = options.paper
    card = WarCard(defn, templates_for(defn, options.templates))
    loaded.art.warnings.extend(w for w in tab_warnings(card) if w not in loaded.art.warnings)
    sheet = rules_sheet(defn, options, card, loaded)
    style = styles(defn.text_size_pt, defn.reference.accent)
    tables = {"soldiers": lambda width: soldier_table(defn, style, width),
              "matchups": lambda width: matchup_table(defn, style, width)}

    @made_once
    def story_of(tips_early: bool, to_the_end: bool = False) -> list[Flowable]:
        text = render(RULES_TEMPLATE, {"d": defn, "soldiers": card.soldiers(), "near": defn.sides[0],
                                       "far": defn.sides[1], "flip": options.flip, "tips": tips(defn),
                                       "example": example_data(defn, to_the_end), "tips_early": tips_early},
                      options.templates)
        return example_whole(blocks(text, RULES_TEMPLATE, style, Hooks(tables)))

    # the tips close the first page where it has room for them (A4's); else they follow the match-up
    # table overleaf, which then starts beside the card's back whole instead of behind them
    early = not any(getattr(item, "section", "") == TIPS_SECTION
                    for item in leftover(story_of(True), [sheet.front.frames]))
    # the example war plays on to its end where the sheet has room for the rounds that takes (A4's
    # back, whose columns otherwise end a fifth of the page short); else it stops after its sixth
    longer = example_data(defn, to_the_end=True)
    whole = (bool(longer) and longer != example_data(defn)
             and not leftover(story_of(early, True), [sheet.front.frames, sheet.back.frames]))

    def fresh() -> list[Flowable]:
        return story_of(early, whole)

    story = fresh()
    # the back's two side-by-side columns end level (above the card's back when it lies at the foot;
    # a frame beside the card stays whole, and columns that cannot take the rest stay whole too)
    back = sheet.back.frames
    sides = [i for i in range(len(back) - 1) if (back[i][1], back[i][3]) == (back[i + 1][1], back[i + 1][3])]
    if sides:
        i = sides[-1]
        height = level_height(fresh, [sheet.front.frames, back[:i]], back[i:i + 2])
        sheet.back.frames = [*back[:i], *cut_to(back[i:i + 2], height), *back[i + 2:]]
    sheet_doc = Document(f"{loaded.name}.pdf", paper, [sheet.front, sheet.back],
                         f"{defn.title} \u2013 rules and card", "Print double-sided at actual size",
                         options.flip, story, overflow=Blame(("text_size_pt",), "the rules do not fit on "
                                                             "one sheet", "lower text_size_pt"))
    stem, size = loaded.name, Paper("card", card.width, card.height)
    return reference_documents(reference(defn), options, stem) + [
        sheet_doc,
        Document(f"svg/{stem}-card-front.svg", size, [Page([card.front(), card.guides()])],
                 f"{defn.title} card, front"),
        Document(f"svg/{stem}-card-back.svg", size,  # the guides turned over about the vertical axis
                 [Page([card.back(), placed(card.guides(), (-1, 0, 0, 1, card.width, 0))])],
                 f"{defn.title} card, back"),
    ]


def reference(defn: OneMinuteWar) -> Reference:
    table = DataTable(SOLDIER_HEADER, soldier_rows(defn), (0.1, 0.22, 0.33, 0.35))
    reviver = next((s for s in defn.soldiers if s.revives), None)
    return Reference(title=defn.title, template="one_minute_war/reference.md.j2",
                     context={"d": defn, "r": defn.restrictions, "reviver": reviver, "tips": tips(defn)},
                     tables={"soldiers": table,
                             "matchups": lambda width: matchup_table(defn, reference_styles(defn.reference), width),
                             KEY_TABLE: key_caption},
                     settings=defn.reference, credit=defn.credit,
                     sections={"Soldiers": ("soldiers",), "Restrictions": ("restrictions",)})


GAME = Game(
    id="one_minute_war",
    title="One Minute War",
    makes=["one_minute_war.pdf: a double-sided rules sheet with the fold-and-cut soldier card",
           "svg/: the card's front and back",
           "one_minute_war-reference.pdf: a one-page reference (soldier table, a round, restrictions)",
           "one_minute_war-reference-cards.pdf: the same as two double-sided half-page cards"],
    model=OneMinuteWar,
    build=build,
    checks=(check_soldiers, check_sides, check_abilities, check_card_text),
    validator=lambda: cast(Validator, import_module("printgen.games.one_minute_war.validator")),
    replayer=lambda: cast(Replayer, import_module("printgen.games.one_minute_war.replay")),
)
