"""What a build's worker hands back (files under `files/` in its folder, one JSON report of
name, title, files, warnings, problems, watch and extra), and the checks it passes on arrival:
plain data only, never unpickled, and files read only from inside the folder.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from printgen.core.bounded import BadReport, in_worker, problems_of
from printgen.core.problems import Problem

if TYPE_CHECKING:
    from printgen.core.build import Artifact

FILES, SCRATCH = "files", "scratch"  # in a worker's folder: what it hands back, its own temporaries
MAX_FILES = 200_000  # a deck of 20,000 rows makes some 40,000 files
MAX_TEXT = 100_000  # characters in a name, a title or a warning


@dataclass
class Built:
    """One definition's build as its worker reported it; its files wait in `folder` until written."""

    path: Path
    name: str
    title: str
    files: list[str]
    warnings: list[str]
    problems: list[Problem]
    watch: list[Path]
    extra: Any
    folder: str = field(repr=False)

    def data(self, name: str) -> bytes:
        return read_handed(self.folder, name)


def safe_name(name: Any) -> bool:
    """A relative POSIX path of plain parts (no `..`, no `.`, no empty part, no backslash or NUL)."""
    if not isinstance(name, str) or not name or len(name) > 4096 or "\\" in name or "\0" in name:
        return False
    parts = PurePosixPath(name).parts
    return not name.startswith("/") and "/".join(parts) == name and all(p not in (".", "..") for p in parts)


def scratch_in(folder: str) -> None:
    """In a worker: its temporary files go inside `folder`, so they never outlive a killed worker."""
    if in_worker():
        import tempfile

        os.makedirs(os.path.join(folder, SCRATCH), exist_ok=True)
        tempfile.tempdir = os.path.join(folder, SCRATCH)


def hand_over(artifacts: list[Artifact], folder: str) -> list[str]:
    """In the worker: write each artifact into `folder` under its own name; the names, in order."""
    names = []
    for artifact in artifacts:
        if not safe_name(artifact.name):
            raise ValueError(f"a file name printgen made is not a plain relative name: {artifact.name!r}")
        target = os.path.join(folder, FILES, *artifact.name.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(artifact.data)
        names.append(artifact.name)
    return names


def read_handed(folder: str, name: str) -> bytes:
    """A file the worker left in `folder`: a plain file, reached without leaving the folder."""
    if not safe_name(name):
        raise BadReport(f"the worker named a file outside its folder: {name!r}")
    path = os.path.join(folder, FILES, *name.split("/"))
    real = os.path.realpath(path)
    if not real.startswith(os.path.realpath(os.path.join(folder, FILES)) + os.sep):
        raise BadReport(f"the worker's file {name!r} leads outside its folder")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise BadReport(f"the worker's file {name!r} is not a plain file")
        return handle.read()


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
    files = texts(report["files"], "the files")
    problems = problems_of(report["problems"])
    if not all(safe_name(f) for f in files) or len(set(files)) != len(files):
        raise BadReport("the build's report names a file that is not a plain relative name, or one twice")
    if (files or not problems) and (not safe_name(name) or "/" in name):
        raise BadReport("the build's report names no folder of its own for its files")
    watch = [Path(p) for p in texts(report["watch"], "the watched files")]
    if not all(p.is_absolute() for p in watch):
        raise BadReport("the build's report lists a watched file by a relative name")
    return Built(path, name, title, files, texts(report["warnings"], "the warnings"), problems,
                 watch or [path.resolve()], report["extra"], folder)
