"""What keeps builds quick, checked by behaviour rather than by the clock: repeated pictures stored
once as PDF forms (and drawn exactly as before), files written together, heavy libraries imported
only when used. benchmarks/run.py measures the times; nothing here does."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from reportlab.graphics.shapes import Group, Rect
from reportlab.lib.colors import HexColor, black

from printgen.core.atomic import write_all
from printgen.games import game_entry, game_ids, registry
from printgen.core.parallel import beside, can_fork
from printgen.core.paper import PAPERS
from printgen.drawing.picture import placed, rect
from printgen.drawing.document import Document, Page
from printgen.output.writers import write
from printgen.output.reuse import reusable
from printgen.output.svg import svg_bytes

MM = 72 / 25.4
RED, BLUE = HexColor("#cc2200"), HexColor("#0033aa")


def forms_in(pdf: bytes) -> int:
    """Form XObjects stored in the whole document (reportlab writes object dictionaries uncompressed)."""
    return pdf.count(b"/Subtype /Form")


def square(colour=BLUE) -> Group:
    group = Group()
    group.add(rect(0, 0, 10, 10, fill=colour))
    return group


def filled(pdf: bytes, page: int = 0) -> list[tuple[float, float, tuple]]:
    """(x, y) in mm and fill of every filled 10 mm square on a page."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        p = doc.pages[page]
        return sorted((round(r["x0"] / MM, 3), round((float(p.height) - r["bottom"]) / MM, 3),
                       tuple(round(float(v), 3) for v in r["non_stroking_color"]))
                      for r in p.rects if r.get("fill") and abs((r["x1"] - r["x0"]) / MM - 10) < 0.01)


def test_a_repeated_group_is_stored_once_and_drawn_wherever_it_is_placed():
    pages = [Page(shapes=[placed(reusable(square()), (1, 0, 0, 1, x, 20)) for x in (20, 50, 80)]),
             Page(shapes=[placed(reusable(square()), (1, 0, 0, 1, 20, 100))])]
    pdf = write(Document("forms.pdf", PAPERS["a4"], pages, "forms"))
    assert forms_in(pdf) == 1
    blue = (0.0, 0.2, 0.667)
    assert filled(pdf, 0) == [(20, 20, blue), (50, 20, blue), (80, 20, blue)]
    assert filled(pdf, 1) == [(20, 100, blue)]


def test_different_content_gets_its_own_form():
    assert reusable(square(BLUE)).key == reusable(square(BLUE)).key
    assert reusable(square(BLUE)).key != reusable(square(RED)).key
    shapes = [placed(reusable(square(c)), (1, 0, 0, 1, x, 20)) for c, x in ((BLUE, 20), (RED, 50))]
    assert forms_in(write(Document("two.pdf", PAPERS["a4"], [Page(shapes=shapes)], "two"))) == 2


def test_a_form_sets_its_own_colours_whatever_was_drawn_before_it():
    """The first use is drawn after a red shape, the second after a blue one: both stay black."""
    plain = Group()
    plain.add(Rect(0, 0, 10, 10, fillColor=black, strokeColor=None))
    shapes = [rect(0, 0, 5, 5, fill=RED), placed(reusable(plain), (1, 0, 0, 1, 20, 20)),
              rect(0, 200, 5, 5, fill=BLUE), placed(reusable(plain), (1, 0, 0, 1, 50, 20))]
    pdf = write(Document("state.pdf", PAPERS["a4"], [Page(shapes=shapes)], "state"))
    assert [f[2] for f in filled(pdf)] in ([(0.0,), (0.0,)], [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)])


def test_svg_draws_a_reused_group_like_any_other():
    plain = svg_bytes([placed(square(), (1, 0, 0, 1, 5, 5))], 30, 30)
    reused = svg_bytes([placed(reusable(square()), (1, 0, 0, 1, 5, 5))], 30, 30)
    assert plain == reused


def test_write_all_replaces_every_file_and_leaves_no_temporary(tmp_path):
    (tmp_path / "a.txt").write_text("old")
    write_all([(tmp_path / "a.txt", b"new a"), (tmp_path / "sub" / "b.txt", b"new b")])
    assert (tmp_path / "a.txt").read_bytes() == b"new a"
    assert (tmp_path / "sub" / "b.txt").read_bytes() == b"new b"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "b.txt", "sub"]


def test_write_all_replaces_nothing_when_one_file_cannot_be_written(tmp_path):
    (tmp_path / "a.txt").write_text("old")
    (tmp_path / "blocked").write_text("a file where a folder is needed")
    with pytest.raises(OSError):
        write_all([(tmp_path / "a.txt", b"new"), (tmp_path / "blocked" / "b.txt", b"new")])
    assert (tmp_path / "a.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "blocked"]


def imported_by(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
                         capture_output=True, text=True, check=True, cwd=Path(__file__).parent)
    return set(out.stdout.split())


def test_the_command_line_imports_no_rasteriser_no_svg_library_and_no_drawing_code():
    """`printgen --help` loads only what parses the command line; each command imports its own."""
    loaded = imported_by("import printgen.cli.main")
    heavy = {"pypdfium2", "svglib", "svglib.svglib", "svgwrite", "PIL.Image", "reportlab.graphics.shapes",
             "reportlab.platypus", "reportlab.pdfgen.canvas"}
    assert not heavy & loaded


def test_reportlab_shape_checks_are_off_unless_asked_for():
    code = "import printgen, reportlab.graphics.shapes as s\nprint(s.shapeChecking)"
    env = {k: v for k, v in os.environ.items() if k not in ("RL_shapeChecking", "PRINTGEN_SHAPE_CHECKS")}
    for extra, expected in (({}, "0"), ({"PRINTGEN_SHAPE_CHECKS": "1"}, "1")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**env, **extra})
        assert out.stdout.strip() == expected
def test_omiga_backs_and_marks_are_forms_and_builds_stay_identical(run_cli, tmp_path):
    outputs = []
    for run in ("one", "two"):
        result = run_cli("build", "omiga", "--out", tmp_path / run)
        assert result.exit_code == 0, result.output
        outputs.append((tmp_path / run / "omiga" / "omiga.pdf").read_bytes())
    assert outputs[0] == outputs[1]
    # two deck backs and the cut marks (every sheet is full, so one set of marks serves all six pages)
    assert forms_in(outputs[0]) == 3




def test_each_bundled_game_is_found_by_its_module_name():
    assert game_ids() == list(registry())
    for game_id in game_ids():
        assert game_entry(game_id).id == game_id


def test_loading_one_game_imports_no_other_game():
    loaded = imported_by("from printgen.games import bundled_definition, load\n"
                         "load(bundled_definition('omiga'))")
    assert "printgen.games.omiga" in loaded
    assert not {f"printgen.games.{g}" for g in game_ids() if g != "omiga"} & loaded


def test_a_forked_helper_returns_what_the_job_returns(monkeypatch):
    with beside(lambda: [n * n for n in range(5)]) as helper:
        forked = helper.pid is not None
        assert helper.result() == [0, 1, 4, 9, 16]
    assert forked == can_fork()
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")
    with beside(lambda: "here") as helper:
        assert helper.pid is None and helper.result() == "here"


def fails() -> None:
    raise ValueError("from the job")


def test_a_job_that_fails_in_the_helper_fails_here_with_its_own_error():
    with beside(fails) as helper:
        with pytest.raises(ValueError, match="from the job"):
            helper.result()


def test_a_helper_whose_result_is_never_asked_for_is_stopped_and_waited_for():
    with beside(lambda: sum(range(10**8))) as helper:
        pid = helper.pid
    if pid is not None:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left behind


def test_builds_with_and_without_a_helper_are_identical(run_cli, tmp_path, monkeypatch):
    """Two games, so the build splits them; Omiga also makes its pictures beside its PDF."""
    def build(folder: str) -> dict[str, bytes]:
        result = run_cli("build", "omiga", "fracas", "--out", tmp_path / folder)
        assert result.exit_code == 0, result.output
        return {str(p.relative_to(tmp_path / folder)): p.read_bytes()
                for p in sorted((tmp_path / folder).rglob("*")) if p.is_file()}

    shared = build("shared")
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")
    alone = build("alone")
    assert shared == alone and len(shared) == 77


def test_a_helper_that_cannot_be_forked_leaves_the_job_to_this_process(monkeypatch):
    def no_fork() -> int:
        raise OSError("fork: resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    with beside(lambda: "done here") as helper:
        assert helper.pid is None and helper.result() == "done here"
