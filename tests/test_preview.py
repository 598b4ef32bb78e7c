"""`printgen preview`: a PNG per page of every PDF a game builds, at the asked resolution, and the
progress bar on long work."""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

A4_PT = (210 * 72 / 25.4, 297 * 72 / 25.4)
LETTER_PT = (612.0, 792.0)


def pixels(size_pt: tuple[float, float], dpi: int) -> tuple[int, int]:
    return math.ceil(size_pt[0] * dpi / 72), math.ceil(size_pt[1] * dpi / 72)


def test_preview_writes_every_page_of_every_pdf_and_prints_the_paths(run_cli, tmp_path, all_games_built):
    # the PDFs `printgen build one_minute_war` writes (on A4, the default paper: the session's build)
    pages = {pdf.stem: len(PdfReader(pdf).pages) for pdf in (all_games_built["a4"] / "one_minute_war").glob("*.pdf")}
    result = run_cli("preview", "one_minute_war", "--dpi", "30", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    printed = [Path(line) for line in result.stdout.splitlines()]
    assert len(printed) == sum(pages.values())
    for stem, count in pages.items():
        for page in range(1, count + 1):
            assert tmp_path / "o" / "one_minute_war" / "preview" / f"{stem}-p{page}.png" in printed
    for path in printed:
        image = Image.open(path)
        assert image.format == "PNG" and image.size == pixels(A4_PT, 30)
    # only pictures: the PDFs themselves are build's job
    assert not list((tmp_path / "o").rglob("*.pdf"))
    front = Image.open(tmp_path / "o" / "one_minute_war" / "preview" / "one_minute_war-p1.png").convert("L")
    assert front.getextrema()[0] < 60  # text and lines were drawn, not a blank page


def test_preview_follows_paper_and_dpi(run_cli, tmp_path):
    result = run_cli("preview", "fracas", "--paper", "letter", "--dpi", "40", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for line in result.stdout.splitlines():
        assert Image.open(line).size == pixels(LETTER_PT, 40)


def test_preview_of_a_broken_definition_is_located_and_writes_nothing(run_cli, copy_definition, tmp_path):
    definition = copy_definition("fracas")
    definition.write_text(definition.read_text().replace("life: 20", "life: 0"))
    result = run_cli("preview", str(definition), "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "fracas.yaml:" in result.stderr and "life" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_progress_bar_only_on_long_work(run_cli, tmp_path):
    # two games are long work already: the bar shows from an estimated second (0.7 s a game), and
    # every bundled game at once would only make the same bar longer
    from printgen.cli.engine import SECONDS_PER_GAME
    from printgen.core.progress import SHOW_FROM_SECONDS

    assert 2 * SECONDS_PER_GAME >= SHOW_FROM_SECONDS > SECONDS_PER_GAME
    many = run_cli("build", "fracas", "one_minute_war", "--out", tmp_path / "all")
    assert many.exit_code == 0
    assert {p.name for p in (tmp_path / "all").iterdir()} == {"fracas", "one_minute_war"}
    assert "Building" in many.stderr and "Building" not in many.stdout
    one = run_cli("build", "fracas", "--out", tmp_path / "one")  # well under a second
    assert "Building" not in one.stderr
