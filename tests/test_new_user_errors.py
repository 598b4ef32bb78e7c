"""The mistakes a new user meets first (issue 15, "Errors a new user meets"): each is answered with
exit 2 and a located message, or is no longer a mistake."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from printgen.core.paper import MAX_BLEED_MM

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def set_omiga_bleed(path, value: str) -> int:
    """Write `card.bleed: value` into an Omiga definition; return its line number."""
    text, count = re.subn(r"\n  bleed: 2 ", f"\n  bleed: {value} ", path.read_text())
    assert count == 1
    path.write_text(text)
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(f"  bleed: {value} "))


def test_a_definition_may_ask_for_as_much_bleed_as_the_command_line(run_cli, copy_definition, tmp_path):
    definition = copy_definition("omiga", "mine")
    set_omiga_bleed(definition, f"{MAX_BLEED_MM:g}")
    result = run_cli("build", definition, "--out", tmp_path / "a")
    assert result.exit_code == 0, result.output
    result = run_cli("build", definition, "--bleed", f"{MAX_BLEED_MM:g}", "--out", tmp_path / "b")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a/mine/mine.pdf").read_bytes() == (tmp_path / "b/mine/mine.pdf").read_bytes()


def test_bleed_over_the_limit_is_refused_alike_in_a_definition_and_on_the_command_line(
        run_cli, copy_definition, tmp_path):
    over = f"{MAX_BLEED_MM + 0.5:g}"
    definition = copy_definition("omiga", "mine")
    line = set_omiga_bleed(definition, over)
    result = run_cli("build", definition, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert result.stderr == (f"{definition}:{line}: card.bleed: expected a number of at most "
                             f"{MAX_BLEED_MM:g} (got {over})\n"
                             "printgen: 1 problem found; nothing was written.\n")
    result = run_cli("build", "omiga", "--bleed", over, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"Invalid value for '--bleed': {over} is not in the range 0<=x<={MAX_BLEED_MM}" in result.stderr
    assert not (tmp_path / "out").exists()


def files_of(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("command", [["build", "fracas"], ["calibrate"]])
def test_paper_and_flip_may_be_written_in_capitals(run_cli, tmp_path, command):
    upper = run_cli(*command, "--paper", "A4", "--flip", "SHORT", "--out", tmp_path / "upper")
    lower = run_cli(*command, "--paper", "a4", "--flip", "short", "--out", tmp_path / "lower")
    assert upper.exit_code == lower.exit_code == 0, upper.output
    assert upper.output.replace("upper", "lower") == lower.output
    assert files_of(tmp_path / "upper") == files_of(tmp_path / "lower") != {}
    assert run_cli(*command, "--paper", "Letter", "--out", tmp_path / "letter").exit_code == 0


def test_validate_finds_missing_art_as_build_does(run_cli, copy_definition, tmp_path, monkeypatch):
    definition = copy_definition("omiga", "mine")
    text = definition.read_text()
    assert "\n# art:\n#   white_back: art/white-back.png\n" in text
    definition.write_text(text.replace("\n# art:\n#   white_back:", "\nart:\n  white_back:"))
    line = text.splitlines().index("#   white_back: art/white-back.png") + 1
    monkeypatch.chdir(tmp_path)
    expected = (f"mine.yaml:{line}: art.white_back: expected a file, but art/white-back.png does not "
                "exist (got 'art/white-back.png')\nprintgen: 1 problem found; nothing was written.\n")
    validated = run_cli("validate", "mine.yaml")
    built = run_cli("build", "mine.yaml", "--out", "out")
    assert (validated.exit_code, validated.stdout, validated.stderr) == (2, "", expected)
    assert (built.exit_code, built.stdout, built.stderr) == (2, "", expected)
    assert not (tmp_path / "out").exists()
    (tmp_path / "art").mkdir()
    (tmp_path / "art/white-back.png").write_bytes(EXAMPLES.joinpath("garden_tiles/art/white-back.png").read_bytes())
    assert run_cli("validate", "mine.yaml").exit_code == 0
    assert run_cli("build", "mine.yaml", "--out", "out").exit_code == 0


@pytest.mark.parametrize("game", ["omiga", "one_minute_war", "deck"])
def test_a_copy_from_new_builds_beside_the_bundled_game_not_over_it(run_cli, tmp_path, monkeypatch, game):
    monkeypatch.chdir(tmp_path)
    assert run_cli("build", game).exit_code == 0
    bundled = files_of(tmp_path / "output" / game)
    made = run_cli("new", game, "house_rules")
    assert made.exit_code == 0, made.output
    assert made.stdout.splitlines()[0] == "wrote house_rules/house_rules.yaml"
    built = run_cli("build", "house_rules/house_rules.yaml")
    assert built.exit_code == 0, built.output
    assert built.stdout.endswith("file(s) in output/house_rules\n")
    assert (tmp_path / "output/house_rules/house_rules.pdf").read_bytes().startswith(b"%PDF-")
    assert files_of(tmp_path / "output" / game) == bundled
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == sorted([game, "house_rules"])


def test_new_refuses_a_folder_named_like_a_bundled_game(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("new", "fracas", "omiga")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for DIR: a copy in a folder named 'omiga' would build into output/omiga/, "
        "over the bundled game's files; choose another name, such as my_omiga")
    assert not (tmp_path / "omiga").exists()


ART_LINE = re.compile(r"^( *)#( *)(\w+): (art/\S+)", re.M)  # a commented art key in a definition


@pytest.mark.parametrize("game, example", [("one_minute_war", "my_war"), ("omiga", "garden_tiles")])
def test_a_copy_builds_with_its_commented_art_keys_on_and_the_example_art_beside_it(
        run_cli, tmp_path, monkeypatch, game, example):
    """Every commented art key in the copy names a file of the example's art folder, except the ones
    that say the file is the user's own; switched on, with that folder copied in, the copy builds."""
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", game, "mine").exit_code == 0
    copy = tmp_path / "mine" / "mine.yaml"
    art = EXAMPLES / example / "art"
    named = ART_LINE.findall(copy.read_text())
    own = [path for _, _, _, path in named if not (art.parent / path).is_file()]
    for path in own:
        line = next(ln for ln in copy.read_text().splitlines() if path in ln)
        assert "of your own" in line, line
    assert len(named) - len(own) >= 2
    text = copy.read_text()
    for indent, gap, key, path in named:  # '#' and the space after it go
        if path not in own:
            text = text.replace(f"{indent}#{gap}{key}: {path}", f"{indent}{gap[1:]}{key}: {path}")
    copy.write_text(text.replace("# art:\n", "art:\n"))
    shutil.copytree(art, tmp_path / "mine" / "art")
    built = run_cli("build", copy)
    assert built.exit_code == 0, built.output
    assert "warning" not in built.output
    assert (tmp_path / "output/mine/mine.pdf").is_file()
