"""Fracas: a one-page reference sheet (also as two half-page cards) and a sheet of life tokens.

Files: `<stem>.pdf` is everything to print single-sided in one go (the reference page, then the
tokens); `<stem>-reference.pdf` is the reference page alone, and `<stem>-reference-cards.pdf` the
same reference as two double-sided half-page cards, one per player (see printgen.reference).
"""
from __future__ import annotations

from printgen.core.build import BuildOptions
from printgen.drawing.document import Document
from printgen.layout.reference import DataTable, Reference, reference_documents, sheet_document
from printgen.games import Game, Loaded
from printgen.games.fracas.model import Fracas, check_players
from printgen.games.fracas.pieces import cards
from printgen.games.fracas.tokens import BLEED, plan, token_page

# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"The cards": ("roles",), "Skirmishes": ("skirmish",), "Before you play": ("life",),
            "Hand limit": ("hand_limit",)}


def reference(defn: Fracas) -> Reference:
    """The reference sheet's template, data tables and settings, all drawn from the definition."""
    tables = {
        "roles": DataTable(("Role", "Cards", "What they do"),
                           [(r.role, r.cards, r.job) for r in defn.roles], (0.2, 0.18, 0.62)),
        "turn": DataTable(("Step", "What you do"),
                          [(f"{i}. {s.step}", s.what) for i, s in enumerate(defn.turn, 1)], (0.2, 0.8)),
        "skirmish": DataTable(("When", "Then"), [(o.case, o.result) for o in defn.skirmish],
                              (0.3, 0.7)),
    }
    sections = dict(SECTIONS)
    sections[f"A turn, in {len(defn.turn)} steps"] = ("turn",)
    return Reference(title=defn.title, template="fracas/reference.txt.j2", context={"d": defn},
                     tables=tables, settings=defn.reference, sections=sections)


def build(defn: Fracas, options: BuildOptions, loaded: Loaded) -> list[Document]:
    layout, problems = plan(defn, options.paper)
    bleed = BLEED if options.bleed is None else options.bleed
    ref = reference(defn)
    main = sheet_document(ref, options, f"{loaded.name}.pdf",
                          extra_pages=[token_page(defn, layout, options.paper, bleed)],
                          title=f"{defn.title} \u2013 reference sheet and life tokens")
    main.problems += problems
    return [main, *reference_documents(ref, options, loaded.name)]


GAME = Game(
    id="fracas",
    title="Fracas",
    makes=["fracas.pdf: the reference sheet and a page of life tokens (print single-sided)",
           "fracas-reference.pdf: the one-page reference sheet",
           "fracas-reference-cards.pdf: the reference as two double-sided half-page cards"],
    model=Fracas,
    build=build,
    checks=(check_players,),
    pieces=lambda loaded: cards(loaded.definition),
    bleed=True,
)
