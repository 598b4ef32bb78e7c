"""The command line itself: help, list, user templates, atomic writes, README and CI agreeing."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from printgen.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]


def test_every_command_has_help(run_cli):
    top = run_cli("--help")
    assert top.exit_code == 0 and "Actual size" in top.output
    for name in cli.commands:
        result = run_cli(name, "--help")
        assert result.exit_code == 0, name
        assert cli.commands[name].help and len(result.output.splitlines()) >= 4


def test_list_names_each_game_and_what_it_builds(run_cli):
    result = run_cli("list")
    assert result.exit_code == 0
    assert "one_minute_war" in result.output
    assert "one_minute_war.pdf" in result.output
    # each game's own commands, asked of its capabilities: a soldier table is no tile set
    assert "printgen validate omiga:" in result.output and "printgen validate one_minute_war:" in result.output
    assert "tile set" not in result.output.split("one_minute_war  (")[1].split("fracas  (")[0]
    assert "printgen replay one_minute_war RECORD" in result.output and "printgen replay omiga" not in result.output


def test_user_template_folder_is_searched_first(run_cli, tmp_path):
    mine = tmp_path / "mine" / "one_minute_war"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text("# {{ d.title }} house rules\n\nPlay fast & {{ near.name }} goes first.\n")
    result = run_cli("build", "one_minute_war", "--templates", tmp_path / "mine", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "one_minute_war" / "one_minute_war.pdf") as pdf:
        text = pdf.pages[0].extract_text()
        words = {w["text"] for w in pdf.pages[0].extract_words()}  # the title wraps beside the card
    assert {"One", "Minute", "War", "house", "rules"} <= words, words
    assert "Play fast & Red goes first." in text  # escaped for the PDF markup, printed as typed
    assert "Sacrificing" not in text


def test_template_error_names_template_file_and_line(run_cli, tmp_path):
    mine = tmp_path / "mine" / "one_minute_war"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text("# Title\n\n{% if d.title %}\nunclosed\n")
    result = run_cli("build", "one_minute_war", "--templates", tmp_path / "mine", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(r"rules\.md\.j2:\d+: template error", result.output), result.output
    assert not (tmp_path / "o").exists()


def test_template_cannot_reach_python_internals(run_cli, tmp_path):
    mine = tmp_path / "mine" / "one_minute_war"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text("# T\n\n{{ d.__class__.__mro__[1].__subclasses__() }}\n")
    result = run_cli("build", "one_minute_war", "--templates", tmp_path / "mine", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "template error" in result.output and "unsafe" in result.output


def test_output_is_written_without_leftover_temporary_files(run_cli, tmp_path, all_games_built):
    out = tmp_path / "o"
    shutil.copytree(all_games_built["a4"], out)  # a first build's files ...
    assert run_cli("build", "--out", out).exit_code == 0  # ... replaced by a second build
    leftovers = [p for p in out.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]
    assert leftovers == []
    assert (out / "one_minute_war" / "one_minute_war.pdf").read_bytes().startswith(b"%PDF-")


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert len(blocks) >= 2
    install_and_build, install_and_test = blocks[0].strip(), blocks[1].strip()
    assert "printgen build" in install_and_build
    ci = (ROOT / ".ci" / "run").read_text()
    assert install_and_test in ci.splitlines()
