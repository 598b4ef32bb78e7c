"""The bad-input corpus: each broken definition in tests/bad_inputs/ gives exactly its message.

A case is `NAME.yaml` (or a generator below, for inputs too big or too odd to commit) beside
`NAME.expected`, the exact stderr printgen must write. Optional companions, copied beside the
definition: `NAME.templates/` (passed with --templates), `NAME.files/` (art, fonts, data and
records the definition or the command names) and `NAME.args` (the command, one argument a line,
`{definition}` standing for the case's YAML; `build` otherwise). Every case must exit 2 with its
located message, show no traceback, write no output file, and finish within seconds. Every case runs
in a fresh process (forked from tests/zygote.py, which has only imported printgen) with a memory cap
and its peak memory measured.

To write the .expected files after a deliberate message change, run with
PRINTGEN_UPDATE_BAD_INPUTS=1 and review the diff.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from art_cases import CASES as ART_CASES
from hostile_cases import AFTERWARDS
from hostile_cases import CASES as HOSTILE_CASES
from printgen.core.bundled import templates_folder
from printgen.games import bundled_definition, game_ids
import zygote

CORPUS = Path(__file__).parent / "bad_inputs"
UPDATE = bool(os.environ.get("PRINTGEN_UPDATE_BAD_INPUTS"))
SECONDS = 10.0  # CPU seconds for each case, start-up included (a wall-clock backstop of 120 s kills a hung one)
MEMORY_CAP = 1024 * 1024 * 1024  # bytes: address space allowed, and the peak resident size allowed
GAMES = tuple(game_ids())  # every game in the registry


# -- generated cases: too big to commit, or needing links made on the spot --------------------------

def fifty_megabytes(folder: Path, name: str) -> None:
    """A real definition padded with comment lines to exactly 50 MiB."""
    head = bundled_definition("fracas").read_bytes()
    line = b"# " + b"padding " * 12 + b"\n"
    lines, rest = divmod(50 * 1024 * 1024 - len(head), len(line))
    with (folder / f"{name}.yaml").open("wb") as out:
        out.write(head + line * lines + b"#" * (rest - 1) + b"\n")


def ten_thousand_tiles(folder: Path, name: str) -> None:
    """The bundled Omiga set with a white deck of 10,000 tiles."""
    text = bundled_definition("omiga").read_text()
    start = text.index("  white:\n    size:")
    tiles = "".join("      - {left: green, right: pink, top: tip, bottom: notch}\n" for _ in range(10_000))
    end = text.index("  black:\n    size:")
    (folder / f"{name}.yaml").write_text(text[:start] + "  white:\n    size: 10000\n    tiles:\n" + tiles
                                         + text[end:])


def twenty_thousand_forms(folder: Path, name: str) -> None:
    """The bundled Omiga set with 20,000 entries in its fit table naming forms that do not exist."""
    text = bundled_definition("omiga").read_text()
    extra = "".join(f"  f{i}: [tip]\n" for i in range(20_000))
    (folder / f"{name}.yaml").write_text(text.replace("\nfits:\n", "\nfits:\n" + extra, 1))


def flow_mappings(folder: Path, name: str) -> None:
    """Armies followed by 900 KB of flow mappings on one line (ruamel took a minute on 5 MB)."""
    text = bundled_definition("armies").read_text()
    items = ", ".join(f"{{a{i}: 1, b: [2, 3]}}" for i in range(40_000))
    (folder / f"{name}.yaml").write_text(text + "junk: [" + items[:900_000] + "]\n")


def block_items(folder: Path, name: str) -> None:
    """Quick Violence followed by a block list of 12,000 short items."""
    text = bundled_definition("quick_violence").read_text()
    (folder / f"{name}.yaml").write_text(text + "junk:\n" + "".join(f"  - item {i}\n" for i in range(12_000)))


def just_over_a_mebibyte(folder: Path, name: str) -> None:
    """One Minute War padded with comments to one byte over 1 MiB."""
    text = bundled_definition("one_minute_war").read_bytes()
    pad = 1024 * 1024 + 1 - len(text)
    (folder / f"{name}.yaml").write_bytes(text + b"#" * (pad - 1) + b"\n")


def template_symlink(folder: Path, name: str) -> None:
    """The case's template folder gets a rules template that links to a file outside it."""
    secret = folder.parent / "secret.txt"
    secret.write_text("a private file\n")
    target = folder / f"{name}.templates" / "one_minute_war"
    target.mkdir(parents=True)
    (target / "rules.md.j2").symlink_to(secret)


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


GENERATED = {"yaml_flow_mappings_900kb": flow_mappings, "yaml_block_list_12000_items": block_items,
             "yaml_file_just_over_limit": just_over_a_mebibyte,
             "omw_logo_font_lacks_letters": tiny_font, "omiga_20000_unknown_forms": twenty_thousand_forms,
             "definition_50mb": fifty_megabytes, "omiga_deck_10000_tiles": ten_thousand_tiles,
             "omw_template_symlink_outside": template_symlink, "omw_art_symlink_outside": art_symlink}
def unknown_table(game: str):
    """The bundled definition, built with a copy of its rules template that asks for a table the
    game does not have (found by the build, after the template has rendered)."""
    def make(folder: Path, name: str) -> None:
        (folder / f"{name}.yaml").write_bytes(bundled_definition(game).read_bytes())
        target = folder / f"{name}.templates" / game / "rules.md.j2"
        target.parent.mkdir(parents=True)
        bundled = templates_folder() / game / "rules.md.j2"
        target.write_text(bundled.read_text() + "\n<!-- table: nosuch -->\n")
    return make


GENERATED.update(ART_CASES)
GENERATED.update(HOSTILE_CASES)
GENERATED.update({"omw_template_unknown_table": unknown_table("one_minute_war"),
                  "omiga_template_unknown_table": unknown_table("omiga")})


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
    given = CORPUS / f"{name}.args"
    if given.exists():
        return [line.replace("{definition}", f"defs/{definition.name}")
                for line in given.read_text().splitlines() if line]
    args = ["build", f"defs/{definition.name}", "--out", "out"]
    if (definition.parent / f"{name}.templates").is_dir():
        args += ["--templates", f"defs/{name}.templates"]
    return args


@pytest.fixture(scope="module", autouse=True)
def zygote_ends():
    yield
    zygote.stop()


def run_capped(args: list[str], cwd: Path) -> zygote.Ran:
    """The real `printgen` entry point in a fresh process (forked by tests/zygote.py, which has only
    imported printgen: a case starts as a fresh `printgen` process does once its imports are done,
    without paying them again) capped at MEMORY_CAP of address space: exit code, stdout, stderr,
    seconds, and the peak resident size in bytes of it and its children (the kernel's figure from
    wait4, which covers every child the process waited for)."""
    return zygote.run_printgen(args, cwd, cwd, cap=MEMORY_CAP, seconds=120)


def listing(folder: Path) -> dict[str, bytes | str]:
    """Every path under `folder` with its bytes (a link: where it points), to show nothing changed."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")) if folder.exists() else []:
        key = str(path.relative_to(folder))
        found[key] = ("link to " + os.readlink(path)) if path.is_symlink() else (
            path.read_bytes() if path.is_file() else "folder")
    return found


@pytest.mark.parametrize("name", case_names())
def test_bad_input_is_refused_with_its_exact_message(name, tmp_path):
    definition = stage(name, tmp_path)
    before = listing(tmp_path / "out")
    # every case in a fresh process forked from the zygote, which has imported printgen and nothing
    # else: a fork of it costs less than a fork of pytest (about 3 CPU-s over the corpus), and every
    # case gets the memory cap and a measured peak, not only the heavy ones and the newer surfaces
    code, out, err, cpu, peak = run_capped(arguments(name, definition), tmp_path)
    expected_file = CORPUS / f"{name}.expected"
    harmless = name.endswith("_harmless")  # odd but safe input: it must build, and say nothing
    if UPDATE and code == (0 if harmless else 2) and "Traceback" not in err:
        expected_file.write_text(err)
    assert "Traceback" not in err + out and "internal error" not in err, err
    assert err == expected_file.read_text()
    assert cpu < SECONDS, f"took {cpu:.1f} CPU seconds"
    assert 0 < peak < MEMORY_CAP, f"peak resident size {peak / 2**20:.0f} MiB"
    if harmless:
        assert code == 0, err
        assert sorted(p.suffix for p in (tmp_path / "out").rglob("*.pdf"))
    else:
        assert code == 2, err
        assert out == ""
        assert listing(tmp_path / "out") == before, "a refused definition must write nothing"
    AFTERWARDS.get(name, lambda folder: None)(tmp_path / "out")


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


# -- serve: hostile requests and a deck past the limits, through the real command -------------------

def peak_resident(pid: int) -> int:
    """The process's peak resident size in bytes, as the kernel keeps it (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak from /proc")
def test_serve_refuses_other_pages_and_oversized_requests_at_once(tmp_path):
    from serving import Served, raw_request, small_deck, stop_all_in_session

    definition = small_deck(tmp_path / "potion")
    server = Served(definition.parent, "potion.yaml", "--dpi", "40")
    try:
        before = server.wait(lambda s: s["version"] >= 1, "the first build")
        host = f"Host: 127.0.0.1:{server.port}\r\n".encode()
        for headers in ({"Origin": "http://evil.example"}, {"Referer": "http://evil.example/page"},
                        {"Origin": "null"}):
            started = time.monotonic()
            status, _, body = server.get("/state", **headers)
            assert status == 403 and time.monotonic() - started < 1.0, (headers, body)
        started = time.monotonic()
        answer = raw_request(server.port, b"GET /state HTTP/1.1\r\n" + host + b"X-Pad: " + b"b" * 9000 + b"\r\n\r\n")
        assert answer.startswith(b"HTTP/1.0 431 ") and time.monotonic() - started < 1.0
        assert server.state() == before  # nothing rebuilt
        assert peak_resident(server.process.pid) < 300 * 2**20
        code, err = server.stop()
        assert code == 130 and "Traceback" not in err
    finally:
        stop_all_in_session(server.process)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak from /proc")
def test_serve_shows_a_deck_past_the_limits_as_build_does_and_keeps_running(tmp_path):
    from hostile_cases import twenty_million_cards
    from serving import Served, stop_all_in_session

    folder = tmp_path / "defs"
    folder.mkdir()
    twenty_million_cards(folder, "huge")
    started = time.monotonic()
    server = Served(folder, "huge.yaml")
    try:
        state = server.wait(lambda s: s["problems"], "the problems of the first build")
        assert time.monotonic() - started < SECONDS
        assert state["problems"][0] == ("cards.csv:22: column 'copies': this row brings the deck to 21,000 "
                                        "cards, copies counted; a deck may print at most 20,000")
        assert server.get("/state")[0] == 200  # still serving
        assert peak_resident(server.process.pid) < 300 * 2**20
    finally:
        stop_all_in_session(server.process)
