"""Armies: a rulebook, and a one-page reference sheet (also as two half-page cards) with the
stamina positions.

`<stem>.pdf` is the rulebook, printed on both sides; `<stem>-reference.pdf` is the reference page,
and `<stem>-reference-cards.pdf` the reference as two double-sided half-page cards, one per player
(see printgen.layout.reference).
"""
from __future__ import annotations

from printgen.layout.reference import Reference, reference_documents
from printgen.layout.rulebook import rulebook_document
from printgen.core.build import BuildOptions
from printgen.drawing.document import Document
from printgen.games import Game, Loaded
from printgen.games.armies.model import Armies, check_stamina
from printgen.games.armies.rules import rulebook, tables

# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"Stamina": ("stamina",), "Fighting cards": ("results",), "A round": ("round",),
            "Marking lost stamina": ("positions",)}


def reference(defn: Armies) -> Reference:
    """The reference sheet's template, tables, figure and settings, all drawn from the definition."""
    return Reference(title=defn.title, template="armies/reference.txt.j2", context={"d": defn},
                     tables=tables(defn, "reference"), settings=defn.reference, sections=SECTIONS)


def build(defn: Armies, options: BuildOptions, loaded: Loaded) -> list[Document]:
    """The rulebook first, then the reference sheet and cards."""
    return [rulebook_document(rulebook(defn, loaded.name), options, f"{loaded.name}.pdf"),
            *reference_documents(reference(defn), options, loaded.name)]


GAME = Game(
    id="armies",
    title="Armies",
    makes=["armies.pdf: the rulebook, from setup to a worked example (print double-sided)",
           "armies-reference.pdf: the one-page reference sheet",
           "armies-reference-cards.pdf: the reference as two double-sided half-page cards"],
    model=Armies,
    build=build,
    checks=(check_stamina,),
)
