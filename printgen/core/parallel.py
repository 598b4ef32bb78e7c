"""printgen's one way of using more cores: helpers that run jobs and send each result back.

A helper is a `printgen.core.bounded.Child`, as a build's worker is: forked (inside a build's worker,
so it shares its limits and dies with it), bounded, answering a line of plain JSON a job. A fork
starts in a millisecond (a pool's fresh interpreter spends a third of a second importing) and a
job's inputs are not sent. A job is the same code wherever it runs, so the bytes are the same. The
caller names the kind of result (`kind`: a type hint such as `list[Written]`), and an answer is
rebuilt only as that kind (printgen.core.plain). Where forking is not safe or useful (not Linux, one
core, other threads running, PRINTGEN_NO_FORK=1) the jobs run here; a job whose helper fails in
any way runs here again.
"""
from __future__ import annotations

import os
import selectors
import sys
import threading
import time
from typing import Any, Callable, Sequence, TypeVar

from printgen.core.bounded import MiB, Budget, Child, Outcome, result_of
from printgen.core.plain import as_kind

T = TypeVar("T")
HELPER_BUDGET = Budget(seconds=600.0, memory=2048 * MiB, what="a helper")  # never above the worker's own


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def can_fork() -> bool:
    return (sys.platform == "linux" and os.environ.get("PRINTGEN_NO_FORK") != "1" and cores() >= 2
            and threading.active_count() == 1)


def on_cores(jobs: Sequence[Callable[[], T]], on_result: Callable[[int, T], None] | None = None,
             workers: int | None = None, meanwhile: Callable[[], object] | None = None,
             kind: Any = Any) -> list[T]:
    """Every job's result, in the jobs' order, computed by up to `workers` helpers (default: one per
    usable core); `on_result(index, result)` hears of each as it arrives. A helper's result comes
    back as `kind` (JSON as it came for `Any`). `meanwhile()` runs here once the helpers started
    (with none, before the jobs): given it, even one job goes to another core."""
    workers = min(workers or cores(), len(jobs))
    results: dict[int, T] = {}

    def done(index: int, value: T) -> None:
        results[index] = value
        if on_result is not None:
            on_result(index, value)

    shares = [list(range(w, len(jobs), workers)) for w in range(workers)] if (
        (workers > 1 or meanwhile) and can_fork()) else []
    helpers: dict[Child, list[int]] = {}
    try:
        for share in shares:
            try:
                helpers[Child([jobs[i] for i in share], HELPER_BUDGET)] = share
            except OSError:  # a process, pipe or memory limit: its jobs run here
                continue
        if meanwhile is not None:
            meanwhile()
        gather(helpers, done, kind)
    finally:
        for helper in helpers:
            helper.stop()
    for index, job in enumerate(jobs):  # never sent (no helper, or one that failed): run here
        if index not in results:
            done(index, job())
    return [results[i] for i in range(len(jobs))]


def gather(helpers: dict[Child, list[int]], done: Callable[[int, Any], None], kind: Any) -> None:
    """Read every helper's answers as they come, until every helper has closed its pipe; a helper
    past its time is stopped (BudgetExceeded)."""
    with selectors.DefaultSelector() as selector:
        for helper in helpers:
            assert helper.fd is not None
            selector.register(helper.fd, selectors.EVENT_READ, helper)
        while selector.get_map():
            deadline = min(key.data.deadline for key in selector.get_map().values())
            ready = selector.select(max(deadline - time.monotonic(), 0.0))
            if not ready:
                result_of(Outcome("time"), HELPER_BUDGET)
            for key, _ in ready:
                helper = key.data
                data = os.read(key.fd, 1 << 16)
                if not data:
                    selector.unregister(key.fd)
                    continue
                first = helper.received
                for index, outcome in zip(helpers[helper][first:], helper.take(data)):
                    if outcome.kind == "ok":
                        try:
                            done(index, as_kind(outcome.value, kind))
                        except ValueError:  # not what a helper of ours sends: made again here
                            pass
