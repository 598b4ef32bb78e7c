"""The whole-build cache's key and its record of what a build read (the entries themselves and
where they are kept: printgen.core.buildcache).

A build is looked up by everything known before it starts: printgen's code (every file of the
package by content, once a process: the code it runs) and its bundled games' definitions, art
and templates (by content, at every build), the installed libraries (their dist-info names
and times), Python, every build option, the PRINTGEN_ and reportlab variables of the environment,
the definition's path and bytes, and every file of each --templates folder. What it read is only
known once it ran, so it is recorded two ways and both are kept:

* every file this process opens for reading while the game is loaded and built (an audit hook on
  `open`, `os.listdir` and `os.scandir`, active only then), digested when first opened; and
* every string of the definition taken as a path beside it (as `build --watch` does): a file by
  its bytes, a folder inside the definition's by every file in it, and a name with nothing there
  as absent, so creating it later is a change; the definition's template folder by every file.

A file SVG art (or the SVG a deck's template made) names but that is not there is never opened,
so the hook cannot see it: `art.measure` audits it as `printgen.absent`, recorded as absent too.

The children a build forks read only what they are handed, except the bounded template renders,
which read the template search folders: the --templates folders are in the key, the definition's
own folder is a dependency and the bundled ones are part of the code (and the piece and text
caches open every file of them here, to key their entries), and svglib's conversions, which read
the files SVG art links to, all measured here first (`art.measure`). Forked helpers (a later
game, the Omiga contact sheet) record their own builds; the contact sheet reads no file.

A build is kept only when it succeeded and every dependency still reads as it did when first
seen, so a file saved while the build ran makes it a miss next time rather than a stale hit.
"""
from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from printgen.core import buildcache
from printgen.core.build import Artifact, BuildOptions
from printgen.core.buildcache import Dependency, Entry
from printgen.core.fingerprint import caching_off, digest, file_digest, folder_digest

ENVIRONMENT = ("PRINTGEN_", "RL_")  # prefixes of the variables a build may read
SWITCH = "PRINTGEN_NO_BUILD_CACHE"  # =1: whole builds are neither looked up nor kept (other caches are)
NOT_OUTPUT = ("PRINTGEN_NO_CACHE", "PRINTGEN_NO_FORK", SWITCH)  # the same output with or without them
CODE_SUFFIXES = (".py", ".pyc", ".pyo", ".so", ".pyd", ".pth")  # imports, not inputs
SYSTEM = ("/proc/", "/dev/", "/sys/")
ABSENT_EVENT = "printgen.absent"  # art.measure's (not imported: that takes reportlab, ~0.2 s)
_ONCE: dict[str, Any] = {}


@dataclass(frozen=True)
class GameTitle:
    title: str


@dataclass(frozen=True)
class Replayed:
    """A game whose files came from the cache, as `build` writes and describes them."""

    name: str
    game: GameTitle

    @property
    def title(self) -> str:
        return self.game.title


def whole_code() -> str:
    """Every file of printgen (by content) and the libraries installed beside it; once a process,
    since the code it runs was loaded once: a build after an edit of the code in a running `build
    --watch` is still made by the code loaded, and kept as such. (The bundled games' own files,
    which a running process reads again, are digested at every build too: `bundled_files`.)"""
    if "code" not in _ONCE:
        package = Path(__file__).resolve().parents[1]
        _ONCE["code"] = digest(package_files(package, code=True), libraries(), sys.version, sys.platform,
                               reportlab_settings())
    return str(_ONCE["code"])


def reportlab_settings() -> list[Any]:
    """What reportlab reads, when imported, to override its defaults (rl_config): a module
    `reportlab_settings` anywhere on sys.path, else ~/.reportlab_settings. Neither is in the
    libraries' versions, and the import may come before a build is recorded (or not at all in a
    process that only replays), so both go into the key, by content."""
    import importlib.machinery

    found: list[Any] = [file_digest(os.path.expanduser(os.path.join("~", ".reportlab_settings")))]
    spec = importlib.machinery.PathFinder.find_spec("reportlab_settings")
    if spec is not None:
        found += [spec.origin, file_digest(spec.origin) if spec.origin else None]
    return found


def bundled_files() -> str:
    """The bundled games' files other than code (definitions, their CSV, art and templates)."""
    from printgen.core.bundled import definitions_folder, templates_folder

    return digest(*(package_files(folder, code=False) for folder in (definitions_folder(), templates_folder())))


def package_files(folder: Path, code: bool) -> str:
    """The SHA-256 of the files under `folder`, each by path and bytes; without `code`, not the
    .py files."""
    hasher = hashlib.sha256()
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for name in sorted(names):
            if name.endswith((".pyc", ".pyo")) or (name.endswith(".py") and not code):
                continue
            where = os.path.join(top, name)
            hasher.update(os.path.relpath(where, folder).encode("utf-8", "surrogateescape") + b"\0")
            hasher.update(file_digest(where).encode("ascii") + b"\0")
    return hasher.hexdigest()


def libraries() -> list[Any]:
    """The installed distributions (name, version, when installed), read from the site-packages
    folders' listings: no import, no metadata parsing."""
    found: list[Any] = []
    for folder in dict.fromkeys(p for p in sys.path if p.endswith(("site-packages", "dist-packages"))):
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
        for name in names:
            try:
                found.append([folder, name, os.stat(os.path.join(folder, name)).st_mtime_ns])
            except OSError:
                found.append([folder, name, None])
    return found


def key_of(path: Path, options: BuildOptions, allow_outside: bool,
           bundled: Callable[[], str] = bundled_files) -> str | None:
    """The key of this build, or None when it cannot be cached (caching off, an unreadable
    definition, a templates folder too big to digest). `bundled` gives the bundled files' digest:
    taken now, unless several games are looked up at once (`look_up_all`)."""
    if caching_off() or os.environ.get(SWITCH) == "1":
        return None
    definition = file_digest(path)
    if len(definition) != buildcache.DIGEST_LENGTH:
        return None
    templates = [folder_digest(Path(folder), False) for folder in options.templates]
    if any(found is None for found in templates):
        return None
    environment = sorted((name, value) for name, value in os.environ.items()
                         if name.startswith(ENVIRONMENT) and name not in NOT_OUTPUT)
    return digest("printgen build", buildcache.FORMAT, whole_code(), bundled(), str(path),
                  os.path.abspath(path), os.path.realpath(path),
                  definition, repr(options), templates, allow_outside, environment)


class Recorder:
    """What this process opened and listed while one game was built, each with its first state."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.seen: dict[tuple[str, str], str] = {}
        self.busy = False
        self.skipped = skipped_roots()
        self.imports = {os.path.abspath(p) for p in sys.path}  # listed by the import system
        from printgen.core.spill import FOLDERS

        self.spills = FOLDERS  # private folders of this build's own files, read back when written

    def note(self, event: str, args: tuple[Any, ...]) -> None:
        if self.busy or os.getpid() != self.pid:
            return
        target = args[0] if args else None
        if isinstance(target, int):  # an open file descriptor
            return
        if event == ABSENT_EVENT:  # a file an SVG names that is not there: creating it is a change
            kind = "file"
        elif event == "open":
            mode, flags = (args[1] if len(args) > 1 else None), (args[2] if len(args) > 2 else 0)
            writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
            if target is None or (isinstance(flags, int) and flags & writes) or \
                    (isinstance(mode, str) and any(c in mode for c in "wax+")):
                return
            kind = "file"
        else:
            kind = "list"
        where = os.path.abspath(os.fsdecode(target if target is not None else "."))
        if (kind, where) in self.seen or not self.wanted(kind, where):
            return
        self.busy = True
        try:
            self.seen[(kind, where)] = buildcache.state_of(kind, where)
        finally:
            self.busy = False

    def wanted(self, kind: str, where: str) -> bool:
        if where.endswith(CODE_SUFFIXES) or (where + "/").startswith(SYSTEM):
            return False
        if kind == "list" and where in self.imports:
            return False
        return not any(where == root or where.startswith(root + os.sep)
                       for root in [*self.skipped, *self.spills])


def skipped_roots() -> list[str]:
    """Folders whose files are covered otherwise: Python and the libraries (their versions),
    printgen itself (its files are in the key), and the caches (checked entries of their own)."""
    from printgen.core.diskcache import base_folder

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(__file__).resolve().parents[1])}
    cache = base_folder()
    if cache is not None:
        roots.add(str(cache))
    return sorted(os.path.abspath(r) for r in roots if r)


_RECORDERS: list[Recorder] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _RECORDERS and event in ("open", "os.listdir", "os.scandir", ABSENT_EVENT):
        try:
            _RECORDERS[-1].note(event, args)
        except Exception:  # a hook that raises would fail the open itself
            pass


class Recording:
    """One game's build being recorded: `with` it around load and build, then `finish`."""

    def __init__(self, key: str, path: Path) -> None:
        self.key = key
        self.path = path
        self.recorder = Recorder()
        self.named = named_by(path)
        self.named.append(Dependency("file", os.path.abspath(path), file_digest(path)))

    @classmethod
    def start(cls, path: Path, options: BuildOptions, allow_outside: bool) -> "Recording | None":
        key = key_of(path, options, allow_outside)
        return cls(key, path) if key is not None else None

    def __enter__(self) -> "Recording":
        if "hooked" not in _ONCE:  # an audit hook cannot be removed: one for the process
            sys.addaudithook(_audit)
            _ONCE["hooked"] = True
        _RECORDERS.append(self.recorder)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.recorder in _RECORDERS:
            _RECORDERS.remove(self.recorder)

    def finish(self, loaded: Any, artifacts: list[Artifact], warnings: list[str]) -> Entry | None:
        """Keep the build on disk (in a process that rebuilds: once edits pause); the
        entry, or None when it is not kept (too big, or something it read changed while it ran)."""
        found = {(d.kind, d.path): d.state for d in self.named}
        for (kind, where), state in self.recorder.seen.items():
            found.setdefault((kind, where), state)
        folder = getattr(loaded.art, "templates", None)
        if folder is not None:
            found.setdefault(("tree", os.path.abspath(folder)), buildcache.state_of("tree", str(folder)))
        if len(found) > buildcache.MAX_DEPENDENCIES or "too big" in found.values():
            return None
        dependencies = tuple(Dependency(kind, where, state) for (kind, where), state in sorted(found.items()))
        if not all(buildcache.state_of(d.kind, d.path) == d.state for d in dependencies):
            return None  # changed while it was built: what was drawn may be neither version
        entry = Entry(loaded.name, loaded.title, tuple(warnings), buildcache.current_dir(), dependencies, ())
        if buildcache.MEMORY.on:  # a rebuild: kept in memory now, queued for the disk by cli.engine
            return entry
        return buildcache.store(self.key, entry, artifacts)


def named_by(definition: Path) -> list[Dependency]:
    """What the definition's strings name beside it (see `referenced` in printgen.cli.watch),
    with what is there now: a file, a folder inside the definition's folder, or nothing."""
    from printgen.cli.watch import names_in, svg_links

    home = definition.parent.resolve()
    found: dict[tuple[str, str], str] = {}
    for value in names_in(definition):
        try:
            target = Path(os.path.abspath(definition.parent / value))
            kind = "tree" if target.is_dir() else "file"
            if kind == "tree" and (target == home or home not in target.resolve().parents):
                continue  # the definition's own folder, or one outside it: files read count
            found[(kind, str(target))] = buildcache.state_of(kind, str(target))
            if kind == "file" and target.suffix.lower() == ".svg" and target.is_file():
                for link in svg_links(target.resolve(), home):
                    found[("file", str(link))] = buildcache.state_of("file", str(link))
        except (OSError, ValueError):
            continue
    return [Dependency(kind, where, state) for (kind, where), state in found.items()]


Found = tuple[str, Entry, list[Artifact], Any]


def look_up_all(paths: list[Path], options: BuildOptions, allow_outside: bool) -> list[Found | None]:
    """`look_up` for each definition, all as of one moment: the bundled files are digested once
    for all of them (when first needed), not once a game."""
    taken: list[str] = []

    def bundled_once() -> str:
        if not taken:
            taken.append(bundled_files())
        return taken[0]

    return [look_up(path, options, allow_outside, bundled_once) for path in paths]


def look_up(path: Path, options: BuildOptions, allow_outside: bool,
            bundled: Callable[[], str] = bundled_files) -> Found | None:
    """A build kept for this input, in memory then on disk: (key, entry, files, the loaded game
    if this process has it)."""
    key = key_of(path, options, allow_outside, bundled)
    if key is None:
        return None
    kept = buildcache.MEMORY.get(key)
    if kept is not None:
        return key, *kept
    found = buildcache.load(key)
    return (key, found[0], found[1], None) if found is not None else None


def remember(key: str, entry: Entry, artifacts: list[Artifact], loaded: Any) -> None:
    buildcache.MEMORY.put(key, entry, artifacts, loaded)


def replayed(entry: Entry) -> Replayed:
    return Replayed(entry.name, GameTitle(entry.title))

