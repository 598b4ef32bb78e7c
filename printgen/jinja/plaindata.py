"""What a template is given: plain data copied out of the definition, never live objects.

A template from a stranger that reached a model or a loader could call methods, some of which write
files; so the context is rebuilt as dicts, lists, strings, numbers, booleans and None.
"""
from __future__ import annotations

import dataclasses
import enum
import math
from typing import Any, Mapping

from pydantic import BaseModel

Plain = Any  # None | bool | int | float | str | list[Plain] | dict[str, Plain]
PLAIN_SCALARS = (bool, int, float, str, type(None))


def plain(value: Any) -> Plain:
    """A deep copy of `value` made of plain data only; TypeError for anything else (printgen's bug)."""
    kind = type(value)
    if value is None or kind is str or kind is int or kind is bool:
        return value
    if kind is float:
        return value if math.isfinite(value) else str(value)
    if kind is dict:  # the common containers first: a piece's data is thousands of them
        return {str(key): plain(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [plain(item) for item in value]
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, int):  # bool has no subclasses: it was returned above
        return int(value)
    if isinstance(value, float):
        return plain(float(value))
    if isinstance(value, str):  # a file name that carries its art, a Markup string: text only
        return str.__str__(value)
    if isinstance(value, BaseModel):
        names = [*type(value).model_fields, *type(value).model_computed_fields]  # computed: text only
        return {name: plain(getattr(value, name)) for name in names}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    raise TypeError(f"{type(value).__name__} is not plain data and cannot be given to a template")


def is_plain(value: Any) -> bool:
    if type(value) in PLAIN_SCALARS:
        return True
    if type(value) is list:
        return all(is_plain(item) for item in value)
    if type(value) is dict:
        return all(type(key) is str and is_plain(item) for key, item in value.items())
    return False
