"""The names printgen writes (core/names.py): file names that cannot collide, however the cards and
backs are named, and names refused at the key that made them when they cannot be written as typed.
Each through the real command: its exit code, its message and the files it wrote, read back."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from printgen.core.names import Stems, stem, unwritable

# every name that collided (exit 3) before: a card called "Back", two cards named alike beside one
# whose name is the suffix the second gets, backs named alike but for case, a back named as a face
CLASHING = """\
game: deck
title: Clash
rows:
  - {title: Back, kind: Fire}
  - {title: Imp, kind: fire}
  - {title: Imp, kind: Fire}
  - {title: Imp 2, kind: fire}
  - {title: Back Imp, kind: imp}
name: "{{ title }}"
face:
  layout:
    - {type: text, text: "FACE {{ title }}", x: 5, y: 5, width: 50, height: 10}
back:
  name: "{{ kind }}"
  background: "{{ '#ffeeee' if kind == 'Fire' else '#eeeeff' }}"
  layout:
    - {type: text, text: "BACK {{ kind }}", x: 5, y: 40, width: 50, height: 10}
"""


def texts(svg: Path) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)", svg.read_text())


def test_names_that_collided_each_get_their_own_file(run_cli, tmp_path):
    (tmp_path / "clash.yaml").write_text(CLASHING)
    result = run_cli("build", tmp_path / "clash.yaml", "--out", tmp_path / "out", "--png")
    assert result.exit_code == 0, result.output
    svg = tmp_path / "out" / "clash" / "svg"
    # faces first, in row order; then backs: `back-<name>` where a face has the name, else -2
    faces = {"back": "FACE Back", "imp": "FACE Imp", "imp-2": "FACE Imp", "imp-2-2": "FACE Imp 2",
             "back-imp": "FACE Back Imp"}
    backs = {"fire": "BACK Fire", "fire-2": "BACK fire", "back-imp-2": "BACK imp"}
    assert sorted(p.stem for p in svg.iterdir()) == sorted({**faces, **backs})
    assert sorted(p.stem for p in (svg.parent / "png").iterdir()) == sorted({**faces, **backs})
    for name, text in {**faces, **backs}.items():
        assert texts(svg / f"{name}.svg") == [text], name


def test_exported_names_never_collide(run_cli, tmp_path):
    (tmp_path / "clash.yaml").write_text(CLASHING)
    result = run_cli("export", tmp_path / "clash.yaml", "--print-shop", "--tts", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    shop = tmp_path / "out" / "clash" / "print-shop"
    with (shop / "manifest.csv").open(newline="") as file:
        manifest = list(csv.DictReader(file))
    files = [row["file"] for row in manifest]
    assert len(files) == len({f.lower() for f in files}) == 8  # five faces, three backs
    assert sorted(files + ["manifest.csv"]) == sorted(p.name for p in shop.iterdir())
    backs = {row["deck"]: row["file"] for row in manifest if row["side"] == "back"}
    assert backs == {"Fire": "back-fire.pdf", "fire": "back-fire-2.pdf", "imp": "back-back-imp.pdf"}
    assert {row["back"] for row in manifest if row["side"] == "face"} == set(backs.values())
    tts = tmp_path / "out" / "clash" / "tts"
    decks = json.loads((tts / "decks.json").read_text())["decks"]
    written = [d["back"] for d in decks] + [s["file"] for d in decks for s in d["sheets"]]
    assert len(written) == len({f.lower() for f in written})
    assert sorted(written + ["decks.json"]) == sorted(p.name for p in tts.iterdir())


def test_a_long_back_name_makes_short_files_in_build_and_export(run_cli, tmp_path):
    long = " ".join(["Ember"] * 25)  # 149 characters: a name people read, a file stem of at most 60
    (tmp_path / "long.yaml").write_text(CLASHING.replace('name: "{{ kind }}"', f'name: "{long}"').replace(
        "{{ '#ffeeee' if kind == 'Fire' else '#eeeeff' }}", "#ffeeee").replace("BACK {{ kind }}", "BACK"))
    built = run_cli("build", tmp_path / "long.yaml", "--out", tmp_path / "out")
    exported = run_cli("export", tmp_path / "long.yaml", "--print-shop", "--tts", "--out", tmp_path / "out")
    assert built.exit_code == exported.exit_code == 0, built.output + exported.output
    folder = tmp_path / "out" / "long"
    names = [p.name for p in folder.rglob("*") if p.is_file()]
    assert max(len(n) for n in names) <= 60 + len("-back.png")
    assert "ember-ember-ember-ember-ember-ember-ember-ember-ember-ember.svg" in names
    with (folder / "print-shop" / "manifest.csv").open(newline="") as file:
        assert {row["deck"] for row in csv.DictReader(file)} == {long}


def test_stems_are_plain_and_taken_once_without_regard_to_case():
    assert stem("Café Noir", "x") == "cafe-noir" and stem("Cafe\u0301", "x") == "cafe" and stem("!!", "x") == "x"
    stems = Stems()
    assert [stems.take(n) for n in ("imp", "IMP", "imp-2", "imp")] == ["imp", "IMP-2", "imp-2-2", "imp-3"]
    assert stems.take("back", "back-imp") == "back" and stems.take("back", "back-imp") == "back-imp"
    assert unwritable("Fire\u202eback") and unwritable("x" * 201) and unwritable("Cafe\u0301") is None


def test_a_name_that_cannot_be_written_as_typed_is_refused_before_anything_is_written(run_cli, tmp_path):
    (tmp_path / "deck.yaml").write_text(CLASHING)
    result = run_cli("build", tmp_path / "deck.yaml", "--name", "deck\n", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "--name" in result.output and "'deck\\n'" in result.output
    evil = tmp_path / "cards\u202eyaml.ssp.yaml"  # would show as "cards.pss.lmay" in a file manager
    evil.write_text(CLASHING)
    for command in (["build"], ["export", "--print-shop"], ["preview"]):
        result = run_cli(*command, evil, "--out", tmp_path / "out")
        assert result.exit_code == 2, result.output
        assert ("cards\\u202eyaml.ssp.yaml: the output folder and its files are named after this file, but "
                "character 6 is U+202E RIGHT-TO-LEFT OVERRIDE") in result.output
        assert "\u202e" not in result.output
    assert not (tmp_path / "out").exists()
    result = run_cli("build", evil, "--name", "cards", "--out", tmp_path / "out")  # the way out it names
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["cards"]
    assert (tmp_path / "out" / "cards" / "cards.pdf").is_file()


def test_the_parent_takes_no_file_name_that_is_not_a_plain_name():
    from printgen.cli.report import safe_name

    assert safe_name("deck/svg/fire-back.svg") and safe_name("deck/svg/caf\u00e9.svg")
    for bad in ("deck/svg/fire\u202eback.svg", "deck\n/deck.pdf", "deck/\x1b[31m.pdf", "deck/" + "x" * 256,
                "deck/zero\u200bwidth.png"):
        assert not safe_name(bad), bad


def test_an_accent_typed_apart_is_the_letter_it_makes(run_cli, tmp_path):
    """`e` and a combining accent (as some keyboards and Macs write them) are `é`: compared, printed
    and named in Unicode's composed form (NFC), never told to be spelt another way."""
    import pdfplumber

    apart = "Cafe\u0301"
    definition = CLASHING.replace("title: Clash", f"title: {apart} Deck")
    rows = definition[definition.index("rows:"):definition.index("name:")]
    (tmp_path / "cafe.yaml").write_text(definition.replace(rows, "data: cards.csv\n"), encoding="utf-8")
    (tmp_path / "cards.csv").write_text(f"title,kind\n{apart} Noir,fire\nTh\u00e9,fire\n", encoding="utf-8")
    result = run_cli("build", tmp_path / "cafe.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "cafe"
    assert sorted(p.name for p in (folder / "svg").iterdir()) == ["cafe-noir.svg", "fire.svg", "the.svg"]
    assert texts(folder / "svg" / "cafe-noir.svg") == ["FACE Caf\u00e9 Noir"]
    with pdfplumber.open(folder / "cafe.pdf") as pdf:
        words = " ".join(page.extract_text() for page in pdf.pages)
    assert "Caf\u00e9 Deck" in words and "\u0301" not in words
