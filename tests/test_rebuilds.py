"""Rebuilds in one running process (`build --watch`, `serve`): every rebuild gives, byte for byte,
what a first build of the same files gives, whatever changed (a template, art a file draws from,
the definition)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from building import edit
from printgen.core.build import BuildOptions
from printgen.core.bundled import templates_folder
from printgen.core.paper import PAPERS, Paper
from printgen.core.problems import DefinitionError
from printgen.games import bundled_definition, load


def build(path: Path) -> dict[str, bytes]:
    return {a.name: a.data for a in load(path).build(BuildOptions(PAPERS["a4"]))}


@pytest.fixture(scope="module")
def built_omiga(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """A copy of the bundled Omiga definition and what a first build of it made in this process; the
    cases below edit the copy and rebuild it (each puts the bundled text back first), so each of
    their rebuilds follows a build of the same file in the same process."""
    path = tmp_path_factory.mktemp("rebuilt") / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    return path, build(path)


@pytest.mark.parametrize("old, new", [
    ("- {left: green, right: green, top: diagonal, bottom: diagonal}",
     "- {left: pink, right: green, top: diagonal, bottom: diagonal}"),  # one tile
    ('green: {fill: "#1f7a44", label: green, symbol: dot}\n      pink: {fill: "#f4a3c7", label: pink, '
     'symbol: ring}\n    white: {face: "#ffffff", band: "#b4b4b4"',
     'green: {fill: "#1f7a45", label: green, symbol: dot}\n      pink: {fill: "#f4a3c7", label: pink, '
     'symbol: ring}\n    white: {face: "#ffffff", band: "#b4b4b4"'),  # a colour of the palette in use
    # the reference text; smaller, as the bundled reference now fills its halves at 9 pt
    ("text_size_pt: 9\n", "text_size_pt: 8.5\n"),
])
def test_an_edit_shows_in_a_rebuild_as_in_a_fresh_build(built_omiga, monkeypatch, old, new):
    """A rebuild gives, byte for byte, what a new process makes of the edited file (the templates'
    parsed code is kept by their environment, never past an edit)."""
    path, first = built_omiga  # the bundled definition's build, made once for the three edits
    shutil.copyfile(bundled_definition("omiga"), path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))  # the first: the white deck's first tile
    again = build(path)
    assert again != first and again == built_fresh(path, monkeypatch)


# -- a rebuild after a file that art or a piece template draws from is replaced ----------------------

SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def square(path: Path, fill: str) -> None:
    path.write_text(f'{SVG_HEAD} width="10" height="10"><rect id="mark" width="10" height="10" fill="{fill}"/></svg>')


def dot(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    Image.new("RGB", (4, 4), colour).save(path)


def built_fresh(path: Path, monkeypatch) -> dict[str, bytes]:
    """What a fresh build makes (every build is one now: nothing is kept between builds)."""
    return build(path)


def test_svg_art_is_drawn_again_when_a_file_it_uses_is_replaced(tmp_path, monkeypatch):
    """Fracas's token art as an SVG that draws another SVG (<use>) and a PNG (<image>): the same
    SVG bytes over a replaced file draw the new file."""
    path = tmp_path / "fracas.yaml"
    path.write_text(bundled_definition("fracas").read_text().replace(
        'colour: "#b03a2e"', 'colour: "#b03a2e"\n    token_image: token.svg', 1))
    (tmp_path / "token.svg").write_text(f'{SVG_HEAD} width="10mm" height="10mm" viewBox="0 0 20 10">'
                                        '<use xlink:href="part.svg#mark"/>'
                                        '<image x="10" y="0" width="10" height="10" xlink:href="dot.png"/></svg>')
    square(tmp_path / "part.svg", "#ff0000")
    dot(tmp_path / "dot.png", (255, 0, 0))
    first = build(path)
    square(tmp_path / "part.svg", "#0000ff")  # only the SVG the art <use>s
    again = build(path)
    assert again != first and again == built_fresh(path, monkeypatch)
    dot(tmp_path / "dot.png", (0, 0, 255))  # only the picture the art names
    last = build(path)
    assert last != again and last == built_fresh(path, monkeypatch)


def test_a_picture_a_piece_template_draws_is_read_again_when_replaced(run_cli, tmp_path, monkeypatch):
    assert run_cli("new", "fracas", tmp_path / "mine", "--templates").exit_code == 0
    face = tmp_path / "mine" / "templates" / "fracas" / "token-face.svg.j2"
    edit(face, "</svg>", '<image x="1" y="1" width="5" height="5" href="pic.png"/>\n</svg>')
    dot(face.parent / "pic.png", (255, 0, 0))
    path = tmp_path / "mine" / "mine.yaml"
    first = build(path)
    dot(face.parent / "pic.png", (0, 0, 255))
    again = build(path)
    assert again != first and again == built_fresh(path, monkeypatch)


def test_omiga_lists_its_files_in_the_same_order_however_it_makes_them(built_omiga):
    """Omiga lists its files as it always has: omiga.pdf, the tile SVGs, the contact sheet, the
    reference PDFs; a rebuild too."""
    path, first = built_omiga  # a first build of the bundled definition, then a rebuild of it
    shutil.copyfile(bundled_definition("omiga"), path)
    for names in (list(first), list(build(path))):
        assert names[0] == "omiga.pdf" and all(name.startswith("svg/") for name in names[1:73])
        assert names[73:] == ["omiga-tiles.png", "omiga-reference.pdf", "omiga-reference-cards.pdf"]


def test_a_text_asking_for_an_unknown_table_still_lets_the_drawn_warnings_through(tmp_path, monkeypatch):
    """The rules name a table that does not exist (found only as omiga.pdf is written) and the face
    template drops the ids printgen checks: the warnings about the ids are told with the problem,
    as when Omiga made all its documents before any was written."""
    folder = tmp_path / "templates" / "omiga"
    folder.mkdir(parents=True)
    own = templates_folder() / "omiga"
    (folder / "tile-face.svg.j2").write_text((own / "tile-face.svg.j2").read_text()
                                             .replace('id="semicircle-', 'id="semi-'))
    (folder / "rules.md.j2").write_text((own / "rules.md.j2").read_text() + "\n<!-- table: nope -->\n")
    loaded = load(bundled_definition("omiga"))
    with pytest.raises(DefinitionError, match="unknown table 'nope'"):
        loaded.build(BuildOptions(PAPERS["a4"], templates=(tmp_path / "templates",)))
    assert any('nothing has id="semicircle-left"' in warning for warning in loaded.art.warnings)


def test_a_broken_back_template_is_told_before_an_unknown_table(tmp_path, monkeypatch):
    """The pieces' own problem comes first, as they are drawn before any document is made: in a
    rebuild after a new title too (the templates fail for that title alone)."""
    folder = tmp_path / "templates" / "omiga"
    folder.mkdir(parents=True)
    own = templates_folder() / "omiga"
    failing = '{% if title == "Omiga again" %}{{ 1/0 }}{% endif %}'
    (folder / "tile-back.svg.j2").write_text((own / "tile-back.svg.j2").read_text()
                                             .replace("<svg ", f'<svg data-x="{failing}" ', 1))
    (folder / "rules.md.j2").write_text((own / "rules.md.j2").read_text() +
                                         '\n{% if d.title == "Omiga again" %}\n<!-- table: nope -->\n{% endif %}\n')
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    options = BuildOptions(PAPERS["a4"], templates=(tmp_path / "templates",))
    load(path).build(options)
    path.write_text(path.read_text().replace("title: Omiga", "title: Omiga again", 1))
    with pytest.raises(DefinitionError, match="tile-back.svg.j2.*division by zero"):
        load(path).build(options)
