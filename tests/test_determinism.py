"""The same definition gives byte-identical files in every process, whatever PYTHONHASHSEED is.

Set and dict iteration order of strings changes with the hash seed, so a build that ever iterated a
set of names into its output would differ between runs. A fresh process with hash randomisation off
(seed 0) builds every bundled game and the documented examples with art; the same files built in
pytest's processes, whose seeds are random, must match byte for byte: the bundled games from the
session's shared A4 build, the examples built here while the fresh process runs.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from building import build

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").glob("*/*.yaml"))


def start(out: Path, seed: str, home: Path, *definitions: Path) -> subprocess.Popen:
    """`printgen build [DEFINITION ...] --paper a4 --out OUT` in a fresh process with this hash seed."""
    env = dict(os.environ, PYTHONHASHSEED=seed, XDG_CONFIG_HOME=str(home))
    code = "import sys; from printgen.cli.main import main; sys.argv = ['printgen'] + sys.argv[1:]; main()"
    return subprocess.Popen([sys.executable, "-c", code, "build", *map(str, definitions), "--paper", "a4",
                             "--out", str(out)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def contents(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def examples(folder: Path) -> list[Path]:
    """Each example with art, copied (named after its folder, as `printgen new` names a copy, so
    each builds into an OUT/<file name>/ of its own)."""
    found = []
    for example in EXAMPLES:
        copy = folder / example.parent.name
        shutil.copytree(example.parent, copy)  # art is found beside the definition
        found.append(copy / example.name)
    return found


def test_every_file_is_byte_identical_across_hash_seeds(tmp_path, all_games_built):
    from printgen.games import bundled_definition, registry

    # pytest's processes must not share one fixed seed, or nothing here would differ from seed 0
    assert os.environ.get("PYTHONHASHSEED", "random") == "random"
    copies = examples(tmp_path / "definitions")
    fresh = start(tmp_path / "seed-0", "0", tmp_path / "cfg", *[bundled_definition(g) for g in registry()], *copies)
    build(tmp_path / "here", *map(str, copies), "--paper", "a4")  # meanwhile, in this process's seed
    _, err = fresh.communicate(timeout=300)
    assert fresh.returncode == 0, err.decode()
    reference = {**contents(all_games_built["a4"]), **contents(tmp_path / "here")}
    assert any(name.endswith(".pdf") for name in reference) and any(n.endswith(".svg") for n in reference)
    assert len({name.split("/")[0] for name in reference}) == len(registry()) + len(copies)
    other = contents(tmp_path / "seed-0")
    assert sorted(other) == sorted(reference)
    differing = [name for name in reference if other[name] != reference[name]]
    assert differing == [], f"PYTHONHASHSEED=0 changed {differing}"
