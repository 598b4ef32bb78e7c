"""Armies: a rulebook, and a reference sheet (also as two half-page cards) with the stamina
positions, drawn from `armies/positions.svg.j2` at both column widths in one batch."""
from __future__ import annotations

from printgen.layout import reference as reference_layout
from printgen.layout.reference import Reference, reference_documents
from printgen.layout.rulebook import Layout, rulebook_document
from printgen.core.build import BuildOptions
from printgen.core.paper import MM_PER_PT, pt
from printgen.drawing.document import Document
from printgen.games import Game, Loaded
from printgen.games.armies.model import Armies, check_stamina
from printgen.games.armies.positions import PositionFigures
from printgen.games.armies.rules import rulebook, tables
from printgen.games.pieces import templates_for

# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"Stamina": ("stamina",), "Fighting cards": ("results",), "A round": ("round",),
            "Marking lost stamina": ("positions",)}


def reference(defn: Armies, figures: PositionFigures) -> Reference:
    """The reference sheet's template, tables, figure and settings, all drawn from the definition."""
    return Reference(title=defn.title, template="armies/reference.txt.j2", context={"d": defn},
                     tables=tables(defn, "reference", figures), settings=defn.reference, sections=SECTIONS,
                     credit=defn.credit)


def figures_for(defn: Armies, options: BuildOptions, warnings: list[str]) -> PositionFigures:
    """The position drawings for the rulebook's and reference's column widths, warnings to `warnings`."""
    figures = PositionFigures(defn, defn.reference.accent, templates_for(defn, options.templates),
                              warnings)
    rules = pt(Layout(options.paper, defn.rules.columns, 0.0).column_width) * MM_PER_PT
    figures.prepare([rules, reference_layout.column_width(options.paper, defn.reference.columns)])
    return figures


def build(defn: Armies, options: BuildOptions, loaded: Loaded) -> list[Document]:
    figures = figures_for(defn, options, loaded.art.warnings)
    return [rulebook_document(rulebook(defn, loaded.name, figures), options, f"{loaded.name}.pdf"),
            *reference_documents(reference(defn, figures), options, loaded.name)]


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
