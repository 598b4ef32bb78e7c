"""Building bundled games in-process for tests that read the files."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from printgen.cli.main import cli


def build(out: Path, *args: str) -> Path:
    """`printgen build ARGS --out OUT`, which must succeed; returns OUT."""
    result = CliRunner().invoke(cli, ["build", *args, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out



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
