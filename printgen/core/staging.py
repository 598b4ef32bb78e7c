"""Where a build's files wait before they are put in place: a private folder (mode 0700) made next to
the output, so that each finished file is renamed into place rather than copied; a large deck's
bytes are written once. The worker writes each file there under its own name (`place`); the parent
opens nothing it has not checked (`checked_file`: a plain file under a plain name, of the size the
report gave, reached through no link) and then renames it (printgen.core.atomic.write_all).

A build of thousands of files keeps each on disk as soon as it is made (`Staging.keep`), in the
build's scratch folder inside the same private folder (`BuildOptions.scratch`, handed down, never
a process-wide temporary folder), and `place` renames it to its name.
Folders are removed when done, or when printgen is stopped (`launch.clean_up`); a folder left by a
build killed outright (SIGKILL) is removed by the next build beside the same output (`sweep`).
"""
from __future__ import annotations

import errno
import itertools
import os
import re
import shutil
import stat
import tempfile
import weakref
from contextlib import suppress
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from printgen.core.build import Artifact

Kept = tuple[str, int]  # a file kept on disk as soon as made, and its size
Held = Union[bytes, Kept]  # a file's bytes in memory, or where it was kept
FOLDERS: dict[str, int] = {}  # private folders not yet removed, by the process that made them
FILES, SCRATCH = "files", "scratch"  # in a build's folder: its finished files, its own temporaries
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Staging:
    """Files kept on disk as soon as they are made, each in a file of its own in a private folder
    (in a worker: inside the build's folder, so `place` renames rather than copies)."""

    def __init__(self, inside: str | None = None) -> None:
        self.folder = private_folder(inside=inside)
        self.numbers = itertools.count()
        weakref.finalize(self, remove, self.folder)

    def keep(self, data: bytes) -> Kept:
        """`data` in a new file of this folder (a forked helper's names carry its own process id)."""
        path = os.path.join(self.folder, f"{os.getpid()}-{next(self.numbers)}")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        return path, len(data)


def in_memory(data: bytes) -> Held:
    """The `keep` of a build small enough to hold: the bytes themselves."""
    return data


def place(artifacts: list[Artifact], folder: str) -> list[list[Any]]:
    """In the worker: every artifact as a file under its name in `folder`'s FILES, a kept one renamed
    there (copied only for a second name of the same bytes); each [name, size], in order."""
    out = os.path.join(folder, FILES)
    moved: dict[str, str] = {}
    handed = []
    for artifact in artifacts:
        target = os.path.join(out, artifact.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if artifact.spooled is None:
            with os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW, 0o600), "wb") as handle:
                size = handle.write(artifact.held)
        else:
            source, size = artifact.spooled
            if source in moved:
                shutil.copyfile(moved[source], target)
            else:
                try:
                    os.rename(source, target)
                except OSError as exc:  # kept on another file system (no worker: printgen's own tmp)
                    if exc.errno != errno.EXDEV:
                        raise
                    shutil.copyfile(source, target)
                moved[source] = target
        handed.append([artifact.name, size])
    return handed


def checked_file(folder: str, name: str, size: int) -> str:
    """The path of the finished file `name` in `folder`'s FILES, once it is seen to be a plain file
    with one name, of `size` bytes, reached through plain folders (no link anywhere); ValueError else.
    `name` is a plain relative name already (printgen.cli.report.safe_name)."""
    parts = PurePosixPath(name).parts
    fd = os.open(os.path.join(folder, FILES), os.O_RDONLY | os.O_DIRECTORY | NO_FOLLOW)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | NO_FOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        info = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_size != size:
        raise ValueError(f"{name}: not a plain file of the size the report gives")
    return os.path.join(folder, FILES, *parts)


def remove(folder: str) -> None:
    """Remove a private folder, but only from the process that made it: a forked helper that ends
    must not take its parent's files with it."""
    if FOLDERS.get(folder) == os.getpid():
        shutil.rmtree(folder, ignore_errors=True)
        FOLDERS.pop(folder, None)


def remove_all() -> None:
    """printgen is being stopped: remove every private folder this process made."""
    for folder in list(FOLDERS):
        remove(folder)


def private_folder(prefix: str = "printgen-", near: Path | None = None, inside: str | None = None) -> str:
    """A new private folder (mode 0700), removed by `remove` or when printgen is stopped: beside
    `near` (in its nearest folder that exists, hidden by a leading dot) when given and writable,
    else in `inside` (a build's scratch folder, BuildOptions.scratch) or the temporary folder. Its
    name carries this process's id, so that a later build can tell a folder left by a build that was
    killed outright (SIGKILL: no handler runs) and `sweep` it."""
    folder = None
    owned = f"{prefix}{os.getpid()}-"
    if near is not None:
        where = next((p for p in [near, *near.parents] if p.is_dir()), None)
        if where is not None:
            with suppress(OSError):  # a folder that cannot be listed keeps what it holds
                sweep(where, f".{prefix}")
        try:
            folder = tempfile.mkdtemp(prefix=f".{owned}", dir=where)
        except OSError:  # a folder printgen may not write in: the write itself will say so
            folder = None
    folder = folder or tempfile.mkdtemp(prefix=owned, dir=inside)
    FOLDERS[folder] = os.getpid()
    return folder


def sweep(where: Path, prefix: str) -> list[str]:
    """Remove the private folders in `where` that builds of this user left when they were killed:
    only names `prefix`<pid>-<mkdtemp's 8 characters>, only real folders (no link) this user owns,
    only when process <pid> is gone. The names removed."""
    pattern = re.compile(rf"{re.escape(prefix)}([1-9][0-9]{{0,9}})-[a-z0-9_]{{8}}")
    removed = []
    with os.scandir(where) as entries:
        for entry in entries:
            found = pattern.fullmatch(entry.name)
            if found is None or not entry.is_dir(follow_symlinks=False) or alive(int(found.group(1))):
                continue
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.name)
    return removed


def alive(pid: int) -> bool:
    """Whether process `pid` exists (one of another user counts: it may not be ours to judge)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
