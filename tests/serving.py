"""`printgen serve` of a small deck in a process of its own, as a user starts it, for the tests of
the page: the address it prints, requests by HTTP, and waiting for the page's state to move on."""
from __future__ import annotations

import http.client
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from printgen.games import bundled_definition

WAIT_SECONDS = 90  # only a limit for a server that never answers; nothing here is timed
LAUNCH = "import sys\nfrom printgen.launch import main\nsys.argv[0] = 'printgen'\nmain()\n"


def small_deck(folder: Path) -> Path:
    """The bundled Potion Shop deck, cut to its first two rows (five cards: one sheet, two pages),
    copied into `folder` as potion.yaml with its CSV, icons, pictures and back template, without
    its rulebook and reference card (which name all eight potions)."""
    bundled = bundled_definition("deck").parent
    folder.mkdir(parents=True, exist_ok=True)
    for name in [*(p.name for p in bundled.glob("*.svg")), "back.svg.j2"]:  # its icons, as the deck names them
        shutil.copyfile(bundled / name, folder / name)
    shutil.copytree(bundled / "potions", folder / "potions", dirs_exist_ok=True)
    rows = (bundled / "cards.csv").read_text().splitlines()
    (folder / "cards.csv").write_text("\n".join(rows[:3]) + "\n")
    text = (bundled / "deck.yaml").read_text()
    (folder / "potion.yaml").write_text(re.sub(r"^(rules|reference):.*\n(?:  .*\n)*", "", text, flags=re.M))
    return folder / "potion.yaml"


def save(path: Path, text: str) -> None:
    """Rewrite a file so that its stamp surely changes, even on a coarse-clock file system."""
    before = path.stat().st_mtime_ns
    path.write_text(text)
    if path.stat().st_mtime_ns == before:
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def swap(path: Path, old: str, new: str) -> None:
    """`save` the file with `old`, which it must hold once, replaced: an edit never misses silently."""
    text = path.read_text()
    assert text.count(old) == 1, (path, old)
    save(path, text.replace(old, new))


class Served:
    """A running `printgen serve ARGS` in `folder` (its working directory)."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.folder = folder
        self.log = open(folder / "serve.log", "w+")
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve", *args], cwd=folder,
                                        stdout=subprocess.PIPE, stderr=self.log, start_new_session=True)
        line = self.first_line()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, f"no address in {line!r}; stderr: {self.stderr()}"
        self.port = int(found.group(1))
        self.url = found.group(0)

    def first_line(self) -> str:
        assert self.process.stdout is not None
        out = b""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            deadline = time.monotonic() + WAIT_SECONDS
            while b"\n" not in out and time.monotonic() < deadline:
                if selector.select(1.0):
                    chunk = os.read(self.process.stdout.fileno(), 4096)
                    if not chunk:
                        break
                    out += chunk
        return out.decode(errors="replace")

    def stderr(self) -> str:
        self.log.flush()
        return (self.folder / "serve.log").read_text()

    def get(self, path: str, host: str | None = None, **headers: str) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT_SECONDS)
        try:
            connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", host or f"127.0.0.1:{self.port}")
            for name, value in headers.items():
                connection.putheader(name.replace("_", "-"), value)
            connection.endheaders()
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            connection.close()

    def state(self) -> dict[str, Any]:
        status, _, body = self.get("/state")
        assert status == 200
        return json.loads(body)

    def wait(self, ready: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The page's state once `ready` holds for it (asked for as the page asks, again and again)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            state = self.state()
            if ready(state):
                return state
            time.sleep(0.1)
        raise AssertionError(f"{what}: not seen; stderr: {self.stderr()}")

    def built_in(self) -> list[Path]:
        """The private folder its builds are written to, while it runs (named with its process id)."""
        return list(Path(tempfile.gettempdir()).glob(f".printgen-serve-{self.process.pid}-*"))

    def stop(self, signum: int = signal.SIGINT) -> tuple[int, str]:
        """Stop it as a terminal's Ctrl-C does (the whole process group); its exit code and stderr."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signum)
        code = self.process.wait(timeout=WAIT_SECONDS)
        assert self.process.stdout is not None
        self.process.stdout.close()
        err = self.stderr()
        self.log.close()
        return code, err


def raw_request(port: int, data: bytes) -> bytes:
    """Send bytes as they are (no client tidies the path) and read the whole answer."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def stop_all_in_session(process: subprocess.Popen) -> None:
    """Kill what is left of a test's server, should a test have failed before stopping it."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
