"""What a PDF's bytes are spent on: streams stored as compressed bytes, each font's names once.

Issue 8 allowed omiga.pdf 64 KiB (68 KiB since the rules' words grew: BUDGET). Two things in
every PDF cost bytes without changing a printed dot: reportlab's ASCII85 layer over every compressed
stream (a quarter more bytes per page and form) and the second copy, for Windows, of every name in
each embedded font (Vera's licence text among them). The notices a font's licence asks to travel
with it stay, once.
"""
from __future__ import annotations

import struct

import pytest
from pypdf import PdfReader

from printgen.drawing.fonts import one_copy_of_names

KiB = 1024
COPYRIGHT, TRADEMARK, LICENCE = 0, 7, 13  # name ids


# Issue 8 set 64 KiB. The texts merge (780d065) filled the rules' short second page and set more
# glyphs of the fonts: about 2.8 KB of words (the A4 PDF went from 64,755 to 67,588 bytes, Letter
# from 64,828 to 67,718), so the budget is 68 KiB. (The black deck's hatch costs 2.4 KB compressed:
# without it the A4 file is 65,207 bytes, so even a hatch drawn once as a form, at one path and one
# reference a tile, would leave the file at the old limit's edge.)
# Stop 47 drew two pictures into the rules (white's spaces to lay, and a race in four steps): about
# 2.5 KB more (A4 70,147 bytes, Letter 70,228), so the budget is 70 KiB.
BUDGET = 70 * KiB


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_omiga_pdf_stays_within_issue_8s_size(all_games_built, paper):
    assert (all_games_built[paper] / "omiga" / "omiga.pdf").stat().st_size <= BUDGET


def streams(reader: PdfReader):
    for number in range(1, reader.trailer["/Size"]):
        try:
            obj = reader.get_object(number)
        except Exception:  # a number with no object
            continue
        if hasattr(obj, "get_data"):
            yield obj


def test_no_page_form_or_font_of_any_bundled_pdf_is_ascii85(all_games_built):
    """(A picture keeps the layer: reportlab encodes it as it is drawn, see `binary_streams`.)"""
    pdfs = sorted(all_games_built["a4"].rglob("*.pdf"))
    assert len(pdfs) >= 17
    for path in pdfs:
        found = [stream for stream in streams(PdfReader(path)) if stream.get("/Subtype") != "/Image"]
        assert found, path
        for stream in found:
            filters = stream.get("/Filter")
            assert filters is not None and "/ASCII85Decode" not in str(filters), (path, filters)
            stream.get_data()  # and each still decodes


def table_directory(font: bytes) -> dict[bytes, tuple[int, int, int]]:
    count = struct.unpack_from(">H", font, 4)[0]
    entries = (struct.unpack_from(">4sIII", font, 12 + 16 * i) for i in range(count))
    return {tag: (checksum, offset, length) for tag, checksum, offset, length in entries}


def checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def name_records(table: bytes) -> dict[tuple[int, int], bytes]:
    _, count, start = struct.unpack_from(">3H", table, 0)
    records = {}
    for i in range(count):
        platform, _, _, name_id, length, offset = struct.unpack_from(">6H", table, 6 + 12 * i)
        assert (platform, name_id) not in records
        records[(platform, name_id)] = table[start + offset:start + offset + length]
    return records


def test_each_embedded_font_names_itself_once_and_keeps_its_notices(all_games_built):
    reader = PdfReader(all_games_built["a4"] / "omiga" / "omiga.pdf")
    fonts = [stream.get_data() for stream in streams(reader) if "/Length1" in stream]
    assert len(fonts) == 3  # bold, oblique, regular
    for font in fonts:
        tables = table_directory(font)
        for tag, (recorded, offset, length) in tables.items():
            if tag != b"head":
                assert checksum(font[offset:offset + length]) == recorded, tag
        assert checksum(font) == 0xB1B0AFBA  # the whole font still sums as TrueType requires
        _, offset, length = tables[b"name"]
        records = name_records(font[offset:offset + length])
        assert {platform for platform, _ in records} == {1}  # Macintosh, as the subset's cmap
        assert records[(1, COPYRIGHT)].startswith(b"Copyright (c) 2003 by Bitstream")
        assert b"trademark of Bitstream" in records[(1, TRADEMARK)]
        assert b"Permission is hereby granted" in records[(1, LICENCE)]


def naming_table(records: list[tuple[int, int, bytes]], version: int = 0) -> bytes:
    """A naming table from (platform, name id, text) records."""
    head = struct.pack(">3H", version, len(records), 6 + 12 * len(records))
    strings = b""
    for platform, name_id, text in records:
        head += struct.pack(">6H", platform, 0, 0, name_id, len(text), len(strings))
        strings += text
    return head + strings


def test_the_macintosh_names_alone_are_kept_when_they_say_everything():
    both = naming_table([(1, 0, b"(c) someone"), (1, 1, b"Family"),
                         (3, 0, "(c) someone".encode("utf-16-be")), (3, 1, "Family".encode("utf-16-be"))])
    assert one_copy_of_names(both) == naming_table([(1, 0, b"(c) someone"), (1, 1, b"Family")])


@pytest.mark.parametrize("table", [
    naming_table([(1, 1, b"Family"), (3, 1, b"\0F"), (3, 13, b"\0L")]),  # a licence only Windows has
    naming_table([(3, 1, b"\0F")]),  # no Macintosh names at all
    naming_table([(1, 1, b"Family"), (3, 1, b"\0F")], version=1),  # a format this does not read
    naming_table([(1, 1, b"Family"), (3, 1, b"\0F")])[:-3],  # a record runs past the end
    b"\0\0\0",  # not even a header
])
def test_any_other_naming_table_is_kept_as_it_is(table):
    assert one_copy_of_names(table) == table


def test_every_kind_of_content_prints_the_same_without_the_ascii85_layer(tmp_path, monkeypatch):
    """A deck with a PNG with alpha, an RGB and a CMYK JPEG, an SVG with gradients, text and an
    inline picture, and a user's TrueType font: written as now (pages and forms as plain
    compressed bytes) and with reportlab's ASCII85 layer kept, both open strictly in pypdf and
    give pdfium the same pixels on every page."""
    import base64
    import contextlib
    import io
    import shutil

    from pathlib import Path

    import pypdfium2
    import reportlab
    from PIL import Image, ImageDraw

    from printgen.cli.engine import build_games
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS
    from printgen.games import bundled_definition
    from printgen.output import pdf

    folder = tmp_path / "deck"
    shutil.copytree(bundled_definition("deck").parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    shine = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    ImageDraw.Draw(shine).ellipse((2, 2, 38, 28), fill=(200, 30, 30, 180))
    shine.save(folder / "alpha.png")
    Image.new("RGB", (32, 24), (20, 120, 200)).save(folder / "photo.jpg", quality=80)
    Image.new("CMYK", (16, 16), (0, 100, 200, 0)).save(folder / "cmyk.jpg", quality=80)
    inline = io.BytesIO()
    shine.save(inline, "PNG")
    (folder / "fancy.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="30mm"'
        ' height="30mm" viewBox="0 0 30 30"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient>'
        '<radialGradient id="r"><stop offset="0" stop-color="#ffff00"/><stop offset="1" stop-color="#00aa00"/>'
        '</radialGradient></defs><rect x="1" y="1" width="28" height="14" fill="url(#g)"/>'
        '<circle cx="15" cy="22" r="6" fill="url(#r)"/><text x="2" y="12" font-size="4">Words</text>'
        '<image x="20" y="16" width="8" height="6" xlink:href="data:image/png;base64,'
        + base64.b64encode(inline.getvalue()).decode() + '"/>'
        '<path d="M 2 28 L 10 20 L 12 28 Z" fill="#123456" fill-opacity="0.4"/></svg>')
    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf", folder / "title.ttf")
    definition = folder / "deck.yaml"
    text = definition.read_text().replace("      font: bold\n      valign: middle",
                                          "      font: title.ttf\n      valign: middle", 1)
    images = "".join(f"    - type: image\n      src: {src}\n      x: {x}\n      y: {y}\n      width: 8\n      height: 8\n"
                     for src, x, y in [("alpha.png", 3, 16), ("photo.jpg", 50, 16), ("cmyk.jpg", 50, 26),
                                       ("fancy.svg", 3, 26)])
    definition.write_text(text.replace("    - type: line\n", images + "    - type: line\n", 1))

    def built() -> bytes:
        with build_games([definition], BuildOptions(PAPERS["a4"], pictures=False)) as builds:
            (built,) = builds
            return built.data("deck.pdf")

    def pixels(data: bytes) -> list[bytes]:
        PdfReader(io.BytesIO(data), strict=True).pages[0].extract_text()
        document = pypdfium2.PdfDocument(data)
        return [document[i].render(scale=1.5).to_pil().tobytes() for i in range(len(document))]

    now = built()
    monkeypatch.setattr(pdf, "binary_streams", contextlib.nullcontext)
    monkeypatch.setattr(pdf, "encode_page_now", pdf.encode_page_now.__wrapped__)
    layered = built()
    assert b"/DCTDecode" in now and b"/SMask" in now and b"/Shading" in now  # the content is all there
    assert len(now) < len(layered)
    assert pixels(now) == pixels(layered)
