"""In-process figures, printed as JSON for run.py: the validator's static checks and the simulation.

Run in a child process of its own, so the runner's imports and memory never mix with the figures.
Static checks are structure (names, fit table, deck sizes, duplicates) followed by set-up, dead
tiles and sides, balance and mirror: everything `printgen validate` does before it plays.

    python benchmarks/inprocess.py [--quick]
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time
from typing import Any, Callable

from printgen.games import bundled_definition
from printgen.games.omiga.balance import balance, mirror
from printgen.games.omiga.checks import dead, setup, structure
from printgen.games.omiga.model import Omiga
from printgen.games.omiga.tileset import compile_set
from printgen.games.omiga.simulation import simulate
from printgen.games.omiga.validator import read

from synthetic import tile_set


def median_time(action: Callable[[], Any], repeat: int, inner: int = 1) -> float:
    """Median seconds of one call, over `repeat` timings of `inner` calls each."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            action()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def static_checks(defn: Omiga) -> int:
    """Every check before play; returns the number of findings (so nothing is optimised away)."""
    found = len(structure(defn))
    cs = compile_set(defn)
    for check in (setup, dead, balance, mirror):
        found += len(check(defn, cs)[0])
    return found


def figures(quick: bool) -> dict[str, Any]:
    base, _ = read(bundled_definition("omiga"))
    v = base.validation
    out: dict[str, Any] = {"cores": os.cpu_count() or 1}
    out["structure_72"] = median_time(lambda: structure(base), 5, 50)
    out["static_72"] = median_time(lambda: static_checks(base), 5, 20)
    for tiles in (1_000, 10_000):
        synthetic = tile_set(base, tiles)
        out[f"structure_{tiles}"] = median_time(lambda: structure(synthetic), 3)
        out[f"static_{tiles}"] = median_time(lambda: static_checks(synthetic), 3)
        out[f"findings_{tiles}"] = static_checks(synthetic)
    cs = compile_set(base)
    table = (v.table.columns, v.table.rows)
    one = 1_000 if quick else 4_000
    out["games_one_core"] = one / median_time(lambda: simulate(cs, *table, one, v.seed, workers=1), 3)
    many = 4_000 if quick else 20_000
    out["games_many"] = many
    cores = out["cores"]
    out["games_all_cores"] = many / median_time(lambda: simulate(cs, *table, many, v.seed, workers=cores), 3)
    # what `printgen validate` does with the bundled set's 1,000 games (it picks the cores itself)
    out["games_1000"] = median_time(lambda: simulate(cs, *table, 1_000, v.seed), 3)
    return out


if __name__ == "__main__":
    print(json.dumps(figures("--quick" in sys.argv[1:])))
