"""Builds never lose work: a build killed mid-way (SIGKILL) leaves every file complete, and two builds
into one folder at once do not corrupt each other.

The builds run as real `printgen` processes. A small wrapper in the child pauses it at an exact
moment (half-way through writing the Nth file, in its worker's staging folder inside the output
folder, or just before the Nth rename into place) and tells the test, which then kills it with
SIGKILL, the one signal no program can clean up after (its worker dies with it). Nothing in printgen
itself knows about this.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.core.atomic import write_all, write_bytes
from printgen.cli.main import cli
from printgen.games import bundled_definition

CHILD = r'''
import os, sys, time
from pathlib import Path
import tempfile
import printgen.core.atomic as atomic

marker, mode, at, out = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), os.path.abspath(sys.argv[4])
real_replace, real_fdopen, real_new_file, real_open = os.replace, os.fdopen, tempfile.mkstemp, os.open
ours, seen = set(), {"write": 0, "rename": 0}

def pause():
    marker.write_text("paused")
    time.sleep(300)

def new_file(*args, **kwargs):
    fd, name = real_new_file(*args, **kwargs)
    if os.path.abspath(name).startswith(out):
        ours.add(fd)
    return fd, name

def open_file(path, flags, *args, **kwargs):
    fd = real_open(path, flags, *args, **kwargs)
    if flags & os.O_CREAT and os.path.abspath(path).startswith(out):
        ours.add(fd)
    return fd

class Writer:
    def __init__(self, handle): self.handle = handle
    def __enter__(self): return self
    def __exit__(self, *exc): return self.handle.__exit__(*exc)
    def __getattr__(self, name): return getattr(self.handle, name)
    def write(self, data):
        seen["write"] += 1
        if mode == "write" and seen["write"] == at:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            pause()
        return self.handle.write(data)

def fdopen(fd, *args, **kwargs):
    handle = real_fdopen(fd, *args, **kwargs)
    return Writer(handle) if fd in ours else handle

def replace(src, dst, *args, **kwargs):
    if os.path.abspath(dst).startswith(out):
        seen["rename"] += 1
        if mode == "rename" and seen["rename"] == at:
            pause()
        if mode == "slow":  # both builds meet here, then rename in turns: their writes interleave
            marker.write_text("ready")
            while len(list(marker.parent.glob("ready-*"))) < 2 and not marker.with_name("go").exists():
                marker.parent.joinpath(f"ready-{os.getpid()}").touch()
                time.sleep(0.01)
            marker.with_name("go").touch()
            time.sleep(0.02 * (seen["rename"] % 4))  # renames run on threads: stagger them in time
            with open(marker.with_name("log"), "a") as log:
                log.write(f"{os.getpid()}\n")
    return real_replace(src, dst, *args, **kwargs)

tempfile.mkstemp, os.fdopen, os.replace, os.open = new_file, fdopen, replace, open_file
from printgen.cli.main import main
sys.argv = ["printgen"] + sys.argv[5:]
main()
'''


def variant(folder: Path, game: str, title: str) -> Path:
    """A copy of a bundled definition with another title, so its files differ from the original's."""
    folder.mkdir(parents=True, exist_ok=True)
    text = bundled_definition(game).read_text()
    first = next(line for line in text.splitlines() if line.startswith("title:"))
    path = folder / f"{game}.yaml"
    path.write_text(text.replace(first, f"title: {title}", 1))
    return path


def files(out: Path) -> dict[str, bytes]:
    """Every file under `out` by relative name (temporary files included: they start with '.')."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def build(out: Path, *definitions: Path) -> dict[str, bytes]:
    result = CliRunner().invoke(cli, ["build", *map(str, definitions), "--out", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return files(out)


def child(marker: Path, mode: str, at: int, out: Path, *definitions: Path) -> subprocess.Popen:
    env = dict(os.environ, XDG_CONFIG_HOME=str(marker.parent / "config"))
    return subprocess.Popen([sys.executable, "-c", CHILD, str(marker), mode, str(at), str(out), "build",
                             *map(str, definitions), "--out", str(out)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def hidden(name: str) -> bool:
    return any(part.startswith(".") for part in Path(name).parts)


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """The files of the old and the new build (two fast games), built once in-process."""
    root = tmp_path_factory.mktemp("versions")
    old = [variant(root / "old", game, f"Old {game[:6]}") for game in ("fracas", "armies")]
    new = [variant(root / "new", game, f"New {game[:6]}") for game in ("fracas", "armies")]
    return old, new, build(root / "old-out", *old), build(root / "new-out", *new)


@pytest.mark.parametrize("mode, at", [("write", 2), ("rename", 3)])
def test_a_build_killed_mid_way_leaves_every_file_whole(versions, tmp_path, mode, at):
    old, new, old_files, new_files = versions
    out = tmp_path / "out"
    shutil.copytree(old[0].parent.parent / "old-out", out)
    (out / "keep").mkdir()
    (out / "keep" / "notes.txt").write_text("written by hand; no build may touch it\n")
    before = files(out)

    marker = tmp_path / "paused"
    process = child(marker, mode, at, out, *new)
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the child never reached the pause (hooks out of date?)"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL

    after = files(out)
    finals = {name: data for name, data in after.items() if not hidden(name)}
    assert sorted(finals) == sorted(before), "a final name appeared or vanished"
    assert finals["keep/notes.txt"] == before["keep/notes.txt"]
    for name, data in finals.items():
        if name.startswith("keep/"):
            continue
        assert data in (old_files[name], new_files[name]), f"{name} is neither the old nor the new file"
        if name.endswith(".pdf"):
            assert data.rstrip().endswith(b"%%EOF"), f"truncated PDF under a final name: {name}"
    if mode == "write":
        leftovers = [name for name in after if hidden(name)]  # the half-written file, in the worker's staging folder
        assert leftovers and all(name.startswith(".printgen-build-") for name in leftovers)

    left = {part for name in after for part in Path(name).parts[:1] if part.startswith(".printgen-build-")}
    assert all(part.startswith(f".printgen-build-{process.pid}-") for part in left)  # named for its owner

    rebuilt = build(out, *new)  # the next build replaces everything, leftovers or not
    assert {n: d for n, d in rebuilt.items() if not hidden(n) and not n.startswith("keep/")} == new_files
    assert [name for name in rebuilt if hidden(name)] == []  # the killed build's staging folder swept


def test_only_our_own_staging_folders_of_dead_builds_are_swept(tmp_path):
    """`sweep` removes a folder of its prefix whose process is gone, and nothing else: not one of a
    live process, not another prefix, not a link, not a file."""
    from printgen.core.staging import private_folder, remove, sweep

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(ended.stdout)
    stale = tmp_path / f".printgen-build-{dead}-abcd_123"
    (stale / "files").mkdir(parents=True)
    (stale / "files" / "half.pdf").write_bytes(b"%PDF-1.4 half")
    live = tmp_path / f".printgen-build-{os.getpid()}-zzzz9999"
    live.mkdir()
    other = tmp_path / f".printgen-validate-{dead}-abcd_123"
    other.mkdir()
    mine = tmp_path / "results"
    mine.mkdir()
    (tmp_path / f".printgen-build-{dead}-linklink").symlink_to(mine, target_is_directory=True)
    (tmp_path / f".printgen-build-{dead}-filefile").write_text("a user's file of that name")
    assert sweep(tmp_path, ".printgen-build-") == [stale.name]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert stale.name not in left and {live.name, other.name, "results", f".printgen-build-{dead}-linklink",
                                       f".printgen-build-{dead}-filefile"} <= set(left)
    folder = Path(private_folder("printgen-validate-", tmp_path))  # a new folder sweeps its own prefix
    assert folder.name.startswith(f".printgen-validate-{os.getpid()}-") and not other.exists()
    assert live.exists() and mine.exists()
    remove(str(folder))


def test_two_builds_into_one_folder_at_once_do_not_corrupt_either(versions, tmp_path):
    old, new, old_files, new_files = versions
    out = tmp_path / "out"
    first = child(tmp_path / "m1", "slow", 0, out, *old)
    second = child(tmp_path / "m2", "slow", 0, out, *new)
    for process in (first, second):
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
    order = (tmp_path / "log").read_text().split()
    switches = sum(1 for a, b in zip(order, order[1:]) if a != b)
    assert switches >= 2, f"the two builds did not write at the same time ({order})"
    written = files(out)
    assert sorted(written) == sorted(old_files), "temporary files left behind or names missing"
    for name, data in written.items():
        assert data in (old_files[name], new_files[name]), f"{name} mixes the two builds"


def test_temporary_names_never_collide(tmp_path):
    """Many writers replacing the same files at once: each write lands whole, none fails."""
    target = tmp_path / "same" / "file.pdf"
    payloads = [bytes([65 + i]) * (50_000 + i) for i in range(12)]
    errors: list[BaseException] = []

    def writer(index: int) -> None:
        try:
            for _ in range(5):
                if index % 2:
                    write_bytes(target, payloads[index])
                else:
                    write_all([(target, payloads[index]), (target.with_name("other.svg"), payloads[index])])
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(len(payloads))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert target.read_bytes() in payloads
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.pdf", "other.svg"]


@pytest.mark.parametrize("planted", ["quick_violence", "one_minute_war/svg", "omiga/print-shop"])
def test_a_link_planted_inside_the_output_folder_is_refused_not_followed(tmp_path, planted):
    """out/<game>, out/<game>/svg and out/<game>/print-shop as symbolic links to a folder elsewhere
    were followed: the build wrote outside --out. Now the command names the link, exits 2 and
    writes nothing there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    link = out / planted
    link.parent.mkdir(parents=True)
    link.symlink_to(elsewhere, target_is_directory=True)
    game = planted.split("/")[0]
    command = ["export", game, "--print-shop"] if "print-shop" in planted else ["build", game]
    started = time.monotonic()
    result = CliRunner().invoke(cli, [*command, "--out", str(out)])
    assert time.monotonic() - started < 60
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{planted}: cannot write (it is a symbolic link" in result.output
    assert list(elsewhere.iterdir()) == []


def test_an_output_file_that_is_a_link_is_replaced_and_its_target_left_alone(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    out = tmp_path / "out"
    (out / "armies").mkdir(parents=True)
    (out / "armies" / "armies.pdf").symlink_to(target)
    result = CliRunner().invoke(cli, ["build", "armies", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert target.read_text() == "keep me"
    pdf = out / "armies" / "armies.pdf"
    assert not pdf.is_symlink() and pdf.read_bytes().startswith(b"%PDF-")
