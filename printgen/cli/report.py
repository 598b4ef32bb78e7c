"""What a build's worker hands back (its files one after another in the file `files` in its folder,
one JSON report of name, title, files and sizes, warnings, problems, watch and extra), and the checks
it passes on arrival: plain data only, never unpickled, and files read only from inside the folder.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from printgen.core.bounded import BadReport, Inside, problems_of
from printgen.core.names import unwritable
from printgen.core.problems import Problem

if TYPE_CHECKING:
    from printgen.core.build import Artifact

FILES, SCRATCH = "files", "scratch"  # in a worker's folder: the file it hands back, its own temporaries
MAX_FILES = 200_000  # a deck of 20,000 rows makes some 40,000 files
MAX_TEXT = 100_000  # characters in a name, a title or a warning
MAX_PART = 255  # characters in one part of a file's name: what file systems hold


@dataclass
class Built:
    """One definition's build as its worker reported it; its files wait in `folder` until written."""

    path: Path
    name: str
    title: str
    files: dict[str, tuple[int, int]]  # each file's name: where its bytes start in FILES, how many
    warnings: list[str]
    problems: list[Problem]
    watch: list[Path]
    extra: Any
    folder: str = field(repr=False)

    def data(self, name: str) -> bytes:
        return read_handed(self.folder, *self.files[name])


def safe_name(name: Any) -> bool:
    """A relative POSIX path of plain parts (no `..`, no `.`, no empty part, no backslash or NUL),
    each a name printgen writes (core.names: no control, bidi or zero-width character, not too long)."""
    if not isinstance(name, str) or not name or len(name) > 4096 or "\\" in name or "\0" in name:
        return False
    parts = PurePosixPath(name).parts
    return not name.startswith("/") and "/".join(parts) == name and all(
        p not in (".", "..") and unwritable(p, MAX_PART) is None for p in parts)


def scratch_in(folder: str) -> None:
    """In a worker: its temporary files go inside `folder`, so they never outlive a killed worker."""
    if Inside.worker:
        import tempfile

        os.makedirs(os.path.join(folder, SCRATCH), exist_ok=True)
        tempfile.tempdir = os.path.join(folder, SCRATCH)


def hand_over(artifacts: list[Artifact], folder: str) -> list[list[Any]]:
    """In the worker: the artifacts' bytes one after another in `folder`'s file FILES (on ext4 a file
    apiece took 0.1 to 1 ms to make and as long again to remove); each [name, size], in order."""
    wrong = next((artifact.name for artifact in artifacts if not safe_name(artifact.name)), None)
    if wrong is not None:
        raise ValueError(f"a file name printgen made is not a plain relative name: {wrong!r}")
    with open(os.path.join(folder, FILES), "wb") as out:
        return [[artifact.name, out.write(artifact.data)] for artifact in artifacts]


def read_handed(folder: str, start: int, size: int) -> bytes:
    """`size` bytes from `start` of the file the worker left in `folder`: a plain file, not a link."""
    with os.fdopen(os.open(os.path.join(folder, FILES), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as handle:
        handle.seek(start)
        data = handle.read(size) if stat.S_ISREG(os.fstat(handle.fileno()).st_mode) else None
    if data is None or len(data) != size:
        raise BadReport("the worker's file is not a plain file, or holds less than its report says")
    return data


def handed(value: Any, what: str = "the build") -> dict[str, tuple[int, int]]:
    """A worker's files ([name, size] each, in order) by name, with where each starts in FILES."""
    fine = isinstance(value, list) and len(value) <= MAX_FILES and all(
        isinstance(f, list) and len(f) == 2 and safe_name(f[0]) and type(f[1]) is int and f[1] >= 0 for f in value)
    pairs: list[tuple[str, int]] = value if fine else []
    files = {name: (start, size) for (name, size), start in zip(pairs, accumulate((s for _, s in pairs), initial=0))}
    if not fine or len(files) != len(value):
        raise BadReport(f"{what}'s report: the files are not plain relative names, each once, with their sizes")
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
    files = handed(report["files"])
    problems = problems_of(report["problems"])
    if (files or not problems) and (not safe_name(name) or "/" in name):
        raise BadReport("the build's report names no folder of its own for its files")
    watch = [Path(p) for p in texts(report["watch"], "the watched files")]
    if not all(p.is_absolute() for p in watch):
        raise BadReport("the build's report lists a watched file by a relative name")
    return Built(path, name, title, files, texts(report["warnings"], "the warnings"), problems,
                 watch or [path.resolve()], report["extra"], folder)
