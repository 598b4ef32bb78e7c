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
