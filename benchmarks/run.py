"""printgen against the floor and the peer: run by hand, never as a test.

    pip install -e '.[bench]'          # decksmith, the peer
    python benchmarks/run.py           # prints the table and writes performance.md in benchmarks/results/
    python benchmarks/run.py --runs 3 --no-write
    python benchmarks/run.py --out /tmp/perf.md                      # the report written there instead
    python benchmarks/run.py --before /tmp/old --before-label "commit abc1234"   # a column for older code
                                       # (/tmp/old from: git archive abc1234 | tar -x -C /tmp/old)

Every whole-process figure is the median of several fresh processes, each in an empty folder;
every comparison is a ratio of figures taken in this same run, because on a shared machine the
absolute times drift from one run to the next while the ratios hold.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from machine import describe, load_average
from measure import Command, Figure, Job, file_size, in_turns, run_once
from targets import Target, check_targets

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DECKSMITH = HERE / "decksmith"
RESULTS = HERE / "results"  # reports of runs: ignored by git, so a run never edits the tracked docs
PEER_SIZE = ("--width", "42", "--height", "42", "--gap", "0", "--margins", "9.5", "9.5")


@dataclass
class Results:
    """One tree's (or the references') figures: whole-process runs, in-process timings, file sizes."""

    figures: dict[str, Figure] = field(default_factory=dict)
    inner: dict[str, float] = field(default_factory=dict)
    stages: list[tuple[str, float]] = field(default_factory=list)


def importable(tree: Path, scratch: Path) -> Path:
    """A folder from which `import printgen` finds `tree`'s package with its bundled games.

    card_defs/ and templates/ sit beside printgen/ in a checkout, and an install puts them inside the
    package. Today's code finds them either way (printgen/core/bundled.py), but the oldest checkouts
    looked inside the package only, so a tree that has them beside printgen/ gets a copy with them
    inside, which every version finds; one without them (its games' files under printgen/games/)
    is taken as it is.
    """
    if (tree / "printgen" / "card_defs").is_dir() or not (tree / "card_defs").is_dir():
        return tree
    shutil.copytree(tree / "printgen", scratch / "printgen")
    for name in ("card_defs", "templates"):
        if (tree / name).is_dir():
            shutil.copytree(tree / name, scratch / "printgen" / name)
            (scratch / "printgen" / name / "__init__.py").touch()
    return scratch


def printgen_command(tree: Path | None) -> list[str]:
    """The console script's own entry point (printgen.launch), run from the tree on PYTHONPATH."""
    package = tree / "printgen" if tree is not None else REPO / "printgen"
    module = "printgen.launch" if (package / "launch.py").exists() else "printgen.cli.main"
    return [sys.executable, "-m", module]


def environment(tree: Path | None, config_home: Path) -> dict[str, str]:
    """No saved back offset or other user settings: every tree builds with the defaults. Bytecode
    is cached (the warm-up run writes it), as after any install: with PYTHONDONTWRITEBYTECODE set,
    every run would compile printgen's sources again, some 40 ms that no user's run pays. The
    tree measured is found first on the path (this checkout, when none is given)."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(config_home), XDG_CACHE_HOME=str(config_home / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(tree if tree is not None else REPO)
    return env


def find_decksmith() -> str | None:
    return shutil.which("decksmith", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")


def decksmith_steps(work: Path) -> list[Command]:
    tool = find_decksmith()
    assert tool
    return [[tool, "build", "--spec", str(DECKSMITH / "deck.yaml"), "--data", str(DECKSMITH / "deck.csv"),
             "--output", "cards"],
            [tool, "export", "cards", "--output", "tiles.pdf", *PEER_SIZE]]


def floor_steps(work: Path) -> list[Command]:
    return [[sys.executable, str(HERE / "floor_omiga.py"), str(work / "floor.pdf")]]


def printgen_jobs(tree: Path | None, runs: int, config_home: Path) -> dict[str, Job]:
    """printgen's whole-process figures. Every build is a first build: printgen keeps nothing
    between runs."""
    pg, env = printgen_command(tree), environment(tree, config_home)
    omiga = lambda w: [[*pg, "build", "omiga", "--out", str(w / "out")]]  # noqa: E731
    every = lambda w: [[*pg, "build", "--out", str(w / "out")]]  # noqa: E731
    return {
        "omiga": Job("printgen build omiga", omiga, runs, env),
        "all": Job("printgen build (all five games and the sample deck)", every, runs, env),
        "validate": Job("printgen validate omiga (1,000 games)", lambda w: [[*pg, "validate", "omiga"]],
                        runs, env),
        "help": Job("printgen --help", lambda w: [[*pg, "--help"]], runs, env),
    }


def reference_jobs(runs: int, config_home: Path) -> dict[str, Job]:
    """Python's own start-up, the floor and, when installed, the peer (fewer runs: each takes seconds)."""
    env = environment(None, config_home)
    jobs = {"python": Job("python -c pass (the interpreter's own start-up)",
                          lambda w: [[sys.executable, "-c", "pass"]], runs, env),
            "floor": Job("floor: bare reportlab, 72 faces", floor_steps, runs, env)}
    if find_decksmith():
        jobs["decksmith"] = Job("peer: decksmith build + export", decksmith_steps, max(3, runs // 2), env)
    return jobs


def in_process(tree: Path | None, quick: bool, config_home: Path) -> dict[str, float]:
    """The validator and simulation figures, and the size of omiga.pdf, for one tree."""
    env = environment(tree, config_home)
    pg = printgen_command(tree)
    figures = {"size_omiga": float(file_size(lambda w: [[*pg, "build", "omiga", "--out", str(w / "out")]],
                                             "out/omiga/omiga.pdf", env))}
    inner = subprocess.run([sys.executable, str(HERE / "inprocess.py")] + (["--quick"] if quick else []),
                           env=env, check=True, capture_output=True, text=True, cwd=HERE)
    watched = subprocess.run([sys.executable, str(HERE / "watch_rebuild.py"), "--edits", "5" if quick else "9"],
                             env=env, check=True, capture_output=True, text=True, cwd=HERE)
    rebuild = {"rebuild_after_edit": json.loads(watched.stdout)["rebuild_after_edit"]}
    return {**figures, **json.loads(inner.stdout), **rebuild}


def breakdown(tree: Path | None, runs: int, config_home: Path) -> list[tuple[str, float]]:
    """Median seconds per stage of `printgen build omiga` in one process (benchmarks/breakdown.py),
    after the interpreter's own start-up (`python -c pass`)."""
    env = environment(tree, config_home)
    stages: dict[str, list[float]] = {"start Python": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="printgen-bench-") as work:
            stages["start Python"].append(run_once([sys.executable, "-c", "pass"], Path(work), env).wall)
            out = subprocess.run([sys.executable, str(HERE / "breakdown.py"), work], env=env, check=True,
                                 capture_output=True, text=True, cwd=HERE)
        for name, seconds_taken in json.loads(out.stdout).items():
            stages.setdefault(name, []).append(seconds_taken)
    return [(name, statistics.median(values)) for name, values in stages.items()]


def measure(tree: Path | None, before: Path | None, runs: int, quick: bool,
            config_home: Path) -> tuple[Results, Results | None, Results]:
    """Every whole-process figure in turns (see measure.in_turns), then the in-process ones."""
    jobs = {**printgen_jobs(tree, runs, config_home), **reference_jobs(runs, config_home)}
    if before:
        jobs.update({f"before:{k}": job for k, job in printgen_jobs(before, runs, config_home).items()})
    say = lambda text: print(f"measuring: {text}", file=sys.stderr, flush=True)  # noqa: E731
    figures = in_turns(jobs, report=say)
    now = Results({k: f for k, f in figures.items() if k in printgen_jobs(tree, runs, config_home)})
    refs = Results({k: f for k, f in figures.items() if k in ("python", "floor", "decksmith")})
    say("in-process figures, file sizes and the stages of build omiga")
    now.stages = breakdown(tree, runs, config_home)
    refs.inner["size_floor"] = file_size(floor_steps, "floor.pdf")
    if "decksmith" in refs.figures:
        refs.inner["size_decksmith"] = file_size(decksmith_steps, "tiles.pdf")
    old = Results({k.split(":", 1)[1]: f for k, f in figures.items() if k.startswith("before:")}) \
        if before else None
    # in turns too (now, before, now, ...), and the median of each figure over the turns
    turns: list[list[dict[str, float]]] = [[], []]
    for _ in range(max(1, runs // 3)):
        turns[0].append(in_process(tree, quick, config_home))
        if before:
            turns[1].append(in_process(before, quick, config_home))
    now.inner = medians(turns[0])
    if old:
        old.inner = medians(turns[1])
    return now, old, refs


def medians(samples: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def seconds(value: float) -> str:
    return f"{value:.3f} s"


def figure_rows(now: Results, before: Results | None, refs: Results) -> list[tuple[str, ...]]:
    """(what, now, before, detail, peak memory) for the table; `before` cells stay empty without it."""
    rows: list[tuple[str, ...]] = []

    def add(what: str, value: str, old: str, detail: str = "", peak: str = "") -> None:
        rows.append((what, value, old, detail, peak) if before else (what, value, detail, peak))

    for key, f in now.figures.items():
        old = before.figures.get(key) if before else None
        low, high = f.spread
        add(f.name, seconds(f.wall), seconds(old.wall) if old else "",
            f"{low:.3f} to {high:.3f} s; CPU {f.cpu:.3f} s" + (f" (before {old.cpu:.3f})" if old else ""),
            f"{f.peak_mib:.0f} MiB" + (f" (before {old.peak_mib:.0f})" if old else ""))
    if "rebuild_after_edit" in now.inner:
        old_edit = before.inner.get("rebuild_after_edit") if before else None
        add("a rebuild in a running `build --watch` after an edit of Omiga's title",
            seconds(now.inner["rebuild_after_edit"]), seconds(old_edit) if old_edit else "",
            "as the command reports it (benchmarks/watch_rebuild.py): the whole build in a fresh worker, "
            "every file written")
    for f in refs.figures.values():
        low, high = f.spread
        add(f.name, seconds(f.wall), "", f"{low:.3f} to {high:.3f} s; CPU {f.cpu:.3f} s", f"{f.peak_mib:.0f} MiB")
    inner, old = now.inner, (before.inner if before else {})

    def ms(key: str, source: dict[str, float]) -> str:
        return f"{source[key] * 1000:.2f} ms" if key in source else ""

    for tiles in (72, 1_000, 10_000):
        add(f"static checks, {tiles:,} tiles (in-process)", ms(f"static_{tiles}", inner),
            ms(f"static_{tiles}", old), f"structure alone {ms(f'structure_{tiles}', inner)}")
    rate = lambda key, source: f"{source[key]:,.0f} games/s" if key in source else ""  # noqa: E731
    add("simulated games, one core", rate("games_one_core", inner), rate("games_one_core", old))
    add(f"simulated games, all {int(inner['cores'])} cores", rate("games_all_cores", inner),
        rate("games_all_cores", old), f"{int(inner['games_many']):,} games in worker processes")
    add("1,000 games as `validate` plays them", seconds(inner["games_1000"]),
        seconds(old["games_1000"]) if old else "", "in-process: fewer than 2,000 games start no workers")
    kib = lambda key, source: f"{source[key] / 1024:.1f} KiB" if key in source else ""  # noqa: E731
    add("size of omiga.pdf", kib("size_omiga", inner), kib("size_omiga", old))
    for key, label in (("floor", "the floor's PDF"), ("decksmith", "decksmith's PDF")):
        if f"size_{key}" in refs.inner:
            add(f"size of {label}", kib(f"size_{key}", refs.inner), "")
    return rows


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def header(before: Results | None) -> tuple[str, ...]:
    return ("what", "now (median)", "before", "range of runs; median CPU time", "peak memory") if before \
        else ("what", "median", "range of runs; median CPU time", "peak memory")


def stage_rows(stages: list[tuple[str, float]]) -> list[tuple[str, ...]]:
    total = sum(seconds_taken for _, seconds_taken in stages)
    return [(name, f"{seconds_taken * 1000:.0f} ms", f"{seconds_taken / total:.0%}")
            for name, seconds_taken in stages] + [("in all", f"{total * 1000:.0f} ms", "100%")]


def document(rows: list[tuple[str, ...]], head: tuple[str, ...], stages: list[tuple[str, float]],
             targets: list[Target], runs: int, loads: tuple[str, str], before: str | None) -> str:
    notes = (HERE / "notes.md").read_text(encoding="utf-8").strip()
    machine = "\n".join(f"- {k}: {v}" for k, v in describe())
    compared = f"\nThe \"before\" column is {before}, measured in the same rounds.\n" if before else ""
    return f"""# Performance

Measured on {date.today().isoformat()} by `python benchmarks/run.py`: whole-process medians of {runs} runs
after one warm-up, each run in a fresh folder with no user settings and printgen's bytecode cached
(as after an install); peak memory is the largest resident set of any run (a forked helper's
included). The figures and the targets are written anew by every run; the notes after them are kept
in `benchmarks/notes.md`.
{compared}
## Machine

{machine}
- load average (1 / 5 / 15 min) at the start: {loads[0]}; at the end: {loads[1]}

## Figures

{table(head, rows)}

## Where `printgen build omiga` spends its time

One process, each stage's median over {runs} runs (benchmarks/breakdown.py):

{table(("stage", "wall time", "share"), stage_rows(stages))}

## Targets

{table(("target", "measured", "limit", "result"), [t.row() for t in targets])}

{notes}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per whole-process figure (median)")
    parser.add_argument("--tree", type=Path, help="measure the printgen package in this folder instead")
    parser.add_argument("--before", type=Path, help="also measure this older tree, for a before column")
    parser.add_argument("--before-label", help="what to call it in the report")
    parser.add_argument("--quick", action="store_true", help="fewer simulated games")
    parser.add_argument("--no-write", action="store_true", help="print only; write no report")
    parser.add_argument("--out", type=Path, default=RESULTS / "performance.md",
                        help="where to write the report (default: performance.md in benchmarks/results/, which git "
                             "ignores; docs/performance.md is edited by hand from such reports)")
    args = parser.parse_args()
    start_load = load_average()
    with tempfile.TemporaryDirectory(prefix="printgen-bench-") as scratch:
        config_home = Path(scratch) / "config"
        config_home.mkdir()
        tree = importable(args.tree.resolve(), Path(scratch) / "tree") if args.tree else None
        old = importable(args.before.resolve(), Path(scratch) / "before") if args.before else None
        now, before, refs = measure(tree, old, args.runs, args.quick, config_home)
    targets = check_targets({**now.figures, **refs.figures}, {**now.inner, **refs.inner})
    rows, head = figure_rows(now, before, refs), header(before)
    print(table(head, rows))
    print()
    print(table(("stage of build omiga", "wall time", "share"), stage_rows(now.stages)))
    print()
    print(table(("target", "measured", "limit", "result"), [t.row() for t in targets]))
    if not args.no_write:
        out = args.out.resolve()
        out.parent.mkdir(parents=True, exist_ok=True)
        label = (args.before_label or f"the tree in {args.before}") if args.before else None
        out.write_text(document(rows, head, now.stages, targets, args.runs, (start_load, load_average()),
                                label), encoding="utf-8")
        print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
