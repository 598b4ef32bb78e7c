"""The same definition gives byte-identical files in every process, whatever PYTHONHASHSEED is.

Set and dict iteration order of strings changes with the hash seed, so a build that ever iterated a
set of names into its output would differ between runs. Separate processes with different seeds
build every bundled game and the documented examples with art; every file must match byte for byte.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").glob("*/*.yaml"))
SEEDS = ("0", "4242")


def start(out: Path, seed: str, home: Path, *definitions: Path) -> subprocess.Popen:
    """`printgen build [DEFINITION ...] --out OUT` in a fresh process with this hash seed."""
    env = dict(os.environ, PYTHONHASHSEED=seed, XDG_CONFIG_HOME=str(home))
    code = "import sys; from printgen.cli.main import main; sys.argv = ['printgen'] + sys.argv[1:]; main()"
    return subprocess.Popen([sys.executable, "-c", code, "build", *map(str, definitions), "--out", str(out)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def contents(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def definitions(folder: Path) -> list[Path]:
    """Every bundled game, plus each example with art (named after its folder, as `printgen new`
    names a copy, so each builds into an OUT/<file name>/ of its own)."""
    from printgen.games import bundled_definition, registry

    found = [bundled_definition(game) for game in registry()]
    for example in EXAMPLES:
        copy = folder / example.parent.name
        shutil.copytree(example.parent, copy)  # art is found beside the definition
        found.append(copy / example.name)
    return found


def test_every_file_is_byte_identical_across_hash_seeds(tmp_path):
    paths = definitions(tmp_path / "definitions")
    runs = [start(tmp_path / seed, seed, tmp_path / "cfg", *paths) for seed in SEEDS]  # at once
    for process in runs:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err.decode()
    reference = contents(tmp_path / SEEDS[0])
    assert any(name.endswith(".pdf") for name in reference) and any(n.endswith(".svg") for n in reference)
    assert len({name.split("/")[0] for name in reference}) == len(paths)
    for seed in SEEDS[1:]:
        other = contents(tmp_path / seed)
        assert sorted(other) == sorted(reference)
        differing = [name for name in reference if other[name] != reference[name]]
        assert differing == [], f"PYTHONHASHSEED={seed} changed {differing}"
