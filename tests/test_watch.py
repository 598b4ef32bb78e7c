"""`printgen build --watch`: what is watched (the files a build opened), the polling loop on real file changes, errors shown
without stopping, and a clean stop on Ctrl-C."""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from printgen.cli import watch as watching
from printgen.cli.build import watch_builds
from printgen.cli.engine import build_all
from printgen.core.build import BuildOptions
from printgen.core.paper import PAPERS
from printgen.jinja.render import bundled_dir


def touch_later(path: Path, text: str) -> None:
    """Rewrite a file so that its stamp surely changes, even on a coarse-clock file system."""
    before = path.stat().st_mtime_ns
    path.write_text(text)
    if path.stat().st_mtime_ns == before:
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def read_by_build(definition: Path, templates: tuple[Path, ...] = ()) -> set[Path]:
    """The files the build of `definition` reports it opened."""
    with build_all([definition], BuildOptions(PAPERS["a4"], templates=templates), watching=watching.Reads()) as built:
        return built.watched


def test_watched_files_cover_definition_art_and_both_template_folders(copy_definition, tmp_path):
    definition = copy_definition("omiga")
    (tmp_path / "art").mkdir()
    Image.new("RGB", (8, 8), "red").save(tmp_path / "art" / "white-back.png")
    text = definition.read_text().replace("# art:\n#   white_back: art/white-back.png",
                                          "art:\n  white_back: art/white-back.png")
    definition.write_text(text)
    mine = tmp_path / "mine" / "omiga"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text("# Rules\n")
    files = read_by_build(definition, (tmp_path / "mine",))
    assert definition.resolve() in files
    assert (tmp_path / "art" / "white-back.png").resolve() in files
    assert (mine / "rules.md.j2").resolve() in files  # my copy, read in place of the bundled one
    assert (bundled_dir() / "omiga" / "tile-face.svg.j2").resolve() in files
    assert (bundled_dir() / "omiga" / "rules.md.j2").resolve() not in files
    assert not [p for p in files if p.suffix in (".py", ".pyc") or p.is_relative_to(sys.prefix)]  # Python's own
    # a broken definition is still watched itself, so fixing it triggers a build
    definition.write_text("game: [omiga\n")
    assert read_by_build(definition) == {definition.resolve()}


@pytest.mark.parametrize("apart", [True, False], ids=["in a worker", "in this process"])
def test_files_svg_art_draws_from_are_watched(copy_definition, tmp_path, monkeypatch, apart):
    """Art drawing another SVG and a picture: replacing either must rebuild, as editing the art does;
    where there is no worker (no fork) too."""
    if not apart:
        monkeypatch.setenv("PRINTGEN_NO_SANDBOX_PROCESS", "1")
    definition = copy_definition("omiga")
    definition.write_text(definition.read_text().replace("# art:\n#   white_back: art/white-back.png",
                                                         "art:\n  white_back: back.svg"))
    (tmp_path / "back.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
        'height="10"><use xlink:href="part.svg#r"/><image width="5" height="5" xlink:href="dot.png"/></svg>')
    (tmp_path / "part.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                       '<rect id="r" width="10" height="10"/></svg>')
    Image.new("RGB", (4, 4), "red").save(tmp_path / "dot.png")
    files = read_by_build(definition)
    assert {(tmp_path / name).resolve() for name in ("back.svg", "part.svg", "dot.png")} <= files
    before = {path: watching.stamp(path) for path in files}
    touch_later(tmp_path / "part.svg", (tmp_path / "part.svg").read_text().replace("<rect", "<rect fill=\"red\""))
    assert [path for path in files if watching.stamp(path) != before[path]] == [(tmp_path / "part.svg").resolve()]


def test_what_one_thread_reads_is_heard_and_nothing_else(tmp_path):
    """Not what it writes, not what another thread (serve's server) reads meanwhile, not what it
    reads once recording has stopped."""
    mine, theirs, written = tmp_path / "mine.txt", tmp_path / "theirs.txt", tmp_path / "written.txt"
    for path in (mine, theirs):
        path.write_text("x")
    reads, heard = watching.Reads(), set[str]()
    with reads.recording(heard):
        mine.read_text()
        written.write_text("y")
        other = threading.Thread(target=theirs.read_text)
        other.start()
        other.join()
    written.read_text()
    assert heard == {str(mine)}


def test_loop_rebuilds_after_a_real_change_and_not_otherwise(tmp_path):
    watched_file = tmp_path / "game.yaml"
    watched_file.write_text("title: one\n")
    calls: list[list[Path]] = []

    def rebuild(changed: list[Path]) -> set[Path]:
        calls.append(changed)
        return {watched_file}

    def sleep(_: float) -> None:  # the loop's pause: the user edits the file during the second one
        if sleep.rounds == 1:
            touch_later(watched_file, "title: two, longer\n")
        elif sleep.rounds == 4:  # four looks at the file, then Ctrl-C
            raise KeyboardInterrupt
        sleep.rounds += 1
    sleep.rounds = 0

    rebuilds = watching.watch({watched_file}, rebuild, sleep=sleep)
    assert rebuilds == 1
    assert calls == [[], [watched_file]]  # the first build, then one rebuild naming the file


def test_loop_with_a_short_interval_in_a_thread(tmp_path):
    watched_file = tmp_path / "art.png"
    watched_file.write_bytes(b"one")
    seen: list[list[Path]] = []
    stop = threading.Event()

    def rebuild(changed: list[Path]) -> set[Path]:
        seen.append(changed)
        return {watched_file}

    def sleep(_: float) -> None:  # a short pause, until the test says stop (as Ctrl-C would)
        if stop.wait(0.02):
            raise KeyboardInterrupt

    worker = threading.Thread(target=watching.watch, args=({watched_file}, rebuild), kwargs={"sleep": sleep})
    worker.start()
    try:
        time.sleep(0.1)
        touch_later(watched_file, "two!")
        deadline = time.monotonic() + 5
        while len(seen) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        watched_file.unlink()  # a deleted file counts as a change too
        while len(seen) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        stop.set()
        worker.join(timeout=5)
    assert not worker.is_alive()
    assert seen == [[], [watched_file], [watched_file]]


def test_watch_builds_shows_errors_and_keeps_going(copy_definition, tmp_path, capsys):
    definition = copy_definition("fracas")
    good = definition.read_text()
    out = tmp_path / "o"
    pdf = out / "fracas" / "fracas.pdf"
    edits = iter([
        lambda: touch_later(definition, good.replace("life: 20", "life: 0")),  # broken
        lambda: touch_later(definition, good.replace("title: Fracas", "title: Fracas Again")),  # fixed
    ])

    def sleep(_: float) -> None:  # a save at each pause, then Ctrl-C
        next(edits, interrupted)()

    def interrupted() -> None:
        raise KeyboardInterrupt

    options = BuildOptions(PAPERS["a4"])
    rebuilds = watch_builds([definition], options, out, False, sleep=sleep)
    assert rebuilds == 2
    err = capsys.readouterr().err
    assert "fracas.yaml:" in err and "life" in err and "nothing was written. Watching for changes" in err
    assert err.count("changed: ") == 2
    assert "Fracas Again" in PdfReader(pdf).metadata.title  # the fixed definition was built


def test_build_watch_stops_cleanly_on_ctrl_c(run_cli, copy_definition, tmp_path, monkeypatch):
    definition = copy_definition("fracas")

    def interrupted(_: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(watching.time, "sleep", interrupted)
    result = run_cli("build", str(definition), "--watch", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o" / "fracas" / "fracas.pdf").is_file()
    assert "stopped watching" in result.stderr and "Traceback" not in result.output
