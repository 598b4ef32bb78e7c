"""A non-editable install carries the bundled games: the wheel `pip install .` would install holds
every file of card_defs/ and templates/ where printgen/core/bundled.py looks for them once
installed (printgen/card_defs/, printgen/templates/), every module of printgen (pyproject.toml
names each package), and no stale copy of a definition or template beside the games' code."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA_KINDS = (".yaml", ".j2", ".csv", ".svg")


def files_under(folder: Path) -> list[str]:
    """Every file under `folder` (not Python's caches), by its path from the repository's top."""
    return sorted(p.relative_to(ROOT).as_posix() for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    """The names in a wheel built from a copy of the checkout (a build in the checkout itself
    would leave build/ behind, whose old files a later wheel could pick up)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    for name in ("printgen", "card_defs", "templates"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                             "--quiet", "-w", str(out), str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = out.glob("printgen-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_wheel_holds_every_bundled_definition_and_template_inside_the_package(wheel_names):
    bundled = files_under(ROOT / "card_defs") + files_under(ROOT / "templates")
    assert bundled and any(name.startswith("card_defs/deck.yaml") for name in bundled)
    missing = [name for name in bundled if f"printgen/{name}" not in wheel_names]
    assert missing == [], f"not installed: {missing}"
    outside = sorted(n for n in wheel_names if n.startswith(("card_defs/", "templates/")))
    assert outside == [], f"installed outside the package: {outside}"


def test_the_wheel_holds_every_module_and_no_stale_copy_beside_the_games_code(wheel_names):
    modules = [name for name in files_under(ROOT / "printgen") if name.endswith(".py")]
    missing = [name for name in modules if name not in wheel_names]
    assert missing == [], f"not installed (add its package to pyproject.toml's list): {missing}"
    assert {f"printgen/cli/serve.{kind}" for kind in ("html", "js", "css")} <= wheel_names
    stale = sorted(n for n in wheel_names if n.startswith("printgen/games/") and n.endswith(DATA_KINDS))
    assert stale == [], f"definitions or templates left beside the games' code: {stale}"
    here = [n for n in files_under(ROOT / "printgen" / "games") if n.endswith(DATA_KINDS)]
    assert here == [], f"definitions or templates left in printgen/games/: {here}"
