"""One Minute War's rules as a small pure engine, so replay, solver and simulation can never
disagree about a rule; it imports nothing that draws.

Points the rules leave open are settled here once (docs/one-minute-war-engine.md)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Union

if TYPE_CHECKING:
    from printgen.games.one_minute_war.model import OneMinuteWar

ENDINGS = ("all_defeated", "no_legal_move", "agreed", "unfinished")


@dataclass(frozen=True)
class Soldier:
    number: int
    name: str
    beats: frozenset[int]
    revives: bool

    @property
    def called(self) -> str:
        """'the Archer (4)': how the engine's messages name him."""
        return f"the {self.name} ({self.number})"


@dataclass(frozen=True)
class Rules:
    """What the definition says about play, as plain values (the model stays out of the engine)."""

    sides: tuple[str, str]
    soldiers: tuple[Soldier, ...]  # in number order
    max_in_a_row: int = 2
    sacrifice_only_when_behind: bool = True
    folded_can_fight: bool = False
    revives_himself: bool = False
    revives_when_defeated: bool = True

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        return tuple(s.number for s in self.soldiers)

    @cached_property
    def by_number(self) -> dict[int, Soldier]:
        return {s.number: s for s in self.soldiers}

    def soldier(self, number: int) -> Soldier:
        return self.by_number[number]

    def defeats(self, attacker: int, defender: int) -> bool:
        return defender in self.soldier(attacker).beats

    def revivers(self) -> tuple[Soldier, ...]:
        return tuple(s for s in self.soldiers if s.revives)


def rules_of(defn: OneMinuteWar) -> Rules:
    """The engine's rules for a definition whose soldier table has passed `check_soldiers`."""
    r = defn.restrictions
    soldiers = tuple(Soldier(s.number, s.name, frozenset(s.beats), s.revives)
                     for s in sorted(defn.soldiers, key=lambda s: s.number))
    return Rules((defn.sides[0].name, defn.sides[1].name), soldiers, r.max_rounds_in_a_row,
                 r.sacrifice_only_when_behind, not r.folded_soldiers_cannot_fight,
                 r.reviver_can_revive_himself, r.reviver_works_when_defeated)


@dataclass(frozen=True)
class Army:
    """One side: who stands, and which soldier was used (chosen or sacrificed) how many rounds running."""

    standing: frozenset[int]
    last: int | None = None
    streak: int = 0


@dataclass(frozen=True)
class War:
    armies: tuple[Army, Army]
    rounds: int = 0  # rounds played


def start(rules: Rules) -> War:
    every = frozenset(rules.numbers)
    return War((Army(every), Army(every)))


@dataclass(frozen=True)
class Fight:
    """A soldier shown by his number; a reviver also names whom he brings back (None: not named)."""

    soldier: int
    revive: int | None = None


@dataclass(frozen=True)
class Sacrifice:
    """A fist, with the soldier folded down for it (None: not named)."""

    soldier: int | None = None


Move = Union[Fight, Sacrifice]


@dataclass(frozen=True)
class Round:
    number: int
    moves: tuple[Move, Move]  # as played, with every choice filled in
    fallen: tuple[tuple[int, ...], tuple[int, ...]]  # folded down by the fight and the sacrifices
    revived: tuple[int | None, int | None]


class Refused(Exception):
    """A move the rules forbid: which side, which rule (a short key) and why, in words."""

    def __init__(self, side: int | None, rule: str, message: str) -> None:
        super().__init__(message)
        self.side, self.rule, self.message = side, rule, message


def barred(rules: Rules, army: Army, number: int) -> bool:
    """Whether the soldier was used in each of the last `max_in_a_row` rounds."""
    return army.last == number and army.streak >= rules.max_in_a_row


def may_sacrifice(rules: Rules, war: War, side: int) -> bool:
    behind = len(war.armies[side].standing) < len(war.armies[1 - side].standing)
    return not rules.sacrifice_only_when_behind or behind


def fighters(rules: Rules, war: War, side: int) -> list[int]:
    """The soldiers the side may choose this round."""
    army = war.armies[side]
    return [n for n in rules.numbers
            if (n in army.standing or rules.folded_can_fight) and not barred(rules, army, n)]


def offerings(rules: Rules, war: War, side: int) -> list[int]:
    """The soldiers the side may fold down for a sacrifice this round (none if it may not sacrifice)."""
    if not may_sacrifice(rules, war, side):
        return []
    army = war.armies[side]
    return [n for n in sorted(army.standing) if not barred(rules, army, n)]


def ending(rules: Rules, war: War) -> str | None:
    """How the war has ended, if it has, looked for after every round."""
    if not all(army.standing for army in war.armies):
        return "all_defeated"
    # any sacrifice folds down a soldier who could fight instead, so fighters alone say if a side can move
    if not all(fighters(rules, war, side) for side in (0, 1)):
        return "no_legal_move"
    return None


def refusal(rules: Rules, war: War, side: int, move: Move) -> Refused | None:
    """Why the rules forbid this move before the round is fought, or None."""
    army, name = war.armies[side], rules.sides[side]
    other = rules.sides[1 - side]
    if isinstance(move, Fight):
        soldier = rules.soldier(move.soldier)
        if move.soldier not in army.standing and not rules.folded_can_fight:
            return Refused(side, "folded_soldiers_cannot_fight", f"{name} cannot choose {soldier.called}: "
                           f"the {soldier.name} is folded down, and a folded-down soldier cannot fight")
        if barred(rules, army, move.soldier):
            return Refused(side, "max_rounds_in_a_row", f"{name} cannot choose {soldier.called}: "
                           f"{streak_words(rules, war, soldier)}")
        if move.revive is not None and not soldier.revives:
            able = " or ".join(s.called for s in rules.revivers()) or "nobody in this table"
            return Refused(side, "revive", f"{soldier.called} cannot bring a soldier back; only "
                           f"{able} can")
        return None
    if not may_sacrifice(rules, war, side):
        mine, theirs = len(army.standing), len(war.armies[1 - side].standing)
        return Refused(side, "sacrifice_only_when_behind", f"{name} cannot show a fist: {name} has "
                       f"{mine} soldier{'s' * (mine != 1)} standing and {other} {theirs}, and only "
                       "the side with fewer standing may sacrifice")
    if move.soldier is None:
        choices = offerings(rules, war, side)
        if len(choices) != 1:
            listed = ", ".join(str(n) for n in choices)
            return Refused(side, "sacrifice", f"{name} shows a fist without naming the soldier "
                           f"folded down; write 0:N with N one of {listed}")
        return None
    soldier = rules.soldier(move.soldier)
    if move.soldier not in army.standing:
        return Refused(side, "sacrifice", f"{name} cannot fold down {soldier.called} for a "
                       f"sacrifice: the {soldier.name} is folded down already")
    if barred(rules, army, move.soldier):
        return Refused(side, "max_rounds_in_a_row", f"{name} cannot fold down {soldier.called} for "
                       f"a sacrifice: {streak_words(rules, war, soldier)}, and a sacrifice uses the soldier "
                       "it folds down")
    return None


def streak_words(rules: Rules, war: War, soldier: Soldier) -> str:
    """Why `soldier` is barred, naming him rather than saying 'he' (a Princess is no 'he')."""
    n, who = rules.max_in_a_row, f"the {soldier.name}"
    if n == 1:
        return f"{who} was used in round {war.rounds}, and no soldier may be used two rounds running"
    rounds = f"{war.rounds - 1} and {war.rounds}" if n == 2 else f"{war.rounds - n + 1} to {war.rounds}"
    return f"{who} was used in rounds {rounds}, and no soldier may be used more than {n} rounds running"


Chooser = Callable[[int, list[int]], int]  # (side, candidates) -> the soldier brought back


def play(rules: Rules, war: War, moves: tuple[Move, Move], choose: Chooser | None = None) -> tuple[War, Round]:
    """One round; a forbidden move, or a reviver naming nobody with a choice (unless `choose`), is refused."""
    for side in (0, 1):
        refused = refusal(rules, war, side, moves[side])
        if refused is not None:
            raise refused
    # a fist that names no soldier folds down the only one it can (`refusal` made sure of one)
    played: list[Move] = [Sacrifice(offerings(rules, war, side)[0]) if move == Sacrifice() else move
                          for side, move in enumerate(moves)]
    fallen: list[set[int]] = [set(), set()]
    for side in (0, 1):
        mine, theirs = played[side], played[1 - side]
        if isinstance(mine, Sacrifice):
            assert mine.soldier is not None
            fallen[side].add(mine.soldier)
        elif isinstance(theirs, Sacrifice) or rules.defeats(theirs.soldier, mine.soldier):
            if mine.soldier in war.armies[side].standing:
                fallen[side].add(mine.soldier)
    standing = [war.armies[side].standing - fallen[side] for side in (0, 1)]
    revived: list[int | None] = [None, None]
    for side in (0, 1):
        move = played[side]
        if isinstance(move, Fight) and rules.soldier(move.soldier).revives:
            back = revival(rules, war, side, move, move.soldier in fallen[side], standing[side], choose)
            if back is not None:
                standing[side] = standing[side] | {back}
            revived[side] = back
            played[side] = Fight(move.soldier, back)
    armies = tuple(next_army(war.armies[side], standing[side], used(played[side])) for side in (0, 1))
    number = war.rounds + 1
    done = Round(number, (played[0], played[1]), (tuple(sorted(fallen[0])), tuple(sorted(fallen[1]))),
                 (revived[0], revived[1]))
    return War((armies[0], armies[1]), number), done


def used(move: Move) -> int:
    assert move.soldier is not None
    return move.soldier


def next_army(army: Army, standing: frozenset[int], used_now: int) -> Army:
    streak = army.streak + 1 if army.last == used_now else 1
    return Army(frozenset(standing), used_now, streak)


def revival_candidates(rules: Rules, reviver: int, fell: bool, standing: frozenset[int]) -> list[int]:
    """Whom a reviver who fought may bring back, once the round's soldiers have fallen."""
    if fell and not rules.revives_when_defeated:
        return []
    return [n for n in rules.numbers if n not in standing and (n != reviver or rules.revives_himself)]


def revival(rules: Rules, war: War, side: int, move: Fight, fell: bool, standing: frozenset[int],
            choose: Chooser | None) -> int | None:
    """Whom the reviver brings back: compulsory when anyone can be, and refused when named wrongly."""
    name, reviver = rules.sides[side], rules.soldier(move.soldier)
    candidates = revival_candidates(rules, move.soldier, fell, standing)
    if move.revive is None:
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        if choose is not None:
            return choose(side, candidates)
        listed = " or ".join(str(n) for n in candidates)
        raise Refused(side, "revive", f"{name}'s {reviver.name} must bring back one of {listed}; "
                      f"write {reviver.number}+N to say which")
    target = rules.soldier(move.revive)
    if move.revive in candidates:
        return move.revive
    if fell and not rules.revives_when_defeated:
        why = f"the {reviver.name} fell this round, and a fallen {reviver.name} revives nobody"
    elif move.revive == move.soldier:
        why = f"the {reviver.name} can never bring himself back"
    else:
        why = f"{target.called} is standing"
    raise Refused(side, "revive", f"{name}'s {reviver.name} cannot bring back {target.called}: {why}")


@dataclass(frozen=True)
class Result:
    """How a war ended, after which round, who stands, and who won (None: a draw, or unfinished)."""

    ended_by: str
    after_round: int
    standing: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int | None
    leader: int | None  # the side with more soldiers standing, whether or not the war is over


def result(war: War, ended_by: str) -> Result:
    counts = [len(army.standing) for army in war.armies]
    leader = None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
    standing = (tuple(sorted(war.armies[0].standing)), tuple(sorted(war.armies[1].standing)))
    return Result(ended_by, war.rounds, standing, None if ended_by == "unfinished" else leader, leader)
