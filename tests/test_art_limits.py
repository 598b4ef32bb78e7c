"""Art is measured before it is decoded (the whole build runs in one bounded child besides).

The corpus (tests/bad_inputs/art_*) checks the messages end to end; these tests check the parts:
what the measures count, and that rich SVG art prints its bitmaps as it should.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from lxml import etree

import art_cases
from printgen.art.measure import (MAX_FONT_CODES, MAX_SVG_ELEMENTS, TooCostly, measure_font,
                                  measure_svg)


def measured(body: str, tmp_path: Path, head: str = art_cases.SVG_OPEN):
    path = tmp_path / "art.svg"
    path.write_text(head + body + "</svg>\n")
    return measure_svg(etree.fromstring(path.read_bytes()), path, tmp_path)


def test_use_copies_are_counted_and_memoised(tmp_path):
    # <svg>, <defs> and the last <use>, which draws group 10: each group n draws itself and two
    # <use> copies of group n - 1, so group n counts 2 ** (n + 2) - 3 elements (group 0: one rect)
    assert measured(art_cases.doubling(10), tmp_path).elements == 3 + 2 ** 12 - 3
    with pytest.raises(TooCostly, match=r"art\.svg:\d+: this <g> draws more than 10,000"):
        measured(art_cases.doubling(40), tmp_path)  # 2 ** 40 copies: refused, not expanded


def test_definitions_count_only_where_used(tmp_path):
    unused = "<defs>" + art_cases.many_elements(MAX_SVG_ELEMENTS + 50) + "</defs>\n"
    assert measured(unused, tmp_path).elements == 2  # <svg> and <defs>: the library is not drawn
    used = ('<defs><g id="lib">' + art_cases.many_elements(6000) + '</g></defs>\n'
            '<use xlink:href="#lib"/><use xlink:href="#lib" x="1"/>\n')
    with pytest.raises(TooCostly, match=r"art\.svg:1: this <svg> draws more than 10,000"):
        measured(used, tmp_path)


def test_nesting_through_use_counts_towards_the_depth(tmp_path):
    body = ('<defs><g id="deep">' + "<g>" * 60 + "<rect width='1' height='1'/>" + "</g>" * 60
            + '</g></defs>\n<g id="a">' + "<g>" * 45 + '<use xlink:href="#deep"/>' + "</g>" * 45
            + "</g>\n")
    with pytest.raises(TooCostly, match="nest more than 100 deep"):
        measured(body, tmp_path)


def test_numbers_are_finite_and_sane_wherever_they_are_written(tmp_path):
    assert measured('<path d="M0 0 L 9999999 1e6 Z" stroke-width="0.12345678901"/>\n',
                    tmp_path).elements == 2
    for body, word in [('<rect width="1" height="inf"/>', "height holds 'inf'"),
                       ('<rect width="1" height="1" style="stroke-width: 1e999"/>', "stroke-width"),
                       ('<polygon points="0,0 1,nan 2,2"/>', "points holds 'nan'"),
                       ('<path d="M0 0 L 123456789 0"/>', "d holds '123456789'")]:
        with pytest.raises(TooCostly, match=word):
            measured(body + "\n", tmp_path)


def test_font_character_maps_are_counted_from_their_ranges(tmp_path):
    vera = art_cases.VERA.read_bytes()
    measure_font(tmp_path / "vera.ttf", vera)  # a real font passes
    with pytest.raises(TooCostly, match="claims 4,294,967,296 characters"):
        measure_font(tmp_path / "x.ttf", art_cases.cmap_format_12_everything())
    with pytest.raises(TooCostly, match=f"at most {MAX_FONT_CODES:,}"):
        measure_font(tmp_path / "x.ttf", art_cases.cmap_format_4_overlapping())


def build(tmp_path: Path, env: dict[str, str], out: str) -> Path:
    folder = tmp_path / "defs"
    if not folder.exists():
        folder.mkdir()
        (folder / "art").mkdir()
        (folder / "art" / "logo.svg").write_text(art_cases.rich_svg())
        art_cases.definition(folder, "rich", "  image: art/logo.svg", "rich SVG art")
    code = ("import sys\nsys.argv = ['printgen', 'build', 'defs/rich.yaml', '--out', %r]\n"
            "from printgen.launch import main\nmain()\n" % out)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent), **env})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # gradients, clip paths, <use> and embedded PNG/JPEG all print
    return tmp_path / out / "rich"


def test_rich_svg_art_prints_its_bitmaps_inside_its_form_and_its_jpeg_as_jpeg(tmp_path):
    built = build(tmp_path, {}, "built")
    pdfs = sorted(p.name for p in built.glob("*.pdf"))
    assert pdfs
    streams = b"".join(form_streams(built / name) for name in pdfs)
    assert b"/DCT" in streams  # the JPEG is still copied in as JPEG (an inline image), not decoded
    assert streams.count(b"\nBI ") == 2  # and both bitmaps are inside the art's form


def form_streams(path: Path) -> bytes:
    """The content of every form XObject in a PDF (the art is stored once, as a form)."""
    found, stack = [], []
    for page in pypdf.PdfReader(path).pages:
        stack.append(page["/Resources"].get_object())
    while stack:
        resources = stack.pop()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                found.append(xobject.get_data())
                if "/Resources" in xobject:
                    stack.append(xobject["/Resources"].get_object())
    return b"".join(found)
