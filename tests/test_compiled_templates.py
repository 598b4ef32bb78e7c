"""printgen's own templates are compiled once in the process that forks the bounded children
(jinja.render.COMPILED), so each child renders from the kept code; a user's template is never
compiled there, and whatever is kept, a render gives exactly what a fresh compile gives."""
from __future__ import annotations

from pathlib import Path

import pytest

from printgen.jinja import render
from printgen.jinja.sandbox import BoundedSandbox

FACE = "omiga/tile-face.svg.j2"
RULES = "omiga/rules.txt.j2"


@pytest.fixture
def compiled(monkeypatch):
    """An empty memory of compiled templates, and a count of every compile in this process."""
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(render, "COMPILED", render.CompiledTemplates())
    calls: list[str | None] = []
    original = BoundedSandbox.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(name)
        return original(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(BoundedSandbox, "compile", counted)
    return calls


def test_a_bundled_template_is_compiled_once_for_every_later_environment(compiled):
    render.compile_bundled(FACE)
    assert compiled == [FACE] and len(render.COMPILED.kept) == 1
    render.environment().get_template(FACE)  # a fresh sandbox, as each child makes
    render.compile_bundled(FACE)
    assert compiled == [FACE]


def test_a_users_template_is_left_to_the_child(compiled, tmp_path):
    own = tmp_path / "omiga"
    own.mkdir()
    (own / "tile-face.svg.j2").write_text("<svg/>")  # replaces the bundled one in the search
    render.compile_bundled(FACE, [tmp_path])
    render.compile_bundled("omiga/missing.svg.j2", [tmp_path])
    assert compiled == [] and not render.COMPILED.kept


def test_text_and_svg_environments_keep_their_own_code(compiled):
    """The text markup's sandbox (inline values) compiles differently: never handed the other's."""
    render.compile_bundled(RULES)
    plain_env = render.environment()
    plain_env.get_template(RULES)
    assert compiled == [RULES, RULES] and len(render.COMPILED.kept) == 2


def test_kept_code_renders_as_a_fresh_compile(compiled, monkeypatch):
    from printgen.games import bundled_definition, load
    from printgen.games.omiga.tile import face_data

    defn = load(bundled_definition("omiga")).definition
    context = {"d": {}, **dict(face_data(defn, "white", 0, defn.deck("white").tiles[0], 0.0, True, {}))}
    render.compile_bundled(FACE)
    kept = render.environment().get_template(FACE).render(context)
    assert compiled == [FACE]
    monkeypatch.setattr(render, "COMPILED", render.CompiledTemplates())
    assert render.environment().get_template(FACE).render(context) == kept and compiled == [FACE, FACE]
    monkeypatch.setenv("PRINTGEN_NO_CACHE", "1")
    assert render.environment().get_template(FACE).render(context) == kept


def test_an_edited_template_renders_its_new_text(compiled, tmp_path, monkeypatch):
    """In a process without children (no fork) a user's template is compiled and kept here: an
    edit of it (a new source, so Jinja's digest differs) is compiled again."""
    monkeypatch.setenv("PRINTGEN_NO_SANDBOX_PROCESS", "1")
    folder = tmp_path / "t"
    folder.mkdir()
    page = folder / "page.svg.j2"
    page.write_text("<svg>{{ x }}</svg>")
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>1</svg>"
    page.write_text("<svg>{{ x + 1 }}</svg>")
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>2</svg>"
    assert compiled == ["page.svg.j2", "page.svg.j2"]


def test_a_template_compiled_before_is_not_looked_up_again_while_its_code_is_kept(compiled, monkeypatch):
    """A rebuild asks for the same templates again: no new sandbox, no read of the file, until the
    code is no longer kept (then it is compiled as the first time)."""
    render._ASKED.clear()
    render.compile_bundled(RULES)
    made: list[int] = []
    real = render.environment
    monkeypatch.setattr(render, "environment", lambda *a, **k: made.append(1) or real(*a, **k))
    render.compile_bundled(RULES)
    assert made == [] and compiled == [RULES]
    render.COMPILED.kept.clear()
    render.compile_bundled(RULES)
    assert made == [1] and compiled == [RULES, RULES] and len(render.COMPILED.kept) == 1
