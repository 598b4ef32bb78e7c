"""The per-game hook behind `printgen export`: a game lists its separate pieces (cards, tiles, tokens).

Print shops and Tabletop Simulator want same-size pieces, not imposed sheets; `Game.pieces` gives
`Card`s, and cards of one `deck` share a back, written once.
"""
from __future__ import annotations

from dataclasses import dataclass

from printgen.layout.imposition import Piece


@dataclass(frozen=True)
class Card:
    """One distinct face. `quantity` copies are needed; all cards of a `deck` share its back."""

    name: str  # unique within the game: a file stem such as "white-01"
    kind: str  # what the piece is called in the manifest: "tile", "life token"
    deck: str  # the group sharing one back: "white", "Red tokens"
    piece: Piece  # width, height in mm; front(bleed) and back(bleed) drawings
    quantity: int = 1

    @property
    def size(self) -> tuple[float, float]:
        return (self.piece.width, self.piece.height)


def decks(cards: list[Card]) -> dict[str, list[Card]]:
    """Cards grouped by deck, in the order each deck first appears."""
    grouped: dict[str, list[Card]] = {}
    for card in cards:
        grouped.setdefault(card.deck, []).append(card)
    return grouped

