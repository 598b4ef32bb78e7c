"""Booklets (issue 42): half-size pages imposed two to a landscape sheet in signature order, measured
in the PDFs written: the page order for 8 and 10 pages, the padding to a multiple of four, the back
of every leaf behind its front for both flips on A4 and Letter (by the duplex rule for landscape
pages, written out here again), the fold marks, the caption, and `--booklet` on the bundled games.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from reportlab.lib.colors import black

from building import build
from typeset import body_size, longest_body_line, size_shares
from pdfmeasure import MM, chars_mm, glyph_pt, page_size_mm, segments
from printgen.core.build import BuildOptions
from printgen.core.paper import PAPERS
from printgen.drawing.document import Document, Page
from printgen.drawing.picture import rect, text
from printgen.layout.booklet import booklet_document, half_page, padded
from printgen.output.pdf import write_pdf

MARK_PT = 20  # the page number each test page prints, larger than any other text on it
INSET = 6.0  # mm from a page's lower corner to its registration mark


def mark_side(k: int) -> float:
    """Page k's registration mark is a square of this side (mm), so a measured square names its page."""
    return 2.0 + 0.5 * k


def numbered_pages(count: int, paper_name: str = "a4") -> Document:
    """`count` half-size pages, each with its number in large type and a square centred near a lower
    corner: a right-hand page's (odd) left one, and on its back (even) the point behind it."""
    half = half_page(PAPERS[paper_name])
    pages = []
    for k in range(1, count + 1):
        side = mark_side(k)
        x = half.width - INSET if k % 2 == 0 else INSET  # the square's centre; behind (x, y): (w - x, y)
        pages.append(Page(shapes=[text(half.width / 2, half.height / 2, f"P{k}", MARK_PT),
                                  rect(x - side / 2, INSET - side / 2 + 3, side, side, fill=black)]))
    return Document("pages.pdf", half, pages, "test pages")


def booklet_pdf(count: int, paper: str, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> pdfplumber.PDF:
    options = BuildOptions(PAPERS[paper], flip, offset)  # type: ignore[arg-type]
    data = write_pdf(booklet_document(numbered_pages(count, paper), options, "pages-booklet.pdf"))
    return pdfplumber.open(io.BytesIO(data))


def numbers_by_half(page: pdfplumber.page.Page) -> tuple[int | None, int | None]:
    """The page number printed on the left and on the right half, read in its own direction."""
    width, _ = page_size_mm(page)
    found: list[int | None] = []
    for left in (True, False):
        chars = [c for c in chars_mm(page) if c["size"] > MARK_PT - 1 and ((c["x0"] < width / 2) == left)]
        upright = all(c["dir"][0] >= 0 for c in chars)
        word = "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"], reverse=not upright))
        found.append(int(word[1:]) if word else None)
    return found[0], found[1]


def sides(pdf: pdfplumber.PDF) -> list[tuple[int | None, int | None]]:
    return [numbers_by_half(page) for page in pdf.pages]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_eight_pages_in_signature_order(paper: str) -> None:
    with booklet_pdf(8, paper, "short") as pdf:
        assert sides(pdf) == [(8, 1), (2, 7), (6, 3), (4, 5)]
        width, height = page_size_mm(pdf.pages[0])
        paper_size = PAPERS[paper]
        assert (width, height) == pytest.approx((paper_size.height, paper_size.width), abs=0.05)


def test_ten_pages_padded_to_twelve() -> None:
    """Ten pages take three sheets; pages 11 and 12, the first sheet's outer halves, stay blank."""
    with booklet_pdf(10, "a4", "short") as pdf:
        assert sides(pdf) == [(None, 1), (2, None), (10, 3), (4, 9), (8, 5), (6, 7)]
        for page, blank_left in ((pdf.pages[0], True), (pdf.pages[1], False)):
            half = float(page.width) / 2
            assert not [r for r in page.rects if (r["x1"] <= half) == blank_left]
            assert not [c for c in page.chars if (c["x1"] <= half) == blank_left and c["top"] > 14 * MM]


def test_long_edge_backs_are_turned() -> None:
    """A long-edge flip turns the landscape sheet over its top: each back prints turned 180 degrees,
    its left-hand page on the right and upside down."""
    with booklet_pdf(8, "a4", "long") as pdf:
        assert sides(pdf) == [(8, 1), (7, 2), (6, 3), (5, 4)]
        back_chars = [c for c in chars_mm(pdf.pages[1]) if c["size"] > MARK_PT - 1]
        assert back_chars and all(c["dir"] == (-1, 0) for c in back_chars)
        front_chars = [c for c in chars_mm(pdf.pages[0]) if c["size"] > MARK_PT - 1]
        assert all(c["dir"] == (1, 0) for c in front_chars)


@pytest.mark.parametrize("count", range(1, 14))
def test_padding_to_a_multiple_of_four(count: int) -> None:
    assert padded(count) % 4 == 0 and count <= padded(count) < count + 4


def test_padding_in_the_file() -> None:
    for count, sheets in ((1, 1), (4, 1), (5, 2), (9, 3)):
        with booklet_pdf(count, "letter", "short") as pdf:
            assert len(pdf.pages) == 2 * sheets
            numbers = [n for pair in sides(pdf) for n in pair if n is not None]
            assert sorted(numbers) == list(range(1, count + 1))


def marks(page: pdfplumber.page.Page) -> dict[int, tuple[float, float]]:
    """Each registration square's centre (mm, y up), by the page it belongs to (from its side)."""
    found = {}
    height = float(page.height)
    for r in page.rects:
        side = (r["x1"] - r["x0"]) / MM
        k = round((side - 2.0) / 0.5)
        if abs(side - mark_side(k)) < 0.05 and k >= 1:
            found[k] = ((r["x0"] + r["x1"]) / 2 / MM, (height - (r["top"] + r["bottom"]) / 2) / MM)
    return found


def behind(flip: str, width: float, height: float, x: float, y: float) -> tuple[float, float]:
    """The duplex rule for a landscape page: its long edge is its top. Turned over on the short edge
    the back shows the front mirrored left to right; on the long edge, top to bottom."""
    return (width - x, y) if flip == "short" else (x, height - y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["short", "long"])
def test_each_back_lies_behind_its_front(paper: str, flip: str) -> None:
    """Each page carries a square near a lower corner, the two pages of a leaf at points behind each
    other; on the sheets, the back's square is where the rule puts what lies behind the front's,
    moved by the back offset."""
    offset = (1.5, -0.5)
    with booklet_pdf(8, paper, flip, offset) as pdf:
        seen = 0
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            width, height = page_size_mm(front)
            on_front, on_back = marks(front), marks(back)
            for k, (x, y) in on_front.items():
                other = k + 1 if k % 2 else k - 1  # the other side of the same leaf
                bx, by = behind(flip, width, height, x, y)
                assert on_back[other] == pytest.approx((bx + offset[0], by + offset[1]), abs=0.02)
                seen += 1
        assert seen == 4  # two sheets, two pages on each front


def test_fold_marks_on_the_outside_only() -> None:
    with booklet_pdf(8, "letter", "short") as pdf:
        for index, page in enumerate(pdf.pages):
            width, height = page_size_mm(page)
            fold = [s for s in segments(page) if abs(s.x1 - width / 2) < 0.01 and abs(s.x2 - width / 2) < 0.01]
            if index % 2:  # the inside of the fold carries none
                assert fold == []
                continue
            spans = sorted((min(s.y1, s.y2), max(s.y1, s.y2)) for s in fold)
            assert spans == [pytest.approx((5.0, 10.0), abs=0.01), pytest.approx((height - 10.0, height - 5.0), abs=0.01)]
            assert all(s.dash == () for s in fold)  # solid: a short mark dotted would read as a speck


def test_caption_says_how_to_print_and_respects_print_rules() -> None:
    with booklet_pdf(8, "a4", "long") as pdf:
        first = pdf.pages[0]
        width, height = page_size_mm(first)
        caption = [c for c in chars_mm(first) if c["y0"] > height - 14]
        words = "".join(c["text"] for c in caption)
        for phrase in ("Print on both sides, flip on long edge", "Actual size (100%)", "fold them in half", "staple"):
            assert phrase.lower() in words.lower(), phrase
        assert caption and all(glyph_pt(c) >= 7 - 0.01 for c in first.chars if c["top"] < 14 * MM)
        assert all(c["y1"] <= height - 5 and c["x0"] >= 5 and c["x1"] <= width / 2 - 5 for c in caption)
        assert not [c for c in chars_mm(pdf.pages[2]) if c["y0"] > height - 14]  # on the first sheet only


@pytest.fixture(scope="module")
def fracas_letter(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("booklet"), "fracas", "--booklet", "--paper", "letter", "--flip",
                 "short") / "fracas" / "fracas-booklet.pdf"


def test_fracas_booklet_on_letter(fracas_letter: Path) -> None:
    """The real rulebook at half-Letter: landscape Letter sheets, each half's footer naming the page
    the signature order puts there, and the PDF asking the printer for a short-edge flip."""
    with pdfplumber.open(fracas_letter) as pdf:
        found = []
        for page in pdf.pages:
            assert page_size_mm(page) == pytest.approx((279.4, 215.9), abs=0.05)
            half = float(page.width) / 2
            numbers = []
            for left in (True, False):
                words = page.crop((0, 0, half, page.height) if left else (half, 0, page.width, page.height))
                hit = re.search(r"page (\d+) of (\d+)", words.extract_text())
                numbers.append((int(hit[1]), int(hit[2])) if hit else None)
            found.append(numbers)
    count = next(n for side in found for pair in side if pair for n in pair[1:])
    pages = padded(count)
    expected = []
    for s in range(pages // 4):
        expected += [[pages - 2 * s, 2 * s + 1], [2 * s + 2, pages - 2 * s - 1]]
    assert [[pair[0] if pair else None for pair in side] for side in found] == \
        [[n if n <= count else None for n in side] for side in expected]
    assert pypdf.PdfReader(fracas_letter).trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"


def test_the_booklet_keeps_the_house_style(fracas_letter: Path) -> None:
    """At half-Letter, in one column: the rulebook's body size, lines of at most 90 characters (the
    house measure, issue 35) and at most 8 text sizes."""
    from printgen.drawing import style

    assert body_size(fracas_letter) == style.RULES_PT
    line = longest_body_line(fracas_letter)
    assert 60 <= len(line.text) <= 90, line
    assert len([size for size, share in size_shares(fracas_letter).items() if share >= 0.02]) <= 8


def test_definition_key_and_a_game_without_a_rulebook(tmp_path: Path, copy_definition, run_cli) -> None:
    definition = copy_definition("armies")
    definition.write_text(definition.read_text() + "\nbooklet: true\n")
    result = run_cli("build", definition, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "armies" / "armies-booklet.pdf") as pdf:
        assert page_size_mm(pdf.pages[0]) == pytest.approx((297.0, 210.0), abs=0.05)
    result = run_cli("build", "one_minute_war", "--booklet", "--out", tmp_path)
    assert result.exit_code == 0
    assert "--booklet: One Minute War has no rulebook" in result.output
    assert not list((tmp_path / "one_minute_war").glob("*booklet*"))


def test_text_that_does_not_fit_is_told_as_for_the_rulebook() -> None:
    """The booklet measures its pages as the PDF writer would: a story too long for the most pages it
    may have goes up as the writer's TextOverflow, with the half-size document's blame."""
    from reportlab.platypus import Paragraph
    from reportlab.lib.styles import ParagraphStyle

    from printgen.drawing.document import Blame, Grow, Growing, TextOverflow
    from printgen.layout.booklet import column_pages
    from printgen.layout.paging import grown

    half = half_page(PAPERS["a4"])
    blame = Blame(("rules", "text_size_pt"), "the rules need more than 2 pages of A5 paper", "lower it")
    story = lambda: [Paragraph("word " * 400, ParagraphStyle("body", fontSize=10, leading=12))  # noqa: E731
                     for _ in range(6)]
    pages = Growing(Document("rules.pdf", half, [], "rules", overflow=blame),
                    Grow(lambda n: column_pages(half, n, str), story, 1, 2))
    booklet = booklet_document(pages, BuildOptions(PAPERS["a4"]), "rules-booklet.pdf")
    assert isinstance(booklet, Growing) and booklet.document.overflow == blame
    with pytest.raises(TextOverflow):
        grown(booklet)  # the layout step, before any writer: no PDF is written to find it out


def test_quick_violence_measuring_page_keeps_its_true_size(tmp_path: Path) -> None:
    """The measuring page is the game's ruler: after the booklet it lies on a sheet of its own,
    turned a quarter onto the landscape sheet, every line as long as on the plain rulebook's page."""
    out = build(tmp_path, "quick_violence", "--booklet") / "quick_violence"
    with pdfplumber.open(out / "quick_violence.pdf") as plain, \
            pdfplumber.open(out / "quick_violence-booklet.pdf") as booklet:
        before, after = plain.pages[-1], booklet.pages[-1]
        assert page_size_mm(after) == pytest.approx(page_size_mm(before)[::-1], abs=0.05)
        lengths = sorted(round(s.length, 2) for s in segments(before))
        assert len(lengths) > 20
        assert sorted(round(s.length, 2) for s in segments(after)) == pytest.approx(lengths, abs=0.02)
        assert "Measuring page" not in (booklet.pages[-2].extract_text() or "")
        assert len(booklet.pages) % 2 == 1  # booklet sheets, two sides each, then the measuring page
