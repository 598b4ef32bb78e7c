"""The guides in docs/ stay true: their pictures exist and are small, and their examples build."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = ["print-at-home.md", "customise-art.md", "homebrew-tile-set.md", "print-shop.md", "decks.md"]
EXAMPLES = ROOT / "docs" / "examples"


@pytest.mark.parametrize("guide", GUIDES)
def test_guide_pictures_exist_and_stay_small(guide):
    text = (ROOT / "docs" / guide).read_text()
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
