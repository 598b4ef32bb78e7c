"""Armies: a rulebook, whose worked example is played out from the definition so the text stays
true when the numbers change, and a reference sheet (also as two half-page cards); both show the
stamina positions, drawn from `armies/positions.svg.j2` at both column widths in one batch."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Spacer

from printgen.layout import reference as reference_layout
from printgen.layout.reference import DataTable, Reference, reference_documents
from printgen.layout.booklet import half_page, rulebook_booklet
from printgen.layout.rulebook import Layout, Rulebook, RulesTable, rulebook_document, rulebook_styles
from printgen.core.build import BuildOptions
from printgen.core.paper import MM_PER_PT, pt
from printgen.drawing.document import Document, Growing
from printgen.drawing.story import Stack
from printgen.games import Game, Loaded
from printgen.games.armies.model import Armies, ArmyRank, check_stamina
from printgen.games.armies.positions import PositionFigures
from printgen.games.edition_key import KEY_TABLE, key_caption
from printgen.games.pieces import templates_for

FIRST, SECOND = "Mia", "Tom"
# Each player's armies, as places in the definition's stamina list (first = leads the line).
LINES = ((1, 3, 0), (2, 0, 3))
# Each round's two plays: (number, attacks?) for Mia, then for Tom.
PLAYS = (((9, True), (6, False)), ((10, True), (10, False)), ((4, True), (8, True)),
         ((7, False), (5, True)), ((3, True), (2, False)))


def position_rows(defn: Armies) -> list[tuple[str, ...]]:
    """For each position: its name, the SP it means lost, and each rank's SP left (or '-')."""
    rows = []
    for lost, position in enumerate(defn.positions):
        left = [str(a.stamina - lost) if a.stamina > lost else "\u2013" for a in defn.stamina]
        rows.append((position.name, str(lost), *left))
    return rows


def tables(defn: Armies, settings: str, figures: PositionFigures) -> dict[str, DataTable | Callable[[float], Any]]:
    """The tables and positions drawing for the document whose layout is under `settings`."""
    ranks = len(defn.stamina)
    return {
        "stamina": DataTable(("Army card", "Starts with"),
                             [(f"{a.rank} ({a.index})", f"{a.stamina} SP") for a in defn.stamina],
                             (0.55, 0.45)),
        "results": DataTable(("When", "Then"), [(r.case, r.result) for r in defn.results], (0.4, 0.6)),
        "round": DataTable(("Step", "What happens"),
                           [(f"{i}. {s.step}", s.what) for i, s in enumerate(defn.round, 1)], (0.27, 0.73)),
        "positions": DataTable(("Position", "SP lost", *(a.index for a in defn.stamina)),
                               position_rows(defn), (0.34, 0.18, *([0.48 / ranks] * ranks))),
        "drawing": lambda width: figures.figure(width, f"{settings}.columns"),
    }


FIGURE_GAP = 2.0  # mm between the positions drawing and the table under it


def drawn_positions(defn: Armies, figures: PositionFigures, positions: DataTable | Callable[[float], Any]) -> Callable[[float], Flowable]:
    """The rulebook's positions drawing with the table of SP left under it, as one block that moves
    to the next column whole: a reader turning the sheet over between them loses the picture."""
    style = rulebook_styles(defn.rules, defn.reference.accent)

    assert isinstance(positions, DataTable)

    def made(width: float) -> Flowable:
        table = reference_layout.data_table(positions, style, HexColor(defn.reference.accent), width, kind=RulesTable)
        return Stack([figures.figure(width, "rules.columns"), Spacer(1, pt(FIGURE_GAP)), table], whole=True)
    return made


@dataclass
class Line:
    """One player's armies in the example: the one fighting and the SP it has lost."""

    armies: list[ArmyRank]
    lost: int = 0

    @property
    def front(self) -> ArmyRank:
        return self.armies[0]


def card(defn: Armies, number: int, attacks: bool) -> str:
    colour = defn.attack if attacks else defn.defence
    return f"a {colour} {number}"


def listed(ranks: Iterable[str]) -> str:
    """'a King, a Jack and an Ace'."""
    words = [f"{'an' if rank[:1].lower() in 'aeiou' else 'a'} {rank}" for rank in ranks]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def example(defn: Armies) -> dict[str, Any]:
    """The worked example: both lines of armies and, for each round, the plays and what follows."""
    ranks = defn.stamina
    lines = [Line([ranks[i % len(ranks)] for i in line]) for line in LINES]
    start = [{"name": name, "armies": listed(a.rank for a in line.armies), "lead": line.front.rank,
              "sp": line.front.stamina} for name, line in zip((FIRST, SECOND), lines)]
    rounds = []
    for (mine, theirs) in PLAYS:
        event: dict[str, Any] = {"cards": [card(defn, *mine), card(defn, *theirs)], "loser": None}
        (a, a_attacks), (b, b_attacks) = mine, theirs
        if a != b and (a_attacks if a > b else b_attacks):
            side = 1 if a > b else 0
            line = lines[side]
            line.lost += 1
            event.update(loser=(FIRST, SECOND)[side], army=line.front.rank)
            if line.lost >= line.front.stamina:
                line.armies.pop(0)
                line.lost = 0
                event.update(fell=True, next=line.front.rank if line.armies else None,
                             next_sp=line.front.stamina if line.armies else 0)
            else:
                event.update(fell=False, position=defn.positions[line.lost].name,
                             left=line.front.stamina - line.lost)
        elif a == b:
            event["why"] = "equal"
        elif not (a_attacks or b_attacks):
            event["why"] = "both defend"
        else:
            event["why"] = "defence"
        event["winner"] = None if a == b else (FIRST if a > b else SECOND)
        event["standing"] = [f"{line.front.index} {line.front.stamina - line.lost} SP" if line.armies else "\u2013"
                             for line in lines]  # each player's army in front after the round
        rounds.append(event)
    return {"players": start, "rounds": rounds}


def score_strip(played: dict[str, Any]) -> DataTable:
    """The worked example round by round: both plays, then the army in front on each side and the
    SP it has left, the first player's before the second's."""
    rows = [(str(n), " v ".join(c.removeprefix("a ") for c in r["cards"]), " v ".join(r["standing"]))
            for n, r in enumerate(played["rounds"], 1)]
    return DataTable(("Round", "Cards played", "Armies in front"), rows, (0.2, 0.4, 0.4))


def rulebook(defn: Armies, stem: str, figures: PositionFigures) -> Rulebook:
    """The full rules: the template gets the definition, the card counts and the worked example,
    also shown as a score strip (the `example` table)."""
    army_cards = 4 * len(defn.stamina)
    played = example(defn)
    shared = tables(defn, "rules", figures)
    return Rulebook(title=defn.title, template="armies/rules.md.j2",
                    context={"d": defn, "army_cards": army_cards, "fighting_cards": 52 - army_cards,
                             "example": played, "reference_file": f"{stem}-reference.pdf"},
                    tables={**shared, "example": score_strip(played),
                            "drawing_positions": drawn_positions(defn, figures, shared["positions"])},
                    settings=defn.rules, accent=defn.reference.accent,
                    credit=defn.credit)  # the rulings key is printed once, opening the closing notes


# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"Stamina": ("stamina",), "Fighting cards": ("results",), "A round": ("round",),
            "Marking lost stamina": ("positions",)}


def reference(defn: Armies, figures: PositionFigures) -> Reference:
    """The reference sheet's template, tables, figure and settings, all drawn from the definition."""
    return Reference(title=defn.title, template="armies/reference.md.j2", context={"d": defn},
                     tables={**tables(defn, "reference", figures), KEY_TABLE: key_caption}, settings=defn.reference, sections=SECTIONS,
                     credit=defn.credit)


def figures_for(defn: Armies, options: BuildOptions, warnings: list[str]) -> PositionFigures:
    """The position drawings for the rulebook's and reference's column widths, warnings to `warnings`."""
    figures = PositionFigures(defn, defn.reference.accent, templates_for(defn, options.templates, warnings))
    rules = pt(Layout(options.paper, defn.rules.columns, 0.0).column_width) * MM_PER_PT
    booklet = [pt(Layout(half_page(options.paper), 1, 0.0).column_width) * MM_PER_PT] if wants_booklet(defn, options) else []
    figures.prepare([rules, *booklet, reference_layout.column_width(options.paper, defn.reference.columns)])
    return figures


def wants_booklet(defn: Armies, options: BuildOptions) -> bool:
    return options.booklet or defn.booklet


def build(defn: Armies, options: BuildOptions, loaded: Loaded) -> list[Document | Growing]:
    figures = figures_for(defn, options, loaded.art.warnings)
    book = rulebook(defn, loaded.name, figures)
    return [rulebook_document(book, options, f"{loaded.name}.pdf"),
            *([rulebook_booklet(book, options, loaded.name)] if wants_booklet(defn, options) else []),
            *reference_documents(reference(defn, figures), options, loaded.name)]


GAME = Game(
    id="armies",
    title="Armies",
    makes=["armies.pdf: the rulebook, from setup to a worked example (print double-sided)",
           "armies-reference.pdf: the one-page reference sheet",
           "armies-reference-cards.pdf: the reference as two double-sided half-page cards",
           "armies-booklet.pdf: with --booklet or booklet: true, the rules as an A5 (half-Letter) booklet"],
    model=Armies,
    build=build,
    checks=(check_stamina,),
)
