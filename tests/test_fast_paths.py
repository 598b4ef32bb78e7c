"""What keeps builds quick, checked by behaviour rather than by the clock: repeated pictures stored
once as PDF forms (and drawn exactly as before), files written together, heavy libraries imported
only when used. benchmarks/run.py measures the times; nothing here does."""
from __future__ import annotations

import io
import os
from functools import partial
import subprocess
import sys
from pathlib import Path

import click
import pdfplumber
import pytest
from reportlab.graphics.shapes import Group, Rect
from reportlab.lib.colors import HexColor, black

from printgen.core.atomic import write_all
from printgen.games import game_entry, game_ids, registry
from printgen.core.parallel import can_fork, on_cores
from printgen.core.paper import PAPERS
from printgen.drawing.picture import placed, rect
from printgen.drawing.document import Document, Page
from printgen.output.writers import write
from printgen.output.reuse import reusable
from printgen.output.svg import svg_bytes

pytestmark = pytest.mark.helpers  # builds here fork helpers, as a user's do (conftest.builds_without_helpers)

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


def test_write_all_flushes_every_folder_whose_names_changed_and_makes_files_others_may_read(tmp_path, monkeypatch):
    """Once write_all returns, the new names are on disk too: the folders files were renamed
    into, and those folders were made in."""
    from printgen.core import atomic

    flushed: list[Path] = []
    real = atomic.flush_to_disk
    monkeypatch.setattr(atomic, "flush_to_disk", lambda path: flushed.append(Path(path)) if os.path.isdir(path)
                        else real(path))
    (tmp_path / "kept").mkdir()
    files = [(tmp_path / "out" / "game" / "game.pdf", b"pdf"), (tmp_path / "out" / "game" / "svg" / "1.svg", b"svg"),
             (tmp_path / "kept" / "a.txt", b"a")]
    write_all(files)
    assert sorted(flushed) == sorted([tmp_path, tmp_path / "out", tmp_path / "out" / "game",
                                      tmp_path / "out" / "game" / "svg", tmp_path / "kept"])
    assert all((path.stat().st_mode & 0o777) == 0o644 for path, _ in files)


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


def imported_by_the_command(*args: str, cwd: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run `printgen ARGS` as the console script does; its result and every module it imported
    (in this process: a build's worker imports what the build needs, and reports nothing)."""
    code = ("import atexit, sys\natexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sys.modules)))\n"
            "sys.argv = ['printgen', *sys.argv[1:]]\nfrom printgen.launch import main\nmain()")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                         env={**os.environ, **env})
    head, _, modules = out.stderr.rpartition("\nMODULES ")
    return subprocess.CompletedProcess(out.args, out.returncode, out.stdout, head), set(modules.split())


def test_help_lists_every_command_without_importing_any(tmp_path):
    """The summaries come from the command table; no command's module, no game, no validation,
    YAML or template library is imported to list them."""
    from printgen.cli.main import COMMANDS

    out, loaded = imported_by_the_command("--help", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    listed = out.stdout.split("Commands:")[1].split()
    assert all(name in listed for name in COMMANDS)
    command_modules = {entry.module for entry in COMMANDS.values()} | {"printgen.cli.common", "printgen.cli.engine"}
    assert not command_modules & loaded
    assert not {"printgen.games", "pydantic", "ruamel.yaml", "jinja2", "reportlab"} & loaded


def test_a_mistyped_command_is_matched_against_the_table_without_importing_any(tmp_path):
    from printgen.cli.main import COMMANDS

    out, loaded = imported_by_the_command("bild", "omiga", cwd=tmp_path)
    assert out.returncode == 2 and "No such command 'bild'. Did you mean 'build'?" in out.stderr
    assert not {entry.module for entry in COMMANDS.values()} & loaded


def test_each_commands_summary_is_the_first_sentence_of_its_own_help():
    from printgen.cli.main import COMMANDS, cli

    context = click.Context(cli)
    for name, entry in COMMANDS.items():
        command = cli.get_command(context, name)
        assert command is not None and command.name == name
        assert entry.summary == command.get_short_help_str(limit=10_000), name


@pytest.mark.parametrize("width", [50, 80, 120])
def test_help_shortens_the_summaries_as_click_shortens_each_commands_help(width):
    """The lazy command list reads the same as click's own list of the imported commands."""
    from printgen.cli.main import cli

    context = click.Context(cli)
    eager = click.Group("printgen", commands=[cli.get_command(context, n) for n in cli.list_commands(context)])
    listed = []
    for group in (cli, eager):
        formatter = click.HelpFormatter(width=width)
        group.format_commands(click.Context(group), formatter)
        listed.append(formatter.getvalue())
    assert listed[0] == listed[1] and listed[0].count("\n") == len(cli.list_commands(context)) + 1


def test_build_imports_its_own_command_only(tmp_path):
    """`build` imports the build command's modules and none of another command's."""
    from printgen.cli.main import COMMANDS

    out, loaded = imported_by_the_command("build", "omiga", "--out", str(tmp_path / "here"), cwd=tmp_path,
                                          PRINTGEN_NO_SANDBOX_PROCESS="1")  # the build's imports, here
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "here" / "omiga" / "svg").glob("*.svg"))) == 72
    assert "svgwrite" in loaded
    others = {entry.module for name, entry in COMMANDS.items() if name != "build"}
    assert not others & loaded
    out, loaded = imported_by_the_command("build", "omiga", "--out", str(tmp_path / "worker"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert not {"printgen.games", "ruamel.yaml", "jinja2", "reportlab", "svgwrite"} & loaded  # all in the worker


def test_a_build_of_several_games_imports_their_code_once_before_the_first_worker(tmp_path):
    """Each game's worker is forked from the command: with the drawing, writing and game code
    imported there once, no worker imports it again (every bundled game: 4.9 -> 3.2 CPU-s)."""
    out, loaded = imported_by_the_command("build", "fracas", "armies", "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "o" / "fracas" / "fracas.pdf").is_file() and (tmp_path / "o" / "armies" / "armies.pdf").is_file()
    assert {"printgen.games.fracas.game", "printgen.games.armies.game", "printgen.output.pdf", "svgwrite"} <= loaded


def test_importing_printgen_leaves_reportlab_settings_alone():
    code = "import printgen, printgen.games, printgen.output.writers, reportlab.graphics.shapes as s\n" \
           "print(s.shapeChecking)"
    env = {k: v for k, v in os.environ.items() if k not in ("RL_shapeChecking", "PRINTGEN_SHAPE_CHECKS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "1"


def test_shape_checks_are_off_while_printgen_builds_and_back_after(tmp_path):
    """A library user's own shapes stay checked; printgen's are not, unless PRINTGEN_SHAPE_CHECKS=1."""
    code = ("from reportlab import rl_config\nfrom printgen.games import load, bundled_definition\n"
            "from printgen.core.build import BuildOptions\nfrom printgen.core.paper import PAPERS\n"
            "import printgen.games.fracas.game as g\nseen = []\nbuild = g.GAME.build\n"
            "def spy(*a):\n    seen.append(rl_config.shapeChecking)\n    return build(*a)\n"
            "object.__setattr__(g.GAME, 'build', spy)\n"
            "loaded = load(bundled_definition('fracas'))\nloaded.build(BuildOptions(PAPERS['a4']))\n"
            "print(seen[0], rl_config.shapeChecking)")
    env = {k: v for k, v in os.environ.items() if k not in ("RL_shapeChecking", "PRINTGEN_SHAPE_CHECKS")}
    for extra, expected in (({}, "0 1"), ({"PRINTGEN_SHAPE_CHECKS": "1"}, "1 1")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**env, **extra}, cwd=tmp_path)
        assert out.stdout.strip() == expected, out.stderr


def test_the_printgen_command_starts_reportlab_without_shape_checks(tmp_path):
    code = ("import sys\nfrom printgen.cli.main import main\nimport atexit\n"
            "atexit.register(lambda: print(__import__('reportlab.graphics.shapes').graphics.shapes.shapeChecking))\n"
            "sys.argv = ['printgen', 'build', 'fracas', '--out', sys.argv[1]]\nmain()")
    env = {k: v for k, v in os.environ.items() if k not in ("RL_shapeChecking", "PRINTGEN_SHAPE_CHECKS")}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "0"
    assert (tmp_path / "fracas" / "fracas.pdf").stat().st_size > 0


def test_each_bundled_game_is_found_by_its_module_name():
    assert game_ids() == list(registry())
    for game_id in game_ids():
        assert game_entry(game_id).id == game_id


def test_loading_one_game_imports_no_other_game():
    loaded = imported_by("from printgen.games import bundled_definition, load\n"
                         "load(bundled_definition('omiga'))")
    assert "printgen.games.omiga" in loaded
    assert not {f"printgen.games.{g}" for g in game_ids() if g != "omiga"} & loaded


def job_pid() -> int:
    return os.getpid()


def test_one_job_goes_to_a_helper_while_this_process_does_its_own_work(monkeypatch):
    done: list[int] = []
    forked = on_cores([job_pid], meanwhile=lambda: done.append(os.getpid())) != [os.getpid()]
    assert forked == can_fork()
    assert done == [os.getpid()]
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")
    assert on_cores([job_pid], meanwhile=lambda: done.append(1)) == [os.getpid()] and done[-1] == 1


def fails() -> None:
    raise ValueError("from the job")


def test_a_job_that_fails_in_the_helper_fails_here_with_its_own_error():
    with pytest.raises(ValueError, match="from the job"):
        on_cores([fails], meanwhile=lambda: None)


def test_a_helper_whose_result_is_never_asked_for_is_stopped_and_waited_for(monkeypatch):
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    with pytest.raises(ValueError, match="from the job"):
        on_cores([lambda: sum(range(10**8))], meanwhile=fails)  # this process failed first
    for pid in forked:
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
    assert shared == alone and len(shared) == 80


def test_a_helper_that_cannot_be_forked_leaves_the_job_to_this_process(monkeypatch):
    def no_fork() -> int:
        raise OSError("fork: resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert on_cores([lambda: "done here"], meanwhile=lambda: None) == ["done here"]


def which_process(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def test_many_jobs_run_on_helpers_and_come_back_in_order_with_each_result_heard():
    heard: list[int] = []
    results = on_cores([partial(which_process, n) for n in range(9)], lambda i, _: heard.append(i), workers=3)
    assert [square for square, _ in results] == [n * n for n in range(9)]
    assert sorted(heard) == list(range(9))
    pids = {pid for _, pid in results}
    if can_fork():  # two helpers start with the first jobs; this process may take some from the end
        helpers = {results[0][1], results[1][1]}
        assert len(helpers) == 2 and os.getpid() not in helpers and pids <= helpers | {os.getpid()}
    else:
        assert pids == {os.getpid()}


def slow_square(n: int) -> tuple[int, int]:
    sum(range(200_000))  # long enough that this process, once free, takes jobs from the end
    return n * n, os.getpid()


def test_this_process_takes_jobs_from_the_end_while_one_helper_takes_them_from_the_start():
    heard: list[int] = []
    results = on_cores([partial(slow_square, n) for n in range(12)], lambda i, _: heard.append(i), workers=2)
    assert [square for square, _ in results] == [n * n for n in range(12)] and sorted(heard) == list(range(12))
    if can_fork():  # one helper, not two: no more processes than cores
        helper = results[0][1]
        assert helper != os.getpid() and results[-1][1] == os.getpid()
        assert {pid for _, pid in results} == {helper, os.getpid()}
        mine = [i for i, (_, pid) in enumerate(results) if pid == os.getpid()]
        assert mine == list(range(mine[0], 12))  # a run at the end, met in the middle


def long_answer(folder: Path, n: int) -> str:
    (folder / str(n)).touch()  # seen by the caller before it reads a single answer
    return "x" * 12_000  # as long as a helper's answer for a page of a deck's pictures


@pytest.mark.skipif(not can_fork(), reason="helpers need fork")
def test_a_helper_keeps_working_while_this_process_is_busy_and_reads_no_answer(tmp_path):
    """Twenty answers of 12 KB fit the helper's pipe: none waits for this process to read it
    (with a pipe's usual 64 KiB the helper stopped at the sixth, until deck.pdf was written)."""
    import time

    seen: list[int] = []

    def busy() -> None:  # this process's own work, reading nothing meanwhile
        deadline = time.monotonic() + 60  # bounds a failure only; a pass takes a fraction of it
        while len(list(tmp_path.iterdir())) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.append(len(list(tmp_path.iterdir())))

    results = on_cores([partial(long_answer, tmp_path, n) for n in range(20)], workers=2, meanwhile=busy, kind=str)
    assert seen == [20] and results == ["x" * 12_000] * 20


def fails_on(bad: int, n: int) -> int:
    if n == bad:
        raise ValueError(f"job {n} went wrong")
    return n


def test_a_job_that_fails_on_a_helper_fails_here_with_its_own_error_after_the_others():
    heard: list[int] = []
    with pytest.raises(ValueError, match="job 4 went wrong"):
        on_cores([partial(fails_on, 4, n) for n in range(6)], lambda i, _: heard.append(i), workers=2)
    if can_fork():
        assert sorted(heard) == [0, 1, 2, 3, 5]  # everything else arrived first


def test_many_jobs_without_fork_run_here_in_order(monkeypatch):
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")
    heard: list[int] = []
    results = on_cores([partial(which_process, n) for n in range(4)], lambda i, _: heard.append(i))
    assert heard == [0, 1, 2, 3] and {pid for _, pid in results} == {os.getpid()}
