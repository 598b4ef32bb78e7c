"""printgen's packages form layers, and a module imports only from its own layer or those below:
core → drawing → art, jinja, output → layout → games → cli (docs/ARCHITECTURE.md). An import up the
layers is how a cycle, or a writer that knows about games, starts; this test reads every import,
those inside functions too."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "printgen"
LAYER = {"core": 0, "drawing": 1, "art": 2, "jinja": 2, "output": 2, "layout": 3, "games": 4, "cli": 5}


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "printgen" or len(parts) < 2:
        return None
    return LAYER.get(parts[1], 6)  # printgen.launch and printgen/__init__ sit above everything


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def test_no_module_imports_up_the_layers():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        own = layer_of(module)
        if own is None:
            continue
        for line, target in imports(path):
            theirs = layer_of(target)
            if theirs is not None and theirs > own:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {target}")
    assert not upward, "imports up the layers:\n" + "\n".join(upward)


def test_every_package_has_a_layer():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(LAYER), packages ^ set(LAYER)
