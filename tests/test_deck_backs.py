"""Decks whose backs differ by row, and the misprints a deck must refuse or warn of rather than print:
backs' colours measured on the PDF's back pages and their files named as the definition says."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pdfplumber

from building import rgb

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
