"""Whole builds kept by what decides them: an input built before (same definition, same files it
read, same options, same printgen) gives back its earlier files and messages without drawing.

This module holds what a kept build is and where it is kept; `cli.resultcache` decides the key
and records what a build read. A kept build is an `Entry`: every file the build depended on with
the state it had (a file by the SHA-256 of its bytes, or what it was if not a file, so a file
created later is a change too; a folder by every file in it, or by its names), the files it made
(name, SHA-256, size) and the warnings it printed. It is kept in two places:

* in this process while `build --watch` or `serve` runs (`keep_results`), with the files' bytes,
  so a rebuild with nothing changed, an edit undone, or `serve` switching a setting back, draws
  nothing;
* on disk, through `core.diskcache` (a private folder, every entry checked by its SHA-256): the
  entry as JSON in the area `builds`, each file's bytes apart in `build-files`, named by their
  SHA-256 and checked against it again when read. JSON, never pickle: a forged entry can at worst
  name files we then find do not match (a miss), or names we refuse (`safe_name`).

An entry is used only after every dependency is digested again and found as recorded (content,
never times). Anything that does not read back exactly is a miss, never an error.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from printgen.core import diskcache
from printgen.core.build import Artifact
from printgen.core.fingerprint import file_digest, folder_digest

HEADS = "builds"  # area of the entries
FILES = "build-files"  # area of the files' bytes, by their SHA-256
FORMAT = 1
MAX_DEPENDENCIES = 5000  # a build that read more files than this is not kept
MAX_OUTPUTS = 2000  # nor one that made more files than this
MAX_KEPT_BYTES = 64 * diskcache.MiB  # nor one whose files hold more than this, together
DEPENDENCY_LIMIT = 256 * diskcache.MiB  # a dependency bigger than this counts by its size and time
MEMORY_ENTRIES = 16  # builds kept in a process that rebuilds
MEMORY_BYTES = 256 * diskcache.MiB
KINDS = ("file", "tree", "list")
DIGEST_LENGTH = 64  # hex characters of a SHA-256: what file_digest gives for a file it read
HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Dependency:
    """A file (`file`: its bytes), a folder (`tree`: every file under it; `list`: its names) the
    build depended on, and the state it had."""

    kind: str
    path: str
    state: str


@dataclass(frozen=True)
class Output:
    name: str  # relative to the game's output folder, with /
    sha256: str
    size: int


@dataclass(frozen=True)
class Entry:
    name: str  # the game's output folder
    title: str  # the game's title, for the line saying where the files went
    warnings: tuple[str, ...]
    cwd: str  # where the build ran: its warnings name files relative to it
    dependencies: tuple[Dependency, ...]
    outputs: tuple[Output, ...]


def state_of(kind: str, path: str) -> str:
    """The state of a dependency now; the same text as recorded means unchanged."""
    if kind == "file":
        return file_digest(path, DEPENDENCY_LIMIT)
    if kind == "tree":
        found = folder_digest(Path(path), False)
        return "too big" if found is None else f"{found[0]}:{found[1]}"
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def unchanged(entry: Entry) -> bool:
    """True when every dependency is as the build found it, and its warnings read the same here."""
    if entry.warnings and entry.cwd != current_dir():
        return False
    return all(state_of(d.kind, d.path) == d.state for d in entry.dependencies)


def current_dir() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""


def safe_name(name: Any) -> bool:
    """A file name an entry may give: relative, inside the game's folder, plain text."""
    if not isinstance(name, str) or not name or len(name) > 1000 or "\\" in name or "\0" in name:
        return False
    path = PurePosixPath(name)
    return not path.is_absolute() and all(part not in ("", ".", "..") for part in name.split("/"))


def encode(entry: Entry) -> bytes:
    return json.dumps({"format": FORMAT, "name": entry.name, "title": entry.title,
                       "warnings": list(entry.warnings), "cwd": entry.cwd,
                       "dependencies": [[d.kind, d.path, d.state] for d in entry.dependencies],
                       "outputs": [[o.name, o.sha256, o.size] for o in entry.outputs]},
                      ensure_ascii=True, separators=(",", ":")).encode("ascii")


def decode(data: bytes) -> Entry | None:
    """The entry in `data`, or None for anything that is not exactly an entry of this format."""
    try:
        found = json.loads(data)
        if not isinstance(found, dict) or found.get("format") != FORMAT or \
                not all(isinstance(found.get(k), list) for k in ("warnings", "dependencies", "outputs")):
            return None
        texts = [found["name"], found["title"], found["cwd"], *found["warnings"]]
        dependencies = tuple(Dependency(kind, path, state) for kind, path, state in found["dependencies"])
        outputs = tuple(Output(name, sha, size) for name, sha, size in found["outputs"])
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    if not all(isinstance(text, str) for text in texts) or not safe_name(found["name"]) \
            or "/" in found["name"] or len(dependencies) > MAX_DEPENDENCIES or len(outputs) > MAX_OUTPUTS:
        return None
    if not all(d.kind in KINDS and isinstance(d.path, str) and os.path.isabs(d.path)
               and isinstance(d.state, str) for d in dependencies):
        return None
    if not all(safe_name(o.name) and isinstance(o.sha256, str) and HEX64.fullmatch(o.sha256)
               and type(o.size) is int and 0 <= o.size <= diskcache.MAX_ENTRY for o in outputs):
        return None
    if len({o.name for o in outputs}) != len(outputs):
        return None
    return Entry(found["name"], found["title"], tuple(found["warnings"]), found["cwd"], dependencies,
                 outputs)


def load(key: str) -> tuple[Entry, list[Artifact]] | None:
    """The build kept on disk under `key` with its files, if it is whole and still holds."""
    data = diskcache.load(HEADS, key)
    entry = decode(data) if data is not None else None
    if entry is None or not unchanged(entry):
        return None
    artifacts = []
    folder = diskcache.area_folder(FILES, make=False)
    for output in entry.outputs:
        content = diskcache.load_from(folder, output.sha256, by_content=True) if folder is not None else None
        if content is None or len(content) != output.size:  # its SHA-256 is the one its name says
            diskcache.forget(FILES, output.sha256)  # so that the next build stores it again
            return None
        artifacts.append(Artifact(output.name, content))
    return entry, artifacts


def store(key: str, entry: Entry, artifacts: list[Artifact]) -> Entry | None:
    """Keep the build on disk, each file as it is read (a build of many spilled files is never
    held whole), then the entry naming them, so an entry found is never missing a file it names
    (unless pruned since, which makes it a miss). The entry with its files, or None when the build
    is too big to keep (the files already stored are pruned in time like any other)."""
    if len(artifacts) > MAX_OUTPUTS or len(entry.dependencies) > MAX_DEPENDENCIES or \
            not all(safe_name(a.name) for a in artifacts):
        return None
    outputs, total = [], 0
    folder = diskcache.area_folder(FILES, make=True)
    for artifact in artifacts:
        data = artifact.data
        total += len(data)
        if total > MAX_KEPT_BYTES:
            return None
        outputs.append(Output(artifact.name, hashlib.sha256(data).hexdigest(), len(data)))
        if folder is None or not diskcache.present(folder, outputs[-1].sha256, len(data)):  # kept before?
            diskcache.store(FILES, outputs[-1].sha256, data, prune_now=False)
    diskcache.prune_area(FILES)
    entry = replace(entry, outputs=tuple(outputs))
    diskcache.store(HEADS, key, encode(entry))
    return entry


class Later:
    """Builds to keep on disk once the user has their files. In a process that rebuilds, the build
    itself is kept in memory at once, and its copy on disk is for the next `printgen build` only:
    `build --watch` and `serve` store the latest build of each game once edits pause
    (`cli.watch.QUIET`) and when they stop, not every version of a burst of edits, whose files
    would compete with the rebuilds' own for the disk."""

    def __init__(self) -> None:
        self.pending: list[tuple[str, str, Entry, list[Artifact]]] = []  # (game, key, entry, files)

    def add(self, key: str, entry: Entry, artifacts: list[Artifact], game: str | None = None) -> None:
        """Wait to store this build; `game` (its definition's path) names it across edits, whose
        versions each have a key of their own, so only the latest version is stored."""
        game = key if game is None else game
        self.pending = [waiting for waiting in self.pending if waiting[0] != game and waiting[1] != key]
        self.pending.append((game, key, entry, artifacts))
        while len(self.pending) > MEMORY_ENTRIES:  # never called for: kept no longer than this
            store(*self.pending.pop(0)[1:])

    def store_all(self) -> None:
        while self.pending:
            store(*self.pending.pop(0)[1:])


LATER = Later()


def store_pending() -> None:
    """Keep on disk every build whose storing waited."""
    LATER.store_all()


class Memory:
    """Builds kept in this process while it rebuilds: the entry, the files and whatever the caller
    needs again (the loaded game, for `serve`), least recently used dropped first. One input may
    be kept in several versions (its files before an edit and after), so undoing an edit is a hit."""

    def __init__(self) -> None:
        self.on = False
        self.kept: OrderedDict[tuple[str, tuple[Dependency, ...]], tuple[Entry, list[Artifact], Any, int]] = \
            OrderedDict()

    def get(self, key: str) -> tuple[Entry, list[Artifact], Any] | None:
        if not self.on:
            return None
        for name, (entry, artifacts, loaded, _) in reversed(list(self.kept.items())):  # the latest first
            if name[0] == key and unchanged(entry):
                self.kept.move_to_end(name)
                return entry, artifacts, loaded
        return None

    def put(self, key: str, entry: Entry, artifacts: list[Artifact], loaded: Any) -> None:
        if not self.on:
            return
        size = sum(len(a.held) for a in artifacts)
        name = (key, entry.dependencies)
        self.kept[name] = (entry, artifacts, loaded, size)
        self.kept.move_to_end(name)
        while len(self.kept) > MEMORY_ENTRIES or sum(k[3] for k in self.kept.values()) > MEMORY_BYTES:
            self.kept.popitem(last=False)

    def keep(self, on: bool) -> None:
        self.on = on
        if not on:
            self.kept.clear()
            store_pending()


MEMORY = Memory()


def keep_results(on: bool = True) -> None:
    """Keep builds in memory (while `build --watch` or `serve` runs), or stop and forget them."""
    MEMORY.keep(on)
