"""The command line never ends in `internal error`: unwritable output, odd option values, and broken
definitions given to every command are plain messages with exit code 2 (1 for `validate` findings).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli.main import cli

CORPUS = Path(__file__).parent / "bad_inputs"
SAMPLE = ["game_is_a_list", "omw_tab_indent", "fracas_unknown_key", "qv_nan_range", "armies_arabic_title",
          "omiga_empty_deck", "omw_art_dotdot", "omw_spaces_only_ability", "fracas_python_object_tag"]


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_a_file_in_the_way_of_the_output_folder_is_a_plain_message(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "fracas").write_text("a file where printgen wants a folder")
    for command in (["build", "fracas"], ["preview", "fracas"]):
        result = invoke(*command, "--out", out)
        assert result.exit_code == 2, result.output
        assert "cannot write" in result.stderr and "internal error" not in result.stderr
    assert (out / "fracas").read_text() == "a file where printgen wants a folder"


def test_an_output_folder_that_cannot_exist_is_a_plain_message_from_the_real_entry_point(tmp_path):
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    code = "import sys; from printgen.cli.main import main; sys.argv = ['printgen'] + sys.argv[1:]; main()"
    done = subprocess.run([sys.executable, "-c", code, "build", "armies", "--out", "/proc/printgen-cannot-be-here"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("printgen: /proc/printgen-cannot-be-here") and "cannot write" in done.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_bleed_must_be_a_finite_number(tmp_path, value):
    result = invoke("build", "fracas", "--bleed", value, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "--bleed" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", SAMPLE)
def test_every_command_refuses_a_broken_definition_plainly(name, tmp_path, monkeypatch):
    shutil.copyfile(CORPUS / f"{name}.yaml", tmp_path / f"{name}.yaml")
    files = CORPUS / f"{name}.files"
    if files.is_dir():
        shutil.copytree(files, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    for command in (["preview"], ["export", "--print-shop"], ["validate"], ["build"]):
        args = [*command, f"{name}.yaml"] + ([] if command == ["validate"] else ["--out", "out"])
        result = invoke(*args)
        assert result.exit_code in (1, 2), (command, result.output)
        assert "Traceback" not in result.output and "internal error" not in result.output
        assert not (tmp_path / "out").exists()


def test_export_bleed_must_be_a_finite_number(tmp_path):
    result = invoke("export", "omiga", "--print-shop", "--bleed", "nan", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "--bleed" in result.stderr


def test_a_font_with_a_hostile_family_name_keeps_every_svg_valid(tmp_path):
    """A user's font names its family in SVG text as CSS; quotes, '<' and control characters in
    that name must not break the XML (the name below is patched into a copy of Vera)."""
    import xml.etree.ElementTree as ET

    import reportlab

    from printgen.games import bundled_definition

    vera = (Path(reportlab.__file__).parent / "fonts" / "Vera.ttf").read_bytes()
    plain, hostile = b"Bitstream Vera Sans", b"Bit'\x01<m&Vera\"Sansxx"
    (tmp_path / "odd.ttf").write_bytes(vera.replace(plain, hostile).replace(
        plain.decode().encode("utf-16-be"), hostile.decode().encode("utf-16-be")))
    definition = tmp_path / "war.yaml"
    definition.write_text(bundled_definition("one_minute_war").read_text().replace(
        "  text: One Minute War\n", "  text: One Minute War\n  font: odd.ttf\n", 1))
    result = invoke("build", definition, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    svgs = list((tmp_path / "out").rglob("*.svg"))
    assert svgs
    for svg in svgs:
        ET.parse(svg)


@pytest.mark.parametrize("file_name", ["...yaml", "..yaml", ".hidden.yaml"])
def test_a_dotted_file_name_still_writes_inside_the_output_folder(tmp_path, file_name):
    """`...yaml` has the stem `..`: its files must not land beside the output folder."""
    from printgen.games import bundled_definition

    work = tmp_path / "work"
    work.mkdir()
    shutil.copyfile(bundled_definition("armies"), work / file_name)
    result = invoke("build", work / file_name, "--out", work / "out")
    assert result.exit_code == 0, result.output
    written = [p for p in tmp_path.rglob("*.pdf")]
    assert written and all((work / "out") in p.parents for p in written), written
