"""What a deck's SVG templates may draw in one build, counted before any card is drawn.

svglib takes about 1.5 ms an element, so a small template whose rows each draw thousands of
elements would run for hours; counting them first (lxml and a walk, some 2 % of svglib's time)
refuses such a deck in seconds, at the row where it passes the budget.
"""
from __future__ import annotations

from pathlib import Path

from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap, dotted
from printgen.games.deck.rows import Row
from printgen.games.deck.values import RowValues, TemplateFile, yaml_key

MAX_DECK_SVG_ELEMENTS = 200_000  # in all distinct pictures of one build: about five minutes of svglib
MAX_PROBLEMS = 50


def check_template_budget(files: dict[str, TemplateFile], rows: list[Row], values: list[RowValues],
                          source: SourceMap, folder: Path | None) -> None:
    """Refuse the deck if its templates' distinct pictures draw more than MAX_DECK_SVG_ELEMENTS;
    `folder`: where linked files must lie (None: anywhere). A picture that cannot be read is a
    problem at its row, as drawing it would say."""
    from printgen.art.measure import MAX_SVG_ELEMENTS, TooCostly, measure_svg
    from printgen.art.svgtree import parse

    total, seen, problems = 0, set(), []
    for side, file in files.items():
        key = yaml_key((side, "template"))
        for row, value in zip(rows, values):
            text = value.template(side)
            if text is None or text in seen:
                continue
            seen.add(text)
            where = f"row {row.index + 1}: {dotted(key)} ({source.file}:{source.line_of(key)})"
            try:
                elements = measure_svg(parse(file.path, text.encode("utf-8")), file.path, folder).elements
            except TooCostly as exc:
                elements = MAX_SVG_ELEMENTS  # what it would have cost to find out, at most
                problems.append(Problem(row.file, row.line, "", f"{where}: the SVG it made for this row: {exc}"))
            except ValueError as exc:
                elements = 0
                problems.append(Problem(row.file, row.line, "", f"{where}: the SVG it made for this row: {exc}"))
            total += elements
            if total > MAX_DECK_SVG_ELEMENTS:
                problems.append(Problem(row.file, row.line, "", (
                    f"{where}: the distinct pictures of the rows up to this one draw {total:,} SVG "
                    f"elements; one build draws at most {MAX_DECK_SVG_ELEMENTS:,} (svglib takes about 1.5 ms "
                    f"each): make the template draw fewer elements, or let rows share one picture")))
            if total > MAX_DECK_SVG_ELEMENTS or len(problems) >= MAX_PROBLEMS:
                raise DefinitionError(problems)
    if problems:
        raise DefinitionError(problems)
