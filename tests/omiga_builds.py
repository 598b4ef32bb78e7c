"""Omiga built from a copy of its definition in one palette, once for the whole test session
(`building.shared`): test_omiga, test_component_ink and test_omiga_ink read the same builds instead
of each building the same definition again."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from building import shared
from printgen.cli.main import cli
from printgen.games import bundled_definition


def omiga_in_palette(tmp_path_factory, palette: str) -> Path:
    """The folder of `printgen build DIR/omiga.yaml`, the bundled definition with `palette: standard`
    changed to `palette: PALETTE` (standard: unchanged), so its files are named as the bundled game's
    (omiga.pdf, svg/white-01.svg, ...). What the build printed is kept beside it, in output.txt."""
    def make(folder: Path) -> None:
        text = bundled_definition("omiga").read_text()
        assert text.count("palette: standard") == 1
        definition = folder / "omiga.yaml"
        definition.write_text(text.replace("palette: standard", f"palette: {palette}"))
        result = CliRunner().invoke(cli, ["build", str(definition), "--out", str(folder / "out")],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        (folder / "output.txt").write_text(result.output)

    return shared(tmp_path_factory, {f"omiga-{palette}": make})[f"omiga-{palette}"] / "out" / "omiga"


def printed(folder: Path) -> str:
    """What the build of `folder` (from omiga_in_palette) printed."""
    return (folder.parents[1] / "output.txt").read_text()
