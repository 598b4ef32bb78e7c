"""Where each value of a definition was written: key paths back to lines.

ruamel.yaml's round-trip loader keeps the line of every key and item, so a pydantic error's `loc`
(a key path) can be turned back into `file:line: key.path`.
"""
from __future__ import annotations

from typing import Any, Sequence

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from printgen.core.problems import Problem

Loc = Sequence[str | int]


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

