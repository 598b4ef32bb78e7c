"""Bitmap art larger than the pixels it covers in a card picture is resampled once for the picture
(printgen.art.loaded), and the PDFs printed keep the art as it was given. Read back with Pillow
and pypdf."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from printgen.core.build import BuildOptions
from printgen.core.paper import PAPERS
from printgen.games import load
from printgen.output.pdf import write_pdf
from printgen.output.writers import write

ART_BOX = (11.75, 17.0, 40.0, 36.0)  # x, y, width, height in mm: 237 x 213 pixels at 150 dpi
INSIDE_ART = (80, 110, 290, 300)  # a box of pixels well inside the art on a 150 dpi card picture


def deck(folder: Path, art: Image.Image, background: str = "#ffffff") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    art.save(folder / "art.png")
    x, y, width, height = ART_BOX
    (folder / "deck.yaml").write_text(f"""game: deck
title: Resampled
card: {{size: poker}}
rows:
  - {{title: One}}
  - {{title: Two}}
face:
  background: "{background}"
  layout:
    - {{type: image, src: art.png, x: {x}, y: {y}, width: {width}, height: {height}}}
    - {{type: text, text: "{{{{ title }}}}", x: 5, y: 5, width: 50, height: 10, size: 12}}
back:
  background: "#2f3e4e"
""", encoding="utf-8")
    return folder / "deck.yaml"


def checkerboard(width: int, height: int) -> Image.Image:
    """Black and white pixels in turn: the hardest art to shrink without a pattern showing."""
    row = bytes(255 * (x % 2) for x in range(width + 1))
    return Image.frombytes("L", (width, height), b"".join(row[y % 2:y % 2 + width] for y in range(height))).convert("RGB")


def image_sizes(pdf: bytes) -> set[tuple[int, int]]:
    """The size in pixels of every image in the PDF, wherever it is stored (in forms too)."""
    sizes: set[tuple[int, int]] = set()
    seen: set[int] = set()

    def visit(resources) -> None:
        for xobject in (resources.get("/XObject") or {}).values():
            ref = getattr(xobject, "idnum", None)
            if ref in seen:
                continue
            seen.add(ref)
            item = xobject.get_object()
            if item["/Subtype"] == "/Image":
                sizes.add((int(item["/Width"]), int(item["/Height"])))
            elif "/Resources" in item:
                visit(item["/Resources"])

    for page in PdfReader(io.BytesIO(pdf)).pages:
        visit(page["/Resources"])
    return sizes


def pixels(path: Path) -> Image.Image:
    with Image.open(path) as image:
        return image.convert("RGB")


def test_large_art_is_shrunk_evenly_in_card_pictures_and_printed_as_given(run_cli, tmp_path):
    """A checkerboard 3.4 times finer than the picture's pixels comes out an even mid grey (pdfium
    sampling it on every card left a pattern of +-5 levels), and deck.pdf still holds all its pixels."""
    definition = deck(tmp_path / "in", checkerboard(800, 720))
    result = run_cli("build", definition, "--out", tmp_path / "out", "--png")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "deck"
    for name in ("one", "two"):
        area = ImageStat.Stat(pixels(folder / "png" / f"{name}.png").convert("L").crop(INSIDE_ART))
        assert abs(area.mean[0] - 127.5) < 2 and area.stddev[0] < 1.0, name
    assert image_sizes((folder / "deck.pdf").read_bytes()) == {(800, 720)}


def test_a_picture_drawn_alone_is_shrunk_alike_and_its_pdf_holds_the_shrunk_art(tmp_path):
    """The picture of one card drawn on its own (output.png.write_png) has the pixels of the same card
    drawn among the others, and the PDF it is rasterised from holds the art at the pixels it covers,
    where a PDF for print holds it as given."""
    definition = deck(tmp_path / "in", checkerboard(800, 720))
    loaded = load(definition)
    documents = loaded.game.build(loaded.definition, BuildOptions(PAPERS["a4"], png=True), loaded)
    card = next(doc for doc in documents if doc.name == "png/one.png")
    assert image_sizes(write_pdf(card, raster_dpi=card.dpi)) == {(237, 213)}
    assert image_sizes(write_pdf(card)) == {(800, 720)}
    from printgen.output.png import write_pngs

    together = write_pngs([doc for doc in documents if doc.kind == "png" and doc.name.startswith("png/")])[0]
    with Image.open(io.BytesIO(together)) as batched, Image.open(io.BytesIO(write(card))) as single:
        difference = ImageChops.difference(batched.convert("RGB"), single.convert("RGB"))
    assert max(high for _, high in difference.getextrema()) == 0  # each card a page of its own size


@pytest.mark.parametrize("scale, resampled", [(4.0, True), (1.1, False)])
def test_art_only_a_little_larger_than_its_pixels_is_left_to_the_rasteriser(tmp_path, scale, resampled):
    art = Image.new("RGB", (round(237 * scale), round(213 * scale)), (40, 90, 160))
    definition = deck(tmp_path / "in", art)
    loaded = load(definition)
    documents = loaded.game.build(loaded.definition, BuildOptions(PAPERS["a4"], png=True), loaded)
    card = next(doc for doc in documents if doc.name == "png/one.png")
    assert image_sizes(write_pdf(card, raster_dpi=card.dpi)) == ({(237, 213)} if resampled else {art.size})


def test_transparent_art_stays_transparent_when_shrunk(run_cli, tmp_path):
    """Art whose left half is opaque red and right half clear, on a blue card: the red half shows red,
    the clear half the card's blue, with no dark fringe where they meet (premultiplied resampling)."""
    art = Image.new("RGBA", (948, 852), (0, 0, 0, 0))
    art.paste((220, 30, 30, 255), (0, 0, 474, 852))
    definition = deck(tmp_path / "in", art, background="#3050d0")
    result = run_cli("build", definition, "--out", tmp_path / "out", "--png")
    assert result.exit_code == 0, result.output
    picture = pixels(tmp_path / "out" / "deck" / "png" / "one.png")
    left, top, right, bottom = INSIDE_ART
    middle = (left + right) // 2
    assert picture.getpixel((left + 5, 200)) == (220, 30, 30)
    assert picture.getpixel((right - 5, 200)) == (0x30, 0x50, 0xd0)
    across = [picture.getpixel((x, 200)) for x in range(left, right)]
    assert min(sum(colour) for colour in across) >= min(220 + 30 + 30, 0x30 + 0x50 + 0xd0) - 12  # no dark seam
    assert middle - 10 < next(x for x in range(left, right) if picture.getpixel((x, 200))[2] > 100) < middle + 10


def test_one_group_drawn_at_two_scales_gets_the_art_resampled_for_each(tmp_path):
    """A group holding art, drawn at its own size and twice as large on one picture: each place gets
    the copy resampled for its own size (the small copy placed large would blur it)."""
    from reportlab.graphics.shapes import Group

    from printgen.art.library import load_bitmap
    from printgen.core.paper import Paper
    from printgen.drawing.document import Document, Page

    encoded = io.BytesIO()
    checkerboard(1000, 1000).save(encoded, "PNG")
    art = load_bitmap(tmp_path / "art.png", encoded.getvalue(), "PNG")
    shared = Group(art.shape(0, 0, 40, 40))  # 237 x 237 pixels at 150 dpi; 473 x 473 drawn twice as large
    at_own_size, twice_as_large = (Group(shared, transform=(1, 0, 0, 1, x, 0)) for x in (0, 100))
    doubled = [Group(shared, transform=(2, 0, 0, 2, 0, 100)) for _ in range(2)]
    page = Page(shapes=[at_own_size, twice_as_large, *doubled])
    doc = Document("a.png", Paper("picture", 200, 200), [page], "two scales", dpi=150)
    assert image_sizes(write_pdf(doc, raster_dpi=150)) == {(237, 237), (473, 473)}


@pytest.mark.parametrize("mode, resampled", [("RGB", True), ("L", True), ("CMYK", False)])
def test_jpeg_art_is_resampled_unless_its_colours_are_not_rgb_or_grey(tmp_path, mode, resampled):
    """A JPEG is stored in printed PDFs as its own file; for a picture an RGB or grey one is decoded
    and resampled, and a CMYK one left as it is (converting it here could shift its colours)."""
    folder = tmp_path / "in"
    folder.mkdir()
    Image.new(mode, (948, 852), {"RGB": (40, 90, 160), "L": 90, "CMYK": (80, 40, 0, 20)}[mode]).save(
        folder / "art.jpg", "JPEG")
    definition = deck(folder, Image.new("RGB", (8, 8)))
    definition.write_text(definition.read_text().replace("src: art.png", "src: art.jpg"), encoding="utf-8")
    loaded = load(definition)
    documents = loaded.game.build(loaded.definition, BuildOptions(PAPERS["a4"], png=True), loaded)
    card = next(doc for doc in documents if doc.name == "png/one.png")
    assert image_sizes(write_pdf(card)) == {(948, 852)}
    assert image_sizes(write_pdf(card, raster_dpi=card.dpi)) == ({(237, 213)} if resampled else {(948, 852)})
    with Image.open(io.BytesIO(write(card))) as picture:
        assert picture.size == (375, 525)
