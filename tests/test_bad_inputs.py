"""The bad-input corpus: each broken definition in tests/bad_inputs/ gives exactly its message.

A case is `NAME.yaml` (or a generator below, for inputs too big or too odd to commit) beside
`NAME.expected`, the exact stderr printgen must write. Optional companions, copied beside the
definition: `NAME.templates/` (passed with --templates) and `NAME.files/` (art and fonts the
definition names). Every case must exit 2 with its located message, show no traceback, write no
output file, and finish within seconds; the heavy ones run in a subprocess with a memory cap.

To write the .expected files after a deliberate message change, run with
PRINTGEN_UPDATE_BAD_INPUTS=1 and review the diff.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import cli

CORPUS = Path(__file__).parent / "bad_inputs"
UPDATE = bool(os.environ.get("PRINTGEN_UPDATE_BAD_INPUTS"))
SECONDS = 5.0  # each case, in-process
MEMORY_CAP = 1024 * 1024 * 1024  # address space for the subprocess cases (bytes)
GAMES = ("one_minute_war", "omiga", "quick_violence", "fracas", "armies")


# -- generated cases: too big to commit, or needing links made on the spot --------------------------

def fifty_megabytes(folder: Path, name: str) -> None:
    """A real definition padded with comment lines to exactly 50 MiB."""
    head = (CORPUS.parent.parent / "card_defs" / "fracas.yaml").read_bytes()
    line = b"# " + b"padding " * 12 + b"\n"
    lines, rest = divmod(50 * 1024 * 1024 - len(head), len(line))
    with (folder / f"{name}.yaml").open("wb") as out:
        out.write(head + line * lines + b"#" * (rest - 1) + b"\n")


def ten_thousand_tiles(folder: Path, name: str) -> None:
    """The bundled Omiga set with a white deck of 10,000 tiles."""
    text = (CORPUS.parent.parent / "card_defs" / "omiga.yaml").read_text()
    start = text.index("  white:\n    size:")
    tiles = "".join("      - {left: green, right: pink, top: tip, bottom: notch}\n" for _ in range(10_000))
    end = text.index("  black:\n    size:")
    (folder / f"{name}.yaml").write_text(text[:start] + "  white:\n    size: 10000\n    tiles:\n" + tiles
                                         + text[end:])


def twenty_thousand_forms(folder: Path, name: str) -> None:
    """The bundled Omiga set with 20,000 entries in its fit table naming forms that do not exist."""
    text = (CORPUS.parent.parent / "card_defs" / "omiga.yaml").read_text()
    extra = "".join(f"  f{i}: [tip]\n" for i in range(20_000))
    (folder / f"{name}.yaml").write_text(text.replace("\nfits:\n", "\nfits:\n" + extra, 1))


def template_symlink(folder: Path, name: str) -> None:
    """The case's template folder gets a rules template that links to a file outside it."""
    secret = folder.parent / "secret.txt"
    secret.write_text("a private file\n")
    target = folder / f"{name}.templates" / "one_minute_war"
    target.mkdir(parents=True)
    (target / "rules.txt.j2").symlink_to(secret)


def art_symlink(folder: Path, name: str) -> None:
    """The logo inside the definition's folder is a link to a file outside it."""
    outside = folder.parent / "elsewhere.png"
    outside.write_bytes(b"not even a picture")
    (folder / "art").mkdir()
    (folder / "art" / "logo.png").symlink_to(outside)


def tiny_font(folder: Path, name: str) -> None:
    """A real TrueType font with nine glyphs and no Latin letters (reportlab's shaping test font)."""
    import reportlab

    (folder / "art").mkdir()
    shutil.copyfile(Path(reportlab.__file__).parent / "fonts" / "hb-test.ttf", folder / "art" / "display.ttf")


GENERATED = {"omw_logo_font_lacks_letters": tiny_font, "omiga_20000_unknown_forms": twenty_thousand_forms,
             "definition_50mb": fifty_megabytes, "omiga_deck_10000_tiles": ten_thousand_tiles,
             "omw_template_symlink_outside": template_symlink, "omw_art_symlink_outside": art_symlink}
HEAVY = {"definition_50mb", "omiga_deck_10000_tiles", "billion_laughs", "deep_nesting",
         "omiga_20000_unknown_forms"}


def case_names() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.expected"))


def stage(name: str, root: Path) -> Path:
    """Put the case in root/defs/ (the folder the user would build from); return the YAML path."""
    folder = root / "defs"
    folder.mkdir()
    if (CORPUS / f"{name}.yaml").exists():
        shutil.copyfile(CORPUS / f"{name}.yaml", folder / f"{name}.yaml")
    if name in GENERATED:  # makes the definition, or what it needs beside it
        GENERATED[name](folder, name)
    templates = CORPUS / f"{name}.templates"
    if templates.is_dir():
        shutil.copytree(templates, folder / templates.name, symlinks=True)
    files = CORPUS / f"{name}.files"
    if files.is_dir():
        shutil.copytree(files, folder, dirs_exist_ok=True, symlinks=True)
    return folder / f"{name}.yaml"


def arguments(name: str, definition: Path) -> list[str]:
    args = ["build", f"defs/{definition.name}", "--out", "out"]
    if (definition.parent / f"{name}.templates").is_dir():
        args += ["--templates", f"defs/{name}.templates"]
    return args


def run_in_subprocess(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """The real `printgen` entry point, in a child whose address space is capped."""
    code = ("import resource, sys\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_CAP}, {MEMORY_CAP}))\n"
            "from printgen.cli import main\n"
            f"sys.argv = ['printgen'] + {args!r}\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("name", case_names())
def test_bad_input_is_refused_with_its_exact_message(name, tmp_path, monkeypatch):
    definition = stage(name, tmp_path)
    args = arguments(name, definition)
    started = time.monotonic()
    if name in HEAVY:
        code, out, err = run_in_subprocess(args, tmp_path)
    else:
        monkeypatch.chdir(tmp_path)
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        code, out, err = result.exit_code, result.stdout, result.stderr
    elapsed = time.monotonic() - started
    expected_file = CORPUS / f"{name}.expected"
    if UPDATE and code == 2 and "Traceback" not in err:
        expected_file.write_text(err)
    assert "Traceback" not in err + out and "internal error" not in err, err
    assert code == 2, err
    assert err == expected_file.read_text()
    assert out == ""
    assert not (tmp_path / "out").exists(), "a refused definition must write nothing"
    assert elapsed < (SECONDS * 4 if name in HEAVY else SECONDS), f"took {elapsed:.1f} s"


def test_corpus_covers_every_game_and_has_no_orphans():
    names = case_names()
    assert len(names) >= 40
    assert sorted(p.stem for p in CORPUS.glob("*.yaml") if p.stem not in names) == []
    missing = [n for n in names if n not in GENERATED and not (CORPUS / f"{n}.yaml").exists()]
    assert missing == []
    texts = " ".join((CORPUS / f"{n}.yaml").read_text(errors="replace") for n in names
                     if (CORPUS / f"{n}.yaml").exists())
    for game in GAMES:
        assert texts.count(f"game: {game}") >= 5, game
