"""Shared fixtures: run the real CLI and hand tests the files it wrote."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games import bundled_definition

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def run_cli():
    """Invoke `printgen ARGS...` in-process; returns click's Result (exit_code, output)."""
    def run(*args: str):
        return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return run


@pytest.fixture
def copy_definition(tmp_path):
    """Copy a bundled definition into tmp_path so a test can edit it."""
    def copy(game: str, name: str | None = None) -> Path:
        target = tmp_path / f"{name or game}.yaml"
        shutil.copyfile(bundled_definition(game), target)
        return target
    return copy
