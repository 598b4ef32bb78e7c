"""Hostile art for the bad-input corpus, made on the spot: SVG, bitmaps and fonts that would cost a
decoder minutes or gigabytes, or carry numbers no PDF can hold, though each file is small.

Every case is a One Minute War definition whose logo names the file; `CASES` maps a corpus name to
the function that writes the definition and its art into the folder the test builds from.
"""
from __future__ import annotations

import base64
import io
import struct
from pathlib import Path
from typing import Callable

import reportlab
from PIL import Image

CORPUS = Path(__file__).parent / "bad_inputs"
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
SVG_OPEN = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="60" height="40" viewBox="0 0 60 40">\n')


def definition(folder: Path, name: str, logo_line: str, comment: str) -> None:
    """The One Minute War definition of the corpus, its logo drawn from the art under test."""
    text = (CORPUS / "omw_art_pixel_bomb.yaml").read_text()
    text = text.replace("  image: art/logo.png", logo_line)
    lines = text.splitlines(keepends=True)
    lines[0] = f"# Bad input: {comment}\n"
    (folder / f"{name}.yaml").write_text("".join(lines))


def svg_case(comment: str, body: str, *, head: str = SVG_OPEN,
             extra: dict[str, bytes] | None = None) -> Callable[[Path, str], None]:
    def make(folder: Path, name: str) -> None:
        (folder / "art").mkdir()
        (folder / "art" / "logo.svg").write_text(head + body + "</svg>\n")
        for file_name, data in (extra or {}).items():
            (folder / "art" / file_name).write_bytes(data)
        definition(folder, name, "  image: art/logo.svg", comment)
    return make


def file_case(comment: str, file_name: str, data: Callable[[], bytes],
              key: str = "image") -> Callable[[Path, str], None]:
    def make(folder: Path, name: str) -> None:
        (folder / "art").mkdir()
        (folder / "art" / file_name).write_bytes(data())
        definition(folder, name, f"  {key}: art/{file_name}", comment)
    return make


# -- bitmaps ---------------------------------------------------------------------------------------

def png(width: int, height: int, mode: str = "L") -> bytes:
    out = io.BytesIO()
    Image.new(mode, (width, height)).save(out, "PNG")
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A 1 x 1 PNG whose header says width x height (the checksum of the header fixed to match)."""
    import zlib

    data = bytearray(png(1, 1))
    struct.pack_into(">II", data, 16, width, height)
    struct.pack_into(">I", data, 29, zlib.crc32(bytes(data[12:29])))
    return bytes(data)


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small JPEG whose frame header (SOF0) says width x height."""
    out = io.BytesIO()
    Image.new("RGB", (16, 16), "#804020").save(out, "JPEG")
    data = bytearray(out.getvalue())
    at = data.index(b"\xff\xc0")
    struct.pack_into(">HH", data, at + 5, height, width)
    return bytes(data)


def truncated_png() -> bytes:
    data = png(400, 300, "RGB")
    return data[: len(data) // 2]


def data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


# -- fonts -----------------------------------------------------------------------------------------

def font_tables(data: bytes) -> dict[bytes, tuple[int, int, int]]:
    """Table tag -> (directory entry offset, table offset, length)."""
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for n in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * n)
        found[tag] = (12 + 16 * n, offset, length)
    return found


def font_with_cmap(cmap: bytes) -> bytes:
    """Vera with its character map replaced by `cmap`, appended at the end of the file."""
    data = bytearray(VERA.read_bytes())
    entry, _, _ = font_tables(bytes(data))[b"cmap"]
    while len(data) % 4:
        data.append(0)
    struct.pack_into(">LL", data, entry + 8, len(data), len(cmap))
    return bytes(data + cmap)


def cmap_format_12_everything() -> bytes:
    """One format-12 group from code 0 to 0xFFFFFFFF: four billion characters."""
    table = struct.pack(">HHLLL", 12, 0, 16 + 12, 0, 1) + struct.pack(">LLL", 0, 0xFFFFFFFF, 0)
    return font_with_cmap(struct.pack(">HHHHL", 0, 1, 3, 10, 12) + table)


def cmap_format_4_overlapping() -> bytes:
    """A format-4 map of 2,000 segments, each claiming all 65,536 codes: 131 million in all."""
    segments = 2000
    body = struct.pack(">HHHHHHH", 4, 0, 0, 2 * segments, 0, 0, 0)
    body += struct.pack(f">{segments}H", *[0xFFFF] * segments) + b"\0\0"
    body += struct.pack(f">{segments}H", *[0] * segments)
    body += struct.pack(f">{segments}h", *[0] * segments) + struct.pack(f">{segments}H", *[0] * segments)
    body = body[:2] + struct.pack(">H", min(len(body), 0xFFFF)) + body[4:]
    return font_with_cmap(struct.pack(">HHHHL", 0, 1, 3, 1, 12) + body)


def font_table_past_end() -> bytes:
    data = bytearray(VERA.read_bytes())
    entry, _, _ = font_tables(bytes(data))[b"glyf"]
    struct.pack_into(">L", data, entry + 12, 0x7FFFFFF0)
    return bytes(data)


def font_many_tables() -> bytes:
    data = bytearray(VERA.read_bytes())
    struct.pack_into(">H", data, 4, 150)
    return bytes(data)


def opentype_cff() -> bytes:
    return b"OTTO" + VERA.read_bytes()[4:]


# -- SVG bodies ------------------------------------------------------------------------------------

def doubling(levels: int) -> str:
    """Each group draws the one before twice: 2 ** levels copies of one rectangle."""
    rows = ['<defs><rect id="g0" width="1" height="1"/>']
    rows += [f'<g id="g{n}"><use xlink:href="#g{n - 1}"/><use xlink:href="#g{n - 1}" x="1"/></g>'
             for n in range(1, levels + 1)]
    return "\n".join(rows) + f'</defs>\n<use xlink:href="#g{levels}"/>\n'


def wide_use() -> str:
    rects = "".join(f'<rect x="{i % 60}" y="{i // 60}" width="1" height="1"/>' for i in range(200))
    uses = "".join(f'<use xlink:href="#block" y="{i % 3}"/>' for i in range(60))
    return f'<defs><g id="block">{rects}</g></defs>\n{uses}\n'


def many_elements(count: int) -> str:
    return "\n".join(f'<rect x="{i % 60}" y="{i % 40}" width="1" height="1"/>' for i in range(count)) + "\n"


def nested(depth: int) -> str:
    return "<g>" * depth + '<rect width="1" height="1"/>' + "</g>" * depth + "\n"


RICH_SVG = SVG_OPEN + """<defs>
<linearGradient id="g"><stop offset="0" stop-color="#c03020"/><stop offset="1" stop-color="#2040a0"/>
</linearGradient><clipPath id="c"><circle cx="30" cy="20" r="18"/></clipPath>
<g id="dot"><circle r="2" fill="#204020"/></g></defs>
<rect width="60" height="40" fill="url(#g)" clip-path="url(#c)"/>
<use xlink:href="#dot" x="10" y="10"/><use xlink:href="#dot" x="50" y="30"/>
<image x="40" y="2" width="16" height="16" xlink:href="{png}"/>
<image x="4" y="22" width="16" height="16" xlink:href="{jpeg}"/>
</svg>
"""


def rich_svg() -> str:
    """Gradient, clip path, <use>, and a palette PNG and a JPEG as data: URIs: all of it prints."""
    jpeg = io.BytesIO()
    Image.new("RGB", (32, 32), "#d0a040").save(jpeg, "JPEG")
    return RICH_SVG.format(png=data_uri(png(24, 24, "P")),
                           jpeg="data:image/jpeg;base64," + base64.b64encode(jpeg.getvalue()).decode())


LOOP_B = SVG_OPEN + '<g id="y"><use xlink:href="logo.svg#x"/></g>\n</svg>\n'

CASES: dict[str, Callable[[Path, str], None]] = {
    "art_svg_use_doubling_30_levels": svg_case(
        "SVG art whose groups each repeat the one before twice, 30 times (a billion copies)",
        doubling(30)),
    "art_svg_use_one_group_60_times": svg_case(
        "SVG art that draws a group of 200 shapes 60 times through <use>", wide_use()),
    "art_svg_200000_elements": svg_case(
        "SVG art of 200,000 rectangles, no <use> at all", many_elements(200_000)),
    "art_svg_nested_150_deep": svg_case("SVG art with groups nested 150 deep", nested(150)),
    "art_svg_use_loop": svg_case(
        "SVG art whose two groups draw each other",
        '<g id="a"><use xlink:href="#b"/></g>\n<g id="b"><use xlink:href="#a"/></g>\n'),
    "art_svg_use_loop_across_files": svg_case(
        "SVG art that draws another SVG file, which draws the first one back",
        '<use xlink:href="other.svg#y"/>\n<g id="x"><rect width="1" height="1"/></g>\n',
        extra={"other.svg": LOOP_B.encode()}),
    "art_svg_data_uri_claims_400_megapixels": svg_case(
        "SVG art embedding, as a data: URI, a PNG whose header claims 20,000 x 20,000 pixels",
        f'<image width="10" height="10" xlink:href="{data_uri(png_claiming(20_000, 20_000))}"/>\n'),
    "art_svg_data_uri_used_five_times": svg_case(
        "SVG art embedding a 2,000 x 2,000 PNG once and drawing it five times through <use>",
        f'<defs><image id="p" width="10" height="10" xlink:href="{data_uri(png(2000, 2000))}"/>'
        '</defs>\n' + "".join(f'<use xlink:href="#p" x="{10 * i}"/>' for i in range(5)) + "\n"),
    "art_svg_linked_png_100_megapixels": svg_case(
        "SVG art linking a PNG beside it whose header claims 10,000 x 10,000 pixels",
        '<image width="10" height="10" xlink:href="big.png"/>\n',
        extra={"big.png": png_claiming(10_000, 10_000)}),
    "art_svg_width_inf": svg_case(
        "SVG art whose width is inf", "<rect width='1' height='1'/>\n",
        head=SVG_OPEN.replace('width="60"', 'width="inf"')),
    "art_svg_width_1e300": svg_case(
        "SVG art whose width is 1e300", "<rect width='1' height='1'/>\n",
        head=SVG_OPEN.replace('width="60"', 'width="1e300"')),
    "art_svg_height_nan": svg_case(
        "SVG art whose height is nan", "<rect width='1' height='1'/>\n",
        head=SVG_OPEN.replace('height="40"', 'height="nan"')),
    "art_svg_width_negative_no_viewbox": svg_case(
        "SVG art whose width is negative", "<rect width='1' height='1'/>\n",
        head=SVG_OPEN.replace('width="60"', 'width="-60"').replace(' viewBox="0 0 60 40"', "")),
    "art_svg_viewbox_zero_height": svg_case(
        "SVG art whose viewBox has no height", "<rect width='1' height='1'/>\n",
        head=SVG_OPEN.replace('viewBox="0 0 60 40"', 'viewBox="0 0 60 0"')),
    "art_svg_circle_radius_nan": svg_case(
        "SVG art with a circle of radius nan", '<circle cx="30" cy="20" r="NaN"/>\n'),
    "art_svg_stylesheet_stroke_infinity": svg_case(
        "SVG art whose stylesheet sets stroke-width to Infinity",
        '<style>rect { stroke: black; stroke-width: Infinity }</style>\n'
        '<rect width="10" height="10"/>\n'),
    "art_svg_transform_1e20": svg_case(
        "SVG art scaled by 1e20 in a transform",
        '<g transform="scale(1e20)"><rect width="1" height="1"/></g>\n'),
    "art_svg_use_chain_harmless": svg_case(
        "(harmless) SVG art whose groups repeat the one before, five times (32 copies)",
        doubling(5)),
    "art_svg_gradients_and_bitmaps_harmless": svg_case(
        "(harmless) SVG art with a gradient, a clip path, <use> and two embedded bitmaps",
        rich_svg()[len(SVG_OPEN):-len("</svg>\n")]),
    "art_font_vera_harmless": file_case("(harmless) a real TrueType font", "display.ttf",
                                        VERA.read_bytes, key="font"),
    "art_png_truncated": file_case("a PNG cut off halfway through its pixels", "logo.png",
                                   truncated_png),
    "art_jpeg_claims_65000_square": file_case(
        "a small JPEG whose header claims 65,000 x 65,000 pixels", "logo.jpg",
        lambda: jpeg_claiming(65_000, 65_000)),
    "art_font_cmap_four_billion_codes": file_case(
        "a font whose character map claims every 32-bit code (format 12)", "display.ttf",
        cmap_format_12_everything, key="font"),
    "art_font_cmap_overlapping_segments": file_case(
        "a font whose character map has 2,000 segments each claiming all 65,536 codes",
        "display.ttf", cmap_format_4_overlapping, key="font"),
    "art_font_table_past_end": file_case(
        "a font whose glyph table claims two gigabytes", "display.ttf", font_table_past_end,
        key="font"),
    "art_font_150_tables": file_case(
        "a font whose table directory claims 150 tables", "display.ttf", font_many_tables,
        key="font"),
    "art_font_opentype_cff": file_case(
        "an OpenType font with PostScript outlines, named .ttf", "display.ttf", opentype_cff,
        key="font"),
}
