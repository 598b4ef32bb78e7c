"""The web server behind `printgen serve`: 127.0.0.1 only, GET only, one request at a time.

It answers requests between the watch loop's looks at the files, in the one thread printgen has,
instead of in threads of a ThreadingHTTPServer. Each rebuild forks the build's worker
(printgen.core.bounded), and a fork is only safe from a process with one thread: a lock another
thread held at that moment stays held for ever in the child. While a build runs, requests wait in
the socket's queue; the page asks again a moment later anyway.

No connection can hold the thread: a selector watches them all, and each is read and written only
as far as it is ready, never waited on. Each has deadlines (its first byte within IDLE_SECONDS, its
whole request within REQUEST_SECONDS of that, its answer taken within ANSWER_SECONDS), and at most
MAX_CONNECTIONS are held at once, the oldest closed beyond that; so clients that dribble a byte at
a time delay a normal request by a few milliseconds, not by their number times their patience.
The answer closes the connection. Requests name entries of a table in memory (printgen.cli.live):
the server never opens a file a request names.
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
IDLE_SECONDS = 10.0  # a connection that sends nothing for this long is closed
REQUEST_SECONDS = 2.0  # to send the whole request once its first byte came
ANSWER_SECONDS = 10.0  # to take the whole answer (a big PDF over loop-back takes milliseconds)
MAX_CONNECTIONS = 32  # held at once; the oldest is closed beyond that


@dataclass(frozen=True)
class Reply:
    """One answer: status, media type and body; `headers` adds to the ones every answer has."""

    status: int
    content_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


Respond = Callable[[str, str], Reply]  # (the unquoted path, the raw query) -> the answer


class Handler(BaseHTTPRequestHandler):
    """The answer to one request head, given whole: the parser reads it from memory and the answer
    is written to memory (`wfile`), for the server to send as the client takes it."""

    server: "Loopback"  # type: ignore[assignment]  # not a socketserver, but the same attributes used
    error_content_type = "text/plain; charset=utf-8"
    error_message_format = "%(code)d %(message)s: %(explain)s\n"

    def __init__(self, head: bytes, cut: bool, server: "Loopback") -> None:
        self.rfile, self.answer, self.cut, self.server = io.BytesIO(head), io.BytesIO(), cut, server
        self.wfile = self.answer
        self.client_address = (HOST, 0)
        self.close_connection = True
        self.handle_one_request()

    def version_string(self) -> str:
        return "printgen"

    def handle_one_request(self) -> None:
        self.raw_requestline = self.rfile.readline(MAX_HEAD_BYTES + 1)
        if not self.raw_requestline:
            return
        if self.cut and not self.raw_requestline.endswith(b"\n"):
            self.requestline = self.request_version = self.command = ""
            self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
            return
        if not self.parse_request():  # a malformed request line or header: answered already
            return
        origins = tuple(f"http://{host}" for host in self.server.hosts)
        referer = self.headers.get("Referer")
        if self.cut:
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
        elif self.command != "GET":
            self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
            self.finish_reply(Reply(405, "text/plain; charset=utf-8", b"405 only GET is answered\n",
                                    {"Allow": "GET"}))
        elif self.headers.get("Host", "") not in self.server.hosts:
            # a page from elsewhere reaching 127.0.0.1 through a name it controls (DNS rebinding)
            self.send_error(HTTPStatus.FORBIDDEN, "answered only as " + " or ".join(self.server.hosts))
        elif (self.headers.get("Sec-Fetch-Site", "none") not in ("same-origin", "none")
              or self.headers.get("Origin", origins[0]) not in origins
              or (referer is not None and not referer.startswith(tuple(o + "/" for o in origins)))):
            # a page of another site making the browser ask (a picture or a settings change):
            # browsers say so in Sec-Fetch-Site, older ones only in Origin or Referer; an address
            # typed or bookmarked sends none of them (and the page itself sends no Referer)
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


@dataclass
class Connection:
    """One client's connection: what it sent so far, what is left to send it, and until when."""

    deadline: float  # closed, unanswered or half-answered, once this time passes
    head: bytes = b""
    answer: memoryview | None = None  # once the request is whole


class Loopback:
    """A listening socket on 127.0.0.1 and the connections on it, served on demand."""

    def __init__(self, respond: Respond, port: int = 0) -> None:
        self.respond = respond
        self.socket = socket.create_server((HOST, port))  # no SO_REUSEPORT: a port in use fails
        self.socket.setblocking(False)
        self.port: int = self.socket.getsockname()[1]
        self.hosts = (f"{HOST}:{self.port}", f"localhost:{self.port}")
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.socket, selectors.EVENT_READ)
        self.waiting: dict[socket.socket, Connection] = {}  # in the order accepted

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
            for key, _ in self.selector.select(min(left, 0.25)):
                if key.fileobj is self.socket:
                    self.accept()
                elif key.fileobj in self.waiting:
                    self.step(key.fileobj)
            now = time.monotonic()
            for connection, state in list(self.waiting.items()):
                if now > state.deadline:
                    self.close(connection)

    def accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:  # none left to take, out of file descriptors, reset before taken
                return
            connection.setblocking(False)
            self.waiting[connection] = Connection(time.monotonic() + IDLE_SECONDS)
            self.selector.register(connection, selectors.EVENT_READ)
            if len(self.waiting) > MAX_CONNECTIONS:
                self.close(next(iter(self.waiting)))

    def step(self, connection: socket.socket) -> None:
        """Read what the client sent, or send what it can take; never waits."""
        state = self.waiting[connection]
        try:
            if state.answer is None:
                chunk = connection.recv(MAX_HEAD_BYTES + 1 - len(state.head))
                if not chunk:
                    return self.close(connection)
                if not state.head:
                    state.deadline = time.monotonic() + REQUEST_SECONDS
                state.head += chunk
                cut = len(state.head) > MAX_HEAD_BYTES
                if cut or b"\r\n\r\n" in state.head or b"\n\n" in state.head:
                    handler = Handler(state.head[:MAX_HEAD_BYTES], cut, self)
                    state.answer = memoryview(handler.answer.getvalue())
                    state.deadline = time.monotonic() + ANSWER_SECONDS
                    self.selector.modify(connection, selectors.EVENT_WRITE)
            else:
                state.answer = state.answer[connection.send(state.answer):]
            if state.answer is not None and not state.answer:
                connection.shutdown(socket.SHUT_WR)
                self.close(connection)
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:  # the client went away: its loss alone
            self.close(connection)

    def close(self, connection: socket.socket) -> None:
        self.selector.unregister(connection)
        del self.waiting[connection]
        connection.close()

    def shut(self) -> None:
        """Close every connection and the listening socket."""
        for connection in list(self.waiting):
            self.close(connection)
        self.selector.close()
        self.socket.close()
