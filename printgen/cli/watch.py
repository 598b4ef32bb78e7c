"""`printgen build --watch`: rebuild when a definition, an art file or a template changes.

Polling modification times is enough here: a few dozen files checked twice a second costs nothing,
works the same on every platform and network drive, and needs no extra package. The loop is a plain
function taking the file list, the rebuild and a stop test as arguments, so tests drive it with a
short interval and a real file change instead of a terminal and Ctrl-C.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from printgen.core.yamlread import read_yaml
from printgen.core.problems import DefinitionError
from printgen.jinja.render import bundled_dir

Stamp = tuple[int, int] | None  # (mtime in ns, size), None while the file is missing
MAX_FOLDER_FILES = 5000  # a referenced folder bigger than this is not a template or art folder
QUIET = 2.0  # s without a change before the latest builds are stored in the disk cache


def stamp(path: Path) -> Stamp:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


def snapshot(files: Iterable[Path]) -> dict[Path, Stamp]:
    return {path: stamp(path) for path in files}


def changed(before: dict[Path, Stamp], after: dict[Path, Stamp]) -> list[Path]:
    """Files added, removed or modified between two snapshots."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p, None) != after.get(p, None)
                  or (p in before) != (p in after))


def files_under(folder: Path, limit: int = MAX_FOLDER_FILES) -> list[Path]:
    found: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        found += [Path(root) / n for n in sorted(names) if not n.startswith(".") and not n.endswith(".pyc")]
        if len(found) > limit:
            return found[:limit]
    return found


def strings(data: Any) -> Iterable[str]:
    """Every string value in parsed YAML, however deeply nested."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for item in data.values():
            yield from strings(item)
    elif isinstance(data, list):
        for item in data:
            yield from strings(item)


MAX_NAME = 500  # a longer value of a definition is text, not a file name


def names_in(definition: Path) -> list[str]:
    """The string values of a definition that could name a file beside it (short, one line, no NUL
    byte), each once, in the order first written; none when it does not parse."""
    try:
        data, _ = read_yaml(definition)
    except DefinitionError:
        return []
    return list(dict.fromkeys(value for value in strings(data)  # each once: a colour recurs on many tiles
                              if value and len(value) <= MAX_NAME and "\n" not in value and "\0" not in value))


def referenced(definition: Path) -> set[Path]:
    """Files a definition names: any string value that is the path of an existing file (art, fonts),
    or of a folder inside the definition's folder (templates), taken relative to the definition.

    This needs no knowledge of each game's keys, so new kinds of art are watched as soon as they
    exist. A definition that does not parse names nothing; it is watched itself all the same.
    """
    home = definition.parent.resolve()
    found: set[Path] = set()
    for value in names_in(definition):
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


# an SVG art file -> (the stamps of it and of the files it draws from, those files)
_LINKS: dict[Path, tuple[list[Stamp], list[Path]]] = {}


def svg_links(svg: Path, home: Path) -> list[Path]:
    """The files SVG art draws from (<use> of another SVG, <image>) inside the definition's folder,
    so replacing one rebuilds; measured again only when one of them changes, not at every look."""
    known = _LINKS.get(svg)
    if known is not None and known[0] == [stamp(p) for p in [svg, *known[1]]]:
        return known[1]
    from printgen.art.measure import measure_svg
    from printgen.art.svgtree import parse

    try:
        links = [p.resolve() for p in measure_svg(parse(svg, svg.read_bytes()), svg, home).linked]
    except (OSError, ValueError):  # unreadable or refused: the build says why
        links = []
    _LINKS[svg] = ([stamp(p) for p in [svg, *links]], links)
    return links


def watched(definitions: Iterable[Path], template_dirs: Iterable[Path] = ()) -> set[Path]:
    """Everything a rebuild depends on: the definitions, what they reference, and every template
    folder (the user's and the bundled one)."""
    files: set[Path] = set()
    for definition in definitions:
        files.add(definition.resolve())
        files |= referenced(definition)
    for folder in [*template_dirs, bundled_dir()]:
        files.update(p.resolve() for p in files_under(folder))
    return files


def watch(collect: Callable[[], set[Path]], rebuild: Callable[[list[Path]], None],
          interval: float = 0.5, should_stop: Callable[[], bool] = lambda: False,
          max_rounds: int | None = None, sleep: Callable[[float], None] | None = None,
          asked: Callable[[], bool] = lambda: False) -> int:
    """Build once, then poll every `interval` s and rebuild after any change; returns the number of
    rebuilds after the first build. `rebuild` gets the changed files ([] for the first build, and
    for a rebuild that `asked` wants although no file changed: `serve`'s build settings).

    The snapshot is taken before each build, so a file saved while a build runs triggers the next.
    While the loop runs, whole builds are kept in memory (printgen.core.buildcache), so a rebuild
    of a game none of whose files changed draws nothing, and written pictures are kept by what
    they draw (printgen.output.doccache), so a rebuild draws again only the files whose shapes
    changed.
    """
    from printgen.core.buildcache import keep_results, store_pending
    from printgen.output.doccache import keep_documents

    keep_documents()
    keep_results()
    try:
        state = snapshot(collect())
        rebuild([])
        store_pending()
        rebuilds = rounds = 0
        last = time.monotonic()
        while not should_stop() and (max_rounds is None or rounds < max_rounds):
            (sleep or time.sleep)(interval)
            rounds += 1
            now = snapshot(collect())
            differences = changed(state, now)
            if differences or asked():
                state = now
                rebuild(differences)
                rebuilds += 1
                last = time.monotonic()
            elif time.monotonic() - last >= QUIET:
                store_pending()  # edits have paused: the latest build of each game, on disk
        return rebuilds
    finally:
        keep_documents(False)
        keep_results(False)
