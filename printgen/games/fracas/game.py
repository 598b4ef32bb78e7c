"""Fracas: a rulebook with a worked example, a reference sheet (also as two half-page cards) and
life tokens, which `printgen export` also gives one by one.

The tokens get a file of their own, so no duplex print puts them on the back of the rules."""
from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from dataclasses import dataclass

from reportlab.graphics.shapes import Group

from printgen.art.library import template_folders
from printgen.core.build import BuildOptions
from printgen.drawing.document import Document, Growing
from printgen.core.names import stem
from printgen.layout.cards import Card
from printgen.layout.reference import DataTable, Reference, reference_documents
from printgen.layout.booklet import rulebook_booklet
from printgen.layout.rulebook import Rulebook, rulebook_document
from printgen.games import Game, Loaded
from printgen.games.edition_key import KEY_TABLE, key_caption
from printgen.games.fracas.model import Fracas, Player, check_players, check_tokens, token_values
from printgen.games.fracas.piece_art import PieceArt, piece_art, piece_warnings
from printgen.games.fracas.table_page import table_page
from printgen.games.fracas.tokens import BLEED, plan, token_page

# Each heading of the template, and the YAML key whose text fills it (where an overflow points).
SECTIONS = {"The cards": ("roles",), "Skirmishes": ("skirmish",), "Before you play": ("life",),
            "Where cards lie": ("hand_limit",)}
RULES = "fracas/rules.md.j2"
SPLIT = re.compile(r"\s*(?:,|\band\b|&)\s*")


def tables(defn: Fracas, wide: bool = False) -> dict[str, DataTable]:
    """The roles, turn and skirmish tables; `wide` widens first columns for the rulebook's text."""
    return {
        "roles": DataTable(("Role", "Cards", "What they do"), [(r.role, r.cards, r.job) for r in defn.roles],
                           (0.24, 0.17, 0.59) if wide else (0.2, 0.18, 0.62)),
        "turn": DataTable(("Step", "What you do"), [(f"{i}. {s.step}", s.what) for i, s in enumerate(defn.turn, 1)],
                          (0.24, 0.76) if wide else (0.2, 0.8)),
        "skirmish": DataTable(("When", "Then"), [(o.case, o.result) for o in defn.skirmish],
                              (0.3, 0.7)),
    }


def suits(player: Player) -> list[str]:
    """Two suit names from 'hearts and diamonds' (always two), so the example names a card of each."""
    names = [name for name in SPLIT.split(player.suits.strip()) if name]
    return names[:2] if len(names) >= 2 else [f"{player.name} first suit", f"{player.name} second suit"]


def rulebook(defn: Fracas, stem: str, own_rules: bool = False) -> Rulebook:
    """The full rules: the template gets the definition, each player's suits and the file names.
    They end in the picture of the table at turn 2 of the bundled worked example, unless the rules
    are a template of the user's own (`own_rules`), whose text the picture would not match."""
    first, second = defn.players
    suits_a, suits_b = suits(first), suits(second)
    return Rulebook(title=defn.title, template=RULES,
                    context={"d": defn, "suits_a": suits_a, "suits_b": suits_b,
                             "tokens_file": f"{stem}-tokens.pdf", "reference_file": f"{stem}-reference.pdf"},
                    tables=tables(defn, wide=True), settings=defn.rules, accent=defn.reference.accent,
                    credit=defn.credit,  # the rulings key is printed once, opening the closing notes
                    closing=None if own_rules else partial(table_page, defn, suits_a, suits_b, defn.reference.accent))


def reference(defn: Fracas) -> Reference:
    """The reference sheet's template, data tables and settings, all drawn from the definition."""
    sections = dict(SECTIONS)
    sections[f"A turn, in {len(defn.turn)} steps"] = ("turn",)
    return Reference(title=defn.title, template="fracas/reference.md.j2", context={"d": defn},
                     tables={**tables(defn), KEY_TABLE: key_caption}, settings=defn.reference, sections=sections,
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


def build(defn: Fracas, options: BuildOptions, loaded: Loaded) -> list[Document | Growing]:
    stem = loaded.name
    folders = [*options.templates, *template_folders(defn.templates)]
    book = rulebook(defn, stem, own_rules=any((Path(folder) / RULES).is_file() for folder in folders))
    return [rulebook_document(book, options, f"{stem}.pdf"),
            *([rulebook_booklet(book, options, stem)] if options.booklet or defn.booklet else []),
            tokens_document(defn, options, loaded),
            *reference_documents(reference(defn), options, stem)]


@dataclass(frozen=True, eq=False)  # shares its drawer: told apart by identity
class TokenPiece:
    """One player's token for `printgen export`, with a bleed all round since a print shop cuts
    each piece on its own; its first side asked for at a bleed draws all four in one batch."""

    art: PieceArt
    index: int
    worth: int = 1  # life points: 1, or 5 for a five-point token

    @property
    def width(self) -> float:
        return self.art.size

    height = width  # a square

    def prepare(self, bleed: float) -> None:
        players, worths = range(len(self.art.defn.players)), sorted(set(token_values(self.art.defn)))
        self.art.prepare([("face", i, (bleed,) * 4, w) for i in players for w in worths]
                         + [("back", i, bleed) for i in players])

    def front(self, bleed: float = 0.0) -> Group:
        self.prepare(bleed)
        return self.art.face(self.index, (bleed,) * 4, self.worth)

    def back(self, bleed: float = 0.0) -> Group:
        self.prepare(bleed)
        return self.art.get(("back", self.index, bleed))


def pieces(loaded: Loaded, options: BuildOptions) -> list[Card]:
    """The tokens one by one for `printgen export`, from the templates a build would use: a one-point
    face per player (token-red) and, with tokens.fives, a five-point one (token-red-5), as many
    copies as the sheet prints; each player's tokens share their back."""
    defn: Fracas = loaded.definition
    names = [f"token-{stem(player.name, f'player{i + 1}')}" for i, player in enumerate(defn.players)]
    if len(set(names)) < len(names):  # 'Red!' and 'Red?' would share a file name
        names = [f"{name}-{i + 1}" for i, name in enumerate(names)]
    art = piece_art(defn, [*options.templates, *template_folders(defn.templates)])
    values = token_values(defn)
    counts = [(worth, values.count(worth), "" if worth == 1 else f"-{worth}") for worth in (1, 5)]
    return [Card(f"{name}{suffix}", "life token", f"{player.name} tokens", TokenPiece(art, i, worth), quantity=count)
            for i, (name, player) in enumerate(zip(names, defn.players)) for worth, count, suffix in counts if count]


GAME = Game(
    id="fracas",
    title="Fracas",
    makes=["fracas.pdf: the rulebook, from setup to a worked example, ending in a picture of the table "
           "(print double-sided)",
           "fracas-tokens.pdf: a page of life tokens and the pot (print single-sided)",
           "fracas-reference.pdf: the one-page reference sheet",
           "fracas-reference-cards.pdf: the reference as two double-sided half-page cards",
           "fracas-booklet.pdf: with --booklet or booklet: true, the rules as an A5 (half-Letter) booklet"],
    model=Fracas,
    build=build,
    checks=(check_players, check_tokens),
    pieces=pieces,
    bleed=True,
)
