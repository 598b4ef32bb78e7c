"""A sandbox is made for one render, or one batch of renders (jinja.render.environment), and kept by
no one after: no step counter or parsed template outlives the work it was made for. A batch parses
its template once; an edited template renders its new text; a render's budgets start afresh."""
from __future__ import annotations

import gc

import pytest

from printgen.jinja import render
from printgen.jinja.sandbox import BoundedSandbox

FACE = "omiga/tile-face.svg.j2"


@pytest.fixture
def compiled(monkeypatch):
    """A count of every compile in this process."""
    calls: list[str | None] = []
    original = BoundedSandbox.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(name)
        return original(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(BoundedSandbox, "compile", counted)
    return calls


def test_each_render_has_a_sandbox_of_its_own_that_nothing_keeps(compiled, tmp_path):
    assert render.environment() is not render.environment()
    (tmp_path / "page.svg.j2").write_text("<svg>{% for i in range(3) %}{{ i }}{% endfor %}</svg>")
    gc.collect()
    before = sum(isinstance(o, BoundedSandbox) for o in gc.get_objects())
    assert render.render("page.svg.j2", {}, [tmp_path]) == "<svg>012</svg>"
    gc.collect()
    assert sum(isinstance(o, BoundedSandbox) for o in gc.get_objects()) == before
    assert compiled == ["page.svg.j2"]


def test_a_batch_parses_its_template_once_and_each_render_has_fresh_budgets(compiled, tmp_path):
    (tmp_path / "piece.svg.j2").write_text("<svg>{% for i in range(rounds) %}{% for j in range(5000) %}"
                                           "{% endfor %}{% endfor %}{{ rounds }}</svg>")
    seconds = render.TEMPLATE_SECONDS * 8
    with pytest.raises(Exception, match="steps"):  # twice the work in one render is over its budget
        render.render_each("piece.svg.j2", [{"rounds": 240}], [tmp_path], seconds)
    compiled.clear()
    texts = render.render_each("piece.svg.j2", [{"rounds": 120}, {"rounds": 120}], [tmp_path], seconds)
    assert texts == ["<svg>120</svg>", "<svg>120</svg>"]
    assert compiled == ["piece.svg.j2"]


def test_an_edited_template_renders_its_new_text(compiled, tmp_path):
    """An edit (even in the same clock tick as the last render) is parsed again."""
    folder = tmp_path / "t"
    folder.mkdir()
    page = folder / "page.svg.j2"
    page.write_text("<svg>{{ x }}</svg>")
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>1</svg>"
    page.write_text("<svg>{{ x + 1 }}</svg>")
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>2</svg>"
