"""Run work on untrusted input in one forked worker that the operating system keeps within a budget:
the sandbox's own checks count what they foresee, but a filter on a huge list or a decoder's worst
case could still run for minutes or take gigabytes. The worker has a memory bound the kernel enforces
(RLIMIT_AS: what it shares with printgen plus the budget), a CPU-time bound and a wall-clock deadline
after which printgen kills it; it dies with printgen. `Child` is the one way printgen runs work
apart: the build's worker (`run_apart`, `run_bounded`) and the helpers a worker forks on other cores
(printgen.core.parallel) alike. Its one way back is a line of JSON a job (printgen.core.plain):
never a pickle, so nothing it sends can name code; files go in a folder (printgen.core.staging).
With no fork (not POSIX, or PRINTGEN_NO_SANDBOX_PROCESS=1: SECURITY.md), `run_apart` runs its
job here.
"""
from __future__ import annotations

import gc
import io
import json
import math
import os
import resource
import select
import signal
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from printgen.core.plain import plain
from printgen.core.problems import DefinitionError, Problem

MiB = 1024 * 1024
MAX_MESSAGE = 128 * MiB  # the most one answer may hold (files go in a folder)
LIVE: set[int] = set()  # pids of workers and helpers running now; `stop_children` ends them
PIPE_ROOM = 1 * MiB  # a child's pipe, where Linux allows it (its default limit for a pipe's size)
MAX_SAID = 1 * MiB  # the end of what a worker said on a stderr held in memory


@dataclass(frozen=True)
class Budget:
    """What one piece of work may use: wall-clock seconds and memory beyond printgen's own."""

    seconds: float
    memory: int  # bytes of address space the worker may add to what it inherits
    what: str  # for messages: "the build", "the template", "the picture"


class BudgetExceeded(ValueError):
    """The work broke its budget; the message says which budget, in the user's terms."""


class BadReport(RuntimeError):
    """A worker's message that is not the plain JSON a worker sends: printgen's bug, or a forgery."""


def can_fork() -> bool:
    return hasattr(os, "fork") and os.environ.get("PRINTGEN_NO_SANDBOX_PROCESS") != "1"


@dataclass(frozen=True)
class Outcome:
    """How one job in a child ended, as checked on arrival: `kind` "ok" (`value` is its JSON result),
    "problems" (`value`: the located problems), "value" or "bug" (`value`: the message), "memory",
    "time" (the wall-clock backstop) or "cpu"."""

    kind: str
    value: Any = None


class Child:
    """A forked child, under `budget`, that runs `jobs` in turn and sends one line of JSON for each
    (printgen.core.plain, never a pickle); `outcomes` reads them as they come."""

    def __init__(self, jobs: Sequence[Callable[[], Any]], budget: Budget) -> None:
        self.budget = budget
        self.deadline = time.monotonic() + budget.seconds
        self.pending = bytearray()
        self.received = 0
        self.expected = len(jobs)
        read, write = os.pipe()
        roomy(write)
        try:
            self.pid = fork_child()
        except OSError:
            os.close(read)
            os.close(write)
            raise
        if self.pid == 0:  # the child: never returns
            os.close(read)
            child(jobs, budget, write)
        os.close(write)
        LIVE.add(self.pid)
        self.fd: int | None = read

    def take(self, data: bytes) -> list[Outcome]:
        """The outcomes whole in what has arrived so far (`data` empty: the pipe closed)."""
        self.pending += data
        lines = self.pending.split(b"\n")
        self.pending = lines.pop()
        if self.received + len(lines) > self.expected or len(self.pending) > MAX_MESSAGE:
            raise BadReport(f"{self.budget.what}: the child sent more than its jobs' answers")
        self.received += len(lines)
        return [outcome_of(bytes(line), self.budget) for line in lines]

    def read(self) -> list[Outcome]:
        """Every outcome until the child closes its pipe or its time is up (then a "time" outcome)."""
        assert self.fd is not None
        found: list[Outcome] = []
        while True:
            if not select.select([self.fd], [], [], max(self.deadline - time.monotonic(), 0.0))[0]:
                return [*found, Outcome("time")]
            data = os.read(self.fd, 1 << 20)
            if not data:
                if self.pending:
                    raise BadReport(f"{self.budget.what}: the worker's answer is not lines of JSON; refused unread")
                return found
            found += self.take(data)

    def stop(self) -> int:
        """Close the pipe, kill the child if it still runs, wait for it; its wait status."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        return finish(self.pid)


def roomy(pipe: int) -> None:
    """Give a child's pipe room for many answers (Linux; elsewhere, or past the system's limit, it
    keeps its size): a helper's answer to a page of a deck's pictures is some 10 KB, and a worker
    writing a large deck's sheets reads none for seconds, while the helper would wait at 64 KB."""
    with suppress(OSError, AttributeError, ImportError):
        import fcntl

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, PIPE_ROOM)


def run_apart(job: Callable[[], Any], budget: Budget) -> Outcome:
    """`job()` run in one bounded child (printgen.core.bounded's limits), and how it ended. With no
    fork, it runs here and its exceptions pass through. Only printgen's own process asks this (a
    command's worker: cli.engine, cli.validate); a worker's helpers are `Child`ren (core.parallel)."""
    if not can_fork():
        return Outcome("ok", job())
    worker = Child([job], budget)
    try:
        found = worker.read()
    finally:
        status = worker.stop()
    if found and found[-1].kind == "time":
        return found[-1]
    if not found:  # died without a word
        cpu = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU
        return Outcome("cpu" if cpu else "memory")
    return found[0]


def run_bounded(job: Callable[[], Any], budget: Budget) -> Any:
    """`job()`'s result (JSON data), computed in a worker under `budget` (here if there is no
    fork). A job's `ValueError` or `DefinitionError` comes back as
    itself; a broken budget is a `BudgetExceeded`; anything else is printgen's bug (RuntimeError)."""
    if not can_fork():
        return job()
    return result_of(run_apart(job, budget), budget)


def result_of(outcome: Outcome, budget: Budget) -> Any:
    """An outcome's value, or the exception it stands for."""
    if outcome.kind == "ok":
        return outcome.value
    if outcome.kind == "problems":
        raise DefinitionError(outcome.value)
    if outcome.kind == "value":
        raise ValueError(outcome.value)
    if outcome.kind == "bug":
        raise RuntimeError(f"while running {budget.what} in a worker: {outcome.value}")
    if outcome.kind == "time":
        raise BudgetExceeded(f"{budget.what} took more than {budget.seconds:g} s, the most "
                             f"printgen allows; make it simpler")
    if outcome.kind == "cpu":
        raise BudgetExceeded(f"{budget.what} used more than {budget.seconds:g} s of processor "
                             f"time, the most printgen allows; make it simpler")
    raise BudgetExceeded(f"{budget.what} needed more than {budget.memory // MiB} MiB of memory, the most "
                         f"printgen allows; make it smaller")


def fork_child() -> int:
    """`os.fork()` for a child that dies with this process, with Ctrl-C and SIGTERM held back across
    it and Ctrl-C ignored in the child: otherwise one arriving in between would run printgen's own
    handler in the child too ("interrupted" twice). The child freezes the objects it inherits
    (gc.freeze, as Python's documentation advises for a fork without exec): its collections then
    never walk them, and each page they lie in stays shared instead of being copied on write. A
    build forked from a small `printgen` process gains little; the test suite, whose workers of
    several hundred MB fork every build, took 3 % less CPU (577 -> 561 CPU-s)."""
    prctl, parent = find_prctl(), os.getpid()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        pid = os.fork()
        if pid == 0:
            gc.freeze()  # what it inherits is never collected here, so collections never copy its pages
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # printgen itself ends its children
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            if prctl is not None:  # the kernel kills this child if printgen dies first
                prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid


def child(jobs: Sequence[Callable[[], Any]], budget: Budget, write: int) -> None:
    """Set the limits, run each job and send a line for it, and leave without running exit handlers."""
    code = 0
    try:
        limit(budget)
        said = held_stderr()
        with os.fdopen(write, "wb") as out:
            for job in jobs:
                message = answer(job, budget)
                if said is not None:
                    message["said"] = said.getvalue()[-MAX_SAID:]
                    said.seek(0)
                    said.truncate()
                try:
                    data = json.dumps(message, ensure_ascii=True, allow_nan=False).encode()
                except (ValueError, TypeError, MemoryError) as exc:
                    data = json.dumps({"bug": f"unsendable result: {type(exc).__name__}"}).encode()
                sys.stderr.flush()
                out.write(data + b"\n")
                out.flush()
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        code = 1
    finally:
        os._exit(code)


def answer(job: Callable[[], Any], budget: Budget) -> dict[str, Any]:
    """The message that tells how `job()` ended, its result as plain data."""
    try:
        return {"ok": plain(job())}
    except MemoryError:
        return {"memory": True}
    except RecursionError:
        return {"value": f"{budget.what} nests too deeply to be read"}
    except DefinitionError as exc:
        return {"problems": [p.as_list() for p in exc.problems]}
    except ValueError as exc:
        return {"value": str(exc)}
    except Exception as exc:  # noqa: BLE001 - printgen's bug; the parent reports it as such
        return {"bug": f"{type(exc).__name__}: {exc}"}


def held_stderr() -> io.StringIO | None:
    """Where stderr is not a file (a test's runner holds it in memory), what the worker says there is
    kept, to be sent with its message; a real stderr is shared, so a progress bar moves as it goes."""
    try:
        sys.stderr.fileno()
        return None
    except (AttributeError, OSError, ValueError):
        sys.stderr = io.StringIO()
        return sys.stderr


def find_prctl() -> Any:
    """libc's prctl (a lookup in the loaded libc, once a fork); None where there is none."""
    if sys.platform != "linux":
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def memory_in_use(resident: bool = False) -> int:
    """This process's virtual memory size in bytes (what RLIMIT_AS counts), or its resident size,
    from /proc; 0 where unreadable."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1 if resident else 0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def limit(budget: Budget) -> None:
    """Cap the worker's address space and CPU time, never above a limit it inherited."""
    def cap(kind: int, wanted: int) -> None:
        soft, hard = resource.getrlimit(kind)
        finite = [value for value in (soft, hard) if value != resource.RLIM_INFINITY]
        resource.setrlimit(kind, (min([wanted, *finite]), hard))

    used = memory_in_use()
    if used:
        cap(resource.RLIMIT_AS, used + budget.memory)
    cap(resource.RLIMIT_CPU, math.ceil(budget.seconds) + 1)


def finish(pid: int) -> int:
    """Kill the worker if it still runs, wait for it, and return its wait status."""
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = 0
    LIVE.discard(pid)
    return status


def outcome_of(line: bytes, budget: Budget) -> Outcome:
    """The one check of a child's line: JSON of one of the messages a child sends, or BadReport
    (anything else, a pickle say, is refused unread)."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadReport(f"{budget.what}: the worker's answer is not JSON; refused unread") from None
    if not isinstance(message, dict) or len(message) - ("said" in message) != 1:
        raise BadReport(f"{budget.what}: the worker's answer is not one of the messages a worker sends")
    said = message.pop("said", "")
    if not isinstance(said, str):
        raise BadReport(f"{budget.what}: what the worker said is not text")
    sys.stderr.write(said)
    (kind, value), = message.items()
    if kind == "ok":
        return Outcome("ok", value)
    if kind == "memory" and value is True:
        return Outcome("memory")
    if kind == "problems":
        return Outcome("problems", problems_of(value, budget.what))
    if kind in ("value", "bug") and isinstance(value, str):
        return Outcome(kind, value)
    raise BadReport(f"{budget.what}: the worker's answer is not one of the messages a worker sends")


def problems_of(data: Any, what: str = "the build") -> list[Problem]:
    """Located problems from their JSON form, [file, line, key path, message] each and a spreadsheet
    cell after them when there is one, checked."""
    if not isinstance(data, list):
        raise BadReport(f"{what}: the worker's problems are not a list")
    problems = []
    for item in data:
        if not (isinstance(item, list) and len(item) in (4, 5) and isinstance(item[1], int)
                and not isinstance(item[1], bool) and all(isinstance(v, str) for v in item[:1] + item[2:])):
            raise BadReport(f"{what}: a problem the worker sent is not [file, line, key, message]")
        problems.append(Problem(*item))
    return problems


def stop_children() -> None:
    """End every worker and helper still running (printgen is being interrupted)."""
    for pid in list(LIVE):
        finish(pid)
