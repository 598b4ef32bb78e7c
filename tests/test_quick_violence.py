"""Quick Violence: the measuring page measured from the PDF that `printgen build` really writes.

The page-dimension arrows must run exactly from paper edge to paper edge, the red range arrow must
be its configured length inside the safe margin, and the scale bars must be true, on both papers.
Arrows are found by their colours and measured along their shafts: shaft start to head tip.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner

from printgen.cli.main import cli
from printgen.core.build import BuildOptions
from printgen.games import bundled_definition, load
from printgen.games.quick_violence.measuring_page import PAGE_COLOURS, RANGE_COLOUR, SCALE_COLOUR
from printgen.core.paper import PAPERS as PRINTGEN_PAPERS

MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0, 363.74), "letter": (215.9, 279.4, 353.10)}
SAFE = 5.0
FILES = ("quick_violence.pdf", "quick_violence-reference.pdf", "quick_violence-reference-cards.pdf")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Build the bundled game once per paper; tests read the files the CLI wrote."""
    folders = {}
    for paper in PAPERS:
        out = tmp_path_factory.mktemp(paper)
        result = CliRunner().invoke(cli, ["build", "quick_violence", "--paper", paper, "--out", str(out)])
        assert result.exit_code == 0, result.output
        folders[paper] = out / "quick_violence"
    return folders


# -- measuring helpers -----------------------------------------------------------------------

@dataclass(frozen=True)
class Mark:
    """One stroked line or filled shape, in mm with y up, with the colour that draws it."""

    points: list[tuple[float, float]]
    colour: tuple[float, ...]
    filled: bool
    width: float  # stroke width in mm (0 for a fill)


def marks(page) -> list[Mark]:
    height = float(page.height)
    found = []
    for obj in page.lines + page.curves:
        filled = bool(obj.get("fill")) and not obj.get("stroke")
        colour = obj["non_stroking_color"] if filled else obj["stroking_color"]
        points = [(x / MM, (height - y) / MM) for x, y in obj["pts"]]
        found.append(Mark(points, tuple(float(c) for c in colour or ()), filled,
                          0.0 if filled else float(obj.get("linewidth") or 0) / MM))
    return found


def same_colour(a: tuple[float, ...], colour) -> bool:
    return len(a) == 3 and all(abs(x - y) < 0.005 for x, y in zip(a, colour.rgb()))


@dataclass(frozen=True)
class Measured:
    tail: tuple[float, float]
    tip: tuple[float, float]
    length: float
    marks: list[Mark]


def arrow(page, colour) -> Measured:
    """The arrow drawn in `colour`: its span along the shaft, from the tail to the head's tip."""
    mine = [m for m in marks(page) if same_colour(m.colour, colour)]
    head = [m for m in mine if m.filled]
    assert len(head) == 1, f"expected one arrow head in {colour}, found {len(head)}"
    shaft = max((m for m in mine if not m.filled), key=lambda m: math.dist(m.points[0], m.points[-1]))
    (x1, y1), (x2, y2) = shaft.points[0], shaft.points[-1]
    span = math.dist((x1, y1), (x2, y2))
    ux, uy = (x2 - x1) / span, (y2 - y1) / span
    along = [((px - x1) * ux + (py - y1) * uy, (px, py)) for m in mine for px, py in m.points]
    low, high = min(along), max(along)
    tip_end, tail_end = (high, low) if high[1] in head[0].points else (low, high)
    tail = min((shaft.points[0], shaft.points[-1]), key=lambda p: math.dist(p, tail_end[1]))
    return Measured(tail, tip_end[1], high[0] - low[0], mine)


def measuring_page(folder: Path):
    pdf = pdfplumber.open(folder / "quick_violence.pdf")
    return pdf, pdf.pages[-1]


# -- the page-dimension arrows ---------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPERS)
def test_page_arrows_run_from_paper_edge_to_paper_edge(built, paper):
    w, h, diagonal = PAPERS[paper]
    pdf, page = measuring_page(built[paper])
    with pdf:
        short, medium, long_ = (arrow(page, PAGE_COLOURS[d]) for d in ("width", "length", "diagonal"))
    assert short.length == pytest.approx(w, abs=0.01)
    assert medium.length == pytest.approx(h, abs=0.01)
    assert long_.length == pytest.approx(diagonal, abs=0.01)
    # SHORT: left edge to right edge, level; MEDIUM: top edge to bottom edge, upright
    assert short.tail[0] == pytest.approx(0, abs=0.01) and short.tip[0] == pytest.approx(w, abs=0.01)
    assert short.tail[1] == pytest.approx(short.tip[1], abs=0.01)
    assert medium.tail[1] == pytest.approx(h, abs=0.01) and medium.tip[1] == pytest.approx(0, abs=0.01)
    assert medium.tail[0] == pytest.approx(medium.tip[0], abs=0.01)
    # LONG: corner to corner
    assert long_.tail == pytest.approx((0, h), abs=0.01)
    assert long_.tip == pytest.approx((w, 0), abs=0.01)


@pytest.mark.parametrize("paper", PAPERS)
def test_range_arrow_is_its_length_inside_the_safe_margin_with_its_length_beside_it(built, paper):
    w, h, _ = PAPERS[paper]
    pdf, page = measuring_page(built[paper])
    with pdf:
        red = arrow(page, RANGE_COLOUR)
        words = page.extract_words()
        height = float(page.height)
    assert red.length == pytest.approx(150.0, abs=0.01)
    for mark in red.marks:  # the ink itself, stroke width included, stays inside the margin
        for x, y in mark.points:
            assert SAFE <= x - mark.width / 2 and x + mark.width / 2 <= w - SAFE, (x, y)
            assert SAFE <= y - mark.width / 2 and y + mark.width / 2 <= h - SAFE, (x, y)
    label = [wd for wd in words if wd["text"] == "150"]
    assert label, "the range arrow's length is not printed"
    near = [wd for wd in label if red.tail[0] - 1 <= wd["x0"] / MM <= red.tip[0]
            and 0 < (height - wd["bottom"]) / MM - red.tail[1] < 12]
    assert near, "the range arrow's length is not printed beside it"


@pytest.mark.parametrize("paper", PAPERS)
def test_scale_bars_are_100_mm_and_4_in(built, paper):
    pdf, page = measuring_page(built[paper])
    with pdf:
        black = [m for m in marks(page) if same_colour(m.colour, SCALE_COLOUR) and not m.filled]
    bars = [m for m in black if abs(m.points[0][1] - m.points[-1][1]) < 1e-6
            and abs(m.points[0][0] - m.points[-1][0]) > 50]
    lengths = sorted(abs(m.points[-1][0] - m.points[0][0]) for m in bars)
    assert lengths == [pytest.approx(100.0, abs=0.01), pytest.approx(101.6, abs=0.01)]
    ticks = [m for m in black if abs(m.points[0][0] - m.points[-1][0]) < 1e-6]
    for bar in bars:  # each bar ends in a tick standing exactly on each end
        y = bar.points[0][1]
        for x in (bar.points[0][0], bar.points[-1][0]):
            assert any(abs(t.points[0][0] - x) < 0.01 and abs(min(p[1] for p in t.points) - y) < 0.01
                       for t in ticks), (x, y)


def test_measuring_page_says_how_to_print_and_measure(built):
    pdf, page = measuring_page(built["a4"])
    with pdf:  # the upright text only: LONG's slanted caption would interleave with it
        level = page.filter(lambda o: o["object_type"] != "char" or abs(o["matrix"][1]) < 1e-6)
        words = " ".join(level.extract_text().split())
    assert "Actual size" in words
    assert "4 to 6 mm" in words and "paper edge to the opposite edge" in words
    for label in ("SHORT", "MEDIUM", "LONG", "RANGE"):
        assert label in words


def test_paper_option_changes_the_printed_lengths(built):
    for paper, expected in (("a4", ("210 mm", "297 mm", "363.74 mm")),
                            ("letter", ("215.9 mm", "279.4 mm", "353.1 mm"))):
        with pdfplumber.open(built[paper] / "quick_violence.pdf") as pdf:
            text = " ".join(" ".join(p.extract_text() for p in pdf.pages).split())
        for length in expected:
            assert length in text, (paper, length)


# -- the rulebook and the reference card -----------------------------------------------------

def test_rulebook_covers_every_rule_and_reference_has_the_table_and_turn(built):
    with pdfplumber.open(built["a4"] / "quick_violence.pdf") as pdf:
        rules = " ".join(p.extract_text() for p in pdf.pages[:-1])
    for heading in ("Building an army", "The turn", "Activation limits", "Moving", "Attacking",
                    "Defending", "Damage", "Victory", "Terrain"):
        assert heading in rules, heading
    with pdfplumber.open(built["a4"] / "quick_violence-reference.pdf") as pdf:
        assert len(pdf.pages) == 1
        sheet = " ".join(pdf.pages[0].extract_text().split())
    for row in ("Cost 2 points 3 points 4 points", "Actions 3 2 1", "Defend bonus +3 +2 +1",
                "Damage points 1 2 3", "A turn"):
        assert row in sheet, row


@pytest.mark.parametrize("paper", PAPERS)
def test_every_pdf_embeds_its_fonts_and_asks_not_to_scale(built, paper):
    for name in FILES:
        reader = pypdf.PdfReader(built[paper] / name)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None", name
        for page in reader.pages:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
                assert "Helvetica" not in str(font["/BaseFont"]), name
                descriptor = font.get("/FontDescriptor")
                assert descriptor is not None and "/FontFile2" in descriptor.get_object(), \
                    f"{name}: {font['/BaseFont']} is not embedded"


def test_two_builds_are_byte_identical():
    loaded = load(bundled_definition("quick_violence"))
    options = BuildOptions(PRINTGEN_PAPERS["letter"])
    first, second = loaded.build(options), loaded.build(options)
    assert [(a.name, a.data) for a in first] == [(a.name, a.data) for a in second]


# -- the definition drives the page, and bad definitions are located ------------------------

def edited(path: Path, *swaps: tuple[str, str]) -> dict[str, int]:
    """Apply text swaps to a YAML copy; return the 1-based line of each new text."""
    text = path.read_text()
    for old, new in swaps:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text)
    lines = text.splitlines()
    return {new: next(i for i, line in enumerate(lines, 1) if new.splitlines()[-1] in line)
            for _, new in swaps}


def test_changing_the_range_in_the_yaml_changes_the_arrow(run_cli, copy_definition, tmp_path):
    path = copy_definition("quick_violence", "house")
    edited(path, ("range_mm: 150", "range_mm: 120.5"), ("  range: RANGE", "  range: REACH"))
    result = run_cli("build", path, "--paper", "letter", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "house" / "house.pdf") as pdf:
        page = pdf.pages[-1]
        red = arrow(page, RANGE_COLOUR)
        words = " ".join(page.extract_text().split())
    assert red.length == pytest.approx(120.5, abs=0.01)
    assert "REACH 120.5 mm" in words


def test_a_range_that_does_not_fit_a4_is_located_but_fits_letter(run_cli, copy_definition, tmp_path):
    path = copy_definition("quick_violence")
    line = edited(path, ("range_mm: 150", "range_mm: 168"))["range_mm: 168"]
    result = run_cli("build", path, "--out", tmp_path / "a4")
    assert result.exit_code == 2
    assert re.search(rf"quick_violence\.yaml:{line}: range_mm: expected at most 165\.7 mm: on A4 "
                     rf"paper the range arrow must lie inside the 5 mm safe margin", result.output), result.output
    assert not (tmp_path / "a4").exists()
    result = run_cli("build", path, "--paper", "letter", "--out", tmp_path / "letter")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "letter" / "quick_violence" / "quick_violence.pdf") as pdf:
        assert arrow(pdf.pages[-1], RANGE_COLOUR).length == pytest.approx(168.0, abs=0.01)


def test_nonsense_numbers_are_all_reported_with_file_and_line(run_cli, copy_definition, tmp_path):
    path = copy_definition("quick_violence")
    lines = edited(path, ("    cost: 4", "    cost: 12"), ("    defence: 3", "    defence: 5"),
                   ("  length: MEDIUM", "  length: SHORT"), ("army_budget: 10", "army_budget: 0"))
    result = run_cli("build", path, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert f"quick_violence.yaml:{lines['army_budget: 0']}: army_budget: " in result.output
    edited(path, ("army_budget: 0", "army_budget: 10"))  # with a sane budget, the game checks run
    result = run_cli("build", path, "--out", tmp_path / "o2")
    assert result.exit_code == 2
    out = result.output
    assert f"quick_violence.yaml:{lines['    cost: 12']}: fighters.large.cost: a large fighter costs 12 " \
           f"points but army_budget is 10" in out
    assert f"quick_violence.yaml:{lines['    defence: 5']}: fighters.small.defence: with +5" in out
    assert f"quick_violence.yaml:{lines['  length: SHORT']}: labels.length: 'SHORT' already labels" in out
    assert "3 problems found; nothing was written" in out
    assert not (tmp_path / "o2").exists()


def test_larger_text_takes_more_rules_pages_and_the_measuring_page_stays_last(run_cli, copy_definition,
                                                                              tmp_path):
    path = copy_definition("quick_violence")
    edited(path, ("text_size_pt: 10", "text_size_pt: 12"))
    result = run_cli("build", path, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "quick_violence" / "quick_violence.pdf") as pdf:
        assert len(pdf.pages) > 3
        assert f"page 1 of {len(pdf.pages)}" in pdf.pages[0].extract_text()
        assert arrow(pdf.pages[-1], PAGE_COLOURS["diagonal"]).length == pytest.approx(363.74, abs=0.01)


def test_measuring_text_too_long_for_its_box_is_located(run_cli, tmp_path):
    mine = tmp_path / "mine" / "quick_violence"
    mine.mkdir(parents=True)
    (mine / "measuring.txt.j2").write_text("# Measuring page\n\n" + "Print at Actual size. " * 200 + "\n")
    result = run_cli("build", "quick_violence", "--templates", tmp_path / "mine", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(r"quick_violence\.yaml:\d+: text_size_pt: the measuring page's text does not fit "
                     r"its box on A4 paper", result.output), result.output
    assert not (tmp_path / "o").exists()
