"""State a reader can see: every module-level cache (an `lru_cache`/`cache` decorator on a top-level
function, or one made at module level) and every module-level container printgen changes count
together, at most MAX_STATE in all, and each is named in docs/ARCHITECTURE.md with its reason. A
process-wide switch (a library's or the interpreter's setting assigned by printgen: `sys.stderr`,
`tempfile.tempdir`, `rl_config.useA85`, an environment variable, a class's flag set from outside it)
is named there too.
"""
from __future__ import annotations

import ast
from pathlib import Path

from test_structure import mutable_containers, modules

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
MAX_STATE = 5  # six before the Jinja sandboxes were made per render (issue 45)
CACHES = {"lru_cache", "cache"}


def is_cache(decorator: ast.expr) -> bool:
    called = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = called.attr if isinstance(called, ast.Attribute) else called.id if isinstance(called, ast.Name) else ""
    return name in CACHES


def makes_cache(value: ast.expr) -> bool:
    """`lru_cache(maxsize=...)(function)` or `cache(function)` at module level."""
    return isinstance(value, ast.Call) and (is_cache(value.func) or
                                            (isinstance(value.func, ast.Call) and is_cache(value.func.func)))


def caches(tree: ast.Module) -> set[str]:
    found = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(map(is_cache, node.decorator_list)):
            found.add(node.name)
        elif isinstance(node, ast.Assign) and makes_cache(node.value):
            found |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return found


def module_caches() -> set[str]:
    return {f"{name}:{held}" for name, path in modules().items()
            for held in caches(ast.parse(path.read_text(), str(path)))}


def switches(tree: ast.Module) -> set[str]:
    """Process-wide settings a module assigns: `module.attr = ...` on an imported module or a class
    of this module (from outside the class), and `os.environ` entries."""
    imported = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                        target.value.id in imported | classes:
                    found.add(f"{target.value.id}.{target.attr}")
                if isinstance(target, ast.Subscript) and ast.unparse(target.value) == "os.environ":
                    found.add(f"os.environ[{ast.unparse(target.slice)}]")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                ast.unparse(node.func.value) == "os.environ" and node.func.attr in ("setdefault", "update") \
                and node.args:
            found.add(f"os.environ[{ast.unparse(node.args[0])}]")
    return found


def test_module_level_state_is_at_most_five_and_each_is_named() -> None:
    state = module_caches() | mutable_containers()
    text = ARCHITECTURE.read_text()
    unnamed = sorted(item for item in state if f"`{item.removeprefix('printgen.').replace(':', '.')}`" not in text)
    assert unnamed == [], f"name these in docs/ARCHITECTURE.md (as `module.NAME`) with their reason: {unnamed}"
    assert len(state) <= MAX_STATE, f"{len(state)} module-level caches and containers: {sorted(state)}"


# The only process-wide switches left: reportlab's shape checks (set before it is imported, and
# around printgen's own drawing), its ASCII85 layer while a stream is encoded, and a forked child's
# stderr where it is no file. A build's scratch folder and whether work runs apart travel with the
# build (BuildOptions.scratch, the caller of run_bounded), never as `tempfile.tempdir` or a class flag.
SWITCHES = {"printgen.core.bounded: sys.stderr", "printgen.drawing.checks: os.environ['RL_shapeChecking']",
            "printgen.drawing.checks: rl_config.shapeChecking", "printgen.drawing.libadapter: rl_config.useA85"}


def test_process_wide_switches_are_named() -> None:
    text = ARCHITECTURE.read_text()
    found = {f"{name}: {switch}" for name, path in modules().items()
             for switch in switches(ast.parse(path.read_text(), str(path)))}
    unnamed = sorted(item for item in found if f"`{item.split(': ')[1]}`" not in text)
    assert unnamed == [], f"name these process-wide switches in docs/ARCHITECTURE.md: {unnamed}"
    assert found == SWITCHES, f"a switch added or gone; keep SWITCHES and docs/ARCHITECTURE.md to it: {sorted(found ^ SWITCHES)}"


def test_no_temporary_folder_or_worker_flag_is_set_for_the_process() -> None:
    """`tempfile.tempdir` is never assigned and no module keeps a class flag saying it is a worker."""
    for name, path in modules().items():
        text = path.read_text()
        assert "tempfile.tempdir" not in text and "Inside.worker" not in text, name


def test_the_finders_find_what_they_are_for() -> None:
    tree = ast.parse("import sys, os\nfrom functools import lru_cache, cache\n"
                     "@lru_cache(maxsize=2)\ndef a(): pass\n@cache\ndef b(): pass\n"
                     "c = lru_cache(maxsize=4)(a)\ndef d():\n    @cache\n    def e(): pass\n"
                     "class Flag:\n    on = False\n"
                     "def f():\n    sys.stderr = None\n    Flag.on = True\n    os.environ.setdefault('X', '1')\n")
    assert caches(tree) == {"a", "b", "c"}
    assert switches(tree) == {"sys.stderr", "Flag.on", "os.environ['X']"}
