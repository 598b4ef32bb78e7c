"""The Armies definition; the reference sheet's tables are drawn from its lists."""
from __future__ import annotations

from typing import Annotated, Iterable, Literal

from pydantic import Field

from printgen.core.source import Loc
from printgen.games.header import WithRulebook
from printgen.core.fields import Cell, Short, Strict


class ArmyRank(Strict):
    """One rank of army card and the stamina points (SP) it starts with."""

    rank: Short
    index: Annotated[str, Field(min_length=1, max_length=3, description="corner index, e.g. 'K'")]
    stamina: Annotated[int, Field(ge=1, le=8)]


class Position(Strict):
    """A way of laying the army card; the n-th position (from 0) means n SP lost."""

    name: Short
    turn: Annotated[float, Field(ge=0, le=180, allow_inf_nan=False,
                                 description="degrees turned clockwise from upright")] = 0
    face_down: bool = False


class Step(Strict):
    step: Short
    what: Cell


class Result(Strict):
    case: Short
    result: Cell


class Armies(WithRulebook):
    game: Literal["armies"]
    armies_each: Annotated[int, Field(ge=1, le=8, description="army cards each player draws")] = 3
    hand: Annotated[int, Field(ge=1, le=15, description="fighting cards each player holds")] = 5
    attack: Short = "red"
    defence: Short = "black"
    stamina: Annotated[list[ArmyRank], Field(min_length=1, max_length=8)]
    positions: Annotated[list[Position], Field(min_length=2, max_length=8)]
    round: Annotated[list[Step], Field(min_length=1, max_length=12)]
    results: Annotated[list[Result], Field(min_length=1, max_length=10)]


def check_stamina(defn: Armies) -> Iterable[tuple[Loc, str]]:
    """Every SP an army can lose needs a position to show it, and ranks must be told apart."""
    marks = len(defn.positions)
    seen: dict[tuple[str, str], ArmyRank] = {}
    for i, army in enumerate(defn.stamina):
        if army.stamina > marks:
            yield ("stamina", i, "stamina"), (
                f"{army.rank} starts with {army.stamina} SP, but the card has only {marks} positions to "
                f"show how many are left; expected at most {marks} (or add a position)")
        for field in ("rank", "index"):
            key = (field, getattr(army, field).lower())
            if key in seen:
                yield ("stamina", i, field), (f"{army.rank} has the {field} '{getattr(army, field)}', "
                                              f"which {seen[key].rank} already has; each must differ")
            seen.setdefault(key, army)
    names: dict[str, int] = {}
    for i, position in enumerate(defn.positions):
        if position.name.lower() in names:
            yield ("positions", i, "name"), f"the position '{position.name}' is listed twice"
        names.setdefault(position.name.lower(), i)
