"""The deck benchmark (issue 14's targets): a 1,000-card and a 10,000-card poker deck, printgen
against the bare reportlab floor and, when it is installed, decksmith. Run by hand, never as a test:

    python benchmarks/deck/run_deck.py                      # 1,000 cards (3 runs) and 10,000 (1 run)
    python benchmarks/deck/run_deck.py --counts 1000 --runs 5
    python benchmarks/deck/run_deck.py --peer               # decksmith too (about 80 s a run at 1,000)
    python benchmarks/deck/run_deck.py --before /tmp/old    # older code's build too, in the same turns
                                       # (/tmp/old from: git archive abc1234 | tar -x -C /tmp/old)

Every figure is a whole fresh process in an empty folder (measure.run_once: wall time, CPU time of
it and its helpers, the largest resident set of it or any helper it waited for); medians of the
runs, measured in turns so a machine growing busier slows every figure alike. Prints a table.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from measure import Command, Figure, Job, in_turns  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def printgen(deck: Path, *args: str) -> Command:
    return [sys.executable, "-m", "printgen.launch", "build", str(deck / "deck.yaml"), *args]


def jobs_for(deck: Path, runs: int, env: dict[str, str], peer: bool, before: Path | None) -> dict[str, Job]:
    """What is measured for one deck: the build as it comes (deck.pdf, the overview, an SVG of every
    card) and the sheets alone, each with and without the helpers on the second core; the build with
    `--png` (a PNG of every card too); the floor (and the peer)."""
    one_core = dict(env, PRINTGEN_NO_FORK="1")
    full = lambda w: [printgen(deck, "--out", str(w / "out"))]  # noqa: E731
    with_png = lambda w: [printgen(deck, "--out", str(w / "out"), "--png")]  # noqa: E731
    sheets = lambda w: [printgen(deck, "--out", str(w / "out"), "--no-pictures")]  # noqa: E731
    floor = lambda w: [[sys.executable, str(HERE / "floor_deck.py"), str(deck), str(w / "floor.pdf")]]  # noqa: E731
    jobs = {
        "full": Job("printgen build (deck.pdf, the overview, an SVG of every card)", full, runs, env),
        "full_serial": Job("the same, helpers off", full, runs, one_core),
        "png": Job("printgen build --png (a PNG of every card too, 150 dpi)", with_png, runs, env),
        "sheets": Job("printgen build --no-pictures (deck.pdf alone)", sheets, runs, env),
        "sheets_serial": Job("the same, helpers off", sheets, runs, one_core),
        "floor": Job("floor: bare reportlab, the same sheets", floor, runs, env),
    }
    if before is not None:
        jobs["before"] = Job(f"before ({before}): printgen build", full, runs, dict(env, PYTHONPATH=str(before)))
    decksmith = shutil.which("decksmith", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    if peer and decksmith:
        def steps(w: Path) -> list[Command]:
            # as benchmarks/run.py runs it for Omiga, with the card's size in mm
            return [[decksmith, "build", "--spec", str(deck / "peer.yaml"), "--data", str(deck / "peer.csv"),
                     "--output", str(w / "cards")],
                    [decksmith, "export", str(w / "cards"), "--output", str(w / "peer.pdf"), "--width", "63.5",
                     "--height", "88.9", "--gap", "4"]]
        jobs["peer"] = Job("peer: decksmith build + export", steps, 1, env)
    return jobs


def sizes(deck: Path, env: dict[str, str]) -> tuple[int, int]:
    """deck.pdf's size and the floor's, from one run of each."""
    work = Path(tempfile.mkdtemp(prefix="printgen-bench-"))
    try:
        subprocess.run(printgen(deck, "--out", str(work / "out"), "--no-pictures"), env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([sys.executable, str(HERE / "floor_deck.py"), str(deck), str(work / "floor.pdf")],
                       env=env, check=True)
        return (work / "out" / "deck" / "deck.pdf").stat().st_size, (work / "floor.pdf").stat().st_size
    finally:
        shutil.rmtree(work, ignore_errors=True)


def row(figure: Figure, floor: Figure) -> str:
    low, high = figure.spread
    return (f"| {figure.name} | {figure.wall:.2f} s | {figure.wall / floor.wall:.1f}x | {low:.2f} to {high:.2f} s; "
            f"CPU {figure.cpu:.2f} s | {figure.peak_mib:.0f} MiB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3, help="runs at 1,000 cards or fewer (larger decks: 1)")
    parser.add_argument("--peer", action="store_true", help="run decksmith too, if installed")
    parser.add_argument("--before", type=Path, help="a tree of older printgen code to measure alongside")
    args = parser.parse_args()
    config_home = tempfile.mkdtemp(prefix="printgen-bench-")  # no user settings (a saved back offset)
    env = dict(os.environ, PYTHONPATH=str(REPO), XDG_CONFIG_HOME=config_home)
    try:
        for count in args.counts:
            measure_deck(count, args, env)
    finally:
        shutil.rmtree(config_home, ignore_errors=True)


def measure_deck(count: int, args: argparse.Namespace, env: dict[str, str]) -> None:
    """Make the deck of `count` cards, measure it, print its table."""
    deck = Path(tempfile.mkdtemp(prefix=f"printgen-deck{count}-"))
    try:
        subprocess.run([sys.executable, str(HERE / "make_deck.py"), str(count), str(deck)], check=True)
        runs = args.runs if count <= 1000 else 1
        figures = in_turns(jobs_for(deck, runs, env, args.peer and count <= 1000, args.before),
                           warmup=1 if count <= 1000 else 0, report=lambda m: print(m, file=sys.stderr))
        pdf, floor_pdf = sizes(deck, env)
    finally:
        shutil.rmtree(deck, ignore_errors=True)
    floor = figures["floor"]
    print(f"\n{count:,} cards ({runs} run(s) each, median)\n")
    print("| what | wall | x floor | range; CPU | peak memory |\n| --- | --- | --- | --- | --- |")
    for figure in figures.values():
        print(row(figure, floor))
    if "peer" in figures:  # decksmith's build draws a PNG of every card (300 dpi): --png is its like
        peer = figures["peer"]
        print()
        for key, what in (("full", "printgen build (no card PNGs)"), ("png", "printgen build --png")):
            mine = figures[key]
            print(f"decksmith / {what}: {peer.wall / mine.wall:.1f}x wall, {peer.cpu / mine.cpu:.1f}x CPU")
    print(f"\ndeck.pdf {pdf / 1024:.0f} KiB, the floor's {floor_pdf / 1024:.0f} KiB: {pdf / floor_pdf:.2f}x")


if __name__ == "__main__":
    main()
