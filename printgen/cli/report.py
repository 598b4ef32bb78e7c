"""What a build's worker hands back (its files under their names in its staging folder, one JSON
report of name, title, files and sizes, warnings, problems, watch and extra), and the checks it
passes on arrival: plain data only, never unpickled, and each file checked before it is used
(printgen.core.staging.checked_file).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from printgen.core.bounded import BadReport, problems_of
from printgen.core.names import unwritable
from printgen.core.problems import Problem
from printgen.core.staging import SCRATCH, checked_file

MAX_FILES = 200_000  # a deck of 20,000 rows makes some 40,000 files
MAX_TEXT = 100_000  # characters in a name, a title or a warning
MAX_PART = 255  # characters in one part of a file's name: what file systems hold


@dataclass
class Built:
    """One definition's build as its worker reported it; its files wait in `folder` until written."""

    path: Path
    name: str
    title: str
    files: dict[str, int]  # each file's name under `folder`'s FILES: its size
    warnings: list[str]
    problems: list[Problem]
    watch: list[Path]
    extra: Any
    folder: str = field(repr=False)

    def place(self, name: str) -> Path:
        """Where the finished file `name` lies, checked (BadReport if it is not what was reported)."""
        return Path(handed_file(self.folder, name, self.files[name]))

    def data(self, name: str) -> bytes:
        return self.place(name).read_bytes()


def safe_name(name: Any) -> bool:
    """A relative POSIX path of plain parts (no `..`, no `.`, no empty part, no backslash or NUL),
    each a name printgen writes (core.names: no control, bidi or zero-width character, not too long)."""
    if not isinstance(name, str) or not name or len(name) > 4096 or "\\" in name or "\0" in name:
        return False
    parts = PurePosixPath(name).parts
    return not name.startswith("/") and "/".join(parts) == name and all(
        p not in (".", "..") and unwritable(p, MAX_PART) is None for p in parts)


def scratch_in(folder: str) -> str:
    """The build's scratch folder inside its staging `folder`, made now: its temporary files go there
    (BuildOptions.scratch), so they never outlive a killed worker."""
    scratch = os.path.join(folder, SCRATCH)
    os.makedirs(scratch, exist_ok=True)
    return scratch


def handed_file(folder: str, name: str, size: int) -> str:
    try:
        return checked_file(folder, name, size)
    except (OSError, ValueError):
        raise BadReport(f"the worker's file {name!r} is not a plain file of the size its report says") from None


def handed(value: Any, folder: str, what: str = "the build") -> dict[str, int]:
    """A worker's files ([name, size] each, in order) by name, each checked in `folder`."""
    fine = isinstance(value, list) and len(value) <= MAX_FILES and all(
        isinstance(f, list) and len(f) == 2 and safe_name(f[0]) and type(f[1]) is int and f[1] >= 0 for f in value)
    files: dict[str, int] = dict(value) if fine else {}
    if not fine or len(files) != len(value):
        raise BadReport(f"{what}'s report: the files are not plain relative names, each once, with their sizes")
    for name, size in files.items():
        handed_file(folder, name, size)
    return files


def text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise BadReport(f"the build's report: {what} is not a text")
    return value


def texts(value: Any, what: str, limit: int = MAX_FILES) -> list[str]:
    if not isinstance(value, list) or len(value) > limit:
        raise BadReport(f"the build's report: {what} is not a list of texts")
    return [text(item, what) for item in value]


def checked(report: Any, path: Path, folder: str) -> Built:
    """The worker's report as a `Built`, once every field has the type and form it should."""
    keys = {"name", "title", "files", "warnings", "problems", "watch", "extra"}
    if not isinstance(report, dict) or set(report) != keys:
        raise BadReport("the build's report does not hold what a build's worker sends")
    name, title = text(report["name"], "the name"), text(report["title"], "the title")
    files = handed(report["files"], folder)
    problems = problems_of(report["problems"])
    if (files or not problems) and (not safe_name(name) or "/" in name):
        raise BadReport("the build's report names no folder of its own for its files")
    watch = [Path(p) for p in texts(report["watch"], "the watched files")]
    if not all(p.is_absolute() for p in watch):
        raise BadReport("the build's report lists a watched file by a relative name")
    return Built(path, name, title, files, texts(report["warnings"], "the warnings"), problems,
                 watch or [path.resolve()], report["extra"], folder)
