"""A forged file where printgen reads cannot run code: no module of printgen can unpickle, and a
build with pickled payloads planted wherever printgen once read cached results (the per-user cache
folders, the definition's folder, the output folder) runs none of them and writes what a clean
build writes."""
from __future__ import annotations

import ast
import os
import pickle
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "printgen"
LOADERS = {"pickle", "_pickle", "cPickle", "marshal", "shelve", "dill", "cloudpickle", "joblib"}


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_no_module_of_printgen_imports_a_loader_that_can_name_code():
    offenders = {str(path.relative_to(PACKAGE)): sorted(imported_modules(path) & LOADERS)
                 for path in PACKAGE.rglob("*.py") if imported_modules(path) & LOADERS}
    assert offenders == {}


class Payload:
    """Unpickled, it would create the marker file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_pickles_planted_where_caches_once_lay_run_nothing(tmp_path):
    marker = tmp_path / "ran"
    payload = pickle.dumps(Payload(marker))
    cache = tmp_path / "cache" / "printgen"
    for folder, name in [("pieces", "0" * 64 + ".entry"), ("texts", "1" * 64 + ".entry"),
                         ("builds", "2" * 64 + ".json"), ("build-files", "3" * 64), ("reads", "4" * 64)]:
        (cache / folder).mkdir(parents=True)
        (cache / folder / name).write_bytes(payload)
    out = tmp_path / "out"
    (out / "omiga").mkdir(parents=True)
    (out / "omiga" / "omiga.pdf").write_bytes(payload)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(PACKAGE.parent))
    done = subprocess.run([sys.executable, "-m", "printgen.launch", "build", "omiga", "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), "a planted pickle ran"
    assert (out / "omiga" / "omiga.pdf").read_bytes().startswith(b"%PDF-")
