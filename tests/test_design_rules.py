"""The print design rules, measured on every PDF the bundled games build, on A4 and on Letter: no
glyph under 7 pt, no text within 5 mm of the paper's edge, and a first page that says how to print
the file (one-sided or both sides, and on which edge)."""
from __future__ import annotations

import re
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


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory) -> list[Path]:
    """Every PDF of every bundled game, and the calibration sheet, on one paper."""
    out = tmp_path_factory.mktemp(request.param)
    runner = CliRunner()
    assert runner.invoke(cli, ["build", "--paper", request.param, "--out", str(out)]).exit_code == 0
    assert runner.invoke(cli, ["calibrate", "--paper", request.param, "--out", str(out)]).exit_code == 0
    pdfs = sorted(out.rglob("*.pdf"))
    assert len(pdfs) >= 15
    return pdfs


def test_no_glyph_is_smaller_than_7_pt(built):
    small = []
    for path in built:
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages, start=1):
                small += [(path.name, number, c["text"], round(glyph_pt(c), 2)) for c in page.chars
                          if c["text"].strip() and glyph_pt(c) < MIN_PT - 0.01]
    assert small == [], small[:10]


def test_no_text_comes_within_5_mm_of_the_paper_edge(built):
    near = []
    for path in built:
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages, start=1):
                w, h = float(page.width), float(page.height)
                for c in page.chars:
                    gap = min(c["x0"], w - c["x1"], c["top"], h - c["bottom"]) / MM
                    if c["text"].strip() and gap < EDGE_MM - 0.01:
                        near.append((path.name, number, c["text"], round(gap, 2)))
    assert near == [], near[:10]


def test_every_pdf_says_on_its_first_page_how_to_print_it(built):
    for path in built:
        with pdfplumber.open(path) as pdf:
            first = " ".join((pdf.pages[0].extract_text() or "").split())
            duplex = len(pdf.pages) > 1 and "/DuplexFlip" in str(pdf.doc.catalog.get("ViewerPreferences", ""))
        assert HOW.search(first), (path.name, first[:200])
        if duplex:
            assert EDGE_WORD.search(first), (path.name, first[:200])


FOOT_MM = 40.0


def lowest_ink_mm(page) -> float | None:
    """How high above the paper's bottom edge the lowest mark on the page (text, line, shape or
    picture) sits, in mm; None for an empty page."""
    height = float(page.height)
    marks = [c for c in page.chars if c["text"].strip()] + page.rects + page.lines + page.curves + page.images
    return min((height - m["bottom"]) / MM for m in marks) if marks else None


def test_no_page_but_the_last_leaves_more_than_40_mm_blank_at_its_foot(built):
    blank = []
    for path in built:
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages[:-1], start=1):
                low = lowest_ink_mm(page)
                if low is None or low > FOOT_MM:
                    blank.append((path.name, number, low and round(low, 1)))
    assert blank == [], blank
