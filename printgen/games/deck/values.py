"""Which values of a deck's layout are templates, and their text for every row, rendered in
one batch (printgen.jinja.values)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printgen.core.problems import display_name
from printgen.core.source import SourceMap, dotted
from printgen.games.deck.budget import TemplateBudget
from printgen.games.deck.model import Deck, Element
from printgen.games.deck.rows import Row
from printgen.jinja.values import Expression, Place, is_template, render_values

FIELDS = ("x", "y", "width", "height", "radius", "fill", "stroke", "stroke_width", "src", "text", "colour", "d")
Key = tuple[Any, ...]  # ("face", 3, "x"), ("face", 3, "points", 1, 0), ("back", "background"), ("name",)
FALSE = {"", "false", "0", "no", "none"}


def condition(text: str) -> str:
    """A `when:` condition as a template printing 1 when it holds (written bare: 'cost > 2')."""
    return text if is_template(text) else f"{{% if ({text}) %}}1{{% endif %}}"


def templated(defn: Deck, files: dict[str, "TemplateFile"]) -> dict[Key, str]:
    """Every templated value by key, a side's SVG template file under (side, "template")."""
    found: dict[Key, str] = {}
    for side, file in files.items():
        found[(side, "template")] = file.text
    if defn.name:
        found[("name",)] = defn.name if is_template(defn.name) else "{{ " + defn.name + " }}"
    if is_template(defn.back.name):
        found[("back", "name")] = defn.back.name or ""
    for side in ("face", "back"):
        layout = getattr(defn, side)
        if is_template(layout.background):
            found[(side, "background")] = layout.background
        for i, el in enumerate(layout.layout):
            if el.when is not None:
                found[(side, i, "when")] = condition(el.when)
            for key in FIELDS:
                if is_template(getattr(el, key)):
                    found[(side, i, key)] = getattr(el, key)
            for k, point in enumerate(el.points or []):
                for j, coordinate in enumerate(point):
                    if is_template(coordinate):
                        found[(side, i, "points", k, j)] = coordinate
    return found


def yaml_key(key: Key) -> tuple[Any, ...]:
    """Where a value sits in the YAML: ("face", 3, "x") is face.layout[3].x."""
    if key[0] in ("face", "back") and isinstance(key[1], int):
        return (key[0], "layout", *key[1:])
    return key


@dataclass(frozen=True)
class TemplateFile:
    """A side's SVG template: its path (to name it and find its relative links) and its text."""

    path: Path
    text: str


@dataclass
class RowValues:
    literal: Deck
    rendered: dict[Key, str]

    def element(self, side: str, index: int) -> Element:
        return getattr(self.literal, side).layout[index]

    def get(self, side: str, index: int, key: str) -> Any:
        el = self.element(side, index)
        if key == "points":
            return [tuple(self.rendered.get((side, index, "points", k, j), c) for j, c in enumerate(p))
                    for k, p in enumerate(el.points or [])]
        return self.rendered.get((side, index, key), getattr(el, key))

    def element_key(self, side: str, index: int) -> tuple[Any, ...]:
        """Which element, and the text of its templated values: all that decides its drawing."""
        return (side, index, *((key, text) for key, text in self.rendered.items() if key[:2] == (side, index)))

    def shown(self, side: str, index: int) -> bool:
        text = self.rendered.get((side, index, "when"))
        return text is None or text.strip().lower() not in FALSE

    def template(self, side: str) -> str | None:
        """The side's SVG template rendered for this row, or None when the side has none."""
        return self.rendered.get((side, "template"))

    def background(self, side: str) -> Any:
        return self.rendered.get((side, "background"), getattr(self.literal, side).background)


def context(row: Row, card: dict[str, float]) -> dict[str, Any]:
    return {"card": card, "row": dict(row.values), "number": row.index + 1, "copies": row.copies,
            **row.values}


def row_values(defn: Deck, rows: list[Row], source: SourceMap, files: dict[str, TemplateFile] | None = None,
               folder: Path | None = None) -> list[RowValues]:
    """Each row's values: its templates rendered (all rows in one batch), the rest literal; the
    pictures of SVG templates measured against the deck's budget (`folder`: where their links lie)."""
    files = files or {}
    keys = templated(defn, files)

    def where(key: Key) -> Expression:
        if key[1:] == ("template",):
            return Expression(keys[key], display_name(files[key[0]].path), 1, f"{key[0]}.template")
        return Expression(keys[key], source.file, source.line_of(yaml_key(key)), dotted(yaml_key(key)))

    expressions = [where(key) for key in keys]
    places = [Place(row.file, row.line, f"row {row.index + 1}") for row in rows]
    width, height = defn.card.dimensions
    card = {"width": width, "height": height, "safe": defn.card.safe, "bleed": defn.card.most_bleed}
    texts = render_values(expressions, [context(row, card) for row in rows], places,
                          TemplateBudget(list(keys), {side: file.path for side, file in files.items()}, folder))
    return [RowValues(defn, dict(zip(keys, values))) for values in texts]
