"""printgen's one way of using more cores: helpers that run jobs and send each result back, while
this process runs jobs too (a build on two cores is its worker and one helper).

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
    """Every job's result, in the jobs' order, computed by up to `workers` processes (default: one
    per usable core), this one among them: `workers - 1` helpers take the jobs from the start, and
    this process, once `meanwhile()` has run, takes them from the end until the two meet (so the
    cores finish together, however long each job is, and no more processes run than there are
    cores). `on_result(index, result)` hears of each as it arrives. A helper's result comes back as
    `kind` (JSON as it came for `Any`). Given `meanwhile`, even one job goes to another core."""
    workers = min(workers or cores(), len(jobs))
    results: dict[int, T] = {}

    def done(index: int, value: T) -> None:
        results[index] = value
        if on_result is not None:
            on_result(index, value)

    count = max(workers - 1, 1 if meanwhile is not None else 0) if jobs and can_fork() else 0
    shares = [list(range(h, len(jobs), count)) for h in range(count)]
    helpers: dict[Child, list[int]] = {}
    try:
        for share in shares:
            try:
                helpers[Child([jobs[i] for i in share], HELPER_BUDGET)] = share
            except OSError:  # a process, pipe or memory limit: its jobs run here
                continue
        if meanwhile is not None:
            meanwhile()
        if helpers:
            share_from_the_end(jobs, helpers, done, kind, results)
    finally:
        for helper in helpers:
            helper.stop()
    for index, job in enumerate(jobs):  # never sent (no helper, or one that failed): run here
        if index not in results:
            done(index, job())
    return [results[i] for i in range(len(jobs))]


def share_from_the_end(jobs: Sequence[Callable[[], T]], helpers: dict[Child, list[int]],
                       done: Callable[[int, Any], None], kind: Any, results: dict[int, Any]) -> None:
    """Run jobs here from the last one down, reading the helpers' answers between them, skipping
    those a helper has answered or started; then wait for the helpers' answers to the rest. A job
    that fails here is left for the caller to run again once the others are in, to raise its error."""
    taken: set[int] = set()
    with selectors.DefaultSelector() as selector:
        for helper in helpers:
            assert helper.fd is not None
            selector.register(helper.fd, selectors.EVENT_READ, helper)
        for index in reversed(range(len(jobs))):
            gather(selector, helpers, done, kind, results, wait=False)
            started = {share[helper.received] for helper, share in helpers.items()
                       if helper.fd in selector.get_map() and helper.received < len(share)}
            if not selector.get_map():
                break
            if index in results or index in started:
                continue
            taken.add(index)
            try:
                value = jobs[index]()
            except Exception:  # noqa: BLE001 - run again by the caller, after the others, to raise
                break
            done(index, value)
        while selector.get_map() and not all(i in results for i in range(len(jobs)) if i not in taken):
            gather(selector, helpers, done, kind, results, wait=True)


def gather(selector: selectors.BaseSelector, helpers: dict[Child, list[int]], done: Callable[[int, Any], None],
           kind: Any, results: dict[int, Any], wait: bool) -> None:
    """Read what the helpers have answered (`wait`: at least one answer or a closed pipe, within
    their time), each job's first answer kept; a helper past its time is stopped (BudgetExceeded)."""
    while selector.get_map():
        deadline = min(key.data.deadline for key in selector.get_map().values())
        ready = selector.select(max(deadline - time.monotonic(), 0.0) if wait else 0)
        if not ready:
            if wait:
                result_of(Outcome("time"), HELPER_BUDGET)
            return
        for key, _ in ready:
            helper = key.data
            data = os.read(key.fd, 1 << 16)
            if not data:
                selector.unregister(key.fd)
                continue
            first = helper.received
            for index, outcome in zip(helpers[helper][first:], helper.take(data)):
                if outcome.kind == "ok" and index not in results:
                    try:
                        done(index, as_kind(outcome.value, kind))
                    except ValueError:  # not what a helper of ours sends: made again here
                        pass
        if wait:
            return
