"""`printgen validate --show` for One Minute War: the card as it lies when a simulated war ends,
from the first side's seat."""
from __future__ import annotations

from reportlab.graphics.shapes import Group, Line
from reportlab.lib.colors import HexColor

from printgen.core.paper import Paper
from printgen.drawing import fonts
from printgen.drawing.document import Document, Page
from printgen.drawing.picture import colour, rect, text
from printgen.games.one_minute_war.engine import ENDINGS, Result, Rules
from printgen.games.one_minute_war.model import OneMinuteWar

TAB_W, TAB_H, GAP = 22.0, 18.0, 2.0  # mm
MARGIN, BODY = 10.0, 16.0
POSITION_DPI = 100
ENDED = dict(zip(ENDINGS, ("a side had no soldier standing", "a side had no legal move",
                           "stopped: the players agreed", "unfinished")))


def tab(rules: Rules, number: int, up: bool, fill: str, x: float, y: float) -> Group:
    group = Group()
    soldier = rules.soldier(number)
    ink = HexColor("#ffffff") if up else HexColor("#9a9a9a")
    group.add(rect(x, y, TAB_W, TAB_H, fill=colour(fill) if up else HexColor("#eeeeee"),
                   stroke=HexColor("#555555"), stroke_width=0.3))
    group.add(text(x + TAB_W / 2, y + 8, str(number), 16, fonts.BOLD, anchor="middle", fill=ink))
    group.add(text(x + TAB_W / 2, y + 3, soldier.name, 7, anchor="middle", fill=ink))
    if not up:
        group.add(Line(x + 6, y + 9.5, x + TAB_W - 6, y + 13, strokeColor=HexColor("#b03a2e"), strokeWidth=0.6))
    return group


def position(defn: OneMinuteWar, rules: Rules, outcome: Result, heading: list[str]) -> tuple[Group, float, float]:
    n = len(rules.soldiers)
    width = 2 * MARGIN + n * TAB_W + (n - 1) * GAP
    height = 2 * MARGIN + 2 * TAB_H + BODY + 6 * len(heading)
    group = Group()
    group.add(rect(0, 0, width, height, fill=HexColor("#ffffff")))
    rows = ((0, MARGIN), (1, MARGIN + TAB_H + BODY))
    for side, y in rows:
        for k, soldier in enumerate(rules.soldiers):
            up = soldier.number in outcome.standing[side]
            group.add(tab(rules, soldier.number, up, defn.sides[side].colour, MARGIN + k * (TAB_W + GAP), y))
    for side, y in rows:
        label = f"{rules.sides[side]}: {len(outcome.standing[side])} standing"
        group.add(text(MARGIN, y + TAB_H + 2.5 if side == 0 else y - 5, label, 9, fonts.BOLD))
    for k, line in enumerate(heading):
        group.add(text(MARGIN, height - MARGIN - 6 * k, line, 10 if k == 0 else 8, fonts.BOLD if k == 0 else fonts.REGULAR))
    return group, width, height


def position_documents(defn: OneMinuteWar, rules: Rules, outcome: Result, heading: list[str]) -> list[Document]:
    """`war.svg` and `war.png`: the end of one simulated war."""
    group, width, height = position(defn, rules, outcome, heading)
    size = Paper("position", width, height)
    return [Document("war.svg", size, [Page([group])], " ".join(heading)),
            Document("war.png", size, [Page([group])], f"{defn.title} end position", dpi=POSITION_DPI)]


def heading_of(defn: OneMinuteWar, rules: Rules, outcome: Result, players: tuple[str, str],
               seed: int) -> list[str]:
    counts = [len(s) for s in outcome.standing]
    return [f"{defn.title}: the end of a simulated war",
            f"seed {seed}, war 1 of {players[0]} ({rules.sides[0]}) vs {players[1]} ({rules.sides[1]})",
            f"after round {outcome.after_round}: {ENDED[outcome.ended_by]}; {rules.sides[0]} {counts[0]}, "
            f"{rules.sides[1]} {counts[1]}"]
