"""The web server behind `printgen serve`: 127.0.0.1 only, GET only, one request at a time.

It answers requests between the watch loop's looks at the files, in the one thread printgen has,
instead of in threads of a ThreadingHTTPServer. Each rebuild forks the build's worker
(printgen.core.bounded), and a fork is only safe from a process with one thread: a lock another
thread held at that moment stays held for ever in the child. While a build runs, requests wait in
the socket's queue; the page asks again a moment later anyway.

A plain single-threaded HTTPServer reads each connection as soon as it is accepted, so one browser
connection opened ahead of need, or a client that sends nothing, would stall every other request.
Here a connection is read only once it has data (a selector watches them all); each request is
bounded in size and time, and the answer closes the connection. Requests name entries of a table
in memory (printgen.cli.live): the server never opens a file a request names.
"""
from __future__ import annotations

import io
import selectors
import socket
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

HOST = "127.0.0.1"
MAX_HEAD_BYTES = 8192  # the request line and its headers; a browser sends about 1 KiB
REQUEST_SECONDS = 2.0  # to send a request once it has started, and to take the answer
IDLE_SECONDS = 10.0  # a connection that sends nothing for this long is closed
MAX_WAITING = 64  # connections waiting for their first bytes; the oldest is closed beyond that


@dataclass(frozen=True)
class Reply:
    """One answer: status, media type and body; `headers` adds to the ones every answer has."""

    status: int
    content_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


Respond = Callable[[str, str], Reply]  # (the unquoted path, the raw query) -> the answer


def read_head(connection: socket.socket, limit: int = MAX_HEAD_BYTES) -> tuple[bytes, bool]:
    """The request line and headers, up to the blank line that ends them, read within
    REQUEST_SECONDS in all (a client sending a byte at a time cannot hold the one thread longer);
    and whether they were cut at `limit` bytes. TimeoutError when the time is up."""
    deadline = time.monotonic() + REQUEST_SECONDS
    data = b""
    while b"\r\n\r\n" not in data and b"\n\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long to arrive")
        connection.settimeout(left)
        chunk = connection.recv(limit + 1 - len(data))
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            return data[:limit], True
    return data, False


class Handler(BaseHTTPRequestHandler):
    """One request on one connection, then the connection is closed."""

    server: "Loopback"  # type: ignore[assignment]  # not a socketserver, but the same attributes used
    timeout = REQUEST_SECONDS
    error_content_type = "text/plain; charset=utf-8"
    error_message_format = "%(code)d %(message)s: %(explain)s\n"

    def version_string(self) -> str:
        return "printgen"

    def handle(self) -> None:
        self.close_connection = True
        self.handle_one_request()

    def handle_one_request(self) -> None:
        head, cut = read_head(self.connection)
        self.connection.settimeout(REQUEST_SECONDS)  # for the answer: sendall's time in all
        self.rfile = io.BytesIO(head)  # the parser reads the head from here; a body is never read
        self.raw_requestline = self.rfile.readline(MAX_HEAD_BYTES + 1)
        if not self.raw_requestline:
            return
        if cut and not self.raw_requestline.endswith(b"\n"):
            self.requestline = self.request_version = self.command = ""
            self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
            return
        if not self.parse_request():  # a malformed request line or header: answered already
            return
        if cut:
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
        elif self.command != "GET":
            self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
            self.finish_reply(Reply(405, "text/plain; charset=utf-8", b"405 only GET is answered\n",
                                    {"Allow": "GET"}))
        elif self.headers.get("Host", "") not in self.server.hosts:
            # a page from elsewhere reaching 127.0.0.1 through a name it controls (DNS rebinding)
            self.send_error(HTTPStatus.FORBIDDEN, "answered only as " + " or ".join(self.server.hosts))
        elif self.headers.get("Sec-Fetch-Site", "none") not in ("same-origin", "none"):
            # a page of another site making the browser ask (a picture or a settings change);
            # browsers say so in this header, and an address typed or bookmarked is "none"
            self.send_error(HTTPStatus.FORBIDDEN, "answered only to its own page")
        elif not self.path.startswith("/"):
            self.send_error(HTTPStatus.NOT_FOUND)
        else:
            parts = urlsplit(self.path)
            reply = self.server.respond(unquote(parts.path, errors="replace"), parts.query)
            self.send_response(reply.status)
            self.finish_reply(reply)

    def finish_reply(self, reply: Reply) -> None:
        for name, value in {"Content-Type": reply.content_type, "Content-Length": str(len(reply.body)),
                            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                            "Referrer-Policy": "no-referrer", "Connection": "close",
                            **reply.headers}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the name http.server uses
        """Quiet: a request for every picture twice a second would bury printgen's own messages."""


class Loopback:
    """A listening socket on 127.0.0.1 and the connections waiting on it, served on demand."""

    def __init__(self, respond: Respond, port: int = 0) -> None:
        self.respond = respond
        self.socket = socket.create_server((HOST, port))  # no SO_REUSEPORT: a port in use fails
        self.socket.setblocking(False)
        self.port: int = self.socket.getsockname()[1]
        self.hosts = (f"{HOST}:{self.port}", f"localhost:{self.port}")
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.socket, selectors.EVENT_READ, None)
        self.waiting: dict[socket.socket, float] = {}  # connection -> when it was accepted

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def serve_for(self, seconds: float, until: Callable[[], bool] = lambda: False) -> None:
        """Answer requests for `seconds`, or until `until()` says to stop sooner."""
        deadline = time.monotonic() + seconds
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            for key, _ in self.selector.select(min(left, 1.0)):
                if key.data is None:
                    self.accept()
                else:
                    self.answer(key.fileobj)  # type: ignore[arg-type]
            self.drop_idle()

    def accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, a connection reset before it was taken
                return
            self.waiting[connection] = time.monotonic()
            self.selector.register(connection, selectors.EVENT_READ, "connection")
            if len(self.waiting) > MAX_WAITING:
                self.close(min(self.waiting, key=self.waiting.__getitem__))

    def answer(self, connection: socket.socket) -> None:
        self.selector.unregister(connection)
        self.waiting.pop(connection, None)
        connection.setblocking(True)
        try:
            Handler(connection, connection.getpeername(), self)  # type: ignore[arg-type]
            connection.shutdown(socket.SHUT_WR)
        except OSError:  # the client went away or stopped reading: its loss alone
            pass
        finally:
            connection.close()

    def drop_idle(self) -> None:
        now = time.monotonic()
        for connection, since in list(self.waiting.items()):
            if now - since > IDLE_SECONDS:
                self.close(connection)

    def close(self, connection: socket.socket) -> None:
        self.selector.unregister(connection)
        self.waiting.pop(connection, None)
        connection.close()

    def shut(self) -> None:
        """Close every connection and the listening socket."""
        for connection in list(self.waiting):
            self.close(connection)
        self.selector.close()
        self.socket.close()
