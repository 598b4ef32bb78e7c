"""Armies: a one-page reference sheet (also as two half-page cards) with the stamina positions.

`<stem>.pdf` is the main PDF (the foundation's naming); for Armies the reference sheet is the whole
product, so it holds the same page as `<stem>-reference.pdf`. `<stem>-reference-cards.pdf` is the
reference as two double-sided half-page cards, one per player (see printgen.reference).
"""
from __future__ import annotations

from typing import Any, Callable

from printgen.layout.reference import DataTable, Reference, reference_documents
from printgen.core.build import BuildOptions
from printgen.drawing.document import Document
from printgen.games import Game, Loaded
from printgen.games.armies.model import Armies, check_stamina
from printgen.games.armies.positions import positions_figure

# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"Stamina": ("stamina",), "Fighting cards": ("results",), "A round": ("round",),
            "Marking lost stamina": ("positions",)}


def position_rows(defn: Armies) -> list[tuple[str, ...]]:
    """For each position: its name, the SP it means lost, and each rank's SP left (or '-')."""
    rows = []
    for lost, position in enumerate(defn.positions):
        left = [str(a.stamina - lost) if a.stamina > lost else "\u2013" for a in defn.stamina]
        rows.append((position.name, str(lost), *left))
    return rows


def reference(defn: Armies) -> Reference:
    """The reference sheet's template, tables, figure and settings, all drawn from the definition."""
    ranks = len(defn.stamina)
    tables: dict[str, DataTable | Callable[[float], Any]] = {
        "stamina": DataTable(("Army card", "Starts with"),
                             [(f"{a.rank} ({a.index})", f"{a.stamina} SP") for a in defn.stamina],
                             (0.55, 0.45)),
        "results": DataTable(("When", "Then"), [(r.case, r.result) for r in defn.results], (0.4, 0.6)),
        "round": DataTable(("Step", "What happens"),
                           [(f"{i}. {s.step}", s.what) for i, s in enumerate(defn.round, 1)], (0.27, 0.73)),
        "positions": DataTable(("Position", "SP lost", *(a.index for a in defn.stamina)),
                               position_rows(defn), (0.34, 0.18, *([0.48 / ranks] * ranks))),
        "drawing": lambda width: positions_figure(defn, width, defn.reference.accent),
    }
    return Reference(title=defn.title, template="armies/reference.txt.j2", context={"d": defn},
                     tables=tables, settings=defn.reference, sections=SECTIONS)


def build(defn: Armies, options: BuildOptions, loaded: Loaded) -> list[Document]:
    """The reference sheet is the game's whole paper: `<stem>.pdf` is the same file."""
    sheet, cards = reference_documents(reference(defn), options, loaded.name)
    sheet.also = (sheet.name,)
    sheet.name = f"{loaded.name}.pdf"
    return [sheet, cards]


GAME = Game(
    id="armies",
    title="Armies",
    makes=["armies.pdf: the one-page reference sheet (the same page as armies-reference.pdf)",
           "armies-reference.pdf: the one-page reference sheet",
           "armies-reference-cards.pdf: the reference as two double-sided half-page cards"],
    model=Armies,
    build=build,
    checks=(check_stamina,),
)
