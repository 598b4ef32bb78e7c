"""Write files so that a reader never sees half of one: write a temporary file, then rename."""
from __future__ import annotations

import os
import signal
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterable

from printgen.core.problems import display_name


class WriteFailed(OSError):
    """A file could not be written: a folder missing or read-only, a file in the way, a full disk.

    The OSError's errno, reason and file name are kept (callers catching OSError still work); the
    CLI shows it as a plain message with exit code 2, never as an internal error.
    """

    def __str__(self) -> str:
        return f"{display_name(Path(self.filename))}: cannot write ({self.strerror})"


def failed(exc: OSError, path: Path) -> WriteFailed:
    return WriteFailed(exc.errno or 0, exc.strerror or str(exc), str(exc.filename or path))


TEMPORARIES: set[str] = set()  # temporary files made and not yet renamed or removed
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, recorded before a Ctrl-C or SIGTERM can come between
    making it and remembering it (both are held back for the two system calls)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        TEMPORARIES.add(tmp)
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return fd, tmp


def discard(tmp: str) -> None:
    """Remove a temporary file (gone already once renamed) and forget it."""
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    TEMPORARIES.discard(tmp)


def remove_temporaries() -> None:
    """printgen is being stopped: remove every temporary file it still knows of."""
    for tmp in list(TEMPORARIES):
        try:
            discard(tmp)
        except OSError:
            pass


def write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one step; an interrupted run leaves the old file intact."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = temporary(path)
    except OSError as exc:
        raise failed(exc, path) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        TEMPORARIES.discard(tmp)
    except BaseException as exc:
        discard(tmp)
        if isinstance(exc, OSError):
            raise failed(exc, path) from exc
        raise


def write_all(files: Iterable[tuple[Path, bytes]]) -> None:
    """Replace many files, each in one step, waiting for the disk once rather than once a file.

    Every file is written under a temporary name first; then all are flushed together (the kernel
    commits concurrent fsyncs in one journal transaction, where 74 fsyncs in a row cost 74), and
    only then renamed into place. If anything fails before the renames, no file is replaced.
    The renames run side by side too: renaming over an old file frees its blocks, which some file
    systems (ext4 mounted with `discard`) make each rename wait for, some 3 ms a file.
    """
    pending: list[tuple[str, Path]] = []
    path = Path(".")
    try:
        for path, data in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = temporary(path)
            pending.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, 0o644)
        if pending:
            with ThreadPoolExecutor(max_workers=min(16, len(pending))) as pool:
                list(pool.map(flush_to_disk, [tmp for tmp, _ in pending]))
                list(pool.map(os.replace, *zip(*pending)))
        TEMPORARIES.difference_update(tmp for tmp, _ in pending)
        pending.clear()
    except OSError as exc:
        raise failed(exc, path) from exc
    finally:
        for tmp, _ in pending:  # temporaries not renamed (a renamed one is simply not found)
            discard(tmp)


def flush_to_disk(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
