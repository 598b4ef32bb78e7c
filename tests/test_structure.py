"""The shape of the source, measured from the source: no import cycle (imports inside functions
counted), no module over 500 lines, no function over 80 lines. A newcomer reads the tree top down;
a cycle or a thousand-line module makes that impossible."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "printgen"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
LONG_FUNCTIONS_ALLOWED = {"printgen.games.omiga.simulation:play"}  # the simulation's inner loop


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """printgen modules that `name` imports anywhere in its source (functions included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imported(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_no_import_cycles_even_inside_functions():
    edges = graph()
    assert len(edges) > 40 and edges["printgen.launch"]  # the graph was really read
    assert cycles(edges) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_over_500_lines():
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES}
    assert long == {}


def test_no_function_over_80_lines():
    long = {}
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_FUNCTION_LINES and f"{name}:{node.name}" not in LONG_FUNCTIONS_ALLOWED:
                    long[f"{name}:{node.name}"] = size
    assert long == {}
