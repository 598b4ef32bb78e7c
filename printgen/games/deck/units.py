"""Lengths a designer writes with their unit: "2.5in", "6.35cm", "18pt", "4mm".

A plain number is in the key's own unit (millimetres for places and sizes, points for type), so
every definition written before units keeps its meaning; a number with a unit is converted."""
from __future__ import annotations

import re
from typing import Any

from printgen.jinja.values import is_template

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
LENGTH = re.compile(r"\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z]*)\s*")
EXAMPLES = "12.5, '2.5in', '6.35cm', '18pt' or '4mm'"


def length(value: Any, unit: str = "mm") -> float:
    """`value` in `unit` ("mm" or "pt"): a number as it is, text such as '2.5in' converted.
    ValueError says, in words, what a length looks like."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    found = LENGTH.fullmatch(str(value))
    if found is None or found.group(2).lower() not in ("", *MM_PER):
        raise ValueError(expected(value, unit))
    number, given = float(found.group(1)), found.group(2).lower()
    return number if not given else number * MM_PER[given] / MM_PER[unit]


def expected(value: Any, unit: str) -> str:
    what, plain = ("a length", "millimetres") if unit == "mm" else ("a type size", "points")
    example = EXAMPLES if unit == "mm" else "10, '12pt' or '4mm'"
    shown = str(value) if len(str(value)) <= 40 else str(value)[:37] + "..."
    return (f"expected {what}: a number of {plain}, or a number with its unit (mm, cm, in or pt), "
            f"such as {example} (got {shown!r})")


SMALLEST_PT, LARGEST_PT = 7.0, 72.0  # no glyph under 7 pt (the house's print rule); 72 pt is an inch


def type_size(value: Any) -> Any:
    """A pydantic before-validator for `size` and `min_size`: points, or a length with its unit;
    outside 7-72 pt told in words, with an example."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return value
    points = length(value, "pt")
    if not SMALLEST_PT <= points <= LARGEST_PT:
        shown = f"{value!r}, {points:.3g} pt" if isinstance(value, str) else f"{points:g}"
        raise ValueError(f"expected a type size from {SMALLEST_PT:g} pt (the smallest that prints clearly) to "
                         f"{LARGEST_PT:g} pt, such as 10, '12pt' or '4mm' (got {shown})")
    return points


def literal_length(unit: str) -> Any:
    """A pydantic before-validator: a length written with its unit becomes a number of `unit`;
    a Jinja expression is left for each row, where it is read the same way."""
    def convert(value: Any) -> Any:
        if value is None or is_template(value) or isinstance(value, (int, float)):
            return value
        if isinstance(value, str):
            return length(value, unit)
        return value  # a list or a mapping: pydantic says what it expected
    return convert


WRITTEN = r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*(mm|cm|in|pt)\s*$"  # for editors: what `length` reads with a unit


def with_units(schema: dict[str, Any]) -> None:
    """A number's JSON schema that takes a length with its unit as well, so editors accept '2.5in'."""
    unit = {"type": "string", "pattern": WRITTEN}
    if "anyOf" in schema:
        if not any(choice.get("type") == "string" for choice in schema["anyOf"]):
            schema["anyOf"].append(unit)
        return
    number = {key: schema.pop(key) for key in ("type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
              if key in schema}
    schema["anyOf"] = [number, unit]
