"""`printgen export` (print-shop files and Tabletop Simulator sheets) and `build --bleed`, measured in
the real files: page boxes with pypdf, art past the cut in the rendered pixels, image sizes with
Pillow, the manifest and decks.json as written.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from pdfmeasure import CUT_DASH, segments
from conftest import cards_only
from printgen.layout.cards import Card
from printgen.layout.export import TTS_PER_SHEET, tts
from printgen.output.png import png_from_pdf


# one pytest-xdist worker runs every test here (`--dist loadgroup`, pyproject.toml), so the
# module-scoped builds (the export of Omiga and Fracas) are made once, not once on each worker
pytestmark = pytest.mark.xdist_group("export")

MM = 72 / 25.4
TILE = 42.0


def box_mm(box) -> tuple[float, ...]:
    return tuple(round(float(v) / MM, 4) for v in (box.left, box.bottom, box.right, box.top))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    from printgen.cli.main import cli

    out = tmp_path_factory.mktemp("export")
    result = CliRunner().invoke(cli, ["export", "omiga", "fracas", "--print-shop", "--tts", "--dpi", "100",
                                      "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def test_print_shop_has_a_file_per_face_and_per_back_and_a_manifest(exported):
    folder = exported / "omiga" / "print-shop"
    pdfs = sorted(p.name for p in folder.glob("*.pdf"))
    assert len(pdfs) == 74 and "white-01.pdf" in pdfs and "black-36.pdf" in pdfs
    assert {"back-white.pdf", "back-black.pdf"} <= set(pdfs)
    rows = list(csv.DictReader(io.StringIO((folder / "manifest.csv").read_text())))
    assert sorted(r["file"] for r in rows) == pdfs
    faces = [r for r in rows if r["side"] == "face"]
    backs = {r["file"]: r for r in rows if r["side"] == "back"}
    assert len(faces) == 72 and all(r["quantity"] == "1" and r["kind"] == "tile" for r in faces)
    assert {f: r["quantity"] for f, r in backs.items()} == {"back-white.pdf": "36", "back-black.pdf": "36"}
    assert all(r["trim_width_mm"] == "42" and r["trim_height_mm"] == "42" and r["bleed_mm"] == "3" for r in rows)
    assert all(r["back"] in backs for r in faces)


@pytest.mark.parametrize("name,size", [("omiga/print-shop/white-07.pdf", TILE),
                                       ("omiga/print-shop/back-black.pdf", TILE),
                                       ("fracas/print-shop/token-red.pdf", 22.0)])
def test_each_print_shop_file_has_its_trim_size_and_3mm_bleed(exported, name, size):
    reader = PdfReader(exported / name)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert "/TrimBox" in page and "/BleedBox" in page
    assert box_mm(page.mediabox) == pytest.approx((0, 0, size + 6, size + 6), abs=1e-3)
    assert box_mm(page.bleedbox) == box_mm(page.mediabox)
    assert box_mm(page.trimbox) == pytest.approx((3, 3, size + 3, size + 3), abs=1e-3)
    # the art really runs into the bleed: the page's corner pixels carry colour, not bare paper
    image = Image.open(io.BytesIO(png_from_pdf((exported / name).read_bytes(), 100))).convert("RGB")
    inner = image.getpixel((round(3.5 / 25.4 * 100), round(3.5 / 25.4 * 100)))
    assert image.getpixel((0, 0)) == inner


def test_fracas_manifest_counts_every_token(exported):
    rows = list(csv.DictReader(io.StringIO((exported / "fracas" / "print-shop" / "manifest.csv").read_text())))
    faces = {r["file"]: r["quantity"] for r in rows if r["side"] == "face"}
    assert faces == {"token-red.pdf": "10", "token-red-5.pdf": "2", "token-black.pdf": "10", "token-black-5.pdf": "2"}
    assert {r["kind"] for r in rows} == {"life token"}


def test_tts_sheets_are_whole_pixel_grids_with_a_back_image(exported):
    folder = exported / "omiga" / "tts"
    described = json.loads((folder / "decks.json").read_text())
    assert [d["deck"] for d in described["decks"]] == ["white", "black"]
    cell = round(TILE / 25.4 * 100)
    for deck in described["decks"]:
        assert deck["card_px"] == [cell, cell] and deck["card_mm"] == [TILE, TILE]
        (sheet,) = deck["sheets"]
        assert (sheet["columns"], sheet["rows"], sheet["count"]) == (10, 4, 36)
        image = Image.open(folder / sheet["file"])
        assert image.size == (10 * cell, 4 * cell)
        back = Image.open(folder / deck["back"]).convert("RGB")
        assert back.size == (cell, cell)
        # the spare last cell holds the back (TTS shows it for a hidden card)
        last = image.convert("RGB").crop((9 * cell, 3 * cell, 10 * cell, 4 * cell))
        assert max(ImageStat.Stat(ImageChops.difference(last, back)).mean) < 2
        first = image.convert("RGB").crop((0, 0, cell, cell))
        assert max(ImageStat.Stat(ImageChops.difference(first, back)).mean) > 10


def test_tts_repeats_a_card_by_its_quantity(exported):
    described = json.loads((exported / "fracas" / "tts" / "decks.json").read_text())
    red = described["decks"][0]
    assert red["deck"] == "Red tokens"
    (sheet,) = red["sheets"]
    assert (sheet["columns"], sheet["rows"], sheet["count"]) == (10, 2, 12)
    assert sheet["cards"] == ["token-red"] * 10 + ["token-red-5"] * 2


class Square:
    """A plain piece for checking the sheet arithmetic without a game."""

    width = height = 10.0

    def front(self, bleed: float = 0.0):
        from reportlab.graphics.shapes import Group
        return Group()

    back = front


def test_tts_starts_a_new_sheet_after_69_faces():
    files = tts("demo", [Card(f"c{i}", "card", "deck", Square()) for i in range(70)], dpi=50)
    described = json.loads(next(f for f in files if f.name.endswith("decks.json")).data)
    sheets = described["decks"][0]["sheets"]
    assert [(s["columns"], s["rows"], s["count"]) for s in sheets] == [(10, 7, TTS_PER_SHEET), (2, 2, 1)]
    assert TTS_PER_SHEET == 69


def test_games_without_cards_say_so_and_write_nothing(run_cli, tmp_path):
    result = run_cli("export", "one_minute_war", "--tts", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "One Minute War has no separate cards" in result.stderr and "omiga" in result.stderr
    assert not (tmp_path / "o").exists()
    nothing = run_cli("export", "omiga", "--out", tmp_path / "o")
    assert nothing.exit_code == 2 and "--print-shop, --tts" in nothing.output


# --bleed on build

def cut_mark_extent(page) -> tuple[float, float, float, float]:
    """Left, bottom, right and top cut lines, from the marks in the margins."""
    marks = segments(page, CUT_DASH)
    xs = [m.x1 for m in marks if abs(m.x1 - m.x2) < 1e-6]
    ys = [m.y1 for m in marks if abs(m.y1 - m.y2) < 1e-6]
    return min(xs), min(ys), max(xs), max(ys)


def test_bleed_3_sets_trim_and_bleed_boxes_3mm_apart_on_omiga_sheets(run_cli, tmp_path):
    result = run_cli("build", "omiga", "--bleed", "3", "--back-offset", "1,-2", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / "omiga" / "omiga.pdf"
    reader = PdfReader(path)
    sheets = reader.pages[2:]  # the rules sheet comes first: nothing to trim there
    assert all("/TrimBox" not in page and "/BleedBox" not in page for page in reader.pages[:2])
    with pdfplumber.open(path) as pdf:
        for index, page in enumerate(sheets, start=2):
            trim, bleed = box_mm(page.trimbox), box_mm(page.bleedbox)
            assert [b - t for b, t in zip(bleed, trim)] == pytest.approx([-3, -3, 3, 3], abs=1e-3)
            # the TrimBox is where the cut marks say to cut (the back page moves with its offset)
            assert cut_mark_extent(pdf.pages[index]) == pytest.approx(trim, abs=1e-3)


def test_bleed_overrides_the_definition_and_sizes_the_gutter_between_the_decks(run_cli, tmp_path):
    for bleed, gutter in (("3", [6.0, TILE]), ("0", [TILE])):
        assert run_cli("build", "omiga", "--bleed", bleed, "--out", tmp_path / bleed).exit_code == 0
        with pdfplumber.open(tmp_path / bleed / "omiga" / "omiga.pdf") as pdf:
            middle = pdf.pages[4]  # the sheet where the white deck's last rows meet the black deck's
            ys = sorted({round(m.y1, 3) for m in segments(middle, CUT_DASH) if abs(m.y1 - m.y2) < 1e-6})
            xs = sorted({round(m.x1, 3) for m in segments(middle, CUT_DASH) if abs(m.x1 - m.x2) < 1e-6})
        assert sorted({round(b - a, 3) for a, b in zip(ys, ys[1:])}) == gutter
        assert {round(b - a, 3) for a, b in zip(xs, xs[1:])} == {TILE}  # one deck's tiles share cuts


def test_bleed_on_fracas_tokens_runs_the_colour_past_the_outer_cuts(run_cli, tmp_path):
    assert run_cli("build", "fracas", "--bleed", "3", "--out", tmp_path).exit_code == 0
    path = tmp_path / "fracas" / "fracas-tokens.pdf"
    tokens = PdfReader(path).pages[0]
    trim, bleed = box_mm(tokens.trimbox), box_mm(tokens.bleedbox)
    assert [b - t for b, t in zip(bleed, trim)] == pytest.approx([-3, -3, 3, 3], abs=1e-3)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        height = float(page.height)
        tinted = [r for r in page.rects if r.get("fill") and r["width"] < 40 * MM]
        left = min(r["x0"] for r in tinted) / MM
        top = max(height - r["top"] for r in tinted) / MM
        cuts = segments(page, CUT_DASH)
        first_cut = min(c.x1 for c in cuts if abs(c.x1 - c.x2) < 1e-6)
    assert left == pytest.approx(trim[0] - 3, abs=1e-3) and top == pytest.approx(trim[3] + 3, abs=1e-3)
    assert first_cut == pytest.approx(trim[0], abs=1e-3)


def test_bleed_on_a_game_without_pieces_says_so(run_cli, tmp_path):
    result = run_cli("build", "one_minute_war", "--bleed", "3", "--out", tmp_path)
    assert result.exit_code == 0
    assert "One Minute War has no imposed pieces" in result.stderr
    assert run_cli("build", "omiga", "--bleed", "9", "--out", tmp_path).exit_code == 2


def test_list_says_which_games_export(run_cli):
    listed = run_cli("list").stdout
    assert "printgen export omiga --print-shop | --tts" in listed
    assert "printgen export fracas" in listed and "printgen export one_minute_war" not in listed


@pytest.mark.parametrize("dpi", [100, 137])
def test_every_cell_of_a_tts_sheet_is_the_piece_drawn_alone(dpi):
    """A sheet is stretched to whole-pixel cells exactly: each cell, wherever it lies on the sheet,
    has the pixels of its piece rasterised on its own at the same size."""
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS
    from printgen.games import bundled_definition, load
    from printgen.layout.export import SheetGrid, card_pixels, grid_png

    loaded = load(bundled_definition("omiga"))
    faces = [card.piece.front(0.0) for card in loaded.game.pieces(loaded, BuildOptions(PAPERS["a4"]))[:36]]
    px = card_pixels(TILE, TILE, dpi)
    sheet = Image.open(io.BytesIO(grid_png(faces, SheetGrid.for_count(36), (TILE, TILE), px))).convert("RGB")
    assert sheet.size == (10 * px[0], 4 * px[1])
    for index in (0, 9, 27, 35):
        row, column = divmod(index, 10)
        cell = sheet.crop((column * px[0], row * px[1], (column + 1) * px[0], (row + 1) * px[1]))
        alone = Image.open(io.BytesIO(grid_png([faces[index]], SheetGrid(1, 1, 1), (TILE, TILE), px))).convert("RGB")
        assert max(ImageStat.Stat(ImageChops.difference(cell, alone)).mean) < 0.05, index


def test_a_deck_of_hundreds_exports_every_file_whole(run_cli, tmp_path, monkeypatch):
    """Past writers.SPOOL_AFTER cards each exported file is kept in a spool folder until written:
    every print-shop PDF still opens with its card's title, and every TTS sheet holds its cards.
    The threshold (300 cards) is lowered here to 80, so 90 cards (two TTS sheets) take that path;
    that the export kept its files in a spool folder is checked, not assumed."""
    import inspect
    import shutil

    from printgen.core import staging
    from printgen.games import bundled_definition
    from printgen.output import writers

    monkeypatch.setattr(writers, "SPOOL_AFTER", 80)  # read when the export runs, in its (forked) worker
    SPOOL_AFTER = writers.SPOOL_AFTER
    spooled = tmp_path / "spooled-by"

    class Recorded(staging.Staging):
        """A spool folder, its maker's file written down where the test can read it."""

        def __init__(self, *args, **kwargs) -> None:
            with open(spooled, "a") as record:
                record.write(Path(inspect.stack()[1].filename).as_posix() + "\n")
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(staging, "Staging", Recorded)
    folder = tmp_path / "many"
    shutil.copytree(bundled_definition("deck").parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    cards_only(folder / "deck.yaml")  # its rows renamed: the rulebook, which names them, left out
    header, *rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    count = SPOOL_AFTER + 10
    lines = [header] + [f"Card {n + 1},{rows[n % len(rows)].split(',', 1)[1]}" for n in range(count)]
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("export", folder / "deck.yaml", "--print-shop", "--tts", "--dpi", "50", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    shop = tmp_path / "out" / "deck" / "print-shop"
    manifest = list(csv.DictReader(io.StringIO((shop / "manifest.csv").read_text())))
    assert len(manifest) == len(list(shop.glob("*.pdf"))) > count
    for row in manifest[::50]:
        reader = PdfReader(shop / row["file"])
        assert len(reader.pages) == 1 and reader.metadata.title.startswith("Potion Shop")
    assert any(line.endswith("printgen/cli/export.py") for line in spooled.read_text().splitlines()), \
        spooled.read_text()
    described = json.loads((tmp_path / "out" / "deck" / "tts" / "decks.json").read_text())
    sheets = described["decks"][0]["sheets"]
    assert len(sheets) >= 2  # past one sheet of TTS_PER_SHEET cards
    assert sum(sheet["count"] for sheet in sheets) == sum(int(row["quantity"]) for row in manifest if row["side"] == "face")
    for sheet in sheets:
        with Image.open(tmp_path / "out" / "deck" / "tts" / sheet["file"]) as image:
            image.load()
            assert image.size[0] == sheet["columns"] * described["decks"][0]["card_px"][0]


def test_a_build_after_an_export_in_one_program_gives_the_files_the_command_gives(run_cli, tmp_path):
    """reportlab's shape checks are off while printgen draws: in the `printgen` command from the
    start, and in a program using printgen (this test's process) only inside printgen's work. An
    export drew its pieces with them on, so svglib's styles were refused on their text (a token's
    name lost its stroke width), and a build later in the same program took those pieces from
    memory."""
    import subprocess
    import sys

    exported = run_cli("export", "omiga", "fracas", "--tts", "--dpi", "100", "--out", tmp_path / "export")
    assert exported.exit_code == 0, exported.output
    built = run_cli("build", "fracas", "--out", tmp_path / "here")
    assert built.exit_code == 0, built.output
    subprocess.run([sys.executable, "-m", "printgen.launch", "build", "fracas", "--out", str(tmp_path / "apart")],
                   check=True, capture_output=True)
    for name in ("fracas-tokens.pdf", "fracas.pdf"):
        here = (tmp_path / "here" / "fracas" / name).read_bytes()
        assert here == (tmp_path / "apart" / "fracas" / name).read_bytes(), name


@pytest.mark.parametrize("size, dpi", [((63.5, 88.9), 200), ((57.0, 89.0), 150), ((70.0, 120.0), 100)])
def test_a_card_filled_to_its_edge_keeps_every_pixel_of_its_cell(size, dpi):
    """Cards whose background is a plain rectangle to their edges, each a different colour: every
    pixel of each cell is its own card's colour. pdfium fills such a rectangle to whole pixels, and
    float rounding (a millimetre is 2.834646 points in the PDF) can put a card's edge a hair past a
    pixel boundary, so drawn together its background took the last pixel row of the card above."""
    from reportlab.graphics.shapes import Group, Rect
    from reportlab.lib import colors
    from PIL import ImageDraw

    from printgen.layout.export import SheetGrid, card_pixels, grid_png

    width, height = size
    px = card_pixels(width, height, dpi)
    grid = SheetGrid.for_count(TTS_PER_SHEET)
    shades = [(n * 37 % 256, n * 91 % 256, n * 53 % 256) for n in range(grid.columns * grid.rows)]
    cards = [Group(Rect(0, 0, width, height, strokeColor=None, fillColor=colors.Color(*(v / 255 for v in shade))))
             for shade in shades]
    sheet = Image.open(io.BytesIO(grid_png(cards, grid, size, px))).convert("RGB")
    wanted = Image.new("RGB", sheet.size)
    draw = ImageDraw.Draw(wanted)
    for n, shade in enumerate(shades):
        row, column = divmod(n, grid.columns)
        draw.rectangle((column * px[0], row * px[1], (column + 1) * px[0] - 1, (row + 1) * px[1] - 1), fill=shade)
    off = ImageChops.difference(sheet, wanted).convert("L").point(lambda v: 255 if v > 2 else 0)
    assert off.getbbox() is None, off.getbbox()


def test_a_manifest_cell_never_starts_a_spreadsheet_formula(run_cli, tmp_path):
    """A deck titled like a formula (`=cmd|' /C calc'!A0`) landed raw in manifest.csv, where a
    spreadsheet would run it; the cell is written with a leading apostrophe and reads as text."""
    import shutil

    from printgen.games import bundled_definition

    shutil.copytree(bundled_definition("deck").parent, tmp_path / "mine",
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    definition = tmp_path / "mine" / "deck.yaml"
    text = definition.read_text()
    definition.write_text(text.replace("title: Potion Shop", "title: \"=cmd|' /C calc'!A0\"", 1))
    result = run_cli("export", definition, "--print-shop", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    manifest = next((tmp_path / "out").glob("*/print-shop/manifest.csv")).read_text()
    rows = list(csv.DictReader(io.StringIO(manifest)))
    assert {r["deck"] for r in rows} == {"'=cmd|' /C calc'!A0"}
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in rows for cell in r.values())
