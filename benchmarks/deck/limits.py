"""A deck at the documented limits (20,000 cards: the sample deck's layout, its back template and
icon, 20,000 rows) built and served, with the memory each takes. Run by hand, never as a test:

    python benchmarks/deck/limits.py            # prints JSON: seconds and MiB for build and serve

`build`: wall time and the largest resident set of printgen or any process it waited for (wait4).
`serve`: until the first build is reported, the sum of the proportional set sizes (PSS: a page
shared by several processes is split between them, so forked helpers are not counted twice) of
every printgen process, sampled twice a second, and the largest resident set of any one of them.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ROWS = 20_000
KINDS = ("fire", "ice", "earth", "air")


def make_deck(folder: Path) -> Path:
    """The bundled sample deck with 20,000 rows of its own kind of data."""
    for name in ("deck.yaml", "flask.svg", "back.svg.j2"):
        shutil.copyfile(REPO / "card_defs" / name, folder / name)
    lines = ["title,kind,cost,text"] + [
        f"Card {n},{KINDS[n % 4]},{n % 6},Deal {n % 7} damage to any card. :flask: Draw card number {n}."
        for n in range(ROWS)]
    (folder / "cards.csv").write_text("\n".join(lines) + "\n")
    return folder / "deck.yaml"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "printgen.launch", *args]


def built(definition: Path, env: dict[str, str]) -> dict[str, float]:
    started = time.monotonic()
    process = subprocess.Popen(command("build", definition.name, "--out", "out"), cwd=definition.parent, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the build failed"
    return {"build_seconds": time.monotonic() - started, "build_peak_mib": usage.ru_maxrss / 1024}


def family(root: int) -> list[int]:
    """`root` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def field(pid: int, file: str, name: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def served(definition: Path, env: dict[str, str]) -> dict[str, float]:
    log = definition.parent / "serve.log"
    started = time.monotonic()
    with log.open("w") as err:
        process = subprocess.Popen(command("serve", definition.name), cwd=definition.parent, env=env,
                                   stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    pss = rss = 0
    try:
        while "built in" not in log.read_text():
            assert process.poll() is None and "problem" not in log.read_text(), log.read_text()
            pids = family(process.pid)
            pss = max(pss, sum(field(pid, "smaps_rollup", "Pss") for pid in pids))
            rss = max(rss, *(field(pid, "status", "VmRSS") for pid in pids))
            time.sleep(0.5)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # SIGTERM was ignored where this started, so printgen keeps it so
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return {"serve_seconds": time.monotonic() - started, "serve_pss_mib": pss / 2**20,
            "serve_largest_rss_mib": rss / 2**20}


def main() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory(prefix="printgen-limits-") as work:
        definition = make_deck(Path(work))
        figures = {**built(definition, env), **served(definition, env)}
    print(json.dumps({key: round(value, 1) for key, value in figures.items()}, indent=2))


if __name__ == "__main__":
    main()
