"""The Quick Violence definition, the one place every number a player needs comes from."""
from __future__ import annotations

from typing import Annotated, Iterable, Literal

from pydantic import Field

from printgen.core.source import Loc
from printgen.games.header import Booklet, WithReference
from printgen.core.fields import HexColour, Strict

Dimension = Literal["width", "length", "diagonal"]
SIZES = ("small", "medium", "large")
DIE_SIDES = 6
# The original rules give the red arrow no length; this is printgen's (the bundled range_mm).
PRINTGEN_RANGE_MM = 150.0

Label = Annotated[str, Field(min_length=1, max_length=12, pattern=r"^\S(.*\S)?$",
                             description="a short word printed on an arrow, e.g. SHORT")]


class Fighter(Strict):
    """One fighter size: what it costs and what it can do."""

    cost: Annotated[int, Field(ge=1, le=100, description="army points to buy one")]
    actions: Annotated[int, Field(ge=1, le=6, description="actions each time it activates")]
    move: Annotated[Dimension, Field(description="the page dimension its move arrow spans")]
    defence: Annotated[int, Field(ge=0, le=9, description="added to its dice rolls after defending")]
    damage: Annotated[int, Field(ge=1, le=10, description="successful attacks that remove it")]


class Fighters(Strict):
    small: Fighter
    medium: Fighter
    large: Fighter

    def by_size(self) -> list[tuple[str, Fighter]]:
        return [(size, getattr(self, size)) for size in SIZES]


class Labels(Strict):
    """The words printed on the arrows; a fighter's `move` names the arrow by its dimension."""

    width: Label = "SHORT"
    length: Label = "MEDIUM"
    diagonal: Label = "LONG"
    range: Label = "RANGE"

    def of(self, dimension: Dimension) -> str:
        return getattr(self, dimension)


class Colours(Strict):
    """The measuring page's arrow colours, #rrggbb, keyed like the labels. Keep them dark enough
    to read as thin lines on white paper, and different, so no arrow is mistaken for another."""

    width: HexColour = "#1f5f99"
    length: HexColour = "#2e7d32"
    diagonal: HexColour = "#6a3d9a"
    range: HexColour = "#c0392b"


class QuickViolence(WithReference):
    game: Literal["quick_violence"]
    title: Annotated[str, Field(min_length=1, max_length=40)]
    army_budget: Annotated[int, Field(ge=1, le=200, description="points each player may spend")]
    fighters: Fighters
    range_mm: Annotated[float, Field(ge=30, le=400, allow_inf_nan=False,
                                     description="length of the red range arrow in mm")]
    labels: Labels = Field(default_factory=Labels)
    colours: Colours = Field(default_factory=Colours)
    text_size_pt: Annotated[float, Field(ge=7, le=12)] = 10.0
    booklet: Booklet = False


def check_army(defn: QuickViolence) -> Iterable[tuple[Loc, str]]:
    """Numbers that make the game unplayable are errors that say why, not odd printouts."""
    for size, fighter in defn.fighters.by_size():
        if fighter.cost > defn.army_budget:
            yield ("fighters", size, "cost"), (
                f"a {size} fighter costs {fighter.cost} points but army_budget is "
                f"{defn.army_budget}, so no army could ever include one; lower the cost or raise "
                f"the budget")
        if fighter.defence >= DIE_SIDES - 1:
            yield ("fighters", size, "defence"), (
                f"with +{fighter.defence} a defending {size} fighter's lowest roll "
                f"({1 + fighter.defence}) already ties or beats the attacker's best ({DIE_SIDES}), "
                f"so it could never be hurt; use 0 to {DIE_SIDES - 2}")
    seen: dict[str, str] = {}
    for key in ("width", "length", "diagonal", "range"):
        word = getattr(defn.labels, key).casefold()
        if word in seen:
            yield ("labels", key), (f"'{getattr(defn.labels, key)}' already labels the {seen[word]} "
                                    f"arrow; each arrow needs its own word")
        seen.setdefault(word, key)
