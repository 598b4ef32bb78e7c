"""Fracas: a rulebook, a reference sheet (also as two half-page cards) and life tokens.

The tokens get a file of their own, so no duplex print puts them on the back of the rules."""
from __future__ import annotations

from printgen.art.library import template_folders
from printgen.core.build import BuildOptions
from printgen.drawing.document import Document
from printgen.layout.cards import Card
from printgen.layout.reference import Reference, reference_documents
from printgen.layout.rulebook import rulebook_document
from printgen.games import Game, Loaded
from printgen.games.fracas.model import Fracas, check_players
from printgen.games.fracas.pieces import cards
from printgen.games.fracas.rules import rulebook, tables
from printgen.games.fracas.piece_art import piece_art, piece_warnings
from printgen.games.fracas.tokens import BLEED, plan, token_page

# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"The cards": ("roles",), "Skirmishes": ("skirmish",), "Before you play": ("life",),
            "Where cards lie": ("hand_limit",)}


def reference(defn: Fracas) -> Reference:
    """The reference sheet's template, data tables and settings, all drawn from the definition."""
    sections = dict(SECTIONS)
    sections[f"A turn, in {len(defn.turn)} steps"] = ("turn",)
    return Reference(title=defn.title, template="fracas/reference.txt.j2", context={"d": defn},
                     tables=tables(defn), settings=defn.reference, sections=sections,
                     credit=defn.credit)


def tokens_document(defn: Fracas, options: BuildOptions, loaded: Loaded) -> Document:
    """The life tokens alone, a page to print single-sided (on card if you can)."""
    layout, problems = plan(defn, options.paper)
    bleed = BLEED if options.bleed is None else options.bleed
    art = piece_art(defn, options.templates)
    page = token_page(art, layout, options.paper, bleed)
    loaded.art.warnings.extend(w for w in piece_warnings(art) if w not in loaded.art.warnings)
    return Document(f"{loaded.name}-tokens.pdf", options.paper, [page],
                    f"{defn.title} \u2013 life tokens", "Print single-sided at actual size (100 %)", None,
                    problems=problems)


def build(defn: Fracas, options: BuildOptions, loaded: Loaded) -> list[Document]:
    stem = loaded.name
    return [rulebook_document(rulebook(defn, stem), options, f"{stem}.pdf"),
            tokens_document(defn, options, loaded),
            *reference_documents(reference(defn), options, stem)]


def pieces(loaded: Loaded, options: BuildOptions) -> list[Card]:
    """The tokens one by one for `printgen export`, from the templates a build would use."""
    defn: Fracas = loaded.definition
    return cards(defn, [*options.templates, *template_folders(defn.templates)])


GAME = Game(
    id="fracas",
    title="Fracas",
    makes=["fracas.pdf: the rulebook, from setup to a worked example (print double-sided)",
           "fracas-tokens.pdf: a page of life tokens and the pot (print single-sided)",
           "fracas-reference.pdf: the one-page reference sheet",
           "fracas-reference-cards.pdf: the reference as two double-sided half-page cards"],
    model=Fracas,
    build=build,
    checks=(check_players,),
    pieces=pieces,
    bleed=True,
)
