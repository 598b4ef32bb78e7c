"""Every `printgen` command README.md and docs/*.md show runs as written, in a scratch folder made
the way the docs say: a copy of docs/examples (the docs are read in a clone of the repository),
then the document's own `printgen new` commands, and those of another document for a folder it
names but does not make (live-preview.md's my-deck/ comes from decks.md). Then each command, in
the document's order, must exit 0.

Each command runs once: one on a bundled game alone (no file of the scratch folder) that another
document already ran is not run again (once for the session, across pytest-xdist workers: see
`once_in_the_session`), and one a document shows twice (or the build a `--watch` or
`serve` of it starts, when the document ran that build already) runs once in its scratch folder,
unless a `printgen calibrate` between them may have saved a back offset the second would use. Left to the tests that already run them as written:
docs/homebrew-tile-set.md (tests/test_docs.py runs every command of it, in order, and compares
what it prints), the two `printgen replay` runs of the records (tests/test_omw_replay.py), and
`printgen build` with no options, which is the session's shared build (`all_games_built` runs
`printgen build --paper a4`: the same files, as no bundled definition names a paper of its own,
checked here). `--watch` and `serve` run until stopped: their arguments are parsed as the command
parses them, and the build they would start is run once.
"""
from __future__ import annotations

import hashlib
import re
import shlex
import shutil
from pathlib import Path

import pytest

import zygote
from building import shared
from printgen.cli.main import COMMANDS
from printgen.core.bundled import game_ids

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))]
RUN_ELSEWHERE = {"docs/homebrew-tile-set.md"}  # tests/test_docs.py::test_the_homebrew_guide_shows_what_printgen_prints
REPLAYS = {"printgen replay one_minute_war docs/examples/records/first-war.txt",  # tests/test_omw_replay.py
           "printgen replay one_minute_war docs/examples/records/third-round.txt"}
SHELL = ("sh", "bash", "shell", "console")
FENCE = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```[ \t]*$", re.M | re.S)
SERVE_ONLY = {"--open": 0, "--port": 1, "--dpi": 1}  # serve's own options, and the values they take


def commands(text: str) -> list[list[str]]:
    """The `printgen` commands of a document's code blocks: `$ printgen ...` in any block, and
    `printgen ...` lines of a shell block or of a block that holds nothing but commands; the part
    after `&&` of `pip install . && printgen build`."""
    found = []
    for kind, body in FENCE.findall(text):
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        only_commands = all(line.startswith(("printgen ", "$ ", "#")) for line in lines)
        for line in lines:
            if line.startswith("$ "):
                line = line[2:]
            elif not (kind in SHELL or (kind == "" and only_commands)):
                continue
            line = line.split("&&")[-1].strip()
            args = shlex.split(line, comments=True)
            if args and args[0] == "printgen":
                assert len(args) > 1 and args[1] in COMMANDS, f"{line!r} names no printgen command"
                found.append(args)
    return found


def made_by(args: list[str]) -> str | None:
    """The folder `printgen new GAME DIR` makes."""
    return args[3] if args[1] == "new" else None


def every_new() -> dict[str, list[str]]:
    """The first `printgen new` of every folder, across the documents (README first)."""
    found: dict[str, list[str]] = {}
    for doc in DOCS:
        for args in commands((ROOT / doc).read_text()):
            if made_by(args):
                found.setdefault(made_by(args) or "", args)
    return found


def folders_named(args: list[str], news: dict[str, list[str]]) -> list[str]:
    return [arg.split("/")[0] for arg in args[2:] if "/" in arg and arg.split("/")[0] in news]


def as_run(args: list[str]) -> list[str]:
    """What is run for a command that would run until stopped: the build it starts."""
    if args[1] == "serve":
        from printgen.cli.serve import serve_command

        serve_command.make_context("serve", args[2:])  # parsed as `printgen serve` parses them
        kept, skip = [], 0
        for arg in args[2:]:
            if skip:
                skip -= 1
            elif arg in SERVE_ONLY:
                skip = SERVE_ONLY[arg]
            else:
                kept.append(arg)
        return ["printgen", "build", *kept]
    if "--watch" in args:
        from printgen.cli.build import build_command

        build_command.make_context("build", args[2:])
        return [arg for arg in args if arg != "--watch"]
    return args


def test_the_shared_build_is_printgen_build_as_written(all_games_built):
    """`printgen build` with no options writes what `printgen build --paper a4` writes when no
    bundled definition names its own paper (a typed --paper overrides only a deck's own)."""
    for game in game_ids():
        text = (ROOT / "card_defs" / f"{game}.yaml").read_text()
        assert not re.search(r"^\s+paper:", text, re.M), game
        assert (all_games_built["a4"] / game / f"{game}.pdf").is_file()


@pytest.fixture(scope="module", autouse=True)
def zygote_ends():
    yield
    zygote.stop()


def once_in_the_session(tmp_path_factory, key: tuple[str, ...], run) -> None:
    """`run()` (a command on bundled games alone, run in the asking test's scratch folder) once for
    the whole session: the first test to ask runs it, in whichever pytest-xdist worker; a test of
    the other worker that asks for the same command meanwhile waits for that run, and one that asks
    later finds it done (`shared` keeps a mark for it in the folder every worker shares). A run that
    fails leaves no mark: the test fails, and the next to ask runs it again."""
    name = "docs-command-" + hashlib.sha256(shlex.join(key).encode()).hexdigest()[:16]
    shared(tmp_path_factory, {name: lambda folder: run()})


@pytest.mark.parametrize("doc", [doc for doc in DOCS if doc not in RUN_ELSEWHERE])
def test_every_command_a_document_shows_runs_as_written(doc, tmp_path, monkeypatch, tmp_path_factory):
    """Each command runs as a fresh `printgen` process would (tests/zygote.py forks one, with
    printgen imported, for each): its real entry point, from the scratch folder, with this test's
    environment (its own empty user config)."""
    shown = commands((ROOT / doc).read_text())
    capture = tmp_path_factory.mktemp("output-of-commands")  # the commands' stdout and stderr
    news = every_new()
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    monkeypatch.chdir(tmp_path)
    made: set[str] = set()

    def run(args: list[str]) -> None:
        ran = zygote.run_printgen(as_run(args)[1:], tmp_path, capture, seconds=600)
        assert ran.code == 0, f"{doc}: `{shlex.join(args)}` exited {ran.code}:\n{ran.out}{ran.err}"

    for args in shown:  # the scratch folder, made as the document says
        if made_by(args):
            run(args)
            made.add(made_by(args) or "")
    for args in shown:
        for folder in folders_named(args, news):
            if folder not in made:
                run(news[folder])
                made.add(folder)
    here: set[tuple[str, ...]] = set()  # run in this scratch folder since the last calibrate
    for args in shown:
        line = shlex.join(args)
        if made_by(args) or line in REPLAYS or args == ["printgen", "build"]:
            continue
        local = any(Path(arg.split("=")[-1]).exists() for arg in args[2:] if "/" in arg or arg.endswith(".yaml"))
        key = tuple(as_run(args))
        if key in here:
            continue
        if local or args[1] == "calibrate":  # calibrate --save writes this test's own config: here
            run(args)
        else:
            once_in_the_session(tmp_path_factory, key, lambda args=args: run(args))
        here.add(key)
        if args[1] == "calibrate":  # `--save` changes the back offset of every build after it
            here.clear()
