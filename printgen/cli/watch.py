"""`printgen build --watch` and `serve`: rebuild when a file a build read changes.

Each build's worker lists the files it opened (`Reads`): the definition, its data, its art and what
the art links to, the templates; nothing is searched for, so no game's keys need to be known. This
process polls their stamps: nothing to pay for a few dozen files, on every platform, with no package.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import click

from printgen.core.problems import display_name
from printgen.cli.common import load_build_code

Stamp = tuple[int, int] | None  # (mtime in ns, size), None while the file is missing
# Python's own files and the system's, never a build's input; each name ends in a separator
PYTHONS_OWN = tuple(os.path.join(folder, "") for folder in {sys.prefix, sys.base_prefix, "/proc", "/dev", "/sys"})
WRITING = os.O_WRONLY | os.O_RDWR


class Reads:
    """The files one thread opens for reading while `recording`, heard through an audit hook (PEP 578)
    that a build's forked worker inherits with this object; other threads' reads (serve's) are not the
    build's. Made once per watching command: a hook stays for the life of the process."""

    def __init__(self) -> None:
        self.files: set[str] | None = None  # None: not recording
        self.thread = 0  # the recording thread's id
        sys.addaudithook(self.heard)

    def heard(self, event: str, args: tuple[Any, ...]) -> None:
        """Never raises: an exception here would fail the open it hears."""
        if event != "open" or self.files is None or threading.get_ident() != self.thread:
            return
        with suppress(Exception):  # a descriptor or bytes for a name; a working folder that is gone
            name = os.path.abspath(args[0])
            if not args[2] & WRITING and not name.startswith(PYTHONS_OWN) and not name.endswith((".py", ".pyc")):
                self.files.add(name)

    @contextmanager
    def recording(self, into: set[str]) -> Iterator[None]:
        self.files, self.thread = into, threading.get_ident()
        try:
            yield
        finally:
            self.files = None


def stamp(path: Path) -> Stamp:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


def watch(paths: Iterable[Path], rebuild: Callable[[list[Path]], set[Path]],
          stopped: str = "printgen: stopped watching.", sleep: Callable[[float], Any] | None = None) -> int:
    """Build, then poll twice a second and rebuild after each change until Ctrl-C (`stopped` is said);
    the number of rebuilds. Each build returns the files to watch. A file's stamp is taken before the
    build that reads it, so a save during a build triggers the next; a file first listed, after it."""
    def after(before: dict[Path, Stamp], listed: set[Path]) -> dict[Path, Stamp]:
        return {path: before[path] if path in before else stamp(path) for path in listed}

    rebuilds = 0
    try:
        state = after({path.resolve(): stamp(path.resolve()) for path in paths}, rebuild([]))
        load_build_code()  # here once, not by every rebuild's forked worker
        while True:
            (sleep or time.sleep)(0.5)
            now = {path: stamp(path) for path in state}
            differences = sorted(path for path in state if now[path] != state[path])
            if differences:
                names = ", ".join(display_name(p) for p in differences[:3]) + (" ..." if len(differences) > 3 else "")
                click.echo(f"printgen: changed: {names}; rebuilding", err=True)
                state, rebuilds = after(now, rebuild(differences)), rebuilds + 1
    except KeyboardInterrupt:
        click.echo(stopped, err=True)
    return rebuilds
