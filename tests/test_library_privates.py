"""printgen uses only the public API of reportlab, svglib, svgwrite and pypdfium2, except in one
adapter module (printgen/drawing/libadapter.py) that says for each use why no public API does it.

A practical reading of every module's syntax tree: an attribute `_name` (not a dunder) is private to
a library unless it is read on `self`, `cls` or `super()`, on a module of the standard library or
another library imported by name, or is a name printgen itself defines. Private names imported from
those libraries and `getattr(x, "_name")` count too.
"""
from __future__ import annotations

import ast
from pathlib import Path

import printgen

PACKAGE = Path(printgen.__file__).parent
ADAPTER = PACKAGE / "drawing" / "libadapter.py"
LIBRARIES = ("reportlab", "svglib", "svgwrite", "pypdfium2")
NAMEDTUPLE = {"_fields", "_replace", "_asdict", "_make"}  # the standard library's public names with a `_`


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def own_private_names() -> set[str]:
    """Private names printgen defines: functions, classes, attributes it assigns, parameters."""
    names: set[str] = set()
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return {name for name in names if is_private(name)}


def other_modules(tree: ast.Module) -> set[str]:
    """Names bound to imported modules that are not among the libraries (os, sys, ...)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.split(".")[0] in LIBRARIES:
                    bound.add(alias.asname or alias.name.split(".")[0])
    return bound


def library_privates(path: Path, own: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    skip_bases = {"self", "cls"} | other_modules(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            found += [(node.lineno, alias.name) for alias in node.names if is_private(alias.name)]
        elif isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in own | NAMEDTUPLE:
            base = node.value
            if isinstance(base, ast.Name) and base.id in skip_bases:
                continue
            if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
                continue
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and is_private(name.value) \
                    and name.value not in own | NAMEDTUPLE:
                found.append((node.lineno, name.value))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
                node.value.attr == "__dict__":
            found.append((node.lineno, "__dict__"))  # writing attributes of a library's object by the back door
    return found


def test_library_privates_only_in_the_adapter() -> None:
    own = own_private_names()
    found = []
    for path in modules():
        relative = path.relative_to(PACKAGE).as_posix()
        if path == ADAPTER:
            continue
        found += [f"printgen/{relative}:{line}: {name}" for line, name in library_privates(path, own)]
    assert found == [], "private library attributes outside printgen/drawing/libadapter.py:\n" + "\n".join(found)


def test_the_check_finds_what_it_is_for(tmp_path: Path) -> None:
    """The heuristic catches each kind of private use it is meant to, and lets printgen's own through."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n"
        "from reportlab.graphics.shapes import _MOVETO, Group\n"
        "def f(canvas, renderer):\n"
        "    canvas._doc.Pages\n"
        "    getattr(renderer, '_canvas', None)\n"
        "    canvas.__dict__['x'] = 1\n"
        "    os._exit(0)\n"
        "    canvas._mine\n")
    found = library_privates(sample, own={"_mine"})
    assert sorted(name for _, name in found) == ["_MOVETO", "__dict__", "_canvas", "_doc"]


def test_the_adapter_says_why_for_each_use() -> None:
    """Every function of the adapter that touches a private name has a docstring (its reason)."""
    tree = ast.parse(ADAPTER.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            touches = any(isinstance(n, ast.Attribute) and is_private(n.attr) for n in ast.walk(node)) or any(
                isinstance(n, ast.Constant) and isinstance(n.value, str) and is_private(n.value)
                for n in ast.walk(node))
            if touches:
                assert ast.get_docstring(node), f"libadapter.{node.name} uses a private name without a reason"


def test_pdfium_only_through_pypdfium2s_objects() -> None:
    """No raw pdfium calls (`pypdfium2.raw`) and no ctypes outside core.bounded, which asks libc's
    prctl that a worker dies with its parent (the standard library has no call for it)."""
    found = []
    for path in modules():
        relative = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{relative}: {name}" for name in names
                      if name.startswith("pypdfium2.raw") or (name == "ctypes" and relative != "core/bounded.py")]
    assert found == []
