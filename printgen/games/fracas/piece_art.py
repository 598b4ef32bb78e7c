"""Fracas's life tokens and pot mat drawn from SVG templates a user can copy and edit.

printgen computes sizes, bleed and safe areas and hands them to the templates as plain data
(printgen/games/pieces.py); cut lines and placing stay in tokens.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from reportlab.graphics.shapes import Group, String

from printgen.art.library import art_of
from printgen.core.paper import font_mm
from printgen.drawing import fonts
from printgen.drawing import style as house
from printgen.drawing.picture import colour, hex_of, tint
from printgen.games.fracas.model import Fracas, Player
from printgen.games.pieces import Piece, PieceTemplates, past_safe_area, templates_for, with_art

TOKEN_FACE = "fracas/token-face.svg.j2"
TOKEN_BACK = "fracas/token-back.svg.j2"
POT = "fracas/pot.svg.j2"

NAME_PT = 7.0  # the smallest a name prints: a longer name than fits at it is a located problem
FACE_NAME_PT = 8.5  # the owner's name under the ring of a token FULL_SIZE mm or larger
FULL_SIZE = 22.0  # mm: a smaller token sets its name smaller (not below NAME_PT), clear of its ring
BACK_NAME_PT = 9.0
TOKEN_PAD = 2.0  # mm kept clear inside a token's cut lines: round its image, below and beside its name
TOKEN_ART_BOTTOM = 5.1  # mm: a token's image starts above the owner's name (its 8.5 pt glyph boxes reach 5.0)
POT_PAD = 2.0  # mm the pot's text keeps inside the mat's outline

# Bleed past a token's left, bottom, right and top cut (mm): on the sheet only the edges that are
# a block's outer cuts get it; a print-shop token gets it all round.
Edges = tuple[float, float, float, float]


def token_box(size: float, bleed: Edges) -> dict[str, float]:
    """The token with its bleed, y down: what its background should cover."""
    left, bottom, right, top = bleed
    return {"x": -left, "y": -top, "width": size + left + right, "height": size + top + bottom}


TINT = 0.8  # the solid palette's background: the player's colour mixed this far towards white


def player_data(player: Player, index: int, palette: str) -> dict[str, Any]:
    """The player's colours; the background white but in the solid palette, and the second player's
    ring doubled, so the tokens are told apart in black and white too, not by colour alone."""
    ink = colour(player.colour)
    return {"name": player.name, "colour": hex_of(ink), "tint": hex_of(tint(ink, TINT)),
            "background": hex_of(tint(ink, TINT)) if palette == "solid" else "#ffffff", "index": index}


def fitted_pt(name: str, largest: float, size: float) -> float:
    """The point size that sets `name` across a token of `size` mm inside its pad: `largest` when it
    fits, smaller for a long name, never below NAME_PT (at which the checks make every name fit)."""
    wide = fonts.text_width(name, fonts.BOLD, font_mm(largest))
    return max(NAME_PT, min(largest, largest * (size - 2 * TOKEN_PAD) / wide)) if wide else largest


def face_data(player: Player, index: int, palette: str, size: float, bleed: Edges, worth: int = 1) -> dict[str, Any]:
    """A token's face: a ring with its value, 1 or 5 (or token_image), above the owner's name."""
    centre = size / 2 - 2.0  # y down: the ring sits 2 mm above the token's middle
    value = font_mm(size * 0.72)  # the 1 is 0.72 pt for every mm of the token
    corner = font_mm(size * 0.45)  # a token with art shows a 5 smaller, in its top-left corner
    name = font_mm(fitted_pt(player.name, FACE_NAME_PT * min(1.0, size / FULL_SIZE), size))
    has_art = art_of(player.token_image) is not None
    return {"token": {"size": size, "pad": TOKEN_PAD}, "box": token_box(size, bleed),
            "player": player_data(player, index, palette),
            "ring": {"cx": size / 2, "cy": centre, "r": size * 0.32, "line": 0.6,
                     "inner": size * 0.32 - 1.1 if index == 1 else None},
            "value": {"text": str(worth), "x": size / 2, "y": centre + value * 0.36, "size": value,
                      "corner": {"x": TOKEN_PAD + 0.2, "y": TOKEN_PAD + corner * 0.73, "size": corner}},
            "name": {"text": player.name, "x": size / 2,
                     "y": size - TOKEN_PAD - fonts.descent(fonts.BOLD, name), "size": name},
            "art": {"x": TOKEN_PAD, "y": TOKEN_PAD, "width": size - 2 * TOKEN_PAD,
                    "height": size - TOKEN_ART_BOTTOM - TOKEN_PAD} if has_art else None}


def back_data(player: Player, index: int, palette: str, size: float, bleed: float) -> dict[str, Any]:
    """A token's back shows its owner's name, so a token face down still shows whose it is."""
    point = fitted_pt(player.name, BACK_NAME_PT, size)
    return {"token": {"size": size, "pad": TOKEN_PAD}, "box": token_box(size, (bleed,) * 4),
            "player": player_data(player, index, palette),
            "name": {"text": player.name, "x": size / 2, "y": size / 2 + 1.2, "size": font_mm(point)}}


def pot_data(width: float, height: float, accent: str) -> dict[str, Any]:
    """The pot mat: its box, outline and colours; the words are the template's own."""
    ink = colour(accent)
    return {"mat": {"width": width, "height": height, "radius": 4.0, "line": 0.5, "pad": POT_PAD},
            "accent": hex_of(ink), "title_ink": hex_of(tint(ink, 0.45)),
            "sizes": {"title": font_mm(house.TITLE_PT), "text": font_mm(house.REFERENCE_PT)}}  # the house's sizes


Key = tuple[Any, ...]


@dataclass
class PieceArt:
    """Draws one definition's tokens and pot mat, every piece of one `prepare` in one batch."""

    defn: Fracas
    templates: PieceTemplates
    drawn: dict[Key, Group] = field(default_factory=dict)
    pieces: dict[Key, tuple[str, Piece]] = field(default_factory=dict)

    @property
    def size(self) -> float:
        return self.defn.tokens.size

    def piece(self, key: Key) -> tuple[str, Piece]:
        """The template and the piece that `key` names: ("face", player, edges, worth), ("back",
        player, bleed) or ("pot", width, height)."""
        kind, *rest = key
        s = self.size
        if kind == "pot":
            width, height = rest
            return POT, Piece(pot_data(width, height, self.defn.reference.accent), width, height, "the pot mat")
        index, palette = rest[0], self.defn.tokens.palette
        player = self.defn.players[index]
        if kind == "face":
            worth = rest[2]
            return TOKEN_FACE, Piece(face_data(player, index, palette, s, rest[1], worth), s, s,
                                     f"{player.name}'s {'' if worth == 1 else 'five-point '}life token (face)")
        return TOKEN_BACK, Piece(back_data(player, index, palette, s, rest[1]), s, s,
                                 f"{player.name}'s life token (back)")

    def prepare(self, keys: Sequence[Key]) -> None:
        """Draw every piece of `keys` not drawn yet, all in one batch."""
        wanted = [key for key in dict.fromkeys(keys) if key not in self.drawn]
        for key in wanted:
            self.pieces[key] = self.piece(key)
        names = list(dict.fromkeys(self.pieces[key][0] for key in wanted))
        batches = [(name, [key for key in wanted if self.pieces[key][0] == name]) for name in names]
        drawn = self.templates.draw_batches([(name, [self.pieces[k][1] for k in keys]) for name, keys in batches])
        for (_, keys_of), groups in zip(batches, drawn):
            self.drawn.update(zip(keys_of, groups))

    def get(self, key: Key) -> Group:
        """The piece `key` names (see `piece`), drawn now if it was not prepared."""
        if key not in self.drawn:
            self.prepare([key])
        return self.drawn[key]

    def face(self, index: int, bleed: Edges, worth: int = 1) -> Group:
        """Player `index`'s token worth `worth` points, with the player's token_image where the
        template puts it."""
        drawn, image = self.get(("face", index, bleed, worth)), art_of(self.defn.players[index].token_image)
        if image is None:
            return drawn
        s = self.size
        return with_art(drawn, "token-art", image.shape(TOKEN_PAD, TOKEN_ART_BOTTOM, s - 2 * TOKEN_PAD,
                                                        s - TOKEN_ART_BOTTOM - TOKEN_PAD))


def piece_art(defn: Fracas, templates: Sequence[Path] = ()) -> PieceArt:
    return PieceArt(defn, templates_for(defn, templates))


def piece_warnings(art: PieceArt) -> list[str]:
    """`file:line: warning: ...`: what drawing noticed, and text past a safe area."""
    found: dict[str, list[tuple[Piece, String, float, str | None]]] = {}
    for key, (name, piece) in art.pieces.items():
        pad = POT_PAD if name == POT else TOKEN_PAD
        found.setdefault(name, []).extend((piece, *past) for past in past_safe_area(art.drawn[key], piece.width,
                                                                                   piece.height, pad))
    for name, texts in found.items():
        art.templates.warn_past(name, texts, "past the safe area",
                                f"keep the text {POT_PAD:g} mm inside the mat's outline" if name == POT else
                                f"keep a token's text {TOKEN_PAD:g} mm inside its cut, or a cut a little off clips it")
    return art.templates.warnings
