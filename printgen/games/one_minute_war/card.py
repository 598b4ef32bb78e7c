"""The One Minute War card: a body with a row of soldier tabs along each long edge.

Card millimetres, y up; each row faces its owner, so the far row is turned 180 degrees."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from reportlab.graphics.shapes import Group, translate

from printgen.drawing import fonts
from printgen.art.library import art_of, font_of
from printgen.art.loaded import Art
from printgen.core.source import Loc
from printgen.core.paper import font_mm
from printgen.core.textcheck import missing_in_font
from printgen.drawing.picture import CUT, FOLD, colour, guide, hex_of, placed, tint, turned, wrap
from printgen.games.one_minute_war.model import FoldCard, OneMinuteWar, Soldier
from printgen.games.pieces import Piece, PieceTemplates, past_safe_area, with_art

TAB_FRONT = "one_minute_war/tab-front.svg.j2"
TAB_BACK = "one_minute_war/tab-back.svg.j2"
BODY = "one_minute_war/card-body.svg.j2"

ABILITY_LINES = 3
TAB_PAD = 2.4  # mm kept clear inside each tab edge: the print rule's 2 mm, and more for a scissors cut a little off
LOGO_PAD = TAB_PAD  # mm each side of the logo's words on a tab's back, as on the face (in more lines if need be)
TAB_LOGO_LEADING = 1.0  # of its size, between the tab logo's lines: capitals, so closer than the front's
NAME_GAP = 1.0  # mm between the number's baseline and the name's cap height
ABILITY_GAP = 1.0  # mm between the name's baseline and the first ability line's cap height
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
    def of(cls, card: "FoldCard") -> "TabRows":
        number = BAND + TAB_PAD + CAP * font_mm(card.number_size_pt)
        name = number + NAME_GAP + CAP * font_mm(card.text_size_pt + 1)
        leading = font_mm(card.text_size_pt) * 1.15
        first = name + ABILITY_GAP + CAP * font_mm(card.text_size_pt)
        last = first + (ABILITY_LINES - 1) * leading
        return cls(number, name, first, leading, last + DESCENT * font_mm(card.text_size_pt) + TAB_PAD)


ART_INSET = 3.0  # mm kept clear around art on the card's body
TITLE_PT = 14.0
MARK_R = 5.0  # mm: the radius of the stopwatch drawn each side of the title on the card's front
MARK_GAP = 4.0  # mm between the title and each stopwatch
LOGO_PT = 16.0  # the logo's size in words on the card's back
LABEL_CLEAR = 5.5  # mm above and below body art on the front, where the side labels sit


def art_in(drawn: Group, ident: str, image: Art | None, box: tuple[float, float, float, float]) -> Group:
    """`drawn` with `image` (x, y, width, height: `box`) where its template left `<g id=ident>`, if both are."""
    return drawn if image is None else with_art(drawn, ident, image.shape(*box))


def family(font: str) -> str:
    """The font-family a template names for a registered font (a user's by its own family)."""
    return fonts.user_family(font) or "Bitstream Vera Sans"


@dataclass
class WarCard:
    """The card, its tabs and body drawn from the piece templates, all in one batch."""

    defn: OneMinuteWar
    templates: PieceTemplates = field(default_factory=PieceTemplates)
    drawn: dict[tuple[Any, ...], Group] = field(default_factory=dict)

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

    # -- the pieces: plain data for the templates, millimetres, y down from the piece's corner ----
    def tab_data(self, soldier: Soldier, side: int) -> dict[str, Any]:
        card, tw, t = self.defn.card, self.tab_width, self.defn.card.tab_height
        rows, colour_of = TabRows.of(card), self.defn.sides[side]
        lines = wrap(soldier.ability, fonts.REGULAR, card.text_size_pt, tw - 2 * TAB_PAD)
        return {"tab": {"width": tw, "height": t, "pad": TAB_PAD, "band": BAND},
                "side": {"name": colour_of.name, "colour": colour_of.colour,
                         "tint": hex_of(tint(colour(colour_of.colour), 0.85))},
                "soldier": {"number": soldier.number, "name": soldier.name, "ability": soldier.ability,
                            "lines": lines},
                "rows": {"number": rows.number, "name": rows.name,
                         "abilities": [rows.first_ability + k * rows.leading for k in range(len(lines))]},
                "sizes": {"number": font_mm(card.number_size_pt), "name": font_mm(card.text_size_pt + 1),
                          "ability": font_mm(card.text_size_pt)},
                "box": self.bleed_box(soldier, fold=False)}

    def bleed_box(self, soldier: Soldier, fold: bool) -> dict[str, float]:
        """The room a tab's background fills: TAB_BLEED past the card's outline (the outer cut, and
        the side of a row's end tab), so a sheet cut a little wide shows no white edge; on a back
        also past the fold, on the face never into the card's body. Never into the next tab."""
        t, tw = self.defn.card.tab_height, self.tab_width
        order = [s.number for s in self.soldiers()]
        left = TAB_BLEED if soldier.number == order[0] else 0.0
        right = TAB_BLEED if soldier.number == order[-1] else 0.0
        top = TAB_BLEED if fold else 0.0
        return {"x": -left, "y": -top, "width": tw + left + right, "height": t + top + TAB_BLEED}

    def tab_back_data(self, soldier: Soldier, side: int) -> dict[str, Any]:
        data = self.tab_data(soldier, side)
        t, tw = self.defn.card.tab_height, self.tab_width
        rows, box = TabRows.of(self.defn.card), self.logo_height
        # no band on the back, so the rows move BAND towards the cut, less the number's ascent over
        # its cap height, keeping its glyph box TAB_PAD inside the cut
        number_mm = font_mm(self.defn.card.number_size_pt)
        lift = BAND - max(0.0, fonts.ascent(fonts.BOLD, number_mm) - CAP * number_mm)
        data["rows"] = {"number": rows.number - lift, "name": rows.name - lift}
        del data["sizes"]["ability"], data["soldier"]["lines"]
        # the words centred in the room below the name, keeping LOGO_PAD from the fold below them too
        size_pt = self.tab_logo_pt
        data["logo"] = logo = self.logo_data(0.0, t - box, tw, box - LOGO_PAD, size_pt, LOGO_PAD)
        lines, tall = self.tab_logo_block(size_pt)
        first = t - box + (box - LOGO_PAD - tall) / 2 + CAP * font_mm(size_pt)
        logo["baselines"] = [first + k * font_mm(size_pt) * TAB_LOGO_LEADING for k in range(len(lines))]
        # the back's colour bleeds past the cut, the fold and the card's outline (not a shared cut),
        # so a back printed a little off shows no white edge on a folded tab
        data["box"] = self.bleed_box(soldier, fold=True)
        return data

    @property
    def tab_logo_pt(self) -> float:
        """The logo's size on a tab's back: the tabs' text size, or less (half points, never under
        the 7 pt floor) until its lines across the tab, LOGO_PAD inside the cuts, fit the room below
        the name ('ONE / MINUTE / WAR' at 7.5 pt: in two lines its first came 2.1 mm from the cuts)."""
        size = self.defn.card.text_size_pt
        while size - 0.5 >= fonts.MIN_PT and self.tab_logo_block(size)[1] > self.logo_height - LOGO_PAD:
            size -= 0.5
        return size

    def tab_logo_block(self, size_pt: float) -> tuple[list[str], float]:
        """The tab logo's lines at `size_pt`, LOGO_PAD inside the tab's sides, and their height (mm)
        from the first line's cap height to the last one's descent."""
        lines = wrap(self.defn.logo.text.upper(), self.title_font, size_pt, self.tab_width - 2 * LOGO_PAD)
        size = font_mm(size_pt)
        return lines, (len(lines) - 1) * size * TAB_LOGO_LEADING + (CAP + DESCENT) * size

    @property
    def logo_height(self) -> float:
        """The logo's room on a tab's back: below where the name stood on the face, with its band."""
        return self.defn.card.tab_height - TabRows.of(self.defn.card).name + BAND - 1.5 - TAB_PAD

    def logo_data(self, x: float, y: float, w: float, h: float, size_pt: float, pad: float = TAB_PAD) -> dict[str, Any]:
        """The logo in a w x h box whose top-left corner is (x, y): its text wrapped `pad` mm inside
        each side and centred."""
        lines = wrap(self.defn.logo.text.upper(), self.title_font, size_pt, w - 2 * pad)
        leading = font_mm(size_pt) * 1.1
        top = h / 2 + leading * len(lines) / 2 - font_mm(size_pt) * 0.8  # y up in the box, as before
        return {"x": x, "y": y, "width": w, "height": h, "text": self.defn.logo.text, "lines": lines,
                "baselines": [y + h - (top - k * leading) for k in range(len(lines))],
                "size": font_mm(size_pt), "font": family(self.title_font),
                "image": art_of(self.defn.logo.image) is not None}

    def body_art(self, side: str) -> tuple[Art | None, tuple[float, float, float, float]]:
        """The art on the card's body and its box: on the front, clear of the side labels."""
        b, w = self.defn.card.body_height, self.width
        if side == "front":
            return art_of(self.defn.card.body_image), (ART_INSET, LABEL_CLEAR, w - 2 * ART_INSET, b - 2 * LABEL_CLEAR)
        return art_of(self.defn.logo.image), (ART_INSET, ART_INSET, w - 2 * ART_INSET, b - 2 * ART_INSET)

    def body_data(self, side: str) -> dict[str, Any]:
        b, w = self.defn.card.body_height, self.width
        near, far = self.defn.sides
        image, box = self.body_art(side)
        data: dict[str, Any] = {"side": side, "body": {"width": w, "height": b},
                                "accent": hex_of(colour(self.defn.reference.accent)),
                                "art": None if image is None else dict(zip(("x", "y", "width", "height"), box))}
        if side == "front":
            title = self.defn.title.upper()
            data["title"] = {"text": title, "x": w / 2, "y": b / 2 + font_mm(TITLE_PT) * 0.35,
                             "size": font_mm(TITLE_PT), "font": family(self.title_font)}
            data["mark"] = None if image else self.mark_data(fonts.text_width(title, self.title_font,
                                                                               font_mm(TITLE_PT)))
            data["near"] = {"label": f"{near.name} side", "x": w / 2, "y": b - 2.5,
                            "size": font_mm(self.defn.card.text_size_pt)}
            data["far"] = {"label": f"{far.name} side", "x": w / 2, "y": b - 2.5,
                            "size": font_mm(self.defn.card.text_size_pt)}
        else:
            data["logo"] = logo = self.logo_data(0.0, 0.0, w, b, LOGO_PT)
            one_line = len(logo["lines"]) == 1 and not logo["image"]  # the logo in words, on one line
            data["mark"] = self.mark_data(fonts.text_width(logo["lines"][0], self.title_font, font_mm(LOGO_PT))) \
                if one_line and image is None else None
        return data

    def mark_data(self, words_mm: float) -> dict[str, Any] | None:
        """The game's mark, a stopwatch each side of words `words_mm` wide centred on the body, on
        the front (beside the title) and the back (beside the logo) alike; None when both do not fit
        clear of the edges."""
        b, w = self.defn.card.body_height, self.width
        reach = words_mm / 2 + MARK_GAP + MARK_R
        if w / 2 - reach - MARK_R < ART_INSET:
            return None
        return {"r": MARK_R, "cy": b / 2, "xs": [w / 2 - reach, w / 2 + reach], "line": 0.7,
                "tint": hex_of(tint(colour(self.defn.reference.accent), 0.65)),
                "face": MARK_R - 1.1, "minute": [0.866 * (MARK_R - 1.1), -0.5 * (MARK_R - 1.1)]}

    def pieces(self) -> list[tuple[tuple[Any, ...], str, Piece]]:
        """Every piece of the card: (its key here, its template, what to draw)."""
        tw, t, b = self.tab_width, self.defn.card.tab_height, self.defn.card.body_height
        found: list[tuple[tuple[Any, ...], str, Piece]] = []
        for soldier in self.soldiers():
            for side in (0, 1):
                who = f"{soldier.name}'s tab ({self.defn.sides[side].name} side"
                found.append((("front", soldier.number, side), TAB_FRONT,
                              Piece(self.tab_data(soldier, side), tw, t, who + ", face)")))
                found.append((("back", soldier.number, side), TAB_BACK,
                              Piece(self.tab_back_data(soldier, side), tw, t, who + ", back)")))
        for face in ("front", "back"):
            found.append((("body", face), BODY, Piece(self.body_data(face), self.width, b, f"the card's {face}")))
        return found

    def piece(self, *key: Any) -> Group:
        """One drawn piece; the first asked for draws them all (one batch for the three templates)."""
        if not self.drawn:
            found = self.pieces()
            names = list(dict.fromkeys(name for _, name, _ in found))
            batches = self.templates.draw_batches([(name, [p for _, n, p in found if n == name]) for name in names])
            for name, drawn in zip(names, batches):
                self.drawn.update(zip([k for k, n, _ in found if n == name], drawn))
        return self.drawn[key]

    # -- front -------------------------------------------------------------------------------
    def front(self) -> Group:
        card, t, tw = self.defn.card, self.defn.card.tab_height, self.tab_width
        group = Group()
        group.add(placed(self.body("front"), translate(0, t)))
        for i, soldier in enumerate(self.soldiers()):
            group.add(placed(self.piece("front", soldier.number, 0), translate(i * tw, 0)))
            top_row_x = self.width - (i + 1) * tw  # the far player reads their row left to right too
            group.add(placed(turned(self.piece("front", soldier.number, 1), tw, t),
                             translate(top_row_x, t + card.body_height)))
        return group

    def body(self, side: str) -> Group:
        """The card's body, its art where the template left room for it."""
        return art_in(self.piece("body", side), "body-art", *self.body_art(side))

    # -- back (as seen after turning the card over about its vertical axis) -------------------
    def back(self) -> Group:
        card = self.defn.card
        t, tw, b = card.tab_height, self.tab_width, card.body_height
        group = Group()
        group.add(placed(self.body("back"), translate(0, t)))
        for i, soldier in enumerate(self.soldiers()):
            # Turned over, the near row's tabs mirror (the far row's were reversed on the front), and
            # are drawn upside down so they read upright once folded up over the card.
            group.add(placed(turned(self.tab_back(soldier, 0), tw, t), translate(self.width - (i + 1) * tw, 0)))
            group.add(placed(self.tab_back(soldier, 1), translate(i * tw, t + b)))
        return group

    def tab_back(self, soldier: Soldier, side: int) -> Group:
        """A folded-up tab's number and name over the logo, so nobody has to remember the tabs."""
        return art_in(self.piece("back", soldier.number, side), "logo-art", art_of(self.defn.logo.image),
                      (TAB_PAD, TAB_PAD, self.tab_width - 2 * TAB_PAD, self.logo_height - 2 * TAB_PAD))

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
    card = WarCard(defn)  # only measured: nothing is drawn
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


def tab_warnings(card: WarCard) -> list[str]:
    """`file:line: warning: ...`: what drawing noticed, and tab text past the safe area."""
    for name in (TAB_FRONT, TAB_BACK):
        pad = TAB_PAD if name == TAB_FRONT else LOGO_PAD  # a back's words are centred, its logo as wide as fits
        found = [(piece, *past) for key, named, piece in card.pieces() if named == name
                 for past in past_safe_area(card.piece(*key), card.tab_width, card.defn.card.tab_height, pad)]
        card.templates.warn_past(name, found, "past the safe area",
                                 f"keep a tab's text {pad:g} mm inside its edges, or a cut a little off clips it")
    return card.templates.warnings
