"""Decks from a definition and a CSV: every output read back. Cards are counted and placed from the
PDF, backs measured against their mirrored fronts for both flips and for gutterfold, text boxes
found inside their cards, and data and layout problems located in the CSV and the definition."""
from __future__ import annotations

import csv
import hashlib
import io
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from lxml import etree
from pypdf import PdfReader
from building import build as build_once
from conftest import cards_only
from cputime import cpu_seconds
from printgen.games import bundled_definition


MM = 72 / 25.4
CARD_W, CARD_H = 63.5, 88.9
BAND_W = 57.5  # the sample's title band on each face, 3 mm inside the card
FRAME_W = 46.5  # the sample back's plain panel (back.svg.j2), FRAME_IN mm inside the card on every side
FRAME_IN = 8.5



def rows_of(deck: Path) -> list[dict[str, str]]:
    with open(deck.parent / "cards.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def rects(page, width: float) -> list[tuple[float, float]]:
    """(x, y) in mm, y up, of the lower-left corner of every filled rectangle `width` mm wide (a blank
    card's writing frame, an outline alone, is not one)."""
    found = []
    for r in page.rects + page.curves:
        w = (r["x1"] - r["x0"]) / MM
        if abs(w - width) < 0.02 and r.get("fill"):
            found.append((round(r["x0"] / MM, 3), round((float(page.height) - r["bottom"]) / MM, 3)))
    return sorted(set(found))


def build(run_cli, deck: Path, out: Path, *args: str):
    result = run_cli("build", deck, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return out / "deck"


def built_once(tmp_path_factory, name: str, *args: str, layout: str = "duplex") -> Path:
    """`printgen build DECK ARGS` of the `deck` fixture's deck (the sample's cards only, conftest.py),
    made once for the tests of this module that build exactly that and only read what it writes:
    its deck/ folder. `layout` swaps the sample's `layout: duplex`, as a test's own edit would."""
    folder = tmp_path_factory.mktemp(name)
    shutil.copytree(bundled_definition("deck").parent, folder / "mine", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    deck = cards_only(folder / "mine" / "deck.yaml")
    deck.write_text(deck.read_text().replace("layout: duplex", f"layout: {layout}"))
    return build_once(folder / "out", str(deck), *args) / "deck"


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    """`printgen build DECK`, the deck as it is."""
    return built_once(tmp_path_factory, "plain")


@pytest.fixture(scope="module")
def with_png(tmp_path_factory) -> Path:
    """`printgen build DECK --png`."""
    return built_once(tmp_path_factory, "png", "--png")


@pytest.fixture(scope="module")
def gutterfold(tmp_path_factory) -> Path:
    """`printgen build DECK` with the deck's `layout: gutterfold`."""
    return built_once(tmp_path_factory, "gutterfold", layout="gutterfold")


def test_every_copy_of_every_row_is_printed(deck, plain):
    folder = plain
    rows = rows_of(deck)
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        fronts = pdf.pages[0::2]
        text = "\n".join(page.extract_text() for page in fronts)
        bands = sum(len(rects(page, BAND_W)) for page in fronts)
    assert bands == sum(int(r["copies"]) for r in rows) == 16
    for row in rows:
        assert text.count(row["title"]) == int(row["copies"]), row["title"]


@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_back_lies_behind_its_front(run_cli, deck, tmp_path, flip):
    folder = build(run_cli, deck, tmp_path / flip, "--flip", flip)
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        width, height = float(pdf.pages[0].width) / MM, float(pdf.pages[0].height) / MM
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            frames = rects(back, FRAME_W)
            assert 0 < len(rects(front, BAND_W)) <= len(frames) == 9  # the A4 sheet's 2 blank cards have backs too
            for x, y in rects(front, BAND_W):  # the band's lower edge is 3 + 11 mm below the card's top
                card_x, card_y = x - 3, y + 3 + 11 - CARD_H
                if flip == "long":
                    bx, by = width - card_x - CARD_W, card_y
                else:
                    bx, by = card_x, height - card_y - CARD_H
                assert any(abs(fx - (bx + FRAME_IN)) < 0.01 and abs(fy - (by + FRAME_IN)) < 0.01 for fx, fy in frames), \
                    (flip, card_x, card_y)


def test_gutterfold_puts_each_back_beside_its_front_across_a_fold(gutterfold):
    folder = gutterfold
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert pdf.metadata.get("Subject", "").startswith("Print at actual size")
        total = 0
        for page in pdf.pages:
            width = float(page.width) / MM
            bands, frames = rects(page, BAND_W), rects(page, FRAME_W)
            assert 0 < len(bands) <= len(frames)  # the last sheet's blank cards (sheet.fill) have backs too
            total += len(bands)
            for x, y in bands:
                card_x, card_y = x - 3, y + 3 + 11 - CARD_H
                assert card_x + CARD_W <= width / 2
                assert any(abs(fx - (width - card_x - CARD_W + FRAME_IN)) < 0.01 and abs(fy - (card_y + FRAME_IN)) < 0.01
                           for fx, fy in frames)
            fold = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.01
                    and abs(line["x0"] / MM - width / 2) < 0.01]
            assert fold, "no fold line down the middle"
        assert total == 16


def test_text_boxes_stay_inside_their_cards(plain):
    folder = plain
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        page = pdf.pages[0]
        cards = [(x - 3, y + 3 + 11 - CARD_H) for x, y in rects(page, BAND_W)]
        for char in page.chars:
            if (float(page.height) - char["bottom"]) / MM < 9:  # the page caption, in the margin
                continue
            x, y = char["x0"] / MM, (float(page.height) - char["bottom"]) / MM
            inside = [c for c in cards if c[0] + 3 <= x and char["x1"] / MM <= c[0] + CARD_W - 3 + 0.01
                      and c[1] + 3 - 1 <= y <= c[1] + CARD_H - 3]
            assert inside, (char["text"], x, y)


def test_a_plain_build_writes_every_face_and_the_back_as_svg_and_no_png(plain):
    from PIL import Image

    folder = plain
    names = {p.stem for p in (folder / "svg").glob("*.svg")}
    assert names == {"ember-tonic", "frost-draught", "mossy-elixir", "storm-flask", "quiet-syrup",
                     "cinder-brew", "glass-mist", "gale-water", "back"}
    assert not (folder / "png").exists()
    with Image.open(folder / "deck-overview.png") as overview:
        assert overview.size[0] > 300 and overview.size[1] > 200
    assert sorted(p.name for p in folder.iterdir()) == ["deck-overview.png", "deck.pdf", "svg"]
    svg = etree.parse(str(folder / "svg" / "ember-tonic.svg")).getroot()
    assert (svg.get("width"), svg.get("height")) == ("63.5mm", "88.9mm")
    assert "Ember Tonic" in "".join(svg.itertext())


def test_ten_times_the_rows_give_ten_times_the_cards(run_cli, deck, tmp_path):
    csv_path = deck.parent / "cards.csv"
    lines = csv_path.read_text().splitlines()
    csv_path.write_text("\n".join([lines[0]] + lines[1:] * 10) + "\n")
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert sum(len(rects(page, BAND_W)) for page in pdf.pages[0::2]) == 160


def test_a_bad_value_in_the_csv_is_located_at_its_line_and_column(run_cli, deck, tmp_path):
    csv_path = deck.parent / "cards.csv"
    lines = csv_path.read_text().splitlines()
    lines[3] = lines[3].replace(",1,", ",x,", 1)
    csv_path.write_text("\n".join(lines) + "\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "cards.csv:4: column 'cost': expected a whole number (got 'x')" in result.output, result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("cell, said", [
    ("Ember\x00Tonic", "character 6 is U+0000: an invisible control character"),
    ("Ember \x1b[31m", "character 7 is U+001B: an invisible control character"),
])
def test_a_csv_cell_the_font_cannot_print_is_located_at_its_line_and_column(run_cli, deck, tmp_path, cell, said):
    """A CSV cell with an invisible character is refused at its cell: NUL made the card SVGs
    ill-formed XML."""
    csv_path = deck.parent / "cards.csv"
    rows = list(csv.reader(io.StringIO(csv_path.read_text())))
    rows[2][0] = cell
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    csv_path.write_text(buffer.getvalue())
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"cards.csv:3: column '{rows[0][0]}': {said}" in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_a_character_is_asked_of_the_font_each_element_prints_it_in(run_cli, deck, tmp_path):
    """A Khmer letter in a CSV cell would print as an empty box in printgen's own font (refused:
    tests/test_deck_backs.py); in a text box set in the designer's own .ttf that has it, it builds."""
    import reportlab

    csv_path = deck.parent / "cards.csv"
    # the letter in a column of its own, printed in a test font reportlab ships with a few Khmer letters
    rows = list(csv.reader(io.StringIO(csv_path.read_text())))
    for i, row in enumerate(rows):
        row.append("mark" if i == 0 else "\u1786" if i == 2 else "")
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    csv_path.write_text(buffer.getvalue())
    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "hb-test.ttf", deck.parent / "khmer.ttf")
    deck.write_text(deck.read_text().replace("\nback:\n", "\n    - type: text\n      text: \"{{ mark }}\"\n"
                                             "      font: khmer.ttf\n      x: 5\n      y: 3\n      width: 10\n"
                                             "      height: 6\n      size: 9\nback:\n", 1))
    result = run_cli("build", deck, "--out", tmp_path / "out", "--no-pictures")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(next((tmp_path / "out").glob("*/*.pdf"))) as pdf:
        drawn = [c for page in pdf.pages for c in page.chars if c["text"] == "\u1786"]
    khmer = hashlib.sha256((deck.parent / "khmer.ttf").read_bytes()).hexdigest()[:12]
    assert len(drawn) == 2 and {c["fontname"] for c in drawn} == {f"AAAAAA+NotoSansKhmer-Regular-{khmer}"}  # two copies


def test_a_deck_of_too_many_cards_is_refused_at_once_with_the_numbers(run_cli, deck, tmp_path):
    """A 230 KB CSV of 20,000 rows with 1,000 copies each once ran for an hour toward 20 million
    cards; the total is counted as the rows are read, and the row that passes it is named."""
    csv_path = deck.parent / "cards.csv"
    header, first = csv_path.read_text().splitlines()[:2]
    copies = header.split(",").index("copies")
    cells = first.split(",")
    cells[copies] = "1000"
    csv_path.write_text("\n".join([header] + [",".join(cells)] * 20_000) + "\n")
    with cpu_seconds() as took:
        result = run_cli("build", deck, "--out", tmp_path / "out")
    assert took.seconds < 10
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert ("cards.csv:22: column 'copies': this row brings the deck to 21,000 cards, copies counted; "
            "a deck may print at most 20,000") in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_copies_naming_a_column_no_row_has_is_located(run_cli, deck, tmp_path):
    """`copies: quantity` with no such column once printed every card once, silently."""
    text = deck.read_text()
    deck.write_text(text + "copies: quantity\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    line = len(text.splitlines()) + 1
    assert f"deck.yaml:{line}: copies: no row has a column 'quantity'" in result.stderr, result.stderr


@pytest.mark.parametrize("kind, said", [
    ("missing", "gone.svg does not exist"),
    ("folder", "sub.svg is a folder"),
    ("fifo", "pipe.svg is not a regular file (a FIFO, a device or a socket)"),
    ("outside", "far.svg is outside it, so build with --allow-outside to use it"),
])
def test_an_icon_that_cannot_be_used_is_located_at_its_line(run_cli, deck, tmp_path, kind, said):
    """Every problem with an `icons:` entry was an internal error (exit 3), and a FIFO would have
    been read for ever; each is now a message at the icon's line, exit 2."""
    import os

    folder = deck.parent
    name = {"missing": "gone.svg", "folder": "sub.svg", "fifo": "pipe.svg", "outside": "../far.svg"}[kind]
    if kind == "folder":
        (folder / "sub.svg").mkdir()
    elif kind == "fifo":
        os.mkfifo(folder / "pipe.svg")
    elif kind == "outside":
        (folder.parent / "far.svg").write_text((folder / "flask.svg").read_text())
    text = deck.read_text()
    assert text.count("flask: flask.svg") == 1
    deck.write_text(text.replace("flask: flask.svg", f"flask: {name}"))
    line = next(i for i, row in enumerate(deck.read_text().splitlines(), 1) if f"flask: {name}" in row)
    with cpu_seconds() as took:
        result = run_cli("build", deck, "--out", tmp_path / "out")
    assert took.seconds < 30
    assert result.exit_code == 2 and "internal error" not in result.output, result.output
    (message,) = [row for row in result.stderr.splitlines() if f"deck.yaml:{line}: icons.flask: expected a file" in row]
    assert message.endswith(said), result.stderr
    assert not (tmp_path / "out").exists()


def test_text_that_cannot_fit_names_the_csv_row_and_the_layout_line(run_cli, deck, tmp_path):
    csv_path = deck.parent / "cards.csv"
    lines = csv_path.read_text().splitlines()
    lines[2] = lines[2].replace("Turn one market card sideways: until your next turn, nobody else may take it.", "Freeze a rival card. " * 30)
    csv_path.write_text("\n".join(lines) + "\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    layout_line = next(n for n, line in enumerate(deck.read_text().splitlines(), 1)
                       if line.strip() == 'text: "{{ text }}"')
    assert f"cards.csv:3: row 2: face.layout[6].text (" in result.output, result.output
    assert f"deck.yaml:{layout_line}): the text does not fit its 53.5 x 22 mm box even at 7.5 pt" \
        in result.output
    assert "Traceback" not in result.output


def test_a_broken_template_value_is_located_at_the_row(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace('text: "{{ cost }}"', 'text: "{{ price }}"'))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    [told] = [line for line in result.stderr.splitlines() if "'price'" in line]
    assert "cards.csv:2: rows 1-" in told and "face.layout[3].text (" in told, result.stderr
    assert told.endswith("'price' is not a column; the columns are title, kind, cost, text, picture (and row, "
                         "number, copies and card); did you mean 'picture'?"), told


def test_inline_rows_need_no_csv(run_cli, deck, tmp_path):
    text = deck.read_text().replace("data: cards.csv\n", "rows:\n  - {title: One, kind: fire, cost: 1, text: A.}\n"
                                    "  - {title: Two, kind: ice, cost: 2, text: B., copies: 3}\n")
    deck.write_text(text)
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        words = pdf.pages[0].extract_text()
    assert words.count("One") == 1 and words.count("Two") == 3


def test_an_element_key_its_type_does_not_take_is_located(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace("    - type: ellipse    # the cost\n",
                                             "    - type: ellipse    # the cost\n      radius: 2\n"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "face.layout[2].radius: an ellipse takes no 'radius'" in result.output, result.output


def test_a_stroke_width_of_zero_draws_no_outline_in_any_output(run_cli, deck, tmp_path):
    """The title band with `stroke_width: 0`: no stroke in deck.pdf (a PDF line of width 0 would be
    the printer's thinnest hairline), as in the SVG, which never drew one."""
    deck.write_text(deck.read_text().replace("      stroke_width: 0.3\n", "      stroke_width: 0\n", 1))
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        bands = [r for r in pdf.pages[0].rects + pdf.pages[0].curves if abs((r["x1"] - r["x0"]) / MM - BAND_W) < 0.05]
        assert bands and not any(band["stroke"] for band in bands)
    svg = etree.parse(str(next((folder / "svg").glob("*.svg"))))
    widths = [r for r in svg.iter("{http://www.w3.org/2000/svg}rect") if r.get("width") == "57.5"]
    assert widths and all(r.get("stroke") is None for r in widths)


def test_a_negative_stroke_width_is_located(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace("      stroke_width: 0.3\n", "      stroke_width: -1\n", 1))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "face.layout[0].stroke_width: expected a width of 0 mm or more" in result.output, result.output


def test_export_lists_ten_times_the_cards_for_ten_times_the_rows(run_cli, deck, tmp_path):
    """The print-shop manifest counts each row's copies; its PDFs are one card at trim plus bleed."""
    def manifest(out: Path) -> list[dict[str, str]]:
        result = run_cli("export", deck, "--print-shop", "--out", out)
        assert result.exit_code == 0, result.output
        with open(out / "deck" / "print-shop" / "manifest.csv", newline="") as f:
            return list(csv.DictReader(f))

    once = manifest(tmp_path / "once")
    rows = rows_of(deck)
    with open(deck.parent / "cards.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for n in range(10):
            writer.writerows({**row, "title": f"{row['title']} {n}"} for row in rows)
    tenfold = manifest(tmp_path / "tenfold")
    faces = [r for r in tenfold if r["side"] == "face"]
    backs = [r for r in tenfold if r["side"] == "back"]
    assert len(faces) == 10 * len([r for r in once if r["side"] == "face"]) == 80
    assert sum(int(r["quantity"]) for r in faces) == 10 * 16
    assert len(backs) == 1 and int(backs[0]["quantity"]) == 160 and backs[0]["file"] == "back-potion-shop.pdf"
    with pdfplumber.open(tmp_path / "once" / "deck" / "print-shop" / once[0]["file"]) as pdf:
        page = pdf.pages[0]
        assert float(page.width) / MM == pytest.approx(CARD_W + 6, abs=0.01)
        trim = page.trimbox
        assert (trim[2] - trim[0]) / MM == pytest.approx(CARD_W, abs=0.01)
        assert once[0]["file"].removesuffix(".pdf").replace("-", " ") in page.extract_text().lower()


def test_tabletop_simulator_sheets_hold_every_copy(run_cli, deck, tmp_path):
    import json

    result = run_cli("export", deck, "--tts", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    described = json.loads((tmp_path / "deck" / "tts" / "decks.json").read_text())
    (only,) = described["decks"]
    assert sum(sheet["count"] for sheet in only["sheets"]) == 16
    assert only["card_mm"] == [CARD_W, CARD_H]


@pytest.mark.parametrize("dpi", [None, 300])
def test_png_writes_every_face_and_the_back_at_the_dpi(run_cli, deck, tmp_path, dpi, request):
    from PIL import Image

    if dpi is None:
        folder = request.getfixturevalue("with_png")
    else:
        folder = build(run_cli, deck, tmp_path / "out", "--png", "--dpi", str(dpi))
    names = sorted(p.name for p in (folder / "png").iterdir())
    assert [name[:-len(".png")] for name in names] == sorted(p.stem for p in (folder / "svg").iterdir())
    assert len(names) == len(rows_of(deck)) + 1 and "back.png" in names
    at = dpi or 150
    for name in names:
        with Image.open(folder / "png" / name) as image:
            assert image.size == (round(CARD_W / 25.4 * at), round(CARD_H / 25.4 * at)), name


def test_png_with_no_pictures_is_a_usage_error_that_writes_nothing(run_cli, deck, tmp_path):
    result = run_cli("build", deck, "--out", tmp_path / "out", "--png", "--no-pictures")
    assert result.exit_code == 2
    assert "--png and --no-pictures ask for opposite things" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_a_png_folder_of_an_earlier_build_is_left_and_told(run_cli, deck, tmp_path, with_png):
    shutil.copytree(with_png.parent, tmp_path / "out")  # the files of an earlier `build --png` ...
    folder = tmp_path / "out" / "deck"
    before = {p.name: p.read_bytes() for p in (folder / "png").iterdir()}
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert {p.name: p.read_bytes() for p in (folder / "png").iterdir()} == before
    assert "png is from an earlier build and was left as it was; build with --png" in result.output
    again = run_cli("build", deck, "--out", tmp_path / "out", "--png")
    assert again.exit_code == 0 and "earlier build" not in again.output


def captions(page, at_top: bool = False) -> list[dict]:
    """The page's caption: the only text in the bottom margin, below every card's cut marks (or in
    the top margin: the back of a sheet turned over top to bottom has it behind the front's)."""
    return [c for c in page.chars if (c["top"] if at_top else float(page.height) - c["bottom"]) / MM < 9]


def test_landscape_sheets_keep_the_gap_and_say_how_to_print_on_every_page(run_cli, deck, tmp_path):
    text = deck.read_text().replace("orientation: auto", "orientation: landscape\n  gap: 3")
    deck.write_text(text)
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert float(pdf.pages[0].width) > float(pdf.pages[0].height)
        for number, page in enumerate(pdf.pages):
            back = number % 2 == 1  # a long-edge flip turns a landscape sheet over top to bottom
            line = "".join(c["text"] for c in captions(page, at_top=back))
            assert "Print on both sides, flip on long edge" in line, (number, line)  # the dialog's words
            if back:  # the caption lies behind the front's, above every card's back
                highest_card = max(y for _, y in rects(page, FRAME_W)) - FRAME_IN + CARD_H  # mm, y up
                assert float(page.height) / MM - max(c["bottom"] for c in captions(page, True)) / MM > highest_card + 2
            else:
                lowest_card = min(y for _, y in rects(page, BAND_W)) - (CARD_H - 14)  # mm, y up
                assert float(page.height) / MM - min(c["top"] for c in captions(page)) / MM < lowest_card - 2
        xs = sorted({x for x, _ in rects(pdf.pages[0], BAND_W)})
        assert len(xs) == 4  # cut lines let the cards come near the sides: 4 a row with 2 mm of bleed
        assert xs[1] - xs[0] == pytest.approx(CARD_W + 3 + 2 * 2, abs=0.01)  # the card, the gap and the bleed


def test_gutterfold_fold_line_stops_above_the_caption(gutterfold):
    folder = gutterfold
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        for page in pdf.pages:
            width = float(page.width) / MM
            fold = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.01
                    and abs(line["x0"] / MM - width / 2) < 0.01]
            caption_top = min(c["top"] for c in captions(page))
            assert fold and all(line["bottom"] < caption_top for line in fold)
            assert any(abs(c["x0"] / MM - width / 2) < 30 for c in captions(page))  # centred on the fold


FACE_TEMPLATE = """<svg xmlns="http://www.w3.org/2000/svg" width="{{ card.width }}mm" height="{{ card.height }}mm"
     viewBox="0 0 {{ card.width }} {{ card.height }}">
  <rect x="10" y="70" width="{{ cost * 5 }}" height="4" fill="{{ {'fire': '#aa2200', 'ice': '#0044aa', 'earth': '#227700', 'air': '#775599'}[kind] }}"/>
</svg>
"""


def use_face_template(deck: Path, template: str) -> None:
    (deck.parent / "face.svg.j2").write_text(template)
    deck.write_text(deck.read_text().replace("face:\n  background:", "face:\n  template: face.svg.j2\n  background:"))


def test_an_svg_template_is_filled_in_for_every_row(run_cli, deck, tmp_path):
    use_face_template(deck, FACE_TEMPLATE)
    folder = build(run_cli, deck, tmp_path / "out")
    colours = {"fire": (0xaa, 0x22, 0x00), "ice": (0x00, 0x44, 0xaa), "earth": (0x22, 0x77, 0x00),
               "air": (0x77, 0x55, 0x99)}
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        bars = []
        for page in pdf.pages[0::2]:
            for r in page.rects:
                colour = r.get("non_stroking_color")
                if colour and len(colour) == 3 and abs((r["bottom"] - r["top"]) / MM - 4) < 0.01:
                    bars.append((round((r["x1"] - r["x0"]) / MM, 2), tuple(round(c * 255) for c in colour)))
    expected = sorted((float(row["cost"]) * 5, colours[row["kind"]]) for row in rows_of(deck)
                      for _ in range(int(row["copies"])))
    assert sorted(bars) == expected


@pytest.mark.parametrize("template,where,message", [
    ("<svg>\n{{ cost +\n</svg>", r"face\.svg\.j2:3: face\.template: ", "unexpected '<'"),
    (FACE_TEMPLATE.replace("{{ cost * 5 }}", "{{ nosuch }}"),
     r"cards\.csv:2: rows 1-\d+: face\.template \(\S*face\.svg\.j2:3\)", "'nosuch' is not a column; the columns"),
    ("<p>{{ title }}</p>", r"cards\.csv:2: rows 1-8: face\.template ", "not SVG"),
])
def test_svg_template_problems_are_located(run_cli, deck, tmp_path, template, where, message):
    use_face_template(deck, template)
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert re.search(where, result.stderr) and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_a_missing_svg_template_is_named_at_its_key(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace("template: back.svg.j2", "template: nothere.svg.j2"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    line = next(n for n, text in enumerate(deck.read_text().splitlines(), 1) if "nothere" in text)
    assert f"deck.yaml:{line}: back.template: expected a file, but" in result.stderr, result.stderr


def test_the_sample_deck_builds_and_shows_every_element_kind(deck, plain):
    """(`printgen new deck` writes a smaller starter: tests/test_deck_layouts.py.)"""
    from ruamel.yaml import YAML

    definition = YAML(typ="safe").load(deck)
    kinds = {element["type"] for side in ("face", "back") for element in definition[side]["layout"]}
    assert kinds == {"rect", "ellipse", "line", "polygon", "path", "image", "text"}
    assert definition["back"]["template"] == "back.svg.j2" and definition["data"] == "cards.csv"
    with pdfplumber.open(plain / "deck.pdf") as pdf:
        assert sum(len(rects(page, BAND_W)) for page in pdf.pages[0::2]) == 16
        # the back's template drew its border of bubbles: small rings in its colour on every back
        back = pdf.pages[1]
        bubbles = [c for c in back.curves if c.get("stroking_color") and
                   tuple(round(v * 255) for v in c["stroking_color"]) == (0xe6, 0xd9, 0xc4)]
        assert len(bubbles) > 100


def test_watch_and_schema_cover_decks(run_cli, deck):
    import json

    from printgen.cli.engine import build_all
    from printgen.cli.watch import Reads
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS

    with build_all([deck], BuildOptions(PAPERS["a4"], pictures=False), watching=Reads()) as built:
        names = {p.name for p in built.watched}
    assert {"deck.yaml", "cards.csv", "flask.svg", "back.svg.j2"} <= names
    schema = json.loads(run_cli("schema", "deck").stdout)
    face = schema["$defs"]["Face"]["properties"]
    assert {"template", "layout", "background"} <= set(face)
    assert "SVG Jinja template" in face["template"]["description"]


def test_a_text_box_may_use_a_font_file_of_its_own(run_cli, deck, tmp_path):
    import reportlab

    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "VeraIt.ttf", deck.parent / "title.ttf")
    text = deck.read_text()
    deck.write_text(text.replace('      size: 12\n      min_size: 8\n      font: bold', '      size: 12\n      min_size: 8\n      font: title.ttf', 1))
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        titles = [c for c in pdf.pages[0].chars if c["text"] == "E" and c["size"] > 10.5]  # 12 pt, not the 10 pt text
        # embedded under its own PostScript name and its content's hash, so it can stand for no other font
        assert titles and all(re.fullmatch(r"AAAAAA\+BitstreamVeraSans-Oblique-[0-9a-f]{12}", c["fontname"])
                              for c in titles), \
            {c["fontname"] for c in titles}
    deck.write_text(text.replace('      font: bold\n      valign: middle', '      font: nothere.ttf\n      valign: middle', 1))
    result = run_cli("build", deck, "--out", tmp_path / "broken")
    assert result.exit_code == 2
    assert result.stderr.count("nothere.ttf") == 1 and "face.layout[1].font: expected a file" in result.stderr, \
        result.stderr


def card_pitch(page) -> tuple[int, float]:
    """(cards on the page, mm from one card's left edge to the next one's)."""
    bands = rects(page, BAND_W)
    xs = sorted({x for x, _ in bands})
    return len(bands), xs[1] - xs[0]


def test_bleed_left_out_gives_way_to_nine_poker_cards_on_a4(run_cli, deck, tmp_path):
    """Cut lines round every card (the sample's `cut: lines`) keep the margins free of marks, so
    nine cards keep 1.5 mm of bleed each; with marks in the margins, nine fit only edge to edge."""
    deck.write_text(deck.read_text().replace("orientation: auto", "orientation: portrait"))  # turned, 8 fit
    folder = build(run_cli, deck, tmp_path / "lines")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert card_pitch(pdf.pages[0]) == (9, pytest.approx(CARD_W + 3, abs=0.01))  # 1.5 mm each side
    first = PdfReader(folder / "deck.pdf").pages[0]
    assert float(first.trimbox.left - first.bleedbox.left) / MM == pytest.approx(1.5, abs=0.01)
    deck.write_text(deck.read_text().replace("cut: lines", "cut: marks"))
    folder = build(run_cli, deck, tmp_path / "auto")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        assert card_pitch(pdf.pages[0]) == (9, pytest.approx(CARD_W, abs=0.01))  # edge to edge
    first = PdfReader(folder / "deck.pdf").pages[0]
    assert first.trimbox == first.bleedbox  # no bleed claimed
    result = run_cli("build", deck, "--out", tmp_path / "given", "--bleed", "2")
    assert result.exit_code == 0
    assert "--bleed 2 fits 4 cards on each A4 sheet, where 9 fit without bleed" in result.output
    with pdfplumber.open(tmp_path / "given" / "deck" / "deck.pdf") as pdf:
        assert card_pitch(pdf.pages[0]) == (4, pytest.approx(CARD_W + 4, abs=0.01))


def test_bleed_written_in_the_definition_is_kept_with_a_located_warning(run_cli, deck, tmp_path):
    text = deck.read_text().replace("orientation: auto", "orientation: portrait")  # turned, 8 fit
    text = text.replace("cut: lines", "cut: marks")  # marks in the margins: 2 mm of bleed leaves 4
    deck.write_text(text.replace("  # bleed: 2 ", "  bleed: 2   "))
    line = 1 + deck.read_text().splitlines().index(next(l for l in deck.read_text().splitlines()
                                                         if l.startswith("  bleed: 2")))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert f"deck.yaml:{line}: card.bleed: 2 mm fits 4 cards on each A4 sheet, where 9 fit" in result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        assert card_pitch(pdf.pages[0]) == (4, pytest.approx(CARD_W + 4, abs=0.01))
    first = PdfReader(tmp_path / "out" / "deck" / "deck.pdf").pages[0]
    assert float(first.trimbox.left - first.bleedbox.left) / MM == pytest.approx(2, abs=0.01)


def test_bleed_left_out_is_kept_when_the_sheet_has_room(run_cli, deck, tmp_path):
    deck.write_text(deck.read_text().replace("orientation: auto", "paper: a3\n  orientation: portrait"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0 and "fits" not in result.output
    first = PdfReader(tmp_path / "out" / "deck" / "deck.pdf").pages[0]
    assert float(first.trimbox.left - first.bleedbox.left) / MM == pytest.approx(2, abs=0.01)
