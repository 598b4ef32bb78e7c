"""The web server behind `printgen serve`: 127.0.0.1 only, GET only, one request at a time.

It runs in printgen's one thread, between the watch loop's looks at the files, because a fork (each
build's worker) is only safe from a process with one thread. A selector and per-connection
deadlines keep any client from holding that thread (docs/live-preview.md).
"""
from __future__ import annotations

import http.client
import io
import selectors
import socket
import time
from dataclasses import dataclass, field, replace
from email.utils import formatdate
from http import HTTPStatus
from typing import Callable
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


def error(status: int, explain: str = "") -> Reply:
    phrase = HTTPStatus(status).phrase
    return Reply(status, "text/plain; charset=utf-8", f"{status} {phrase}: {explain or phrase}\n".encode())


def answer(head: bytes, cut: bool, hosts: tuple[str, ...], respond: Respond) -> bytes:
    """The whole answer, status line and headers and body, to a request `head` (cut at
    MAX_HEAD_BYTES if `cut`) for a server known as one of `hosts`."""
    line, ended, rest = head.partition(b"\n")
    words = line.decode("latin-1").split()
    origins = tuple(f"http://{host}" for host in hosts)
    try:
        headers = http.client.parse_headers(io.BytesIO(rest))
    except (http.client.HTTPException, ValueError):
        headers = None
    if cut and not ended:
        reply = error(414)
    elif len(words) != 3 or not words[2].startswith("HTTP/") or headers is None:
        reply = error(400, "not a request this server reads")
    elif cut:
        reply = error(431)
    elif words[0] != "GET":
        reply = replace(error(405, "only GET is answered"), headers={"Allow": "GET"})
    elif headers.get("Host", "") not in hosts:
        # a page from elsewhere reaching 127.0.0.1 through a name it controls (DNS rebinding)
        reply = error(403, "answered only as " + " or ".join(hosts))
    elif (headers.get("Sec-Fetch-Site", "none") not in ("same-origin", "none")
          or headers.get("Origin", origins[0]) not in origins
          or not headers.get("Referer", origins[0] + "/").startswith(tuple(o + "/" for o in origins))):
        # another site's page making the browser ask; a typed or bookmarked address sends none of these
        reply = error(403, "answered only to its own page")
    elif not words[1].startswith("/"):
        reply = error(404)
    else:
        parts = urlsplit(words[1])
        reply = respond(unquote(parts.path, errors="replace"), parts.query)
    fields = {"Server": "printgen", "Date": formatdate(usegmt=True), "Content-Type": reply.content_type,
              "Content-Length": str(len(reply.body)), "Cache-Control": "no-store",
              "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Connection": "close",
              **reply.headers}
    return "".join([f"HTTP/1.0 {reply.status} {HTTPStatus(reply.status).phrase}\r\n",
                    *(f"{name}: {value}\r\n" for name, value in fields.items()), "\r\n"]).encode() + reply.body


@dataclass
class Connection:
    """One client's connection: what it sent so far, what is left to send it, and until when."""

    deadline: float  # closed, unanswered or half-answered, once this time passes
    head: bytes = b""
    answer: memoryview | None = None  # once the request is whole


class Loopback:
    """A listening socket on 127.0.0.1 and its connections, served only when the watch loop sleeps."""

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
                    state.answer = memoryview(answer(state.head[:MAX_HEAD_BYTES], cut, self.hosts, self.respond))
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
        for connection in list(self.waiting):
            self.close(connection)
        self.selector.close()
        self.socket.close()
