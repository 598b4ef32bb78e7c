"""What a soldier's ability text claims about whom he defeats, checked against his `beats`.

The tab is what players read in play; `beats` is what the engine and the match-up table play. A
sheet that prints both must not let them disagree, so `build` refuses a mismatch and `validate`
reports the same error. The reading is deliberately small: the soldiers a text names (by name or
number), "nobody" and "all but ..." / "every other soldier". A text that claims nothing about
defeats (the Priest's) is left alone.
"""
from __future__ import annotations

import re
from typing import Iterable

from printgen.core.source import Loc
from printgen.games.one_minute_war.model import OneMinuteWar, Soldier

NUMBER = re.compile(r"\b\d+\b")
DEFEAT = re.compile(r"\b(defeats?|beats?|kills?|slays?|wins? against|overcomes?|takes? down|outranks?)\b")
NOBODY = re.compile(r"\b(nobody|no ?one|none|no (other )?soldiers?|no-one)\b")
EVERYONE = re.compile(r"\b(all|every(one|body)?|any(one|body)?)\b")
EXCEPT = re.compile(r"\b(but|except|save|apart from|other than)\b")


def named_in(text: str, defn: OneMinuteWar) -> set[int]:
    """The soldiers a text names, by name (a whole word, any case) or by number.

    A name stands alone where no letter or digit touches it; lookarounds rather than `\\b`, so a
    name that begins or ends with a sign (`<b>&Q"`) is found too."""
    numbers = {s.number for s in defn.soldiers}
    found = {int(n) for n in NUMBER.findall(text) if int(n) in numbers}
    lowered = text.lower()
    return found | {s.number for s in defn.soldiers
                    if re.search(rf"(?<!\w){re.escape(s.name.lower())}(?!\w)", lowered)}


def claimed(soldier: Soldier, defn: OneMinuteWar) -> set[int] | None:
    """The numbers the ability says he defeats, or None where it says nothing about defeats."""
    text = soldier.ability.lower()
    others = {s.number for s in defn.soldiers} - {soldier.number}
    named = named_in(text, defn) - {soldier.number}
    says_defeat = DEFEAT.search(text) is not None
    if says_defeat and NOBODY.search(text):
        return set()
    if says_defeat and EVERYONE.search(text):
        return others - named if EXCEPT.search(text) else others | named
    return named or None


def called(numbers: Iterable[int], defn: OneMinuteWar) -> str:
    """'the Priest (1) and the Princess (2)', or 'nobody'."""
    by_number = {s.number: s for s in defn.soldiers}
    names = [f"the {by_number[n].name} ({n})" for n in sorted(numbers) if n in by_number]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def true_text(soldier: Soldier, defn: OneMinuteWar) -> str:
    """An ability that says what `beats` plays, in the bundled table's manner."""
    by_number = {s.number: s for s in defn.soldiers}
    beaten = sorted(n for n in set(soldier.beats) if n in by_number)
    others = sorted({s.number for s in defn.soldiers} - {soldier.number})
    if not beaten:
        return "Defeats nobody"
    if len(others) - len(beaten) == 1:
        spared = next(n for n in others if n not in beaten)
        return f"Defeats all but the {by_number[spared].name}"
    if len(beaten) <= 2:
        return "Defeats " + " and ".join(f"the {by_number[n].name}" for n in beaten)
    return f"Defeats {', '.join(str(n) for n in beaten[:-1])} and {beaten[-1]}"


def check_abilities(defn: OneMinuteWar) -> Iterable[tuple[Loc, str]]:
    """An ability whose claim differs from `beats`, named with a text that would be true."""
    numbers = {s.number for s in defn.soldiers}
    for i, soldier in enumerate(defn.soldiers):
        claim = claimed(soldier, defn)
        beaten = set(soldier.beats)
        if claim is None or claim == beaten or not beaten <= numbers:
            continue  # no claim, a true one, or beats with a number check_soldiers reports
        extra, missing = sorted(claim - beaten), sorted(beaten - claim)
        wrong = []
        if extra:
            wrong.append(f"says the {soldier.name} defeats {called(extra, defn)}, whom beats does not list")
        if missing:
            wrong.append(f"leaves out {called(missing, defn)}, whom beats lists")
        yield ("soldiers", i, "ability"), (
            f"the {soldier.name}'s ability '{soldier.ability}' {' and '.join(wrong)}; the tab would "
            f"say one thing and the game play another: write '{true_text(soldier, defn)}', or change beats")
