"""The print design rules, measured on every PDF the bundled games build, on A4 and on Letter: no
glyph under 7 pt, no text within 5 mm of the paper's edge, a first page that says how to print the
file (one-sided or both sides, and on which edge), no page but the last with more than 40 mm blank
at its foot, text on every piece that is cut out at least 2 mm inside its cut lines, and bleed
behind the solid areas that meet a cut or fold.

The pieces are found in the PDF itself, from the dashed cut and dotted fold lines printgen draws:
the margin marks of an imposed sheet (Omiga's tiles and the sample deck's cards, fronts and backs),
the grid of Fracas's life tokens, One Minute War's card outline, tab cuts and folds (each tab, and
the body between the folds) and the cut across the middle of each reference sheet and card sheet.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pdfplumber
import pytest
from click.testing import CliRunner

from ruamel.yaml import YAML

from pdfmeasure import CUT_DASH, FOLD_DASH, MM, chars_mm, glyph_pt, page_size_mm, segments
from printgen.cli.main import cli
from printgen.games import bundled_definition
from printgen.games.fracas.tokens import BLEED as TOKEN_BLEED
from printgen.games.one_minute_war.card import TAB_BLEED

MIN_PT = 7.0
EDGE_MM = 5.0
HOW = re.compile(r"one-sided|single-sided|both sides|double-sided", re.IGNORECASE)
EDGE_WORD = re.compile(r"(long|short) edge", re.IGNORECASE)


# every test here on one pytest-xdist worker (`--dist loadgroup` in pyproject.toml), which reads
# each PDF once; spread over two, each worker would read every PDF
pytestmark = pytest.mark.xdist_group("design-rules")


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory, all_games_built) -> list[Path]:
    """Every PDF of every bundled game, and the calibration sheet, on one paper."""
    out = tmp_path_factory.mktemp(request.param)
    assert CliRunner().invoke(cli, ["calibrate", "--paper", request.param, "--out", str(out)]).exit_code == 0
    pdfs = sorted([*all_games_built[request.param].rglob("*.pdf"), *out.rglob("*.pdf")])
    assert len(pdfs) >= 15
    return pdfs


@dataclass
class PageFacts:
    """What the page-wide rules are measured on, read from one page once (parsing Omiga's tile
    sheets is slow)."""

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
    return read(path)[0]


@pytest.fixture(scope="module")
def measured(built) -> list[PdfFacts]:
    return [facts(path) for path in built]


def test_no_glyph_is_smaller_than_7_pt(measured):
    small = [(pdf.path.name, number, c["text"], round(glyph_pt(c), 2))
             for pdf in measured for number, page in enumerate(pdf.pages, start=1)
             for c in page.chars if glyph_pt(c) < MIN_PT - 0.01]
    assert small == [], small[:10]


def test_no_text_comes_within_5_mm_of_the_paper_edge(measured):
    near = []
    for pdf in measured:
        for number, page in enumerate(pdf.pages, start=1):
            for c in page.chars:
                gap = min(c["x0"], page.width - c["x1"], c["top"], page.height - c["bottom"]) / MM
                if gap < EDGE_MM - 0.01:
                    near.append((pdf.path.name, number, c["text"], round(gap, 2)))
    assert near == [], near[:10]


def test_every_pdf_says_on_its_first_page_how_to_print_it(measured):
    for pdf in measured:
        assert HOW.search(pdf.first_text), (pdf.path.name, pdf.first_text[:200])
        if pdf.duplex:
            assert EDGE_WORD.search(pdf.first_text), (pdf.path.name, pdf.first_text[:200])


FOOT_MM = 40.0


def test_no_page_but_the_last_leaves_more_than_40_mm_blank_at_its_foot(measured):
    blank = [(pdf.path.name, number, page.lowest_mm and round(page.lowest_mm, 1))
             for pdf in measured for number, page in enumerate(pdf.pages[:-1], start=1)
             if page.lowest_mm is None or page.lowest_mm > FOOT_MM]
    assert blank == [], blank


# -- pieces that are cut out -----------------------------------------------------------------------

CUT_CLEAR_MM = 2.0
MARK_MM = 3.0  # a margin cut mark is one dash long


@dataclass(frozen=True)
class Piece:
    """A piece's cut rectangle in mm (y up) and which of its sides (l, r, b, t) are cut or fold
    lines; a side along the paper's edge, or a body's folds, are not listed."""

    kind: str
    box: tuple[float, float, float, float]
    sides: str


def step(values: list[float]) -> float:
    """The commonest distance between neighbouring cut lines: the piece's size (a gutter between
    two decks is narrower and rarer)."""
    return Counter(round(b - a, 2) for a, b in zip(values, values[1:])).most_common(1)[0][0]


def imposed_cells(page, kind: str) -> list[Piece]:
    """An imposed sheet's pieces, from the marks in its margins: every cell between two cut lines a
    piece's size apart (on a back page the marks are mirrored with the backs)."""
    marks = [s for s in segments(page, CUT_DASH) if s.length <= MARK_MM + 0.01]
    xs = sorted({round(m.x1, 3) for m in marks if abs(m.x1 - m.x2) < 1e-6})
    ys = sorted({round(m.y1, 3) for m in marks if abs(m.y1 - m.y2) < 1e-6})
    w, h = step(xs), step(ys)
    return [Piece(kind, (a, c, b, d), "lrbt") for a, b in zip(xs, xs[1:]) if abs(b - a - w) < 0.01
            for c, d in zip(ys, ys[1:]) if abs(d - c - h) < 0.01]


def deck_cells(page) -> list[Piece]:
    """A deck sheet's cards: on a sheet of faces, each card's dashed cut line drawn round it (the
    marks in its margins, where they have room, only line a ruler up with those); on a sheet of
    backs, which carries no cut lines, each card's background, the page's bleed (BleedBox outside
    TrimBox) in from its edges."""
    height = float(page.height)
    outlines = [c for c in page.curves if tuple(float(v) for v in (c.get("dash") or ([], 0))[0]) == CUT_DASH
                and c["width"] > 20 * MM]
    if not outlines:
        return backs_of(page)
    return [Piece("deck card", (c["x0"] / MM, (height - c["bottom"]) / MM, c["x1"] / MM, (height - c["top"]) / MM),
                  "lrbt") for c in outlines]


def backs_of(page) -> list[Piece]:
    height = float(page.height)
    trim, bled = page.page_obj.attrs.get("TrimBox"), page.page_obj.attrs.get("BleedBox")
    bleed = (float(trim[0]) - float(bled[0])) / MM if trim and bled else 0.0
    filled = [r for r in page.rects if r.get("fill")]
    biggest = max(r["width"] * r["height"] for r in filled)
    return [Piece("deck card", (r["x0"] / MM + bleed, (height - r["bottom"]) / MM + bleed,
                                r["x1"] / MM - bleed, (height - r["top"]) / MM - bleed), "lrbt")
            for r in filled if abs(r["width"] * r["height"] - biggest) < 1]


def grid_cells(page, kind: str) -> list[Piece]:
    """Cells of a grid of full dashed cut lines that a line bounds on every side (Fracas's tokens:
    the last row may be short, and the two blocks stand apart)."""
    cuts = segments(page, CUT_DASH)
    vertical = [(c.x1, min(c.y1, c.y2), max(c.y1, c.y2)) for c in cuts if abs(c.x1 - c.x2) < 1e-6]
    horizontal = [(c.y1, min(c.x1, c.x2), max(c.x1, c.x2)) for c in cuts if abs(c.y1 - c.y2) < 1e-6]

    def ruled(lines, at: float, low: float, high: float) -> bool:
        return any(abs(p - at) < 1e-3 and a <= low + 1e-3 and b >= high - 1e-3 for p, a, b in lines)

    xs = sorted({round(v[0], 3) for v in vertical})
    ys = sorted({round(v[0], 3) for v in horizontal})
    return [Piece(kind, (a, c, b, d), "lrbt") for a, b in zip(xs, xs[1:]) for c, d in zip(ys, ys[1:])
            if ruled(vertical, a, c, d) and ruled(vertical, b, c, d)
            and ruled(horizontal, c, a, b) and ruled(horizontal, d, a, b)]


def war_card(page) -> list[Piece]:
    """One Minute War's card: its tabs (cut on three sides, folded on the fourth) and its body (cut
    at the ends, folded along both long sides), from the outline, the tab cuts and the folds."""
    cuts = segments(page, CUT_DASH)
    outline = [c for c in cuts if c.length > 50]  # the legend's sample cut is short
    x0, x1 = min(min(c.x1, c.x2) for c in outline), max(max(c.x1, c.x2) for c in outline)
    y0, y1 = min(min(c.y1, c.y2) for c in outline), max(max(c.y1, c.y2) for c in outline)
    folds = segments(page, FOLD_DASH)
    low, high = sorted({round(f.y1, 3) for f in folds if abs(f.length - (x1 - x0)) < 0.01})
    xs = sorted({x0, x1} | {round(c.x1, 3) for c in cuts if abs(c.x1 - c.x2) < 1e-6 and x0 < c.x1 < x1})
    tabs = [Piece("One Minute War tab", (a, c, b, d), "lrbt")
            for a, b in zip(xs, xs[1:]) for c, d in ((y0, low), (high, y1))]
    return tabs + [Piece("One Minute War body", (x0, low, x1, high), "lr")]


def reference_halves(page) -> list[Piece]:
    w, h = page_size_mm(page)
    (cut,) = [c for c in segments(page, CUT_DASH) if abs(c.y1 - c.y2) < 1e-6 and c.length > w / 2]
    return [Piece("reference card", (0.0, cut.y1, w, h), "b"),
            Piece("reference card", (0.0, 0.0, w, cut.y1), "t")]


# what the bundled games cut out, and how many pieces each page of them holds
CUT_OUT: dict[str, tuple[Callable[[Any], list[Piece]], int | None]] = {
    "omiga.pdf": (lambda page: imposed_cells(page, "Omiga tile"), 24),
    "deck.pdf": (deck_cells, None),  # 9 on A4, 8 on Letter
    "fracas-tokens.pdf": (lambda page: grid_cells(page, "Fracas life token"), 24),  # 10 ones, 2 fives a player
    "one_minute_war.pdf": (war_card, 11),
}


def pieces_on(path: Path, number: int, page) -> list[Piece]:
    if path.name.endswith(("-reference.pdf", "-reference-cards.pdf")):
        return reference_halves(page)
    if path.name == "omiga.pdf" and number <= 2:  # the rules sheet comes first
        return []
    if path.name not in CUT_OUT:
        return []
    find, count = CUT_OUT[path.name]
    found = find(page)
    assert found and len(found) == (count or len(found)), (path.name, number, len(found))
    return found


@dataclass(frozen=True)
class Sheet:
    """What the cut-line rules need of one page: its pieces, glyph boxes and solid fills (mm)."""

    name: str
    number: int
    pieces: list[Piece]
    chars: list[dict]
    fills: list[tuple[float, float, float, float, tuple[float, ...]]]


def solid_fills(page) -> list[tuple[float, float, float, float, tuple[float, ...]]]:
    """Filled rectangles and paths, not white: x0, y0, x1, y1 (mm, y up) and the fill colour."""
    height = float(page.height)
    found = []
    for shape in page.rects + page.curves:
        fill = tuple(round(float(v), 4) for v in (shape.get("non_stroking_color") or ()))
        if shape.get("fill") and fill and not all(v == 1 for v in fill):
            found.append((shape["x0"] / MM, (height - shape["bottom"]) / MM, shape["x1"] / MM,
                          (height - shape["top"]) / MM, fill))
    return found


@lru_cache(maxsize=None)
def read(path: Path) -> tuple[PdfFacts, tuple[Sheet, ...]]:
    """What every rule here measures in `path`, from one reading of it with pdfplumber (the slow
    part): its page facts, and every page that holds pieces."""
    sheets = []
    with pdfplumber.open(path) as pdf:
        pages = []
        for number, page in enumerate(pdf.pages, start=1):
            chars = [c for c in page.chars if c["text"].strip()]
            pages.append(PageFacts(float(page.width), float(page.height), chars, lowest_ink_mm(page, chars)))
            pieces = pieces_on(path, number, page)
            if pieces:
                inked = [c for c in chars_mm(page) if c["text"].strip()]
                sheets.append(Sheet(path.name, number, pieces, inked, solid_fills(page)))
        first = " ".join((pdf.pages[0].extract_text() or "").split())
        duplex = len(pdf.pages) > 1 and "/DuplexFlip" in str(pdf.doc.catalog.get("ViewerPreferences", ""))
    return PdfFacts(path, pages, first, duplex), tuple(sheets)


def cut_sheets(path: Path) -> tuple[Sheet, ...]:
    """Every page of `path` that holds pieces (read once for every rule)."""
    return read(path)[1]


def all_cut_sheets(built: list[Path]) -> list[Sheet]:
    return [sheet for path in built for sheet in cut_sheets(path)]


def test_text_on_every_piece_stays_2_mm_inside_its_cut_lines(built):
    """Each glyph's box belongs to the piece holding its centre and keeps 2 mm from each of that
    piece's cut lines (and a tab's fold). The one line printed on a reference sheet's cut, saying
    to cut there, is set across it on purpose and is left out."""
    nearest: dict[str, float] = {}
    labels: dict[tuple[str, int], str] = {}  # the text across each reference sheet's cut
    near = []
    for sheet in all_cut_sheets(built):
        for c in sheet.chars:
            cx, cy = (c["x0"] + c["x1"]) / 2, (c["y0"] + c["y1"]) / 2
            for piece in sheet.pieces:
                x0, y0, x1, y1 = piece.box
                if piece.kind == "reference card" and c["y0"] < (y0 if "b" in piece.sides else y1) < c["y1"]:
                    key = (sheet.name, sheet.number)
                    labels[key] = labels.get(key, "") + c["text"]
                    break
                if not (x0 < cx < x1 and y0 < cy < y1):
                    continue
                gaps = {"l": c["x0"] - x0, "r": x1 - c["x1"], "b": c["y0"] - y0, "t": y1 - c["y1"]}
                gap = min(gaps[side] for side in piece.sides)
                nearest[piece.kind] = min(gap, nearest.get(piece.kind, gap))
                if gap < CUT_CLEAR_MM - 1e-3:
                    near.append((sheet.name, sheet.number, piece.kind, c["text"], round(gap, 2)))
                break
    assert near == [], near[:10]
    assert set(nearest) == {"Omiga tile", "deck card", "Fracas life token", "One Minute War tab",
                            "One Minute War body", "reference card"}, nearest
    assert labels, "no reference sheet's cut label found"
    assert all(text.endswith(("cuthere", "cutherefortwohalf-pagecards")) for text in labels.values()), labels


def bleed_past(box: tuple[float, float, float, float], side: str, fills) -> float | None:
    """How far, at least, the colour of each solid shape that reaches `side` of the piece from
    inside runs on past it: the most any shape of that colour reaching the side extends beyond it
    while spanning the first shape's length along the side. None if no solid shape reaches the
    side. Along the side 0.5 mm is allowed at each end: a circle continued past a cut narrows
    (by 0.25 mm for Omiga's 8 mm semicircles and 2 mm of bleed)."""
    def turned(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """(u0, v0, u1, v1) with the side at u = its u0 and outward towards -u."""
        return {"l": (x0, y0, x1, y1), "r": (-x1, y0, -x0, y1),
                "b": (y0, x0, y1, x1), "t": (-y1, x0, -y0, x1)}[side]

    edge, low, _, high = turned(*box)
    shapes = [(turned(*f[:4]), f[4]) for f in fills]
    least = None
    for (u0, v0, u1, v1), fill in shapes:
        if not (u0 <= edge + 1e-3 and u1 > edge + 1e-3 and v0 < high - 1e-3 and v1 > low + 1e-3):
            continue
        a, b = max(v0, low) + 0.5, min(v1, high) - 0.5
        reach = max((edge - w0 for (w0, w_low, w1, w_high), other in shapes
                     if other == fill and w0 <= edge + 1e-3 and w1 >= edge - 1e-3
                     and w_low <= a and w_high >= b),
                    default=0.0)
        least = reach if least is None else min(least, reach)
    return least


def omiga_bleed() -> float:
    return float(YAML(typ="safe").load(bundled_definition("omiga").read_text())["card"]["bleed"])


def test_solid_colour_runs_its_bleed_past_every_cut_and_fold_it_meets(built):
    """Omiga's tile faces and backs (the definition's bleed), the solid backs of One Minute War's
    tabs (TAB_BLEED, past the outline and the folds) and Fracas's life tokens (the token sheet's
    documented 2 mm BLEED): every solid area reaching a piece's cut or fold has its colour run on
    past it by the bleed, whether in the piece's own bleed or in a neighbour of the same colour."""
    wanted = {"Omiga tile": omiga_bleed(), "One Minute War tab": TAB_BLEED, "Fracas life token": TOKEN_BLEED}
    assert wanted["Omiga tile"] >= 2 and TAB_BLEED >= 2 and TOKEN_BLEED >= 2
    least: dict[tuple[str, str], float] = {}
    short = []
    for sheet in all_cut_sheets(built):
        side_of_paper = "back" if sheet.name != "fracas-tokens.pdf" and sheet.number % 2 == 0 else "front"
        for piece in sheet.pieces:
            if piece.kind not in wanted or (piece.kind == "One Minute War tab" and side_of_paper == "front"):
                continue  # the tabs' fronts are light tints cut on the printed line; no duplex shift
            for side in piece.sides:
                reach = bleed_past(piece.box, side, sheet.fills)
                if reach is None:
                    continue
                key = (piece.kind, side_of_paper)
                least[key] = min(reach, least.get(key, reach))
                if reach < wanted[piece.kind] - 1e-3:
                    short.append((sheet.name, sheet.number, piece.kind, piece.box, side, round(reach, 2)))
    assert short == [], short[:10]
    # Fracas's tokens and Omiga's backs print white by default (issue 43): no solid area meets their
    # cuts; `tokens.palette: solid` tints bleed (tests/test_component_ink.py), as Omiga's solid backs do
    assert set(least) == {("Omiga tile", "front"), ("One Minute War tab", "back")}, least
