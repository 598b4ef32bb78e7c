"""What a running process keeps between rebuilds: written pictures by what they draw
(output/doccache.py). A rebuild gives the same bytes as a first build; anything that changes a
drawing writes it again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reportlab.graphics.shapes import Group, Rect
from reportlab.lib.colors import Color

from building import edit
from printgen.core.build import BuildOptions
from printgen.core.bundled import templates_folder
from printgen.core.paper import PAPERS, Paper
from printgen.core.problems import DefinitionError
from printgen.drawing.document import Document, Page
from printgen.games import bundled_definition, game_ids, load
from printgen.output import doccache, writers


@pytest.fixture
def kept(monkeypatch):
    """Documents kept for this test only, in a memory of their own."""
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(doccache, "_kept", type(doccache._kept)())
    monkeypatch.setattr(doccache, "_held", [0])
    doccache.keep_documents()
    yield
    doccache.keep_documents(False)


def build(path: Path) -> dict[str, bytes]:
    return {a.name: a.data for a in load(path).build(BuildOptions(PAPERS["a4"]))}


def test_a_rebuild_writes_the_same_bytes_without_drawing_pictures_again(tmp_path, kept, monkeypatch):
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")  # the contact sheet drawn here, where it is counted
    calls: list[str] = []
    for kind in ("svg", "png"):
        def counted(doc: Document, writer=writers.WRITERS[kind]) -> bytes:
            calls.append(doc.name)
            return writer(doc)
        monkeypatch.setitem(writers.WRITERS, kind, counted)
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    first = build(path)
    drawn = len(calls)
    assert drawn == 73  # 72 tile SVGs and the contact sheet
    again = build(path)
    assert again == first and len(calls) == drawn
    doccache.keep_documents(False)
    assert build(path) == first and len(calls) == 2 * drawn


def test_a_new_title_leaves_every_tile_svg_as_it_was_without_drawing_them_again(tmp_path, kept, monkeypatch):
    """A tile's SVG is titled by the tile ("Omiga tile white-01"), so renaming the set changes none
    of the 72 files (nor draws them again), while the PDFs take the new title."""
    monkeypatch.setenv("PRINTGEN_NO_FORK", "1")
    calls: list[str] = []

    def counted(doc: Document, writer=writers.WRITERS["svg"]) -> bytes:
        calls.append(doc.name)
        return writer(doc)

    monkeypatch.setitem(writers.WRITERS, "svg", counted)
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    first = build(path)
    assert len(calls) == 72
    assert b"<title>Omiga tile white-01</title>" in first["svg/white-01.svg"]
    edit(path, "title: Omiga", "title: Omiga & <Friends>")
    again = build(path)
    assert len(calls) == 72  # the tile SVGs were kept
    svgs = [name for name in first if name.startswith("svg/")]
    assert len(svgs) == 72 and all(again[name] == first[name] for name in svgs)
    assert again["omiga.pdf"] != first["omiga.pdf"]
    assert again == built_fresh(path, monkeypatch)


@pytest.mark.parametrize("old, new", [
    ("- {left: green, right: green, top: diagonal, bottom: diagonal}",
     "- {left: pink, right: green, top: diagonal, bottom: diagonal}"),  # one tile
    ('green: {fill: "#1f7a44", label: green, symbol: dot}\n      pink: {fill: "#f4a3c7", label: pink, '
     'symbol: ring}\n    white: {face: "#ffffff", band: "#6f6f6f"',
     'green: {fill: "#1f7a45", label: green, symbol: dot}\n      pink: {fill: "#f4a3c7", label: pink, '
     'symbol: ring}\n    white: {face: "#ffffff", band: "#6f6f6f"'),  # a colour of the palette in use
    ("text_size_pt: 10", "text_size_pt: 9.5"),  # the reference text
])
def test_an_edit_shows_in_a_rebuild_as_in_a_fresh_build(tmp_path, kept, monkeypatch, old, new):
    """What a rebuild keeps (pieces, texts, compiled templates, written documents) never hides an
    edit: the rebuild gives, byte for byte, what a new process makes of the edited file."""
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    first = build(path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))  # the first: the white deck's first tile
    again = build(path)
    assert again != first and again == built_fresh(path, monkeypatch)


def picture(fill: Color) -> Document:
    group = Group(Rect(1, 1, 10, 10, fillColor=fill), transform=(1, 0, 0, 1, 2, 3))
    return Document("p.svg", Paper("card", 20, 20), [Page([Group(group)])], "t")


def test_a_document_is_kept_by_every_value_it_draws(kept):
    def key(doc: Document) -> str | None:
        return doccache.document_keys([doc], lambda d: writers.write)[id(doc)]

    red = key(picture(Color(1, 0, 0)))
    assert red is not None and key(picture(Color(1, 0, 0))) == red  # new objects, same drawing
    assert key(picture(Color(1, 0, 0.001))) != red
    shifted = picture(Color(1, 0, 0))
    shifted.pages[0].shift = (0.5, 0)
    assert key(shifted) != red
    deeper = picture(Color(1, 0, 0))
    deeper.pages[0].shapes[0].contents[0].contents[0].strokeWidth = 2
    assert key(deeper) != red
    framed = picture(Color(1, 0, 0))
    framed.pages[0].frames.append((0, 0, 5, 5))
    assert key(framed) is None  # text flows through frames: never kept
    lazy = picture(Color(1, 0, 0))
    lazy.pages, lazy.draw = [], lambda: [Page([Group(Rect(1, 1, 10, 10))])]
    assert key(lazy) is None  # a deck card drawn only while written: its shapes are not there to read


def test_a_picture_is_kept_by_its_pixels_inputs_not_by_the_pdf_title(kept):
    def key(doc: Document) -> str | None:
        return doccache.document_keys([doc], lambda d: writers.write)[id(doc)]

    png, svg = picture(Color(1, 0, 0)), picture(Color(1, 0, 0))
    png.name = "p.png"
    png.dpi = 80
    retitled_png, retitled_svg = picture(Color(1, 0, 0)), picture(Color(1, 0, 0))
    retitled_png.name, retitled_png.dpi, retitled_png.title = "p.png", 80, "another title"
    retitled_svg.title = "another title"  # an SVG carries its title in <title>, put in on each use
    assert key(retitled_png) == key(png)
    assert key(retitled_svg) != key(svg)  # as written on its own; write_all keeps it untitled
    assert writers.write(retitled_png) == writers.write(png)


@pytest.mark.parametrize("title", ["", "t", "another title", 'A & <b> "q" ]]> \u00e9 \u2013 \U0001f600',
                                   "two\nlines", "<title>t</title>"])
def test_an_svg_kept_without_its_title_gets_each_new_title_exactly(kept, monkeypatch, title):
    from printgen.core.source import SourceMap

    calls: list[str] = []

    def counted(doc: Document, writer=writers.WRITERS["svg"]) -> bytes:
        calls.append(doc.title)
        return writer(doc)

    monkeypatch.setitem(writers.WRITERS, "svg", counted)

    def written(doc: Document) -> bytes:
        [made] = writers.write_all([doc], SourceMap("t.yaml", {}))
        return made.data

    first = picture(Color(1, 0, 0))
    assert written(first) == writers.write(first) and len(calls) == 2
    retitled = picture(Color(1, 0, 0))
    retitled.title = title
    fresh = writers.write(retitled)
    assert written(retitled) == fresh and len(calls) == 3  # not written again: the kept body, titled
    assert (f"<title>" in fresh.decode()) == bool(title)


# -- a rebuild after a file that art or a piece template draws from is replaced ----------------------

SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def square(path: Path, fill: str) -> None:
    path.write_text(f'{SVG_HEAD} width="10" height="10"><rect id="mark" width="10" height="10" fill="{fill}"/></svg>')


def dot(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    Image.new("RGB", (4, 4), colour).save(path)


def built_fresh(path: Path, monkeypatch) -> dict[str, bytes]:
    """What a new process with PRINTGEN_NO_CACHE=1 builds: no art, pieces or pictures kept."""
    from printgen.art import library

    with monkeypatch.context() as inner:
        inner.setenv("PRINTGEN_NO_CACHE", "1")
        inner.setattr(library, "_CACHE", {})
        return build(path)


def test_svg_art_is_drawn_again_when_a_file_it_uses_is_replaced(tmp_path, kept, monkeypatch):
    """Fracas's token art as an SVG that draws another SVG (<use>) and a PNG (<image>): the same
    SVG bytes over a replaced file must not bring back the loaded art or the picture kept."""
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


def test_a_picture_a_piece_template_draws_is_read_again_when_replaced(run_cli, tmp_path, kept, monkeypatch):
    assert run_cli("new", "fracas", tmp_path / "mine", "--templates").exit_code == 0
    face = tmp_path / "mine" / "templates" / "fracas" / "token-face.svg.j2"
    edit(face, "</svg>", '<image x="1" y="1" width="5" height="5" href="pic.png"/>\n</svg>')
    dot(face.parent / "pic.png", (255, 0, 0))
    path = tmp_path / "mine" / "mine.yaml"
    first = build(path)
    dot(face.parent / "pic.png", (0, 0, 255))
    again = build(path)
    assert again != first and again == built_fresh(path, monkeypatch)


def test_a_rebuild_shares_its_documents_with_a_helper_and_gives_the_same_bytes(tmp_path, kept, monkeypatch):
    """A rebuild knows how long each document took last time and has a forked helper write some of
    those it must write again (after a new title: Fracas's rules and reference PDFs) while it
    writes the rest; the bytes are those of a fresh build all the same."""
    from printgen.core.parallel import can_fork

    if not can_fork():
        pytest.skip("no second core to share with")
    monkeypatch.setattr(writers, "SHARE_FROM", 0.0)
    monkeypatch.setattr(writers, "SECONDS_TAKEN", {})
    shared: list[list[str]] = []

    def shared_out(pending, real=writers.shared_out):
        chosen = real(pending)
        shared.append(sorted(doc.name for doc in pending if id(doc) in chosen))
        return chosen

    monkeypatch.setattr(writers, "shared_out", shared_out)
    path = tmp_path / "fracas.yaml"
    shutil.copyfile(bundled_definition("fracas"), path)
    build(path)
    assert shared == [[]]  # a first build: no times known yet
    edit(path, "title: Fracas", "title: Fracas Again")
    again = build(path)
    assert len(shared) == 2 and shared[1]  # some went to the helper
    assert again == built_fresh(path, monkeypatch)


def test_omiga_hands_its_sheets_to_a_helper_as_soon_as_they_are_made(tmp_path, kept, monkeypatch):
    """Omiga's build hands its documents over one at a time: in a rebuild, omiga.pdf (the longest
    to write) is written by a helper while the reference PDFs are made and written here, and the
    backs drawn anew after a title edit are waited for only by the tile sheets. The files are
    those of a fresh build, listed in the same order."""
    from printgen.core.parallel import can_fork

    if not can_fork():
        pytest.skip("no second core to share with")
    monkeypatch.setattr(writers, "SECONDS_TAKEN", {})
    early: list[str] = []

    def starts_early(doc, real=writers.starts_early):
        if real(doc):
            early.append(doc.name)
            return True
        return False

    monkeypatch.setattr(writers, "starts_early", starts_early)
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    first = load(path).build(BuildOptions(PAPERS["a4"]))
    times = {name: seconds for name, seconds in writers.SECONDS_TAKEN.items() if name.endswith(".pdf")}
    longest, second = sorted(times.values(), reverse=True)[:2]
    assert early == [] and times["omiga.pdf"] == longest
    monkeypatch.setattr(writers, "EARLY_FROM", (longest + second) / 2)  # whatever this machine's speed
    edit(path, "title: Omiga", "title: Omiga Again")
    again = load(path).build(BuildOptions(PAPERS["a4"]))
    assert early == ["omiga.pdf"]
    assert [a.name for a in again] == [a.name for a in first] and again[0].name == "omiga.pdf"
    assert {a.name: a.data for a in again} == built_fresh(path, monkeypatch)


def test_omiga_lists_its_files_in_the_same_order_however_it_makes_them(tmp_path, kept):
    """Omiga makes its contact sheet first and omiga.pdf second, yet lists its files as it always
    has: omiga.pdf, the tile SVGs, the contact sheet, the reference PDFs; a rebuild too."""
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    for _ in range(2):
        names = list(build(path))
        assert names[0] == "omiga.pdf" and all(name.startswith("svg/") for name in names[1:73])
        assert names[73:] == ["omiga-tiles.png", "omiga-reference.pdf", "omiga-reference-cards.pdf"]


def test_a_text_asking_for_an_unknown_table_still_lets_the_drawn_warnings_through(tmp_path, monkeypatch):
    """The rules name a table that does not exist (found only as omiga.pdf is written) and the face
    template drops the ids printgen checks: the warnings about the ids are told with the problem,
    as when Omiga made all its documents before any was written."""
    monkeypatch.setattr(writers, "SECONDS_TAKEN", {})  # omiga.pdf written here, as in a first build
    folder = tmp_path / "templates" / "omiga"
    folder.mkdir(parents=True)
    own = templates_folder() / "omiga"
    (folder / "tile-face.svg.j2").write_text((own / "tile-face.svg.j2").read_text()
                                             .replace('id="semicircle-', 'id="semi-'))
    (folder / "rules.txt.j2").write_text((own / "rules.txt.j2").read_text() + "\n@table nope\n")
    loaded = load(bundled_definition("omiga"))
    with pytest.raises(DefinitionError, match="unknown table 'nope'"):
        loaded.build(BuildOptions(PAPERS["a4"], templates=(tmp_path / "templates",)))
    assert any('nothing has id="semicircle-left"' in warning for warning in loaded.art.warnings)


def test_a_broken_back_template_is_told_before_an_unknown_table(tmp_path, kept, monkeypatch):
    """The pieces' own problem comes first, as when they were drawn before any document was made:
    in a rebuild after a new title too, where the faces are kept and only the backs are drawn (the
    templates fail for that title alone)."""
    monkeypatch.setattr(writers, "SECONDS_TAKEN", {})
    folder = tmp_path / "templates" / "omiga"
    folder.mkdir(parents=True)
    own = templates_folder() / "omiga"
    failing = '{% if title == "Omiga again" %}{{ 1/0 }}{% endif %}'
    (folder / "tile-back.svg.j2").write_text((own / "tile-back.svg.j2").read_text()
                                             .replace("<svg ", f'<svg data-x="{failing}" ', 1))
    (folder / "rules.txt.j2").write_text((own / "rules.txt.j2").read_text() +
                                         '\n{% if d.title == "Omiga again" %}\n@table nope\n{% endif %}\n')
    path = tmp_path / "omiga.yaml"
    shutil.copyfile(bundled_definition("omiga"), path)
    options = BuildOptions(PAPERS["a4"], templates=(tmp_path / "templates",))
    load(path).build(options)
    path.write_text(path.read_text().replace("title: Omiga", "title: Omiga again", 1))
    with pytest.raises(DefinitionError, match="tile-back.svg.j2.*division by zero"):
        load(path).build(options)
