"""Issue 42: a deck's own rulebook and reference card from Markdown beside its definition, with the
deck's cards in them. The starter deck with the four-page rulebook and reference card in
docs/examples/deck_rules (docs/rules-documents.md), built by `printgen build` with its cards; every card the rulebook shows at
its true size is compared pixel by pixel with the deck's own PNG of it, and the house-style measures
of tests/test_house_style.py hold."""
from __future__ import annotations

import ctypes
import io
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from keeping import broken_rows, columns, split_items
from printgen.cli.main import cli
from printgen.drawing import style
from printgen.games.deck.shown import OUTLINE_GAP
from typeset import body_size, column_blanks, lines, longest_body_line, size_shares


# one pytest-xdist worker runs every test here (`--dist loadgroup`, pyproject.toml), so the
# module-scoped builds (its starter deck's rulebook) are made once, not once on each worker
pytestmark = pytest.mark.xdist_group("deck-rules")

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "docs" / "examples" / "deck_rules"  # the guide's example, written for the starter deck
DPI = 150  # the deck's card pictures (FACE_DPI)
MM = 72 / 25.4
CARD = (63.5, 88.9)  # the starter's poker cards, mm
MOST_LEVEL = 1  # antialiasing: a channel may differ by one level of 255 ...
MOST_DIFFERING = 0.005  # ... on at most this share of a card's pixels


def printgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`printgen ARGS` run from the folder `cwd`, in this process (the command line's own code, as
    a fresh process runs it, without importing printgen again for each command: that import was
    most of what a command here cost)."""
    before = os.getcwd()
    os.chdir(cwd)  # contextlib.chdir is Python 3.11's
    try:
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(["printgen", *args], result.exit_code, result.stdout, result.stderr)


def new_deck(home: Path, name: str = "mine") -> Path:
    made = printgen("new", "deck", name, cwd=home)
    assert made.returncode == 0, made.stderr
    return home / name / f"{name}.yaml"


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The starter deck with the four-page rulebook and its reference card, built once: the output folder."""
    home = tmp_path_factory.mktemp("deckrules")
    definition = new_deck(home)
    for name in ("rules.md", "reference.md"):
        shutil.copyfile(BOOK / name, definition.parent / name)
    built = printgen("build", str(definition), "--png", cwd=home)  # the cards' PNGs to compare with
    assert built.returncode == 0, built.stderr
    return home / "output" / "mine"


def exact_page(pdf: Path, index: int, dpi: float) -> np.ndarray:
    """A page rendered at exactly `dpi` (a matrix of dpi/72), as the deck's PNGs are (a card's page
    is a whole number of pixels at its dpi). pypdfium2's render() fits a page to whole pixels, a
    scale a hair off dpi/72 on A4, so the page is drawn through pdfium's own matrix call here."""
    document = pdfium.PdfDocument(pdf.read_bytes())
    page = document[index]
    scale = dpi / 72
    width, height = math.ceil(page.get_width() * scale), math.ceil(page.get_height() * scale)
    bitmap = pdfium_c.FPDFBitmap_Create(width, height, 0)
    try:
        pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
        matrix, clip = pdfium_c.FS_MATRIX(scale, 0, 0, scale, 0, 0), pdfium_c.FS_RECTF(0, 0, width, height)
        pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap, page.raw, ctypes.byref(matrix), ctypes.byref(clip), 0)
        stride = pdfium_c.FPDFBitmap_GetStride(bitmap)
        data = ctypes.string_at(pdfium_c.FPDFBitmap_GetBuffer(bitmap), stride * height)
        image = Image.frombuffer("RGB", (width, height), data, "raw", "BGRX", stride, 1)
        return np.asarray(image).astype(int)
    finally:
        pdfium_c.FPDFBitmap_Destroy(bitmap)
        page.close()
        document.close()


def shown_cards(pdf: Path) -> list[tuple[int, float, float, float, float]]:
    """Every card drawn in the document, from the hairline round it: page, x0, top, width, height in pt."""
    found = []
    with pdfplumber.open(pdf) as document:
        for number, page in enumerate(document.pages):
            for shape in page.rects + page.curves:
                colour = shape.get("stroking_color")
                if shape.get("stroke") and colour and len(colour) == 3 and all(abs(c - 0x9a / 255) < 0.01 for c in colour):
                    gap = OUTLINE_GAP * MM
                    found.append((number, shape["x0"] + gap, shape["top"] + gap,
                                  shape["x1"] - shape["x0"] - 2 * gap, shape["bottom"] - shape["top"] - 2 * gap))
    return sorted(set((p, round(x, 2), round(t, 2), round(w, 2), round(h, 2)) for p, x, t, w, h in found))


def test_every_card_shown_at_its_size_is_its_own_png_pixel_for_pixel(book):
    pdf = book / "mine-rules.pdf"
    pictures = {path.stem: np.asarray(Image.open(path).convert("RGB")).astype(int) for path in (book / "png").glob("*.png")}
    cards = shown_cards(pdf)
    true = [c for c in cards if abs(c[3] - CARD[0] * MM) < 0.2 and abs(c[4] - CARD[1] * MM) < 0.2]
    assert len(cards) == 13 and len(true) == 6, cards  # single cards at their size, three rows shrunk to the column
    pages: dict[int, np.ndarray] = {}
    matched = []
    scale = DPI / 72
    for number, x, top, _, _ in true:
        page = pages.setdefault(number, exact_page(pdf, number, DPI))
        column, row = x * scale, top * scale
        assert abs(column - round(column)) < 0.01 and abs(row - round(row)) < 0.01, (column, row)  # on the grid
        best = None
        for name, png in pictures.items():
            h, w, _ = png.shape
            crop = page[round(row):round(row) + h, round(column):round(column) + w]
            if crop.shape != png.shape:
                continue
            differ = np.abs(crop - png).max(axis=2)
            if best is None or (differ > 0).sum() < best[1]:
                best = (name, int((differ > 0).sum()), int(differ.max()), differ.size)
        assert best is not None
        name, count, most, size = best
        assert most <= MOST_LEVEL and count <= MOST_DIFFERING * size, (number, best)
        matched.append(name)
    assert {"mossback-toad", "ember-hound", "sudden-frost", "quick-mind", "back"} <= set(matched), matched


def test_the_rulebook_is_four_pages_in_the_house_style(book):
    pdf = book / "mine-rules.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 4
    assert reader.metadata.title == "My Deck \u2013 rules"
    assert body_size(pdf) == style.RULES_PT >= 9
    common = [size for size, share in size_shares(pdf).items() if share >= 0.02]
    assert len(common) <= 8, common
    assert len(longest_body_line(pdf).text) <= 90
    blanks = column_blanks(pdf)
    assert len(blanks) == 4
    for number, page in enumerate(blanks[:-1], start=1):
        assert len(page) == 2 and max(page) <= 0.25, (number, page)
    last = blanks[-1]
    assert len(last) == 2 and abs(last[0] - last[1]) <= 0.15, last


def test_no_heading_ends_a_column_and_nothing_read_together_breaks(book):
    pdf = book / "mine-rules.pdf"
    heading = style.HEADING_PT  # the book is set at the house body size, so its headings at the house step
    set_lines = lines(pdf)
    with pdfplumber.open(pdf) as document:
        width = float(document.pages[0].width) / MM
    feet: dict[tuple[int, int], object] = {}
    for line in set_lines:
        if line.bottom < 12:  # the running footer
            continue
        key = (line.page, 0 if line.x0 < width / 2 else 1)
        if key not in feet or line.bottom < feet[key].bottom:  # type: ignore[attr-defined]
            feet[key] = line
    assert len(feet) == 8
    assert all(round(foot.size, 1) != heading for foot in feet.values()), feet  # type: ignore[attr-defined]
    heads: dict[tuple[int, int], object] = {}  # each column's first line: no numbered list goes on in it
    for line in set_lines:
        key = (line.page, 0 if line.x0 < width / 2 else 1)
        if line.bottom >= 12 and (key not in heads or line.bottom > heads[key].bottom):  # type: ignore[attr-defined]
            heads[key] = line
    assert not [h for h in heads.values() if re.match(r"\s*([2-9]|\d\d)\.\s", h.text)], heads  # type: ignore[attr-defined]
    _, tables = columns(pdf)
    assert broken_rows(tables) == []
    assert split_items(pdf, body_size(pdf), slice(None)) == []


def test_the_reference_sheet_and_cards_show_the_cards_and_the_icon(book):
    for name in ("mine-reference.pdf", "mine-reference-cards.pdf"):
        pdf = book / name
        with pdfplumber.open(pdf) as document:
            text = "".join(page.extract_text() for page in document.pages)
            images = sum(len(page.images) for page in document.pages)
        assert "Your turn" in text and "Ember Hound" in text and "Sudden Frost" in text
        assert images >= 1  # the coin, drawn in the text
        cards = shown_cards(pdf)
        assert cards and all(abs(c[3] - 40 * MM) < 0.2 for c in cards), cards  # ?width=40mm
    assert len(PdfReader(book / "mine-reference-cards.pdf").pages) == 2
    sheet = book / "mine-reference.pdf"
    assert body_size(sheet) == style.REFERENCE_PT
    assert len([size for size, share in size_shares(sheet).items() if share >= 0.02]) <= 8
    assert len(longest_body_line(sheet).text) <= 90


def test_new_deck_writes_rules_and_a_reference_that_build(tmp_path):
    definition = new_deck(tmp_path, "starter")
    for name in ("rules.md", "reference.md", "coin.svg"):
        assert (definition.parent / name).is_file()
    built = printgen("build", str(definition), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    out = tmp_path / "output" / "starter"
    with pdfplumber.open(out / "starter-rules.pdf") as document:
        page = document.pages[0]
        text = page.extract_text()
        assert "A turn" in text and "Mossback Toad" in text
        assert page.images  # the coin icon in the text
        assert any(len(t.extract()) == 5 for t in page.find_tables())  # the head and the four cards
    assert shown_cards(out / "starter-rules.pdf")
    assert (out / "starter-reference.pdf").is_file() and (out / "starter-reference-cards.pdf").is_file()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_starters_reference_lists_what_fits_and_says_where_the_rest_is(tmp_path, paper):
    """A designer who adds many rows still gets a reference card: it lists as many cards as its
    columns hold, says in print where the others are, and the build warns at the template's line;
    the rulebook lists them all. The four-row starter lists all four, with no warning."""
    definition = new_deck(tmp_path, "many")
    built = printgen("build", str(definition), "--paper", paper, "--no-pictures", cwd=tmp_path)
    assert built.returncode == 0 and "warning" not in built.stderr and "reference.md" not in built.stderr
    data = definition.parent / "cards.csv"
    titles = [f"Spell number {n}" for n in range(1, 61)]
    with data.open("a", encoding="utf-8") as f:
        f.writelines(f"spell,{title},{n % 5},,Draw a card.,1\n" for n, title in enumerate(titles))
    built = printgen("build", str(definition), "--paper", paper, "--no-pictures", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    template = (definition.parent / "reference.md").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(template, start=1) if "<!-- warning:" in text)
    told = [text for text in built.stderr.splitlines() if text.startswith(f"many/reference.md:{line}: ")]
    assert told and "lists 40 of the deck's 64 cards" in told[0] and "rulebook" in told[0], built.stderr
    out = tmp_path / "output" / "many"
    with pdfplumber.open(out / "many-reference.pdf") as document:
        text = document.pages[0].extract_text()
    assert "Spell number 36" in text and "Spell number 37" not in text
    assert "And 24 more: the rulebook, many-rules.pdf, lists all 64." in " ".join(text.split())
    rules = " ".join(page.extract_text() for page in pdfplumber.open(out / "many-rules.pdf").pages)
    assert all(title in rules for title in titles)


def broken_deck(tmp_path: Path, rules: str, reference: str | None = None) -> tuple[Path, subprocess.CompletedProcess[str]]:
    definition = new_deck(tmp_path, "bad")
    (definition.parent / "rules.md").write_text(rules)
    if reference is not None:
        (definition.parent / "reference.md").write_text(reference)
    return definition, printgen("build", str(definition), cwd=tmp_path)


def test_unknown_icons_cards_and_pictures_are_told_at_their_lines_at_once(tmp_path):
    rules = ("# Bad\n\nPay :gold: to play.\n\n![x](card:Mossbak Toad)\n\n![map](map.png)\n\n"
             "![y](card:Ember Hound#side)\n\n![z](card:Quick Mind?width=2mm)\n")
    _, built = broken_deck(tmp_path, rules)
    assert built.returncode == 2
    said = built.stderr
    assert "bad/rules.md:3: no icon called 'gold'" in said
    assert "bad/rules.md:5: no card is called 'Mossbak Toad'" in said and "did you mean 'Mossback Toad'" in said
    assert "bad/rules.md:7: the picture map.png: expected a file" in said
    assert "bad/rules.md:9: expected #back (or #face)" in said
    assert "bad/rules.md:11: expected a width from 10 to 300 mm (got 2 mm)" in said
    assert "5 problems found; nothing was written" in said
    assert not (tmp_path / "output").exists()


def test_a_table_too_wide_and_a_reference_half_too_long_are_told_at_their_lines(tmp_path):
    words = " | ".join(f"Unbreakablewordnumber{n}" for n in range(8))
    rules = f"# Wide\n\nText.\n\n| {words} |\n|{' --- |' * 8}\n| {words} |\n"
    reference = ("# Ref\n\n## Long\n\n{% for i in range(90) %}\nLine {{ i }} of a section that goes on past "
                 "its half of the card.\n{% endfor %}\n\n<!-- page break -->\n\n## Back\n\nShort.\n")
    _, built = broken_deck(tmp_path, rules, reference)
    assert built.returncode == 2
    assert "bad/rules.md:5: the table is too wide for its column" in built.stderr
    assert "bad/reference.md:3: the My Deck reference sheet (A4), top half: section 'Long' does not fit" in built.stderr
    assert not (tmp_path / "output").exists()


def test_a_rulebook_past_the_page_limit_is_told_and_nothing_written(tmp_path):
    rules = "# Long\n\n{% for i in range(60) %}\n## Part {{ i }}\n\n![a](card:1)\n\n{% endfor %}\n"
    _, built = broken_deck(tmp_path, rules)
    assert built.returncode == 2
    assert "rules need more than 12 pages" in built.stderr and "bad/bad.yaml:" in built.stderr
    assert ": rules: " in built.stderr and "shorten rules.md" in built.stderr
    assert not (tmp_path / "output").exists()


def test_serve_shows_the_rules_documents_beside_the_cards(tmp_path):
    from printgen.cli.pictures import served_work
    from printgen.core.build import BuildOptions
    from printgen.core.paper import SHEET_PAPERS
    from printgen.games import load

    definition = new_deck(tmp_path, "served")
    files, described = served_work(36)(load(definition), BuildOptions(SHEET_PAPERS["a4"]))
    shown = {pdf["name"]: len(pdf["pages"]) for pdf in described["pdfs"]}
    assert shown["served-rules.pdf"] == 1 and shown["served-reference-cards.pdf"] == 2
    assert {"served.pdf", "served-reference.pdf"} <= set(shown)
    names = {f.name for f in files}
    assert "pages/served-rules-p1.png" in names and described["decks"][0]["faces"]


def test_pictures_beside_the_definition_and_the_settings_of_a_text(tmp_path):
    definition = new_deck(tmp_path, "pics")
    folder = definition.parent
    Image.new("RGB", (40, 20), (200, 30, 30)).save(folder / "banner.png")
    (folder / "rules.md").write_text("# Pictures\n\nA coin drawn as vectors:\n\n![coin](coin.svg?width=20mm)\n\n"
                                     "A banner from a PNG:\n\n![banner](banner.png?width=50mm)\n\n"
                                     + " ".join(f"![{n}](card:{n})" for n in (1, 2, 3, 4, 1, 2, 3, 4)) + "\n")
    text = definition.read_text().replace("rules: rules.md ", "rules: {file: rules.md, columns: 1, text_size_pt: 10}")
    definition.write_text(text)
    built = printgen("build", str(definition), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    pdf = tmp_path / "output" / "pics" / "pics-rules.pdf"
    with pdfplumber.open(pdf) as document:
        page = document.pages[0]
        words = page.extract_words(extra_attrs=["size"])
        assert {round(w["size"], 1) for w in words if w["text"] in ("coin", "banner")} == {10.0}  # text_size_pt
        banner = [image for image in page.images if abs((image["x1"] - image["x0"]) / MM - 50) < 0.2]
        assert len(banner) == 1 and abs((banner[0]["bottom"] - banner[0]["top"]) / MM - 25) < 0.2
        # the SVG coin is paths, 20 mm wide, not a picture
        coin = [c for c in page.curves + page.rects if abs((c["x1"] - c["x0"]) / MM - 20 * 18 / 20) < 0.3]
        assert coin, [(c["x1"] - c["x0"]) / MM for c in page.curves]
    # eight cards in one paragraph: too small on one line of the 182 mm column, so two lines of four
    cards = shown_cards(pdf)
    assert len(cards) == 8 and len({round(top) for _, _, top, _, _ in cards}) == 2, cards
    assert all(abs(w / CARD[0] - h / CARD[1]) < 0.05 and 0.4 * CARD[0] * MM <= w < CARD[0] * MM for _, _, _, w, h in cards)


def test_a_missing_rules_file_is_told_at_its_key(tmp_path):
    definition = new_deck(tmp_path, "gone")
    (definition.parent / "rules.md").unlink()
    built = printgen("build", str(definition), cwd=tmp_path)
    assert built.returncode == 2
    line = next(n for n, text in enumerate(definition.read_text().splitlines(), start=1) if text.startswith("rules:"))
    assert f"gone/gone.yaml:{line}: rules: expected a file, but gone/rules.md does not exist" in built.stderr, built.stderr
    assert not (tmp_path / "output").exists()


def test_callouts_off_the_card_or_unreadable_are_told_at_their_lines(tmp_path):
    """`?callouts=` takes points on the card, in mm from its top-left: one past the card, a point that
    is not two numbers, or more than 12 are located problems, all told at once, nothing written."""
    many = ";".join("5,5" for _ in range(13))
    rules = ("# Bad\n\n![x](card:Mossback Toad?callouts=5,5;500,10)\n\n![y](card:Mossback Toad?callouts=5;6)\n\n"
             f"![z](card:Mossback Toad?width=40mm&callouts={many})\n")
    _, built = broken_deck(tmp_path, rules)
    assert built.returncode == 2
    said = built.stderr
    assert "bad/rules.md:3: the callout at 500,10 mm lies outside the" in said
    assert "bad/rules.md:5: expected ?callouts= and points in mm from the card's top-left corner" in said
    assert "bad/rules.md:7: expected at most 12 callouts on one card (got 13)" in said
    assert "3 problems found; nothing was written" in said
    assert not (tmp_path / "output").exists()
