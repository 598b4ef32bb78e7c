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


def one_round(steps: Steps, env: dict[str, str] | None, leftovers: list[Path] | None = None) -> Sample:
    """Run the commands `steps(workdir)` one after another in a fresh folder, removed afterwards, or
    added to `leftovers` for the caller to remove once nothing is being measured.

    A multi-step figure (build the PNGs, then export the PDF) adds the steps' times and keeps the
    larger peak.
    """
    workdir = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
    try:
        parts = [run_once(command, workdir, env) for command in steps(workdir)]
    finally:
        if leftovers is None:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            leftovers.append(workdir)
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

    The work folders are removed only after the last round. Removing one (a deck's 2,000 pictures)
    just before the next run slowed that run's own file making: ext4 does not reuse an inode freed
    in the last 30 s or so, and checks each such inode it passes when it makes a file. On the
    reference machine 1,000 empty files took 0.55 s to make 3 s after 2,000 were removed, 0.12 s
    40 s later, and a deck build's writing of its files took from 0.3 to 1.5 s of kernel time.
    """
    figures = {key: Figure(job.name) for key, job in jobs.items()}
    rounds = warmup + max(job.runs for job in jobs.values())
    leftovers: list[Path] = []
    try:
        for index in range(rounds):
            report(f"round {index + 1} of {rounds}{' (warm-up)' if index < warmup else ''}")
            for key, job in jobs.items():
                if index < warmup + job.runs:
                    sample = one_round(job.steps, job.env, leftovers)
                    if index >= warmup:
                        figures[key].samples.append(sample)
    finally:
        for workdir in leftovers:
            shutil.rmtree(workdir, ignore_errors=True)
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
