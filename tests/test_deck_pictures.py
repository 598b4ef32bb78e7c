"""Card pictures drawn as cells of shared pages (printgen.output.cellpages), read back with Pillow:
each has the size and, within one level at an anti-aliased edge, the pixels of the card drawn and
rasterised alone, and nothing another card draws reaches it, however far past its edge it goes."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from conftest import cards_only
from printgen.drawing.document import Document
from printgen.core.build import BuildOptions
from printgen.core.paper import PAPERS
from printgen.games import bundled_definition, load
from printgen.output.writers import write

FLOOD = (255, 0, 255)  # the colour the flooding card spreads far past its edges
CARDS = 7


def pixels(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def alone(definition: Path, dpi: int) -> dict[str, bytes]:
    """Every card picture drawn and rasterised as a document of its own: one page, one card."""
    loaded = load(definition)
    documents = loaded.game.build(loaded.definition, BuildOptions(PAPERS["a4"], dpi=dpi, png=True), loaded)
    return {doc.name: write(doc) for doc in documents
            if isinstance(doc, Document) and doc.kind == "png" and doc.name.startswith("png/")}


def built(run_cli, definition: Path, out: Path, *args: str) -> dict[str, bytes]:
    result = run_cli("build", definition, "--out", out, "--png", *args)
    assert result.exit_code == 0, result.output
    folder = out / definition.stem / "png"
    return {f"png/{path.name}": path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("dpi", ["150", "61"])
def test_each_card_picture_has_the_pixels_of_the_card_drawn_alone(run_cli, tmp_path, dpi):
    definition = bundled_definition("deck")
    mine = built(run_cli, definition, tmp_path / "out", "--dpi", dpi)
    theirs = alone(definition, int(dpi))
    assert set(mine) == set(theirs) and len(mine) > 2
    for name, data in mine.items():
        batched, single = pixels(data), pixels(theirs[name])
        assert batched.size == single.size, name
        difference = ImageChops.difference(batched, single)
        # sub-pixel rounding at most: 2 levels, which the sample's curved pictures (the leaf, the
        # flame) reach at one or two anti-aliased edge pixels when drawn at another sub-pixel offset
        assert max(high for _, high in difference.getextrema()) <= 2, name


@pytest.fixture
def flooding_deck(tmp_path) -> Path:
    """Seven plain cards (pale grey); the fourth also draws a magenta rectangle reaching 300 mm
    past every edge of the card, over where its neighbours lie on any page."""
    folder = tmp_path / "flood"
    folder.mkdir()
    rows = "\n".join(f"      - {{title: Card {n}, flood: {'yes' if n == 4 else 'no'}}}" for n in range(1, CARDS + 1))
    (folder / "flood.yaml").write_text(f"""game: deck
title: Flood
card: {{size: poker, corner_radius: 0}}
rows:
{rows}
face:
  background: "#eeeeee"
  layout:
    - {{type: rect, when: "flood == 'yes'", x: -300, y: -300, width: 663.5, height: 688.9, fill: "#ff00ff"}}
    - {{type: text, text: "{{{{ title }}}}", x: 5, y: 5, width: 50, height: 10, size: 12}}
back:
  background: "#2f3e4e"
""", encoding="utf-8")
    return folder / "flood.yaml"


def test_what_a_card_draws_past_its_edge_never_reaches_another_cards_picture(run_cli, tmp_path, flooding_deck):
    mine = built(run_cli, flooding_deck, tmp_path / "out")
    assert len(mine) == CARDS + 1
    for name, data in mine.items():
        colours = {colour for _, colour in pixels(data).getcolors(1 << 20)}
        if name == "png/card-4.png":
            assert FLOOD in colours and (0xee, 0xee, 0xee) not in colours, name  # flooded to its edges
        else:
            assert FLOOD not in colours, name
            assert not any(red > 200 and blue > 200 and green < 100 for red, green, blue in colours), name


def test_a_card_picture_shows_the_card_at_its_trim_size(run_cli, tmp_path, flooding_deck):
    mine = built(run_cli, flooding_deck, tmp_path / "out")
    for name, data in mine.items():
        picture = pixels(data)
        assert picture.size == (375, 525), name  # 63.5 x 88.9 mm at 150 dpi, no bleed
        corners = [picture.getpixel(at) for at in ((0, 0), (374, 0), (0, 524), (374, 524))]
        expected = {"png/card-4.png": FLOOD, "png/back.png": (0x2f, 0x3e, 0x4e)}.get(name, (0xee, 0xee, 0xee))
        assert corners == [expected] * 4, name


def test_pictures_come_out_the_same_bytes_each_build(run_cli, tmp_path, sample_deck_png):
    folder = sample_deck_png / "png"  # one build (the session's) ...
    first = {f"png/{path.name}": path.read_bytes() for path in sorted(folder.iterdir())}
    second = built(run_cli, bundled_definition("deck"), tmp_path / "two")  # ... and another
    assert len(first) > 2
    assert first == second


def test_more_cards_than_a_page_holds_keep_their_order(run_cli, tmp_path):
    """Past the first page of cells (fifty pictures) each file still holds its own card, in a build
    large enough to keep its files in a spool folder (writers.SPOOL_AFTER)."""
    folder = tmp_path / "many"
    shutil.copytree(bundled_definition("deck").parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    cards_only(folder / "deck.yaml")  # its rows renamed: the rulebook, which names them, left out
    header, *rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    lines = [header] + [f"Card {n + 1},{rows[n % len(rows)].split(',', 1)[1]}" for n in range(170)]
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    mine = built(run_cli, folder / "deck.yaml", tmp_path / "out", "--dpi", "40")
    theirs = alone(folder / "deck.yaml", 40)
    assert set(mine) == set(theirs) and len(mine) > 170
    for name in ("png/card-1.png", "png/card-51.png", "png/card-100.png", "png/card-170.png"):
        difference = ImageChops.difference(pixels(mine[name]), pixels(theirs[name]))
        # 2 of 255: at 40 dpi an edge of the potions' thin curves may round one step apart
        assert max(high for _, high in difference.getextrema()) <= 2, name



def test_pictures_drawn_together_match_each_drawn_alone_whatever_their_size_and_shift():
    """output.png.write_pngs (serve's piece pictures, a deck's cards): an odd size, a page whose
    content is shifted, a red square reaching past the picture's edge, and a document drawing no
    page (a blank picture, in its turn)."""
    from reportlab.lib.colors import Color

    from printgen.core.paper import Paper
    from printgen.drawing.document import Document, Page
    from printgen.drawing.picture import rect
    from printgen.output.cellpages import Cells
    from printgen.output.png import write_pngs

    paper = Paper("odd", 41.3, 27.7)
    def picture(n: int) -> Document:
        shapes = [rect(0, 0, 41.3, 27.7, fill=Color(0.9, 0.9, 1.0)),
                  rect(5 + n, 3, 60, 8 + n, fill=Color(0.8, 0.1, 0.1), stroke=Color(0, 0, 0), radius=2)]
        pages = [] if n == 3 else [Page(shapes, shift=(1.5, -2.25) if n % 2 else (0.0, 0.0))]
        return Document(f"p{n}.png", paper, pages, "pictures", dpi=97)

    documents = [picture(n) for n in range(7)]
    assert Cells.of(paper.width, paper.height, 97, len(documents)).per_page >= len(documents)
    together = write_pngs(documents)
    for doc, data in zip(documents, together):
        single = pixels(write(doc)) if doc.pages else Image.new("RGB", pixels(data).size, (255, 255, 255))
        batched = pixels(data)
        assert batched.size == single.size, doc.name
        difference = ImageChops.difference(batched, single)
        assert max(high for _, high in difference.getextrema()) <= 1, doc.name


def test_cells_of_a_large_picture_stay_within_the_largest_page():
    from printgen.core.paper import pt
    from printgen.output.cellpages import CELLS_PER_PAGE, MAX_PAGE_PT, Cells

    for width, height, count, least in ((300.0, 400.0, 1000, 40), (63.5, 88.9, 1000, CELLS_PER_PAGE), (10.0, 10.0, 3, 3)):
        cells = Cells.of(width, height, 150, count)
        assert pt(cells.paper.width) <= MAX_PAGE_PT + 1 and pt(cells.paper.height) <= MAX_PAGE_PT + 1
        assert least <= cells.per_page < CELLS_PER_PAGE + cells.columns
