"""The One Minute War card: a body with a row of soldier tabs along each long edge.

Card-local millimetres, y up: the near side's tabs are the bottom row (y 0..t), the body is the
middle, the far side's tabs are the top row. Each row faces its owner, so the far row is drawn
turned 180 degrees.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from reportlab.graphics.shapes import Group, translate
from reportlab.lib.colors import Color, white

from printgen.drawing import fonts
from printgen.art.library import art_of, font_of
from printgen.core.source import Loc
from printgen.core.paper import font_mm
from printgen.core.textcheck import missing_in_font
from printgen.drawing.picture import (CUT, FOLD, colour, guide, placed, rect, text, tint, turned,
                                      wrap)
from printgen.games.one_minute_war.model import Card, OneMinuteWar, Soldier

ABILITY_LINES = 3
TAB_PAD = 2.0  # mm kept clear inside each tab edge: a scissors cut a little off never clips text
BAND = 1.2  # mm, the coloured strip along each tab's fold
TAB_BLEED = 2.0  # mm the tabs' solid backs run past their cut and fold lines
CAP = 0.73  # cap height of the font, as a fraction of its size
DESCENT = 0.24  # descender depth, as a fraction of its size


@dataclass(frozen=True)
class TabRows:
    """Baselines on a tab, measured down from its fold edge (mm), and the height they need."""

    number: float
    name: float
    first_ability: float
    leading: float
    needed: float

    @classmethod
    def of(cls, card: "Card") -> "TabRows":
        number = BAND + TAB_PAD + CAP * font_mm(card.number_size_pt)
        name = number + 1.4 + CAP * font_mm(card.text_size_pt + 1)
        leading = font_mm(card.text_size_pt) * 1.15
        first = name + 1.0 + CAP * font_mm(card.text_size_pt) + 0.3
        last = first + (ABILITY_LINES - 1) * leading
        return cls(number, name, first, leading, last + DESCENT * font_mm(card.text_size_pt) + TAB_PAD)



ART_INSET = 3.0  # mm kept clear around art on the card's body
LABEL_CLEAR = 5.5  # mm above and below body art on the front, where the side labels sit


@dataclass
class WarCard:
    defn: OneMinuteWar

    @property
    def title_font(self) -> str:
        """The logo's own font when the definition names one, else the bundled bold."""
        return font_of(self.defn.logo.font, fonts.BOLD)

    @property
    def tab_width(self) -> float:
        return self.defn.card.width / len(self.defn.soldiers)

    @property
    def width(self) -> float:
        return self.defn.card.width

    @property
    def height(self) -> float:
        return 2 * self.defn.card.tab_height + self.defn.card.body_height

    def soldiers(self) -> list[Soldier]:
        return sorted(self.defn.soldiers, key=lambda s: s.number)

    # -- front -------------------------------------------------------------------------------
    def front(self) -> Group:
        card, (near, far) = self.defn.card, self.defn.sides
        t, tw = card.tab_height, self.tab_width
        group = Group()
        group.add(rect(0, t, self.width, card.body_height, fill=white))
        group.add(self.body_front(near.name, far.name))
        for i, soldier in enumerate(self.soldiers()):
            group.add(placed(self.tab_front(soldier, colour(near.colour)), translate(i * tw, 0)))
            top_row_x = self.width - (i + 1) * tw  # the far player reads their row left to right too
            group.add(placed(turned(self.tab_front(soldier, colour(far.colour)), tw, t),
                             translate(top_row_x, t + card.body_height)))
        return group

    def tab_front(self, soldier: Soldier, side: Color) -> Group:
        card, tw, t = self.defn.card, self.tab_width, self.defn.card.tab_height
        rows = TabRows.of(card)
        group = Group()
        group.add(rect(0, 0, tw, t, fill=tint(side, 0.85)))
        group.add(rect(0, t - BAND, tw, BAND, fill=side))  # a band along the fold, in the side colour
        group.add(text(TAB_PAD, t - rows.number, str(soldier.number), card.number_size_pt, fonts.BOLD,
                       fill=side))
        group.add(text(TAB_PAD, t - rows.name, soldier.name, card.text_size_pt + 1, fonts.BOLD))
        lines = wrap(soldier.ability, fonts.REGULAR, card.text_size_pt, tw - 2 * TAB_PAD)
        for k, line in enumerate(lines):
            group.add(text(TAB_PAD, t - rows.first_ability - k * rows.leading, line, card.text_size_pt))
        return group

    def body_front(self, near: str, far: str) -> Group:
        card = self.defn.card
        t, b, w = card.tab_height, card.body_height, self.width
        group = Group()
        mid = t + b / 2
        body_art = art_of(card.body_image)
        if body_art is not None:
            group.add(body_art.shape(ART_INSET, t + LABEL_CLEAR, w - 2 * ART_INSET, b - 2 * LABEL_CLEAR))
        group.add(text(w / 2, mid - font_mm(14) * 0.35, self.defn.title.upper(), 14, self.title_font,
                       anchor="middle"))
        group.add(text(w / 2, t + 2.5, f"{near} side", 7, fonts.BOLD, anchor="middle"))
        label = Group()
        label.add(text(w / 2, 2.5, f"{far} side", 7, fonts.BOLD, anchor="middle"))
        group.add(placed(turned(label, w, b), translate(0, t)))
        return group

    # -- back (as seen after turning the card over about its vertical axis) -------------------
    def back(self) -> Group:
        card, (near, far) = self.defn.card, self.defn.sides
        t, tw, b = card.tab_height, self.tab_width, card.body_height
        group = Group()
        group.add(rect(0, t, self.width, b, fill=white))
        # each row's solid colour runs TAB_BLEED past the outline and the fold, so a back printed a
        # little off shows no white edge on a folded tab (the body's back lies on the table)
        for y, side in ((-TAB_BLEED, near), (t + b - TAB_BLEED, far)):
            group.add(rect(-TAB_BLEED, y, self.width + 2 * TAB_BLEED, t + 2 * TAB_BLEED, fill=colour(side.colour)))
        group.add(placed(self.logo_block(self.width, b, 16, inset=ART_INSET), translate(0, t)))
        for i, soldier in enumerate(self.soldiers()):
            # Turned over, the near row's tab i sits at the mirrored x; the far row's order was
            # already reversed on the front, so here it runs left to right.
            # Folding a near tab up over the card turns its back 180 degrees relative to this view,
            # so it is drawn upside down here to read upright for its owner once folded.
            near_tab = self.tab_back(colour(near.colour), soldier)
            group.add(placed(turned(near_tab, tw, t), translate(self.width - (i + 1) * tw, 0)))
            group.add(placed(self.tab_back(colour(far.colour), soldier), translate(i * tw, t + b)))
        return group

    def tab_back(self, side: Color, soldier: Soldier) -> Group:
        """What a folded-up tab shows its owner: the soldier's number and name over the logo, so
        nobody has to remember which tab is which."""
        card, tw, t = self.defn.card, self.tab_width, self.defn.card.tab_height
        rows = TabRows.of(card)
        # no band on the back, so the rows move BAND towards the tab's cut edge; the number's glyph
        # box reaches the font's ascent above its baseline, a little over the cap height the rows
        # allow for, so they move back by the difference to keep that box TAB_PAD inside the cut
        number_mm = font_mm(card.number_size_pt)
        lift = BAND - max(0.0, fonts.ascent(fonts.BOLD, number_mm) - CAP * number_mm)
        group = Group()
        group.add(rect(0, 0, tw, t, fill=side))
        group.add(text(tw / 2, t - rows.number + lift, str(soldier.number), card.number_size_pt, fonts.BOLD,
                       anchor="middle", fill=white))
        group.add(text(tw / 2, t - rows.name + lift, soldier.name, card.text_size_pt + 1, fonts.BOLD,
                       anchor="middle", fill=white))
        logo = t - rows.name + BAND - 1.5 - TAB_PAD  # the room below where the name stood with a band
        group.add(self.logo_block(tw, logo, fonts.MIN_PT, fill=white))
        return group

    def logo_block(self, w: float, h: float, size_pt: float, fill: Color | None = None,
                   inset: float = TAB_PAD) -> Group:
        """The logo in a w x h box, reading upright in it: the logo image (as large as fits inside
        `inset`, proportions kept), or else the logo text, wrapped and centred."""
        group = Group()
        image = art_of(self.defn.logo.image)
        if image is not None:
            group.add(image.shape(inset, inset, w - 2 * inset, h - 2 * inset))
            return group
        font = self.title_font
        lines = wrap(self.defn.logo.text.upper(), font, size_pt, w - 2 * TAB_PAD)
        leading = font_mm(size_pt) * 1.1
        top = h / 2 + leading * len(lines) / 2 - font_mm(size_pt) * 0.8
        for k, line in enumerate(lines):
            kwargs = {"fill": fill} if fill is not None else {}
            group.add(text(w / 2, top - k * leading, line, size_pt, font, anchor="middle", **kwargs))
        return group

    # -- cut and fold lines -------------------------------------------------------------------
    def guides(self) -> Group:
        """Dashed cuts (outline and between tabs) and dotted folds, in front-local millimetres."""
        card = self.defn.card
        w, h, t, tw = self.width, self.height, card.tab_height, self.tab_width
        group = Group()
        for x1, y1, x2, y2 in ((0, 0, w, 0), (w, 0, w, h), (w, h, 0, h), (0, h, 0, 0)):
            group.add(guide(x1, y1, x2, y2, CUT))
        for i in range(1, len(self.defn.soldiers)):
            group.add(guide(i * tw, 0, i * tw, t, CUT))
            group.add(guide(i * tw, h - t, i * tw, h, CUT))
        group.add(guide(0, t, w, t, FOLD))
        group.add(guide(0, h - t, w, h - t, FOLD))
        return group


def check_card_text(defn: OneMinuteWar) -> Iterable[tuple[Loc, str]]:
    """Every tab's text must fit its tab; say which soldier and what to shorten."""
    card = WarCard(defn)
    inner = card.tab_width - 2 * TAB_PAD
    size = defn.card.text_size_pt
    for i, soldier in enumerate(defn.soldiers):
        lines = wrap(soldier.ability, fonts.REGULAR, size, inner)
        longest = max(fonts.text_width(w, fonts.REGULAR, font_mm(size)) for w in soldier.ability.split())
        if longest > inner or len(lines) > ABILITY_LINES:
            yield ("soldiers", i, "ability"), (
                f"{soldier.name}'s ability needs {len(lines)} line(s) on a {card.tab_width:.1f} mm tab "
                f"and at most {ABILITY_LINES} fit, each word within {inner:.1f} mm; shorten it or "
                f"widen card.width")
        if fonts.text_width(soldier.name, fonts.BOLD, font_mm(size + 1)) > inner:
            yield ("soldiers", i, "name"), (f"the name '{soldier.name}' is wider than its "
                                            f"{card.tab_width:.1f} mm tab; shorten it or widen card.width")
    if defn.logo.font is not None:  # the title and logo are set in capitals in the user's font
        for loc, value in ((("logo", "text"), defn.logo.text), (("title",), defn.title)):
            missing = missing_in_font(value.upper(), card.title_font)
            if missing:
                yield loc, (f"printed in capitals in the logo font ({defn.logo.font}), but {missing}; "
                            f"choose a font that has it, or change the text")
    needed = TabRows.of(defn.card).needed
    if defn.card.tab_height < needed:
        yield ("card", "tab_height"), (f"expected at least {needed:.1f} mm to hold a tab's text "
                                       f"(got {defn.card.tab_height:g}); or lower the text sizes")
