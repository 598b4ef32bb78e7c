"""Which values of a deck's layout are templates, and their text for every row, rendered in
one batch (printgen.jinja.values).

What a deck's SVG templates may draw in one build is counted as their rows are rendered: svglib
takes about 1.5 ms an element, so a small template whose rows each draw thousands of elements would
run for hours; counting each distinct picture as it is rendered (lxml and a walk, some 2 % of
svglib's time) refuses such a deck in seconds, at the row where it passes the budget.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from jinja2 import TemplateSyntaxError, meta

from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.source import SourceMap, dotted
from printgen.games.deck.layouts import Resolved, choices, deck_layouts, prefix_of
from printgen.games.deck.model import Deck, Element
from printgen.games.deck.rows import Row
from printgen.jinja.sandbox import BoundedSandbox
from printgen.jinja.values import MAX_PROBLEMS, Expression, Place, is_template, render_values

FIELDS = ("x", "y", "width", "height", "radius", "fill", "stroke", "stroke_width", "src", "text", "colour", "d",
          "rotate", "opacity")
Key = tuple[Any, ...]  # ("face", 3, "x"), ("face", 3, "points", 1, 0), ("back", "background"), ("name",);
# before a row's layouts are known, a layout's prefix stands first: ("layouts.ship", 3, "x")
FALSE = {"", "false", "0", "no", "none"}
MAX_DECK_SVG_ELEMENTS = 200_000  # in all distinct pictures of one build: about five minutes of svglib


def runs(numbers: Iterable[int]) -> list[list[int]]:
    """Consecutive numbers as [first, last]: 1, 2, 3, 7 -> [1, 3], [7, 7]."""
    found: list[list[int]] = []
    for n in numbers:
        if found and n == found[-1][1] + 1:
            found[-1][1] = n
        else:
            found.append([n, n])
    return found


def condition(text: str) -> str:
    """A `when:` condition as a template printing 1 when it holds (written bare: 'cost > 2')."""
    return text if is_template(text) else f"{{% if ({text}) %}}1{{% endif %}}"


def templated(defn: Deck, files: dict[str, "TemplateFile"], layouts: dict[str, Resolved]) -> dict[Key, str]:
    """Every templated value by key, a layout's SVG template file under (prefix, "template")."""
    found: dict[Key, str] = {(prefix, "template"): file.text for prefix, file in files.items()}
    if defn.name:
        found[("name",)] = defn.name if is_template(defn.name) else "{{ " + defn.name + " }}"
    if is_template(defn.back.name):
        found[("back", "name")] = defn.back.name or ""
    for prefix, layout in layouts.items():
        if is_template(layout.background):
            found[(prefix, "background")] = str(layout.background)
        for i, placed in enumerate(layout.elements):
            el = placed.element
            if el.when is not None:
                found[(prefix, i, "when")] = condition(el.when)
            for key in FIELDS:
                if is_template(getattr(el, key)):
                    found[(prefix, i, key)] = getattr(el, key)
            for k, point in enumerate(el.points or []):
                for j, coordinate in enumerate(point):
                    if is_template(coordinate):
                        found[(prefix, i, "points", k, j)] = str(coordinate)
            for j, coordinate in enumerate(el.origin or []):
                if is_template(coordinate):
                    found[(prefix, i, "origin", j)] = str(coordinate)
    return found


def located(layouts: dict[str, Resolved], key: Key) -> tuple[Any, ...]:
    """Where a value sits in the YAML: ("face", 3, "x") is face.layout[3].x, and an element a
    layout inherits is where its parent has it, layouts.base.layout[3].x."""
    layout = layouts.get(key[0]) if isinstance(key[0], str) and len(key) > 1 else None
    if layout is None:
        return key
    if isinstance(key[1], int):
        placed = layout.elements[key[1]]
        return (*placed.where_of(key[2]), *key[3:]) if len(key) > 2 else placed.where
    if key[1] == "background":
        return layout.background_where
    if key[1] == "template":
        return layout.template_where
    return key


@dataclass(frozen=True)
class TemplateFile:
    """A side's SVG template: its path (to name it and find its relative links) and its text."""

    path: Path
    text: str


@dataclass
class RowValues:
    """One row's values: `rendered` by side ("face", 3, "x"), and the layout each side draws."""

    rendered: dict[Key, str]
    sides: dict[str, Resolved]

    def element(self, side: str, index: int) -> Element:
        return self.sides[side].elements[index].element

    def get(self, side: str, index: int, key: str) -> Any:
        el = self.element(side, index)
        if key == "points":
            return [tuple(self.rendered.get((side, index, "points", k, j), c) for j, c in enumerate(p))
                    for k, p in enumerate(el.points or [])]
        if key == "origin" and el.origin is not None:
            return [self.rendered.get((side, index, "origin", j), c) for j, c in enumerate(el.origin)]
        return self.rendered.get((side, index, key), getattr(el, key))

    def element_key(self, side: str, index: int) -> tuple[Any, ...]:
        """Which element (where it is written), and the text of its templated values: all that
        decides its drawing, whichever layout of whichever row draws it."""
        placed = self.sides[side].elements[index]
        return (placed.where, placed.changes,
                *((key, text) for key, text in self.rendered.items() if key[:2] == (side, index)))

    def shown(self, side: str, index: int) -> bool:
        text = self.rendered.get((side, index, "when"))
        return text is None or text.strip().lower() not in FALSE

    def background(self, side: str) -> Any:
        return self.rendered.get((side, "background"), self.sides[side].background)


@dataclass
class TemplateBudget:
    """A `render_values` check: each distinct picture an SVG template makes is measured, and the
    deck refused once they draw more than MAX_DECK_SVG_ELEMENTS, or one costs more than art may."""

    keys: list[tuple[Any, ...]]  # the batch's expressions' keys, in order: ("back", "template"), ...
    templates: dict[str, Path]  # each side's SVG template file
    folder: Path | None  # where linked files must lie (None: anywhere)
    total: int = 0

    def __call__(self, index: int, text: str) -> str | None:
        from printgen.art.measure import TooCostly, measure_svg
        from printgen.art.svg import undrawable_text
        from printgen.art.svgtree import parse

        key = self.keys[index]
        if key[1:] != ("template",):
            return None
        path = self.templates[key[0]]
        try:
            tree = parse(path, text.encode("utf-8"))
            self.total += measure_svg(tree, path, self.folder).elements
        except TooCostly as exc:
            return f"the SVG it made for this row: {exc}"
        except ValueError:  # not SVG at all: drawing the row says so, at every row it happens
            return None
        boxed = undrawable_text(tree)
        if boxed is not None:
            return f"the SVG it made for this row, at its line {boxed[0]}: {boxed[1]}"
        if self.total > MAX_DECK_SVG_ELEMENTS:
            return (f"the distinct pictures of the rows up to this one draw {self.total:,} SVG elements; one "
                    f"build draws at most {MAX_DECK_SVG_ELEMENTS:,} (svglib takes about 1.5 ms each): make "
                    "the template draw fewer elements, or let rows share one picture")
        return None


def row_contexts(defn: Deck, rows: list[Row]) -> list[dict[str, Any]]:
    """What a row's templates and conditions (`when:`, `--where`) see: its columns by name, `row`,
    `number`, `copies` and the card's size."""
    width, height = defn.card.dimensions
    card = {"width": width, "height": height, "safe": defn.card.safe, "bleed": defn.card.most_bleed}
    return [{"card": card, "row": dict(row.values), "number": row.index + 1, "copies": row.copies, **row.values}
            for row in rows]


def row_values(defn: Deck, rows: list[Row], source: SourceMap, files: dict[str, TemplateFile],
               folder: Path | None) -> list[RowValues]:
    """Each row's values: its templates rendered (all rows in one batch), the rest literal; the
    pictures of SVG templates measured against the deck's budget (`folder`: where their links lie).
    Each row renders only the values of the layouts it draws."""
    layouts = deck_layouts(defn)
    keys = templated(defn, files, layouts)
    contexts = row_contexts(defn, rows)
    places = [Place(row.file, row.line, f"row {row.index + 1}") for row in rows]
    sides = chosen_layouts(defn, rows, source, layouts, contexts, places)

    def where(key: Key) -> Expression:
        if key[1:] == ("template",):
            return Expression(keys[key], display_name(files[key[0]].path), 1, dotted(located(layouts, key)))
        return Expression(keys[key], source.file, source.line_of(located(layouts, key)),
                          dotted(located(layouts, key)))

    order = list(keys)

    def wanted(row: int, index: int) -> bool:
        prefix = order[index][0]
        return prefix not in layouts or any(side.prefix == prefix for side in sides[row].values())

    expressions = [where(key) for key in keys]
    unknown, skipped = unknown_names(expressions, contexts, places, wanted)
    with told_with(unknown):  # the other values still rendered, so their problems come in the same run
        texts = render_values(expressions, contexts, places,
                              TemplateBudget(order, {prefix: file.path for prefix, file in files.items()}, folder),
                              lambda row, index: index not in skipped and wanted(row, index))
    return [RowValues(by_side(order, values, chosen, layouts), chosen)
            for values, chosen in zip(texts, sides)]


def by_side(keys: list[Key], values: list[str], sides: dict[str, Resolved],
            layouts: dict[str, Resolved]) -> dict[Key, str]:
    """A row's rendered values keyed by the side drawing them; a named back's name kept too, so
    rows share a back only when it is the same layout rendered the same."""
    rendered: dict[Key, str] = {}
    for key, text in zip(keys, values):
        if key[0] not in layouts:
            rendered[key] = text
            continue
        for side, layout in sides.items():
            if layout.prefix == key[0]:
                rendered[(side,) + key[1:]] = text
    if sides["back"].name is not None:
        rendered[("back", "layout")] = sides["back"].name
    return rendered


def chosen_layouts(defn: Deck, rows: list[Row], source: SourceMap, layouts: dict[str, Resolved],
                   contexts: list[dict[str, Any]], places: list[Place]) -> list[dict[str, Resolved]]:
    """Each row's face and back layouts: written in place, named, or named by an expression over
    the row; a name that is no layout is told at its row, every such row at once."""
    fixed: dict[str, Resolved] = {}
    asked: list[tuple[str, str]] = []  # (side, expression)
    for side in ("face", "back"):
        given = getattr(defn, f"{side}_layout")
        if given is None:
            fixed[side] = layouts[side]
        elif not is_template(given):
            fixed[side] = layouts[prefix_of(given)]
        else:
            asked.append((side, given))
    if not asked:
        return [fixed] * len(rows)
    lines = {side: source.line_of((f"{side}_layout",)) for side, _ in asked}
    expressions = [Expression(text, source.file, lines[side], f"{side}_layout") for side, text in asked]
    unknown, skipped = unknown_names(expressions, contexts, places)
    with told_with(unknown):
        texts = render_values(expressions, contexts, places, wanted=lambda row, index: index not in skipped)
    result: list[dict[str, Resolved]] = []
    problems: list[Problem] = []
    for row, values in zip(rows, texts):
        sides = dict(fixed)
        for (side, _), text in zip(asked, values):
            name = text.strip()
            if prefix_of(name) in layouts:
                sides[side] = layouts[prefix_of(name)]
            elif len(problems) < MAX_PROBLEMS:
                said = f"layout {name!r} is not one of" if name else "no layout is named; expected one of"
                problems.append(Problem(row.file, row.line, "", f"row {row.index + 1}: {side}_layout "
                                        f"({source.file}:{lines[side]}): {said} {choices(defn)}"))
        result.append(sides)
    if problems:
        raise DefinitionError(problems)
    return result


CONTEXT = ("row", "number", "copies", "card")  # what every row's templates see besides its columns


@contextmanager
def told_with(problems: list[Problem]) -> Iterator[None]:
    """Raise `problems` after the block, together with any the block raises."""
    try:
        yield
    except DefinitionError as exc:
        raise DefinitionError(rows_folded(problems + exc.problems)) from None
    if problems:
        raise DefinitionError(problems)


def unknown_names(expressions: list[Expression], contexts: list[dict[str, Any]], places: list[Place],
                  wanted: Callable[[int, int], bool] = lambda row, index: True) -> tuple[list[Problem], set[int]]:
    """A name an expression uses that no row has (`{{ nmae }}`): told once, at the first row it
    affects, naming those rows, the columns there are and the nearest; a name some rows have is
    left to each row's render, where `is defined` may be asking for it. Also the expressions told,
    which are then not rendered."""
    env = BoundedSandbox()
    have = set(env.globals).union(*contexts) if contexts else set(env.globals)
    columns = [name for name in dict.fromkeys(k for context in contexts for k in context) if name not in CONTEXT]
    problems: list[Problem] = []
    skipped: set[int] = set()
    for index, where in enumerate(expressions):
        try:
            names = sorted(meta.find_undeclared_variables(env.parse(where.text)) - have)
        except TemplateSyntaxError:  # told by render_values, at its line
            continue
        for name in names:
            if re.search(rf"\b{re.escape(name)}\s+is\s+(?:not\s+)?(?:un)?defined\b", where.text):
                continue
            rows = [row for row in range(len(contexts)) if wanted(row, index)]
            if not rows:
                continue
            first = places[rows[0]]
            nearest = difflib.get_close_matches(name, [*columns, *CONTEXT], n=1, cutoff=0.6)
            used = re.search(rf"\b{re.escape(name)}\b", where.text)
            offset = where.text[:used.start()].count("\n") if used else 0
            problems.append(Problem(first.file, first.line, "", (
                f"{rows_named([row + 1 for row in rows])}: {where.path} ({where.file}:{where.line + offset}): "
                f"'{name}' is not a column; the columns are {', '.join(columns) or 'none'} "
                f"(and {', '.join(CONTEXT[:-1])} and {CONTEXT[-1]})"
                + (f"; did you mean '{nearest[0]}'?" if nearest else ""))))
            skipped.add(index)
    return problems, skipped


ROW_SAID = re.compile(r"row (\d+): (.*)", re.DOTALL)


def rows_folded(problems: list[Problem]) -> list[Problem]:
    """One problem for a fault that many rows share word for word (a mistake in the layout itself,
    most likely), told at the first of them and naming them all, not once a row."""
    rows: dict[tuple[str, str], list[int]] = {}
    first: dict[tuple[str, str], Problem] = {}
    order: list[Problem | tuple[str, str]] = []
    for problem in problems:
        said = ROW_SAID.fullmatch(problem.message)
        if said is None:
            order.append(problem)
            continue
        key = (problem.file, said.group(2))
        if key not in rows:
            rows[key], first[key] = [], problem
            order.append(key)
        rows[key].append(int(said.group(1)))
    return [item if isinstance(item, Problem) else
            replace(first[item], message=f"{rows_named(rows[item])}: {item[1]}") for item in order]


def rows_named(numbers: list[int]) -> str:
    """'row 3', or 'rows 1-4, 7 and 9-12' (ranges of consecutive rows)."""
    if len(numbers) == 1:
        return f"row {numbers[0]}"
    named = [f"{a:,}" if a == b else f"{a:,}-{b:,}" for a, b in runs(sorted(numbers))]
    return "rows " + (named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}")
