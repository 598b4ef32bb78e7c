"""The Fracas definition; the reference sheet's tables are lists here, so the sheet can never
disagree with its data."""
from __future__ import annotations

from typing import Annotated, Iterable, Literal

from pydantic import Field

from printgen.art.library import ImageFile
from printgen.core.source import Loc
from printgen.games.header import WithRulebook
from printgen.core.fields import Cell, HexColour, Name, Short, Strict


class Player(Strict):
    """One side: its name, the colour of its life tokens, and which suits its deck holds."""

    name: Name
    colour: HexColour
    suits: Short
    token_image: ImageFile = None  # printed on each of this player's life tokens, above the name


class Role(Strict):
    role: Short
    cards: Short
    job: Cell


class Step(Strict):
    step: Short
    what: Cell


class Outcome(Strict):
    case: Short
    result: Cell


class Tokens(Strict):
    """The life-token sheet: square tokens in a grid, each player's set in its own block."""

    size: Annotated[float, Field(ge=12, le=40, allow_inf_nan=False, description="token side, mm")] = 22
    columns: Annotated[int, Field(ge=1, le=8, description="tokens across each player's block")] = 4
    fives: Annotated[int, Field(ge=0, le=8, description=(
        "five-point tokens per player, to save counting out ones; the rest of `life` comes as "
        "one-point tokens"))] = 0
    palette: Annotated[Literal["standard", "solid"], Field(
        description="standard: white tokens, the colour in their rings and words; "
                    "solid: each player's block on a tint of their colour")] = "standard"


class Fracas(WithRulebook):
    game: Literal["fracas"]
    players: Annotated[list[Player], Field(min_length=2, max_length=2)]
    life: Annotated[int, Field(ge=1, le=40, description="life points per player, paid in tokens")] = 20
    hand_limit: Annotated[int, Field(ge=1, le=15, description="opening hand and end-of-turn limit")] = 7
    roles: Annotated[list[Role], Field(min_length=1, max_length=8)]
    turn: Annotated[list[Step], Field(min_length=1, max_length=12)]
    skirmish: Annotated[list[Outcome], Field(min_length=1, max_length=10)]
    tokens: Tokens = Field(default_factory=Tokens)


def check_players(defn: Fracas) -> Iterable[tuple[Loc, str]]:
    """Two players who look the same would make their tokens impossible to tell apart."""
    first, second = defn.players
    if first.name == second.name:
        yield ("players", 1, "name"), f"both players are called '{first.name}'; give them different names"
    if first.colour.lower() == second.colour.lower():
        yield ("players", 1, "colour"), (f"both players' tokens would be {first.colour}; pick a "
                                         f"different colour for {second.name}")


def check_tokens(defn: Fracas) -> Iterable[tuple[Loc, str]]:
    """Five-point tokens worth more than a player's life would leave no ones to make it up."""
    fives = defn.tokens.fives
    if 5 * fives > defn.life:
        yield ("tokens", "fives"), (f"{fives} five-point tokens are worth {5 * fives} and each player has "
                                    f"{defn.life} life; use at most {defn.life // 5}")


def token_values(defn: Fracas) -> list[int]:
    """What each of one player's tokens is worth: ones first, then the fives (together `life`)."""
    fives = min(defn.tokens.fives, defn.life // 5)
    return [1] * (defn.life - 5 * fives) + [5] * fives
