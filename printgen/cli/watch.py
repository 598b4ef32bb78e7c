"""`printgen build --watch` and `serve`: rebuild when a definition, an art file or a template changes.

Each build's worker lists the files it read (`watched`); this process only polls their stamps, which
costs nothing for a few dozen files, works on every platform and needs no extra package.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import click

from printgen.core.problems import DefinitionError, display_name
from printgen.core.textcheck import strings
from printgen.core.yamlread import read_yaml
from printgen.jinja.render import bundled_dir

Stamp = tuple[int, int] | None  # (mtime in ns, size), None while the file is missing
Rebuild = Callable[[list[Path]], "set[Path] | None"]  # the changed files -> the files to watch (None: the same)
MAX_FOLDER_FILES = 5000  # a referenced folder bigger than this is not a template or art folder
MAX_NAME = 500  # a longer value of a definition is text, not a file name
# what every rebuild's worker imports as it writes
SHARED_CODE = ("printgen.output.writers", "printgen.output.pdf", "printgen.output.svg", "printgen.output.png",
               "printgen.output.cellpages", "pypdfium2", "PIL.PngImagePlugin", "svgwrite", "printgen.art.svg",
               "printgen.art.svgbatch", "printgen.games.pieces")


def snapshot(files: Iterable[Path]) -> dict[Path, Stamp]:
    stamps: dict[Path, Stamp] = {}
    for path in files:
        try:
            info = path.stat()
            stamps[path] = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamps[path] = None
    return stamps


def changed(before: dict[Path, Stamp], after: dict[Path, Stamp]) -> list[Path]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p, 0) != after.get(p, 0))


def files_under(folder: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        found += [Path(root) / n for n in sorted(names) if not n.startswith(".") and not n.endswith(".pyc")]
        if len(found) > MAX_FOLDER_FILES:
            return found[:MAX_FOLDER_FILES]
    return found


def referenced(definition: Path, data: Any = None) -> set[Path]:
    """Files a definition names: any short one-line string value that is an existing file, or a
    folder inside the definition's, relative to it; so no game's keys need to be known. `data`: the
    definition as already read."""
    if data is None:
        try:
            data, _ = read_yaml(definition)
        except DefinitionError:
            return set()
    home, found = definition.parent.resolve(), set[Path]()
    for value in dict.fromkeys(value for _, value in strings(data)):
        if not value or len(value) > MAX_NAME or "\n" in value or "\0" in value:
            continue
        if ".xlsx#" in value.lower():  # a deck's workbook and its sheet, 'cards.xlsx#Ships'
            value = value[:value.lower().index(".xlsx#") + 5]
        try:
            target = (definition.parent / value).resolve()
            if target.is_file():
                found |= {target, *(svg_links(target, home) if target.suffix.lower() == ".svg" else ())}
            elif target.is_dir() and home in target.parents:
                found.update(files_under(target))
        except (OSError, ValueError):  # a name too long for the file system
            continue
    return found


def svg_links(svg: Path, home: Path) -> list[Path]:
    """The files SVG art draws from (<use>, <image>) inside the definition's folder."""
    from printgen.art.measure import measure_svg
    from printgen.art.svgtree import parse

    try:
        return [p.resolve() for p in measure_svg(parse(svg, svg.read_bytes()), svg, home).linked]
    except (OSError, ValueError):  # unreadable or refused: the build says why
        return []


def watched(definitions: Iterable[Path], template_dirs: Iterable[Path] = (),
            parsed: Mapping[Path, Any] | None = None) -> set[Path]:
    """Everything a rebuild depends on: the definitions, what they reference, and every template
    folder. `parsed`: definitions already read, by path."""
    files: set[Path] = set()
    for definition in definitions:
        files |= {definition.resolve(), *referenced(definition, (parsed or {}).get(definition))}
    for folder in [*template_dirs, bundled_dir()]:
        files.update(p.resolve() for p in files_under(folder))
    return files


def watch(paths: Iterable[Path], rebuild: Rebuild, stopped: str = "printgen: stopped watching.", interval: float = 0.5,
          should_stop: Callable[[], bool] = lambda: False, max_rounds: int | None = None,
          sleep: Callable[[float], Any] | None = None, asked: Callable[[], bool] = lambda: False) -> int:
    """Build once, then poll every `interval` s and rebuild after any change or when `asked`, until
    Ctrl-C (`stopped` is said); the number of rebuilds. A file's stamp is taken before the build that
    reads it, so a save during a build triggers the next; a file first listed by a build, after it."""
    from importlib import import_module

    from printgen.games import GAME_MODULES, game_entry

    def after(before: dict[Path, Stamp], listed: set[Path] | None) -> dict[Path, Stamp]:
        if listed is None:
            return before
        return {**snapshot(listed - before.keys()), **{p: before[p] for p in listed & before.keys()}}

    rebuilds = rounds = 0
    try:
        state = after(snapshot({path.resolve() for path in paths}), rebuild([]))
        for module in SHARED_CODE:  # imported here once, not by every rebuild's forked worker
            import_module(module)
        for game_id in GAME_MODULES:
            game_entry(game_id)
        while not should_stop() and (max_rounds is None or rounds < max_rounds):
            (sleep or time.sleep)(interval)
            rounds += 1
            now = snapshot(state)
            differences = changed(state, now)
            if differences:
                names = ", ".join(display_name(p) for p in differences[:3]) + (" ..." if len(differences) > 3 else "")
                click.echo(f"printgen: changed: {names}; rebuilding", err=True)
            if differences or asked():
                state, rebuilds = after(now, rebuild(differences)), rebuilds + 1
    except KeyboardInterrupt:
        click.echo(stopped, err=True)
    return rebuilds
