"""Broken definitions: every problem at once, as file:line: key.path: message, exit 2, no output."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CASES = {
    "unknown_key": (
        ("  tab_height: 24\n", "  tab_height: 24\n  tab_hieght: 18\n"),
        "card.tab_hieght: unknown key; expected one of: width, tab_height,",
    ),
    "wrong_type": (
        ("  width: 115\n", "  width: wide\n"),
        "card.width: expected a valid number (got 'wide')",
    ),
    "duplicate_key": (
        ("title: One Minute War\n", "title: One Minute War\ntitle: Two Minute War\n"),
        "invalid YAML: this key appears twice in the same mapping",
    ),
    "beats_unknown_number": (
        ("    beats: [5]\n", "    beats: [7]\n"),
        "soldiers[1].beats[0]: Princess beats 7, but no soldier has that number (expected one of 1, 2, 3, 4, 5)",
    ),
    "beats_himself": (
        ("    beats: [5]\n", "    beats: [2]\n"),
        "soldiers[1].beats[0]: Princess cannot beat himself (number 2); remove it",
    ),
    "mutual_beats": (
        ("    beats: [5]\n", "    beats: [5, 4]\n"),
        "Princess and Archer each beat the other; keep only the one who wins",
    ),
    "yes_is_not_a_bool_name": (
        ("  - name: Red\n", "  - name: yes\n    name2: 3\n"),
        "sides[0].name2: unknown key",
    ),
}


def broken(copy_definition, case: str) -> Path:
    path = copy_definition("one_minute_war", case)
    (old, new), _ = CASES[case]
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle.strip() and needle.strip().splitlines()[-1] in line:
            return number
    raise AssertionError(needle)


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_definition_is_located_and_writes_nothing(run_cli, copy_definition, tmp_path, case):
    path = broken(copy_definition, case)
    out = tmp_path / "out"
    result = run_cli("build", path, "--out", out)
    assert result.exit_code == 2, result.output
    message = CASES[case][1]
    assert message in result.output
    (old, new) = CASES[case][0]
    changed = [ln for ln in new.splitlines() if ln not in old.splitlines()][-1]
    expected_line = next(n for n, ln in enumerate(path.read_text().splitlines(), 1) if ln == changed)
    located = [ln for ln in result.output.splitlines() if message.split(": ")[0] in ln][0]
    assert located.startswith(f"{path.name}:") or f"{path.name}:" in located
    number = int(located.split(f"{path.name}:")[1].split(":")[0])
    if case != "duplicate_key":
        assert number == expected_line, located
    else:
        assert number == expected_line, located  # the second `title:` line
    assert "Traceback" not in result.output
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_all_problems_are_reported_at_once(run_cli, copy_definition, tmp_path):
    path = copy_definition("one_minute_war", "many")
    text = path.read_text().replace("  width: 115\n", "  width: -3\n").replace("    beats: [5]\n", "    beats: [9]\n")
    text = text.replace("  tab_height: 24\n", "  tab_height: 24\n  colour: red\n")
    path.write_text(text)
    result = run_cli("build", path, "--out", tmp_path)
    assert result.exit_code == 2
    assert "card.width: expected a number greater than 0 (got -3" in result.output
    assert "card.colour: unknown key" in result.output
    assert "soldiers[1].beats[0]: Princess beats 9, but no soldier has that number" in result.output
    assert "3 problems found; nothing was written." in result.output


README = Path(__file__).resolve().parents[1] / "README.md"


def readme_problem_example() -> str:
    """The README's example of a broken definition's report: the block after "every problem at once"."""
    text = README.read_text()
    start = text.index("lists every problem at once:")
    block = text[text.index("```\n", start) + 4:]
    return "\n".join(line.strip() for line in block[:block.index("```")].strip().splitlines())


def test_the_readme_two_mistake_example_is_what_build_prints(copy_definition, tmp_path):
    """The README's my_war.yaml: a soldier beating an unknown number and a negative card width
    are both reported, with their lines, by the real command, and nothing is written."""
    path = copy_definition("one_minute_war", "my_war")
    text = path.read_text()
    assert "    beats: [5]\n" in text and "  width: 115\n" in text
    path.write_text(text.replace("    beats: [5]\n", "    beats: [7]\n", 1).replace("  width: 115\n", "  width: -3\n", 1))
    proc = subprocess.run([sys.executable, "-m", "printgen.cli.main", "build", "my_war.yaml", "--out", "o"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == readme_problem_example()
    assert "my_war.yaml:27: soldiers[1].beats[0]: Princess beats 7" in proc.stderr
    assert "my_war.yaml:52: card.width: expected a number greater than 0 (got -3)" in proc.stderr
    assert "printgen: 2 problems found; nothing was written." in proc.stderr
    assert not (tmp_path / "o").exists()


def test_a_check_waits_when_a_required_value_is_wrong(run_cli, copy_definition, tmp_path):
    """A wrong value that cannot be left out (a soldier's name) is reported alone: the soldier
    checks would otherwise run on a table with a soldier missing."""
    path = copy_definition("one_minute_war", "required")
    text = path.read_text().replace("    name: Princess\n", "    name: ''\n").replace("    beats: [5]\n", "    beats: [7]\n")
    path.write_text(text)
    result = run_cli("build", path, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "soldiers[1].name: expected some text, not an empty string" in result.output
    assert "1 problem found; nothing was written." in result.output


def test_semantic_problems_are_all_reported_together(run_cli, copy_definition, tmp_path):
    path = copy_definition("one_minute_war", "semantic")
    text = path.read_text().replace("    beats: [5]\n", "    beats: [2, 9]\n")
    path.write_text(text)
    result = run_cli("build", path, "--out", tmp_path)
    assert result.exit_code == 2
    assert "cannot beat himself" in result.output and "beats 9" in result.output


def test_no_traceback_from_the_real_command(copy_definition, tmp_path):
    path = broken(copy_definition, "beats_unknown_number")
    proc = subprocess.run([sys.executable, "-m", "printgen.cli.main", "build", str(path), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert f"{path.name}:" in proc.stderr
    assert not (tmp_path / "o").exists()


def test_a_bad_game_name_and_a_bad_offset_are_usage_errors(run_cli, tmp_path):
    result = run_cli("build", "chess", "--out", tmp_path)
    assert result.exit_code == 2 and "neither a bundled game" in result.output
    result = run_cli("build", "one_minute_war", "--back-offset", "1.5", "--out", tmp_path)
    assert result.exit_code == 2 and "X,Y" in result.output
    result = run_cli("build", "one_minute_war", "--back-offset", "nan,0", "--out", tmp_path)
    assert result.exit_code == 2


def test_unknown_game_key_names_the_choices(run_cli, tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("title: hello\ngame: chess\n")
    result = run_cli("build", path, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "x.yaml:2: game: expected one of: one_minute_war" in result.output


def test_tab_text_that_does_not_fit_names_the_soldier(run_cli, copy_definition, tmp_path):
    path = copy_definition("one_minute_war", "wordy")
    path.write_text(path.read_text().replace("ability: Defeats the Knight",
                                             "ability: Defeats the Knight whenever they meet on the field of battle"))
    result = run_cli("build", path, "--out", tmp_path)
    assert result.exit_code == 2
    assert "soldiers[1].ability: Princess's ability needs" in result.output
    assert "shorten it or widen card.width" in result.output


def run_printgen(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command, run in `folder`."""
    return subprocess.run([sys.executable, "-m", "printgen.cli.main", *args], capture_output=True,
                          text=True, cwd=folder)


def test_an_unquoted_colour_says_to_quote_it(copy_definition, tmp_path):
    """`colour: #1f5f99` is a key with a comment and no value: the message says so and how to write it."""
    path = copy_definition("one_minute_war", "colours")
    text = path.read_text()
    assert '    colour: "#1f5f99"\n' in text
    path.write_text(text.replace('    colour: "#1f5f99"\n', "    colour: #1f5f99\n"))
    proc = run_printgen(tmp_path, "build", "colours.yaml", "--out", "o")
    assert proc.returncode == 2
    assert proc.stderr == (
        "colours.yaml:14: sides[1].colour: expected text, but the key has no value: YAML reads a '#' "
        "after a space as the start of a comment, so write the colour in quotes: '#1f5f99'\n"
        "printgen: 1 problem found; nothing was written.\n")
    assert not (tmp_path / "o").exists()


def test_an_unquoted_colour_in_braces_says_to_quote_it(tmp_path):
    """The homebrew guide's `{fill: "#3c8d2f", label: leaf, symbol: dot}` without quotes: the
    comment swallows the closing brace, and the message names the colour to quote."""
    source = Path(__file__).resolve().parents[1] / "docs" / "examples" / "garden_tiles" / "garden_tiles.yaml"
    text = source.read_text()
    assert '{fill: "#3c8d2f", label: leaf, symbol: dot}' in text
    (tmp_path / "garden.yaml").write_text(text.replace('{fill: "#3c8d2f", label: leaf, symbol: dot}', "{fill: #3c8d2f, label: leaf, symbol: dot}"))
    line = text[:text.index('{fill: "#3c8d2f"')].count("\n") + 1
    proc = run_printgen(tmp_path, "validate", "garden.yaml")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        f"garden.yaml:{line}: invalid YAML: a mapping opened with '{{' here is not closed: YAML reads a '#' "
        "after a space as the start of a comment, so write the colour in quotes: '#3c8d2f'")


def test_a_real_comment_after_an_empty_key_gets_no_quote_hint(copy_definition, tmp_path):
    path = copy_definition("one_minute_war", "comment")
    path.write_text(path.read_text().replace('    colour: "#1f5f99"\n', "    colour:   # blue, later\n"))
    proc = run_printgen(tmp_path, "build", "comment.yaml", "--out", "o")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == ("comment.yaml:14: sides[1].colour: expected text, but the key has "
                                           "no value; write one after the colon")
