"""Ctrl-C and SIGTERM during a build: every process printgen started ends, no temporary file stays,
one line is printed and the exit code is the shell's (130, 143), even during the first imports.

Each run is the real console entry point in a session of its own, so every process the build starts
(the build's worker and the helper it forks on the second core) can be found afterwards
by its session id in /proc. Ctrl-C goes to the whole process group, as a terminal sends it; SIGTERM
goes to printgen alone, as `kill` sends it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to find processes"),
              pytest.mark.helpers]  # the helper a user's build forks must end too

EXPECTED = {signal.SIGINT: (130, "printgen: interrupted; no half-written file was left behind."),
            signal.SIGTERM: (143, "printgen: stopped (SIGTERM); no half-written file was left behind.")}
DELAYS = (0.08, 0.3, 0.5, 0.7, 0.9)  # seconds after start: imports, loading, building, writing


def session_members(session: int) -> list[int]:
    """The pids of live processes in `session` (zombies count as gone: they hold nothing)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) == session and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def interrupted_build(tmp_path: Path, signum: int, delay: float) -> tuple[int, str, list[int], list[Path]]:
    """Build every game, send `signum` after `delay`; return the exit code, stderr, the processes of
    the build still alive a moment after it exited, and the temporary files left."""
    # the child says when Python itself has started (a signal before that meets Python's own
    # start-up, not printgen), so a loaded machine does not move the delays out of printgen's code
    ready, told = os.pipe()
    code = (f"import os, sys\nos.write({told}, b'.')\nos.close({told})\n"
            "sys.argv = ['printgen', 'build', '--out', 'out']\nfrom printgen.launch import main\nmain()\n")
    process = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, pass_fds=(told,))
    os.close(told)
    with os.fdopen(ready, "rb") as started:
        started.read(1)  # blocks until the child has run its first line
    time.sleep(delay)
    if process.poll() is None:
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)  # what a terminal does on Ctrl-C
        else:
            process.send_signal(signum)  # what `kill` does
    _, err = process.communicate(timeout=30)
    left = session_members(process.pid)
    deadline = time.monotonic() + 2  # a grandchild may take a moment to see its parent die
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = session_members(process.pid)
    return process.returncode, err, left, sorted(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_a_multi_game_build_leaves_nothing_behind(signum, tmp_path):
    exit_code, message = EXPECTED[signum]
    stopped = 0
    for n, delay in enumerate(DELAYS):
        folder = tmp_path / f"run{n}"
        folder.mkdir()
        code, err, left, temporaries = interrupted_build(folder, signum, delay)
        assert left == [], f"processes of the build still running after {delay} s: {left}"
        assert temporaries == []
        assert "Traceback" not in err and "internal error" not in err, err
        if code == 0:  # finished before the signal came
            continue
        assert code == exit_code, (delay, err)
        assert err.strip().splitlines()[-1] == message
        assert err.count("printgen: ") == 1, err
        stopped += 1
    assert stopped >= 3  # the delays fall inside the build, not after it


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_the_first_imports_prints_one_line(signum, tmp_path):
    code, err, left, temporaries = interrupted_build(tmp_path, signum, 0.04)  # within the command's imports
    # the imports are short now: on a quick run the signal may land just after the progress label
    said = [line for line in err.strip().splitlines() if line != "Building"]
    assert (code, "\n".join(said)) == EXPECTED[signum]
    assert left == [] and temporaries == []
