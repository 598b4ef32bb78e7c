"""Whole-process timing: each run is a fresh child process, timed from spawn to exit.

Wall time comes from time.perf_counter around the child; CPU time and peak memory from os.wait4,
which hands back that one child's own rusage (ru_maxrss, KiB on Linux), so one run's peak never
leaks into the next run's figure the way RUSAGE_CHILDREN's running maximum would. Figures that are
compared are measured in turns (one run of each, then the next round), so a machine that gets
busier halfway through slows every figure alike instead of the ones measured last.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

Command = Sequence[str]


@dataclass(frozen=True)
class Sample:
    wall: float  # seconds
    cpu: float  # user + system seconds of the process and the children it waited for
    peak_kib: int


@dataclass
class Figure:
    """A named measurement over several runs: the median wall time and the largest peak memory."""

    name: str
    samples: list[Sample] = field(default_factory=list)
    note: str = ""

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)

    @property
    def spread(self) -> tuple[float, float]:
        return min(s.wall for s in self.samples), max(s.wall for s in self.samples)

    @property
    def peak_mib(self) -> float:
        return max(s.peak_kib for s in self.samples) / 1024


class Failed(RuntimeError):
    """A benchmarked command exited with an error; its output says why."""


def run_once(command: Command, cwd: Path, env: dict[str, str] | None = None) -> Sample:
    """Run `command` to completion and return its wall time and its own peak resident memory."""
    start = time.perf_counter()
    child = subprocess.Popen(list(command), cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0:
        raise Failed(f"{' '.join(command)} exited {child.returncode}: {errors.strip()[-2000:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


Steps = Callable[[Path], list[Command]]


def one_round(steps: Steps, env: dict[str, str] | None) -> Sample:
    """Run the commands `steps(workdir)` one after another in a fresh folder.

    A multi-step figure (build the PNGs, then export the PDF) adds the steps' times and keeps the
    larger peak.
    """
    workdir = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
    try:
        parts = [run_once(command, workdir, env) for command in steps(workdir)]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return Sample(sum(p.wall for p in parts), sum(p.cpu for p in parts), max(p.peak_kib for p in parts))


@dataclass(frozen=True)
class Job:
    name: str
    steps: Steps
    runs: int
    env: dict[str, str] | None = None


def in_turns(jobs: dict[str, Job], warmup: int = 1,
             report: Callable[[str], None] = lambda _: None) -> dict[str, Figure]:
    """Median figures for every job, measured round by round (one run of each job per round).

    One unrecorded warm-up round first, so every recorded run finds the files in the page cache,
    as a designer's second build would.
    """
    figures = {key: Figure(job.name) for key, job in jobs.items()}
    rounds = warmup + max(job.runs for job in jobs.values())
    for index in range(rounds):
        report(f"round {index + 1} of {rounds}{' (warm-up)' if index < warmup else ''}")
        for key, job in jobs.items():
            if index < warmup + job.runs:
                sample = one_round(job.steps, job.env)
                if index >= warmup:
                    figures[key].samples.append(sample)
    return figures


def file_size(steps: Steps, product: str,
              env: dict[str, str] | None = None) -> int:
    """Bytes of the file `product` (relative to the work folder) after one run of `steps`."""
    workdir = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
    try:
        for command in steps(workdir):
            run_once(command, workdir, env)
        return (workdir / product).stat().st_size
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
