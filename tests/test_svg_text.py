"""printgen writes svgwrite's elements out itself (output.svgtext) and reuses the text of shapes
drawn again (a deck's box and back on every card). Every SVG must be the characters svgwrite's own
serialisation gives for the same elements: checked on generated shape trees whose nodes recur
within and across documents, on text that needs escaping, and on a deck read back with
ElementTree."""
from __future__ import annotations

import random
from typing import Any
from xml.etree import ElementTree

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.graphics.shapes import Group, String
from reportlab.lib.colors import Color
from test_pdf_renderer_generated import generated_pages

from printgen.drawing import fonts
from printgen.drawing.checks import unchecked_shapes
from printgen.output.svg import SvgWriter, svg_bytes

SVG = "{http://www.w3.org/2000/svg}"


def by_svgwrite(shapes: list[Any], width: float, height: float, title: str) -> bytes:
    """The same document serialised by svgwrite (ElementTree), every element built afresh."""
    writer = SvgWriter(width, height, title)
    for shape in shapes:
        writer.root.add(writer.element(shape))
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + writer.document.tostring() + "\n").encode()


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_trees_are_written_as_svgwrite_writes_them(seed):
    """Each page of a generated set written twice over, so every shared node's kept text is used."""
    fonts.register()
    with unchecked_shapes():
        pages = generated_pages(seed)
    for _ in range(2):
        for number, page in enumerate(pages):
            title = random.Random(seed + number).choice(["", "Deck: card 1", 'A & B <"quoted">'])
            assert svg_bytes(page.shapes, 120, 90, title) == by_svgwrite(page.shapes, 120, 90, title)


def test_text_that_needs_escaping_is_escaped_as_svgwrite_escapes_it():
    fonts.register()
    words = ["Fish & chips", "a < b > c", 'say "hi"', "tab\there", "line\nbreak", "", "plain"]
    shapes = [Group(String(5, 5 + 4 * n, word, fontName=fonts.REGULAR, fontSize=3, fillColor=Color(0, 0, 0)))
              for n, word in enumerate(words)]
    shared = shapes[0]
    document = [*shapes, shared, Group(shared, shapes[1])]
    for _ in range(2):
        written = svg_bytes(document, 50, 40, "R&D <draft>")
        assert written == by_svgwrite(document, 50, 40, "R&D <draft>")
    root = ElementTree.fromstring(written)
    assert root.find(f"{SVG}title").text == "R&D <draft>"
    texts = [element.text or "" for element in root.iter(f"{SVG}text")]
    assert texts[:len(words)] == words
    assert texts[len(words):] == [words[0], words[0], words[1]]


def test_a_deck_card_svg_reads_back_with_its_art_stored_once(run_cli, tmp_path):
    """A card's SVG names its art once in <defs> and places it with <use>, though the card's picture
    element is written from kept text on every card after the first two."""
    from printgen.games import bundled_definition

    result = run_cli("build", bundled_definition("deck"), "--out", tmp_path)
    assert result.exit_code == 0, result.output
    cards = sorted((tmp_path / "deck" / "svg").glob("*.svg"))
    assert len(cards) > 3
    for card in cards:
        root = ElementTree.parse(card).getroot()
        ids = {image.get("id") for image in root.iter(f"{SVG}image")}
        used = {use.get("{http://www.w3.org/1999/xlink}href").lstrip("#") for use in root.iter(f"{SVG}use")}
        assert used and used <= ids, card.name
        assert root.get("width") == "63.5mm" and root.get("height") == "88.9mm"


def test_dash_patterns_of_one_value_and_with_a_phase_are_written():
    """svglib reads a template's stroke-dasharray="2" as [2.0], and a dashoffset as (phase, pattern):
    both reach the SVG (a one-value pattern once stopped the build with an internal error)."""
    from reportlab.graphics.shapes import Line

    dashes = [[2.0], (2,), [1, 2], (1, [2, 1])]
    lines = [Line(0, 4 * n, 10, 4 * n, strokeColor=Color(0, 0, 0), strokeWidth=0.3, strokeDashArray=dash)
             for n, dash in enumerate(dashes)]
    root = ElementTree.fromstring(svg_bytes(lines, 20, 20))
    written = [(line.get("stroke-dasharray"), line.get("stroke-dashoffset")) for line in root.iter(f"{SVG}line")]
    assert written == [("2", None), ("2", None), ("1 2", None), ("2 1", "1")]
