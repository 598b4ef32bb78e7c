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


# -- module-level mutable containers ----------------------------------------------------------------
# State kept in a module outlives a build and is shared by everything the process does, which is how
# caches crept in. A module-level dict, list, set (or OrderedDict, defaultdict, deque, weak mapping)
# that the module changes is allowed only here, each with its reason. Constant tables (a dict that
# is only read) are not counted. Edit these two lists, nothing else.
MAX_MUTABLE_CONTAINERS = 6  # with the caches: tests/test_module_state.py
KEPT_CONTAINERS = {  # "module:NAME": why it must be module-level
    "printgen.core.bounded:LIVE": "the workers and helpers running, ended by Ctrl-C/SIGTERM (launch.clean_up)",
    "printgen.core.atomic:TEMPORARIES": "temporary files not yet renamed, removed by Ctrl-C/SIGTERM",
    "printgen.core.staging:FOLDERS": "private folders (a build's staging folder, files kept as made), removed by Ctrl-C/SIGTERM",
}
PENDING_CONTAINERS: set[str] = set()  # none left: the simplify issue removed every cache
CONTAINER_CALLS = {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "WeakValueDictionary",
                   "WeakKeyDictionary"}
MUTATORS = {"append", "add", "update", "pop", "clear", "setdefault", "discard", "move_to_end", "popitem",
            "remove", "insert", "extend", "difference_update", "appendleft", "__setitem__"}


def makes_container(value: ast.expr) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        called = value.func
        name = called.id if isinstance(called, ast.Name) else called.attr if isinstance(called, ast.Attribute) else ""
        return name in CONTAINER_CALLS
    return False


def containers(tree: ast.Module) -> set[str]:
    """Names a module binds, at its top level, to a new container."""
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and makes_container(node.value):
            found |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and node.value is not None and makes_container(node.value) \
                and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    return found


def changed_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names changed as such in this module, names changed as `module.NAME` from anywhere)."""
    bare, dotted = set(), set()
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            target = node.func.value
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            target = node.value
        elif isinstance(node, ast.AugAssign):
            target = node.target
        if isinstance(target, ast.Name):
            bare.add(target.id)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            dotted.add(target.attr)
    return bare, dotted


def mutable_containers() -> set[str]:
    """Every module-level container some printgen module changes, as "module:NAME"."""
    trees = {name: ast.parse(path.read_text(), str(path)) for name, path in modules().items()}
    changes = {name: changed_names(tree) for name, tree in trees.items()}
    from_afar = set().union(*(dotted for _, dotted in changes.values()))
    imported = {(node.module, alias.name)  # `from m import NAME`, then NAME changed where imported
                for name, tree in trees.items() for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names if (alias.asname or alias.name) in changes[name][0]}
    return {f"{name}:{held}" for name, tree in trees.items() for held in containers(tree)
            if held in changes[name][0] or held in from_afar or (name, held) in imported}


def test_module_level_mutable_containers_are_few_and_each_has_its_reason():
    found = mutable_containers()
    assert found - KEPT_CONTAINERS.keys() - PENDING_CONTAINERS == set(), "add it to KEPT_CONTAINERS with its reason"
    assert set(KEPT_CONTAINERS) <= found, "a kept container is gone: remove it from KEPT_CONTAINERS"
    assert len(KEPT_CONTAINERS) <= MAX_MUTABLE_CONTAINERS


def test_the_container_finder_tells_state_from_a_table():
    tree = ast.parse("TABLE = {'a': 1}\nSEEN: set[str] = set()\nLATER = []\n"
                     "def f():\n    SEEN.add('x')\n    return TABLE['a']\n")
    assert containers(tree) == {"TABLE", "SEEN", "LATER"}
    assert changed_names(tree)[0] == {"SEEN"}
