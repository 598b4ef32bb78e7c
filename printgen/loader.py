"""Load a YAML definition and validate it into a typed model, keeping line numbers for errors.

ruamel.yaml's round-trip loader keeps the line of every key and item, so a pydantic error's `loc`
can be turned back into `file:line: key.path`. YAML 1.2 is used, so `yes`/`no` stay strings and a
duplicate key is an error rather than a silent overwrite.
"""
from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from .problems import DefinitionError, Problem, display_name

Model = TypeVar("Model", bound=BaseModel)
Loc = Sequence[str | int]

MAX_DEFINITION_BYTES = 1024 * 1024  # a hand-written game is a few KiB; ruamel reads ~600 KiB a second
MAX_NODES = 10_000  # values, keys and lists: the bundled games have under 500; ruamel reads ~9,000 a second
MAX_INTEGER = 10 ** 15  # counts, sizes and seeds are far smaller; every such integer is exact as a float


class SourceMap:
    """Answers 'which line holds this key path?' for a loaded document."""

    def __init__(self, file: str, root: Any) -> None:
        self.file = file
        self.root = root
        self.hints: list[Problem] = []  # likely causes, reported whenever validation fails

    def line_of(self, loc: Loc) -> int:
        """1-based line of the deepest node along `loc` that exists in the document."""
        node, line = self.root, 1
        for part in loc:
            if isinstance(node, CommentedMap) and part not in node:  # pydantic writes a key None as 'None'
                part = next((key for key in node if str(key) == str(part)), part)
            if isinstance(node, CommentedMap) and part in node:
                line = node.lc.key(part)[0] + 1
                node = node[part]
            elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
                line = node.lc.item(part)[0] + 1
                node = node[part]
            else:
                break
        return line

    def problem(self, loc: Loc, message: str) -> Problem:
        return Problem(self.file, self.line_of(loc), dotted(loc), message)


def dotted(loc: Loc) -> str:
    """('soldiers', 2, 'name') -> 'soldiers[2].name'."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def read_yaml(path: Path) -> tuple[Any, SourceMap]:
    """Parse one YAML file; syntax errors and duplicate keys become located problems."""
    shown = display_name(path)
    try:
        with path.open("rb") as handle:  # never more than the cap plus one byte in memory
            raw = handle.read(MAX_DEFINITION_BYTES + 1)
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise DefinitionError([Problem(shown, 0, "", f"cannot read the file ({exc.strerror})")])
    if len(raw) > MAX_DEFINITION_BYTES:
        raise DefinitionError([Problem(shown, 1, "", f"the file is {-(-max(size, len(raw)) // 1024):,} KiB, but a "
                                       f"definition may be at most {MAX_DEFINITION_BYTES // 1024:,} KiB; "
                                       f"check that this is the definition you meant")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DefinitionError([Problem(shown, line, "", f"byte 0x{raw[exc.start]:02X} is not UTF-8 text; "
                                       "save the file as UTF-8 in your editor")])
    deep = bracket_depth_line(text)
    if deep is not None:  # ruamel's scanner slows down with the square of such nesting
        raise DefinitionError([Problem(shown, deep, "", TOO_DEEP)])
    directive = other_yaml_version(text)
    if directive is not None:
        raise DefinitionError([Problem(shown, directive[0], "", f"this file asks for YAML {directive[1]}, "
                                       "but printgen reads YAML 1.2 only (where yes, no, on and off are "
                                       "text and 0777 is a decimal number); remove the %YAML line")])
    yaml = YAML(typ="rt")
    yaml.version = (1, 2)
    yaml.allow_duplicate_keys = False
    yaml.Composer = BoundedComposer
    runaway = runaway_quote(text)
    try:
        data = yaml.load(text)
    except BoundExceeded as exc:
        raise DefinitionError([Problem(shown, exc.line, exc.path, exc.message)])
    except MarkedYAMLError as exc:
        line, what = explain_yaml_error(exc)
        if runaway and runaway[0] <= line:
            line, what = runaway[0], RUNAWAY.format(*runaway)
        raise DefinitionError([Problem(shown, line, "", f"invalid YAML: {what}")])
    except ReaderError as exc:  # a character YAML does not allow anywhere, such as a raw control byte
        line = text[:max(exc.position, 0)].count("\n") + 1
        raise DefinitionError([Problem(shown, line, "", f"invalid YAML: the character U+{exc.character:04X} "
                                       "is not allowed in a YAML file; remove it (write \\u escapes inside "
                                       "double quotes for special characters)")])
    except YAMLError as exc:
        raise DefinitionError([Problem(shown, 1, "", f"invalid YAML: {first_line(str(exc))}")])
    except RecursionError:
        raise DefinitionError([Problem(shown, 1, "", TOO_DEEP)])
    try:
        size = expanded_size(data)
    except RecursionError:
        raise DefinitionError([Problem(shown, 1, "", TOO_DEEP)])
    if size > MAX_VALUES:
        raise DefinitionError([Problem(shown, 1, "", f"the YAML expands to more than {MAX_VALUES:,} values "
                                       "(aliases that repeat aliases?); write the values out instead")])
    source = SourceMap(shown, data)
    if runaway:
        source.hints.append(Problem(shown, runaway[0], "", f"perhaps the cause: {RUNAWAY.format(*runaway)}"))
    return data, source


YAML_DIRECTIVE = re.compile(r"^%YAML[ \t]+(\S*)", re.MULTILINE)


def other_yaml_version(text: str) -> tuple[int, str] | None:
    """(line, version) of a `%YAML` directive asking for anything but 1.2 (ruamel would read a
    1.1 file by 1.1's rules, where `no` is false and 0777 is octal)."""
    for match in YAML_DIRECTIVE.finditer(text):
        if match.group(1) != "1.2":
            return text.count("\n", 0, match.start()) + 1, match.group(1) or "(no version)"
    return None


class BoundExceeded(Exception):
    """A limit broken while the YAML is being read, at a line."""

    def __init__(self, line: int, message: str, path: str = "") -> None:
        super().__init__(message)
        self.line, self.message, self.path = line, message, path


def key_path(keys: list[Any]) -> str:
    """`round[0].step` from the keys and list positions above a value (None: a key being read)."""
    path = ""
    for key in keys:
        if isinstance(key, int):
            path += f"[{key}]"
        elif isinstance(key, str):
            path += f".{key}" if path else key
    return path


INT_TAG = "tag:yaml.org,2002:int"
SCALAR_KEY = ("expected a plain name as the key; a list or mapping cannot be a key (a '?' or "
              "brackets before the colon make one)")


class BoundedComposer(Composer):
    """ruamel's composer, stopping as soon as the document breaks a limit, so reading time is
    bounded by the limits, not by the file: at most MAX_NODES nodes, keys that are plain scalars,
    integers within MAX_INTEGER (a literal with thousands of digits would stop Python's int())."""

    nodes = 0
    keys: list[Any] = []  # where the node being read sits: key names and list positions

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            mark = self.parser.peek_event().start_mark
            raise BoundExceeded(mark.line + 1, f"the YAML holds more than {MAX_NODES:,} values; a "
                                f"definition needs a few thousand at most, so look for a list or "
                                f"mapping that runs on")
        if self.nodes == 1:
            self.keys = []
        self.keys.append(index.value if isinstance(index, ScalarNode) else index)
        try:
            return super().compose_node(parent, index)
        finally:
            self.keys.pop()

    def compose_scalar_node(self, anchor: Any) -> Any:
        node = super().compose_scalar_node(anchor)
        if str(getattr(node.tag, "value", node.tag)) == INT_TAG and not integer_in_range(node.value):
            raise BoundExceeded(node.start_mark.line + 1, f"the number {long_literal(node.value)} is "
                                f"out of range; printgen reads whole numbers from -{MAX_INTEGER:,} "
                                f"to {MAX_INTEGER:,}", key_path(self.keys))
        return node

    def compose_mapping_node(self, anchor: Any) -> Any:
        node = super().compose_mapping_node(anchor)
        for key, _ in node.value:
            if not isinstance(key, ScalarNode):
                raise BoundExceeded(key.start_mark.line + 1, SCALAR_KEY)
        return node


def integer_in_range(literal: str) -> bool:
    """Whether a YAML 1.2 integer literal (decimal, 0x, 0o, with _ or a sign) is within MAX_INTEGER,
    decided from its length first, so a huge literal is never converted."""
    digits = literal.strip().lstrip("+-").replace("_", "")
    if len(digits) > 24:
        return False
    try:
        return abs(int(digits, 0 if digits[:2].lower() in ("0x", "0o", "0b") else 10)) <= MAX_INTEGER
    except ValueError:
        return True  # not a number Python reads; the constructor will say what it is


def long_literal(text: str) -> str:
    """A number as written, its middle left out when it is long."""
    return text if len(text) <= 40 else f"{text[:10]}...{text[-6:]} ({len(text):,} characters)"


RUNAWAY = ("a quoted string starts here but is not closed on this line, so it runs on and swallows "
           "line {1}; add the closing quote")
OPENS = re.compile(r"""^\s*(?:-\s+)*(?:[^\s#'"-][^:#]*:\s+)?(["'])(.*)$""")
KEY_LINE = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w-]*:(?:\s|$)")


def runaway_quote(text: str) -> tuple[int, int] | None:
    """(line, later line) when a value's opening quote is not closed on its line and what follows,
    up to the closing quote, holds a line that looks like a key: a quote probably left open."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        match = OPENS.match(line)
        if not match or closes(match.group(2), match.group(1)):
            continue
        for later in range(number + 1, min(len(lines), number + 100)):
            if KEY_LINE.match(lines[later]):
                return number + 1, later + 1
            if closes(lines[later], match.group(1)):
                break
    return None


def closes(rest: str, quote: str) -> bool:
    """Does `rest` hold the quote that ends a string ("\\"" and '' do not)?"""
    if quote == '"':
        return re.search(r'(?<!\\)(?:\\\\)*"', rest) is not None
    return "'" in rest.replace("''", "")


MAX_VALUES = 200_000  # far above any real game, far below what an alias bomb expands to
MAX_DEPTH = 100  # mappings and lists inside each other; a game needs fewer than ten
TOO_DEEP = (f"the YAML nests lists or mappings more than {MAX_DEPTH} levels deep; a definition needs "
            "only a few, so look for brackets that are opened but never closed")


def bracket_depth_line(text: str) -> int | None:
    """The line where [ and { first nest more than MAX_DEPTH deep, or None (quotes not parsed)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for match in re.finditer(r"[\[\]{}]", text):
        depth = max(depth + (1 if match.group() in "[{" else -1), 0)
        if depth > MAX_DEPTH:
            return text.count("\n", 0, match.start()) + 1
    return None


def expanded_size(data: Any, limit: int = MAX_VALUES) -> int:
    """How many values the document holds once aliases are expanded, counted without expanding.

    ruamel shares one object for every use of an anchor, so a few lines of aliases can stand for
    billions of values; validating them would hang. Sizes are memoised per shared object.
    """
    sizes: dict[int, int] = {}

    def size(node: Any, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise RecursionError("too deep")
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key not in sizes:
            sizes[key] = limit + 1  # a cycle counts as too big
            children = node.values() if isinstance(node, dict) else node
            total = 1
            for child in children:
                total += size(child, depth + 1)
                if total > limit:
                    break
            sizes[key] = total
        return sizes[key]

    return size(data, 0)


def explain_yaml_error(exc: MarkedYAMLError) -> tuple[int, str]:
    """Turn a YAML parser error into a line and advice a person can act on."""
    problem, context = str(exc.problem or ""), str(exc.context or "")
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    if "duplicate key" in problem + context:
        return line, f"this key appears twice in the same mapping ({first_line(problem)}); keep one"
    if "'\\t'" in problem:  # the parser shows a tab as the two characters \\t
        return line, "a tab character; YAML indents with spaces only, so replace the tab with spaces"
    if "quoted scalar" in context and exc.context_mark is not None:
        return exc.context_mark.line + 1, "a quoted string starts here but is never closed; add the closing quote"
    if context.startswith("while parsing a flow") and exc.context_mark is not None:
        kind, closer = ("list", "]") if "sequence" in context else ("mapping", "}")
        return exc.context_mark.line + 1, (f"a {kind} opened with '{'[' if closer == ']' else '{'}' here "
                                           f"is not closed; add the '{closer}' (and put any value "
                                           f"holding ',' or ': ' in quotes)")
    if "mapping values are not allowed" in problem:
        return line, ("a ':' where no new key can start; check this line's indentation, or put the "
                      "value in quotes if it contains ': '")
    if "expected <block end>" in problem or "could not find expected ':'" in problem:
        return line, "the indentation does not line up with the lines above; indent keys of one mapping equally"
    what = " ".join(x for x in (context, problem) if x)
    return line, what


def first_line(text: Any) -> str:
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


def validate(model: type[Model], data: Any, source: SourceMap,
             checks: Iterable[Callable[[Model], Iterable[tuple[Loc, str]]]] = (),
             context: dict[str, Any] | None = None) -> Model:
    """Validate `data` into `model`, then run game-specific checks; raise with every problem.

    `context` reaches field validators (printgen.art uses it to find and load art files).
    Text the embedded font cannot print is reported with the rest (see printgen.textcheck).
    """
    from .textcheck import unprintable  # imported here: textcheck builds on this module

    text = unprintable(data, source)
    try:
        result = model.model_validate(data, context=context)
    except ValidationError as exc:
        problems = [source.problem(err["loc"], explain(err, model, err["loc"]))
                    for err in exc.errors(include_url=False)]
        paths = {p.path for p in problems}
        raise DefinitionError(source.hints + problems + [p for p in text if p.path not in paths])
    if text:  # the game checks measure and quote text, so they run only on printable text
        raise DefinitionError(source.hints + text)
    problems = [source.problem(loc, message) for check in checks for loc, message in check(result)]
    if problems:
        raise DefinitionError(source.hints + problems)
    return result


def explain(err: Mapping[str, Any], model: type[BaseModel], loc: Loc) -> str:
    """Rewrite a pydantic error as 'what was expected (got ...)' for a person editing YAML."""
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
    return f"{message} (got {shorten(got)})"


TYPE_WORDS = {"model_type": "expected a mapping of keys", "dict_type": "expected a mapping of keys",
              "list_type": "expected a list", "bool_type": "expected true or false",
              "string_type": "expected text", "int_type": "expected a whole number"}


NUMBER_LIMITS = {"greater_than": "greater than", "greater_than_equal": "of at least",
                 "less_than": "less than", "less_than_equal": "of at most"}
LIMIT_KEYS = {"greater_than": "gt", "greater_than_equal": "ge", "less_than": "lt", "less_than_equal": "le"}


def field_description(model: type[BaseModel], loc: Loc) -> str | None:
    """The `description` of the field at `loc`, which says in words what a value should look like."""
    current: Any = model
    field = None
    for part in loc:
        if isinstance(part, int):
            continue
        field = getattr(current, "model_fields", {}).get(part)
        if field is None:
            return None
        current = inner_model(field.annotation)
    if field is None:
        return None
    if field.description:
        return field.description
    return annotated_description(field.annotation)


def annotated_description(annotation: Any) -> str | None:
    """A description inside Annotated[...], also within list[...] or dict[...] (item types)."""
    for meta in getattr(annotation, "__metadata__", ()):
        if getattr(meta, "description", None):
            return meta.description
    for arg in getattr(annotation, "__args__", ()):
        found = annotated_description(arg)
        if found:
            return found
    return None


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
    """The field names of the model found by following `loc` from the root model."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        field = getattr(current, "model_fields", {}).get(part)
        if field is None:
            return []
        current = inner_model(field.annotation)
    return list(getattr(current, "model_fields", {}))


def inner_model(annotation: Any) -> Any:
    """Find the BaseModel inside list[...], Optional[...] and similar annotations."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = inner_model(arg)
        if found is not None:
            return found
    return None


def load_definition(path: Path, model: type[Model],
                    checks: Iterable[Callable[[Model], Iterable[tuple[Loc, str]]]] = ()) -> Model:
    data, source = read_yaml(path)
    if not isinstance(data, dict):
        raise DefinitionError([Problem(source.file, 1, "", "expected a mapping of keys at the top level "
                                       f"(got {shorten(data)})")])
    return validate(model, data, source, checks)
