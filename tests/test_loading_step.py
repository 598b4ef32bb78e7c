"""Art and fonts are read in a loading step of their own after validation (art.library.load_files),
never inside a pydantic validator: validation checks only what a file name says, the loading step
reads the files into the build's library, and its problems come with validation's, located the same
way and all in one run, even beside wrong values elsewhere in the definition."""
from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest
from PIL import Image

from printgen.art.library import art_of, font_of
from printgen.core.problems import DefinitionError
from printgen.core.yamlread import read_yaml
from printgen.games import load
from printgen.games.one_minute_war.model import OneMinuteWar
from test_art import set_key


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    """Paths in messages are shown from the working folder: the definitions' own."""
    monkeypatch.chdir(tmp_path)


def replace(yaml: Path, old: str, new: str) -> int:
    """Replace the first line equal to `old`; return its 1-based line number."""
    lines = yaml.read_text().splitlines()
    at = lines.index(old)
    lines[at] = new
    yaml.write_text("\n".join(lines) + "\n")
    return at + 1


def problems(yaml: Path) -> list[str]:
    with pytest.raises(DefinitionError) as caught:
        load(yaml)
    return [f"{p.line}: {p.path}: {p.message}" for p in caught.value.problems]


@pytest.fixture
def reads(monkeypatch):
    """Where each file name was resolved from: (inside load_files, inside pydantic's validation)."""
    import printgen.art.library as library

    found: list[tuple[bool, bool]] = []
    original = library.resolve

    def resolve(*args, **kwargs):  # type: ignore[no-untyped-def]
        stack = inspect.stack()
        found.append((any(frame.function == "load_files" for frame in stack),
                      any(f"{os.sep}pydantic" in frame.filename for frame in stack)))
        return original(*args, **kwargs)

    monkeypatch.setattr(library, "resolve", resolve)
    return found


def test_files_are_read_in_the_loading_step_never_while_validating(copy_definition, tmp_path, reads):
    yaml = copy_definition("one_minute_war")
    (tmp_path / "art").mkdir()
    Image.new("RGB", (30, 30)).save(tmp_path / "art" / "logo.png")
    set_key(yaml, "  text: One Minute War", "  image: art/logo.png")
    font = set_key(yaml, "  image: art/logo.png", "  font: fonts/nowhere.ttf")
    data, _ = read_yaml(yaml)
    defn = OneMinuteWar.model_validate(data)  # validation alone: structure, no file read
    assert reads == [] and art_of(defn.logo.image) is None and font_of(defn.logo.font, "own") == "own"
    assert (defn.logo.image, defn.logo.font) == ("art/logo.png", "fonts/nowhere.ttf")
    assert problems(yaml) == [f"{font}: logo.font: expected a file, but fonts/nowhere.ttf does not exist "
                              f"(got 'fonts/nowhere.ttf')"]
    assert reads == [(True, False), (True, False)]  # the image and the font, by the loading step
    data["logo"]["image"] = "art/logo.gif"  # a name's suffix is structure: validation tells it
    with pytest.raises(Exception, match=r"expected a PNG, JPEG or SVG file \(\.png, \.jpg, \.jpeg or \.svg\)"):
        OneMinuteWar.model_validate(data)


def test_a_bad_size_and_missing_files_are_told_in_one_run(copy_definition):
    yaml = copy_definition("one_minute_war")
    width = replace(yaml, "  width: 115", "  width: 9999")
    body = set_key(yaml, "  number_size_pt: 15", "  body_image: art/field.png")  # beside the bad width
    font = set_key(yaml, "  text: One Minute War", "  font: missing.ttf")
    assert problems(yaml) == [
        f"{width}: card.width: expected a number of at most 300 (got 9999)",
        f"{body}: card.body_image: expected a file, but art/field.png does not exist (got 'art/field.png')",
        f"{font}: logo.font: expected a file, but missing.ttf does not exist (got 'missing.ttf')",
    ]


def test_files_are_read_beside_a_wrong_required_key(copy_definition, tmp_path):
    """A wrong required key (a side's name) cannot be left out to validate the rest; the files named
    in the parts that are right are read all the same."""
    yaml = copy_definition("one_minute_war")
    (tmp_path / "bad.ttf").write_bytes(b"not a font")
    name = replace(yaml, "  - name: Red", "  - name: 12")
    font = set_key(yaml, "  text: One Minute War", "  font: bad.ttf")
    told = problems(yaml)
    assert told[0] == f"{name}: sides[0].name: expected text (got 12); YAML reads that as a value, so put it in quotes"
    assert told[1].startswith(f"{font}: logo.font: bad.ttf is not a TrueType font printgen can embed (")
    assert len(told) == 2


def test_a_deck_family_of_one_missing_file_is_told_beside_a_wrong_key(tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text((ROOT / "card_defs" / "deck.yaml").read_text() + "fonts:\n  Title: title.ttf\n  Body: {regular: body.ttf, bold: bold.otf}\n")
    size = replace(deck, "  size: poker          # 63.5 x 88.9 mm; or give width and height in mm", "  size: huge")
    lines = deck.read_text().splitlines()
    title, body = lines.index("  Title: title.ttf") + 1, len(lines)
    told = problems(deck)
    assert told[0].startswith(f"{size}: card.size: expected ")
    assert sorted(told[1:]) == [
        f"{title}: fonts.Title.regular: expected a file, but title.ttf does not exist (got 'title.ttf')",
        f"{body}: fonts.Body.bold: expected a TrueType font file (.ttf) (got 'bold.otf')",
        f"{body}: fonts.Body.regular: expected a file, but body.ttf does not exist (got 'body.ttf')",
    ]


def test_what_the_loading_step_read_reaches_the_drawing_through_the_build(copy_definition, tmp_path):
    yaml = copy_definition("one_minute_war")
    (tmp_path / "art").mkdir()
    Image.new("RGB", (300, 100), (200, 220, 190)).save(tmp_path / "art" / "field.png")
    set_key(yaml, "  number_size_pt: 15", "  body_image: art/field.png")
    loaded = load(yaml)
    art = art_of(loaded.definition.card.body_image)
    assert art is not None and art.natural == (300.0, 100.0) and art.kind == "PNG"
    assert loaded.art.images["art/field.png"] is art  # the build's own library holds it
    assert loaded.definition.card.body_image == "art/field.png"


def test_a_token_image_is_read_in_the_same_list_item_as_a_wrong_key(copy_definition):
    yaml = copy_definition("fracas")
    colour = replace(yaml, '    colour: "#b03a2e"', '    colour: red')
    image = set_key(yaml, '    colour: red', '    token_image: tokens/red.png')
    told = problems(yaml)
    assert told[0].startswith(f"{colour}: players[0].colour: expected ")
    assert told[1:] == [f"{image}: players[0].token_image: expected a file, but tokens/red.png does not exist "
                        f"(got 'tokens/red.png')"]
