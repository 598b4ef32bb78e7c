"""What an SVG says when read back: text that needs escaping, a card's art stored once, dash
patterns. (svgwrite writes the elements itself; these check what a reader gets.)"""
from __future__ import annotations

from xml.etree import ElementTree

from reportlab.graphics.shapes import Group, String
from reportlab.lib.colors import Color

from printgen.drawing import fonts
from printgen.output.svg import svg_bytes

SVG = "{http://www.w3.org/2000/svg}"


def test_text_that_needs_escaping_reads_back_as_it_was_given():
    fonts.register()
    words = ["Fish & chips", "a < b > c", 'say "hi"', "tab\there", "line\nbreak", "", "plain"]
    shapes = [Group(String(5, 5 + 4 * n, word, fontName=fonts.REGULAR, fontSize=3, fillColor=Color(0, 0, 0)))
              for n, word in enumerate(words)]
    shared = shapes[0]
    document = [*shapes, shared, Group(shared, shapes[1])]
    written = svg_bytes(document, 50, 40, "R&D <draft>")
    assert written == svg_bytes(document, 50, 40, "R&D <draft>")  # the same shapes, the same bytes
    root = ElementTree.fromstring(written)
    assert root.find(f"{SVG}title").text == "R&D <draft>"
    texts = [element.text or "" for element in root.iter(f"{SVG}text")]
    assert texts[:len(words)] == words
    assert texts[len(words):] == [words[0], words[0], words[1]]


def test_a_deck_card_svg_reads_back_with_its_art_stored_once(run_cli, tmp_path):
    """A card's SVG names its art once in <defs> and places it with <use>."""
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
