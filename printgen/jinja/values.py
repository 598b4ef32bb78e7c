"""Many small templates over many rows: the values of a deck's layout.

Each expression is compiled once and rendered for every row with fresh budgets, under a time limit
that grows with the work; failures name the expression's key and the row, all reported together.
"""
from __future__ import annotations

import json
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from jinja2 import StrictUndefined, Template, TemplateSyntaxError, meta

from printgen.core.problems import DefinitionError, Problem
from printgen.jinja.plaindata import plain
from printgen.jinja.render import OutOfTime, describe, soft_deadline
from printgen.jinja.sandbox import MAX_TEXT, BoundedSandbox

SECONDS_PER_RENDER = 0.001  # far above the ~20 us a small expression takes
MAX_SECONDS = 60.0
MAX_PROBLEMS = 50  # a mistake in one column repeats on every row; the first ones say enough
MAX_BATCH_TEXT = 64 * 2**20  # characters of distinct text a batch keeps; equal texts are kept once


@dataclass(frozen=True)
class Expression:
    """One templated value and where it was written (file, line, key path)."""

    text: str
    file: str
    line: int
    path: str


@dataclass(frozen=True)
class Place:

    file: str
    line: int
    label: str  # e.g. "row 12"


def is_template(value: object) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


Check = Callable[[int, str], "str | None"]  # (expression's index, a new distinct text) -> why it is refused


def render_values(expressions: Sequence[Expression], contexts: Sequence[dict[str, Any]],
                  places: Sequence[Place], check: Check = lambda index, text: None,
                  wanted: Callable[[int, int], bool] = lambda row, index: True) -> list[list[str]]:
    """The text of every expression for every context (row), or one DefinitionError. An expression
    is rendered once per distinct set of the values it names (a back naming only `card` once for
    the whole deck); `check` sees each distinct text once and may refuse it at its row. An
    expression a row does not use (`wanted(row, index)` false: another card type's) is '' there."""
    if not expressions or not contexts:
        return [[] for _ in contexts]
    seconds = min(MAX_SECONDS, 4.0 + len(expressions) * len(contexts) * SECONDS_PER_RENDER)
    env = BoundedSandbox(autoescape=False, undefined=StrictUndefined, keep_trailing_newline=False)
    problems: list[Problem] = []
    compiled: list[tuple[Template, list[str]]] = []
    for where in expressions:
        try:
            names = sorted(meta.find_undeclared_variables(env.parse(where.text)))
            compiled.append((env.from_string(where.text), names))
        except TemplateSyntaxError as exc:
            problems.append(Problem(where.file, where.line + (exc.lineno or 1) - 1, where.path,
                                    f"template error: {exc.message}"))
    if problems:
        raise DefinitionError(problems)
    out: list[list[str]] = []
    kept = KeptTexts()
    rendered: list[dict[str, str]] = [{} for _ in expressions]  # by the values the expression names
    failed: list[dict[str, str]] = [{} for _ in expressions]  # what failed, by the same values
    repeats: list[Problem] = []  # rows meeting a failure told already: not counted against MAX_PROBLEMS
    with soft_deadline(seconds * 0.85, seconds):
        for row, (context, place) in enumerate(zip(contexts, places)):
            context, values = plain(context), []
            for index, ((template, names), where) in enumerate(zip(compiled, expressions)):
                if not wanted(row, index):
                    values.append("")
                    continue
                key = json.dumps([context.get(name) for name in names], default=str)
                if key in rendered[index]:
                    if key in failed[index]:  # the same values fail alike: told at this row too
                        repeats.append(Problem(place.file, place.line, "", f"{place.label}: {failed[index][key]}"))
                    values.append(rendered[index][key])
                    continue
                env.fresh()
                try:
                    text = template.render(**context)
                except OutOfTime as exc:  # the whole batch is over its time: stop here
                    raise DefinitionError([Problem(where.file, where.line, where.path,
                                                   f"template error: {exc}")]) from None
                except Exception as exc:  # noqa: BLE001 - a user's expression may fail in any way
                    text = ""
                    line = where.line + string_line() - 1
                    failed[index][key] = f"{where.path} ({where.file}:{line}): template error: {describe(exc)}"
                    problems.append(Problem(place.file, place.line, "", f"{place.label}: {failed[index][key]}"))
                    if len(problems) == MAX_PROBLEMS:  # the rest would repeat these: stop rendering
                        raise DefinitionError(problems + repeats)
                new = text not in kept.texts
                refused = kept.refusal(text) or (check(index, text) if new and text else None)
                if refused:  # it would repeat on every row, or the rows together are too much: stop now
                    raise DefinitionError([Problem(place.file, place.line, "", f"{place.label}: {where.path} "
                                                   f"({where.file}:{where.line}): {refused}")])
                values.append(rendered[index].setdefault(key, kept.one(text)))
            out.append(values)
    if problems:
        raise DefinitionError(problems + repeats)
    return out


def string_line() -> int:
    """The current exception's line within a template made from a string (frames '<template>')."""
    lines = [line for frame, line in traceback.walk_tb(sys.exc_info()[2]) if frame.f_code.co_filename == "<template>"]
    return lines[-1] if lines else 1


class KeptTexts:
    """The batch's rendered texts, each distinct text kept once (every row's copy of a shared back
    is the same string), and what they come to, so a deck of many rows holds what differs."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.characters = 0

    def refusal(self, text: str) -> str | None:
        """Why `text` cannot be kept, or None."""
        if len(text) > MAX_TEXT:
            return (f"template error: it made {len(text):,} characters for this row; a value may have at "
                    f"most {MAX_TEXT:,}: make the template draw less")
        if text not in self.texts and self.characters + len(text) > MAX_BATCH_TEXT:
            return (f"template error: the rows up to this one make more than {MAX_BATCH_TEXT // 2**20} MiB "
                    f"of distinct text ({self.characters + len(text):,} characters), the most one build "
                    "keeps: make the template draw less for each row, or let rows share what it draws")
        return None

    def one(self, text: str) -> str:
        found = self.texts.setdefault(text, text)
        if found is text:
            self.characters += len(text)
        return found
