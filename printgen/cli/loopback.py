"""The web server behind `printgen serve`: the standard library's threaded HTTP server on 127.0.0.1,
GET only, one request per connection, each connection's thread bounded in time and bytes.

Its threads never write to stderr (a build's worker forked meanwhile would inherit that lock held)
and never take Ctrl-C, which stays with the main thread (docs/ARCHITECTURE.md).
"""
from __future__ import annotations

import io
import signal
import socket
import threading
import time
from contextlib import suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, NamedTuple
from urllib.parse import unquote

HOST = "127.0.0.1"
MAX_HEAD_BYTES = 8192  # the request line and its headers; a browser sends about 1 KiB
IDLE_SECONDS = 10.0  # a connection that sends nothing for this long is closed
REQUEST_SECONDS = 2.0  # to send the whole request once its first byte came
ANSWER_SECONDS = 10.0  # to take the whole answer (a big PDF over loop-back takes milliseconds)
MAX_CONNECTIONS = 32  # held at once; the oldest is closed beyond that
TEXT = "text/plain; charset=utf-8"


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
        hosts, origins = self.server.hosts, self.server.origins
        if self.command != "GET":
            return Reply(405, TEXT, b"405: only GET is answered\n", {"Allow": "GET"})
        if self.headers.get("Host", "") not in hosts:
            # a page from elsewhere reaching 127.0.0.1 through a name it controls (DNS rebinding)
            return Reply(403, TEXT, f"403: answered only as {' or '.join(hosts)}\n".encode())
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
    """A listening socket on 127.0.0.1 that answers `respond(unquoted path)` in a thread per
    connection once `serving`."""

    daemon_threads, block_on_close = True, False

    def __init__(self, respond: Callable[[str], Reply], port: int = 0) -> None:
        self.respond = respond
        self.held: list[socket.socket] = []  # the connections open, oldest first
        self.lock = threading.Lock()
        super().__init__((HOST, port), Handler)  # SO_REUSEADDR, not SO_REUSEPORT: a port in use fails
        self.port: int = self.server_address[1]
        self.hosts = (f"{HOST}:{self.port}", f"localhost:{self.port}")
        self.origins = tuple(f"http://{host}" for host in self.hosts)
        self.url = f"http://{HOST}:{self.port}/"

    def serving(self) -> None:
        """Answer in a thread of its own that blocks Ctrl-C and SIGTERM, as the threads it starts do,
        so that they reach the main thread even while it waits for a build."""
        stops = {signal.SIGINT, signal.SIGTERM}
        held = signal.pthread_sigmask(signal.SIG_BLOCK, stops) if hasattr(signal, "pthread_sigmask") else None
        try:
            threading.Thread(target=self.serve_forever, args=(0.1,), daemon=True).start()
        finally:
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
        with self.lock:
            if request in self.held:
                self.held.remove(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is its loss alone; nothing is said (see the module's docstring)."""

    def shut(self) -> None:
        self.shutdown()
        self.server_close()
