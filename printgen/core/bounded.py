"""Run work on untrusted input in one forked worker that the operating system keeps within a budget:
the sandbox's own checks count what they foresee, but a filter on a huge list or a decoder's worst
case could still run for minutes or take gigabytes. The worker has a memory bound the kernel enforces
(RLIMIT_AS: what it shares with printgen plus the budget), a CPU-time bound and a wall-clock deadline
after which printgen kills it; it dies with printgen. Its one way back is one JSON message: never a
pickle, so nothing it sends can name code. Inside a worker, or with no fork (not POSIX, or
PRINTGEN_NO_SANDBOX_PROCESS=1: SECURITY.md), `run_bounded` runs its job here.
"""
from __future__ import annotations

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
from typing import Any, Callable

from printgen.core.problems import DefinitionError, Problem

MiB = 1024 * 1024
MAX_MESSAGE = 128 * MiB  # the most a worker may send back on its pipe (files go in a folder)
LIVE: set[int] = set()  # pids of workers and helpers running now; `stop_children` ends them
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


class Inside:
    """Whether this process is a worker (or a helper a worker forked): then work runs here."""

    worker = False


def can_fork() -> bool:
    return hasattr(os, "fork") and os.environ.get("PRINTGEN_NO_SANDBOX_PROCESS") != "1"


def run_bounded(job: Callable[[], Any], budget: Budget) -> Any:
    """`job()`'s result (JSON data), computed in a worker under `budget` (here if this is
    a worker already, or there is no fork). A job's `ValueError` or `DefinitionError` comes back as
    itself; a broken budget is a `BudgetExceeded`; anything else is printgen's bug (RuntimeError)."""
    if Inside.worker or not can_fork():
        return job()
    read, write = os.pipe()
    pid = fork_child()
    if pid == 0:  # the worker: never returns
        os.close(read)
        worker(job, budget, write)
    os.close(write)
    LIVE.add(pid)
    try:
        payload, timed_out = collect(read, time.monotonic() + budget.seconds)
    finally:
        os.close(read)
        status = finish(pid)
    if timed_out:
        raise BudgetExceeded(f"{budget.what} took more than {budget.seconds:g} s, the most "
                             f"printgen allows; make it simpler")
    return decode(payload, status, budget)


def fork_child() -> int:
    """`os.fork()` for a child that dies with this process, with Ctrl-C and SIGTERM held back across
    it and Ctrl-C ignored in the child: otherwise one arriving in between would run printgen's own
    handler in the child too ("interrupted" twice). (gc.freeze() before the fork made no difference
    to a rebuild that could be measured.)"""
    prctl, parent = find_prctl(), os.getpid()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # printgen itself ends its children
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            if prctl is not None:  # the kernel kills this child if printgen dies first
                prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid


def worker(job: Callable[[], Any], budget: Budget, write: int) -> None:
    """Set the limits, run the job, send one message, and leave without running exit handlers."""
    code = 0
    try:
        Inside.worker = True
        limit(budget)
        said = held_stderr()
        try:
            message: dict[str, Any] = {"ok": job()}
        except MemoryError:
            message = {"memory": True}
        except RecursionError:
            message = {"value": f"{budget.what} nests too deeply to be read"}
        except DefinitionError as exc:
            message = {"problems": [p.as_list() for p in exc.problems]}
        except ValueError as exc:
            message = {"value": str(exc)}
        except Exception as exc:  # noqa: BLE001 - printgen's bug; the parent reports it as such
            message = {"bug": f"{type(exc).__name__}: {exc}"}
        if said is not None:
            message["said"] = said.getvalue()[-MAX_SAID:]
        try:
            data = json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (ValueError, TypeError, MemoryError) as exc:
            data = json.dumps({"bug": f"unsendable result: {type(exc).__name__}"}).encode()
        sys.stderr.flush()
        with os.fdopen(write, "wb") as out:
            out.write(data)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        code = 1
    finally:
        os._exit(code)


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


def collect(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Everything the worker sends until it closes the pipe; (b"", True) if the deadline passed."""
    data = bytearray()
    while True:
        if not select.select([fd], [], [], max(deadline - time.monotonic(), 0.0))[0]:
            return b"", True
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return bytes(data), False
        data += chunk
        if len(data) > MAX_MESSAGE:
            return b"", False


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


def decode(payload: bytes, status: int, budget: Budget) -> Any:
    """The worker's message as a result or the error it stands for; anything but JSON (a pickle, say)
    is refused unread."""
    memory = (f"{budget.what} needed more than {budget.memory // MiB} MiB of memory, the most "
              f"printgen allows; make it smaller")
    if not payload:
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
            raise BudgetExceeded(f"{budget.what} used more than {budget.seconds:g} s of processor "
                                 f"time, the most printgen allows; make it simpler")
        raise BudgetExceeded(memory)  # died without a word: the kernel refused it memory
    try:
        message = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadReport(f"{budget.what}: the worker's answer is not JSON; refused unread") from None
    if not isinstance(message, dict) or len(message) - ("said" in message) != 1:
        raise BadReport(f"{budget.what}: the worker's answer is not one of the messages a worker sends")
    said = message.pop("said", "")
    if not isinstance(said, str):
        raise BadReport(f"{budget.what}: what the worker said is not text")
    sys.stderr.write(said)
    if "ok" in message:
        return message["ok"]
    if message.get("memory") is True:
        raise BudgetExceeded(memory)
    if "problems" in message:
        raise DefinitionError(problems_of(message["problems"], budget.what))
    if isinstance(message.get("value"), str):
        raise ValueError(message["value"])
    if isinstance(message.get("bug"), str):
        raise RuntimeError(f"while running {budget.what} in a worker: {message['bug']}")
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
