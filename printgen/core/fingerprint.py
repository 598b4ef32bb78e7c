"""Fingerprints of what decides a cached result: files in template folders, and the code that
turned them into output (`core.diskcache` keeps results by these; games.piececache and
jinja.textcache build their keys from them).

A template may include or import any other template in its search folders, so a folder's
fingerprint covers every file in it (its path, and its bytes or where its link points), bounded:
folders past MAX_FILES or MAX_BYTES give None, and the caller then caches nothing. printgen's own
code is fingerprinted by its files' names, sizes and modification times (an edit while
developing changes them), the libraries it calls by their package folder's and `__init__.py`'s
(an upgrade or a reinstall writes new files into the folder).
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any, Iterable

MAX_FILES = 2000  # files in all search folders together, hashed for each build
MAX_BYTES = 32 * 1024 * 1024
# printgen's own code that decides a drawing or a text (by file size and time)
OWN_CODE = ("art", "jinja", "drawing", "core/bounded.py", "core/diskcache.py", "core/fingerprint.py",
            "games/pieces.py", "games/piececache.py")
LIBRARIES = ("svglib", "reportlab", "reportlab.graphics", "reportlab.platypus", "jinja2", "markupsafe",
             "lxml", "PIL")
_CODE: list[str] = []  # the code's fingerprint, taken once per process


def caching_off() -> bool:
    """`PRINTGEN_NO_CACHE=1`: nothing is kept between builds, on disk or in this process."""
    return os.environ.get("PRINTGEN_NO_CACHE") == "1"


def digest(*parts: Any) -> str:
    """The SHA-256 (hex) of plain data, written as canonical JSON."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def templates_digest(user_dirs: Iterable[Path], bundled: Path) -> str | None:
    """The fingerprint of every template searched: the user's folders in order, then the bundled
    `.j2` files; None when they are too big to hash quickly."""
    found = [folder_digest(Path(folder), False) for folder in user_dirs]
    found.append(folder_digest(bundled, True))
    parts = [part for part in found if part is not None]
    if len(parts) < len(found) or sum(count for _, count in parts) > MAX_FILES:
        return None
    return digest([text for text, _ in parts])


def folder_digest(folder: Path, templates_only: bool) -> tuple[str, int] | None:
    """The SHA-256 of every file under `folder` (its path, and its bytes or where its link
    points) and how many there were; None past MAX_FILES or MAX_BYTES. `templates_only`: only
    `.j2` files count (the bundled templates/, which is inside the package when installed).

    A process that rebuilds asks again and again (the texts and the pieces of every build), so the
    answer is kept with each file's inode, size and times, and reused while they all read the
    same, as git trusts its index: only for files last changed at least RACY_SECONDS before they
    were read, so that a change within the file system's clock tick of the reading cannot go
    unseen; the change time cannot be set back by hand."""
    where = os.path.abspath(folder)
    if not os.path.isdir(where):
        return hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest() + ":absent", 0
    found = files_in(where, templates_only)
    if found is None:
        return None
    signature = tuple(stat_signature(path) for _, path in found)
    memo = (where, templates_only)
    known = None if caching_off() else _FOLDERS.get(memo)
    if known is not None and known[0] == signature:
        return known[1]
    started = time.time_ns()
    result = hashed(where, found)
    settled = started - int(RACY_SECONDS * 1e9)
    if not caching_off() and all(mark is None or max(mark[-2:]) < settled for mark in signature):
        _FOLDERS[memo] = (signature, result)
        if len(_FOLDERS) > MOST_FOLDERS:
            _FOLDERS.pop(next(iter(_FOLDERS)))
    return result


RACY_SECONDS = 2.0  # a file changed this recently before it was read is read again next time
MOST_FOLDERS = 64  # folders whose digest is kept (the user's template folders and printgen's own)
MOST_FILES = 4096  # file digests kept (file_digest), by path, inode, size and times
Signature = tuple[int, int, int, int, int, int] | None  # mode, inode, device, size, mtime, ctime
_FOLDERS: dict[tuple[str, bool], tuple[tuple[Signature, ...], tuple[str, int] | None]] = {}
_FILES: dict[tuple[Any, ...], str] = {}


def files_in(where: str, templates_only: bool) -> list[tuple[str, str]] | None:
    """(name relative to `where`, path) of every file a folder digest covers, in its order; None
    past MAX_FILES."""
    found: list[tuple[str, str]] = []
    for top, dirs, files in os.walk(where):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            if templates_only and not name.endswith(".j2"):
                continue
            path = os.path.join(top, name)
            found.append((os.path.relpath(path, where), path))
            if len(found) > MAX_FILES:
                return None
    return found


def stat_signature(path: str) -> Signature:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_mode, info.st_ino, info.st_dev, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def hashed(where: str, found: list[tuple[str, str]]) -> tuple[str, int] | None:
    """The digest of the files `files_in` found: each one's name, and its bytes or its link."""
    hasher = hashlib.sha256(where.encode("utf-8", "surrogateescape"))
    size = 0
    for relative, path in found:
        hasher.update(b"\0" + relative.encode("utf-8", "surrogateescape") + b"\0")
        try:
            if os.path.islink(path):
                hasher.update(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape"))
                continue
            with open(path, "rb") as stream:
                data = stream.read(MAX_BYTES - size + 1)
        except OSError as exc:
            hasher.update(f"unreadable:{exc.errno}".encode())
            continue
        size += len(data)
        if size > MAX_BYTES:
            return None
        hasher.update(hashlib.sha256(data).digest())
    return hasher.hexdigest(), len(found)


def file_digest(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The SHA-256 (hex) of a plain file's bytes, for a file a kept result was drawn from. Anything
    else (missing, a folder, a pipe: never read, so never waited for) gives what it is, and a file
    past `limit` bytes its size and time. Kept in this process by the file's inode, size and
    times, under the same rule as `folder_digest`."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "not a file"
        if info.st_size > limit:
            return f"large:{info.st_size}:{info.st_mtime_ns}"
        mark = (str(path), limit, info.st_ino, info.st_dev, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        known = None if caching_off() else _FILES.get(mark)
        if known is not None:
            return known
        started = time.time_ns()
        hasher, size = hashlib.sha256(), 0
        while size <= limit and (chunk := os.read(fd, 1 << 20)):
            hasher.update(chunk)
            size += len(chunk)
        found = hasher.hexdigest()
        if not caching_off() and max(info.st_mtime_ns, info.st_ctime_ns) < started - int(RACY_SECONDS * 1e9):
            if len(_FILES) >= MOST_FILES:
                _FILES.clear()
            _FILES[mark] = found  # read again only once the file is changed (see folder_digest)
        return found
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    finally:
        os.close(fd)


def code_fingerprint() -> str:
    """printgen's drawing code, by its files' names, sizes and times, and the libraries it calls,
    by their package folder's and `__init__.py`'s (an upgrade or reinstall writes new files into
    the folder, which changes its time); never importing a library to ask its version (svglib
    alone takes 0.05 s). Once a process."""
    if not _CODE:
        import importlib.util

        from printgen.core.fontfiles import font_dir

        own = Path(__file__).resolve().parents[1]
        seen: list[Any] = []
        for place in [*(own / part for part in OWN_CODE), font_dir()]:
            try:
                names = sorted(os.listdir(place)) if place.is_dir() else [""]
                seen += [stamp(place / name if name else place) for name in names]
            except OSError:
                seen.append([str(place), "unreadable"])
        for name in LIBRARIES:
            spec = importlib.util.find_spec(name) if "." not in name or name.split(".")[0] in sys.modules \
                else None
            if spec is not None and spec.origin:
                seen += [stamp(Path(spec.origin).parent), stamp(Path(spec.origin))]
        _CODE.append(digest(sys.version, sys.platform, seen))
    return _CODE[0]


def stamp(path: Path) -> list[Any]:
    try:
        info = os.stat(path)
    except OSError:
        return [str(path), "unreadable"]
    return [str(path), info.st_size, info.st_mtime_ns]
