"""Validate loaded YAML into a typed model; every problem at once, as `file:line: key: expected ...`."""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping, Optional, TypeVar

from pydantic import BaseModel, ValidationError

from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import Loc, SourceMap, commented_value, quote_hint

Model = TypeVar("Model", bound=BaseModel)


Check = Callable[[Model], Iterable[tuple[Loc, str]]]
# reads the files a definition names: those of the model validated from the data, or (None: the data
# has wrong values) those in its parts that are right; gives their problems
Load = Callable[[type[BaseModel], Any, Optional[BaseModel]], Iterable[tuple[Loc, str]]]


def validate(model: type[Model], data: Any, source: SourceMap, checks: Iterable[Check[Model]] = (),
             load: Load | None = None) -> Model:
    """Validate `data` into `model` (its structure), then `load` the files it names (a step of its
    own, never inside a validator), then run the game's checks; raise with every problem at once."""
    from printgen.core.textcheck import unprintable  # imported here: textcheck builds on this module

    text = unprintable(data, source)
    try:
        result = model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        problems = [source.problem(err["loc"], with_comment_hint(explain(err, model, err["loc"]), err, source))
                    for err in errors]
        problems += [source.problem(loc, message) for loc, message in (load(model, data, None) if load else ())]
        if not text:  # the game's checks on the parts that are right, so no problem waits for a rerun
            problems += checked_without(model, data, source, checks, load, errors)
        paths = {p.path for p in problems}
        raise DefinitionError(source.hints + problems + [p for p in text if p.path not in paths])
    unread = list(load(model, data, result)) if load is not None else []
    problems = [source.problem(loc, message) for loc, message in unread]
    if text:  # the game checks measure and quote text, so they run only on printable text
        paths = {p.path for p in problems}
        raise DefinitionError(source.hints + problems + [p for p in text if p.path not in paths])
    problems += checked(result, source, checks, [tuple(loc) for loc, _ in unread])
    if problems:
        raise DefinitionError(source.hints + problems)
    return result


def checked(result: Model, source: SourceMap, checks: Iterable[Check[Model]],
            holes: list[tuple[Any, ...]]) -> list[Problem]:
    """The game's checks' problems, but those about a value left out or not read (`holes`)."""
    return [source.problem(loc, message) for check in checks for loc, message in check(result)
            if not any(overlaps(tuple(loc), hole) for hole in holes)]


def with_comment_hint(message: str, err: Mapping[str, Any], source: SourceMap) -> str:
    """Say how to quote a value YAML read as a comment (`colour: #1f5f99`)."""
    if err.get("input", "") is not None or err["type"] == "missing":
        return message
    value = commented_value(source.text_of(source.line_of(err["loc"])))
    if value is None:
        return message
    return f"{message.split('; ')[0]}: {quote_hint(value)}"


def checked_without(model: type[Model], data: Any, source: SourceMap, checks: Iterable[Check[Model]],
                    load: Load | None, errors: list[Any]) -> list[Problem]:
    """The game's checks with every wrong value left out, when each can be, so their problems
    need not wait for a rerun; problems about the left-out values (or files not read) are dropped."""
    holes = [tuple(err["loc"]) for err in errors]
    if not all(removable(model, hole, err["type"]) for hole, err in zip(holes, errors)):
        return []
    trimmed = data
    for hole in holes:
        trimmed = without(trimmed, hole)
    try:
        result = model.model_validate(trimmed)
    except ValidationError:
        return []
    unread = [tuple(loc) for loc, _ in (load(model, trimmed, result) if load is not None else ())]  # told above
    return checked(result, source, checks, holes + unread)


def removable(model: type[BaseModel], loc: Loc, kind: str) -> bool:
    """An unknown key or a field with a default; not a key in a mapping of names, whose users would
    then look wrong."""
    if not loc or not isinstance(loc[-1], str):
        return False
    if kind == "extra_forbidden":
        return True
    field = field_at(model, loc)
    return field is not None and not field.is_required()


def without(data: Any, loc: Loc) -> Any:
    """`data` with the key at `loc` left out, copying only the mappings and lists on the way."""
    if not loc:
        return data
    head, rest = loc[0], loc[1:]
    if isinstance(data, dict) and head in data:
        copy = dict(data)
        if rest:
            copy[head] = without(data[head], rest)
        else:
            del copy[head]
        return copy
    if isinstance(data, list) and isinstance(head, int) and 0 <= head < len(data) and rest:
        items = list(data)
        items[head] = without(data[head], rest)
        return items
    return data


def overlaps(loc: tuple[Any, ...], hole: tuple[Any, ...]) -> bool:
    shorter = min(len(loc), len(hole))
    return loc[:shorter] == hole[:shorter]


def explain(err: Mapping[str, Any], model: type[BaseModel], loc: Loc) -> str:
    kind, got = err["type"], err.get("input")
    if kind == "extra_forbidden":
        allowed = allowed_keys(model, loc[:-1])
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        return f"unknown key{hint}"
    if kind == "missing":
        return "this key is required but missing"
    if kind == "invalid_key":
        return "expected a key made of words; put it in quotes if it is meant as a name, or remove it"
    message = err["msg"].replace("Input should be", "expected").replace("Value error, ", "")
    ctx = err.get("ctx", {})
    if kind in NUMBER_LIMITS:
        message = f"expected a number {NUMBER_LIMITS[kind]} {compact(ctx.get(LIMIT_KEYS[kind]))}"
    elif kind == "string_pattern_mismatch":
        message = f"expected {field_description(model, loc) or 'text matching ' + str(ctx.get('pattern'))}"
    elif kind == "string_too_long":
        message = f"expected at most {ctx.get('max_length')} characters"
    elif kind == "string_too_short":
        message = "expected some text, not an empty string"
    elif kind == "too_short":
        return f"expected at least {ctx.get('min_length')} item(s) (got {ctx.get('actual_length')})"
    elif kind == "too_long":
        count = ctx.get("actual_length")
        if count is None and isinstance(got, (dict, list)):  # pydantic does not count a mapping's
            count = len(got)  # entries
        return f"expected at most {ctx.get('max_length')} item(s) (got {count})"
    if kind == "finite_number" or (isinstance(got, float) and not math.isfinite(got)):
        message = "expected a finite number"
    message = TYPE_WORDS.get(kind, message)
    tag = getattr(getattr(got, "tag", None), "value", None)  # ruamel keeps `!tag` on what it marks
    if isinstance(tag, str) and tag and kind.endswith("_type"):
        return (f"{message}, but the value carries a YAML tag ({tag}) that printgen does not read; "
                "remove the tag")
    if got is None:
        if loc and isinstance(loc[-1], int):
            return f"{message}, but this list item is empty; write it out or remove the '-' line"
        return f"{message}, but the key has no value; write one after the colon"
    if kind == "bool_type" and isinstance(got, str):
        return f"{message} (got {shorten(got)}); YAML 1.2 reads yes, no, on and off as text"
    if kind == "string_type" and not isinstance(got, (str, dict, list)):
        return f"{message} (got {shorten(got)}); YAML reads that as a value, so put it in quotes"
    if kind == "value_error" and "(got " in message:  # a check that quotes the value itself, with a hint after
        return message
    return f"{message} (got {shorten(got)})"


TYPE_WORDS = {"model_type": "expected a mapping of keys", "dict_type": "expected a mapping of keys",
              "list_type": "expected a list", "bool_type": "expected true or false",
              "string_type": "expected text", "int_type": "expected a whole number"}
NUMBER_LIMITS = {"greater_than": "greater than", "greater_than_equal": "of at least",
                 "less_than": "less than", "less_than_equal": "of at most"}
LIMIT_KEYS = {"greater_than": "gt", "greater_than_equal": "ge", "less_than": "lt", "less_than_equal": "le"}


def field_description(model: type[BaseModel], loc: Loc) -> str | None:
    """The field's description, or one inside Annotated[...], also within list[...] or dict[...]."""
    field = field_at(model, loc)
    return None if field is None else field.description or found_in(field.annotation, lambda kind: next(
        (meta.description for meta in getattr(kind, "__metadata__", ()) if getattr(meta, "description", None)), None))


def compact(value: Any) -> str:
    """0.0 -> '0', 2.50 -> '2.5': limits read the way a person would write them."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def shorten(value: Any) -> str:
    if isinstance(value, bool):  # as the YAML spells it
        return "true" if value else "false"
    text = repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, (dict, list)):
        text = type(value).__name__.replace("Commented", "").lower()
        text = {"map": "a mapping", "seq": "a list", "dict": "a mapping", "list": "a list"}.get(text, text)
    return text if len(text) <= 40 else text[:37] + "..."


def allowed_keys(model: type[BaseModel], loc: Loc) -> list[str]:
    if not [part for part in loc if not isinstance(part, int)]:
        return list(model.model_fields)
    field = field_at(model, loc)
    return list(getattr(inner_model(field.annotation), "model_fields", {})) if field is not None else []


def field_at(model: type[BaseModel], loc: Loc) -> Any:
    """The field a key path names through nested models; None when a key is not a field."""
    current: Any = model
    field = None
    for part in loc:
        if isinstance(part, int):
            continue
        field = getattr(current, "model_fields", {}).get(part)
        if field is None:
            return None
        current = inner_model(field.annotation)
    return field


def inner_model(annotation: Any) -> Any:
    return found_in(annotation, lambda kind: kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None)


def found_in(annotation: Any, pick: Callable[[Any], Any]) -> Any:
    """`pick(annotation)`, else the first thing it picks among the type's arguments, depth first."""
    found = pick(annotation)
    for arg in getattr(annotation, "__args__", ()) if found is None else ():
        found = found_in(arg, pick)
        if found is not None:
            break
    return found
