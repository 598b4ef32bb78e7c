"""A per-user cache of bytes across runs, which a tampered or broken entry can never turn into an
error or into code.

What is kept here is expensive to make and cheap to check: the drawings a piece template's bounded
child sent back (`games.piececache`). This module knows nothing of what the bytes mean; the caller
reads them with the same restricted loader it uses for a child's answer (`art.drawingdata`), so an
entry is no more trusted than the child was. The rules (SECURITY.md, "The drawing cache"):

* the folder is `$XDG_CACHE_HOME/printgen/<area>` (else `~/.cache/printgen/<area>`), made 0700; a
  folder that is a link, not ours or open to others is not used at all, nor an entry that is not
  ours (a folder above ours that others may write to lets them swap a folder of theirs in
  between the check and the read: what they put there is theirs);
* an entry is named by the SHA-256 of everything that decides it (the caller's key), and holds
  the SHA-256 of its content before the content: an entry whose content does not match, that is
  cut short, too big or unreadable is ignored (the caller makes the value again);
* entries are written to a temporary file and renamed, so a reader never sees half an entry;
* the folder is kept under `LIMIT` bytes, the entries used longest ago removed first;
* `PRINTGEN_NO_CACHE=1` turns it off: nothing is read or written.
"""
from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

from printgen.core.atomic import new_file

MiB = 1024 * 1024
LIMIT = 128 * MiB  # the most one area keeps; pruned to PRUNED_TO of it when passed
PRUNED_TO = 0.75
MAX_ENTRY = 32 * MiB  # a bigger value is not kept (a drawing of ~100,000 elements)
MAGIC = b"printgen-cache-1\n"
DIGEST = 64  # hex characters of a SHA-256
SUFFIX = ".entry"
STALE_TEMPORARY = 3600  # s: a temporary file older than this was left by a writer that died


def enabled() -> bool:
    from printgen.core.fingerprint import caching_off

    return not caching_off() and hasattr(os, "geteuid")


def base_folder() -> Path | None:
    """$XDG_CACHE_HOME/printgen, else ~/.cache/printgen; None without either (no cache then)."""
    root = os.environ.get("XDG_CACHE_HOME")
    if not root or not os.path.isabs(root):  # the XDG rule: a relative path is ignored
        try:
            root = str(Path.home() / ".cache")
        except (RuntimeError, KeyError, OSError):
            return None
    return Path(root) / "printgen"


def private(path: Path) -> bool:
    """True when `path` is a real folder (not a link) of this user that nobody else may open."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and info.st_mode & 0o077 == 0


def area_folder(area: str, make: bool) -> Path | None:
    """The private folder of `area`, made when `make` and missing; None if it cannot be trusted."""
    if not enabled():
        return None
    folder = base_folder()
    if folder is None:
        return None
    for path in (folder, folder / area):
        if make and not os.path.lexists(path):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                os.mkdir(path, 0o700)
            except OSError:
                return None
        if not private(path):
            return None
    return folder / area


def entry_name(key: str) -> str:
    if len(key) != DIGEST or any(c not in "0123456789abcdef" for c in key):
        raise ValueError(f"a cache key is a SHA-256 in hex, not {key!r}")
    return key + SUFFIX


def load(area: str, key: str) -> bytes | None:
    """The bytes stored under `key`, or None when there are none, or none that can be trusted."""
    folder = area_folder(area, make=False)
    return load_from(folder, key) if folder is not None else None


def load_from(folder: Path, key: str, by_content: bool = False) -> bytes | None:
    """`load` from an `area_folder` already checked (a caller loading many entries checks it
    once); `by_content`: the key is the SHA-256 of the content itself, so an entry recording
    another digest is not it (and the one digest taken checks both)."""
    path = folder / entry_name(key)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY + len(MAGIC) + DIGEST + 1 \
                    or info.st_uid != os.geteuid():  # not written by us: whoever swapped it in
                return None
            with os.fdopen(fd, "rb", closefd=False) as stream:
                data = stream.read(MAX_ENTRY + len(MAGIC) + DIGEST + 2)
        finally:
            os.close(fd)
    except OSError:
        return None
    head = len(MAGIC) + DIGEST + 1
    if not data.startswith(MAGIC) or len(data) < head or data[head - 1:head] != b"\n":
        return None
    content = data[head:]
    recorded = data[len(MAGIC):head - 1]
    if (by_content and recorded != key.encode("ascii")) or \
            hashlib.sha256(content).hexdigest().encode("ascii") != recorded:
        return None
    try:
        os.utime(path)  # used now: pruned last
    except OSError:
        pass
    return content


def present(folder: Path, key: str, size: int) -> bool:
    """True when an entry of `size` bytes of content is kept under `key` in `folder` (an
    `area_folder`), marked used now: a caller storing content by its own digest need not write it
    again. Its content is checked when it is loaded, as always."""
    path = folder / entry_name(key)
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(MAGIC) + DIGEST + 1 + size \
                or info.st_uid != os.geteuid():
            return False
        os.utime(path)
    except OSError:
        return False
    return True


def forget(area: str, key: str) -> None:
    """Remove the entry under `key` (one found damaged), quietly."""
    folder = area_folder(area, make=False)
    if folder is not None:
        try:
            os.unlink(folder / entry_name(key))
        except OSError:
            pass


def store(area: str, key: str, content: bytes, prune_now: bool = True) -> None:
    """Keep `content` under `key`, atomically; failing quietly (a cache is never worth an error).
    Without `prune_now`, the caller storing many entries calls `prune_area` once after them."""
    if len(content) > MAX_ENTRY:
        return
    folder = area_folder(area, make=True)
    if folder is None:
        return
    digest = hashlib.sha256(content).hexdigest().encode("ascii")
    temporary = ""
    try:
        fd, temporary = new_file(folder, ".tmp-", "")  # made 0600
        with os.fdopen(fd, "wb") as out:
            out.write(MAGIC + digest + b"\n")
            out.write(content)
        os.replace(temporary, folder / entry_name(key))
        temporary = ""
        if prune_now:
            prune(folder)
    except OSError:
        pass
    finally:
        if temporary:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def prune_area(area: str) -> None:
    folder = area_folder(area, make=False)
    if folder is not None:
        try:
            prune(folder)
        except OSError:
            pass


def prune(folder: Path, limit: int = LIMIT) -> None:
    """Remove the temporary files a killed writer left (after an hour), and when the folder holds
    over `limit`, the entries used longest ago until it holds under PRUNED_TO of it."""
    entries = []
    total = 0
    stale = time.time_ns() - STALE_TEMPORARY * 10**9
    with os.scandir(folder) as found:
        for item in found:
            if not item.is_file(follow_symlinks=False):
                continue
            info = item.stat(follow_symlinks=False)
            if item.name.startswith(".tmp-") and info.st_mtime_ns < stale:  # left by a killed writer
                entries.append((0, item.path, info.st_size))
            else:
                entries.append((info.st_mtime_ns, item.path, info.st_size))
            total += info.st_size
    over = total > limit
    for when, path, size in sorted(entries):
        if when and (not over or total <= limit * PRUNED_TO):
            break
        try:
            os.unlink(path)
            total -= size
        except OSError:
            pass
