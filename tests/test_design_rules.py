"""The print design rules, measured on every PDF the bundled games build, on A4 and on Letter: no
glyph under 7 pt, no text within 5 mm of the paper's edge, and a first page that says how to print
the file (one-sided or both sides, and on which edge), and no page but the last that leaves more
than 40 mm blank at its foot. Each PDF is read once per paper and every rule measured on that."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from pdfmeasure import MM, glyph_pt
from printgen.cli.main import cli

MIN_PT = 7.0
EDGE_MM = 5.0
HOW = re.compile(r"one-sided|single-sided|both sides|double-sided", re.IGNORECASE)
EDGE_WORD = re.compile(r"(long|short) edge", re.IGNORECASE)


@dataclass
class PageFacts:
    """What the rules are measured on, read from one page once (parsing Omiga's tile sheets is slow)."""

    width: float
    height: float
    chars: list[dict]  # pdfplumber characters that print something
    lowest_mm: float | None  # how high above the foot the lowest mark sits


@dataclass
class PdfFacts:
    path: Path
    pages: list[PageFacts]
    first_text: str
    duplex: bool


def lowest_ink_mm(page, chars: list[dict]) -> float | None:
    """How high above the paper's bottom edge the lowest mark on the page (text, line, shape or
    picture) sits, in mm; None for an empty page."""
    height = float(page.height)
    marks = chars + page.rects + page.lines + page.curves + page.images
    return min((height - m["bottom"]) / MM for m in marks) if marks else None


def facts(path: Path) -> PdfFacts:
    with pdfplumber.open(path) as pdf:
        pages = []
        for page in pdf.pages:
            chars = [c for c in page.chars if c["text"].strip()]
            pages.append(PageFacts(float(page.width), float(page.height), chars, lowest_ink_mm(page, chars)))
        first = " ".join((pdf.pages[0].extract_text() or "").split())
        duplex = len(pdf.pages) > 1 and "/DuplexFlip" in str(pdf.doc.catalog.get("ViewerPreferences", ""))
    return PdfFacts(path, pages, first, duplex)


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory) -> list[PdfFacts]:
    """Every PDF of every bundled game, and the calibration sheet, on one paper, read once."""
    out = tmp_path_factory.mktemp(request.param)
    runner = CliRunner()
    assert runner.invoke(cli, ["build", "--paper", request.param, "--out", str(out)]).exit_code == 0
    assert runner.invoke(cli, ["calibrate", "--paper", request.param, "--out", str(out)]).exit_code == 0
    pdfs = sorted(out.rglob("*.pdf"))
    assert len(pdfs) >= 15
    return [facts(path) for path in pdfs]


def test_no_glyph_is_smaller_than_7_pt(built):
    small = [(pdf.path.name, number, c["text"], round(glyph_pt(c), 2))
             for pdf in built for number, page in enumerate(pdf.pages, start=1)
             for c in page.chars if glyph_pt(c) < MIN_PT - 0.01]
    assert small == [], small[:10]


def test_no_text_comes_within_5_mm_of_the_paper_edge(built):
    near = []
    for pdf in built:
        for number, page in enumerate(pdf.pages, start=1):
            for c in page.chars:
                gap = min(c["x0"], page.width - c["x1"], c["top"], page.height - c["bottom"]) / MM
                if gap < EDGE_MM - 0.01:
                    near.append((pdf.path.name, number, c["text"], round(gap, 2)))
    assert near == [], near[:10]


def test_every_pdf_says_on_its_first_page_how_to_print_it(built):
    for pdf in built:
        assert HOW.search(pdf.first_text), (pdf.path.name, pdf.first_text[:200])
        if pdf.duplex:
            assert EDGE_WORD.search(pdf.first_text), (pdf.path.name, pdf.first_text[:200])


FOOT_MM = 40.0


def test_no_page_but_the_last_leaves_more_than_40_mm_blank_at_its_foot(built):
    blank = [(pdf.path.name, number, page.lowest_mm and round(page.lowest_mm, 1))
             for pdf in built for number, page in enumerate(pdf.pages[:-1], start=1)
             if page.lowest_mm is None or page.lowest_mm > FOOT_MM]
    assert blank == [], blank
