"""`printgen serve`: a browser page of every page and piece the games build, redrawn after every save.

`build --watch`'s loop (printgen.cli.watch) builds every game whole, as `build` does, into one
private folder; the server (printgen.cli.loopback) answers from a table of URL paths to the last good
build's files there, so nothing else on disk is ever served. The folder goes when serve stops; one
left by a serve that was killed goes when the next serve starts.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import click

from printgen.cli import options
from printgen.cli.common import MAX_SHOWN, check_targets, paths_for, report
from printgen.cli.engine import build_all, say_on_stderr, write_results
from printgen.cli.loopback import TEXT, Loopback, Reply
from printgen.cli.options import MAX_BACK_OFFSET_MM, FiniteRange, parse_offset
from printgen.cli.pictures import served_work
from printgen.core.build import BuildOptions
from printgen.core.config import saved_back_offset
from printgen.core.paper import MAX_BLEED_MM, PAPERS, SHEET_PAPERS, Flip
from printgen.core.problems import DefinitionError, display_name
from printgen.core.staging import alive, private_folder, remove

JSON = "application/json"
MEDIA = {".png": "image/png", ".pdf": "application/pdf"}
MAX_QUERY_FIELDS = 8
FOLDER = "printgen-serve-"  # then the serving process's id


@click.command("serve")
@options.games
@options.paper
@options.layout
@options.rows
@options.where
@options.guides
@options.flip
@options.back_offset
@options.bleed(None, "Run the art of imposed pieces MM past their cut lines (the page can change it).")
@options.templates
@options.allow_outside
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=False,
              help="Port to listen on at 127.0.0.1 (default: a free one, printed with the address).")
@click.option("--open", "open_browser", is_flag=True, help="Also open the page in your web browser.")
@click.option("--dpi", type=click.IntRange(20, 300), default=72, show_default=True,
              help="Resolution of the page pictures (150 to read small print).")
def serve_command(games: tuple[str, ...], paper: str, layout: str | None, rows: tuple[int, ...] | None,
                  where: str | None, guides: bool, flip: Flip, back_offset: tuple[float, float] | None,
                  bleed: float | None, template_dirs: tuple[Path, ...], allow_outside: bool, port: int,
                  open_browser: bool, dpi: int) -> None:
    """Show GAME's pages and pieces in your browser, rebuilt whenever a file they come from is saved.

    Serves one page at http://127.0.0.1:PORT/ (this computer only) until Ctrl-C. A mistake is shown
    in the page as file:line: key: message, over the last pages that built. With no GAME, every
    bundled game is shown. Nothing is written to your folders: use `printgen build` for the files.
    """
    paths = paths_for(games)
    check_targets(paths, paper, None, None)
    settings = Settings(paper.lower(), flip, bleed, back_offset, layout and layout.lower(), rows, guides, where,
                        options.typed("paper"))
    serve(Live(paths, settings, template_dirs, allow_outside, float(dpi)), port, open_browser)


@dataclass(frozen=True)
class Settings:
    """The build options the page offers, and those only the command line gives."""

    paper: str = "a4"
    flip: Flip = "long"
    bleed: float | None = None  # None: each definition's own
    back_offset: tuple[float, float] | None = None  # None: the offset saved for this flip, else 0,0
    layout: str | None = None  # the command line's alone: a deck's layout, rows shown, card guides
    rows: tuple[int, ...] | None = None
    guides: bool = False
    where: str | None = None
    paper_given: bool = False  # typed, or chosen in the page: over the paper a deck names, as in `build`

    def options(self, templates: tuple[Path, ...]) -> BuildOptions:
        offset = self.back_offset or saved_back_offset(self.flip) or (0.0, 0.0)
        return BuildOptions(SHEET_PAPERS[self.paper], self.flip, offset, templates, self.bleed,
                            paper_given=self.paper_given, layout=self.layout, rows=self.rows, guides=self.guides,
                            where=self.where)

    def updated(self, query: str) -> Settings:
        """These settings with the page's changes (`paper=letter&bleed=`); ValueError for a wrong value."""
        try:
            asked = {k: v[-1].strip() for k, v in parse_qs(query, keep_blank_values=True,
                                                           max_num_fields=MAX_QUERY_FIELDS).items()}
        except ValueError:
            raise ValueError("too many settings at once") from None
        changes: dict[str, Any] = {}
        for key, value in asked.items():
            if value.lower() in {"paper": PAPERS, "flip": ("long", "short")}.get(key, ()):
                changes[key] = value.lower()
            elif key == "bleed":
                try:
                    changes[key] = FiniteRange(0, MAX_BLEED_MM).convert(value, None, None) if value else None
                except click.BadParameter:
                    raise ValueError(f"bleed: expected a number of mm from 0 to {MAX_BLEED_MM:g}, or nothing "
                                     f"for each definition's own (got {value[:40]!r})") from None
            elif key == "back_offset":
                try:
                    changes[key] = parse_offset(None, None, value) if value else None
                except click.BadParameter as exc:
                    raise ValueError(f"back offset: {exc.message}") from None
            else:
                raise ValueError(f"{key}: expected paper ({' or '.join(sorted(PAPERS))}), flip (long or short), "
                                 f"bleed or back_offset (got {value[:40]!r})")
        chosen = self.paper_given or changes.get("paper", self.paper) != self.paper
        return replace(self, **changes, paper_given=chosen)

    def shown(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if key != "paper_given"}

    def said(self) -> str:
        """The settings as the command line gives them (`--paper letter --flip short`)."""
        def word(value: Any) -> str:
            return ",".join(map(word, value)) if isinstance(value, tuple) else f"{value:g}" \
                if isinstance(value, float) else shlex.quote(str(value))

        return " ".join(f"--{key.replace('_', '-')}" + ("" if value is True else f" {word(value)}")
                        for key, value in self.shown().items() if value not in (None, False))


@dataclass(eq=False)
class Live:
    """The page's state and the served table, each field replaced whole (by the watch loop, or the
    settings by a request), so a request's thread reads one build or the next."""

    paths: list[Path]
    settings: Settings
    templates: tuple[Path, ...] = ()
    allow_outside: bool = False
    dpi: float = 72.0
    folder: Path = Path()  # where every build is written, made when serving starts
    files: dict[str, Path] = field(default_factory=dict)  # URL path -> a file of the last good build
    games: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    version: int = 0  # goes up after every build, good or not; the page redraws when it does
    status: str = "building"
    asked: threading.Event = field(default_factory=threading.Event)  # the page changed a setting

    def rebuild(self, changed: list[Path]) -> set[Path]:
        """Build every game, as `build` does, into the folder; serve the new files if all built, else
        keep serving the last good ones and show the problems. The files to watch next."""
        if self.asked.is_set() and not changed:
            click.echo(f"printgen: the page changed the settings ({self.settings.said()}); rebuilding", err=True)
        self.asked.clear()
        started, warnings = time.monotonic(), list[str]()

        def warn(text: str) -> None:
            warnings.append(text)
            say_on_stderr(text)

        with build_all(self.paths, self.settings.options(self.templates), self.allow_outside, served_work(self.dpi),
                       watching=True, near=self.folder) as built:
            try:
                write_results(built.settle(warn), self.folder, lambda one: f"printgen: {one.title}: "
                              f"{len(one.files)} pictures and PDFs to show")
            except DefinitionError as exc:
                report(exc, then=" The page keeps the last pages that built.")
                self.problems = exc.report().splitlines()[:MAX_SHOWN]
                self.status = f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''} found"
            else:
                self.files = {f"/files/{game.name}/{name}": self.folder / game.name / name
                              for game in built for name in game.files}
                self.games = [{"title": game.title, "definition": display_name(game.path), "pdfs": [], "decks": [],
                               **(game.extra if isinstance(game.extra, dict) else {})} for game in built]
                self.problems, self.status = [], f"built in {time.monotonic() - started:.1f} s"
                click.echo(f"printgen: {self.status}; watching for changes (Ctrl-C stops)", err=True)
            self.warnings, self.version = warnings, self.version + 1
            return built.watched

    def state_json(self) -> bytes:
        offset = self.settings.back_offset
        return json.dumps({
            "version": self.version, "status": self.status, "problems": self.problems, "warnings": self.warnings,
            "games": self.games, "settings": {**self.settings.shown(), "back_offset": ",".join(
                f"{v:g}" for v in offset) if offset else ""},
            "choices": {"paper": sorted(PAPERS), "flip": ["long", "short"], "max_bleed": MAX_BLEED_MM,
                        "max_back_offset": MAX_BACK_OFFSET_MM}}, ensure_ascii=True).encode()


def serve(live: Live, port: int = 0, open_browser: bool = False, **loop: Any) -> int:
    """Listen, build, and rebuild after every change until Ctrl-C; the number of rebuilds.
    `loop`: test settings for printgen.cli.watch.watch."""
    from printgen.cli.watch import watch

    try:
        server = Loopback(partial(respond, live, page()), port)
    except OSError as exc:
        raise click.BadParameter(f"cannot listen on 127.0.0.1:{port} ({exc.strerror}); leave --port out "
                                 "to take a free port", param_hint="--port")
    server.serving()
    try:
        live.folder = served_folder()
        click.echo(f"printgen: serving at {server.url} (this computer only; Ctrl-C stops)")
        if open_browser:
            import webbrowser

            if not webbrowser.open(server.url):
                click.echo(f"printgen: found no web browser to open; open {server.url} yourself", err=True)
        return watch(live.paths, live.rebuild, "printgen: stopped serving.", asked=live.asked.is_set,
                      **{"sleep": live.asked.wait, **loop})
    finally:
        server.shut()
        remove(str(live.folder))


def served_folder() -> Path:
    """A private folder for this serve's builds, named with its process id; first, those whose
    process is gone (a serve that was killed) are removed."""
    for left in Path(tempfile.gettempdir()).glob(f"{FOLDER}*-*") if os.name == "posix" else ():
        pid = left.name[len(FOLDER):].partition("-")[0]
        with suppress(OSError):  # gone meanwhile
            if pid.isdigit() and left.stat().st_uid == os.getuid() and not alive(int(pid)):
                shutil.rmtree(left, ignore_errors=True)
    return Path(private_folder(FOLDER))  # which names it with this process's id


def respond(live: Live, shown: tuple[bytes, str], path: str, query: str) -> Reply:
    """The answer to GET `path`: the page `shown` (its HTML, its policy), its state, a settings change,
    or a file from the table (looked up as it is, never turned into a file name)."""
    if path == "/":
        return Reply(200, "text/html; charset=utf-8", shown[0], {"Content-Security-Policy": shown[1]})
    if path == "/set":
        try:
            live.settings = live.settings.updated(query)
        except ValueError as exc:  # a value no build takes
            return Reply(400, JSON, json.dumps({"error": str(exc)}).encode())
        live.asked.set()
    if path in ("/state", "/set"):
        return Reply(200, JSON, live.state_json())
    try:
        file = live.files[path]
        return Reply(200, MEDIA.get(file.suffix, "application/octet-stream"), file.read_bytes())
    except (KeyError, OSError):
        return Reply(404, TEXT, b"404 not one of the files this page shows\n")


def page() -> tuple[bytes, str]:
    """The page, and a Content-Security-Policy that lets only its own script and style run."""
    import base64
    import hashlib
    import re
    from importlib import resources

    html = resources.files("printgen.cli").joinpath("serve.html").read_bytes()

    def hashes(tag: str) -> str:
        found = re.findall(rb"<%s>(.*?)</%s>" % (tag.encode(), tag.encode()), html, re.S)
        return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'" for body in found)

    policy = (f"default-src 'none'; script-src {hashes('script')}; style-src {hashes('style')}; "
              "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'")
    return html, policy
