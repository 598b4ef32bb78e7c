"""A recorded game of One Minute War, one round a line (`4`, `0:3`, `1+5`, `end`).

Only the syntax is checked here; whether the rules allow a move is the engine's question."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.yamlread import utf8_text
from printgen.games.one_minute_war.engine import Fight, Move, Rules, Sacrifice

MAX_RECORD_BYTES = 1024 * 1024  # a war of a thousand rounds takes about 10 KiB
MAX_DIGITS = 6  # a soldier's number is small; longer runs of digits are refused before int() reads them
DIGITS = rf"\d{{1,{MAX_DIGITS}}}"
TOKEN = re.compile(rf"(?:(?P<fist>0)(?::(?P<folded>{DIGITS}))?|(?P<soldier>{DIGITS})(?:\+(?P<revive>{DIGITS}))?)")
SHOWN = 40  # the most of a word a message quotes


@dataclass(frozen=True)
class Line:
    """One line that says something: its number in the file, and both moves (None for `end`)."""

    number: int
    moves: tuple[Move, Move] | None


def read_record(path: Path, rules: Rules) -> tuple[str, list[Line]]:
    """The record's shown name and its lines; every malformed line raised at once."""
    shown = display_name(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise DefinitionError([Problem(shown, 0, "", f"cannot read the record ({exc.strerror})")])
    if len(raw) > MAX_RECORD_BYTES:
        raise DefinitionError([Problem(shown, 1, "", f"the record is over {MAX_RECORD_BYTES // 1024:,} "
                                       "KiB; a recorded war is one short line a round")])
    text = utf8_text(raw, shown, "save the record as UTF-8")
    lines, problems = parse(text, rules)
    if problems:
        raise DefinitionError([Problem(shown, number, "", message) for number, message in problems])
    return shown, lines


def parse(text: str, rules: Rules) -> tuple[list[Line], list[tuple[int, str]]]:
    """The lines that hold moves or `end`, and (line, message) for each that cannot be read."""
    lines: list[Line] = []
    problems: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if [w.lower() for w in words] == ["end"]:
            lines.append(Line(number, None))
            continue
        if len(words) != 2:
            problems.append((number, f"expected two moves, {rules.sides[0]}'s then {rules.sides[1]}'s, "
                                     f"such as '{example(rules)}', or 'end' (got {shown_words(words)})"))
            continue
        moves = [move_of(word, rules) for word in words]
        problems += [(number, why) for _, why in moves if why]
        if not any(why for _, why in moves):
            first, second = (move for move, _ in moves)
            assert first is not None and second is not None
            lines.append(Line(number, (first, second)))
    return lines, problems


def move_of(word: str, rules: Rules) -> tuple[Move | None, str]:
    """(the move a word writes, '') or (None, what was expected)."""
    match = TOKEN.fullmatch(word)
    numbers = set(rules.numbers)
    if match is None:
        return None, f"expected a move such as {forms(rules)} (got {shown_words([word])})"
    if match["fist"] is not None:
        folded = int(match["folded"]) if match["folded"] is not None else None
        if folded is not None and folded not in numbers:
            return None, f"{shown_words([word])}: a fist folds down one of your soldiers, {listed(rules)} (got {folded})"
        return Sacrifice(folded), ""
    soldier = int(match["soldier"])
    revive = int(match["revive"]) if match["revive"] is not None else None
    if soldier not in numbers:
        return None, f"{shown_words([word])}: no soldier has the number {soldier}; expected {listed(rules)}, or 0 for a fist"
    if revive is not None and revive not in numbers:
        return None, f"{shown_words([word])}: no soldier has the number {revive} to bring back; expected {listed(rules)}"
    return Fight(soldier, revive), ""


def listed(rules: Rules) -> str:
    numbers = [str(n) for n in rules.numbers]
    return f"{', '.join(numbers[:-1])} or {numbers[-1]}"


def example(rules: Rules) -> str:
    return f"{rules.numbers[-1]} {rules.numbers[0]}"


def forms(rules: Rules) -> str:
    """The kinds of move, with this table's numbers."""
    reviver = next(iter(rules.revivers()), None)
    others = [n for n in rules.numbers if reviver is None or n != reviver.number]
    text = f"'{rules.numbers[-1]}' (a soldier), '0:{others[0]}' (a fist, folding down soldier {others[0]})"
    if reviver is not None:
        text += f" or '{reviver.number}+{others[0]}' (the {reviver.name}, bringing back soldier {others[0]})"
    return text


def shown_words(words: list[str]) -> str:
    """The words quoted, cut short: a message names what it refused without repeating a huge paste."""
    text = " ".join(words)
    return f"'{text}'" if len(text) <= SHOWN else f"'{text[:SHOWN - 3]}...'"
