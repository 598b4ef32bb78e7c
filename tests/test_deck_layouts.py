"""Named layouts: a deck of ships, planets and events, each type a layout extending one base (one
adds an element, one replaces one, one removes one), built and read back from the PDF: every card's
elements found at their millimetres on it; backs chosen per row and shared when they are the same;
a row naming no layout, layouts extending each other in a circle and unknown ids told where they are."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

MM = 72 / 25.4
CARD_W, CARD_H = 63.5, 88.9

DECK = """\
game: deck
title: Star Lanes
name: "{{ title }}"
data: cards.csv
face_layout: "{{ type }}"
back_layout: "{{ 'event-back' if type == 'event' else 'back' }}"
layouts:
  base:
    layout:
      - id: band
        type: rect
        x: 3
        y: 3
        width: 57.5
        height: 11
        fill: "#dddddd"
      - id: title
        type: text
        text: "{{ title }}"
        x: 5
        y: 5
        width: 40
        height: 7
        size: 12
      - id: cost
        type: text
        text: "{{ cost }}"
        x: 50
        y: 5
        width: 8
        height: 7
        size: 12
        align: right
      - id: rules
        type: text
        text: "{{ text }}"
        x: 5
        y: 60
        width: 53.5
        height: 20
  ship:
    extends: base
    background: "#d6e6f5"
    layout:
      - type: rect
        x: 10
        y: 20
        width: 43.5
        height: 30
        fill: "#2f3e4e"
  planet:
    extends: base
    replace:
      title:
        type: text
        text: "{{ title }}"
        x: 5
        y: 30
        width: 53.5
        height: 8
        size: 14
        align: center
  event:
    extends: base
    remove: [cost]
  back:
    background: "#334455"
    layout:
      - type: text
        text: Star Lanes
        x: 5
        y: 40
        width: 53.5
        height: 8
        size: 14
        colour: "#ffffff"
        align: center
  event-back:
    extends: back
    layout:
      - type: text
        text: Event
        x: 5
        y: 60
        width: 53.5
        height: 8
        colour: "#ffffff"
        align: center
"""
ROWS = """\
type,title,cost,text,copies
ship,Falcon,3,Fly two lanes.,1
planet,Vesta,5,Gain one ore.,1
event,Supernova,2,Every ship loses one hull.,1
ship,Comet,4,Fly one lane.,1
planet,Ceres,1,Gain one water.,1
"""
TYPES = {"Falcon": "ship", "Comet": "ship", "Vesta": "planet", "Ceres": "planet", "Supernova": "event"}
COSTS = {"Falcon": "3", "Comet": "4", "Vesta": "5", "Ceres": "1", "Supernova": "2"}


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "lanes"
    folder.mkdir()
    (folder / "cards.csv").write_text(ROWS, encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    return folder / "deck.yaml"


def colour(item) -> tuple[int, ...] | None:
    value = item.get("non_stroking_color")
    return None if not value else tuple(round(v * 255) for v in value)


def cards_on(page) -> dict[str, dict]:
    """Each card on a face page by its title: its top-left corner (from its band, 3 mm inside the
    card), and its words and rectangles in mm from that corner, y down as the layout is written."""
    cards = {}
    words = page.extract_words()
    for band in [r for r in page.rects if abs(r["width"] / MM - 57.5) < 0.02 and abs(r["height"] / MM - 11) < 0.02]:
        left, top = band["x0"] / MM - 3, band["top"] / MM - 3

        def inside(x: float, y: float) -> bool:
            return 0 <= x - left < CARD_W and 0 <= y - top < CARD_H

        found = [{"text": w["text"], "x0": w["x0"] / MM - left, "x1": w["x1"] / MM - left, "top": w["top"] / MM - top}
                 for w in words if inside(w["x0"] / MM, w["top"] / MM)]
        boxes = [{"x": r["x0"] / MM - left, "y": r["top"] / MM - top, "w": r["width"] / MM, "h": r["height"] / MM,
                  "fill": colour(r)} for r in page.rects if inside(r["x0"] / MM + 0.01, r["top"] / MM + 0.01)]
        title = next(w["text"] for w in found if w["text"] in TYPES)
        cards[title] = {"words": found, "rects": boxes, "left": left, "top": top}
    return cards


def word(card: dict, text: str) -> dict:
    [found] = [w for w in card["words"] if w["text"] == text]
    return found


def test_each_type_draws_its_base_with_what_it_adds_replaces_or_removes(run_cli, deck, tmp_path):
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        cards = cards_on(pdf.pages[0])
        back_words = [w["text"] for w in pdf.pages[1].extract_words()]
        [event] = [w for w in pdf.pages[1].extract_words() if w["text"] == "Event"]
        page_width = float(pdf.pages[1].width) / MM
    assert sorted(cards) == sorted(TYPES)
    for title, card in cards.items():
        kind = TYPES[title]
        name = word(card, title)
        if kind == "planet":  # its title replaced: centred 30 mm down, in the base title's place
            assert abs((name["x0"] + name["x1"]) / 2 - CARD_W / 2) < 0.3 and abs(name["top"] - 30) < 0.3, name
        else:  # the base's title, 5 mm in from the top-left
            assert abs(name["x0"] - 5) < 0.3 and abs(name["top"] - 5) < 0.3, name
        costs = [w for w in card["words"] if w["top"] < 14 and w["text"] == COSTS[title] and w["x0"] > 45]
        if kind == "event":  # its cost removed: nothing in the band but the title
            assert [w["text"] for w in card["words"] if w["top"] < 14] == [title]
        else:  # right-aligned in its box, which ends 58 mm from the card's left
            assert len(costs) == 1 and abs(costs[0]["x1"] - 58) < 0.3, card["words"]
        rules = [w for w in card["words"] if abs(w["top"] - 60) < 0.3]  # every type keeps the base's rules
        assert rules and abs(rules[0]["x0"] - 5) < 0.3
        hulls = [r for r in card["rects"] if r["fill"] == (0x2f, 0x3e, 0x4e)]
        if kind == "ship":  # the element a ship adds, over what it inherits
            [hull] = hulls
            assert [round(hull[k], 1) for k in ("x", "y", "w", "h")] == [10, 20, 43.5, 30]
        else:
            assert hulls == []
        bands = [r for r in card["rects"] if r["fill"] == (0xdd, 0xdd, 0xdd)]
        assert [(round(b["x"], 1), round(b["y"], 1)) for b in bands] == [(3, 3)]
        backgrounds = [r["fill"] for r in card["rects"] if abs(r["w"] - CARD_W) < 0.1 and abs(r["h"] - CARD_H) < 0.1]
        assert backgrounds == [(0xd6, 0xe6, 0xf5) if kind == "ship" else (0xff, 0xff, 0xff)]
    # backs: every card has the base back; only the event's adds "Event", and rows share what is the same
    assert back_words.count("Lanes") == 5 and back_words.count("Event") == 1
    behind = page_width - cards["Supernova"]["left"] - CARD_W  # turned on the long edge
    assert abs((event["x0"] + event["x1"]) / 2 / MM - behind - CARD_W / 2) < 0.3
    assert abs(event["top"] / MM - cards["Supernova"]["top"] - 60) < 0.3
    # each back is called after the layout it is drawn from
    assert sorted(p.name for p in (tmp_path / "out" / "deck" / "svg").glob("*back*")) == \
        ["back.svg", "event-back.svg"]


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_row_naming_no_layout_is_told_at_its_row(run_cli, deck, tmp_path):
    rows = deck.parent / "cards.csv"
    rows.write_text(ROWS.replace("event,Supernova", "shp,Supernova").replace("planet,Ceres", ",Ceres"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    where = f"face_layout ({deck}:{line_of(deck, 'face_layout')})"
    assert f"{rows}:4: row 3: {where}: layout 'shp' is not one of base, ship, planet, event, back, " \
           "event-back\n" in result.stderr, result.stderr
    assert f"{rows}:6: row 5: {where}: no layout is named; expected one of base, ship" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_layouts_extending_each_other_in_a_circle_are_told_at_the_key_closing_it(run_cli, deck, tmp_path):
    deck.write_text(DECK.replace("  base:\n", "  base:\n    extends: event\n"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    lines = [n for n, text in enumerate(deck.read_text().splitlines(), 1) if "extends: base" in text]
    assert len(lines) == 3  # ship's, planet's and event's: event closes the circle
    assert f"{deck}:{lines[2]}: layouts.event.extends: layouts extend each other in a circle (base \u2192 event " \
           "\u2192 base); one of them must extend none, or another layout" in result.stderr, result.stderr


def test_unknown_ids_and_parents_are_told_together_each_at_its_line(run_cli, deck, tmp_path):
    deck.write_text(DECK.replace("remove: [cost]", "remove: [costs]").replace("extends: back", "extends: bak")
                    .replace("      title:\n        type: text", "      titel:\n        type: text"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    ids = "band, title, cost, rules"
    assert result.stderr.splitlines()[:3] == [
        f"{deck}:{line_of(deck, 'titel:')}: layouts.planet.replace.titel: expected the id of an element of "
        f"layout 'base': {ids} (got 'titel')",
        f"{deck}:{line_of(deck, 'costs')}: layouts.event.remove[0]: expected the id of an element of layout "
        f"'base': {ids} (got 'costs')",
        f"{deck}:{line_of(deck, 'bak')}: layouts.event-back.extends: expected the name of another layout: base, "
        "ship, planet, event, back (got 'bak')"], result.stderr


def test_an_inherited_element_failing_for_a_row_is_told_where_the_base_has_it(run_cli, deck, tmp_path):
    deck.write_text(DECK.replace('text: "{{ text }}"', 'text: "{{ text if cost != \'5\' else text.nothing }}"'))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"{deck.parent / 'cards.csv'}:3: row 2: layouts.base.layout[3].text "
                                    f"({deck}:{line_of(deck, 'text.nothing')}): template error: "), result.stderr
    assert "printgen: 1 problem found" in result.stderr


def test_the_starter_deck_names_its_file_and_draws_two_types_from_one_layout(run_cli, tmp_path):
    folder = tmp_path / "my deck"
    result = run_cli("new", "deck", folder)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["cards.csv", "coin.svg", "my deck.yaml", "reference.md", "rules.md"]
    text = (folder / "my deck.yaml").read_text()
    assert text.splitlines()[2].startswith("# my deck.yaml: a starter deck") and \
        "printgen build 'my deck.yaml'" in text and "deck.yaml" not in text.replace("my deck.yaml", "")
    result = run_cli("build", folder / "my deck.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "my deck" / "my deck.pdf") as pdf:
        page = pdf.pages[0]
        bands = [colour(r) for r in page.rects + page.curves if abs(r["width"] / MM - 57.5) < 0.05]
        words = [w["text"] for w in page.extract_words()]
        styled = {w["text"]: w["fontname"] for w in page.extract_words(extra_attrs=["fontname"])}
    # creatures keep the base's light band (3 + 2 copies), spells draw their own dark one (2 + 2)
    assert bands.count((0xf1, 0xea, 0xd8)) == 5 and bands.count((0x5b, 0x4a, 0x8a)) == 4, bands
    assert words.count("Toad") == 3 and words.count("Frost") == 2
    # one rich-text line: the toad's "heal 1" in bold within regular words
    assert styled["heal"].endswith("-Bold") and styled["enters,"].endswith("-Roman"), styled


def test_a_layouts_svg_template_is_inherited_rendered_for_its_rows_and_may_be_dropped(run_cli, deck, tmp_path):
    (deck.parent / "stripe.svg.j2").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="{{ card.width }}mm" height="{{ card.height }}mm" '
        'viewBox="0 0 {{ card.width }} {{ card.height }}"><rect x="2" y="82" '
        'width="{{ 10 if type == \'ship\' else 20 }}" height="4" fill="#00aa00"/></svg>')
    deck.write_text(DECK.replace("  base:\n", "  base:\n    template: stripe.svg.j2\n")
                    .replace("    remove: [cost]\n", "    remove: [cost]\n    template: null\n"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        cards = cards_on(page)
        stripes = [r for r in page.rects + page.curves if colour(r) == (0x00, 0xaa, 0x00)]
    for title, card in cards.items():
        mine = [r for r in stripes if 0 <= r["x0"] / MM - card["left"] < CARD_W and 0 <= r["top"] / MM - card["top"] < CARD_H]
        widths = [round(r["width"] / MM, 1) for r in mine]
        # a ship's row renders the base's template as a ship; the event dropped it
        assert widths == {"ship": [10.0], "planet": [20.0], "event": []}[TYPES[title]], (title, widths)
        if mine:
            assert abs(mine[0]["x0"] / MM - card["left"] - 2) < 0.1 and abs(mine[0]["top"] / MM - card["top"] - 82) < 0.1
    deck.write_text(deck.read_text().replace("stripe.svg.j2", "stripes.svg.j2"))
    result = run_cli("build", deck, "--out", tmp_path / "again")
    assert result.exit_code == 2
    # inherited by ship and planet, the missing file is told once, where it is written
    assert result.stderr.count("stripes.svg.j2") == 1 and \
        f"{deck}:{line_of(deck, 'stripes.svg.j2')}: layouts.base.template: expected a file" in result.stderr, \
        result.stderr


def test_a_row_renders_only_the_values_of_its_own_layouts(run_cli, deck, tmp_path):
    # Falcon, a ship, costs 3: the planet's title would divide by zero for it, were it rendered there
    deck.write_text(DECK.replace('        text: "{{ title }}"\n        x: 5\n        y: 30',
                                 '        text: "{{ title }} {{ 100 // (cost | int - 3) }}"\n        x: 5\n        y: 30'))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        cards = cards_on(pdf.pages[0])
    assert [w["text"] for w in cards["Vesta"]["words"] if abs(w["top"] - 30) < 0.5] == ["Vesta", "50"]
    assert [w["text"] for w in cards["Ceres"]["words"] if abs(w["top"] - 30) < 0.5] == ["Ceres", "-50"]
