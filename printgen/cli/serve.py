"""`printgen serve`: a browser page of every page and piece the games build, redrawn after every save.

`build --watch`'s loop (printgen.cli.watch) builds every game whole, as `build` does, into one
private folder; the server (printgen.cli.loopback) answers from a table of URL paths to the last good
build's files there, so nothing else on disk is ever served. The folder goes when serve stops; one
left by a serve that was killed goes when the next serve starts. The settings are the command
line's, as in `build`: the page shows them, and serve is started again for others.
"""
from __future__ import annotations

import json
import shlex
import tempfile
import time
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from printgen.cli import options
from printgen.cli.common import MAX_SHOWN, check_targets, paths_for, report
from printgen.cli.engine import back_offset_for, build_all, write_results
from printgen.cli.loopback import TEXT, Loopback, Reply
from printgen.cli.pictures import served_work
from printgen.cli.watch import Reads, watch
from printgen.core.build import BuildOptions
from printgen.core.paper import SHEET_PAPERS, Flip
from printgen.core.problems import DefinitionError, display_name
from printgen.core.staging import private_folder, remove

FOLDER = "printgen-serve-"  # after a dot, then the serving process's id
HERE = Path(__file__).parent
# the page's script and style are files of their own, so the policy allows this server's alone
PAGE = {"/": HERE / "serve.html", "/serve.js": HERE / "serve.js", "/serve.css": HERE / "serve.css"}
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
MEDIA = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".pdf": "application/pdf"}


@click.command("serve")
@options.games
@options.paper
@options.layout
@options.rows
@options.where
@options.guides
@options.flip
@options.back_offset
@options.bleed(None, "Run the art of imposed pieces MM past their cut lines.")
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
    given = BuildOptions(SHEET_PAPERS[paper.lower()], flip, back_offset_for(back_offset, flip), template_dirs,
                         bleed, paper_given=options.typed("paper"), layout=layout and layout.lower(), rows=rows,
                         where=where, guides=guides)
    serve(Live(paths, given, command_line(games, paper, given), allow_outside, float(dpi)), port, open_browser)


def command_line(games: tuple[str, ...], paper: str, given: BuildOptions) -> str:
    """The `printgen serve` command that builds with `given`, shown in the page."""
    words = ["printgen", "serve", *games]
    for folder in given.templates:
        words += ["--templates", str(folder)]
    words += ["--paper", paper.lower()] if given.paper_given else []
    words += ["--flip", given.flip]
    words += ["--bleed", f"{given.bleed:g}"] if given.bleed is not None else []
    words += ["--back-offset", "{:g},{:g}".format(*given.back_offset)] if any(given.back_offset) else []
    words += ["--layout", given.layout] if given.layout else []
    words += ["--rows", ",".join(map(str, given.rows))] if given.rows else []
    words += ["--where", given.where] if given.where else []
    words += ["--guides"] if given.guides else []
    return shlex.join(words)


@dataclass(eq=False)
class Live:
    """What the page shows (`state`, replaced whole after each build, so a request's thread reads one
    build or the next) and the served table."""

    paths: list[Path]
    options: BuildOptions
    command: str = "printgen serve"  # the command line that gives these options, shown in the page
    allow_outside: bool = False
    dpi: float = 72.0
    folder: Path = Path()  # where every build is written, made when serving starts
    files: dict[str, Path] = field(default_factory=dict)  # URL path -> a file of the last good build
    state: dict[str, Any] = field(default_factory=lambda: {  # the page redraws when the version goes up
        "version": 0, "status": "building", "problems": [], "warnings": [], "games": []})
    reads: Reads = field(default_factory=Reads)  # the files each build opens

    def rebuild(self, changed: list[Path]) -> set[Path]:
        """Build every game, as `build` does, into the folder; serve the new files if all built, else
        keep serving the last good ones and show the problems. The files to watch next."""
        started = time.monotonic()
        with build_all(self.paths, self.options, self.allow_outside, served_work(self.dpi), watching=self.reads,
                       near=self.folder) as built:
            state = {**self.state, "version": self.state["version"] + 1, "problems": [],
                     "warnings": [warning for game in built for warning in game.warnings]}
            try:
                write_results(built.settle(), self.folder, lambda one: f"printgen: {one.title}: "
                              f"{len(one.files)} pictures and PDFs to show")
            except DefinitionError as exc:
                report(exc, then=" The page keeps the last pages that built.")
                state["problems"] = exc.report().splitlines()[:MAX_SHOWN]
                state["status"] = f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''} found"
            else:
                self.files = {f"/files/{game.name}/{name}": self.folder / game.name / name
                              for game in built for name in game.files}
                state["games"] = [{"title": game.title, "definition": display_name(game.path), **game.extra}
                                  for game in built]  # the extra: its PDFs and decks (pictures.served_work)
                state["status"] = f"built in {time.monotonic() - started:.1f} s"
                click.echo(f"printgen: {state['status']}; watching for changes (Ctrl-C stops)", err=True)
            self.state = state
            return built.watched

    def answer(self, path: str) -> Reply:
        """The answer to GET `path`: its state, the page (under its policy) and its script and style,
        or a file from the table (looked up as it is, never turned into a file name)."""
        if path == "/state":
            return Reply(200, "application/json", json.dumps({**self.state, "command": self.command}).encode())
        try:
            file = PAGE.get(path) or self.files[path]
            return Reply(200, MEDIA.get(file.suffix, "application/octet-stream"), file.read_bytes(),
                         {"Content-Security-Policy": POLICY} if path == "/" else {})
        except (KeyError, OSError):
            return Reply(404, TEXT, b"404 not one of the files this page shows\n")


def serve(live: Live, port: int = 0, open_browser: bool = False, **loop: Any) -> int:
    """Listen, build, and rebuild after every change until Ctrl-C; the number of rebuilds.
    `loop`: test settings for printgen.cli.watch.watch."""
    try:
        server = Loopback(live.answer, port)
    except OSError as exc:
        raise click.BadParameter(f"cannot listen on 127.0.0.1:{port} ({exc.strerror}); leave --port out "
                                 "to take a free port", param_hint="--port")
    server.serving()
    try:
        live.folder = served_folder()
        click.echo(f"printgen: serving at {server.url} (this computer only; Ctrl-C stops)")
        if open_browser and not webbrowser.open(server.url):
            click.echo(f"printgen: found no web browser to open; open {server.url} yourself", err=True)
        return watch(live.paths, live.rebuild, "printgen: stopped serving.", **loop)
    finally:
        server.shut()
        remove(str(live.folder))


def served_folder() -> Path:
    """A private folder for this serve's builds in the temporary folder, named with its process id;
    first, those whose process is gone (a serve that was killed) are removed, as `build` removes its own."""
    return Path(private_folder(FOLDER, near=Path(tempfile.gettempdir())))
