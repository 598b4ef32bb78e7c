"""Write files so that a reader never sees half of one: write a temporary file, then rename."""
from __future__ import annotations

import errno
import os
import shutil
import signal
import tempfile
from contextlib import suppress
from functools import partial
from itertools import takewhile
from pathlib import Path
from typing import Iterable

from printgen.core.problems import display_name


class WriteFailed(OSError):
    """A file could not be written (a folder missing or read-only, a file in the way, a full disk):
    an OSError still, shown by the CLI as a plain message with exit code 2."""

    def __str__(self) -> str:  # the folder resolved, not the name: a link is named, not where it leads
        path = Path(self.filename)
        folder = display_name(path.parent)
        shown = path.name if folder == "." else str(Path(folder) / path.name)
        return f"{shown}: cannot write ({self.strerror})"


TEMPORARIES: set[str] = set()  # temporary files made and not yet renamed or removed
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, recorded before a Ctrl-C or SIGTERM can come between
    making it and remembering it (both are held back for the two system calls)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        fd, tmp = tempfile.mkstemp(".tmp", f".{path.name}.", path.parent)  # mode 0600, O_EXCL, O_NOFOLLOW
        TEMPORARIES.add(tmp)
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return fd, tmp


def discard(tmp: str) -> None:
    """Remove a temporary file (gone already once renamed) and forget it."""
    with suppress(FileNotFoundError):
        os.unlink(tmp)
    TEMPORARIES.discard(tmp)


def remove_temporaries() -> None:
    """printgen is being stopped: remove every temporary file it still knows of."""
    for tmp in list(TEMPORARIES):
        with suppress(OSError):
            discard(tmp)


def write_bytes(path: Path, data: bytes, inside: Path | None = None) -> None:
    """Replace `path` with `data` in one step; an interrupted run leaves the old file intact."""
    write_all([(path, data)], inside)


def linked_folder(folder: Path, inside: Path | None) -> Path | None:
    """The first folder from `inside` (the user's --out, which may itself be a link) down to
    `folder` that is a symbolic link: a file is never written through one planted there."""
    if inside is None or not folder.is_relative_to(inside):
        return None
    parts = folder.relative_to(inside).parts
    return next((inside.joinpath(*parts[:depth]) for depth in range(1, len(parts) + 1)
                 if inside.joinpath(*parts[:depth]).is_symlink()), None)


def write_all(files: Iterable[tuple[Path, bytes | Path]], inside: Path | None = None) -> None:
    """Replace many files, each in one step, waiting for the disk once rather than once a file;
    below `inside`, a folder that is a symbolic link is refused (a file that is one is replaced).
    A file is given as its bytes, or as a finished file (a build's staging folder, checked) that is
    renamed into place, or copied first where it lies on another file system.

    Every file is written under a temporary name (or found finished) and flushed on threads while the next is written
    (fsyncs at once share a journal commit: 74 files 0.03 s, one by one 0.15 to 0.3 s), then all are
    renamed side by side (ext4 with `discard` makes a rename over a file wait 3 ms): if anything
    fails before the renames, no file is replaced. Last the folders whose names changed are flushed.
    """
    from concurrent.futures import Future, ThreadPoolExecutor

    pending: list[tuple[str, Path]] = []
    finished: set[str] = set()  # files put in place by a rename of their own, never discarded
    flushes: list[Future[None]] = []
    folders: set[Path] = set()  # made or found already
    changed: set[Path] = set()  # folders whose entries are new
    path = Path(".")
    try:
        hold = partial(signal.pthread_sigmask, signal.SIG_BLOCK, STOP_SIGNALS) if hasattr(signal, "pthread_sigmask") \
            else None
        with ThreadPoolExecutor(16, initializer=hold) as threads:  # Ctrl-C to this thread alone (temporary())
            for path, data in files:
                if path.parent not in folders:
                    link = linked_folder(path.parent, inside)
                    if link is not None:
                        raise WriteFailed(errno.ELOOP, "it is a symbolic link; printgen writes no file "
                                          "through a link in the output folder: remove it", str(link))
                    changed.update(folder.parent for folder in make_folder(path.parent))
                    folders.add(path.parent)
                if isinstance(data, Path) and os.stat(data).st_dev == os.stat(path.parent).st_dev:
                    tmp = str(data)
                    finished.add(tmp)
                    pending.append((tmp, path))
                else:
                    fd, tmp = temporary(path)
                    pending.append((tmp, path))
                    with os.fdopen(fd, "wb") as handle:
                        if isinstance(data, Path):
                            with open(data, "rb") as source:
                                shutil.copyfileobj(source, handle, 1 << 20)
                        else:
                            handle.write(data)
                os.chmod(tmp, 0o644)
                flushes.append(threads.submit(flush_to_disk, tmp))
            changed.update(where.parent for _, where in pending)
            list(map(Future.result, flushes))  # each phase ends (or fails) before the next starts
            list(threads.map(os.replace, [tmp for tmp, _ in pending], [where for _, where in pending]))
            list(threads.map(flush_to_disk, sorted(changed)))
        TEMPORARIES.difference_update(tmp for tmp, _ in pending)
        pending.clear()
    except OSError as exc:
        raise WriteFailed(exc.errno or 0, exc.strerror or str(exc), str(exc.filename or path)) from exc
    finally:
        for tmp, _ in pending:  # temporaries not renamed (a renamed one is simply not found)
            if tmp not in finished:
                discard(tmp)


def make_folder(folder: Path) -> list[Path]:
    """`folder` and any missing parents made; the folders this made, the outermost first."""
    missing = list(takewhile(lambda each: not each.is_dir(), [folder, *folder.parents][:-1]))[::-1]
    for each in missing:
        each.mkdir(exist_ok=True)
    return missing


NO_FOLDER_FLUSH = {errno.EINVAL, errno.EBADF, errno.EISDIR, errno.EACCES, errno.EPERM, errno.ENOTSUP}


def flush_to_disk(path: str | Path) -> None:
    """A file's bytes, or a folder's entries, to disk (a file system that cannot flush a folder is
    left to its own)."""
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        if exc.errno not in NO_FOLDER_FLUSH or not os.path.isdir(path):
            raise
