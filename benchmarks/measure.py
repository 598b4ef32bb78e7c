"""Whole-process timing: each run is a fresh child process, timed from spawn to exit.

Wall time comes from time.perf_counter around the child; peak memory from os.wait4, which hands
back that one child's own rusage (ru_maxrss, KiB on Linux), so one run's peak never leaks into the
next run's figure the way RUSAGE_CHILDREN's running maximum would.
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
    return Sample(wall, usage.ru_maxrss)


def whole_process(name: str, steps: Callable[[Path], list[Command]], runs: int,
                  env: dict[str, str] | None = None, warmup: int = 1) -> Figure:
    """Median over `runs` of the commands `steps(workdir)` run one after another in a fresh folder.

    A multi-step figure (build the PNGs, then export the PDF) adds the steps' wall times and keeps
    the larger peak. One unrecorded warm-up run first, so every recorded run finds the files in the
    page cache, as a designer's second build would.
    """
    figure = Figure(name)
    for index in range(warmup + runs):
        workdir = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
        try:
            parts = [run_once(command, workdir, env) for command in steps(workdir)]
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if index >= warmup:
            figure.samples.append(Sample(sum(p.wall for p in parts), max(p.peak_kib for p in parts)))
    return figure


def file_size(steps: Callable[[Path], list[Command]], product: str,
              env: dict[str, str] | None = None) -> int:
    """Bytes of the file `product` (relative to the work folder) after one run of `steps`."""
    workdir = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
    try:
        for command in steps(workdir):
            run_once(command, workdir, env)
        return (workdir / product).stat().st_size
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
