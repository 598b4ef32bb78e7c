"""The One Minute War definition: soldiers, restrictions, the two sides, the card and its logo."""
from __future__ import annotations

from typing import Annotated, Iterable, Literal

from pydantic import Field

from printgen.art.library import FontFile, ImageFile
from printgen.core.source import Loc
from printgen.games.header import WithReference
from printgen.core.fields import HexColour, Name, Strict

Millimetres = Annotated[float, Field(gt=0, le=300, allow_inf_nan=False)]


class Side(Strict):
    """One player's side of the card: their name and colour."""

    name: Name
    colour: HexColour


class Soldier(Strict):
    number: Annotated[int, Field(ge=1, le=9, description="the number of fingers that picks him")]
    name: Name
    ability: Annotated[str, Field(min_length=1, max_length=80,
                                  description="the short text printed on the tab")]
    beats: list[int] = Field(default_factory=list, description="numbers of the soldiers he defeats")
    revives: bool = Field(False, description="he revives one defeated soldier (the Priest)")


class Restrictions(Strict):
    max_rounds_in_a_row: Annotated[int, Field(ge=1, le=9)] = 2
    sacrifice_only_when_behind: bool = True
    folded_soldiers_cannot_fight: bool = True
    only_chosen_soldiers_can_fall: bool = True
    reviver_can_revive_himself: bool = False
    reviver_works_when_defeated: bool = True


class FoldCard(Strict):
    """The fold-and-cut card, in millimetres. Tabs are `width / soldiers` wide."""

    # the bundled card's: a key left out (or a wrong value, left out while the other checks run)
    # gives the card the bundled soldiers' words fit
    width: Millimetres = 115
    tab_height: Millimetres = 24
    body_height: Millimetres = 48
    number_size_pt: Annotated[float, Field(ge=7, le=40)] = 15
    text_size_pt: Annotated[float, Field(ge=7, le=14)] = 8
    body_image: ImageFile = None  # art printed across the card's body, behind the title


class Logo(Strict):
    """The mark on the card's back and on every tab's back: the text, or your own image."""

    text: Annotated[str, Field(min_length=1, max_length=40)]
    image: ImageFile = None  # printed instead of the text, on each tab's back and the card's back
    font: FontFile = None  # a TrueType font for the logo text and the title on the card's front


Rate = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
Strategy = Literal["uniform", "equilibrium", "best_reply"]
DEFAULT_MATCHES: list[tuple[Strategy, Strategy]] = [
    ("uniform", "uniform"), ("equilibrium", "equilibrium"), ("equilibrium", "uniform"),
    ("best_reply", "equilibrium")]


class Thresholds(Strict):
    """What `printgen validate` calls a problem. The shares are those of the opening round's
    optimal mix; the rates and round counts hold for every simulated match."""

    max_share: Annotated[Rate, Field(description="the largest share of the opening round's optimal "
                                                 "mix that one soldier may need")] = 0.5
    min_worth_choosing: Annotated[int, Field(ge=1, le=8, description="how many soldiers must have a "
                                                                    "share in some optimal mix")] = 3
    max_draw_rate: Rate = 0.25
    max_no_legal_rate: Rate = 0.5
    max_stopped_rate: Annotated[Rate, Field(description="the share of wars still going at max_rounds")] = 0.25
    min_mean_rounds: Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)] = 4
    max_mean_rounds: Annotated[float, Field(ge=1, le=1000, allow_inf_nan=False)] = 40


class Validation(Strict):
    """`printgen validate`: how many wars to simulate, with which players, and what fails."""

    games: Annotated[int, Field(ge=1, le=1_000_000, description="simulated wars per match")] = 1000
    seed: Annotated[int, Field(ge=0, le=2**31)] = 1
    max_rounds: Annotated[int, Field(ge=1, le=10_000, description="rounds after which simulated "
                                                                 "players agree to stop")] = 100
    matches: Annotated[list[Annotated[list[Strategy], Field(min_length=2, max_length=2)]], Field(
        min_length=1, max_length=9, description="pairs of players, the first side's then the second's, "
                                                "such as [equilibrium, uniform]")] = \
        Field(default_factory=lambda: [list(pair) for pair in DEFAULT_MATCHES])
    thresholds: Thresholds = Field(default_factory=Thresholds)


class OneMinuteWar(WithReference):
    game: Literal["one_minute_war"]
    sides: Annotated[list[Side], Field(min_length=2, max_length=2,
                                       description="near side (bottom row) first, then far side")]
    soldiers: Annotated[list[Soldier], Field(min_length=2, max_length=8)]
    restrictions: Restrictions = Field(default_factory=Restrictions)
    card: FoldCard = Field(default_factory=FoldCard)
    logo: Logo
    text_size_pt: Annotated[float, Field(ge=7, le=12)] = 9
    validation: Validation = Field(default_factory=Validation)


def check_soldiers(defn: OneMinuteWar) -> Iterable[tuple[Loc, str]]:
    """A soldier table that cannot be played is an error naming the soldier."""
    numbers: dict[int, int] = {}
    for i, soldier in enumerate(defn.soldiers):
        if soldier.number in numbers:
            other = defn.soldiers[numbers[soldier.number]]
            yield ("soldiers", i, "number"), (f"{soldier.name} has number {soldier.number}, "
                                              f"which {other.name} already has; numbers must differ")
        numbers.setdefault(soldier.number, i)
    by_number = {s.number: s for s in defn.soldiers}
    known = ", ".join(str(n) for n in sorted(by_number))
    for i, soldier in enumerate(defn.soldiers):
        for j, target in enumerate(soldier.beats):
            loc = ("soldiers", i, "beats", j)
            if target == soldier.number:
                yield loc, f"{soldier.name} cannot beat himself (number {target}); remove it"
            elif target not in by_number:
                yield loc, f"{soldier.name} beats {target}, but no soldier has that number " \
                           f"(expected one of {known})"
            elif soldier.number in by_number[target].beats and soldier.number < target:
                yield loc, (f"{soldier.name} and {by_number[target].name} each beat the other; "
                            f"keep only the one who wins")
        if len(set(soldier.beats)) != len(soldier.beats):
            yield ("soldiers", i, "beats"), f"{soldier.name} lists the same number twice"


def check_sides(defn: OneMinuteWar) -> Iterable[tuple[Loc, str]]:
    """The two sides are told apart by name (the rules, a replay's rounds, its JSON)."""
    first, second = (side.name for side in defn.sides)
    if first == second:
        yield ("sides", 1, "name"), f"both sides are called {second}; give them different names"
    elif first.casefold() == second.casefold():
        yield ("sides", 1, "name"), (f"{second} and {first} differ only in capitals; give the sides "
                                     "different names")
