"""printgen's one way of using more cores: forked helpers that run jobs and send each result back.

Helpers are forked inside a build's worker (printgen.core.bounded), so they share its limits and die
with it; a fork starts in a millisecond (a pool's fresh interpreter spends a third of a second
importing) and a job's inputs are not sent. A job is the same code wherever it runs, so the bytes
are the same. Where forking is not safe or useful (not Linux, one core, other threads running,
PRINTGEN_NO_FORK=1) the jobs run here; a job whose helper fails in any way runs here again.
"""
from __future__ import annotations

import os
import selectors
import struct
import sys
import threading
from typing import Any, Callable, Sequence, TypeVar

from printgen.core.bounded import LIVE, finish, fork_child
from printgen.core.plaincode import decode, encode
from printgen.core.problems import Problem

T = TypeVar("T")
FRAME = struct.Struct(">QQ")  # the job's index and the encoded result's length (0: the job failed)
PLAIN_KINDS: tuple[type, ...] = (Problem,)  # what a result may hold unnamed: a document's problems


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def can_fork() -> bool:
    return (sys.platform == "linux" and os.environ.get("PRINTGEN_NO_FORK") != "1" and cores() >= 2
            and threading.active_count() == 1)


class Helper:
    """A forked child that runs some of the jobs in turn and pipes back a frame per job; no child
    (`pid` None) if the system refuses a pipe or a process."""

    def __init__(self, jobs: dict[int, Callable[[], Any]]) -> None:
        self.pid: int | None = None
        self.fd: int | None = None
        self.pending = b""
        try:
            read, write = os.pipe()
        except OSError:  # out of file descriptors
            return
        try:
            pid = fork_child()
        except OSError:  # a process or memory limit
            os.close(read)
            os.close(write)
            return
        if pid == 0:
            os.close(read)
            try:
                with os.fdopen(write, "wb") as out:
                    for index, job in jobs.items():
                        out.write(frame(index, job))
                        out.flush()
            finally:
                os._exit(0)  # no exit handler of the parent's runs twice
        os.close(write)
        LIVE.add(pid)
        self.pid, self.fd = pid, read

    def take(self, data: bytes) -> list[tuple[int, bytes]]:
        """The whole frames received so far, as (index, encoded result or b'' for a failure)."""
        self.pending += data
        frames = []
        while len(self.pending) >= FRAME.size:
            index, size = FRAME.unpack_from(self.pending)
            if len(self.pending) < FRAME.size + size:
                break
            frames.append((index, self.pending[FRAME.size:FRAME.size + size]))
            self.pending = self.pending[FRAME.size + size:]
        return frames

    def stop(self) -> None:
        """Close the pipe, kill the helper (finished or not) and wait for it."""
        if self.pid is not None and self.fd is not None:
            os.close(self.fd)
            finish(self.pid)
            self.pid = self.fd = None


def frame(index: int, job: Callable[[], Any]) -> bytes:
    try:
        payload = encode(job())  # plain data (printgen.core.plaincode), never a pickle
    except BaseException:  # noqa: BLE001 - the parent runs the job again and reports it
        payload = b""
    return FRAME.pack(index, len(payload)) + payload


def declared_kinds(jobs: Sequence[Callable[[], Any]]) -> tuple[type, ...]:
    """The dataclasses the jobs' own functions say they return (`-> Tally`, `-> list[Written]`):
    this process's code, never the helper's answer, says what a result may be built as."""
    import dataclasses
    import typing

    found: dict[type, None] = {}

    def walk(hint: Any) -> None:
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            found[hint] = None
        for inner in typing.get_args(hint):
            walk(inner)

    for function in {getattr(job, "func", job) for job in jobs}:
        returned = getattr(function, "__annotations__", {}).get("return")
        probe = lambda: None  # noqa: E731 - the return annotation alone, resolved where it was written:
        probe.__annotations__ = {"return": returned}  # a parameter's type imported for type checking
        try:  # only must not hide it (a helper's answer refused is made again here: twice the work)
            walk(typing.get_type_hints(probe, getattr(function, "__globals__", None)).get("return"))
        except Exception:  # noqa: BLE001 - an annotation that does not resolve declares nothing
            continue
    return tuple(found)


def decoded(payload: bytes, kinds: Sequence[type] = ()) -> tuple[bool, Any]:
    """(True, the result), or (False, None) for a job to run again here. `kinds`: the dataclasses
    the result may hold besides PLAIN_KINDS (declared_kinds)."""
    if payload:
        try:
            return True, decode(payload, (*PLAIN_KINDS, *kinds))
        except (ValueError, TypeError, RecursionError):  # not what a helper of ours sends
            pass
    return False, None


def on_cores(jobs: Sequence[Callable[[], T]], on_result: Callable[[int, T], None] | None = None,
             workers: int | None = None, meanwhile: Callable[[], object] | None = None) -> list[T]:
    """Every job's result, in the jobs' order, computed by up to `workers` helpers (default: one per
    usable core); `on_result(index, result)` hears of each as it arrives. A result may hold the
    dataclasses the jobs' functions declare they return. `meanwhile()` runs here once the helpers
    started (with none, before the jobs): given it, even one job goes to another core."""
    workers = min(workers or cores(), len(jobs))
    results: dict[int, T] = {}

    def done(index: int, value: T) -> None:
        results[index] = value
        if on_result is not None:
            on_result(index, value)

    forking = (workers > 1 or meanwhile) and can_fork()
    helpers = [Helper({i: jobs[i] for i in range(w, len(jobs), workers)}) for w in range(workers if forking else 0)]
    started = [helper for helper in helpers if helper.pid]
    try:
        if meanwhile is not None:
            meanwhile()
        gather(started, done, declared_kinds(jobs) if started else ())
    finally:
        for helper in started:
            helper.stop()
    for index, job in enumerate(jobs):  # never sent (no helper, or one that failed): run here
        if index not in results:
            done(index, job())
    return [results[i] for i in range(len(jobs))]


def gather(helpers: list[Helper], done: Callable[[int, Any], None], kinds: Sequence[type] = ()) -> None:
    """Read every helper's frames as they come, until every helper has closed its pipe."""
    with selectors.DefaultSelector() as selector:
        for helper in helpers:
            assert helper.fd is not None
            selector.register(helper.fd, selectors.EVENT_READ, helper)
        while selector.get_map():
            for key, _ in selector.select():
                data = os.read(key.fd, 1 << 16)
                if not data:
                    selector.unregister(key.fd)
                    continue
                for index, payload in key.data.take(data):
                    ok, value = decoded(payload, kinds)
                    if ok:
                        done(index, value)
