"""A template folder's fingerprint (core/fingerprint.py) is kept in a process that rebuilds, by
each file's inode, size and times: it must never miss an edit, not even one of the same size with
the modification time put back, and it trusts no file changed just before it was read."""
from __future__ import annotations

import hashlib
import os
import time

import pytest

from printgen.core import fingerprint


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(fingerprint, "_FOLDERS", {})
    where = tmp_path / "templates"
    (where / "omiga").mkdir(parents=True)
    (where / "omiga" / "tile-face.svg.j2").write_text('<rect fill="#123456"/>\n')
    (where / "notes.txt").write_text("kept beside\n")
    return where


@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """The folders actually read and hashed, in order."""
    seen: list[str] = []
    real = fingerprint.hashed

    def counted(where, found):
        seen.append(where)
        return real(where, found)

    monkeypatch.setattr(fingerprint, "hashed", counted)
    return seen


def test_a_settled_folder_is_hashed_once_and_any_edit_is_seen(folder, hashes, monkeypatch):
    monkeypatch.setattr(fingerprint, "RACY_SECONDS", -100.0)  # as if read long after the last change
    first = fingerprint.folder_digest(folder, False)
    assert fingerprint.folder_digest(folder, False) == first and len(hashes) == 1
    time.sleep(0.05)  # past the clock tick of the file system's times
    face = folder / "omiga" / "tile-face.svg.j2"
    info = face.stat()
    face.write_text('<rect fill="#654321"/>\n')  # the same size, its times put back
    os.utime(face, ns=(info.st_atime_ns, info.st_mtime_ns))
    edited = fingerprint.folder_digest(folder, False)
    assert edited != first and len(hashes) == 2
    assert edited == fingerprint.hashed(str(folder), fingerprint.files_in(str(folder), False))
    (folder / "omiga" / "new.svg.j2").write_text("x")
    assert fingerprint.folder_digest(folder, False) not in (first, edited)
    (folder / "omiga" / "new.svg.j2").unlink()
    assert fingerprint.folder_digest(folder, False) == edited  # read again, not remembered wrong


def test_a_file_changed_just_before_it_was_read_is_read_again_every_time(folder, hashes):
    first = fingerprint.folder_digest(folder, False)  # the files were made a moment ago
    assert fingerprint.folder_digest(folder, False) == first
    assert len(hashes) == 2 and not fingerprint._FOLDERS


def test_no_cache_keeps_nothing(folder, hashes, monkeypatch):
    monkeypatch.setattr(fingerprint, "RACY_SECONDS", -100.0)
    monkeypatch.setenv("PRINTGEN_NO_CACHE", "1")
    fingerprint.folder_digest(folder, True)
    fingerprint.folder_digest(folder, True)
    assert len(hashes) == 2 and not fingerprint._FOLDERS


def test_a_file_digest_is_kept_until_the_file_changes_even_at_the_same_size_and_time(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(fingerprint, "_FILES", {})
    monkeypatch.setattr(fingerprint, "RACY_SECONDS", -100.0)  # as if read long after the last change
    path = tmp_path / "art.svg"
    path.write_text("<svg>1</svg>")
    first = fingerprint.file_digest(path)
    assert len(fingerprint._FILES) == 1 and fingerprint.file_digest(path) == first
    time.sleep(0.05)
    info = path.stat()
    path.write_text("<svg>2</svg>")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert fingerprint.file_digest(path) not in (first, None)
    assert fingerprint.file_digest(path) == hashlib.sha256(b"<svg>2</svg>").hexdigest()
    monkeypatch.setattr(fingerprint, "RACY_SECONDS", 2.0)
    fingerprint._FILES.clear()
    fingerprint.file_digest(path)  # changed a moment ago: not kept
    assert not fingerprint._FILES
