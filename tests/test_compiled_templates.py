"""Templates are parsed once for every render with the same search folders (one sandbox each,
jinja.render.environment, whose own cache keeps the parsed code), never past an edit, and a kept
template renders exactly what a fresh sandbox renders."""
from __future__ import annotations

import pytest

from printgen.jinja import render
from printgen.jinja.sandbox import BoundedSandbox

FACE = "omiga/tile-face.svg.j2"


@pytest.fixture
def compiled(monkeypatch):
    """A count of every compile in this process, from fresh sandboxes."""
    render.sandbox.cache_clear()
    calls: list[str | None] = []
    original = BoundedSandbox.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(name)
        return original(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(BoundedSandbox, "compile", counted)
    yield calls
    render.sandbox.cache_clear()


def test_a_template_is_parsed_once_for_every_render_with_the_same_folders(compiled):
    assert render.environment() is render.environment()
    render.environment().get_template(FACE)
    render.environment().get_template(FACE)
    assert compiled == [FACE]
    assert render.environment(markdown_values=True) is not render.environment()


def test_a_kept_template_renders_as_a_fresh_sandbox_renders(compiled):
    from printgen.games import bundled_definition, load
    from printgen.jinja.plaindata import plain

    defn = load(bundled_definition("omiga")).definition
    context = {"d": plain(defn), "title": "T"}
    kept = render.environment().get_template("omiga/tile-back.svg.j2")
    fresh = render.sandbox.__wrapped__((), False).get_template("omiga/tile-back.svg.j2")
    assert kept is not fresh
    data = {**context, **{"tile": {"deck": "white", "width": 42, "height": 42, "bleed": 0},
                          "look": {"back": "#000000", "ink": "#ffffff", "hatch": None}, "hatch": None,
                          "plain": False, "marker": "WHITE DECK",
                          "box": {"x": 0, "y": 0, "width": 42, "height": 42},
                          "emblem": {"cx": 21, "cy": 21, "ring": 14, "inner": 12, "line": 0.7,
                                     "inner_line": 0.25, "text_y": 22, "size": 3}}}
    assert kept.render(data) == fresh.render(data)


def test_an_edited_template_renders_its_new_text(compiled, tmp_path):
    """An edit (even in the same clock tick as the last render) is parsed again."""
    folder = tmp_path / "t"
    folder.mkdir()
    page = folder / "page.svg.j2"
    page.write_text("<svg>{{ x }}</svg>")
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>1</svg>"
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>1</svg>"
    page.write_text("<svg>{{ x + 1 }}</svg>")
    assert render.render("page.svg.j2", {"x": 1}, [folder]) == "<svg>2</svg>"
    assert compiled == ["page.svg.j2", "page.svg.j2"]
