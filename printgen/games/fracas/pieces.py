"""Fracas life tokens as separate pieces for `printgen export`, each with its own bleed, since
a print shop cuts each piece on its own."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from reportlab.graphics.shapes import Group

from printgen.layout.cards import Card, slug
from printgen.games.fracas.model import Fracas
from printgen.games.fracas.piece_art import PieceArt, piece_art


@dataclass(frozen=True, eq=False)  # shares its drawer: told apart by identity
class TokenPiece:
    """One player's token; its first side asked for at a bleed draws all four in one batch."""

    art: PieceArt
    index: int

    @property
    def width(self) -> float:
        return self.art.size

    @property
    def height(self) -> float:
        return self.art.size

    def prepare(self, bleed: float) -> None:
        players = range(len(self.art.defn.players))
        self.art.prepare([("face", i, (bleed,) * 4) for i in players] + [("back", i, bleed) for i in players])

    def front(self, bleed: float = 0.0) -> Group:
        self.prepare(bleed)
        return self.art.face(self.index, (bleed,) * 4)

    def back(self, bleed: float = 0.0) -> Group:
        self.prepare(bleed)
        return self.art.back(self.index, bleed)


def cards(defn: Fracas, templates: Sequence[Path] = ()) -> list[Card]:
    """One face per player, `life` copies of each; each player's tokens share their back."""
    names = [f"token-{slug(player.name, f'player{i + 1}')}" for i, player in enumerate(defn.players)]
    if len(set(names)) < len(names):  # 'Red!' and 'Red?' would share a file name
        names = [f"{name}-{i + 1}" for i, name in enumerate(names)]
    art = piece_art(defn, templates)
    return [Card(name, "life token", f"{player.name} tokens", TokenPiece(art, i), quantity=defn.life)
            for i, (name, player) in enumerate(zip(names, defn.players))]
