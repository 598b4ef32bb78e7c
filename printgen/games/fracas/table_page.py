"""The Fracas rulebook's play aid: the table at the end of turn 2 of the worked example, drawn from
above, and the turn's steps in a row. It fills the back of the rulebook's last sheet, which an odd
page count would leave blank, with what a player looks at while learning.

Drawn in millimetres on reportlab shapes (y up); every word at least SMALL_PT after scaling."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Circle, Group, Line, Polygon
from reportlab.lib.colors import Color, HexColor, white

from printgen.core.paper import Paper
from printgen.drawing import fonts, style
from printgen.drawing.picture import rect, text, wrap
from printgen.games.fracas.model import Fracas, Player

CARD_W = 20.0  # mm, a poker card drawn at about a third of its size
CARD_H = CARD_W * 88 / 63
GAP = 6.0  # mm between cards of a row
LABEL_PT = 8.5  # the labels in the picture (never scaled below style.SMALL_PT)
STRIP = 30.0  # mm kept at the foot for the turn's steps
MEASURE = 125.0  # mm: the caption's longest line, as a column of the rules (90 characters at most)
INK = HexColor("#444444")
GREY = HexColor(style.FOOTER_GREY)
SUITS = ("heart", "diamond", "spade", "club")


@dataclass(frozen=True)
class Face:
    rank: str
    suit: str  # the suit's name as the definition spells it
    colour: Color


def pip(suit: str, x: float, y: float, r: float, colour: Color) -> Group:
    """A suit's mark, centred on (x, y), about 2r across; a suit of another name prints its initial."""
    kind = next((s for s in SUITS if s in suit.lower()), "")
    shape = dict(fillColor=colour, strokeColor=None)
    if kind == "diamond":
        return Group(Polygon([x, y + r, x + 0.75 * r, y, x, y - r, x - 0.75 * r, y], **shape))
    if kind in ("heart", "spade"):
        up = 1 if kind == "heart" else -1  # a spade is a heart upside down, with a stem
        group = Group(Circle(x - 0.48 * r, y + up * 0.3 * r, 0.52 * r, **shape),
                      Circle(x + 0.48 * r, y + up * 0.3 * r, 0.52 * r, **shape),
                      Polygon([x - r, y + up * 0.18 * r, x + r, y + up * 0.18 * r, x, y - up * r], **shape))
        if kind == "spade":
            group.add(Polygon([x, y - 0.2 * r, x + 0.35 * r, y - r, x - 0.35 * r, y - r], **shape))
        return group
    if kind == "club":
        return Group(*(Circle(x + dx * r, y + dy * r, 0.42 * r, **shape) for dx, dy in ((0, 0.45), (-0.45, -0.1), (0.45, -0.1))),
                     Polygon([x, y, x + 0.35 * r, y - r, x - 0.35 * r, y - r], **shape))
    return Group(text(x, y - 0.35 * r, (suit.strip()[:1] or "?").upper(), 9, fonts.BOLD, "middle", colour))


def card(x: float, y: float, face: Face | None, tapped: bool = False, back: Color | None = None) -> Group:
    """A card with its lower left corner at (x, y): upright, or sideways when tapped; face down
    (a lattice in the owner's colour) without a face. The index sits in the corner a resting card
    leaves clear."""
    w, h = (CARD_H, CARD_W) if tapped else (CARD_W, CARD_H)
    group = Group(rect(x, y, w, h, fill=white, stroke=INK, stroke_width=0.3, radius=1.2))
    if face is None:
        ink = back or INK
        group.add(rect(x + 1.5, y + 1.5, w - 3, h - 3, stroke=ink, stroke_width=0.25, radius=0.8))
        for k in range(1, 8):
            dy = k * (h - 3) / 8
            group.add(Line(x + 1.5, y + 1.5 + dy, x + w - 1.5, y + 1.5 + dy, strokeColor=ink, strokeWidth=0.2))
        return group
    group.add(text(x + 2.0, y + h - 4.6, face.rank, 10, fonts.BOLD, fill=face.colour))
    group.add(pip(face.suit, x + 3.6, y + h - 8.2, 1.7, face.colour))
    if not tapped:
        group.add(pip(face.suit, x + w / 2, y + h / 2 - 2, 4.2, face.colour))
    return group


def general(x: float, y: float, face: Face, resting: list[Face], towards: int) -> Group:
    """A tapped General at (x, y) with the Soldiers it enlisted resting on it, fanned to the right
    and reaching out `towards` its owner (+1 up the page, -1 down)."""
    group = Group(card(x, y, face, tapped=True))
    for i, soldier in enumerate(resting):
        sx = x + 0.62 * CARD_W + i * 0.42 * CARD_W
        sy = y + CARD_W / 2 - CARD_H / 2 + towards * 0.42 * CARD_H
        group.add(card(sx, sy, soldier))
    return group


def general_width(resting: int) -> float:
    return max(CARD_H, 0.62 * CARD_W + (resting - 1) * 0.42 * CARD_W + CARD_W) if resting else CARD_H


def tokens(x: float, y: float, player: Player, life: int) -> Group:
    """A pile of life tokens in the player's colour, labelled with their count."""
    colour = HexColor(player.colour)
    group = Group()
    for k in range(4):
        group.add(rect(x + k * 2.2, y + k * 1.6, 9, 9, fill=white, stroke=colour, stroke_width=0.5, radius=0.8))
    group.add(text(x + 8.8, y - 4.5, f"{life} life tokens", LABEL_PT, anchor="middle", fill=INK))
    return group


Bench = list[tuple[Face, list[Face], str]]  # each General, the Soldiers resting on it, a note on it


def side(defn: Fracas, player: Player, bench: Bench, top: float, width: float, far: bool) -> tuple[Group, float]:
    """One player's half of the table, its top edge at `top`: the deck, tokens and discard pile along
    the player's own edge, the battlefield nearer the middle. The far player's half is the near one
    turned over, its words kept upright. Returns the group and the half's bottom."""
    row_h = CARD_H + 6  # a card and a label under it
    field_h = CARD_W + 0.84 * CARD_H + 2  # a tapped General and the Soldiers reaching out of it
    height = 7 + row_h + 4 + field_h + 6
    bottom = top - height
    colour = HexColor(player.colour)
    group = Group()
    if far:
        name_y, row_y, field_y = top - 5, top - 7 - CARD_H, top - 7 - row_h - 4 - field_h + 0.42 * CARD_H - 2
    else:
        name_y, row_y, field_y = bottom + 1.5, bottom + 7 + 6, top - 6 - CARD_W - 1
    group.add(text(width / 2, name_y, f"{player.name}'s side", LABEL_PT + 1, fonts.BOLD, "middle", colour))
    group.add(card(8, row_y, None, back=colour))  # the deck, face down
    group.add(text(8 + CARD_W / 2, row_y - 4.5, "deck", LABEL_PT, anchor="middle", fill=INK))
    group.add(tokens(8 + CARD_W + 14, row_y + 6, player, defn.life))
    pile = width - 8 - CARD_W
    group.add(rect(pile, row_y, CARD_W, CARD_H, stroke=GREY, stroke_width=0.3, radius=1.2))
    group.add(text(pile + CARD_W / 2, row_y + CARD_H / 2 - 1, "empty", LABEL_PT, fonts.ITALIC, "middle", GREY))
    group.add(text(pile + CARD_W / 2, row_y - 4.5, "discard pile", LABEL_PT, anchor="middle", fill=INK))
    widths = [general_width(len(resting)) for _, resting, _ in bench]
    x = (width - sum(widths) - GAP * (len(widths) - 1)) / 2
    for (face, resting, note), w in zip(bench, widths):
        group.add(general(x, field_y, face, resting, 1 if far else -1))
        if far:  # the note under the General, clear of the Soldiers reaching up
            group.add(text(x + CARD_H / 2, field_y - 4.5, note, LABEL_PT, anchor="middle", fill=INK))
        else:  # beside the fan of Soldiers reaching down
            for k, line in enumerate(note.split("\n")):
                group.add(text(x + w + 3, field_y + CARD_W / 2 - 4 - k * 4, line, LABEL_PT, fill=INK))
        x += w + GAP
    group.add(text(8, field_y + CARD_W / 2 - 1.2, "battlefield", LABEL_PT, fonts.ITALIC, fill=GREY))
    return group, bottom


def diagram(defn: Fracas, suits_a: list[str], suits_b: list[str], width: float) -> tuple[Group, float]:
    """The table after turn 2 of the example, `width` mm across; returns it (its top at 0, drawn
    downwards) and its height."""
    red, black = defn.players
    ra, rb = HexColor(red.colour), HexColor(black.colour)
    far_bench = [(Face("Q", suits_b[0], rb), [Face("10", suits_b[0], rb)], "tapped to enlist"),
                 (Face("Q", suits_b[1], rb), [Face("8", suits_b[1], rb)], "tapped to enlist"),
                 (Face("J", suits_b[1], rb), [], "arrived tapped")]
    near_bench = [(Face("K", suits_a[0], ra), [Face("7", suits_a[0], ra), Face("7", suits_a[1], ra)],
                   "one tap of the King\nenlisted both 7s")]
    group = Group()
    far, middle = side(defn, black, far_bench, 0, width, far=True)
    group.add(far)
    pot_h = 16
    pot_w = 70
    group.add(rect((width - pot_w) / 2, middle - pot_h - 2, pot_w, pot_h, stroke=INK, stroke_width=0.3, radius=4))
    group.add(text(width / 2, middle - pot_h / 2 - 1.2, "the pot: empty so far", LABEL_PT, fonts.ITALIC, "middle", INK))
    near, bottom = side(defn, red, near_bench, middle - pot_h - 4, width, far=False)
    group.add(near)
    group.add(rect(0, bottom, width, -bottom, stroke=GREY, stroke_width=0.3, radius=3))  # the table's edge
    return group, -bottom


def steps(defn: Fracas, x: float, y: float, width: float, accent: Color) -> Group:
    """The turn's steps in one row of numbered boxes, left to right, their top at `y`."""
    n = len(defn.turn)
    gap = 3.0
    box = (width - gap * (n - 1)) / n
    group = Group(text(x, y - 4, f"A turn, in {n} steps", style.HEADING_PT, fonts.BOLD, fill=accent))
    for i, step in enumerate(defn.turn):
        bx = x + i * (box + gap)
        group.add(rect(bx, y - 19, box, 11, stroke=accent, stroke_width=0.4, radius=1.5))
        words = wrap(f"{i + 1}. {step.step}", fonts.BOLD, style.RULES_PT, box - 3)[:1]
        group.add(text(bx + box / 2, y - 14.8, words[0] if words else "", style.RULES_PT, fonts.BOLD, "middle", INK))
    return group


def table_page(defn: Fracas, suits_a: list[str], suits_b: list[str], accent: str, paper: Paper) -> Group:
    """The whole page but its footer: a heading, a line saying what the picture shows, the table
    scaled to the room left, and the turn's steps at the foot."""
    ink = HexColor(accent)
    left, top, width = style.MARGIN, paper.height - style.MARGIN, paper.width - 2 * style.MARGIN
    red, black = defn.players
    page = Group(text(left, top - 4, "The table at a glance", style.HEADING_PT, fonts.BOLD, fill=ink))
    caption = (f"Turn 2 of the example has just ended. Every card that acted is tapped (turned sideways), "
               f"and each new Soldier rests on the General that enlisted it until its owner's next Untap "
               f"step. Both hands are held, not shown; {black.name} sits across from {red.name}.")
    lines = wrap(caption, fonts.REGULAR, style.RULES_PT, min(width, MEASURE))  # lines a reader can follow
    leading = style.RULES_PT * 1.25 * 25.4 / 72
    for k, line in enumerate(lines):
        page.add(text(left, top - 10 - k * leading, line, style.RULES_PT, fill=INK))
    picture_top = top - 10 - len(lines) * leading - 2
    room = picture_top - (style.MARGIN + STRIP)
    drawn, height = diagram(defn, suits_a, suits_b, width)
    scale = min(1.0, room / height)
    shift = (width - width * scale) / 2
    page.add(Group(drawn, transform=(scale, 0, 0, scale, left + shift, picture_top)))
    page.add(steps(defn, left, style.MARGIN + STRIP - 4, width, ink))
    return page

