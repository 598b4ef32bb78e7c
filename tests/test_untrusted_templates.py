"""Templates are untrusted: what they are handed, where they run, and what an inserted value can do.

* Every context handed to Jinja, for every bundled game, is plain data all the way down (dicts,
  lists, texts, numbers, booleans, None): no model, no loaded art, no callable.
* A render runs in a child process the kernel limits: a template that outgrows the budget is a
  located error within seconds, and printgen itself is not the process that ran out.
* A value from the YAML cannot introduce Markdown: a line break folds to a space, and every
  punctuation mark in it is backslash-escaped, so `#`, `-`, `*`, `|`, `<`, `[` or `!` print as typed
  instead of making a heading, a bullet, emphasis, a table, HTML, a link or a picture.
"""
from __future__ import annotations

import os
from pathlib import Path

import jinja2.environment
import pdfplumber
import pytest
from click.testing import CliRunner

from building import count_children
from printgen.cli.main import cli
from printgen.games import bundled_definition, game_ids
from printgen.jinja.plaindata import is_plain, plain
from cputime import cpu_seconds

GAMES = tuple(game_ids())  # every game in the registry


def walk(value: object, path: str = "context") -> list[str]:
    """Every place below `value` that is not plain data, by its path (empty when all is plain)."""
    if type(value) is dict:
        return [f"{path}: key {key!r}" for key in value if type(key) is not str] + \
            [bad for key, item in value.items() for bad in walk(item, f"{path}.{key}")]
    if type(value) is list:
        return [bad for i, item in enumerate(value) for bad in walk(item, f"{path}[{i}]")]
    if type(value) in (str, int, float, bool, type(None)):
        return []
    return [f"{path}: {type(value).__module__}.{type(value).__name__}"]


@pytest.fixture(scope="module", params=GAMES)
def recorded_build(request, tmp_path_factory) -> tuple[str, list[tuple[str, dict]], list[str], Path]:
    """`printgen build GAME`, once for both tests below, in this process (so the recording sees
    every render: the child would keep it to itself): the game, every template rendered with its
    context, the bounded workers started through `run_bounded`, and the output folder."""
    import printgen.cli.engine  # noqa: F401  imported before the counting starts, so its own
    # `run_bounded` (the whole build's, which does run bounded) is the real one, not the counter

    game = request.param
    out = tmp_path_factory.mktemp(f"recorded-{game}")
    seen: list[tuple[str, dict]] = []
    original = jinja2.environment.Template.render

    def recording(self, *args, **kwargs):
        seen.append((self.name, dict(*args, **kwargs)))
        return original(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PRINTGEN_NO_SANDBOX_PROCESS", "1")
        patch.setenv("PRINTGEN_NO_FORK", "1")
        patch.setattr(jinja2.environment.Template, "render", recording)
        calls = count_children(patch, "printgen.core.bounded", "printgen.core.parallel")
        result = CliRunner().invoke(cli, ["build", game, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return game, seen, calls, out


# each game's recorded build serves two tests: one pytest-xdist worker runs both (`--dist loadgroup`)
@pytest.mark.xdist_group("untrusted-recorded")
def test_every_context_handed_to_jinja_is_plain_data(recorded_build):
    game, seen, _, _ = recorded_build
    # a bundled game's templates are named game/..., a deck's values have no name, and the sample
    # deck's rulebook and reference card are Markdown files beside it, named as they are
    texts = {"deck-rules.md", "deck-reference.md"} if game == "deck" else set()
    assert {(name or game).split("/")[0] for name, _ in seen} == {game} | texts
    assert seen  # the rules or reference text, or a deck's templated values
    for name, context in seen:
        assert walk(context) == [], name
        assert is_plain(context)
        if name is not None:  # the definition, as data: `d` for a bundled game, `deck` for a deck's texts
            definition = context["deck" if name in texts else "d"]
            assert type(definition) is dict and definition["title"]


def test_plain_refuses_what_is_not_data():
    assert plain({"a": (1, 2.5, None, True)}) == {"a": [1, 2.5, None, True]}
    with pytest.raises(TypeError):
        plain({"f": print})
    with pytest.raises(TypeError):
        plain(object())


def test_a_template_outgrowing_the_memory_budget_is_stopped_where_it_grows(tmp_path, monkeypatch):
    """Each text is within the size limit; the thousands of them together are not: the sandbox
    stops the render once it has grown the build's worker by its bound (well inside the worker's
    own budget), and says where; printgen's own memory stays where it was."""
    from printgen.jinja.sandbox import MAX_RENDER_BYTES

    import resource

    folder = tmp_path / "templates" / "armies"
    folder.mkdir(parents=True)
    items = ", ".join("big.upper()" for _ in range(2400))
    (folder / "reference.md.j2").write_text("# A\n{% set big = 'Ab' * 99000 %}\n"
                                             f"{{% set many = [{items}] %}}\n{{{{ many|length }}}}\n")
    monkeypatch.chdir(tmp_path)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with cpu_seconds() as took:
        result = CliRunner().invoke(cli, ["build", "armies", "--templates", "templates", "--out", "out"])
    assert result.exit_code == 2
    assert result.stderr.startswith("templates/armies/reference.md.j2:3: template error: the template "
                                    "needed more than 256 MiB of memory")
    assert took.seconds < 5
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB
    assert grown < (MAX_RENDER_BYTES >> 10) + 64 * 1024, f"printgen's own peak grew by {grown / 1024:.0f} MiB"
    assert not (tmp_path / "out").exists()


def build_war(tmp_path: Path, replacements: dict[str, str]) -> Path:
    text = bundled_definition("one_minute_war").read_text()
    for old, new in replacements.items():
        assert old in text
        text = text.replace(old, new, 1)
    tmp_path.mkdir(parents=True)
    (tmp_path / "war.yaml").write_text(text)
    result = CliRunner().invoke(cli, ["build", str(tmp_path / "war.yaml"), "--out", str(tmp_path / "out")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / "war" / "war.pdf"


def pages_and_text(pdf_path: Path) -> tuple[int, str, list[float]]:
    """Page count, the text, and the font sizes of the characters on the first page."""
    with pdfplumber.open(pdf_path) as pdf:
        sizes = sorted({round(c["size"], 1) for c in pdf.pages[0].chars})
        return len(pdf.pages), "\n".join(p.extract_text() or "" for p in pdf.pages), sizes


@pytest.fixture(scope="module")
def plain_war(tmp_path_factory) -> tuple[int, str, list[float]]:
    """The untouched copy of One Minute War, built and read once for every tricky value below."""
    return pages_and_text(build_war(tmp_path_factory.mktemp("war") / "plain", {}))


@pytest.mark.xdist_group("untrusted-markup")  # one worker builds plain_war once for every case
@pytest.mark.parametrize("credit", [
    '"Ransom\\n# Hacked\\n<!-- page break -->\\n- a bullet"',  # line breaks that would start Markdown blocks
    '"<!-- page break -->"',                         # a directive, alone on its line in a template
    '"# A heading"',                                 # a heading marker at the start of the value
    '"*a subtitle*\\n## two"',                       # emphasis, then a section
    '"<b>bold</b> [a link](http://192.0.2.1/x) ![p](card:x)"',  # raw HTML, a link, a picture
    '"| a | b |\\n|---|---|"',                       # a table
])
def test_a_value_never_introduces_markup(credit, tmp_path, plain_war):
    pages, _, sizes = plain_war
    tricky = build_war(tmp_path / "tricky", {"credit: A microgame by Ransom Christofferson":
                                             f"credit: {credit}"})
    tricky_pages, text, tricky_sizes = pages_and_text(tricky)
    assert tricky_pages == pages  # no page break was added
    assert tricky_sizes == sizes  # no new heading or title size appeared
    for marker in ("<!-- page break -->", "# Hacked", "# A heading", "*a subtitle*", "<b>bold</b>",
                   "[a link](http://192.0.2.1/x)", "![p](card:x)", "| a | b |"):
        if marker in credit:
            assert marker in " ".join(text.split()), marker  # printed as typed, on one line


@pytest.mark.xdist_group("untrusted-recorded")
def test_a_build_starts_no_child_for_a_render_a_piece_or_art(recorded_build):
    """Templates, pieces and art are worked in the build's own process: the whole build is what
    runs bounded (printgen.cli), never a render of its own. The build is recorded_build's (run here,
    in this process, as the sandbox's worker would run it)."""
    game, _, calls, out = recorded_build
    assert (out / game / f"{game}.pdf").read_bytes().startswith(b"%PDF-")
    assert calls == []


def test_the_bundled_builds_render_every_template_inside_the_builds_worker(tmp_path, monkeypatch):
    """The bounded worker is the normal path, not an option: this process starts one worker for
    the build, and every render runs in it (none is started here, none nested in the worker)."""
    calls = count_children(monkeypatch, "printgen.core.bounded", "printgen.cli.engine", "printgen.jinja.render")
    monkeypatch.delenv("PRINTGEN_NO_SANDBOX_PROCESS", raising=False)
    rendered_here: list[int] = []
    from printgen.jinja import render

    real = render.render_each
    monkeypatch.setattr(render, "render_each", lambda *a, **k: rendered_here.append(os.getpid()) or real(*a, **k))
    result = CliRunner().invoke(cli, ["build", "fracas", "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0
    assert calls == ["the build"] and rendered_here == []  # the renders' calls were the worker's
