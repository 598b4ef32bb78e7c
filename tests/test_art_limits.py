"""Art is measured before it is decoded, and decoded under a budget the kernel enforces.

The corpus (tests/bad_inputs/art_*) checks the messages end to end; these tests check the parts:
what the measures count, that a decoder over its budget is stopped, that the drawing a bounded child
sends back prints exactly as a drawing made in-process, and that nothing but drawing classes can
come back from the child.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pypdf
import pytest
from lxml import etree

import art_cases
from printgen.art import drawingdata, svg as svgart
from printgen.art.measure import (MAX_FONT_CODES, MAX_SVG_ELEMENTS, TooCostly, measure_font,
                                  measure_svg)
from printgen.core.bounded import Budget, MiB

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


def test_a_decoder_over_its_time_budget_is_stopped_with_a_located_message(tmp_path, monkeypatch):
    path = tmp_path / "slow.svg"
    path.write_text(art_cases.SVG_OPEN + "<rect width='1' height='1'/></svg>")
    monkeypatch.setattr(svgart, "PICTURE_BUDGET", Budget(0.5, 64 * MiB, "the picture"))
    monkeypatch.setattr(svgart, "convert", lambda *_: time.sleep(30))
    started = time.monotonic()
    with pytest.raises(ValueError, match=r"slow\.svg: the picture took more than 0\.5 s"):
        svgart.load_svg(path, path.read_bytes(), tmp_path)
    assert time.monotonic() - started < 5


def test_a_decoder_over_its_memory_budget_is_stopped(tmp_path, monkeypatch):
    path = tmp_path / "big.svg"
    path.write_text(art_cases.SVG_OPEN + "<rect width='1' height='1'/></svg>")
    monkeypatch.setattr(svgart, "PICTURE_BUDGET", Budget(5.0, 64 * MiB, "the picture"))
    monkeypatch.setattr(svgart, "convert", lambda *_: bytearray(512 * MiB))
    with pytest.raises(ValueError, match=r"big\.svg: the picture needed more than 64 MiB"):
        svgart.load_svg(path, path.read_bytes(), tmp_path)


def test_only_drawing_classes_come_back_from_the_child():
    evil = pickle.dumps(os.system)  # any callable a compromised child might name
    with pytest.raises(pickle.UnpicklingError, match="not part of a drawing"):
        drawingdata.loads(evil)
    with pytest.raises(pickle.UnpicklingError):
        drawingdata.loads(pickle.dumps(subprocess.Popen))


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
                          text=True, env={**os.environ, **env}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # gradients, clip paths, <use> and embedded PNG/JPEG all print
    return tmp_path / out / "rich"


def test_a_drawing_sent_back_by_the_child_prints_byte_for_byte_as_one_made_here(tmp_path):
    bounded = build(tmp_path, {}, "bounded")
    local = build(tmp_path, {"PRINTGEN_NO_SANDBOX_PROCESS": "1"}, "local")
    pdfs = sorted(p.name for p in bounded.glob("*.pdf"))
    assert pdfs
    for name in pdfs:
        assert (bounded / name).read_bytes() == (local / name).read_bytes()
    streams = b"".join(form_streams(bounded / name) for name in pdfs)
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
