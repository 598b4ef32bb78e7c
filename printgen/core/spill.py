"""Where a build keeps files too many to hold in memory (a deck of thousands of cards, each with
an SVG and a PNG): each is put in a private temporary folder as soon as it is made, and only its
path is held until it is written into place.

The folder is made by `tempfile.mkdtemp` (mode 0700, a fresh random name), so no other user can
put or change a file in it; printgen only ever reads back files it wrote there itself, in the same
run. It is removed when its `Spill` is garbage (every artifact in it keeps it alive), at exit, and
when printgen is stopped (`launch.clean_up` calls `remove_all`).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from typing import Union

Held = Union[bytes, str]  # a file's bytes in memory, or the path of the spilled file holding them
FOLDERS: dict[str, int] = {}  # folders not yet removed, by the process that made them


class Spill:
    """One build's private folder of spilled files."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="printgen-")
        FOLDERS[self.folder] = os.getpid()
        self.count = 0
        weakref.finalize(self, remove, self.folder)

    def keep(self, data: bytes) -> str:
        """Put `data` in a new file of the folder and give its path. A forked helper writes into
        the same folder, so names carry the process id."""
        self.count += 1
        path = os.path.join(self.folder, f"{os.getpid()}-{self.count}")
        with open(path, "xb") as handle:
            handle.write(data)
        return path


def in_memory(data: bytes) -> Held:
    """The `keep` of a build small enough to hold: the bytes themselves."""
    return data


def remove(folder: str) -> None:
    """Remove a spill folder, but only from the process that made it: a forked helper that ends
    must not take its parent's files with it."""
    if FOLDERS.get(folder) == os.getpid():
        shutil.rmtree(folder, ignore_errors=True)
        FOLDERS.pop(folder, None)


def remove_all() -> None:
    """printgen is being stopped: remove every spill folder this process made."""
    for folder in list(FOLDERS):
        remove(folder)
