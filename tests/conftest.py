"""Shared fixtures: run the real CLI and hand tests the files it wrote."""
from __future__ import annotations

import os
import re
import shutil
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

import pdfmeasure
from building import build, shared, shared_root
from printgen.cli.main import cli
from printgen.games import bundled_definition


def pytest_configure(config: pytest.Config) -> None:
    """A suite started in the background of a shell inherits an ignored Ctrl-C, and every printgen
    it starts would keep ignoring it (printgen leaves an ignored signal ignored, as a shell's `&`
    asks): give the suite Python's own handler, so the children start with Ctrl-C live again."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line("markers", "helpers: builds in this test fork helpers on the other cores, as a "
                                       "user's do (the rest of the suite builds without them)")


ROOT = Path(__file__).resolve().parents[1]

# the modules with the longest single pieces of work (a minute or so of CPU between them: the docs
# pictures, the design rules' reading of every PDF, the hash-seed builds, the crash hunt), run
# first: pytest-xdist hands out tests in this order, and one of them left to the end would keep one
# worker busy while the other has nothing left to do. Whole modules move, so their fixtures are
# still made once.
FIRST = ("test_docs_images.py", "test_design_rules.py", "test_determinism.py", "test_properties.py")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Every build a test runs forks its worker from this process: with the drawing and writing code
    imported here once, as `build --watch` does, no worker imports it again (the suite took about a
    third more CPU without this). The command line itself still imports none of it (test_fast_paths
    runs it in fresh processes)."""
    from printgen.cli.common import load_build_code

    load_build_code()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: FIRST.index(item.path.name) if item.path.name in FIRST else len(FIRST))


@pytest.fixture(scope="session", autouse=True)
def no_user_config(tmp_path_factory):
    """No test sees the developer's own config (a back offset saved by `printgen calibrate --save`
    would shift every back page), not even module-scoped builds made before a test's fixtures."""
    before = {name: os.environ.get(name) for name in ("XDG_CONFIG_HOME",)}
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("no-config"))
    pdfmeasure.SHARED[:] = [shared_root(tmp_path_factory).resolve()]  # measurements of shared builds
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session", autouse=True)
def pages_parsed_once():
    """pdfplumber reads each page of the shared builds once for the session (pdfmeasure.kept_page_objects)."""
    import pdfplumber.page

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pdfplumber.page.Page, "parse_objects",
                      pdfmeasure.kept_page_objects(pdfplumber.page.Page.parse_objects))
        yield


@pytest.fixture(scope="session", autouse=True)
def builds_without_helpers():
    """A build forks a helper for each spare core; the suite's own workers already keep every core
    busy, so a helper only adds a process to share them (the suite took about 9 % more CPU with
    them). Tests of the helpers themselves, and of what a user's build forks, are marked `helpers`
    and get them back (`helpers_when_marked`); a build is byte-identical either way
    (test_fast_paths)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PRINTGEN_NO_FORK", "1")
        yield


@pytest.fixture(autouse=True)
def helpers_when_marked(request, monkeypatch):
    if request.node.get_closest_marker("helpers") is not None:
        monkeypatch.delenv("PRINTGEN_NO_FORK", raising=False)


@pytest.fixture(autouse=True)
def user_config(tmp_path, monkeypatch):
    """Every test gets an empty user config folder of its own (tests of `calibrate --save` write it)."""
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


@pytest.fixture
def run_cli():
    """Invoke `printgen ARGS...` in-process; returns click's Result (exit_code, output)."""
    def run(*args: str):
        return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return run


@pytest.fixture
def copy_definition(tmp_path):
    """Copy a bundled definition into tmp_path so a test can edit it."""
    def copy(game: str, name: str | None = None) -> Path:
        target = tmp_path / f"{name or game}.yaml"
        shutil.copyfile(bundled_definition(game), target)
        return target
    return copy


@pytest.fixture(scope="session")
def card_games_built(all_games_built) -> dict[str, Path]:
    """Fracas and Armies on A4 and on Letter, for the rulebook and reference tests: the folders of
    `all_games_built` (`printgen build fracas armies` writes the same fracas/ and armies/ files)."""
    return all_games_built


@pytest.fixture(scope="session")
def all_games_built(tmp_path_factory) -> dict[str, Path]:
    """Every bundled game built once on A4 and once on Letter (`printgen build --paper P`), for the
    modules that only read the files: the output record, the design rules, the leftover check.
    Built once for the session (see `shared`), whichever worker asks first.
    Nobody writes into these folders; a test that must, copies one first."""
    made = shared(tmp_path_factory, {f"all-{paper}": lambda out, paper=paper: build(out, "--paper", paper)
                                     for paper in ("a4", "letter")})
    return {paper: made[f"all-{paper}"] for paper in ("a4", "letter")}


@pytest.fixture(scope="session")
def short_flip_built(tmp_path_factory) -> Path:
    """`printgen build fracas armies --flip short` (on A4), once for the session: the rulebook tests
    and the reference-sheet tests read its fracas/ and armies/ folders."""
    made = shared(tmp_path_factory, {"fracas-armies-a4-short": lambda out: build(out, "fracas", "armies", "--flip",
                                                                                 "short")})
    return made["fracas-armies-a4-short"]


@pytest.fixture(scope="session")
def sample_deck_png(tmp_path_factory) -> Path:
    """`printgen build deck --png` of the bundled sample, once for the session: its deck/ folder."""
    made = shared(tmp_path_factory, {"deck-png": lambda out: build(out, str(bundled_definition("deck")), "--png")})
    return made["deck-png"] / "deck"


def cards_only(definition: Path) -> Path:
    """The sample deck without its rulebook and reference card (its `rules:` and `reference:` keys),
    for tests that change its rows or layout: the texts name its eight potions and list every row,
    so they would stop a deck of other rows. tests/test_sample_deck.py builds them as bundled."""
    text = definition.read_text()
    text = re.sub(r"^(rules|reference):.*\n(?:  .*\n)*", "", text, flags=re.M)
    definition.write_text(text)
    return definition


@pytest.fixture
def deck(tmp_path) -> Path:
    """The bundled sample deck (definition, CSV, pictures, back template) copied where a test may
    edit it, its cards only (cards_only); a test file with a deck of its own defines its own `deck`."""
    folder = tmp_path / "mine"
    shutil.copytree(bundled_definition("deck").parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return cards_only(folder / "deck.yaml")
