"""Fracas life tokens as separate pieces, for `printgen export` (print shop files, Tabletop Simulator).

On the home-print sheet the tokens share cut lines and one block of colour. A print shop cuts each
piece on its own, so here a token carries its own tinted square, running `bleed` mm past its edges.
Its back is the same tint with the owner's name, so a token face down still shows whose it is.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Group

from printgen.drawing import fonts
from printgen.layout.cards import Card, slug
from printgen.drawing.picture import colour, placed, rect, text, tint
from printgen.games.fracas.model import Fracas, Player
from printgen.games.fracas.tokens import token


@dataclass(frozen=True)
class TokenPiece:
    player: Player
    size: float

    @property
    def width(self) -> float:
        return self.size

    @property
    def height(self) -> float:
        return self.size

    def ground(self, bleed: float) -> Group:
        s = self.size
        paint = tint(colour(self.player.colour), 0.8)
        return Group(rect(-bleed, -bleed, s + 2 * bleed, s + 2 * bleed, fill=paint))

    def front(self, bleed: float = 0.0) -> Group:
        return Group(self.ground(bleed), placed(token(self.player, self.size), (1, 0, 0, 1, 0, 0)))

    def back(self, bleed: float = 0.0) -> Group:
        s, ink = self.size, colour(self.player.colour)
        return Group(self.ground(bleed), text(s / 2, s / 2 - 1.2, self.player.name, 9, fonts.BOLD,
                                              anchor="middle", fill=ink))


def cards(defn: Fracas) -> list[Card]:
    """One face per player, `life` copies of each; each player's tokens share their back."""
    names = [f"token-{slug(player.name, f'player{i + 1}')}" for i, player in enumerate(defn.players)]
    if len(set(names)) < len(names):  # 'Red!' and 'Red?' would share a file name
        names = [f"{name}-{i + 1}" for i, name in enumerate(names)]
    return [Card(name, "life token", f"{player.name} tokens", TokenPiece(player, defn.tokens.size),
                 quantity=defn.life) for name, player in zip(names, defn.players)]
