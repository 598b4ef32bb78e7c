"""A second core for independent work: a forked helper computes one result while this process
computes another.

`beside(job)` forks a child that runs `job()` and pipes the pickled result back; `result()` reads
it. A fork shares everything already imported and loaded, so the helper starts in a millisecond,
where a fresh interpreter would spend a third of a second importing. Nothing else changes: the work
is the same code, so the output is the same bytes whichever process made it.

Where forking is not safe or not useful (not Linux, one usable core, other threads running, or
PRINTGEN_NO_FORK=1), `result()` simply runs the job in this process. If the helper fails in any way
(an exception, a result that does not pickle, a crash), `result()` runs the job here too, so an
error surfaces with its own traceback, exactly as without a helper.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from typing import Callable, Generic, TypeVar

from printgen.core.bounded import LIVE, die_with_parent, find_prctl, fork_frozen

T = TypeVar("T")


def can_fork() -> bool:
    if sys.platform != "linux" or os.environ.get("PRINTGEN_NO_FORK") == "1":
        return False
    return len(os.sched_getaffinity(0)) >= 2 and threading.active_count() == 1


class Beside(Generic[T]):
    """The result of `job`, computed by a forked helper while the caller does other work."""

    def __init__(self, job: Callable[[], T], fork: bool = True) -> None:
        self.job = job
        self.pid: int | None = None
        self.fd: int | None = None
        if fork and can_fork():
            self.start()

    def start(self) -> None:
        try:
            read, write = os.pipe()
        except OSError:  # out of file descriptors: no helper, the job runs here
            return
        find_prctl()
        parent = os.getpid()
        try:
            pid = fork_frozen()
        except OSError:  # a process or memory limit: likewise
            os.close(read)
            os.close(write)
            return
        if pid == 0:  # the helper: compute, send, and leave without running any exit handler
            os.close(read)
            try:
                die_with_parent(parent)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends its helper itself
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                try:
                    payload = pickle.dumps(self.job(), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException:  # noqa: BLE001 - the parent redoes the job and reports it
                    payload = b""
                with os.fdopen(write, "wb") as out:
                    out.write(payload)
            finally:
                os._exit(0)
        os.close(write)
        LIVE.add(pid)
        self.pid, self.fd = pid, read

    def result(self) -> T:
        if self.pid is None:
            return self.job()
        assert self.fd is not None
        fd, self.fd = self.fd, None  # the file object owns it now: closed once, even if interrupted
        try:
            with os.fdopen(fd, "rb") as source:
                payload = source.read()
        except BaseException:  # interrupted while waiting: the helper's work is moot
            self.kill()
            raise
        finally:
            self.reap()
        if payload:
            try:
                return pickle.loads(payload)
            except Exception:  # noqa: BLE001 - a result that does not come back whole
                pass
        return self.job()

    def kill(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def reap(self) -> None:
        if self.fd is not None:  # never read (the caller failed first): the helper's work is moot
            os.close(self.fd)
            self.fd = None
            self.kill()
        if self.pid is not None:
            os.waitpid(self.pid, 0)
            LIVE.discard(self.pid)
            self.pid = None

    def __enter__(self) -> "Beside[T]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.reap()


def beside(job: Callable[[], T], fork: bool = True) -> Beside[T]:
    """Start `job` on another core if that is possible (and `fork`: pass False for work too small
    to share). Use it as a context manager, so that a helper whose result is never asked for (the
    caller failed first) is always stopped and waited for."""
    return Beside(job, fork)
