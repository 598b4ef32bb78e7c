"""A headless Chromium driven through chromedriver's W3C WebDriver protocol, with the standard
library alone.

The protocol is JSON over HTTP, and a test needs five of its calls (start a session, open a page, run
a script, take a screenshot, end the session), so a client library such as selenium (about 10 MB
installed, with a driver manager that may try to download drivers) would add more than it saves.
"""
from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
START_SECONDS = 60
MISSING = None if Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file() else (
    f"no Chromium here ({CHROMIUM}, {CHROMEDRIVER}); on Debian: apt-get install chromium "
    "chromium-driver (.ci/run installs them)")


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


class Browser:
    """One chromedriver and one headless Chromium session, with a profile in `folder`."""

    def __init__(self, folder: Path, width: int = 1280, height: int = 1000) -> None:
        port = free_port()
        self.log = open(folder / "chromedriver.log", "w")
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=self.log,
                                       stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or self.driver.poll() is not None:
                    self.close()
                    raise
            time.sleep(0.05)
        arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--force-device-scale-factor=1", "--hide-scrollbars",
                     f"--user-data-dir={folder / 'profile'}", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync"]
        capabilities = {"browserName": "chrome",
                        "goog:chromeOptions": {"binary": CHROMIUM, "args": arguments}}
        try:
            started = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        except BaseException:
            self.close()
            raise
        self.session = f"/session/{started['sessionId']}"

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=START_SECONDS) as answer:
                return json.loads(answer.read())["value"]
        except urllib.error.HTTPError as error:  # the driver's own message says what went wrong
            raise AssertionError(f"{method} {path}: {error.read().decode(errors='replace')[:2000]}")

    def open(self, url: str) -> None:
        self.call("POST", f"{self.session}/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        """The value the script returns (it runs as a function body in the page)."""
        return self.call("POST", f"{self.session}/execute/sync", {"script": script, "args": list(args)})

    def wait_for(self, script: str, what: str, seconds: float = START_SECONDS) -> Any:
        """The script's value once it is truthy, asked again and again (a limit, not a timing)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.run(script)
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"{what}: not seen in the page")

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("GET", f"{self.session}/screenshot"))

    def close(self) -> None:
        try:
            if self.session:
                self.call("DELETE", self.session)
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=START_SECONDS)
            self.log.close()
