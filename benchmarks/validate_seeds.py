"""The bundled Omiga set validated with seeds 1 to 20 at 200 games (issue 17's done-when), through
the real command, with the time each run takes; then the same play checks in-process, as the test
tests/test_omiga_verdicts.py runs them.

    python benchmarks/validate_seeds.py [--games N] [--seeds N]

Prints one line per seed (exit status, seconds, the win gap and its interval, the verdict) and the
totals; exits 1 if any run did not exit 0.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = "import sys; from printgen.launch import main; sys.argv[0] = 'printgen'; main()"


def through_the_command(seeds: int, games: int) -> bool:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ok, total = True, 0.0
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-c", COMMAND, "validate", "omiga", "--json", "--games",
                              str(games), "--seed", str(seed)], capture_output=True, text=True, env=env,
                             cwd=ROOT)
        spent = time.perf_counter() - start
        total += spent
        play = json.loads(run.stdout)["play"]
        gap = play["verdicts"]["max_win_gap"]
        low, high = gap["interval"]
        print(f"seed {seed:2d}: exit {run.returncode}  {spent:5.2f} s  win gap {100 * gap['value']:4.1f} % "
              f"({100 * low:.1f}-{100 * high:.1f})  {gap['verdict']}")
        ok &= run.returncode == 0
    print(f"command: {seeds} runs in {total:.1f} s ({total / seeds:.2f} s a run)")
    return ok


def in_process(seeds: int, games: int) -> bool:
    from printgen.games import bundled_definition
    from printgen.games.omiga import validator
    from printgen.games.omiga.playcheck import play_section
    from printgen.games.omiga.simulation import simulate
    from printgen.games.omiga.tileset import compile_set

    start = time.perf_counter()
    defn, _ = validator.read(bundled_definition("omiga"))
    cs = compile_set(defn)
    errors = 0
    for seed in range(1, seeds + 1):
        found, _ = play_section(defn, cs, simulate(cs, 12, 10, games, seed), seed)
        errors += sum(1 for f in found if f.severity == "error")
    print(f"in-process play checks: {seeds} seeds in {time.perf_counter() - start:.2f} s, {errors} errors")
    return errors == 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    good = through_the_command(args.seeds, args.games)
    good &= in_process(args.seeds, args.games)
    sys.exit(0 if good else 1)
