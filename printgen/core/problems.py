"""Problems found in a user's definition, and the one error that carries all of them, so every
problem is listed at once with the file and line to edit."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    path: str
    message: str
    place: str = ""  # a spreadsheet cell such as Ships!C4, told in place of the line

    def __str__(self) -> str:
        where = f"{shown(self.file)}:{shown(self.place) if self.place else self.line}"
        path, message = shown(self.path), shown(self.message)
        return f"{where}: {path}: {message}" if path else f"{where}: {message}"

    def as_list(self) -> list[str | int]:
        """The JSON form a worker sends (printgen.core.bounded.problems_of reads it back)."""
        found: list[str | int] = [self.file, self.line, self.path, self.message]
        return found + [self.place] if self.place else found


def shown(text: str) -> str:
    """Text from a user's file on one line, control characters escaped, so a name can neither
    drive the terminal nor fake a second problem line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


@dataclass
class DefinitionError(Exception):
    """A definition cannot be built; `problems` holds every reason, in file order."""

    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.report())

    def report(self) -> str:
        ordered = sorted(self.problems, key=lambda p: (p.file, p.line, p.path))
        return "\n".join(str(p) for p in ordered)


def display_name(path: Path) -> str:
    """The path as the user should see it: relative to the working directory when possible."""
    return _shown_as(str(path), os.getcwd())


@lru_cache(maxsize=4096)
def _shown_as(path: str, cwd: str) -> str:
    """display_name, cached: resolving costs a system call per folder, for each of many SVGs."""
    try:
        return str(Path(path).resolve().relative_to(Path(cwd).resolve()))
    except ValueError:
        return path


@dataclass(frozen=True)
class TextProblem:
    """A problem in a rules text, at its 1-based line after Jinja; `snippet`: the words at fault."""

    line: int
    snippet: str
    message: str


class MarkdownProblems(ValueError):
    """Every problem of one Markdown text (`text`, made by template `source`), told at once once the
    template's own lines are known (printgen.games places them)."""

    def __init__(self, source: str, text: str, problems: list[TextProblem]) -> None:
        super().__init__("; ".join(f"{source}:{p.line}: {p.message}" for p in problems))
        self.source, self.text, self.problems = source, text, problems
