"""A build runs in one bounded worker (printgen/core/bounded.py, printgen/cli/engine.py): a cold
`build omiga` forks at most two processes; problems and a broken budget come back located with
exit 2; the worker's report is plain JSON, checked on arrival, and anything else is refused unread."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from printgen.cli import engine, report
from printgen.core import bounded, staging
from printgen.core.bounded import BadReport, Budget, MiB

pytestmark = pytest.mark.helpers  # builds here fork helpers, as a user's do (conftest.builds_without_helpers)

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

    from printgen.core.staging import Staging

    kept = Staging(options.scratch)  # a large build's files kept as made (in the build's scratch folder, as
    # output.writers.write_all keeps them), left as they are when the worker is killed
    kept.keep(b"half a build")
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
    assert list(temporary.iterdir()) == []
    assert list(tmp_path.glob(".printgen-*")) == []  # the worker's staging folder went, with what it held


class Forged:
    """What a forged answer could try: code run as it is unpickled."""

    def __reduce__(self):
        return (os.mkdir, ("/nonexistent-printgen-forgery",))


def forging_worker(payload: bytes):
    def worker(jobs, budget, write):
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
    b'{"ok": 1}\n{"ok": 2}\n',
    b'{"ok": 1}',
])
def test_an_answer_that_is_not_a_workers_json_is_refused_unread(monkeypatch, payload):
    monkeypatch.setattr(bounded, "child", forging_worker(payload))
    with pytest.raises(BadReport):
        bounded.run_bounded(lambda: 1, Budget(5, 64 * MiB, "the job"))
    assert not bounded.LIVE


@needs_fork
def test_bounded_work_asked_for_inside_a_worker_is_bounded_too():
    """No process-wide flag lets work asked for inside a worker skip its bounds: it gets a child of its
    own (printgen itself asks only from its own process; a worker's helpers are Children)."""
    budget = Budget(10, 256 * MiB, "the job")
    outer, inner = bounded.run_bounded(lambda: [os.getpid(), bounded.run_bounded(os.getpid, budget)], budget)
    assert len({outer, inner, os.getpid()}) == 3


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


def staged(folder: Path, files: dict[str, bytes]) -> str:
    """A staging folder as a worker leaves it: each finished file under its name in FILES."""
    for name, data in files.items():
        (folder / staging.FILES / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / staging.FILES / name).write_bytes(data)
    return str(folder)


def test_a_report_of_the_right_shape_gives_each_file_and_its_size(tmp_path):
    folder = staged(tmp_path, {"g.pdf": b"%PDF", "svg/a.svg": b"", "png/a.png": b"PNG"})
    built = report.checked(a_report(files=[["g.pdf", 4], ["svg/a.svg", 0], ["png/a.png", 3]]),
                           tmp_path / "g.yaml", folder)
    assert built.files == {"g.pdf": 4, "svg/a.svg": 0, "png/a.png": 3}
    assert built.data("g.pdf") == b"%PDF" and built.place("png/a.png") == tmp_path / staging.FILES / "png/a.png"


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
        report.checked(forged, tmp_path / "g.yaml", staged(tmp_path, {"g.pdf": b"%PDF"}))


@pytest.mark.parametrize("plant", ["link", "linked folder", "hard link", "folder", "size", "missing"])
def test_a_file_is_taken_only_as_a_plain_file_of_its_size_reached_through_no_link(tmp_path, plant):
    """The parent renames a staged file into place only once it is seen to be what the report says:
    a link (to the file or on the way), a second name of another file, a folder, another size or
    nothing at all is refused before anything is read or moved."""
    (tmp_path / "secret").write_text("not printgen's")
    folder = tmp_path / "staging"
    staged(folder, {"g.pdf": b"%PDF"})
    files = folder / staging.FILES
    if plant == "link":
        (files / "svg").mkdir()
        (files / "svg" / "a.svg").symlink_to(tmp_path / "secret")
    elif plant == "linked folder":
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "elsewhere" / "a.svg").write_text("not printgen's")
        (files / "svg").symlink_to(tmp_path / "elsewhere")
    elif plant == "hard link":
        (files / "svg").mkdir()
        os.link(tmp_path / "secret", files / "svg" / "a.svg")
    elif plant == "folder":
        (files / "svg" / "a.svg").mkdir(parents=True)
    elif plant in ("size", "missing"):
        staged(folder, {"svg/a.svg": b"<svg/>"} if plant == "size" else {})
    with pytest.raises(BadReport):
        report.checked(a_report(files=[["g.pdf", 4], ["svg/a.svg", 14]]), tmp_path / "g.yaml", str(folder))
    assert report.checked(a_report(), tmp_path / "g.yaml", str(folder)).data("g.pdf") == b"%PDF"


# -- helpers' results: plain data, never a pickle ------------------------------------------------------

def test_a_helpers_result_comes_back_as_plain_data_of_the_kind_asked_for():
    from printgen.core import plain
    from printgen.core.problems import Problem

    value = [(b"\x89PNG", ("kept", 4)), {1: 2, 3: None}, Tallied(3, [1, 2]), Problem("f", 1, "k", "m"), 1.5]
    kind = tuple[tuple[bytes, tuple[str, int]], dict[int, int | None], Tallied, Problem, float]
    data = json.loads(json.dumps(plain.plain(value)))
    assert plain.as_kind(data, kind) == tuple(value)
    with pytest.raises(ValueError):  # a record the receiver did not ask for is refused, not built
        plain.as_kind(data, tuple[tuple[bytes, tuple[str, int]], dict[int, int], Problem, Problem, float])
    with pytest.raises(TypeError):
        plain.plain(object())


@pytest.mark.parametrize("forged", [{"games": 1, "wins": [1], "__class__": "os.system"}, {"games": "1", "wins": []},
                                    {"games": 1}, ["games", 1]])
def test_a_helpers_forged_answer_is_refused(forged):
    from printgen.core import plain

    with pytest.raises(ValueError):
        plain.as_kind(forged, Tallied)


def test_helpers_results_come_back_as_the_kind_the_caller_names():
    """A simulation's batches come back as the tallies their caller asks for, from a helper that
    is a bounded child as the build's worker is (and from this process, which takes jobs too)."""
    from functools import partial

    from printgen.core import parallel

    results = parallel.on_cores([partial(tallied, n) for n in range(4)], workers=2, kind=Tallied)
    assert results == [Tallied(n, [n, n]) for n in range(4)]
    first = parallel.on_cores([partial(tallied, n) for n in range(2)], workers=2)[0]  # always the helper's
    assert first == {"games": 0, "wins": [0, 0]} or not parallel.can_fork()  # no kind named: JSON as it came


from dataclasses import dataclass  # noqa: E402 - the record of the test above, at module level for its hints


@dataclass
class Tallied:
    games: int
    wins: list[int]


def tallied(n: int) -> Tallied:
    return Tallied(n, [n, n])
