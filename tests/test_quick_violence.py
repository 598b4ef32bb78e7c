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

from building import build, shared
from pdfmeasure import glyph_pt
from printgen.cli.main import cli
from printgen.core.build import BuildOptions
from printgen.games import bundled_definition, load
from printgen.games.quick_violence.measuring_page import MARK_PT, PAGE_COLOURS, RANGE_COLOUR, SCALE_COLOUR
from printgen.games.quick_violence.model import PRINTGEN_RANGE_MM
from printgen.core.paper import PAPERS as PRINTGEN_PAPERS

MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0, 363.74), "letter": (215.9, 279.4, 353.10)}
SAFE = 5.0
FILES = ("quick_violence.pdf", "quick_violence-reference.pdf", "quick_violence-reference-cards.pdf")


@pytest.fixture(scope="module")
def built(all_games_built) -> dict[str, Path]:
    """The bundled game built on each paper (`printgen build --paper P`, once for the session);
    tests read the files the CLI wrote."""
    return {paper: all_games_built[paper] / "quick_violence" for paper in PAPERS}


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
    for paper, expected in (("a4", ("210 mm", "297 mm", "364 mm")),  # the words round; the arrows do not
                            ("letter", ("216 mm", "279 mm", "353 mm"))):
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
        level = level_text(page)
    assert red.length == pytest.approx(120.5, abs=0.01)
    assert "REACH 120.5 mm" in words
    assert "120.5 mm (4.7 in) †, as far as an attack reaches." in " ".join(level.split())  # inches to a tenth


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


def sized(tmp_path_factory, size: float, paper: str) -> Path:
    """The rulebook of `printgen build quick_violence.yaml --paper PAPER`, the bundled definition with
    its text at SIZE pt; built once for the session where two tests read the same build."""
    def make(folder: Path) -> None:
        path = folder / "quick_violence.yaml"
        path.write_text(bundled_definition("quick_violence").read_text())
        edited(path, ("text_size_pt: 9.5", f"text_size_pt: {size:g}"))
        build(folder / "o", str(path), "--paper", paper)
    name = f"quick-violence-{size:g}pt-{paper}"
    return shared(tmp_path_factory, {name: make})[name] / "o" / "quick_violence" / "quick_violence.pdf"


def test_larger_text_takes_more_rules_pages_and_the_measuring_page_stays_last(tmp_path_factory):
    # `printgen build` with text_size_pt: 12 on A4, the default paper
    with pdfplumber.open(sized(tmp_path_factory, 12, "a4")) as pdf:
        assert len(pdf.pages) > 3
        assert f"page 1 of {len(pdf.pages)}" in pdf.pages[0].extract_text()
        assert arrow(pdf.pages[-1], PAGE_COLOURS["diagonal"]).length == pytest.approx(363.74, abs=0.01)


def test_measuring_text_too_long_for_its_box_is_located(run_cli, tmp_path):
    mine = tmp_path / "mine" / "quick_violence"
    mine.mkdir(parents=True)
    (mine / "measuring.md.j2").write_text("# Measuring page\n\n" + "Print at Actual size. " * 200 + "\n")
    result = run_cli("build", "quick_violence", "--templates", tmp_path / "mine", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(r"quick_violence\.yaml:\d+: text_size_pt: the measuring page's text does not fit "
                     r"its box on A4 paper", result.output), result.output
    assert not (tmp_path / "o").exists()


# -- issue 15: the ends that printers cut off, the wording, the table, the page feet ----------

EDGES = {("width", "tail"): "left edge", ("width", "tip"): "right edge", ("length", "tail"): "top edge",
         ("length", "tip"): "bottom edge", ("diagonal", "tail"): "corner", ("diagonal", "tip"): "corner"}
LED = {("width", "tail"), ("length", "tail")}  # words set apart from the crowded corner, with leaders
PRINTER_MARGIN = 6.0  # the widest strip a home printer leaves blank (4 to 6 mm)
TICK = 5.0


@dataclass(frozen=True)
class Words:
    """One run of the end marks' characters (MARK_PT, 8 pt) in one colour and direction: a label as
    drawn, in mm (y up)."""

    text: str
    points: list[tuple[float, float]]  # each character's origin
    gap: float  # the least distance from any character's box to the paper's edge


def coloured_words(page, colour) -> list[Words]:
    """The end marks' labels drawn in `colour`, split where the direction changes or a run breaks off."""
    w, h = float(page.width), float(page.height)
    runs: list[list[dict]] = []
    for c in page.chars:
        if not same_colour(tuple(float(v) for v in c["non_stroking_color"] or ()), colour):
            continue
        if abs(glyph_pt(c) - MARK_PT) > 0.05:
            continue
        last = runs[-1][-1] if runs else None
        if (last is None or [round(v, 3) for v in last["matrix"][:4]] != [round(v, 3) for v in c["matrix"][:4]]
                or math.dist(last["matrix"][4:], c["matrix"][4:]) > 4 * MM):
            runs.append([])
        runs[-1].append(c)
    return [Words("".join(c["text"] for c in run), [(c["matrix"][4] / MM, c["matrix"][5] / MM) for c in run],
                  min(min(c["x0"], w - c["x1"], c["top"], h - c["bottom"]) for c in run) / MM)
            for run in runs]


@dataclass(frozen=True)
class EndTick:
    dimension: str
    side: str
    middle: tuple[float, float]
    distance: float  # along the arrow, from the tick to the arrow's end at the paper's edge
    ends: list[tuple[float, float]]
    words: Words


def end_ticks(page) -> list[EndTick]:
    """Every short tick across a page arrow, with the arrow end it belongs to and its words."""
    found = []
    for dim in ("width", "length", "diagonal"):
        colour = PAGE_COLOURS[dim]
        line = arrow(page, colour)
        ux, uy = ((line.tip[0] - line.tail[0]) / line.length, (line.tip[1] - line.tail[1]) / line.length)
        words = coloured_words(page, colour)
        for mark in line.marks:
            (x1, y1), (x2, y2) = mark.points[0], mark.points[-1]
            if mark.filled or abs(math.dist((x1, y1), (x2, y2)) - TICK) > 0.05:
                continue
            assert abs((x2 - x1) * ux + (y2 - y1) * uy) < 0.01, "a tick runs square to its arrow"
            middle = ((x1 + x2) / 2, (y1 + y2) / 2)
            along = (middle[0] - line.tail[0]) * ux + (middle[1] - line.tail[1]) * uy
            off = abs((middle[0] - line.tail[0]) * uy - (middle[1] - line.tail[1]) * ux)
            assert off < 0.01, "a tick's middle lies on its arrow"
            side, distance = ("tail", along) if along < line.length / 2 else ("tip", line.length - along)
            near = min(words, key=lambda wd: min(math.dist(p, middle) for p in wd.points))
            found.append(EndTick(dim, side, middle, distance, [(x1, y1), (x2, y2)], near))
    return found


@pytest.mark.parametrize("paper", PAPERS)
def test_each_arrow_end_has_a_tick_inside_the_printed_area_that_says_how_far_the_edge_is(built, paper):
    w, h, _ = PAPERS[paper]
    pdf, page = measuring_page(built[paper])
    with pdf:
        ticks = end_ticks(page)
    assert sorted((t.dimension, t.side) for t in ticks) == sorted(EDGES)
    for t in ticks:
        for x, y in t.ends:  # the whole tick is printed, whatever the printer's margin
            assert PRINTER_MARGIN < x < w - PRINTER_MARGIN and PRINTER_MARGIN < y < h - PRINTER_MARGIN, t
        distance = f"{t.distance:.2f}".rstrip("0").rstrip(".")
        assert t.words.text == f"{distance} mm to the {EDGES[(t.dimension, t.side)]}"
        assert t.distance == pytest.approx(round(t.distance), abs=0.01)  # whole millimetres, easy to add
        if (t.dimension, t.side) not in LED:  # the words sit by their tick (those led away: test_qv_leaders)
            assert min(math.dist(p, t.middle) for p in t.words.points) < 6.0
        assert t.words.gap >= PRINTER_MARGIN, t.words  # and are printed too
    # where the ends are: each tick measured from the paper's edge it names
    at = {(t.dimension, t.side): t for t in ticks}
    assert at["width", "tail"].middle[0] == pytest.approx(20.0, abs=0.01)
    assert w - at["width", "tip"].middle[0] == pytest.approx(20.0, abs=0.01)
    assert h - at["length", "tail"].middle[1] == pytest.approx(10.0, abs=0.01)
    assert at["length", "tip"].middle[1] == pytest.approx(20.0, abs=0.01)
    assert math.dist(at["diagonal", "tail"].middle, (0, h)) == pytest.approx(40.0, abs=0.01)
    assert math.dist(at["diagonal", "tip"].middle, (w, 0)) == pytest.approx(20.0, abs=0.01)


def level_text(page) -> str:
    """The page's upright text in one line (slanted and turned captions would interleave with it)."""
    level = page.filter(lambda o: o["object_type"] != "char" or abs(o["matrix"][1]) < 1e-6)
    return " ".join(level.extract_text().split())


def column_text(page) -> str:
    """A two-column page's text, the left column before the right, in one line."""
    w, h = float(page.width), float(page.height)
    halves = (page.crop((0, 0, w / 2, h)), page.crop((w / 2, 0, w, h)))
    return " ".join(" ".join(half.extract_text().split()) for half in halves)


@pytest.mark.parametrize("paper", PAPERS)
def test_fit_to_page_is_said_to_shrink_the_printed_lengths_but_not_the_moves(built, paper):
    pdf, page = measuring_page(built[paper])
    with pdf:
        words = level_text(page)
    assert "every move" not in words
    assert ('"Fit to page" shrinks the print a few percent: the red arrow, the bars and the ticks near '
            "the arrow ends come out wrong. The moves stay true: they end at the paper's own edges.") in words
    assert "A tick near each end says how far it is to the edge." in words


@pytest.mark.parametrize("paper", PAPERS)
def test_the_150_mm_range_is_printed_as_the_editions_choice(built, paper):
    with pdfplumber.open(built[paper] / "quick_violence.pdf") as pdf:
        rules = " ".join(column_text(p) for p in pdf.pages[:-1])
        measuring = level_text(pdf.pages[-1])
    assert "150 mm (5.9 in) †, as far as an attack reaches." in " ".join(measuring.split())
    flat = " ".join(rules.split())  # the mark in the rule; the edition's word in its closing notes
    assert "arrow (150 mm †)" in flat and "Their red arrow has no length; this edition makes it 150 mm." in flat
    assert "printgen" not in measuring + rules  # a ruling, marked as the edition's (issue 43)
    assert PRINTGEN_RANGE_MM == 150.0
    assert "range_mm: 150\n" in bundled_definition("quick_violence").read_text()


@pytest.mark.parametrize("paper", PAPERS)
def test_the_fighter_tables_arrow_cells_take_two_lines_name_over_length(built, paper):
    _, _, diagonal = PAPERS[paper]
    length = f"{round(diagonal)}"  # the words round to the millimetre; the arrow keeps the paper's length
    with pdfplumber.open(built[paper] / "quick_violence.pdf") as pdf:
        page = pdf.pages[0]  # the table stands in its left column
        words = page.crop((0, 0, float(page.width) / 2, float(page.height))).extract_words()
    large = next(wd for wd in words if wd["text"] == "Large")
    top = next(wd for wd in words if wd["text"] == "Moves")["top"]
    bottom = next(wd for wd in words if wd["text"] == "Defend")["top"]
    cell = [wd for wd in words if wd["x0"] >= large["x0"] - 0.5 and top - 0.5 <= wd["top"] < bottom - 0.5]
    lines: dict[float, list[str]] = {}
    for wd in cell:
        lines.setdefault(round(wd["top"], 1), []).append(wd["text"])
    assert [" ".join(line) for _, line in sorted(lines.items())] == ["LONG", f"{length} mm"]


MARGIN = 14.0  # the rules pages' margin (game.MARGIN); the page footer sits below it
FOOTER_TOP = 12.0
MAX_BLANK = 40.0


def foot_blanks(page) -> dict[str, float]:
    """Per half of the page: mm from the lowest ink above the footer down to the bottom margin."""
    height, middle = float(page.height), float(page.width) / 2
    lowest = {"left": math.inf, "right": math.inf}
    boxes = [(c["x0"], c["x1"], c["bottom"]) for c in page.chars if c["text"].strip()]
    boxes += [(o["x0"], o["x1"], o["bottom"]) for o in page.lines + page.rects + page.curves]
    for x0, x1, bottom in boxes:
        y = (height - bottom) / MM
        if y > FOOTER_TOP:
            side = "left" if (x0 + x1) / 2 < middle else "right"
            lowest[side] = min(lowest[side], y)
    return {side: y - MARGIN for side, y in lowest.items()}


@pytest.mark.parametrize("paper", PAPERS)
def test_no_rules_page_ends_in_more_than_40_mm_of_blank_and_the_last_one_fills_both_columns(built, paper):
    with pdfplumber.open(built[paper] / "quick_violence.pdf") as pdf:
        pages = pdf.pages[:-1]  # the measuring page is the document's last
        assert len(pages) == 2
        blanks = [foot_blanks(page) for page in pages]
        last = " ".join(pages[-1].extract_text().split())
        words = pages[-1].extract_words()
    for number, blank in enumerate(blanks, start=1):
        assert min(blank.values()) <= MAX_BLANK, (number, blank)
    assert max(blanks[-1].values()) <= MAX_BLANK, blanks[-1]  # both columns reach the foot
    assert "Army sheets" in last
    players = [wd for wd in words if wd["text"] == "Player"]
    middle = float(pages[-1].width) / 2
    left = [wd for wd in players if wd["x0"] < middle]
    assert players and len(left) == len(players) - len(left)  # a sheet for each player in each game
    assert last.count("points spent ______ of 10") == len(players)
    if len(left) > 1:
        assert [f"Game {n}" for n in range(1, len(left) + 1)] == re.findall(r"Game \d", last)[::2]


def army_sheet_lines(page) -> list[list[float]]:
    """Each army sheet's fighter lines on a page, as the y (mm, down) of each line's S M L letters,
    grouped per sheet: a sheet starts at each "Player" in the left half."""
    words = page.extract_words()
    middle = float(page.width) / 2
    starts = sorted(wd["top"] for wd in words if wd["text"] == "Player" and wd["x0"] < middle)
    rows = sorted({round(wd["top"], 1) for wd in words if wd["text"] == "S" and wd["x0"] < middle})
    bounds = starts + [float("inf")]
    return [[r / MM for r in rows if low < r < high] for low, high in zip(bounds, bounds[1:])]


@pytest.mark.parametrize("paper", PAPERS)
def test_an_army_sheet_has_a_line_for_each_fighter_of_the_largest_army_and_the_page_is_used(built, paper):
    """10 points buy at most 5 fighters (small ones at 2 points): each sheet has 5 lines, no more,
    and the sheets repeat for a second game on both papers (Letter's lines 6.5 mm or more apart, room
    to write a name), their lines grown until the page is at most a quarter empty at its foot."""
    with pdfplumber.open(built[paper] / "quick_violence.pdf") as pdf:
        page = pdf.pages[-2]
        sheets = army_sheet_lines(page)
        blank = foot_blanks(page)
        height = float(page.height) / MM
    assert sheets and all(len(lines) == 5 for lines in sheets), sheets
    assert len(sheets) == 2, sheets  # a second game on Letter too: its lines closer, never cramped
    steps = [b - a for lines in sheets for a, b in zip(lines, lines[1:])]
    assert min(steps) >= 6.5 - 0.05 and max(steps) <= 10.0 + 0.05, steps  # room to write a name by hand
    assert max(blank.values()) <= 0.25 * (height - 2 * MARGIN), blank


@pytest.mark.parametrize("size", [7, 12])
@pytest.mark.parametrize("paper", PAPERS)
def test_other_text_sizes_leave_no_blank_foot_either(tmp_path_factory, size, paper):
    with pdfplumber.open(sized(tmp_path_factory, size, paper)) as pdf:
        for number, page in enumerate(pdf.pages[:-1], start=1):
            blank = foot_blanks(page)
            assert min(blank.values()) <= MAX_BLANK, (number, blank)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_document_credits_the_original_in_its_footer(built, paper):
    """The house footer (game, document, page, then the credit) on each rules page, and the credit in
    each reference card's title block (the cards have no page footer): the original rules name no
    author, so the credit names the original by its own heading."""
    credit = "Adapted from Very Quick Violence"
    for name in ("quick_violence-reference.pdf", "quick_violence-reference-cards.pdf"):
        with pdfplumber.open(built[paper] / name) as pdf:
            for page in pdf.pages:
                middle = float(page.height) / 2
                for top, box in ((True, (0, 0, float(page.width), middle)),
                                 (False, (0, middle, float(page.width), float(page.height)))):
                    head = " ".join((page.crop(box).extract_text() or "").split())
                    front = page.page_number == 1 and (top or name.endswith("-cards.pdf"))
                    assert (credit in head) == front, (name, head[:120])  # on every card's front
    for name in ("quick_violence.pdf",):
        with pdfplumber.open(built[paper] / name) as pdf:
            pages = pdf.pages[:-1] if name == "quick_violence.pdf" else pdf.pages  # the ruler has no footer
            for number, page in enumerate(pages, start=1):
                foot = [c for c in page.chars if (float(page.height) - c["bottom"]) / MM < 8]
                words = "".join(c["text"] for c in sorted(foot, key=lambda c: c["x0"]))
                assert words.endswith(f"page {number} of {len(pdf.pages)} \u00b7 {credit}"), (name, words)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_measuring_pages_words_are_8_pt_or_more(built, paper):
    """The ticks' words ('20 mm to the right edge') and the move picture's ('before', 'after')
    were 7 pt, and read smaller, thin and coloured, than the body: now nothing there is under 8."""
    with pdfplumber.open(built[paper] / "quick_violence.pdf") as pdf:
        page = pdf.pages[-1]
        sizes = {round(glyph_pt(c), 2) for c in page.chars if c["text"].strip()}
        text = page.extract_text()
    assert min(sizes) >= 8.0, sorted(sizes)
    assert "before" in text and "after" in text and "(not to scale)" in text


@pytest.mark.parametrize("paper", PAPERS)
def test_the_measuring_page_says_how_far_each_size_goes_in_one_activation(built, paper):
    """The room under LONG holds a short table: each size's actions times its arrow, counted on this
    paper (3 × 210 = 630 mm on A4, 3 × 215.9 = 648 mm on Letter), every word of it clear of LONG by
    at least 5 mm and above the move drawing's note."""
    w, h, diagonal = PAPERS[paper]
    pdf, page = measuring_page(built[paper])
    with pdf:
        text = " ".join(page.extract_text().split())
        words = page.extract_words()
        chars = page.chars
        height = float(page.height)
    lengths = {"SHORT": w, "MEDIUM": h, "LONG": diagonal}
    for size, actions, arrow_word in (("Small", 3, "SHORT"), ("Medium", 2, "MEDIUM"), ("Large", 1, "LONG")):
        mm = round(actions * lengths[arrow_word])
        assert re.search(rf"{size} {actions} \u00d7 ?{arrow_word} {mm} mm", text), text  # the arrow's word set apart
    heading = next(wd for wd in words if wd["text"] == "activation")
    moving = next(wd for wd in words if wd["text"] == "Moving:")
    note = [c for c in chars if heading["top"] - 1 <= c["top"] < moving["top"] - 1 and c["x0"] < w * MM / 2
            and abs(c["matrix"][1]) < 1e-6 and c["text"].strip()]  # not the arrows' own turned captions
    assert len(note) > 150 and heading["top"] < moving["top"]
    for wd in note:  # distance from the glyph's top-right corner to LONG, the line from (0, h) to (w, 0)
        x, y = wd["x1"] / MM, (height - wd["top"]) / MM
        assert (w * h - h * x - w * y) / diagonal >= 5.0, wd
