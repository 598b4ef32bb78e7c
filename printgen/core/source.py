"""Where each value of a definition was written: key paths back to `file:line` through the lines
ruamel.yaml's round-trip loader keeps."""
from __future__ import annotations

import re
from typing import Any, Sequence

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from printgen.core.problems import Problem

Loc = Sequence[str | int]


class SourceMap:
    """Answers 'which line holds this key path?' for a loaded document."""

    def __init__(self, file: str, root: Any, lines: Sequence[str] = ()) -> None:
        self.file = file
        self.root = root
        self.lines = list(lines)  # the file's text, to quote what YAML did not read as a value
        self.hints: list[Problem] = []  # likely causes, reported whenever validation fails

    def text_of(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

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


HEX_COLOUR = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")
BLOCK_VALUE = re.compile(r"^\s*(?:(?:-\s+)*[^\s#'\"{\[-][^#{\[]*?:\s+|(?:-\s+)+)(#\S.*?)(?:\s+#.*)?$")
FLOW_VALUE = re.compile(r"[{\[,][^#]*?\s(#[^\s,}\]][^,}\]]*?)\s*(?:[,}\]]|$)")


def commented_value(line: str) -> str | None:
    """The value YAML read as a comment in `colour: #1f5f99`, or None; a '#' followed by a space
    (`colour:  # the near side`) is an ordinary comment."""
    match = FLOW_VALUE.search(line) if re.search(r"[{\[]", line) else BLOCK_VALUE.match(line)
    return match.group(1).rstrip() if match else None


def quote_hint(value: str) -> str:
    what = "the colour" if HEX_COLOUR.fullmatch(value) else "the value"
    quoted = f'"{value}"' if "'" in value else f"'{value}'"
    return f"YAML reads a '#' after a space as the start of a comment, so write {what} in quotes: {quoted}"
