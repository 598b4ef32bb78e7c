"""Custom art on real builds: where it lands in the PDF, that it is stored once, what svglib cannot
draw, every art error located in the YAML, and templates from a definition's own folder."""
from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pdfplumber
import pypdf
import pytest
import reportlab
from click.testing import CliRunner
from PIL import Image

from printgen.art.svg import scan
from printgen.cli.main import cli
from printgen.games import bundled_definition
from printgen.jinja.render import autoescape, render
from pdfmeasure import MM, chars_mm

A4_W, A4_H = 210.0, 297.0
OMW_MARGIN = 9.0  # One Minute War's page margin; its card sits in the upper-right corner
# the bundled card (card_defs/one_minute_war.yaml): 115 mm wide, 24 mm tabs of 23 mm, a 48 mm body
CARD_W, TAB, BODY = 115.0, 24.0, 48.0
TAB_W, CARD_H = CARD_W / 5, 2 * TAB + BODY
from printgen.games.one_minute_war.card import ART_INSET, BAND, TAB_PAD, TabRows  # noqa: E402
from printgen.games.one_minute_war.model import FoldCard  # noqa: E402

MARKER_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="42mm" height="42mm" viewBox="0 0 42 42">
  <rect width="42" height="42" fill="#202020"/>
  <defs>
    <marker id="tip" markerWidth="4" markerHeight="4" refX="2" refY="2">
      <path d="M0,0 L4,2 L0,4 z" fill="white"/>
    </marker>
  </defs>
  <line x1="6" y1="36" x2="30" y2="12" stroke="white" marker-end="url(#tip)"/>
</svg>
"""


def png(path: Path, size: tuple[int, int], colour=(31, 95, 153)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)
    return path


def set_key(yaml: Path, after: str, line: str) -> int:
    """Insert `line` after the first line equal to `after`; return its 1-based line number."""
    lines = yaml.read_text().splitlines()
    at = lines.index(after) + 1
    lines.insert(at, line)
    yaml.write_text("\n".join(lines) + "\n")
    return at + 1


def images_mm(page) -> list[tuple[float, float, float, float]]:
    """Image placements on a page as (x, y, w, h) in mm, y up, sorted."""
    height = float(page.height)
    return sorted((round(i["x0"] / MM, 3), round((height - i["bottom"]) / MM, 3),
                   round((i["x1"] - i["x0"]) / MM, 3), round((i["bottom"] - i["top"]) / MM, 3))
                  for i in page.images)


def image_xobjects(path: Path) -> int:
    reader = pypdf.PdfReader(path)
    count = 0
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:  # noqa: BLE001 - free entries in the xref table
            continue
        if isinstance(obj, pypdf.generic.DictionaryObject) and obj.get("/Subtype") == "/Image":
            count += 1
    return count


# the tests reading war_art_built run on one pytest-xdist worker (`--dist loadgroup`), which builds it once
WAR_ART_GROUP = pytest.mark.xdist_group("art-war")


@pytest.fixture(scope="module")
def war_with_art(tmp_path_factory) -> Path:
    """One Minute War with a square logo image and a 3:1 body image, both RGB PNGs; made once for
    the tests below, which only build it (into folders of their own) and read what it makes."""
    folder = tmp_path_factory.mktemp("war-art")
    yaml = folder / "one_minute_war.yaml"
    shutil.copyfile(bundled_definition("one_minute_war"), yaml)
    png(folder / "art" / "logo.png", (200, 200))
    png(folder / "art" / "field.png", (300, 100), (200, 220, 190))
    set_key(yaml, "  text: One Minute War", "  image: art/logo.png")
    set_key(yaml, "  number_size_pt: 15", "  body_image: art/field.png")
    return yaml


@pytest.fixture(scope="module")
def war_art_built(war_with_art) -> Path:
    """`printgen build` of war_with_art, once for every test that reads the files: the output folder."""
    out = war_with_art.parent / "o"
    result = CliRunner().invoke(cli, ["build", str(war_with_art), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@WAR_ART_GROUP
def test_logo_and_body_art_land_at_their_exact_place_and_size(war_art_built):
    card_x, card_y = A4_W - OMW_MARGIN - CARD_W, A4_H - OMW_MARGIN - CARD_H
    with pdfplumber.open(war_art_built / "one_minute_war" / "one_minute_war.pdf") as pdf:
        front, back = images_mm(pdf.pages[0]), images_mm(pdf.pages[1])
    # front: the 3:1 body art fills the body's height between the side labels (5.5 mm clear above
    # and below), centred across the body's width inside its 3 mm inset
    art_h = BODY - 2 * 5.5
    art_w = min(3 * art_h, CARD_W - 2 * ART_INSET)
    art_h = art_w / 3
    assert front == [pytest.approx((card_x + CARD_W / 2 - art_w / 2, card_y + TAB + BODY / 2 - art_h / 2,
                                    art_w, art_h), abs=0.01)]
    inner_h = BODY - 2 * ART_INSET
    # back (long-edge flip: the card lies mirrored at the left): on each of the ten tabs, the square
    # logo as large as fits the room below the soldier's number and name, TAB_PAD inside it; one
    # square centred on the body
    back_x = A4_W - card_x - CARD_W
    rows = TabRows.of(FoldCard(width=CARD_W, tab_height=TAB, body_height=BODY, text_size_pt=8))
    side = TAB - rows.name + BAND - 1.5 - TAB_PAD - 2 * TAB_PAD
    x_in = (TAB_W - side) / 2
    tabs = [(back_x + i * TAB_W + x_in, card_y + y, side, side)
            for y in (TAB - TAB_PAD - side, TAB + BODY + TAB_PAD) for i in range(5)]
    body = (back_x + (CARD_W - inner_h) / 2, card_y + TAB + ART_INSET, inner_h, inner_h)
    expected = sorted(tabs + [body])
    assert len(back) == len(expected)
    for got, want in zip(back, expected):
        assert got == pytest.approx(want, abs=0.01)


@WAR_ART_GROUP
def test_art_used_many_times_is_stored_once(war_art_built):
    pdf = war_art_built / "one_minute_war" / "one_minute_war.pdf"
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages[1].images) == 11  # ten tab backs and the card's back
    assert image_xobjects(pdf) == 2  # the logo and the body art, once each


@WAR_ART_GROUP
def test_art_builds_are_byte_identical(run_cli, war_with_art, war_art_built, tmp_path):
    assert run_cli("build", war_with_art, "--out", tmp_path / "b").exit_code == 0  # and war_art_built's
    name = Path("one_minute_war") / "one_minute_war.pdf"
    assert (war_art_built / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@WAR_ART_GROUP
def test_svg_card_shows_the_art_once_with_a_use_per_place(war_art_built):
    svg = (war_art_built / "one_minute_war" / "svg" / "one_minute_war-card-back.svg").read_text()
    assert svg.count("<image") == 1 and svg.count("data:image/png;base64,") == 1
    assert svg.count("<use") == 11


def test_logo_font_is_used_for_the_title_and_the_logo(run_cli, copy_definition, tmp_path):
    # Vera regular stands in for a display font: the title and logo are bold without one
    yaml = copy_definition("one_minute_war")
    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf", tmp_path / "display.ttf")
    set_key(yaml, "  text: One Minute War", "  font: display.ttf")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    card_x, card_y = A4_W - OMW_MARGIN - CARD_W, A4_H - OMW_MARGIN - CARD_H
    with pdfplumber.open(tmp_path / "o" / "one_minute_war" / "one_minute_war.pdf") as pdf:
        title = [c for c in chars_mm(pdf.pages[0]) if card_x < c["x0"] < card_x + CARD_W
                 and card_y + TAB < c["y0"] < card_y + TAB + BODY and c["size"] == pytest.approx(14)]
        # the logo: on the tabs (under each soldier's number and name) the tabs' 8 pt, or less until
        # it sets in two lines (the narrower regular face fits at 8), 16 pt on the body
        logo = [c for c in chars_mm(pdf.pages[1]) if c["x0"] < A4_W - card_x and c["y0"] > card_y
                and min(abs(c["size"] - s) for s in (7.5, 8, 16)) < 0.05]
    assert "".join(c["text"] for c in title).replace(" ", "") == "ONEMINUTEWAR"
    own = f"BitstreamVeraSans-Roman-{hashlib.sha256((tmp_path / 'display.ttf').read_bytes()).hexdigest()[:12]}"
    assert {c["font"].split("+")[-1] for c in title} == {own}  # its own name and hash: no other font's
    assert len(logo) >= 11 * len("ONEMINUTEWAR")  # ten tabs and the card's back
    assert {c["font"].split("+")[-1] for c in logo} == {own}


def omiga_with_back_art(copy_definition, tmp_path: Path, svg: str) -> Path:
    """A copy of Omiga whose black tiles' back is `svg`, saved as art/back.svg beside it."""
    yaml = copy_definition("omiga")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "back.svg").write_text(svg)
    yaml.write_text(yaml.read_text() + "\nart:\n  black_back: art/back.svg\n")
    return yaml


def test_svg_with_a_marker_warns_by_name_and_still_builds(run_cli, copy_definition, tmp_path):
    yaml = omiga_with_back_art(copy_definition, tmp_path, MARKER_SVG)
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    marker_line = MARKER_SVG.splitlines().index('    <marker id="tip" markerWidth="4" markerHeight="4" '
                                                'refX="2" refY="2">') + 1
    assert re.search(rf"art/back\.svg:{marker_line}: warning: marker: markers .* are not drawn",
                     result.stderr), result.stderr
    assert (tmp_path / "o" / "omiga" / "omiga.pdf").exists()


def test_scan_names_each_feature_svglib_drops_and_ignores_neutral_values():
    from lxml import etree

    svg = b"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
<style>.a { mix-blend-mode: multiply }</style>
<defs><pattern id="p" width="2" height="2"/><filter id="f"/><mask id="m"/></defs>
<rect width="5" height="5" fill="url(#p)"/>
<rect width="5" height="5" style="opacity: 0.5" mask="url(#m)" filter="url(#f)"/>
<rect width="5" height="5" opacity="1" fill-opacity="0.5" filter="none"/>
<text x="1" y="9">hi</text>
</svg>"""
    found = {f.feature: f.line for f in scan(etree.fromstring(svg))}
    # text is no longer a finding: it is set in the embedded font (a family other than Vera is warned of)
    assert found == {"mix-blend-mode": 2, "pattern": 3, "filter": 3, "mask": 3, "opacity": 5}
    clean = b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" opacity="1"/></svg>'
    assert scan(etree.fromstring(clean)) == []


BAD_ART = {
    "missing": ("art/none.png", None, r"expected a file, but .*art/none\.png does not exist \(got 'art/none\.png'\)"),
    "unreadable": ("art/broken.png", b"\x89PNG\r\n\x1a\n not really", r"is not a readable PNG image"),
    "unsupported": ("art/logo.gif", b"GIF89a", r"expected a PNG, JPEG or SVG file"),
    "mislabelled": ("art/photo.png", "jpeg", r"named like a PNG image but holds JPEG data"),
    "broken svg": ("art/logo.svg", b"<svg xmlns='http://www.w3.org/2000/svg'><g></svg>",
                   r"is not a readable SVG file \(line 1"),
    "not svg": ("art/logo.svg", b"<html/>", r"is XML but not SVG"),
    "outside": ("../elsewhere.png", None, r"expected a file inside the definition's folder .*--allow-outside"),
    "too many pixels": ("art/huge.png", "huge", r"has far more pixels than art may have"),
}


def huge_png_header() -> bytes:
    """A tiny file whose header claims 20000 x 20000 pixels: refused before any decoding."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("case", sorted(BAD_ART))
def test_each_art_error_is_located_and_writes_nothing(run_cli, copy_definition, tmp_path, case):
    name, content, message = BAD_ART[case]
    folder = tmp_path / "game"
    folder.mkdir()
    yaml = folder / "one_minute_war.yaml"
    shutil.copyfile(copy_definition("one_minute_war"), yaml)
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if content == "jpeg":
        Image.new("RGB", (8, 8)).save(target, "JPEG")
    elif content == "huge":
        target.write_bytes(huge_png_header())
    elif content is not None:
        target.write_bytes(content)
    elif case == "outside":
        png(target, (8, 8))
    line = set_key(yaml, "  text: One Minute War", f"  image: {name}")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 2, result.output
    assert re.search(rf"one_minute_war\.yaml:{line}: logo\.image: .*{message}", result.output), result.output
    assert "Traceback" not in result.output and "nothing was written" in result.output
    assert not (tmp_path / "o").exists()


def test_allow_outside_lets_a_definition_use_art_elsewhere(run_cli, copy_definition, tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    yaml = folder / "one_minute_war.yaml"
    shutil.copyfile(copy_definition("one_minute_war"), yaml)
    png(tmp_path / "shared" / "logo.png", (50, 50))
    set_key(yaml, "  text: One Minute War", "  image: ../shared/logo.png")
    assert run_cli("build", yaml, "--out", tmp_path / "o").exit_code == 2
    result = run_cli("build", yaml, "--allow-outside", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "one_minute_war" / "one_minute_war.pdf") as pdf:
        assert len(pdf.pages[1].images) == 11


def test_missing_and_broken_fonts_are_located(run_cli, copy_definition, tmp_path):
    yaml = copy_definition("one_minute_war")
    (tmp_path / "bad.ttf").write_bytes(b"not a font")
    line = set_key(yaml, "  text: One Minute War", "  font: missing.ttf")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(rf":{line}: logo\.font: expected a file, but .*missing\.ttf does not exist", result.output)
    yaml.write_text(yaml.read_text().replace("font: missing.ttf", "font: bad.ttf"))
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(rf":{line}: logo\.font: bad\.ttf is not a TrueType font printgen can embed", result.output)
    assert not (tmp_path / "o").exists()


# -- templates from the definition's own folder ----------------------------------------------------

def war_with_templates(copy_definition, tmp_path: Path, rules: str) -> Path:
    yaml = copy_definition("one_minute_war")
    mine = tmp_path / "my_templates" / "one_minute_war"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text(rules)
    yaml.write_text(yaml.read_text() + "templates: my_templates/\n")
    return yaml


def test_definition_templates_are_used_and_cli_templates_come_first(run_cli, copy_definition, tmp_path):
    yaml = war_with_templates(copy_definition, tmp_path, "# {{ d.title }} by the campfire\n\nShort rules.\n")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "one_minute_war" / "one_minute_war.pdf") as pdf:
        words = {w["text"] for w in pdf.pages[0].extract_words()}  # the title wraps beside the card
        assert {"by", "the", "campfire"} <= words, words
    first = tmp_path / "first" / "one_minute_war"
    first.mkdir(parents=True)
    (first / "rules.md.j2").write_text("# Command line wins\n\nEven shorter.\n")
    result = run_cli("build", yaml, "--templates", tmp_path / "first", "--out", tmp_path / "o2")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o2" / "one_minute_war" / "one_minute_war.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "Even shorter." in text and "campfire" not in text


@pytest.mark.parametrize("rules, line, message", [
    ("# T\n\n{{ d.__class__.__mro__[1].__subclasses__() }}\n", 3, r"template error: access to attribute '__class__' .* is unsafe"),
    ("# T\n\n{{ cycler.__init__.__globals__ }}\n", 3, r"template error: .*(unsafe|undefined)"),
    ("# T\n\nfine\n{{ d.no_such_key }}\n", 4, r"template error: .*no_such_key"),
    ("# T\n{% if d.title %}\nunclosed\n", 3, r"template error: Unexpected end of template"),
    ("# T\n\n{{ 1 // 0 }}\n", 3, r"template error: ZeroDivisionError"),
])
def test_template_errors_name_the_template_file_and_line(run_cli, copy_definition, tmp_path, rules, line, message):
    yaml = war_with_templates(copy_definition, tmp_path, rules)
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 2, result.output
    assert re.search(rf"my_templates/one_minute_war/rules\.md\.j2:{line}: {message}", result.output), result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_a_missing_template_folder_is_located(run_cli, copy_definition, tmp_path):
    yaml = copy_definition("one_minute_war")
    yaml.write_text(yaml.read_text() + "templates: nowhere/\n")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    last = len(yaml.read_text().splitlines())
    assert result.exit_code == 2
    assert re.search(rf"one_minute_war\.yaml:{last}: templates: expected a folder, but .*nowhere does not exist",
                     result.output), result.output


def test_svg_and_xml_templates_escape_what_they_insert(tmp_path):
    assert all(autoescape(name) for name in ("a.svg.j2", "a.xml.j2", "a.txt.j2", "a.md.j2", "a.svg", "other.j2"))
    (tmp_path / "card.svg.j2").write_text('<text>{{ name }}</text>\n')
    out = render("card.svg.j2", {"name": 'Fish & "Chips" <b>'}, [tmp_path])
    assert out == "<text>Fish &amp; &#34;Chips&#34; &lt;b&gt;</text>\n"


SHADED_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="42mm" height="42mm" viewBox="0 0 42 42">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="42" y2="0" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="#000000"/><stop offset="1" stop-color="#0000ff"/>
    </linearGradient>
  </defs>
  <rect width="42" height="21" fill="url(#g)"/>
  <rect y="21" width="42" height="21" fill="#ff0000" fill-opacity="0.5"/>
</svg>
"""


def test_svg_art_keeps_its_gradients_and_transparency(run_cli, copy_definition, tmp_path):
    """SVG art is stored as a PDF form; its shadings and graphics states must come with it."""
    import pypdfium2

    yaml = copy_definition("omiga")
    (tmp_path / "back.svg").write_text(SHADED_SVG)
    yaml.write_text(yaml.read_text() + "\nart:\n  white_back: back.svg\n")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    pdf_path = tmp_path / "o" / "omiga" / "omiga.pdf"
    with pdfplumber.open(pdf_path) as pdf:  # the first tile back on the first back page
        page = pdf.pages[3]
        boxes = sorted((r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects
                       if abs(r["width"] / MM - 42) < 0.01 and abs(r["height"] / MM - 21) < 0.01)
    scale = 4
    image = pypdfium2.PdfDocument(pdf_path)[3].render(scale=scale).to_pil().convert("RGB")
    x0, top, x1, bottom = boxes[0]

    def pixel(fx: float, fy: float) -> tuple[int, ...]:
        return image.getpixel((int((x0 + fx * (x1 - x0)) * scale), int((top + fy * (bottom - top)) * scale)))

    lower = [r for r in boxes if abs(r[1] - top) > 1]  # the half-transparent red rect sits below
    assert lower, boxes
    x0, top, x1, bottom = lower[0]
    red = pixel(0.5, 0.5)
    assert red[0] > 240 and 110 < red[1] < 150 and 110 < red[2] < 150  # half red over white
    x0, top, x1, bottom = boxes[0]
    left, right = pixel(0.05, 0.5), pixel(0.95, 0.5)
    assert left[2] < 40 and right[2] > 200  # black to blue, not one flat colour


def test_deck_back_art_covers_the_tile_and_its_bleed(run_cli, copy_definition, tmp_path):
    yaml = copy_definition("omiga")
    png(tmp_path / "back.png", (300, 300), (200, 40, 40))
    yaml.write_text(yaml.read_text() + "\nart:\n  white_back: back.png\n")  # with the default 2 mm bleed
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "omiga" / "omiga.pdf") as pdf:
        backs = images_mm(pdf.pages[3])  # the first sheet's backs: 24 white tiles, each drawn with its
        assert "sheet 1 of 3" in pdf.pages[3].extract_text()  # bleed and then without, on top
    bled = [(w, h) for _, _, w, h in backs if w > 44]
    assert len(bled) == 24 and len(backs) == 48
    assert all(w == pytest.approx(46, abs=0.01) and h == pytest.approx(46, abs=0.01) for w, h in bled)
    assert image_xobjects(tmp_path / "o" / "omiga" / "omiga.pdf") == 1


def test_fracas_token_image_on_every_token_and_in_the_export(run_cli, copy_definition, tmp_path):
    yaml = copy_definition("fracas")
    png(tmp_path / "emblem.png", (100, 100), (176, 58, 46))
    set_key(yaml, "    suits: hearts and diamonds", "    token_image: emblem.png")
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "fracas" / "fracas-tokens.pdf") as pdf:
        placed = images_mm(pdf.pages[0])
        corner = [c for c in pdf.pages[0].chars if c["text"] == "5"]
    # 22 mm tokens: the emblem fits above the 8.5 pt name, in 18 x 14.9 mm, so it is 14.9 mm square;
    # Red's 10 ones and 2 fives carry it, and a five says so in its top-left corner
    assert len(placed) == 12
    assert len([c for c in corner if 9 < c["size"] < 12]) == 2
    assert all(w == pytest.approx(14.9, abs=0.01) and h == pytest.approx(14.9, abs=0.01)
               for _, _, w, h in placed)
    result = run_cli("export", yaml, "--print-shop", "--out", tmp_path / "e")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "e" / "fracas" / "print-shop" / "token-red.pdf") as pdf:
        assert len(pdf.pages[0].images) == 1
    with pdfplumber.open(tmp_path / "e" / "fracas" / "print-shop" / "token-red-5.pdf") as pdf:
        assert len(pdf.pages[0].images) == 1 and "5" in pdf.pages[0].extract_text()


FONT_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="60" height="80" viewBox="0 0 60 80">
  <rect width="60" height="80" fill="#224466"/>
  <text x="5" y="40" font-family="DejaVu Sans" font-size="9" fill="#ffffff">Quokka</text>
</svg>
"""


def test_svg_text_in_a_family_found_only_on_this_machine_is_drawn_in_the_embedded_font(run_cli, copy_definition,
                                                                                       tmp_path):
    """svglib alone would look the family up with fontconfig inside the bounded child and hand the
    PDF writer a font it never registered (an internal error), and would make the drawing depend on
    the fonts of the machine; a standard PDF font instead would be named in the PDF but not embedded.
    The text is drawn in printgen's embedded sans, with a warning."""
    yaml = omiga_with_back_art(copy_definition, tmp_path, FONT_SVG)
    result = run_cli("build", yaml, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if "font-family" in line]
    assert len(warned) == 1 and "'DejaVu Sans'" in warned[0] and "Bitstream Vera Sans" in warned[0], result.stderr
    assert re.search(r"\.svg:3: warning: font-family 'DejaVu Sans' is not available", warned[0]), warned  # its line
    with pdfplumber.open(tmp_path / "o" / "omiga" / "omiga.pdf") as pdf:
        quokka = "".join(c["text"] for page in pdf.pages for c in page.chars if "Vera" in c["fontname"])
        others = {c["fontname"] for page in pdf.pages for c in page.chars if "Vera" not in c["fontname"]}
    assert "Quokka" in quokka and others == set()
