"""Decks whose backs differ by row, and the misprints a deck must refuse or warn of rather than print:
backs' colours measured on the PDF's back pages and their files named as the definition says."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
import reportlab

from building import edit, line_of, rgb

MM = 72 / 25.4
CARD_W = 63.5

PER_KIND = """\
game: deck
title: Two Kinds
rows:
  - {title: Ember, kind: fire, copies: 2}
  - {title: Frost, kind: ice}
  - {title: Cinder, kind: fire}
face:
  layout:
    - {type: text, text: "{{ title }}", x: 5, y: 5, width: 50, height: 10}
back:
  name: "{{ kind }} back"
  background: "{{ '#ffeeee' if kind == 'fire' else '#e4ebf1' }}"
  layout:
    - type: rect
      x: 4
      y: 4
      width: 55.5
      height: 80.9
      fill: "{{ '#aa0000' if kind == 'fire' else '#0000aa' }}"
"""
FIRE, ICE = (1.0, 0.933333, 0.933333), (0.894118, 0.921569, 0.945098)
FIRE_FRAME, ICE_FRAME = (0.666667, 0.0, 0.0), (0.0, 0.0, 0.666667)


def write(tmp_path: Path, text: str, name: str = "deck.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def colours(page, width: float) -> list[tuple[float, ...]]:
    """The fill of every rectangle `width` mm wide on the page, left to right, top to bottom."""
    found = [r for r in page.rects + page.curves if abs((r["x1"] - r["x0"]) / MM - width) < 0.02
             and r.get("fill")]
    return [rgb(r["non_stroking_color"]) for r in sorted(found, key=lambda r: (round(r["top"]), r["x0"]))]


def test_backs_that_differ_by_row_are_drawn_and_named_by_the_definition(run_cli, tmp_path):
    deck = write(tmp_path, PER_KIND)
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "deck"
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert len(pdf.pages) == 2
        backs = pdf.pages[1]
        # duplex on the long edge: each row of three is mirrored, Ember, Ember, Frost become
        # Frost, Ember, Ember; Cinder stays alone in the second row's first cell, mirrored right
        assert colours(backs, CARD_W) == [ICE, FIRE, FIRE, FIRE]
        assert colours(backs, 55.5) == [ICE_FRAME, FIRE_FRAME, FIRE_FRAME, FIRE_FRAME]
    pictures = sorted(p.name for p in (folder / "svg").iterdir())
    assert pictures == ["cinder.svg", "ember.svg", "fire-back.svg", "frost.svg", "ice-back.svg"]
    assert 'fill="#ffeeee"' in (folder / "svg" / "fire-back.svg").read_text()
    assert 'fill="#e4ebf1"' in (folder / "svg" / "ice-back.svg").read_text()


def test_named_backs_name_the_print_shop_and_tts_files(run_cli, tmp_path):
    deck = write(tmp_path, PER_KIND)
    result = run_cli("export", "--print-shop", "--tts", deck, "--out", tmp_path / "out", "--dpi", "50")
    assert result.exit_code == 0, result.output
    shop = tmp_path / "out" / "deck" / "print-shop"
    with open(shop / "manifest.csv", newline="") as f:
        manifest = {row["file"]: row for row in csv.DictReader(f)}
    assert {name for name, row in manifest.items() if row["side"] == "back"} == {"fire-back.pdf", "ice-back.pdf"}
    assert manifest["fire-back.pdf"]["quantity"] == "3" and manifest["ice-back.pdf"]["quantity"] == "1"
    assert manifest["ember.pdf"]["back"] == "fire-back.pdf" and manifest["frost.pdf"]["back"] == "ice-back.pdf"
    for name, colour in (("fire-back.pdf", FIRE), ("ice-back.pdf", ICE)):
        with pdfplumber.open(shop / name) as pdf:
            assert colour in colours(pdf.pages[0], CARD_W + 2 * 3), name  # 3 mm print-shop bleed
    described = json.loads((tmp_path / "out" / "deck" / "tts" / "decks.json").read_text())
    assert [(d["deck"], d["back"]) for d in described["decks"]] == [("fire back", "fire-back.png"),
                                                                    ("ice back", "ice-back.png")]
    assert (tmp_path / "out" / "deck" / "tts" / "fire-back.png").is_file()


def test_a_back_named_by_a_column_or_plain_text(run_cli, tmp_path):
    by_column = write(tmp_path, PER_KIND.replace('name: "{{ kind }} back"', "name: kind"), "column.yaml")
    result = run_cli("build", by_column, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert {"fire.svg", "ice.svg"} <= {p.name for p in (tmp_path / "out" / "column" / "svg").iterdir()}
    # one name for two different backs: each is still its own file
    plain = write(tmp_path, PER_KIND.replace('name: "{{ kind }} back"', "name: Potion back"), "plain.yaml")
    result = run_cli("build", plain, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert {"potion-back.svg", "potion-back-2.svg"} <= {p.name for p in (tmp_path / "out" / "plain" / "svg").iterdir()}


def test_backs_the_same_for_every_row_are_one_back(run_cli, tmp_path):
    same = PER_KIND.replace("'#ffeeee' if kind == 'fire' else '#e4ebf1'", "'#e4ebf1'").replace(
        "'#aa0000' if kind == 'fire' else '#0000aa'", "'#0000aa'").replace('  name: "{{ kind }} back"\n', "")
    result = run_cli("build", write(tmp_path, same), "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "deck"
    assert sorted(p.name for p in (folder / "svg").iterdir() if "back" in p.name) == ["back.svg"]
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert colours(pdf.pages[1], CARD_W) == [ICE] * 4



def rows_of(deck: Path) -> list[dict[str, str]]:
    with open(deck.parent / "cards.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def refused(run_cli, deck: Path, out: Path) -> list[str]:
    """The build's problem lines: it must stop with exit 2, write nothing and tell no traceback."""
    result = run_cli("build", deck, "--out", out)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert not (out / deck.stem).exists()
    return [line.replace(f"{deck.parent}/", "") for line in result.stderr.splitlines()
            if not line.startswith("printgen:")]


def test_a_character_the_font_lacks_is_refused_in_a_csv_cell(run_cli, deck, tmp_path):
    edit(deck.parent / "cards.csv", "Each rival discards", "Each rival \u2605 discards")
    lines = refused(run_cli, deck, tmp_path / "out")
    line = line_of(deck, 'text: "{{ text }}"')  # asked of the font the rules text is printed in
    assert lines == [f"cards.csv:2: row 1: face.layout[6].text (deck.yaml:{line}): '\u2605' (U+2605 BLACK STAR) "
                     "is not in the font it is printed in (Bitstream Vera Sans), so it would print as an empty "
                     "box; spell it another way, or print it in a font that has it"]


def test_a_character_a_template_makes_is_refused_once_naming_the_rows(run_cli, deck, tmp_path):
    """'{{ title }} {{ "\\u2605" }}' passes every check of the definition's own text; the star
    only appears when a row is drawn, and must not print as a box. Every row meets it, so it is
    told once."""
    edit(deck, 'text: "{{ title }}"', "text: \"{{ title }} {{ '\\\\u2605' }}\"")
    lines = refused(run_cli, deck, tmp_path / "out")
    line = line_of(deck, "u2605")
    assert len(rows_of(deck)) == 8
    assert lines == [(f"cards.csv:2: rows 1-8: face.layout[1].text (deck.yaml:{line}): '\u2605' (U+2605 BLACK "
                        "STAR) is not in the font it is printed in (Bitstream Vera Sans Bold), so it would "
                        "print as an empty box; spell it another way, or print it in a font that has it")]


def test_a_character_a_users_font_lacks_is_refused(run_cli, deck, tmp_path):
    """hb-test.ttf (inside reportlab) has a space, '|' and a few Khmer letters: no Latin at all."""
    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "hb-test.ttf", deck.parent / "khmer.ttf")
    edit(deck, "      font: bold\n      valign: middle", "      font: khmer.ttf\n      valign: middle")
    lines = refused(run_cli, deck, tmp_path / "out")
    line = line_of(deck, "font: khmer.ttf") - 7  # the title's text, seven lines above its font
    assert lines[0].startswith(f"cards.csv:2: row 1: face.layout[1].text (deck.yaml:{line}): "
                               "'E' (U+0045 LATIN CAPITAL LETTER E) is not in the font it is printed in "
                               "(khmer.ttf)"), lines


def test_an_unknown_icon_is_refused_at_its_row_and_a_time_still_prints(run_cli, deck, tmp_path):
    edit(deck.parent / "cards.csv", "Turn one market card", "Turn :gem: one market card")
    lines = refused(run_cli, deck, tmp_path / "out")
    assert lines == [f"cards.csv:3: row 2: face.layout[6].text (deck.yaml:{line_of(deck, '{{ text }}')}): :gem: is "
                     "not an icon, so it would print as the text ':gem:'; the icons are :flask:, :fire:, :ice:, :earth:, "
                     ":air:, :star:, :price: (under "
                     "'icons:'); add it there, or correct the name"]
    edit(deck.parent / "cards.csv", "Turn :gem: one market card", "Turn at 10:30 or 10:30:45 one market card")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages[0::2]).replace("\n", " ")
    assert "at 10:30 or 10:30:45" in text


def test_a_when_no_row_makes_true_is_warned_at_its_line(run_cli, deck, tmp_path):
    edit(deck, "when: cost >= 4", "when: kind == 'Shp'")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (f"deck.yaml:{line_of(deck, 'Shp')}: face.layout[8].when: no row makes \"kind == 'Shp'\" true, so "
            "this image is on no card") in result.stderr, result.stderr
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:  # the warning is true: no rare star
        marks = [c for page in pdf.pages[0::2] for c in page.curves
                 if rgb(c.get("non_stroking_color")) == (0.690196, 0.227451, 0.180392)]
    assert marks == []
    edit(deck, "when: kind == 'Shp'", "when: kind == 'air'")
    result = run_cli("build", deck, "--out", tmp_path / "out2")
    assert result.exit_code == 0 and "no row makes" not in result.stderr, result.stderr


def test_a_character_the_font_lacks_in_an_svg_templates_text_is_refused(run_cli, deck, tmp_path):
    """The back's template writes a star after the title: its text is set in the embedded sans,
    which has no star, so each back would show an empty box."""
    edit(deck.parent / "back.svg.j2", "</svg>", '  <text x="5" y="80" font-size="4">{{ title }} &#9733;</text>\n</svg>')
    lines = refused(run_cli, deck, tmp_path / "out")
    assert len(lines) == 1 and lines[0].startswith("cards.csv:2: row 1: back.template (back.svg.j2:1): the SVG "
                                                   "it made for this row, at its line "), lines
    assert lines[0].endswith(": its text has '\u2605' (U+2605 BLACK STAR), which the embedded font (Bitstream Vera "
                             "Sans) lacks, so it would print as an empty box; convert the text to paths in your "
                             "drawing program, or spell it another way"), lines


def test_a_character_the_font_lacks_in_an_icons_text_is_warned_of(run_cli, deck, tmp_path):
    edit(deck.parent / "flask.svg", "</svg>", '<text x="1" y="5" font-size="3">\u2605</text></svg>')
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    line = line_of(deck.parent / "flask.svg", "\u2605")
    assert (f"flask.svg:{line}: warning: text: its text has '\u2605' (U+2605 BLACK STAR), which the embedded "
            "font (Bitstream Vera Sans) lacks") in result.stderr, result.stderr


def test_backs_that_look_alike_but_are_named_apart_stay_apart(run_cli, tmp_path):
    """The name is part of the back: `name: kind` makes a fire deck and an ice deck even when their
    backs are drawn alike, and one plain name for all keeps one back."""
    same = PER_KIND.replace("'#ffeeee' if kind == 'fire' else '#e4ebf1'", "'#e4ebf1'").replace(
        "'#aa0000' if kind == 'fire' else '#0000aa'", "'#0000aa'")
    for name, expected in (("kind", ["fire.svg", "ice.svg"]), ("Potion back", ["potion-back.svg"])):
        deck = write(tmp_path, same.replace('name: "{{ kind }} back"', f"name: {name}"))
        result = run_cli("build", deck, "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
        svg = tmp_path / name / "deck" / "svg"
        assert sorted(p.name for p in svg.iterdir() if p.stem not in ("ember", "frost", "cinder")) == expected


def test_a_named_back_never_takes_a_cards_file(run_cli, tmp_path):
    """A card called 'Fire back' and a back named 'fire back': both keep a file of their own."""
    deck = write(tmp_path, PER_KIND.replace("title: Cinder", "title: Fire back"))
    result = run_cli("export", "--print-shop", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with open(tmp_path / "out" / "deck" / "print-shop" / "manifest.csv", newline="") as f:
        manifest = {row["file"]: row["side"] for row in csv.DictReader(f)}
    assert manifest["fire-back.pdf"] == "face" and manifest["back-fire-back.pdf"] == "back"
    result = run_cli("build", deck, "--out", tmp_path / "built")
    assert result.exit_code == 0, result.output
    svg = {p.name for p in (tmp_path / "built" / "deck" / "svg").iterdir()}
    assert {"fire-back.svg", "back-fire-back.svg", "ice-back.svg"} <= svg
