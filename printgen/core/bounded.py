"""Run work on untrusted input in a child process the operating system keeps within a budget.

The checks inside the template sandbox and the art readers count what they can foresee, but a
keyword argument nobody thought of, a filter on a huge list or a decoder's own worst case can still
run for minutes or take gigabytes. So every template render and every decode of user art runs in a
forked child with:

* a memory bound the kernel enforces (RLIMIT_AS: the address space the child already shares with
  printgen, plus the budget), so an allocation past it fails inside the child;
* a CPU-time bound (RLIMIT_CPU) and a wall-clock deadline watched by printgen, which kills the
  child with SIGKILL when it passes;
* no way back but one JSON message on a pipe: plain data (text, numbers, lists, the problems found),
  never a live object; a job may instead return bytes (a drawing made from SVG art, which the
  caller reads with `drawingdata.loads`, classes of drawings only). A child that dies, overruns or sends anything else is reported as the budget
  it broke.

A fork shares everything already imported, so a child starts in about a millisecond. Where fork is
not available (not POSIX), the job runs in this process with only the in-process checks; SECURITY.md
says so. Children are recorded in `LIVE` so that an interrupted printgen ends them all.
"""
from __future__ import annotations

import gc
import json
import math
import os
import resource
import select
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from printgen.core.problems import DefinitionError, Problem

MiB = 1024 * 1024
MAX_MESSAGE = 128 * MiB  # the most a child may send back (a text is ~1 MiB; a drawing up to ~100)
LIVE: set[int] = set()  # pids of children running now; `stop_children` ends them


@dataclass(frozen=True)
class Budget:
    """What one piece of work may use: wall-clock seconds and memory beyond printgen's own."""

    seconds: float
    memory: int  # bytes of address space the child may add to what it inherits
    what: str  # for messages: "the template", "the picture", "the font"


class BudgetExceeded(ValueError):
    """The work broke its budget; the message says which budget, in the user's terms."""


def can_fork() -> bool:
    return hasattr(os, "fork") and os.environ.get("PRINTGEN_NO_SANDBOX_PROCESS") != "1"


def run_bounded(job: Callable[[], Any], budget: Budget) -> Any:
    """`job()`'s result (JSON data), computed in a child under `budget`.

    A `ValueError` or `DefinitionError` raised by the job comes back as the same kind of error with
    the same message or problems; breaking the budget is a `BudgetExceeded`; anything else the job
    raises is printgen's own bug and comes back as a RuntimeError.
    """
    return start_bounded(job, budget).result()


def start_bounded(job: Callable[[], Any], budget: Budget) -> "Running":
    """`run_bounded` begun: the child works beside this process until `.result()` is asked for
    (its wall-clock budget counts from now); `.stop()` ends it unasked."""
    return Running(job, budget)


class Running:
    """A bounded child at work (or, where there is no fork, a job to run when its result is asked)."""

    def __init__(self, job: Callable[[], Any], budget: Budget) -> None:
        self.job, self.budget = job, budget
        self.pid: int | None = None
        self.read: int | None = None
        self.status = 0  # the child's wait status, once it is waited for
        self.deadline = time.monotonic() + budget.seconds
        self.owner = os.getpid()  # a process forked meanwhile inherits this object, not the child
        self.forked = False  # a child was started: asked for once ended, the job runs in a new one
        if not can_fork():
            return
        find_prctl()
        parent = os.getpid()
        read, write = os.pipe()
        pid = fork_frozen()
        if pid == 0:  # the child: never returns
            os.close(read)
            child(job, budget, write, parent)
        os.close(write)
        LIVE.add(pid)
        self.pid, self.read, self.forked = pid, read, True

    def result(self) -> Any:
        if os.getpid() != self.owner:  # a helper forked after the start: the child is not its own
            return run_bounded(self.job, self.budget)
        if self.pid is None or self.read is None:  # no fork here; or ended (`stop`), never unbounded then
            return run_bounded(self.job, self.budget) if self.forked else self.job()
        try:
            payload, timed_out = collect(self.read, self.deadline)
        finally:
            self.stop()
        if timed_out:
            raise BudgetExceeded(f"{self.budget.what} took more than {self.budget.seconds:g} s, the most "
                                 f"printgen allows; make it simpler")
        return decode(payload, self.status, self.budget)

    def stop(self) -> None:
        """Close the pipe, and kill and wait for the child if it still runs (once); in a process
        forked meanwhile, only close its copy of the pipe."""
        if os.getpid() != self.owner:
            if self.read is not None:
                os.close(self.read)
                self.read = None
            self.pid = None
            return
        if self.read is not None:
            os.close(self.read)
            self.read = None
        if self.pid is not None:
            self.status = finish(self.pid)
            self.pid = None


def fork_frozen() -> int:
    """`os.fork()` with the objects printgen already holds frozen, so a garbage collection in the
    child skips them instead of touching (and so copying) every page of the parent's heap: ~90 ms
    less per child. The parent unfreezes them at once; the child keeps them frozen.

    Ctrl-C and SIGTERM are held back across the fork, and the child ignores Ctrl-C before it takes
    them again: otherwise one arriving in between would run printgen's own handler in the child too,
    and the user would read "interrupted" twice."""
    stops = {signal.SIGINT, signal.SIGTERM}
    held = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    gc.freeze()
    try:
        pid = os.fork()
    except BaseException:
        gc.unfreeze()
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # printgen itself ends its children
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    else:
        gc.unfreeze()
    signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid


def child(job: Callable[[], Any], budget: Budget, write: int, parent: int) -> None:
    """Set the limits, run the job, send one message, and leave without running exit handlers."""
    code = 0
    try:
        die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # printgen itself ends its children on Ctrl-C
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        limit(budget)
        blob = b""
        try:
            result = job()
            if isinstance(result, bytes):  # sent after the JSON line, as it is
                message: dict[str, Any] = {"bytes": len(result)}
                blob = result
            else:
                message = {"ok": result}
        except MemoryError:
            message = {"memory": True}
        except RecursionError:
            message = {"value": f"{budget.what} nests too deeply to be read"}
        except DefinitionError as exc:
            message = {"problems": [[p.file, p.line, p.path, p.message] for p in exc.problems]}
        except ValueError as exc:
            message = {"value": str(exc)}
        except Exception as exc:  # noqa: BLE001 - printgen's bug; the parent reports it as such
            message = {"bug": f"{type(exc).__name__}: {exc}"}
        try:
            data = json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (ValueError, TypeError, MemoryError) as exc:
            data = json.dumps({"bug": f"unsendable result: {type(exc).__name__}"}).encode()
        with os.fdopen(write, "wb") as out:
            out.write(data)
            if blob:
                out.write(b"\n")
                out.write(blob)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        code = 1
    finally:
        os._exit(code)


_PRCTL: list[Any] = []  # libc's prctl, looked up once in the parent (not in every child)


def find_prctl() -> None:
    if _PRCTL or sys.platform != "linux":
        return
    try:
        import ctypes

        _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl)
    except (OSError, AttributeError):
        _PRCTL.append(None)


def die_with_parent(parent: int) -> None:
    """On Linux, the kernel kills this child if printgen dies first (even by SIGKILL)."""
    if _PRCTL and _PRCTL[0] is not None:
        _PRCTL[0](1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def address_space() -> int:
    """This process's virtual memory size in bytes (what RLIMIT_AS counts), 0 if unknown."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def limit(budget: Budget) -> None:
    """Cap the child's address space and CPU time, never above a limit it inherited."""
    def cap(kind: int, wanted: int) -> None:
        soft, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        if soft != resource.RLIM_INFINITY:
            wanted = min(wanted, soft)
        resource.setrlimit(kind, (wanted, hard))

    used = address_space()
    if used:
        cap(resource.RLIMIT_AS, used + budget.memory)
    cap(resource.RLIMIT_CPU, math.ceil(budget.seconds) + 1)


SENDING_SECONDS = 2.0  # s the next part of a message already begun may take to come (a pipe holds 64 KiB)


def collect(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Everything the child sends until it closes the pipe; (data, True) if the deadline (on the
    monotonic clock) passed with nothing more to read. What a child sent in time is read even when
    this process comes to read it later (a child started ahead of its use)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if chunks:  # the job is done (a child sends only then) and the rest waits in the child for
            left = max(left, SENDING_SECONDS)  # this process to make room in the pipe: not its budget
        ready, _, _ = select.select([fd], [], [], max(left, 0.0))
        if not ready:
            if left <= 0:
                return b"", True
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks), False
        size += len(chunk)
        if size > MAX_MESSAGE:
            return b"", False
        chunks.append(chunk)


def finish(pid: int) -> int:
    """Kill the child if it still runs, wait for it, and return its wait status."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = 0
    LIVE.discard(pid)
    return status


def decode(payload: bytes, status: int, budget: Budget) -> Any:
    """The child's message as a result or the error it stands for."""
    memory = (f"{budget.what} needed more than {budget.memory // MiB} MiB of memory, the most "
              f"printgen allows; make it smaller")
    head, _, blob = payload.partition(b"\n")  # JSON written without indent has no raw newline
    try:
        message = json.loads(head.decode("utf-8")) if head else None
    except (UnicodeDecodeError, ValueError):
        message = None
    if not isinstance(message, dict):
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
            raise BudgetExceeded(f"{budget.what} used more than {budget.seconds:g} s of processor "
                                 f"time, the most printgen allows; make it simpler")
        raise BudgetExceeded(memory)  # died without a word: the kernel refused it memory
    if "ok" in message:
        return message["ok"]
    if "bytes" in message and message["bytes"] == len(blob):
        return blob
    if "memory" in message:
        raise BudgetExceeded(memory)
    if "problems" in message:
        raise DefinitionError([Problem(str(f), int(line), str(path), str(text))
                               for f, line, path, text in message["problems"]])
    if "value" in message:
        raise ValueError(str(message["value"]))
    raise RuntimeError(f"while reading {budget.what} in a bounded child: {message.get('bug')}")


def stop_children() -> None:
    """End every bounded child still running (printgen is being interrupted)."""
    for pid in list(LIVE):
        finish(pid)
