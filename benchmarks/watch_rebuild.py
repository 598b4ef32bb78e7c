"""Seconds a running `printgen build --watch` takes to rebuild Omiga after an edit of its title, as
the command itself reports them (`printgen: rebuilt in 0.31 s; ...`): the whole definition built
again in a fresh worker and every file written, from the moment the loop saw the change.

    python benchmarks/watch_rebuild.py [--edits 7]     # prints the figures as JSON

The loop looks at the files twice a second; that wait is not part of the figure, which is what an
edit costs beyond it.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPORTED = re.compile(r"printgen: (re)?built in ([0-9.]+) s")


def definition() -> Path:
    from printgen.games import bundled_definition

    return bundled_definition("omiga")


def next_report(stderr, deadline: float) -> tuple[bool, float]:
    """(was it a rebuild, seconds) from the next line that reports a build; raises past `deadline`."""
    while time.monotonic() < deadline:
        line = stderr.readline()
        if not line:
            raise RuntimeError("printgen build --watch stopped")
        found = REPORTED.search(line)
        if found:
            return bool(found.group(1)), float(found.group(2))
        if "problem" in line:
            raise RuntimeError(line.strip())
    raise TimeoutError("no build reported in time")


def rebuild_seconds(edits: int, command: list[str]) -> list[float]:
    """The reported seconds of `edits` rebuilds, each after a new title."""
    with tempfile.TemporaryDirectory(prefix="printgen-bench-") as work:
        copy = Path(work) / "omiga.yaml"
        shutil.copyfile(definition(), copy)
        text = copy.read_text()
        watching = subprocess.Popen([*command, "build", str(copy), "--watch", "--out", str(Path(work) / "out")],
                                    stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            assert watching.stderr is not None
            next_report(watching.stderr, time.monotonic() + 60)  # the first build
            taken = []
            for edit in range(edits):
                time.sleep(0.6)  # as a person saves again: after the last build has settled
                copy.write_text(text.replace("title: Omiga", f"title: Omiga {edit + 1}", 1))
                rebuilt, seconds = next_report(watching.stderr, time.monotonic() + 60)
                if rebuilt:
                    taken.append(seconds)
            return taken
        finally:
            watching.send_signal(signal.SIGINT)
            try:
                watching.wait(10)
            except subprocess.TimeoutExpired:
                watching.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=7)
    args = parser.parse_args()
    taken = rebuild_seconds(args.edits, [sys.executable, "-m", "printgen.launch"])
    print(json.dumps({"rebuild_after_edit": statistics.median(taken), "rebuilds": taken}))


if __name__ == "__main__":
    main()
