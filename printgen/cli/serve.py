"""`printgen serve`: a browser page of every page and piece the games build, redrawn after every save.

`build --watch`'s loop (printgen.cli.watch), with the server (printgen.cli.loopback) answering
between two looks at the files; the page's state is printgen.cli.live.
"""
from __future__ import annotations

from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from printgen.cli import options
from printgen.cli.common import check_targets, paths_for
from printgen.core.paper import Flip

if TYPE_CHECKING:
    from printgen.cli.live import Live
    from printgen.cli.loopback import Reply

JSON = "application/json"


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
    bundled game is shown. Nothing is written to disk: use `printgen build` for the files.
    """
    from printgen.cli.live import Live, Settings

    paths = paths_for(games)
    check_targets(paths, paper, None, None)
    settings = Settings(paper.lower(), flip, back_offset, bleed, layout and layout.lower(), rows, guides, where)
    live = Live(paths, settings, template_dirs, allow_outside, float(dpi))
    serve(live, port, open_browser)


def serve(live: Live, port: int = 0, open_browser: bool = False, **loop: Any) -> int:
    """Listen, build, and rebuild after every change until Ctrl-C; returns the number of rebuilds.
    `loop`: test settings for printgen.cli.watch.watch."""
    from printgen.cli.loopback import Loopback
    from printgen.cli.watch import follow

    try:
        server = Loopback(partial(respond, live), port)
    except OSError as exc:
        raise click.BadParameter(f"cannot listen on 127.0.0.1:{port} ({exc.strerror}); leave --port out "
                                 "to take a free port", param_hint="--port")
    try:
        click.echo(f"printgen: serving at {server.url} (this computer only; Ctrl-C stops)")
        if open_browser:
            import webbrowser

            if not webbrowser.open(server.url):
                click.echo(f"printgen: found no web browser to open; open {server.url} yourself", err=True)
        return follow(live.paths, live.rebuild, "printgen: stopped serving.", asked=lambda: live.pending,
                      sleep=lambda seconds: server.serve_for(seconds, until=lambda: live.pending), **loop)
    finally:
        server.shut()
        live.kept.__exit__()  # the last build's folders


def respond(live: Live, path: str, query: str) -> Reply:
    """The answer to GET `path`: the page, its state, a settings change, or a file from the table
    (looked up as it is, never turned into a file name)."""
    import json

    from printgen.cli.live import SettingRefused
    from printgen.cli.loopback import Reply

    if path == "/":
        html, policy = page()
        return Reply(200, "text/html; charset=utf-8", html, {"Content-Security-Policy": policy})
    if path == "/state":
        return Reply(200, JSON, live.state_json())
    if path == "/set":
        try:
            live.change(query)
        except SettingRefused as exc:
            return Reply(400, JSON, json.dumps({"error": str(exc)}).encode())
        return Reply(200, JSON, live.state_json())
    found = live.file(path)
    if found is None:
        return Reply(404, "text/plain; charset=utf-8", b"404 not one of the files this page shows\n")
    return Reply(200, *found)


@lru_cache(maxsize=1)
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
