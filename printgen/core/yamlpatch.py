"""Re-read a definition after a one-line edit of a scalar value by patching the previous parse.

`build --watch` and `serve` re-read a definition after every save, and ruamel's round-trip parse of
a whole game costs tens of milliseconds in pure Python, while the usual edit changes one value on
one line. When the edit is one that provably cannot change anything but that value (same columns,
a single-line scalar, a block mapping nobody else shares), the new tree is the old one with only
the containers on the way to that value copied; anything less certain returns None, and the
caller parses the whole file as before, so every message and every limit stays the full parse's.

One thing differs from a full parse, and nothing reads it: the comment tokens ruamel keeps are the
old ones, so past the edited line their character offsets (not their lines and columns, which
are the same) are the old text's. printgen reads only lines and columns (`lc`), never comments.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, Callable, Iterator

from ruamel.yaml.anchor import Anchor
from ruamel.yaml.comments import Comment, CommentedMap, CommentedSeq, Format, LineCol, merge_attrib
from ruamel.yaml.tokens import CommentToken

# `key: value`, with only spaces before the key; the key's spelling is one YAML reads as text.
KEY_VALUE_LINE = re.compile(r"( *)([A-Za-z_][A-Za-z0-9_-]*):( +)(\S.*)")
# A value starting with one of these may be an anchor, alias, tag, block scalar, flow collection,
# directive or reserved character: any of them can reach other lines or mean more than a scalar.
UNSAFE_FIRST = frozenset("&*!|>[]{}%@`,#")
# Characters some YAML readers or str.splitlines() take for line breaks: line numbers would differ.
ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

OneLineParse = Callable[[str], Any]


def patched_parse(old_text: str, old_data: Any, new_text: str, parse_line: OneLineParse) -> Any | None:
    """The data a full parse of `new_text` would give, built from `old_data` (the full parse of
    `old_text`), or None when the edit is not one this can be certain about.

    `parse_line` parses a tiny document (`key: value\\n`) with the same YAML set-up as the full
    parse, raising on anything that set-up rejects. `old_data` is never modified.
    """
    if ODD_BREAKS.search(old_text) or ODD_BREAKS.search(new_text):
        return None
    old_lines, new_lines = old_text.split("\n"), new_text.split("\n")
    if len(old_lines) != len(new_lines):
        return None
    changed = [number for number, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
    if len(changed) != 1:
        return None
    number = changed[0]
    old_line, new_line = old_lines[number], new_lines[number]
    old_match, new_match = line_match(old_line), line_match(new_line)
    if old_match is None or new_match is None:
        return None
    if old_match.group(1, 2, 3) != new_match.group(1, 2, 3):  # every column stays where it was
        return None
    if scalar_style(old_match.group(4)) != scalar_style(new_match.group(4)):
        return None  # ruamel files the comments after a plain value a line apart from a quoted one's
    indent, key = len(old_match.group(1)), old_match.group(2)
    if not ends_scalar(new_lines, number, indent):
        return None
    old_value, new_value = one_line_value(old_line, key, parse_line), one_line_value(new_line, key, parse_line)
    if old_value is None or new_value is None:
        return None
    value_column = old_match.start(4)
    path = path_to_key(old_data, key, (number, indent), (number, value_column), number)
    if path is None:
        return None
    holder = path[-1]
    current = OrderedDict.__getitem__(holder, key)
    if type(current) is not type(old_value[0]) or not current == old_value[0]:  # NaN: never equal
        return None
    return copied_path(path, key, new_value[0])


def line_match(line: str) -> re.Match[str] | None:
    """The parts of a `key: value` line whose value is a scalar on that line alone, or None."""
    if "#" in line or "\t" in line:
        return None
    match = KEY_VALUE_LINE.fullmatch(line)
    if match is None:
        return None
    value = match.group(4)
    if value[0] in UNSAFE_FIRST:
        return None
    if value[0] in "-?:" and (len(value) == 1 or value[1] == " "):
        return None
    return match


def scalar_style(value: str) -> str:
    """How a one-line scalar is written: in single or double quotes, or plain."""
    return value[0] if value[0] in "'\"" else "plain"


def ends_scalar(lines: list[str], number: int, indent: int) -> bool:
    """Whether the next line holding anything is indented no deeper than the key, so a plain
    scalar on line `number` cannot continue onto it."""
    for later in lines[number + 1:]:
        if later.strip(" "):
            return len(later) - len(later.lstrip(" ")) <= indent and not later.lstrip(" ").startswith("\t")
    return True


def one_line_value(line: str, key: str, parse_line: OneLineParse) -> tuple[Any] | None:
    """(value,) of `key: value` parsed alone, or None when that fails or is not one scalar."""
    try:
        data = parse_line(line.lstrip(" ") + "\n")
    except Exception:  # the full parse reports it, at its real line
        return None
    if not isinstance(data, CommentedMap) or len(data) != 1:
        return None
    (parsed_key, value), = data.items()
    if type(parsed_key) is not str or parsed_key != key or isinstance(value, (dict, list)):
        return None
    return (value,)


def path_to_key(root: Any, key: str, key_at: tuple[int, int], value_at: tuple[int, int],
                edited_line: int) -> list[Any] | None:
    """The containers from the root to the block mapping holding `key` at `key_at` (0-based line,
    column), or None when there is none, or when the tree has anchors, merges, flow collections on
    the way, a container reachable twice (a change would show in more than one place) or a comment
    whose recorded start or end is on the edited line (ruamel may place it by the value's length)."""
    seen: set[int] = set()
    found: list[Any] | None = None
    trail: list[Any] = []

    def visit(node: Any) -> bool:
        nonlocal found
        if not isinstance(node, (CommentedMap, CommentedSeq)):
            return not isinstance(node, (dict, list))  # a plain dict or list: not a parse's
        if id(node) in seen:
            return False
        seen.add(id(node))
        anchor = getattr(node, Anchor.attrib, None)
        if anchor is not None and anchor.value is not None:
            return False
        if getattr(node, merge_attrib, None):
            return False
        if any(token_on_line(token, edited_line) for token in comment_tokens(getattr(node, Comment.attrib, None))):
            return False
        trail.append(node)
        if isinstance(node, CommentedMap):
            if key in node and found is None and at_key(node, key, key_at, value_at):
                if any(not block_style(container) for container in trail):
                    return False
                found = list(trail)
            children = node.values()
        else:
            children = node
        for child in children:
            if not visit(child):
                return False
        trail.pop()
        return True

    try:
        return found if visit(root) else None
    except RecursionError:
        return None


def comment_tokens(comments: Comment | None) -> Iterator[Any]:
    """Every comment token a container's comment attribute holds, at any depth."""
    if comments is None:
        return
    pending: list[Any] = [getattr(comments, name, None) for name in Comment.__slots__]
    while pending:
        item = pending.pop()
        if isinstance(item, CommentToken):
            yield item
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.values())


def token_on_line(token: Any, line: int) -> bool:
    """Whether a comment token's recorded span reaches the line (unknown marks count as yes)."""
    start, end = getattr(token, "start_mark", None), getattr(token, "end_mark", None)
    if start is None or end is None:
        return True
    return bool(start.line <= line <= end.line)


def at_key(mapping: CommentedMap, key: str, key_at: tuple[int, int], value_at: tuple[int, int]) -> bool:
    """Whether the mapping's `key` was read at `key_at` with its value at `value_at` (read through
    the attribute, since ruamel's `lc` property would add one to a mapping without it)."""
    positions = getattr(mapping, LineCol.attrib, None)
    data = getattr(positions, "data", None)
    if not isinstance(data, dict) or key not in data:
        return False
    return list(data[key]) == [*key_at, *value_at]


def block_style(container: Any) -> bool:
    form = getattr(container, Format.attrib, None)
    return form is not None and form.flow_style() is False


def copied_path(path: list[Any], key: str, value: Any) -> Any:
    """A new root where the containers on `path` are copies (same YAML attributes, same order)
    and the last one's `key` holds `value`; everything off the path is shared with the old tree."""
    replacement = value
    for depth in range(len(path) - 1, -1, -1):
        container = shallow_copy(path[depth])
        if depth == len(path) - 1:
            OrderedDict.__setitem__(container, key, replacement)
        else:
            child = path[depth + 1]
            if isinstance(container, CommentedMap):
                slot = next(k for k, v in OrderedDict.items(container) if v is child)
                OrderedDict.__setitem__(container, slot, replacement)
            else:
                index = next(i for i, v in enumerate(list.__iter__(container)) if v is child)
                list.__setitem__(container, index, replacement)
        replacement = container
    return replacement


def shallow_copy(container: Any) -> Any:
    """A copy of one CommentedMap or CommentedSeq: the same children and the same comment,
    format, position, anchor and tag objects (shared: nothing reads them to change them)."""
    if isinstance(container, CommentedMap):
        copy = type(container)()
        for name, child in OrderedDict.items(container):
            OrderedDict.__setitem__(copy, name, child)
        copy._ok = set(container._ok)
    else:
        copy = type(container)(list.__iter__(container))
    container.copy_attributes(copy)
    return copy
