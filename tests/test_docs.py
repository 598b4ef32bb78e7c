"""The guides in docs/ stay true: their pictures exist and are small, and their examples build."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = ["print-at-home.md", "customise-art.md", "homebrew-tile-set.md", "print-shop.md", "decks.md",
          "live-preview.md", "rules-documents.md"]
EXAMPLES = ROOT / "docs" / "examples"


@pytest.mark.parametrize("guide", GUIDES)
def test_guide_pictures_exist_and_stay_small(guide):
    text = (ROOT / "docs" / guide).read_text()
    text = re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S))  # Markdown shown as code
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert pictures, f"{guide} has no pictures"
    for picture in pictures:
        path = ROOT / "docs" / picture
        assert path.is_file(), picture
        assert path.stat().st_size <= 250 * 1024, picture
    for link in re.findall(r"\]\(([\w-]+\.md)(?:#[\w-]+)?\)", text):
        assert (ROOT / "docs" / link).is_file(), link


def test_art_example_builds_without_warnings(run_cli, tmp_path):
    result = run_cli("build", EXAMPLES / "my_war" / "my_war.yaml", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_tile_set_example_validates_and_builds(run_cli, tmp_path):
    definition = EXAMPLES / "garden_tiles" / "garden_tiles.yaml"
    result = run_cli("validate", definition, "--games", "40")
    assert result.exit_code == 0, result.output
    result = run_cli("build", definition, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


# -- the homebrew guide, command by command --------------------------------------------------------

BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def follow_edits(copy: Path, yaml_blocks: list[str]) -> None:
    """The guide's step 3 on a fresh copy: its title, its two colours and its art, as shown."""
    title, palette, art = (b for b in yaml_blocks if b.startswith(("title:", "palettes:", "art:")))
    text = copy.read_text()
    text = re.sub(r"^title: .*\n", title, text, count=1, flags=re.M)
    for line in palette.splitlines()[3:]:  # the standard palette's colours come first in the file
        key = line.split(":")[0] + ":"
        text = re.sub(rf"^{re.escape(key)} .*$", line, text, count=1, flags=re.M)
    commented = "".join(f"# {line}\n" for line in art.splitlines())  # the copy has them off
    assert commented in text
    copy.write_text(text.replace(commented, art))


def test_the_homebrew_guide_shows_what_printgen_prints(run_cli, tmp_path, monkeypatch):
    """Every command of docs/homebrew-tile-set.md is run in order, as a reader would (but for
    --watch, which runs until stopped); each output block shown after one is what it printed. The
    copy the guide makes, edited as shown, is the example in docs/examples/garden_tiles/."""
    monkeypatch.chdir(tmp_path)
    blocks = BLOCK.findall((ROOT / "docs" / "homebrew-tile-set.md").read_text())
    yaml_blocks = [body for kind, body in blocks if kind == "yaml"]
    copy = tmp_path / "garden_tiles" / "garden_tiles.yaml"
    shown = 0
    for number, (kind, body) in enumerate(blocks):
        if kind != "sh":
            continue
        before = blocks[number - 1]
        broken = before[0] == "yaml" and before[1].lstrip().startswith("- {")  # step 5's mistake
        if broken:
            good = copy.read_text()
            copy.write_text(good.replace(before[1].replace("leaf", "green"), before[1], 1))
        output = ""
        for line in body.splitlines():
            args = shlex.split(line, comments=True)
            assert args[0] == "printgen", line
            if "--watch" in args:
                continue
            result = run_cli(*args[1:])
            assert result.exit_code == (1 if broken else 0), result.output
            output += result.output
            if args[1] == "new":
                follow_edits(copy, yaml_blocks)
                assert copy.read_text() == (EXAMPLES / "garden_tiles" / "garden_tiles.yaml").read_text()
                shutil.copytree(EXAMPLES / "garden_tiles" / "art", copy.parent / "art")
        if broken:
            copy.write_text(good)
        if number + 1 < len(blocks) and blocks[number + 1][0] == "":
            assert output == blocks[number + 1][1], body
            shown += 1
    assert shown >= 6


# -- every repository path the docs name exists -----------------------------------------------------

PATH_DOCS = ["README.md", "SECURITY.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md"))),
             "benchmarks/notes.md"]
TOP_FOLDERS = ("printgen", "card_defs", "templates", "tests", "benchmarks", "docs")
# a path from the repository's top, in backquotes, in a code block or in a sentence; not one inside
# a user's folder (`my_war/templates/omiga/...`: preceded by a name and a slash)
NAMED_PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*[\w/])" % "|".join(TOP_FOLDERS))


def named_paths(text: str) -> set[str]:
    """The repository paths a document names (`printgen/core/bundled.py`, `templates/omiga/`):
    a `file:line` or `tests/test_docs.py::test_x` counts as its file."""
    return set(NAMED_PATH.findall(text))


@pytest.mark.parametrize("doc", PATH_DOCS)
def test_every_repository_path_a_document_names_exists(doc):
    """A reader who opens the repository at a path the docs give finds it there: the bundled
    definitions in card_defs/, the templates in templates/, the code in printgen/."""
    missing = sorted(p for p in named_paths((ROOT / doc).read_text()) if not (ROOT / p).exists())
    assert missing == [], f"{doc} names paths that do not exist: {missing}"
