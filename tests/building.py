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


def replace_once(path: Path, old: str, new: str) -> Path:
    """Edit a copied definition: `old` must occur exactly once, so the edit cannot miss silently."""
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return path
