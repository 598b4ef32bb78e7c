"""`printgen serve`: a browser page of every page and piece the games build, redrawn after every save.

`build --watch`'s loop (printgen.cli.watch) builds every game whole, as `build` does, into a private
folder, removed when serve stops (or by the next serve). The standard library's threaded HTTP server
answers GETs on 127.0.0.1 from a table of URL paths to the last good build's files, and nothing else.
Its threads are bounded in time and bytes, never write to stderr (a build's worker forked meanwhile
would inherit that lock held) and never take Ctrl-C, which stays with the main thread.
"""
from __future__ import annotations

import io
import json
import shlex
import signal
import socket
import tempfile
import threading
import time
import webbrowser
from contextlib import suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, NamedTuple
from urllib.parse import unquote

import click

from printgen.cli import options
from printgen.cli.common import MAX_SHOWN, check_targets, paths_for, report
from printgen.cli.engine import back_offset_for, build_all, write_results
from printgen.cli.pictures import served_work
from printgen.cli.watch import Reads, watch
from printgen.core.build import BuildOptions
from printgen.core.paper import SHEET_PAPERS, Flip
from printgen.core.problems import DefinitionError, display_name
from printgen.core.staging import private_folder, remove

HERE = Path(__file__).parent
# the page's script and style are files of their own, so the policy allows this server's alone
PAGE = {"/": HERE / "serve.html", "/serve.js": HERE / "serve.js", "/serve.css": HERE / "serve.css"}
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
MEDIA = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".pdf": "application/pdf"}
HOST = "127.0.0.1"
MAX_HEAD_BYTES = 8192  # the request line and its headers; a browser sends about 1 KiB
IDLE_SECONDS = 10.0  # a connection that sends nothing for this long is closed
REQUEST_SECONDS = 2.0  # to send the whole request once its first byte came
ANSWER_SECONDS = 10.0  # to take the whole answer (a big PDF over loop-back takes milliseconds)
MAX_CONNECTIONS = 32  # held at once; the oldest is closed beyond that
TEXT = "text/plain; charset=utf-8"


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


def serve(live: Live, port: int = 0, open_browser: bool = False, sleep: Callable[[float], Any] | None = None) -> int:
    """Listen, build, and rebuild after every change until Ctrl-C; the number of rebuilds."""
    try:
        server = Loopback(live.answer, port)
    except OSError as exc:
        raise click.BadParameter(f"cannot listen on 127.0.0.1:{port} ({exc.strerror}); leave --port out "
                                 "to take a free port", param_hint="--port")
    server.serving()
    try:
        # .printgen-serve-PID-... in the temporary folder; first, those of serves since killed are removed
        live.folder = Path(private_folder("printgen-serve-", near=Path(tempfile.gettempdir())))
        click.echo(f"printgen: serving at {server.url} (this computer only; Ctrl-C stops)")
        if open_browser and not webbrowser.open(server.url):
            click.echo(f"printgen: found no web browser to open; open {server.url} yourself", err=True)
        return watch(live.paths, live.rebuild, "printgen: stopped serving.", sleep)
    finally:
        server.shut()
        remove(str(live.folder))


class Reply(NamedTuple):
    status: int
    content_type: str
    body: bytes
    headers: dict[str, str] = {}  # besides those every answer has


def read_head(connection: socket.socket) -> bytes:
    """The request line and headers, cut after MAX_HEAD_BYTES; TimeoutError for a client silent for
    IDLE_SECONDS or still sending REQUEST_SECONDS after its first byte, however it dribbles."""
    head, deadline = b"", 0.0
    connection.settimeout(IDLE_SECONDS)
    while len(head) <= MAX_HEAD_BYTES and b"\r\n\r\n" not in head and b"\n\n" not in head:
        chunk = connection.recv(MAX_HEAD_BYTES + 1 - len(head))
        if not chunk:
            return b""
        deadline, head = deadline or time.monotonic() + REQUEST_SECONDS, head + chunk
        connection.settimeout(max(deadline - time.monotonic(), 0.001))
    return head


class Handler(BaseHTTPRequestHandler):
    server: Loopback
    error_content_type = TEXT
    error_message_format = "%(code)d %(message)s: %(explain)s\n"
    default_request_version = "HTTP/1.0"  # what an error is answered in, also to a line unread

    def handle(self) -> None:
        """One request: its head read whole within its time, then parsed by http.server; a client too
        slow, gone or silent is closed unanswered."""
        try:
            head = read_head(self.connection)
        except OSError:
            return
        self.connection.settimeout(ANSWER_SECONDS)  # sendall's whole answer, not each piece of it
        self.rfile.close()
        self.rfile = io.BytesIO(head[:MAX_HEAD_BYTES])
        self.command, self.request_version, self.requestline = "", self.default_request_version, ""
        if len(head) > MAX_HEAD_BYTES:
            return self.send_error(414 if b"\n" not in head[:MAX_HEAD_BYTES] else 431)
        self.raw_requestline = self.rfile.readline()
        if not self.parse_request():  # nothing sent, or 400 and its kin, said by http.server
            return
        status, content_type, body, headers = self.answer()
        self.send_response(status)
        for name, value in {"Content-Type": content_type, "Content-Length": str(len(body)),
                            "Connection": "close", **headers}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def answer(self) -> Reply:
        origins = self.server.origins
        if self.command != "GET":
            return Reply(405, TEXT, b"405: only GET is answered\n", {"Allow": "GET"})
        if f"http://{self.headers.get('Host', '')}" not in origins:
            # a page from elsewhere reaching 127.0.0.1 through a name it controls (DNS rebinding)
            return Reply(403, TEXT, f"403: answered only at {' or '.join(origins)}\n".encode())
        if (self.headers.get("Sec-Fetch-Site", "none") not in ("same-origin", "none")
                or self.headers.get("Origin", origins[0]) not in origins
                or not self.headers.get("Referer", origins[0] + "/").startswith(tuple(o + "/" for o in origins))):
            # another site's page making the browser ask; a typed or bookmarked address sends none of these
            return Reply(403, TEXT, b"403: answered only to its own page\n")
        if not self.path.startswith("/"):  # `*` or an absolute URL, which no browser sends here
            return Reply(404, TEXT, b"404\n")
        return self.server.respond(unquote(self.path.partition("?")[0], errors="replace"))  # the query left out

    def end_headers(self) -> None:
        for name, value in (("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                            ("Referrer-Policy", "no-referrer")):
            self.send_header(name, value)
        super().end_headers()

    def version_string(self) -> str:
        return "printgen"

    def log_message(self, format: str, *args: Any) -> None:
        """Said nowhere: see the module's docstring."""


class Loopback(ThreadingHTTPServer):
    """127.0.0.1:`port`, answering `respond(unquoted path)` in a thread per connection once `serving`."""

    block_on_close = False  # server_close does not wait for the connections' threads (daemons already)

    def __init__(self, respond: Callable[[str], Reply], port: int = 0) -> None:
        self.respond = respond
        self.held: list[socket.socket] = []  # the connections open, oldest first
        self.lock = threading.Lock()
        super().__init__((HOST, port), Handler)  # SO_REUSEADDR, not SO_REUSEPORT: a port in use fails
        self.port: int = self.server_address[1]
        self.origins = (f"http://{HOST}:{self.port}", f"http://localhost:{self.port}")
        self.url = self.origins[0] + "/"

    def serving(self) -> None:
        """Answer in a thread of its own that blocks Ctrl-C and SIGTERM, as the threads it starts do,
        so that they reach the main thread even while it waits for a build."""
        stops = {signal.SIGINT, signal.SIGTERM}
        held = signal.pthread_sigmask(signal.SIG_BLOCK, stops) if hasattr(signal, "pthread_sigmask") else None
        threading.Thread(target=self.serve_forever, args=(0.1,), daemon=True).start()
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.lock:
            self.held.append(request)
            if len(self.held) > MAX_CONNECTIONS:
                with suppress(OSError):  # its thread reads the end and closes it
                    self.held.pop(0).shutdown(socket.SHUT_RDWR)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.lock, suppress(ValueError):  # not held: closed as the oldest
            self.held.remove(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is its loss alone; nothing is said (see the module's docstring)."""

    def shut(self) -> None:
        self.shutdown()
        self.server_close()
