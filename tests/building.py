"""Building bundled games in-process for tests that read the files."""
from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable

from click.testing import CliRunner

from printgen.cli.main import cli


def build(out: Path, *args: str) -> Path:
    """`printgen build ARGS --out OUT`, which must succeed; returns OUT."""
    result = CliRunner().invoke(cli, ["build", *args, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def shared_root(tmp_path_factory) -> Path:
    """The folder every pytest-xdist worker of this session shares (this session's own without xdist)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-N/, above every worker's popen-gwN/
    return root


def shared(tmp_path_factory, makers: dict[str, Callable[[Path], object]]) -> dict[str, Path]:
    """Each maker run once for the whole test session, not once in each pytest-xdist worker: the
    first worker to ask makes the folder (`maker(folder)`) under a lock, in the base folder every
    worker of this session shares; the others wait for it and get the same folder. A worker asking
    for several takes first those nobody is making yet, so two workers make two at once.
    The folders are read-only by agreement: a test that writes into one copies it first."""
    root = shared_root(tmp_path_factory)
    found: dict[str, Path] = {}

    def make(name: str, maker: Callable[[Path], object], wait: bool) -> bool:
        folder, done = root / f"shared-{name}", root / f"shared-{name}.done"
        with open(root / f"shared-{name}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                return False
            try:
                if not done.exists():
                    shutil.rmtree(folder, ignore_errors=True)  # a maker that failed part way
                    folder.mkdir()
                    maker(folder)
                    done.touch()
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        found[name] = folder
        return True

    for name, maker in makers.items():
        make(name, maker, wait=False)
    for name, maker in makers.items():
        if name not in found:
            make(name, maker, wait=True)
    return {name: found[name] for name in makers}


def edited(copy_definition, game: str, replacements: list[tuple[str, str]]) -> Path:
    """A copy of a bundled definition with text swaps applied; each old text must occur exactly
    once, so an edit cannot miss silently."""
    path = copy_definition(game)
    text = path.read_text()
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text)
    return path


def edit(path: Path, old: str, new: str) -> None:
    """Swap one text in a copied file; `old` must occur exactly once, so an edit cannot miss."""
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def line_of(path: Path, snippet: str) -> int:
    """The line number of the first line of `path` holding `snippet`."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if snippet in line)


def rgb(value) -> tuple[float, ...]:
    """A colour as pdfplumber reports it, rounded so equal colours compare equal."""
    return tuple(round(float(v), 6) for v in (value or ()))


def count_children(monkeypatch, *modules: str) -> list[str]:
    """The budgets (`budget.what`) of the bounded workers started through `run_bounded` as each of
    `modules` (dotted names) sees it, in order."""
    import importlib

    import printgen.core.bounded as bounded

    started: list[str] = []
    original = bounded.run_bounded

    def counting(job, budget):
        started.append(budget.what)
        return original(job, budget)

    for name in modules:
        module = importlib.import_module(name)
        if hasattr(module, "run_bounded"):
            monkeypatch.setattr(module, "run_bounded", counting)
    return started
