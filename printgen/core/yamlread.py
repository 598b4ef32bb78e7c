"""Read a YAML definition: YAML 1.2 only, bounded in bytes, values, nesting and numbers while it is
parsed, with every failure placed at its line (so `yes` stays text and a duplicate key is an error).
"""
from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.reader import ReaderError

from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.source import SourceMap, commented_value, dotted, quote_hint

MAX_DEFINITION_BYTES = 1024 * 1024  # a hand-written game is a few KiB; ruamel reads ~600 KiB a second
MAX_NODES = 10_000  # values, keys and lists: the bundled games have under 500; ruamel reads ~9,000 a second
MAX_INTEGER = 10 ** 15  # counts, sizes and seeds are far smaller; every such integer is exact as a float
YAML_DIRECTIVE = re.compile(r"^%YAML[ \t]+(\S*)", re.MULTILINE)


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
    return parse(raw, shown)


def parse(raw: bytes, shown: str) -> tuple[Any, SourceMap]:
    text = utf8_text(raw, shown, "save the file as UTF-8 in your editor")
    deep = bracket_depth_line(text)
    if deep is not None:  # ruamel's scanner slows down with the square of such nesting
        raise DefinitionError([Problem(shown, deep, "", TOO_DEEP)])
    directive = next((m for m in YAML_DIRECTIVE.finditer(text) if m.group(1) != "1.2"), None)
    if directive is not None:  # ruamel would follow that version's rules
        raise DefinitionError([Problem(shown, text.count("\n", 0, directive.start()) + 1, "",
                                       f"this file asks for YAML {directive.group(1) or '(no version)'}, "
                                       "but printgen reads YAML 1.2 only (where yes, no, on and off are "
                                       "text and 0777 is a decimal number); remove the %YAML line")])
    yaml = YAML(typ="rt")
    yaml.version = (1, 2)
    yaml.allow_duplicate_keys = False
    yaml.Composer = BoundedComposer
    runaway = runaway_quote(text)
    try:
        data = yaml.load(text)
        size = expanded_size(data)
    except BoundExceeded as exc:
        raise DefinitionError([Problem(shown, exc.line, exc.path, exc.message)])
    except MarkedYAMLError as exc:
        line, what = explain_yaml_error(exc)
        if runaway and runaway[0] <= line:
            line, what = runaway[0], RUNAWAY.format(*runaway)
        value = commented_value(text.splitlines()[line - 1]) if 0 < line <= text.count("\n") + 1 else None
        if value:  # `{fill: #3c8d2f, ...}`: the comment swallowed the rest of the mapping
            what = f"{what.split(';')[0].split(' (')[0]}: {quote_hint(value)}"
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
    if size > MAX_VALUES:
        raise DefinitionError([Problem(shown, 1, "", f"the YAML expands to more than {MAX_VALUES:,} values "
                                       "(aliases that repeat aliases?); write the values out instead")])
    source = SourceMap(shown, data, text.splitlines())
    if runaway:
        source.hints.append(Problem(shown, runaway[0], "", f"perhaps the cause: {RUNAWAY.format(*runaway)}"))
    return data, source


class BoundExceeded(Exception):

    def __init__(self, line: int, message: str, path: str = "") -> None:
        super().__init__(message)
        self.line, self.message, self.path = line, message, path


INT_TAG = "tag:yaml.org,2002:int"
SCALAR_KEY = ("expected a plain name as the key; a list or mapping cannot be a key (a '?' or "
              "brackets before the colon make one)")


class BoundedComposer(Composer):
    """Stops as soon as the document breaks a limit (MAX_NODES, scalar keys, MAX_INTEGER), so reading
    time is bounded by the limits, not by the file."""

    nodes = 0
    keys: list[Any] = []  # where the node being read sits: key names, list positions, None (a key)

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
                                f"to {MAX_INTEGER:,}", dotted([key for key in self.keys if key is not None]))
        return node

    def compose_mapping_node(self, anchor: Any) -> Any:
        node = super().compose_mapping_node(anchor)
        for key, _ in node.value:
            if not isinstance(key, ScalarNode):
                raise BoundExceeded(key.start_mark.line + 1, SCALAR_KEY)
        return node


def integer_in_range(literal: str) -> bool:
    """Within MAX_INTEGER, judged by length first so a huge literal is never converted."""
    digits = literal.strip().lstrip("+-").replace("_", "")
    if len(digits) > 24:
        return False
    try:
        return abs(int(digits, 0 if digits[:2].lower() in ("0x", "0o", "0b") else 10)) <= MAX_INTEGER
    except ValueError:
        return True  # not a number Python reads; the constructor will say what it is


def long_literal(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:10]}...{text[-6:]} ({len(text):,} characters)"


RUNAWAY = ("a quoted string starts here but is not closed on this line, so it runs on and swallows "
           "line {1}; add the closing quote")
OPENS = re.compile(r"""^\s*(?:-\s+)*(?:[^\s#'"-][^:#]*:\s+)?(["'])(.*)$""")
KEY_LINE = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w-]*:(?:\s|$)")


def runaway_quote(text: str) -> tuple[int, int] | None:
    """(line, later line) of a quote probably left open: unclosed, and a key-like line follows."""
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
    """Values once aliases are expanded, counted without expanding (memoised per shared object),
    as a few lines of aliases can stand for billions."""
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
    return line, " ".join(x for x in (context, problem) if x)


def first_line(text: Any) -> str:
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


def utf8_text(raw: bytes, shown: str, advice: str) -> str:
    """The bytes as text in Unicode's composed form (NFC: `e` and a combining accent typed apart are
    `é`, as fonts draw it), or a DefinitionError at the line of the first byte that is not UTF-8."""
    try:
        return unicodedata.normalize("NFC", raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DefinitionError([Problem(shown, line, "", f"byte 0x{raw[exc.start]:02X} is not UTF-8 text; "
                                       f"{advice}")]) from None
