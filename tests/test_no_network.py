"""printgen never touches the network: a full build and a validation run with sockets disabled.

Definitions and templates can come from strangers, and a build must work offline, so no part of
printgen (fonts, art, templates, PDF writing) may fetch anything. Every way Python opens a
connection or looks up a name raises here; the builds must still succeed.
"""
from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from printgen.cli.main import cli


class NetworkUsed(AssertionError):
    pass


def refuse(*args, **kwargs):
    raise NetworkUsed(f"printgen tried to use the network: {args!r}")


class NoSocket(socket.socket):
    """A socket class that cannot be made (modules such as ssl may still subclass it)."""

    def __init__(self, *args, **kwargs):
        refuse(*args)


@pytest.fixture
def offline(monkeypatch):
    monkeypatch.setattr(socket, "socket", NoSocket)
    for name in ("create_connection", "getaddrinfo", "gethostbyname", "socketpair", "fromfd"):
        monkeypatch.setattr(socket, name, refuse)


def test_a_full_build_and_validation_run_offline(offline, tmp_path):
    runner = CliRunner()
    built = runner.invoke(cli, ["build", "--out", str(tmp_path / "out")], catch_exceptions=False)
    assert built.exit_code == 0, built.output
    assert len(list((tmp_path / "out").rglob("*.pdf"))) >= 5
    checked = runner.invoke(cli, ["validate", "omiga", "--games", "50"], catch_exceptions=False)
    assert checked.exit_code == 0, checked.output


def test_the_guard_would_notice(offline):
    with pytest.raises(NetworkUsed):
        socket.create_connection(("example.org", 80))


def test_svg_art_cannot_fetch_or_read_what_it_names(offline, tmp_path):
    """An SVG logo naming a remote image, a local file and an external entity builds offline, and
    nothing of the named files reaches the output."""
    from printgen.games import bundled_definition

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-7731")
    art = tmp_path / "war" / "art"
    art.mkdir(parents=True)
    (art / "logo.svg").write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE svg [ <!ENTITY x SYSTEM "file://{secret}"> ]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10"><text x="1" y="5">&x;</text>'
        '<image xlink:href="http://192.0.2.1/x.png" width="5" height="5"/>'
        f'<image xlink:href="file://{secret}" width="5" height="5"/><rect width="4" height="4"/></svg>\n')
    definition = tmp_path / "war" / "war.yaml"
    definition.write_text(bundled_definition("one_minute_war").read_text().replace(
        "  text: One Minute War\n", "  text: One Minute War\n  image: art/logo.svg\n", 1))
    result = CliRunner().invoke(cli, ["build", str(definition), "--out", str(tmp_path / "out")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file():
            assert b"TOP-SECRET" not in readable(path.read_bytes()), path


def readable(data: bytes) -> bytes:
    """A file's bytes with its PDF text extracted, every PDF stream inflated and every base64 data
    URI decoded, so a secret cannot hide behind compression or encoding."""
    import base64
    import io
    import re
    import zlib

    from pypdf import PdfReader

    parts = [data]
    if data.startswith(b"%PDF"):
        parts += [page.extract_text().encode() for page in PdfReader(io.BytesIO(data)).pages]
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            parts.append(zlib.decompress(stream))
        except zlib.error:
            pass
    for encoded in re.findall(rb"base64,([A-Za-z0-9+/=]+)", data):
        parts.append(base64.b64decode(encoded))
    return b"\n".join(parts)
