"""Where a build keeps files too many to hold in memory (a deck of thousands of cards): appended, once
made, to one file per process (2,000 small files cost 0.8 s of CPU, one file a few ms) in a private
folder (`mkdtemp`), removed when its `Spool` is garbage or printgen is stopped (`launch.clean_up`).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from typing import BinaryIO, Union

Spooled = tuple[str, int, int]  # the spool file, where the bytes start, how many
Held = Union[bytes, Spooled]  # a file's bytes in memory, or where they were spooled
FOLDERS: dict[str, int] = {}  # folders not yet removed, by the process that made them


class Spool:
    """One build's private folder of spooled files."""

    def __init__(self) -> None:
        self.folder = private_folder()
        self.file: BinaryIO | None = None
        self.writer = 0  # the process that opened `file`: a forked helper opens one of its own
        weakref.finalize(self, remove, self.folder)

    def keep(self, data: bytes) -> Spooled:
        """Append `data` to this process's spool file (unbuffered, so the parent can read it as
        soon as a helper hands back where it lies) and say where it lies."""
        if self.file is None or self.writer != os.getpid():
            self.writer = os.getpid()
            self.file = open(os.path.join(self.folder, str(self.writer)), "ab", buffering=0)
        path, start = self.file.name, self.file.seek(0, os.SEEK_END)
        self.file.write(data)
        return str(path), start, len(data)


def read(where: Spooled) -> bytes:
    path, start, size = where
    with open(path, "rb") as handle:
        handle.seek(start)
        return handle.read(size)


def in_memory(data: bytes) -> Held:
    """The `keep` of a build small enough to hold: the bytes themselves."""
    return data


def remove(folder: str) -> None:
    """Remove a spool folder, but only from the process that made it: a forked helper that ends
    must not take its parent's files with it."""
    if FOLDERS.get(folder) == os.getpid():
        shutil.rmtree(folder, ignore_errors=True)
        FOLDERS.pop(folder, None)


def remove_all() -> None:
    """printgen is being stopped: remove every spool folder this process made."""
    for folder in list(FOLDERS):
        remove(folder)


def private_folder(prefix: str = "printgen-") -> str:
    """A new private temporary folder (mode 0700), removed by `remove` or when printgen is stopped."""
    folder = tempfile.mkdtemp(prefix=prefix)
    FOLDERS[folder] = os.getpid()
    return folder
