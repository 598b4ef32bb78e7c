"""Texts rendered ahead (jinja.render.rendering_ahead): a build that knows the texts it will ask
for renders them in one bounded child beside its own work. A render then takes its text from
there, byte for byte what it would have rendered itself; a template that fails, or a batch that
breaks its budget, is rendered again alone, so the message is the one it always was."""
from __future__ import annotations

import time

import pytest

from building import count_children
from printgen.core import bounded
from printgen.core.bounded import Budget, BudgetExceeded
from printgen.core.problems import DefinitionError
from printgen.jinja import ahead, render, textcache


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A template folder of this test's own, with nothing kept from before."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(textcache, "MEMORY", type(textcache.MEMORY)())
    where = tmp_path / "templates"
    (where / "mine").mkdir(parents=True)
    (where / "mine" / "a.txt.j2").write_text("# {{ title }}\nThe first text.\n")
    (where / "mine" / "b.txt.j2").write_text("# {{ title }}\nThe second, {{ count }} tiles.\n")
    return where


def alone(name, data, folder, monkeypatch) -> str:
    """What `render` gives with nothing rendered ahead and nothing kept."""
    with monkeypatch.context() as inner:
        inner.setenv("PRINTGEN_NO_CACHE", "1")
        return render.render(name, data, [folder])


def test_texts_rendered_ahead_are_taken_with_no_child_of_their_own(folder, monkeypatch):
    started = count_children(monkeypatch, "printgen.jinja.render")
    requests = [("mine/a.txt.j2", {"title": "Omiga 7"}), ("mine/b.txt.j2", {"title": "Omiga 7", "count": 72})]
    with render.rendering_ahead(requests, [folder]):
        assert len(started) == 1  # one child for both, started at once
        texts = [render.render(name, data, [folder]) for name, data in requests]
    assert len(started) == 1
    assert texts == [alone(name, data, folder, monkeypatch) for name, data in requests]
    assert texts[1].strip() == "# Omiga 7\nThe second, 72 tiles."
    assert not ahead.PENDING and not bounded.LIVE


def test_a_template_that_fails_ahead_is_told_as_when_rendered_alone(folder, monkeypatch):
    (folder / "mine" / "b.txt.j2").write_text("# Fine\n{{ 1 / 0 }}\n")
    with pytest.raises(DefinitionError) as told_alone:
        alone("mine/b.txt.j2", {}, folder, monkeypatch)
    started = count_children(monkeypatch, "printgen.jinja.render")
    with render.rendering_ahead([("mine/a.txt.j2", {"title": "T"}), ("mine/b.txt.j2", {})], [folder]):
        assert render.render("mine/a.txt.j2", {"title": "T"}, [folder]).startswith("# T")
        with pytest.raises(DefinitionError) as told:
            render.render("mine/b.txt.j2", {}, [folder])
    assert [str(p) for p in told.value.problems] == [str(p) for p in told_alone.value.problems]
    assert "division by zero" in str(told.value.problems[0]) and ":2:" in str(told.value.problems[0])
    assert len(started) == 2  # the batch, then the failing one alone


def test_a_batch_past_its_budget_leaves_each_render_its_own_budget(folder, monkeypatch):
    monkeypatch.setattr(render, "TEMPLATE_BUDGET", Budget(0.25, render.TEMPLATE_BUDGET.memory, "the template"))
    slow_in_child(monkeypatch, "mine/b.txt.j2")
    started = time.monotonic()
    with render.rendering_ahead([("mine/a.txt.j2", {"title": "T"}), ("mine/b.txt.j2", {})], [folder]):
        with pytest.raises(DefinitionError) as told:
            render.render("mine/b.txt.j2", {}, [folder])
        assert render.render("mine/a.txt.j2", {"title": "T"}, [folder]).strip() == "# T\nThe first text."
    assert "template error: the template took more than 0.25 s" in str(told.value.problems[0])
    assert time.monotonic() - started < 5
    assert not bounded.LIVE


def slow_in_child(monkeypatch, slow: str) -> None:
    """Rendering `slow` hangs past any budget (a child forked from here inherits this)."""
    real = render.render_here

    def hanging(name, data, folders):
        if name == slow:
            time.sleep(30)
        return real(name, data, folders)

    monkeypatch.setattr(render, "render_here", hanging)


def test_a_batch_nobody_asks_for_is_ended_with_the_build(folder, monkeypatch):
    slow_in_child(monkeypatch, "mine/b.txt.j2")
    with render.rendering_ahead([("mine/b.txt.j2", {})], [folder]):
        assert len(bounded.LIVE) == 1
    assert not bounded.LIVE and not ahead.PENDING


def test_what_a_child_sent_in_time_is_read_however_late_it_is_asked_for():
    running = bounded.start_bounded(lambda: {"answer": 42}, Budget(0.3, 64 * bounded.MiB, "the job"))
    time.sleep(0.5)  # this process was busy past the child's deadline; the child was not
    assert running.result() == {"answer": 42}
    late = bounded.start_bounded(lambda: time.sleep(5), Budget(0.3, 64 * bounded.MiB, "the job"))
    with pytest.raises(BudgetExceeded, match="the job took more than 0.3 s"):
        late.result()
    assert not bounded.LIVE


def test_a_result_larger_than_a_pipe_is_read_whole_however_late_it_is_asked_for():
    """A child that finished in time but whose answer is larger than the pipe holds waits for this
    process to read it: asked after the deadline, the rest of its answer is not a broken budget."""
    running = bounded.start_bounded(lambda: b"x" * (4 << 20), Budget(0.3, 256 * bounded.MiB, "the job"))
    time.sleep(0.5)
    assert running.result() == b"x" * (4 << 20)
    assert not bounded.LIVE


def test_a_child_ended_unasked_is_never_replaced_by_the_job_in_this_process():
    """Asked for after `stop()`, the job runs in a bounded child again, never unbounded here."""
    import os

    running = bounded.start_bounded(os.getpid, Budget(5, 64 * bounded.MiB, "the job"))
    running.stop()
    assert running.result() != os.getpid()
    assert not bounded.LIVE


def test_a_process_forked_meanwhile_never_reads_or_ends_the_child():
    """A helper forked while a child works inherits the object, not the child: asking it there
    runs the job in a bounded child of the helper's own, and stopping it there leaves the
    parent's child alone."""
    import os
    import pickle

    running = bounded.start_bounded(lambda: {"from": "child"}, Budget(5, 64 * bounded.MiB, "the job"))
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper
        try:
            found = running.result()
            running.stop()
            os.write(write, pickle.dumps((found, running.pid)))
        finally:
            os._exit(0)
    os.close(write)
    answer = pickle.loads(os.read(read, 1 << 16))
    os.close(read)
    os.waitpid(pid, 0)
    assert answer == ({"from": "child"}, None)
    assert running.pid is not None and running.result() == {"from": "child"}  # still the parent's to read
    assert not bounded.LIVE


def test_a_build_that_fails_while_children_draw_leaves_none_behind(tmp_path, monkeypatch):
    """Omiga's backs and texts are drawn in children started ahead; a rules template that fails
    ends the build before their pieces are asked for, and every child is ended with it."""
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS
    from printgen.games import bundled_definition, load

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    folder = tmp_path / "templates" / "omiga"
    folder.mkdir(parents=True)
    (folder / "rules.txt.j2").write_text("# Rules\n{{ d.nothing_here }}\n")
    loaded = load(bundled_definition("omiga"))
    with pytest.raises(DefinitionError) as told:
        loaded.build(BuildOptions(PAPERS["a4"], templates=(tmp_path / "templates",)))
    assert "rules.txt.j2:2: template error" in str(told.value.problems[0])
    assert not bounded.LIVE and not ahead.PENDING
