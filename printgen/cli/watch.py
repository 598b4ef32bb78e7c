"""`printgen build --watch`: rebuild when a definition, an art file or a template changes.

Each build's worker lists the files it read; this process only polls their stamps, which costs
nothing for a few dozen files, works on every platform and needs no extra package.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import click

from printgen.core.yamlread import read_yaml
from printgen.core.problems import DefinitionError, display_name
from printgen.core.textcheck import strings
from printgen.jinja.render import bundled_dir

Stamp = tuple[int, int] | None  # (mtime in ns, size), None while the file is missing
MAX_FOLDER_FILES = 5000  # a referenced folder bigger than this is not a template or art folder
# what a build imports as it writes, imported once for every worker
SHARED_CODE = ("printgen.output.writers", "printgen.output.pdf", "printgen.output.svg", "printgen.output.png",
               "printgen.output.cellpages", "pypdfium2", "PIL.PngImagePlugin", "svgwrite", "printgen.art.svg",
               "printgen.art.svgbatch", "printgen.games.pieces")


def stamp(path: Path) -> Stamp:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


def snapshot(files: Iterable[Path]) -> dict[Path, Stamp]:
    return {path: stamp(path) for path in files}


def changed(before: dict[Path, Stamp], after: dict[Path, Stamp]) -> list[Path]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p, 0) != after.get(p, 0))


def files_under(folder: Path, limit: int = MAX_FOLDER_FILES) -> list[Path]:
    found: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        found += [Path(root) / n for n in sorted(names) if not n.startswith(".") and not n.endswith(".pyc")]
        if len(found) > limit:
            return found[:limit]
    return found


MAX_NAME = 500  # a longer value of a definition is text, not a file name


def names_in(definition: Path, data: Any = None) -> list[str]:
    """The string values of a definition that could name a file (short, one line, no NUL), each once,
    in order; none when it does not parse. `data`: the definition as already read."""
    if data is None:
        try:
            data, _ = read_yaml(definition)
        except DefinitionError:
            return []
    return list(dict.fromkeys(value for _, value in strings(data)
                              if value and len(value) <= MAX_NAME and "\n" not in value and "\0" not in value))


def referenced(definition: Path, data: Any = None) -> set[Path]:
    """Files a definition names: any string value that is an existing file, or a folder inside the
    definition's, relative to it; so no game's keys need to be known."""
    home = definition.parent.resolve()
    found: set[Path] = set()
    for value in names_in(definition, data):
        if ".xlsx#" in value.lower():  # a deck's workbook and its sheet, 'cards.xlsx#Ships'
            value = value[:value.lower().index(".xlsx#") + 5]
        try:
            target = (definition.parent / value).resolve()
            if target.is_file():
                found.add(target)
                if target.suffix.lower() == ".svg":
                    found.update(svg_links(target, home))
            elif target.is_dir() and target != home and home in target.parents:
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
        files.add(definition.resolve())
        files |= referenced(definition, (parsed or {}).get(definition))
    for folder in [*template_dirs, bundled_dir()]:
        files.update(p.resolve() for p in files_under(folder))
    return files


def warm_up() -> None:
    """Import here the code every rebuild's worker runs, so each forked worker starts with it."""
    from importlib import import_module

    from printgen.games import GAME_MODULES, game_entry

    for module in SHARED_CODE:
        import_module(module)

    for game_id in GAME_MODULES:
        game_entry(game_id)


def watch(files: set[Path], rebuild: Callable[[list[Path]], set[Path] | None],
          interval: float = 0.5, should_stop: Callable[[], bool] = lambda: False,
          max_rounds: int | None = None, sleep: Callable[[float], None] | None = None,
          asked: Callable[[], bool] = lambda: False) -> int:
    """Build once, then poll every `interval` s and rebuild after any change or when `asked`; returns
    the number of rebuilds. `rebuild` gets the changed files and returns the files to watch (None:
    the same). Stamps are taken before each build, so a save during a build triggers the next."""
    def after(before: dict[Path, Stamp], listed: set[Path] | None) -> dict[Path, Stamp]:
        if listed is None:
            return before
        return {**snapshot(listed - before.keys()), **{p: s for p, s in before.items() if p in listed}}

    state = snapshot(files)
    state = after(state, rebuild([]))
    rebuilds = rounds = 0
    while not should_stop() and (max_rounds is None or rounds < max_rounds):
        (sleep or time.sleep)(interval)
        rounds += 1
        now = snapshot(state)
        differences = changed(state, now)
        if differences:
            names = ", ".join(display_name(p) for p in differences[:3]) + (" ..." if len(differences) > 3 else "")
            click.echo(f"printgen: changed: {names}; rebuilding", err=True)
        if differences or asked():
            state = after(now, rebuild(differences))
            rebuilds += 1
    return rebuilds


def follow(paths: list[Path], rebuild: Callable[[list[Path]], set[Path] | None], stopped: str, **loop: Any) -> int:
    """`watch` the definitions at `paths` after `warm_up`; Ctrl-C ends it with `stopped` said.
    `loop`: test settings for `watch`."""
    warm_up()
    try:
        return watch({path.resolve() for path in paths}, rebuild, **loop)
    except KeyboardInterrupt:
        click.echo(stopped, err=True)
        return 0
