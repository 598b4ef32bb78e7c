"""Decks too large to hold in memory: every file is kept on disk once made, in the build's private
staging folder next to the output, and renamed into place (its bytes written once); each sheet and
picture is drawn only while it is written. Read back: the files are the bytes an in-memory build
writes, and a problem found late still leaves nothing behind (the pictures' pixels:
test_deck_pictures.py)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import cards_only
from printgen.games import bundled_definition
from printgen.output import writers

pytestmark = pytest.mark.helpers  # builds here fork helpers, as a user's do (conftest.builds_without_helpers)

ROWS = 170  # 1 PDF + 2 x (170 faces + 1 back) documents: over writers.SPOOL_AFTER


@pytest.fixture
def big_deck(tmp_path) -> Path:
    """The bundled sample with its rows repeated to ROWS cards, one copy each."""
    folder = tmp_path / "big"
    shutil.copytree(bundled_definition("deck").parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    cards_only(folder / "deck.yaml")  # its rows renamed: the rulebook, which names them, left out
    header, *rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    lines = [header]
    for n in range(ROWS):
        title, rest = rows[n % len(rows)].split(",", 1)
        lines.append(f"{title} {n + 1},{rest.rsplit(',', 1)[0]},1")
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "deck.yaml"


@pytest.fixture
def private_tmp(tmp_path, monkeypatch) -> Path:
    """Where temporary folders go during the test, so that one left behind is seen."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def staging_left(tmp_path: Path) -> list[Path]:
    """Staging folders (printgen.core.staging) left beside the outputs below `tmp_path`."""
    return list(tmp_path.glob(".printgen-*")) + list(tmp_path.glob("*/.printgen-*"))


def test_a_kept_build_writes_the_bytes_of_one_held_in_memory(run_cli, big_deck, tmp_path, private_tmp,
                                                             monkeypatch):
    spooled = run_cli("build", big_deck, "--out", tmp_path / "spooled", "--png")
    assert spooled.exit_code == 0, spooled.output
    assert list(private_tmp.iterdir()) == [] and staging_left(tmp_path) == []  # gone once the files are in place
    monkeypatch.setattr(writers, "SPOOL_AFTER", 10**9)
    held = run_cli("build", big_deck, "--out", tmp_path / "held", "--png")
    assert held.exit_code == 0, held.output
    written = files_of(tmp_path / "spooled" / "deck")
    assert len(written) == 2 + 2 * (ROWS + 1)  # the PDF, the overview, and an SVG and a PNG of each card and the back
    assert written == files_of(tmp_path / "held" / "deck")


def test_a_problem_only_drawing_finds_late_in_a_large_deck_writes_nothing(run_cli, big_deck, tmp_path,
                                                                          private_tmp):
    csv_path = big_deck.parent / "cards.csv"
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    title, kind, cost, *_ = lines[ROWS - 10].split(",")
    lines[ROWS - 10] = f"{title},{kind},{cost},{'Far too many words for the box. ' * 30},1"
    csv_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("build", big_deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"cards.csv:{ROWS - 9}: row {ROWS - 10}: face.layout[6].text (" in result.output, result.output
    assert result.output.count("the text does not fit") == 1
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
    assert list(private_tmp.iterdir()) == [] and staging_left(tmp_path) == []


def test_no_pictures_writes_the_same_sheets_and_no_card_pictures(run_cli, tmp_path, all_games_built):
    both = all_games_built["a4"] / "deck"  # `printgen build --paper a4` (A4 is build's default paper), pictures and all
    assert (both / "svg").is_dir() and (both / "deck-overview.png").is_file()
    alone = run_cli("build", bundled_definition("deck"), "--out", tmp_path / "alone", "--no-pictures")
    assert alone.exit_code == 0, alone.output
    pdfs = ("deck.pdf", "deck-rules.pdf", "deck-reference.pdf", "deck-reference-cards.pdf")
    assert files_of(tmp_path / "alone" / "deck") == {name: (both / name).read_bytes() for name in pdfs}


@pytest.mark.skipif(sys.platform != "linux", reason="stops a build with SIGTERM")
def test_a_build_stopped_while_it_keeps_files_leaves_no_staging_folder(big_deck, tmp_path):
    spools = tmp_path / "spools"
    spools.mkdir()
    build = subprocess.Popen([sys.executable, "-m", "printgen.launch", "build", str(big_deck), "--png", "--out",
                              str(tmp_path / "out")], env=dict(os.environ, TMPDIR=str(spools)),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    # the build's worker keeps files in its staging folder beside --out (printgen.cli.report.scratch_in)
    while not list(tmp_path.glob(".printgen-*/scratch/*/*")) and build.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert build.poll() is None, "the build ended before it kept anything"
    build.send_signal(signal.SIGTERM)
    _, err = build.communicate(timeout=30)
    assert build.returncode == 143, err
    assert "Traceback" not in err
    assert list(spools.iterdir()) == [] and staging_left(tmp_path) == []
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: builds run in-process")
def test_a_deck_of_many_pages_of_pictures_forks_at_most_two_processes(big_deck, tmp_path):
    """Its worker and one helper: on two cores the worker, once deck.pdf and the overview are
    written, draws pictures too, from the last card down, while the helper draws from the first."""
    from test_worker import forks_of

    forks, done = forks_of(tmp_path, "build", str(big_deck), "--out", str(tmp_path / "out"), "--png")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "out" / "deck"
    pngs = sorted((folder / "png").iterdir())
    assert len(pngs) == len(list((folder / "svg").iterdir())) == ROWS + 1  # every face and the one back
    assert all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)
    assert 1 <= forks <= 2, forks
