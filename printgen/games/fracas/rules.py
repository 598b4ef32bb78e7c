"""Fracas's printed rules: the shared tables, and the rulebook with a worked example."""
from __future__ import annotations

import re

from printgen.layout.reference import DataTable
from printgen.layout.rulebook import Rulebook
from printgen.games.fracas.model import Fracas, Player

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


def rulebook(defn: Fracas, stem: str) -> Rulebook:
    """The full rules: the template gets the definition, each player's suits and the file names."""
    first, second = defn.players
    return Rulebook(title=defn.title, template="fracas/rules.txt.j2",
                    context={"d": defn, "suits_a": suits(first), "suits_b": suits(second),
                             "tokens_file": f"{stem}-tokens.pdf", "reference_file": f"{stem}-reference.pdf"},
                    tables=tables(defn, wide=True), settings=defn.rules, accent=defn.reference.accent,
                    key=defn.ruling_key, credit=defn.credit)
