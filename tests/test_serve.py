"""`printgen serve`: the page, its pictures and PDFs from a real server on a free port; a saved
change redraws the pictures, a broken definition is shown located and keeps the last pictures, the
command line's settings build what `build` builds; requests for anything outside the served table, other methods, other hosts
and oversized requests are refused; Ctrl-C ends it cleanly. The loop-back server's own behaviour
is tested in-process, without a build.

One server of a two-row deck serves the whole module (each build costs about a second); the tests
run in order on it, one of them in headless Chromium, and the last one stops it with Ctrl-C.
"""
from __future__ import annotations

import io
import math
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from browser import MISSING, START_SECONDS, Browser
from serving import Served, raw_request, save, small_deck, stop_all_in_session, swap
from printgen.cli import serve as serve_module
from printgen.cli.serve import Live, Loopback, Reply, serve
from printgen.core.build import BuildOptions
from printgen.core.paper import PAPERS
from test_signals import session_members

pytestmark = pytest.mark.xdist_group("serve")  # one server for the module's tests, in their order

DPI = 72  # the default: the screenshot in the docs shows pages as a user sees them
A4_PX = tuple(math.ceil(mm / 25.4 * DPI) for mm in (210, 297))
POKER_PX = (375, 525)  # 2.5 x 3.5 in at the pieces' fixed 150 dpi
SECRET = "TOP-SECRET-4471"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    home = tmp_path_factory.mktemp("serve")
    (home / "secret.txt").write_text(SECRET)  # beside the deck's folder, not in it
    definition = small_deck(home / "potion")
    (definition.parent / "link.txt").symlink_to(home / "secret.txt")
    server = Served(definition.parent, "potion.yaml", "--dpi", str(DPI))
    server.wait(lambda s: s["version"] >= 1, "the first build")
    yield server
    stop_all_in_session(server.process)


def png(served: Served, src: str) -> Image.Image:
    status, headers, body = served.get(src)
    assert status == 200 and headers["content-type"] == "image/png"
    return Image.open(io.BytesIO(body))


def pages(state: dict) -> list[dict]:
    return state["games"][0]["pdfs"][0]["pages"]


def test_the_page_shows_every_page_and_piece_and_links_the_pdf(served):
    status, headers, html = served.get("/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    # the page's script and style are files of their own: the policy allows this server's alone
    assert b'<script src="/serve.js">' in html and b"<script>" not in html and b"<style>" not in html
    assert "script-src 'self'; style-src 'self'" in headers["content-security-policy"]
    for name, kind in (("/serve.js", "text/javascript"), ("/serve.css", "text/css")):
        status, headers, body = served.get(name)
        assert status == 200 and headers["content-type"] == f"{kind}; charset=utf-8" and len(body) > 1000
    state = served.state()
    assert state["problems"] == [] and state["command"] == "printgen serve potion.yaml --flip long"
    (game,) = state["games"]
    assert game["title"] == "Potion Shop" and game["definition"] == "potion.yaml"
    (pdf,) = game["pdfs"]
    status, headers, data = served.get(pdf["href"])
    assert status == 200 and headers["content-type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(data)).pages) == len(pdf["pages"]) == 2  # faces, then backs
    for number, page in enumerate(pdf["pages"]):
        picture = png(served, page["src"])
        assert picture.size == (page["width"], page["height"]) == A4_PX
        # the picture is the served PDF's page itself, as pypdfium2 draws it
        document = pdfium.PdfDocument(data)
        expected = document[number].render(scale=DPI / 72).to_pil().convert("RGB")
        document.close()
        assert ImageChops.difference(picture.convert("RGB"), expected).getbbox() is None
    (deck,) = game["decks"]
    assert [face["name"] for face in deck["faces"]] == ["ember-tonic", "frost-draught"]
    assert [face["quantity"] for face in deck["faces"]] == [3, 2]
    for side in [deck["back"], *deck["faces"]]:
        picture = png(served, side["src"])
        assert picture.size == (side["width"], side["height"]) == POKER_PX
        assert picture.convert("L").getextrema()[0] < 80  # drawn, not blank


def test_settings_from_the_command_line_serve_what_build_builds(tmp_path, run_cli):
    """A designer checking the ice cards of two rows with guides on, one side only, on Letter with
    bleed, sees in the page the PDF that `printgen build` makes with the same options, not the whole
    deck, and the command line that gives them."""
    definition = small_deck(tmp_path / "potion")
    settings = ("--rows", "1-2", "--where", 'kind == "ice"', "--layout", "fronts", "--guides", "--paper", "letter",
                "--flip", "short", "--bleed", "6", "--back-offset", "1.5,-0.5")
    server = Served(definition.parent, "potion.yaml", "--dpi", "40", *settings)
    try:
        state = server.wait(lambda s: s["version"] >= 1, "the first build")
        assert state["command"] == ("printgen serve potion.yaml --paper letter --flip short --bleed 6 --back-offset "
                                    "1.5,-0.5 --layout fronts --rows 1,2 --where 'kind == \"ice\"' --guides")
        (game,) = state["games"]
        assert [face["name"] for face in game["decks"][0]["faces"]] == ["frost-draught"]
        status, _, served_pdf = server.get(game["pdfs"][0]["href"])
        assert status == 200
        (folder,) = server.built_in()
        assert (folder / "potion" / "potion.pdf").read_bytes() == served_pdf
        code, err = server.stop(signal.SIGTERM)
        assert code == 143 and err.strip().splitlines()[-1] == \
            "printgen: stopped (SIGTERM); no half-written file was left behind."
        assert not folder.exists()  # its builds' folder, with the staging folders inside it
    finally:
        stop_all_in_session(server.process)
    built = {}
    for guides in (("--guides",), ()):
        result = run_cli("build", definition, "--out", tmp_path / "out", "--no-pictures",
                         *[arg for arg in settings if arg != "--guides"], *guides)
        assert result.exit_code == 0, result.output
        built[bool(guides)] = (tmp_path / "out" / "potion" / "potion.pdf").read_bytes()
    assert served_pdf == built[True] != built[False]
    reader = PdfReader(io.BytesIO(served_pdf))
    assert len(reader.pages) == 1  # fronts: no page of backs
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [792, 612]  # landscape Letter (fronts alone: printed one-sided)
    assert "(rows 2 of 2, where kind == \"ice\")" in PdfReader(io.BytesIO(served_pdf)).pages[0].extract_text()


def test_a_broken_save_is_shown_located_over_the_last_pictures_and_the_fix_redraws_what_changed(served):
    """One good rebuild for three promises: a problem is shown with its file and line while the
    last pictures stay; fixing it clears the problem; what the fix changed is redrawn, and only that."""
    definition, csv = served.folder / "potion.yaml", served.folder / "cards.csv"
    good = definition.read_text()
    before = served.state()
    old = png(served, pages(before)[0]["src"])
    save(definition, good.replace("  size: poker ", "  size: pokr  "))
    swap(csv, "Each rival discards a card", "Each rival discards 3 cards")  # saved while broken
    broken = served.wait(lambda s: s["problems"], "the problem of a broken definition")
    line = next(n for n, text in enumerate(good.splitlines(), start=1) if text.startswith("  size: poker"))
    (problem,) = broken["problems"]
    assert problem.startswith(f"potion.yaml:{line}: card.size: expected a card size: poker, ")
    assert problem.endswith("(got 'pokr'); did you mean 'poker'?")
    assert broken["games"] == before["games"]  # the last good pictures, still served
    assert ImageChops.difference(png(served, pages(broken)[0]["src"]), old).getbbox() is None
    assert "potion.yaml:" in served.stderr()

    save(definition, good)
    fixed = served.wait(lambda s: not s["problems"] and s["games"] != before["games"], "the fixed build")
    assert pages(fixed)[0]["src"] != pages(before)[0]["src"]  # the faces' sheet: a card's new text
    new = png(served, pages(fixed)[0]["src"])
    assert ImageChops.difference(old.convert("RGB"), new.convert("RGB")).getbbox() is not None
    assert pages(fixed)[1]["src"] == pages(before)[1]["src"]  # the backs look the same: same picture
    faces = zip(fixed["games"][0]["decks"][0]["faces"], before["games"][0]["decks"][0]["faces"])
    assert [a["src"] != b["src"] for a, b in faces] == [True, False]


# -- in a real browser -----------------------------------------------------------------------------

PICTURES = """return [...document.images].map(img => ({src: img.getAttribute("src"), done: img.complete,
    width: img.naturalWidth, height: img.naturalHeight, kept: img.dataset.kept || ""}));"""
ALL_DRAWN = """const imgs = [...document.images];
    return Number(document.body.dataset.version || 0) >= 1 && imgs.length > 0
        && imgs.every(img => img.complete && img.naturalWidth > 0);"""
PROBLEMS = """return [...document.querySelectorAll(".problems li")].map(li => li.textContent);"""


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_in_a_browser_the_page_renders_and_follows_saves_without_reloading(served, tmp_path):
    """Headless Chromium loads the page and draws every picture; a broken save shows its file and
    line over the last pictures; the fix changes the pictures in the open page, without a reload.
    Its screenshot is docs/images/serve-page.png (written there when PRINTGEN_RECORD_SCREENSHOT=1,
    always into the test's own folder)."""
    definition, csv = served.folder / "potion.yaml", served.folder / "cards.csv"
    good = definition.read_text()
    browser = Browser(tmp_path, 1200, 1300)
    try:
        browser.open(served.url)
        browser.wait_for(ALL_DRAWN, "every picture drawn")
        state = served.state()
        deck = state["games"][0]["decks"][0]
        expected = [*pages(state), deck["back"], *deck["faces"]]
        shown = browser.run(PICTURES)
        assert [(p["src"], p["width"], p["height"]) for p in shown] == \
            [(e["src"], e["width"], e["height"]) for e in expected]
        # marks that a reload would wipe: a script variable and the pictures' own elements
        browser.run("window.samePage = true; for (const img of document.images) img.dataset.kept = 'yes';")

        save(definition, good.replace("  size: poker ", "  size: pokr  "))
        problems = browser.wait_for(PROBLEMS, "the problem of a broken definition")
        line = next(n for n, text in enumerate(good.splitlines(), start=1) if text.startswith("  size: poker"))
        assert len(problems) == 1 and re.match(rf"potion\.yaml:{line}: card\.size: expected a card size: poker, ", problems[0])
        assert browser.run(PICTURES) == [{**p, "kept": "yes"} for p in shown]  # the last good pictures stay
        screenshot = browser.screenshot()
        viewport = browser.run("return [window.innerWidth, window.innerHeight];")
        box = browser.run("""const r = document.querySelector(".problems").getBoundingClientRect();
            return [r.left, r.top, r.height];""")

        # a text no other test of this server changes: each edit must change the file
        swap(csv, "from their hand", "from their own hand")
        save(definition, good)
        browser.wait_for(f"""return document.querySelector(".problems") === null
            && document.images[0].getAttribute("src") !== {shown[0]["src"]!r}
            && [...document.images].every(img => img.complete && img.naturalWidth > 0);""", "the redrawn page",
                         seconds=3 * START_SECONDS)  # two saves, two builds: slow while the whole suite runs
        assert browser.run("return window.samePage === true;"), "the page was reloaded"
        now = browser.run(PICTURES)
        assert [p["kept"] for p in now] == ["yes"] * len(shown), now  # the same elements, new pictures
        # the faces' sheet and the changed card are redrawn; the backs and the other card are not
        assert [a["src"] != b["src"] for a, b in zip(now, shown)] == [True, False, False, True, False]
    finally:
        browser.close()

    (tmp_path / "serve-page.png").write_bytes(screenshot)
    picture = Image.open(io.BytesIO(screenshot)).convert("RGB")
    if os.environ.get("PRINTGEN_RECORD_SCREENSHOT"):
        picture.quantize(256).save(ROOT / "docs" / "images" / "serve-page.png", optimize=True)
    assert list(picture.size) == viewport
    left, top, height = (round(v) for v in box)
    assert picture.getpixel((left + 2, top + height // 2)) == (0xC0, 0x39, 0x2B)  # the problem box's red edge


@pytest.mark.parametrize("target", [
    "/../secret.txt", "/files/0/../../../secret.txt", "/files/%2e%2e/%2e%2e/secret.txt",
    "/%2e%2e%2f%2e%2e%2fsecret.txt", "/files/0/%2e%2e%2fpotion.yaml", "//etc/passwd", "/etc/passwd",
    "/files//etc/passwd", "/files/0/link.txt", "/link.txt", "/potion.yaml", "/files/0/potion.yaml",
    "/files/0/cards.csv", "/files/0/%ff%fe.png", "/files/0/potion.pdf%00", "*",
    "http://127.0.0.1/files/0/potion.pdf"])
def test_nothing_outside_the_served_table_is_served(served, target):
    answer = raw_request(served.port, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n"
                         .encode())
    assert answer.startswith(b"HTTP/1.0 404 "), answer[:80]
    assert SECRET.encode() not in answer and b"game: deck" not in answer


def test_only_gets_of_modest_size_for_this_host_are_answered(served):
    host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
    for method in (b"POST", b"PUT", b"DELETE", b"HEAD"):
        answer = raw_request(served.port, method + b" /state HTTP/1.1\r\n" + host +
                             b"Content-Length: 5\r\n\r\nhello")
        assert answer.startswith(b"HTTP/1.0 405 ") and b"\r\nAllow: GET\r\n" in answer, answer[:80]
    status, _, body = served.get("/state", host="printgen.example.com")  # DNS rebinding
    assert status == 403 and b"version" not in body
    for site in ("cross-site", "same-site"):  # another site's page making the browser ask
        assert served.get("/state", Sec_Fetch_Site=site)[0] == 403
        assert served.get(pages(served.state())[0]["src"], Sec_Fetch_Site=site)[0] == 403
    # an older browser, sending no fetch metadata: Origin or Referer say whose page asks
    for foreign in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Referer": "http://evil.example/page"}, {"Referer": f"http://127.0.0.1:{served.port}.evil.example/"},
                    {"Origin": f"http://127.0.0.1:{served.port}", "Referer": "http://evil.example/"}):
        assert served.get("/state", **foreign)[0] == 403, foreign
    assert served.get("/state", Sec_Fetch_Site="same-origin")[0] == 200
    own = f"http://127.0.0.1:{served.port}"
    assert served.get("/state", Origin=own, Referer=own + "/", Sec_Fetch_Site="same-origin")[0] == 200
    assert served.get("/state", host=f"localhost:{served.port}")[0] == 200
    long_line = raw_request(served.port, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n" + host + b"\r\n")
    assert long_line.startswith(b"HTTP/1.0 414 ")
    big_head = raw_request(served.port, b"GET /state HTTP/1.1\r\n" + host + b"X-Pad: " + b"b" * 9000 + b"\r\n\r\n")
    assert big_head.startswith(b"HTTP/1.0 431 ")
    assert served.state()["problems"] == []  # and it still answers


def test_clients_dribbling_bytes_hold_up_neither_requests_nor_the_watching(served):
    """Twenty connections each sending a byte every half second (opened again whenever the server
    closes one): a normal request is still answered, and a save still rebuilds. A server that waited
    on them in turn would take 20 x REQUEST_SECONDS (40 s) per request; the bound of 10 s tells the
    two apart with room for a busy machine, where a bound of a second did not."""
    stop = threading.Event()
    closed = []

    def dribble() -> None:
        connections: list[socket.socket | None] = [None] * 20
        while not stop.is_set():
            for i, connection in enumerate(connections):
                try:
                    if connection is None:
                        connections[i] = connection = socket.create_connection(("127.0.0.1", served.port))
                    connection.send(b"G")
                except OSError:
                    closed.append(i)
                    connections[i] = None
            stop.wait(0.5)
        for connection in connections:
            if connection is not None:
                connection.close()

    thread = threading.Thread(target=dribble, daemon=True)
    thread.start()
    try:
        time.sleep(3)  # long enough for every dribbler to have been given up on once
        for _ in range(5):
            started = time.monotonic()
            assert served.state()["problems"] == []
            assert time.monotonic() - started < 10.0
        definition = served.folder / "potion.yaml"
        before = served.state()["version"]
        save(definition, definition.read_text() + "\n")
        served.wait(lambda s: s["version"] > before, "a rebuild after a save while clients dribble")
        given_up = time.monotonic() + 30  # a busy machine may run the dribbling thread late
        while not closed and time.monotonic() < given_up:
            time.sleep(0.1)
        assert closed  # the server gave up on dribblers (REQUEST_SECONDS after their first byte)
    finally:
        stop.set()
        thread.join(10)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to find processes and sockets")
def test_ctrl_c_stops_the_server_and_everything_it_started(served):
    listening = [line.split()[1] for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
                 if line.split()[3] == "0A"]  # state LISTEN
    assert f"0100007F:{served.port:04X}" in listening  # 127.0.0.1 and nothing else
    assert not [a for a in listening if a.endswith(f":{served.port:04X}") and not a.startswith("0100007F")]
    (folder,) = served.built_in()
    code, err = served.stop(signal.SIGINT)
    assert code == 130, err
    assert not folder.exists()
    assert err.strip().splitlines()[-1] == "printgen: interrupted; no half-written file was left behind."
    assert "Traceback" not in err and "internal error" not in err
    assert session_members(served.process.pid) == []
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", served.port), timeout=5).close()


# -- the server alone, in-process --------------------------------------------------------

def echo(path: str) -> Reply:
    return Reply(200, "text/plain", path.encode())


def exchange(server: Loopback, request: bytes) -> bytes:
    """Send a request and read the answer the server's threads give."""
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(request)
        client.settimeout(5)
        return b"".join(iter(lambda: client.recv(65536), b""))


def until(done, seconds: float = 5.0) -> bool:
    """Whether `done()` came true within `seconds` (a limit for a server that never does; nothing is timed)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)
    return done()


def test_a_silent_connection_does_not_hold_up_the_others():
    server = Loopback(echo)
    server.serving()
    try:
        assert server.socket.getsockname()[0] == "127.0.0.1"
        silent = socket.create_connection(("127.0.0.1", server.port))  # as a browser's spare one
        answer = exchange(server, f"GET /a%20b?c=1 HTTP/1.1\r\nHost: localhost:{server.port}\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.0 200 ") and answer.endswith(b"\r\n\r\n/a b")  # the query left out
        assert b"\r\nConnection: close\r\n" in answer
        silent.close()
    finally:
        server.shut()


def test_an_idle_connection_is_closed_and_the_oldest_beyond_the_limit(monkeypatch):
    monkeypatch.setattr(serve_module, "MAX_CONNECTIONS", 2)
    server = Loopback(echo)
    server.serving()
    try:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
        held[0].settimeout(5)
        assert held[0].recv(10) == b""  # the oldest beyond the limit, closed by the server unanswered
        assert until(lambda: len(server.held) == 2)
        for connection in held:
            connection.close()
        assert until(lambda: server.held == [])
        monkeypatch.setattr(serve_module, "IDLE_SECONDS", 0.0)
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
        for connection in idle:
            connection.settimeout(5)
            assert connection.recv(10) == b""  # closed by the server, unanswered
            connection.close()
        assert until(lambda: server.held == [])
    finally:
        server.shut()


def test_a_request_sent_a_byte_at_a_time_has_its_time_in_all(monkeypatch):
    monkeypatch.setattr(serve_module, "REQUEST_SECONDS", 0.2)
    server = Loopback(echo)
    server.serving()
    try:
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"GET /slow HTTP/1.1\r\n")  # and the rest never comes
        quick = socket.create_connection(("127.0.0.1", server.port))
        quick.sendall(f"GET /quick HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        for connection in (slow, quick):
            connection.settimeout(5)
        assert slow.recv(100) == b""  # given up on, unanswered
        assert b"".join(iter(lambda: quick.recv(65536), b"")).endswith(b"/quick")
        slow.close()
        quick.close()
    finally:
        server.shut()


def test_a_port_in_use_is_a_usage_error(run_cli):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = run_cli("serve", "fracas", "--port", str(port))
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output


def interrupt(_: float) -> None:
    """The watching loop's pause, cut short by Ctrl-C."""
    raise KeyboardInterrupt


def test_open_asks_the_browser_for_the_address(monkeypatch, tmp_path, capsys):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: [fracas\n")  # fails at once: no build is paid for
    live = Live([broken], BuildOptions(PAPERS["a4"]))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert serve(live, open_browser=True, sleep=interrupt) == 0
    assert live.folder.parent == tmp_path and not live.folder.exists()  # removed as serve returns
    out = capsys.readouterr()
    assert re.fullmatch(r"printgen: serving at (http://127\.0\.0\.1:\d+/) \(this computer only; Ctrl-C "
                        r"stops\)\n", out.out)
    assert opened == [out.out.split()[3]]
    assert len(live.state["problems"]) == 1 and re.match(r"\S*broken\.yaml:1: ", live.state["problems"][0])
    assert live.state["version"] == 1 and live.state["games"] == []


def test_a_folder_left_by_a_killed_serve_is_removed_by_the_next(monkeypatch, tmp_path):
    """A serve killed outright (SIGKILL, a power cut) cannot remove its folder; the next serve removes
    each folder whose process is gone, and keeps those of serves still running."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    left = tmp_path / f".printgen-serve-{ended.pid}-k1ll3d_a"
    (left / "potion").mkdir(parents=True)
    (left / "potion" / "potion.pdf").write_bytes(b"%PDF-1.4\n")
    running = tmp_path / f".printgen-serve-{os.getppid()}-4l1ve_ab"
    unnamed = tmp_path / ".printgen-serve-0ld3r"  # no process id in its name: not judged
    for folder in (running, unnamed):
        folder.mkdir()
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: [fracas\n")  # fails at once: no build is paid for
    live = Live([broken], BuildOptions(PAPERS["a4"]))
    seen = []

    def look(_: float) -> None:  # while serving: what the temporary folder holds
        seen.extend([left.exists(), running.is_dir(), unnamed.is_dir(), live.folder.stat().st_mode & 0o777])
        raise KeyboardInterrupt

    serve(live, sleep=look)
    assert seen == [False, True, True, 0o700]
    assert live.folder.parent == tmp_path and live.folder.name.startswith(f".printgen-serve-{os.getpid()}-")
    assert not live.folder.exists()  # removed as serve returns


class Tile:
    """A piece as the `pieces` capability gives it: a red face and a blue back, 20 x 30 mm."""

    width, height = 20.0, 30.0

    def front(self, bleed: float):
        from reportlab.graphics.shapes import Group, Rect
        from reportlab.lib.colors import red

        return Group(Rect(0, 0, self.width, self.height, fillColor=red, strokeColor=None))

    def back(self, bleed: float):
        from reportlab.graphics.shapes import Group, Rect
        from reportlab.lib.colors import blue

        return Group(Rect(0, 0, self.width, self.height, fillColor=blue, strokeColor=None))


def two_page_pdf(label: str) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 300), invariant=1)
    for page in range(2):
        canvas.drawString(20, 150, f"{label} {page}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_pages_and_pieces_are_drawn_as_pictures():
    """In-process, without a build: each page of a PDF becomes a PNG at the asked resolution, and
    each piece's face and back one at 150 dpi, grouped by deck with their names and counts."""
    from printgen.cli import pictures
    from printgen.core.build import Artifact
    from printgen.layout.cards import Card

    one = Artifact("a.pdf", two_page_pdf("one"))
    (pages,) = pictures.page_pictures([one], 20)
    assert [(p.width, p.height) for p in map(pictures.Picture.of, pages)] == [(56, 84)] * 2
    cards = [Card("t-1", "tile", "tiles", Tile(), 2), Card("t-2", "tile", "tiles", Tile())]
    ((name, back, faces),) = pictures.piece_decks(cards)
    assert name == "tiles" and [face[:2] for face in faces] == [("t-1", 2), ("t-2", 1)]
    for side, colour in ((pictures.Picture.of(faces[0][2]), (255, 0, 0)), (pictures.Picture.of(back), (0, 0, 255))):
        image = Image.open(io.BytesIO(side.png)).convert("RGB")
        assert image.size == (side.width, side.height) == (119, 178)  # 20 x 30 mm at 150 dpi, rounded up
        assert image.getpixel((60, 89)) == colour


def test_a_picture_that_is_not_a_png_is_refused():
    from printgen.cli.pictures import Picture

    with pytest.raises(ValueError):
        Picture.of(b"GIF89a" + b"\0" * 40)


def test_the_workers_pictures_are_put_on_disk_as_they_are_made(tmp_path):
    """serve's worker holds no more than a build does: each page and piece picture goes to the
    build's staging folder as it is made (and the server reads them from the worker's folder when
    asked), so a deck that builds within the worker's memory also serves within it."""
    from printgen.cli.pictures import served_work
    from printgen.games import load

    loaded = load(small_deck(tmp_path / "potion"))
    files, described = served_work(DPI)(loaded, BuildOptions(PAPERS["a4"]))
    pictures = [f for f in files if f.name.endswith(".png")]
    assert len(pictures) == (sum(len(pdf["pages"]) for pdf in described["pdfs"])
                             + sum(1 + len(deck["faces"]) for deck in described["decks"])) > 3
    assert all(f.spooled is not None and f.held == b"" for f in pictures)
    assert pictures[0].data.startswith(b"\x89PNG")
