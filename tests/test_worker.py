"""A build runs in one bounded worker (printgen/core/bounded.py, printgen/cli/engine.py): a cold
`build omiga` forks at most two processes; problems and a broken budget come back located with
exit 2; the worker's report is plain JSON, checked on arrival, and anything else is refused unread."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from printgen.cli import engine, report
from printgen.core import bounded
from printgen.core.bounded import BadReport, Budget, MiB

ROOT = Path(__file__).resolve().parents[1]
COUNTING = """import os, sys
real, log = os.fork, sys.argv[1]
def counted():
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.write(fd, b"f")  # one byte per fork, from whichever process forks
    os.close(fd)
    return real()
os.fork = counted
sys.argv = ["printgen", *sys.argv[2:]]
from printgen.launch import main
main()
"""
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: builds run in-process")


def forks_of(tmp_path: Path, *args: str) -> tuple[int, subprocess.CompletedProcess[str]]:
    """How many times `printgen ARGS` calls os.fork in all its processes, run as a user runs it
    (a new interpreter, an empty drawing cache); each process inherits the counting os.fork."""
    log = tmp_path / "forks"
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", COUNTING, str(log), *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    return (log.stat().st_size if log.exists() else 0), done


@needs_fork
def test_a_cold_build_of_omiga_forks_at_most_two_processes(tmp_path):
    forks, done = forks_of(tmp_path, "build", "omiga", "--out", str(tmp_path / "o"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "o" / "omiga" / "omiga.pdf").is_file()
    assert 1 <= forks <= 2  # the build's worker, and at most one helper for pictures


@needs_fork
def test_problems_come_back_from_the_worker_located_with_exit_2(run_cli, copy_definition, tmp_path, monkeypatch):
    definition = copy_definition("fracas")
    text = definition.read_text()
    definition.write_text(text.replace("life: 20", "life: 0").replace("title: Fracas", "title: [Fracas"))
    pids: list[int] = []
    fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: pids.append(1) or fork())
    result = run_cli("build", str(definition), "--out", tmp_path / "o")
    assert result.exit_code == 2 and pids  # a worker was forked, and said what was wrong
    assert "fracas.yaml:" in result.stderr and "nothing was written" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()


def slow_build(self, options):
    import time

    from printgen.core.spool import Spool

    spool = Spool()  # a large build's temporary files, left as they are when the worker is killed
    spool.keep(b"half a build")
    time.sleep(30)
    return []


def greedy_build(self, options):
    return [bytearray(1 << 30)]  # a GiB at once, far past the budget


@needs_fork
@pytest.mark.parametrize("build, budget, said", [
    (slow_build, Budget(0.5, 512 * MiB, "the build"), "the build took more than 0.5 s, the most printgen allows"),
    (greedy_build, Budget(60, 128 * MiB, "the build"), "the build needed more than 128 MiB of memory"),
])
def test_a_worker_past_its_budget_is_a_clear_exit_2(run_cli, copy_definition, tmp_path, monkeypatch, build,
                                                    budget, said):
    from printgen.games import Loaded

    definition = copy_definition("fracas")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    monkeypatch.setattr(Loaded, "build", build)  # the worker is forked: it inherits this
    monkeypatch.setattr(engine, "BUILD_BUDGET", budget)
    result = run_cli("build", str(definition), "--out", tmp_path / "o")
    assert result.exit_code == 2, result.output
    assert f"fracas.yaml:1: {said}" in result.stderr and "nothing was written" in result.stderr
    assert not (tmp_path / "o").exists() and not bounded.LIVE
    assert list(temporary.iterdir()) == []  # the worker's folder went, with what it held


class Forged:
    """What a forged answer could try: code run as it is unpickled."""

    def __reduce__(self):
        return (os.mkdir, ("/nonexistent-printgen-forgery",))


def forging_worker(payload: bytes):
    def worker(job, budget, write):
        with os.fdopen(write, "wb") as out:
            out.write(payload)
        os._exit(0)
    return worker


@needs_fork
@pytest.mark.parametrize("payload", [
    pickle.dumps(Forged()),
    b'{"ok": 1, "extra": 2}',
    b'{"problems": [["f", "1", "k", "m"]]}',
    b'{"bug": ["not", "text"]}',
    b'["ok", 1]',
])
def test_an_answer_that_is_not_a_workers_json_is_refused_unread(monkeypatch, payload):
    monkeypatch.setattr(bounded, "worker", forging_worker(payload))
    with pytest.raises(BadReport):
        bounded.run_bounded(lambda: 1, Budget(5, 64 * MiB, "the job"))
    assert not bounded.LIVE


@needs_fork
def test_inside_a_worker_bounded_work_runs_in_place():
    budget = Budget(10, 256 * MiB, "the job")
    outer, inner = bounded.run_bounded(lambda: [os.getpid(), bounded.run_bounded(os.getpid, budget)], budget)
    assert outer == inner != os.getpid()


def test_without_the_worker_a_build_runs_here_with_the_same_files(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("PRINTGEN_NO_SANDBOX_PROCESS", "1")
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")
    pids: list[int] = []
    fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: pids.append(1) or fork())
    result = run_cli("build", "fracas", "--out", tmp_path / "here")
    assert result.exit_code == 0 and not pids
    monkeypatch.delenv("PRINTGEN_NO_SANDBOX_PROCESS")
    assert run_cli("build", "fracas", "--out", tmp_path / "worker").exit_code == 0
    here = sorted(p.relative_to(tmp_path / "here") for p in (tmp_path / "here").rglob("*") if p.is_file())
    assert here and all((tmp_path / "here" / p).read_bytes() == (tmp_path / "worker" / p).read_bytes() for p in here)


def a_report(**changes):
    base = {"name": "g", "title": "G", "files": [["g.pdf", 4]], "warnings": [], "problems": [], "watch": [],
            "extra": None}
    return {**base, **changes}


def test_a_report_of_the_right_shape_gives_each_file_where_it_lies(tmp_path):
    built = report.checked(a_report(files=[["g.pdf", 4], ["svg/a.svg", 0], ["png/a.png", 3]]),
                           tmp_path / "g.yaml", str(tmp_path))
    assert built.files == {"g.pdf": (0, 4), "svg/a.svg": (4, 0), "png/a.png": (4, 3)}


@pytest.mark.parametrize("forged", [
    a_report(name="../elsewhere"),
    a_report(name="a/b"),
    a_report(files=[["../../etc/passwd", 1]]),
    a_report(files=[["/etc/passwd", 1]]),
    a_report(files=[["svg/../../x", 1]]),
    a_report(files=[["g.pdf", 4], ["g.pdf", 4]]),
    a_report(files=["g.pdf"]),
    a_report(files=[["g.pdf", -1]]),
    a_report(files=[["g.pdf", "4"]]),
    a_report(files=[["g.pdf", True]]),
    a_report(problems=[["f", 1, "k"]]),
    a_report(warnings=[1]),
    a_report(watch=["relative/path"]),
    {**a_report(), "code": "os.system"},
    "not a mapping",
])
def test_a_report_of_the_wrong_shape_is_refused(tmp_path, forged):
    with pytest.raises(BadReport):
        report.checked(forged, tmp_path / "g.yaml", str(tmp_path))


def test_the_files_are_read_only_from_a_plain_file_inside_the_temporary_folder(tmp_path):
    folder = tmp_path / "handed"
    folder.mkdir()
    (folder / report.FILES).write_bytes(b"%PDF<svg/>")
    assert report.read_handed(str(folder), 0, 4) == b"%PDF"
    assert report.read_handed(str(folder), 4, 6) == b"<svg/>"
    with pytest.raises(BadReport):  # more than the file holds
        report.read_handed(str(folder), 4, 7)
    (tmp_path / "secret").write_text("not printgen's")
    (folder / report.FILES).unlink()
    (folder / report.FILES).symlink_to(tmp_path / "secret")
    with pytest.raises(OSError):
        report.read_handed(str(folder), 0, 3)
    (folder / report.FILES).unlink()
    (folder / report.FILES).mkdir()
    with pytest.raises((BadReport, OSError)):
        report.read_handed(str(folder), 0, 0)


# -- helpers' results: plain data, never a pickle ------------------------------------------------------

def test_a_helpers_result_comes_back_as_plain_data_with_its_kinds():
    from dataclasses import dataclass

    from printgen.core import plaincode
    from printgen.core.problems import Problem

    @dataclass
    class Count:
        games: int
        wins: list[int]

    value = [(b"\x89PNG", ("spool", 0, 4)), {1: 2, "a": None}, Count(3, [1, 2]), Problem("f", 1, "k", "m"), 1.5]
    data = plaincode.encode(value)
    assert plaincode.decode(data, (Count, Problem)) == value
    with pytest.raises(ValueError):  # a record the receiver did not ask for is refused, not built
        plaincode.decode(data, (Problem,))
    with pytest.raises(TypeError):
        plaincode.encode(object())


@pytest.mark.parametrize("forged", [pickle.dumps(Forged()), b'{"c":[["__reduce__",1]]}\n', b'{"b":9}\nabc'])
def test_a_helpers_forged_answer_is_refused_and_the_job_runs_here(forged):
    from printgen.core import parallel

    assert parallel.decoded(forged) == (False, None)


def test_helpers_results_keep_the_kinds_their_functions_declare():
    """A simulation's batches come back as the tallies their function returns, over two helpers."""
    from functools import partial

    from printgen.core import parallel

    results = parallel.on_cores([partial(tallied, n) for n in range(4)], workers=2)
    assert results == [Tallied(n, [n, n]) for n in range(4)]
    assert parallel.declared_kinds([partial(tallied, 1)]) == (Tallied,)


from dataclasses import dataclass  # noqa: E402 - the record of the test above, at module level for its hints


@dataclass
class Tallied:
    games: int
    wins: list[int]


def tallied(n: int) -> Tallied:
    return Tallied(n, [n, n])
