"""Omiga build: measure the real PDF, SVGs and PNG (semicircle centres to 0.01 mm, 72 faces, backs
registered for both flips and a back offset, cut marks only in the margins)."""
from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from omiga_builds import omiga_in_palette
from pdfmeasure import CUT_DASH, MM, SVG_NS, page_size_mm, segments
from printgen.games.omiga.model import Form, TileGeometry
from printgen.games.omiga.tileset import interlock
from printgen.games.omiga.tile import profile

TILE = 42.0
RADIUS = 8.0
TOL = 0.01  # mm
SEMI_FILLS = {(0.121569, 0.478431, 0.266667), (0.956863, 0.639216, 0.780392)}  # #1f7a44, #f4a3c7
FRONTS = slice(2, 8, 2)  # the rules take the first sheet; then each tile sheet, front and back


def build(run_cli, out: Path, *args: str, definition: str = "omiga") -> Path:
    """Build and return the output folder; its PDF is <stem>.pdf."""
    result = run_cli("build", definition, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return out / Path(definition).stem


def pdf_in(folder: Path) -> Path:
    return folder / f"{folder.name}.pdf"


@pytest.fixture(scope="module")
def a4(all_games_built) -> Path:
    """The bundled game built on A4, the default paper (`printgen build`, once for the session);
    read only: a test that builds more writes into its own tmp_path."""
    return all_games_built["a4"] / "omiga"


@pytest.fixture(scope="module")
def palettes(tmp_path_factory, a4) -> dict[str, Path]:
    """The build's folder in each palette: standard is the bundled game's (`a4`); solid and
    colour_blind are the definition with its `palette:` changed, built once for the session."""
    return {"standard": a4, **{name: omiga_in_palette(tmp_path_factory, name) for name in ("solid", "colour_blind")}}


def colour_key(value) -> tuple[float, ...]:
    return tuple(round(float(v), 6) for v in (value or ()))


def circle_through(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Least-squares circle (Kasa) through points on an arc: centre x, y and radius."""
    n = len(points)
    sx = sum(x for x, _ in points) / n
    sy = sum(y for _, y in points) / n
    u = [(x - sx, y - sy) for x, y in points]
    suu = sum(a * a for a, _ in u)
    svv = sum(b * b for _, b in u)
    suv = sum(a * b for a, b in u)
    suuu = sum(a ** 3 for a, _ in u)
    svvv = sum(b ** 3 for _, b in u)
    suvv = sum(a * b * b for a, b in u)
    svuu = sum(b * a * a for a, b in u)
    rhs1, rhs2 = (suuu + suvv) / 2, (svvv + svuu) / 2
    det = suu * svv - suv * suv
    uc = (rhs1 * svv - rhs2 * suv) / det
    vc = (suu * rhs2 - suv * rhs1) / det
    r = math.sqrt(uc * uc + vc * vc + (suu + svv) / n)
    return uc + sx, vc + sy, r


def bezier_mid(p0, p1, p2, p3) -> tuple[float, float]:
    return tuple(0.125 * a + 0.375 * b + 0.375 * c + 0.125 * d for a, b, c, d in zip(p0, p1, p2, p3))


def semicircles_pdf(page) -> list[dict]:
    """Every semicircle on a PDF page: centre and radius (mm, y up) and the worst arc deviation.
    A tile is drawn twice, with its bleed and then without (see layout/shared_cuts.py); both
    drawings' semicircles are returned, and `unique` keeps one per centre."""
    height = float(page.height)
    found = []
    for curve in page.curves:
        if colour_key(curve.get("non_stroking_color")) not in SEMI_FILLS or not curve.get("fill"):
            continue
        to_mm = lambda p: (p[0] / MM, (height - p[1]) / MM)  # noqa: E731
        on_arc, beziers, current = [], [], None
        for op in curve["path"]:
            if op[0] == "m":
                current = to_mm(op[1])
                on_arc.append(current)
            elif op[0] == "c":
                c1, c2, end = (to_mm(p) for p in op[1:4])
                beziers.append((current, c1, c2, end))
                on_arc.append(end)
                current = end
        cx, cy, r = circle_through(on_arc)
        worst = max(abs(math.dist(bezier_mid(*b), (cx, cy)) - r) for b in beziers)
        side = 1 if sum(x for x, _ in on_arc) / len(on_arc) > cx else -1  # which tile it belongs to
        found.append({"cx": cx, "cy": cy, "r": r, "arc_error": worst, "pieces": len(beziers), "side": side})
    return found


def cut_lines(page) -> tuple[list[float], list[float]]:
    """x of vertical and y of horizontal cut lines, read from the marks in the margins."""
    xs, ys = set(), set()
    for seg in segments(page, CUT_DASH):
        if abs(seg.x1 - seg.x2) < 1e-6:
            xs.add(round(seg.x1, 4))
        elif abs(seg.y1 - seg.y2) < 1e-6:
            ys.add(round(seg.y1, 4))
    return sorted(xs), sorted(ys)


def filled_rects(page, size: float) -> list[dict]:
    """Filled rectangles of `size` x `size` mm: (x, y) of the lower-left corner in mm and the fill."""
    height = float(page.height)
    out = []
    for r in page.rects:
        w, h = (r["x1"] - r["x0"]) / MM, (r["bottom"] - r["top"]) / MM
        if r.get("fill") and abs(w - size) < TOL and abs(h - size) < TOL:
            out.append({"x": r["x0"] / MM, "y": (height - r["bottom"]) / MM,
                        "fill": colour_key(r["non_stroking_color"])})
    return out


def unique(found: list[dict]) -> list[dict]:
    """One semicircle per centre and side (the drawings with and without bleed share both)."""
    kept: dict[tuple[float, float, int], dict] = {}
    for s in found:
        kept.setdefault((round(s["cx"], 2), round(s["cy"], 2), s["side"]), s)
    return list(kept.values())


def test_pdf_has_a_rules_sheet_then_three_duplex_tile_sheets(a4):
    with pdfplumber.open(a4 / "omiga.pdf") as pdf:
        assert len(pdf.pages) == 8
        for page in pdf.pages:
            w, h = page_size_mm(page)
            assert abs(w - 210) < TOL and abs(h - 297) < TOL
        words = pdf.pages[0].extract_text() + pdf.pages[1].extract_text()
        for heading in ("Making the tiles", "How tiles join", "Setting up", "Playing", "Winning",
                        "Reference", "Questions and answers", "An example at actual size"):
            assert heading in words
        assert "sheet 1 of 3" in pdf.pages[2].extract_text()  # the pieces come after the rules
        fonts = {c["fontname"].split("+")[-1] for page in pdf.pages for c in page.chars}
        assert fonts and all(f.startswith("BitstreamVeraSans") for f in fonts), fonts  # embedded, no Helvetica


def test_every_semicircle_is_centred_on_its_edge_midpoint_with_one_radius(a4):
    centres = []
    with pdfplumber.open(a4 / "omiga.pdf") as pdf:
        for page in pdf.pages[FRONTS]:
            xs, ys = cut_lines(page)
            # 4 x 6 tiles, one deck's tiles sharing cuts; the middle sheet's gutter has two cuts
            assert len(xs) == 5 and len(ys) in (7, 8)
            for s in unique(semicircles_pdf(page)):
                assert abs(s["r"] - RADIUS) < TOL, s
                assert s["arc_error"] < TOL, s  # a true arc, not a polygon
                edge = min(xs, key=lambda x: abs(x - s["cx"]))
                below = max(y for y in ys if y < s["cy"])
                above = min(y for y in ys if y > s["cy"])  # the cut above this tile, not the gutter's
                assert abs(s["cx"] - edge) < TOL, s
                assert abs(s["cy"] - (below + above) / 2) < TOL, s
                assert abs(above - below - TILE) < TOL
                centres.append((round(s["cx"], 2), round(s["cy"], 2), s["side"]))
    assert len(centres) == 144  # two per tile


def test_72_faces_each_with_a_semicircle_on_both_edges(a4):
    faces = 0
    with pdfplumber.open(a4 / "omiga.pdf") as pdf:
        for page in pdf.pages[FRONTS]:
            xs, ys = cut_lines(page)
            centres = [(s["cx"], s["cy"]) for s in unique(semicircles_pdf(page))]
            has = lambda x, y: any(abs(cx - x) < TOL and abs(cy - y) < TOL for cx, cy in centres)  # noqa: E731
            for left, right in zip(xs, xs[1:]):
                for low, high in zip(ys, ys[1:]):
                    mid = (low + high) / 2
                    faces += has(left, mid) and has(right, mid)
    assert faces == 72


def hexed(value) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in value) if value and len(value) == 3 else ""


def deck_of(page, box: dict, back: bool) -> str:
    """Which deck a tile (its box) is, by its marks in the standard palette: the form bands' fill on a
    face (light grey white, mid-grey black), the emblem's ring on a back (grey white, dark black)."""
    height = float(page.height)
    x0, y0 = box["x"] * MM, height - (box["y"] + TILE) * MM
    wanted = {"#8f8f8f": "white", "#3a3a3a": "black"} if back else {"#b4b4b4": "white", "#6b6b6b": "black"}
    found = set()
    for shape in page.curves + page.rects:
        if not (x0 < (shape["x0"] + shape["x1"]) / 2 < x0 + TILE * MM and y0 < (shape["top"] + shape["bottom"]) / 2 < y0 + TILE * MM):
            continue
        paint = hexed(shape.get("stroking_color") if back else shape.get("non_stroking_color"))
        if paint in wanted and (shape.get("stroke") if back else shape.get("fill")):
            found.add(wanted[paint])
    assert len(found) == 1, (box, found)
    return found.pop()


@pytest.mark.parametrize("flip,offset", [("long", (0.0, 0.0)), ("short", (0.0, 0.0)),
                                         ("long", (1.5, -0.8)), ("short", (-2.0, 1.0))])
def test_backs_lie_behind_their_faces(run_cli, tmp_path, a4, flip, offset):
    if (flip, offset) == ("long", (0.0, 0.0)):  # `--flip long --back-offset 0,0` is `printgen build`'s default
        folder = a4
    else:
        folder = build(run_cli, tmp_path, "--flip", flip, "--back-offset", f"{offset[0]},{offset[1]}")
    with pdfplumber.open(pdf_in(folder)) as pdf:
        decks = []
        for sheet in range(3):
            front, back = pdf.pages[2 + 2 * sheet], pdf.pages[3 + 2 * sheet]
            faces = filled_rects(front, TILE)
            backs = {(round(b["x"], 2), round(b["y"], 2)): deck_of(back, b, True) for b in filled_rects(back, TILE)}
            assert len(faces) == len(backs) == 24
            for face in faces:
                if flip == "long":
                    x, y = 210 - face["x"] - TILE, face["y"]
                else:
                    x, y = face["x"], 297 - face["y"] - TILE
                key = (round(x + offset[0], 2), round(y + offset[1], 2))
                deck = deck_of(front, face, False)
                assert backs.get(key) == deck, (face, key)
                decks.append(deck)
            # the back's cut marks are the front's, mirrored the same way (a registration check)
            fx, fy = cut_lines(front)
            bx, by = cut_lines(back)
            if flip == "long":
                assert bx == sorted(round(210 - x + offset[0], 4) for x in fx)
            else:
                assert by == sorted(round(297 - y + offset[1], 4) for y in fy)
    assert decks.count("white") == decks.count("black") == 36


def trim_lines(page) -> set[tuple[float, ...]]:
    """Solid thin lines (the cut lines drawn on the fronts), each as (x1, y1, x2, y2) in mm."""
    height = float(page.height)
    found = set()
    for line in page.lines:
        if line.get("dash") and line["dash"][0]:
            continue
        (xa, ta), (xb, tb) = line["pts"][0], line["pts"][-1]
        ends = sorted([(round(xa / MM, 2), round((height - ta) / MM, 2)), (round(xb / MM, 2), round((height - tb) / MM, 2))])
        found.add((*ends[0], *ends[1]))
    return found


@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_cut_marks_in_the_margins_cut_lines_on_every_edge_and_bleed_round_each_deck(
        run_cli, copy_definition, tmp_path, a4, bleed):
    definition = copy_definition("omiga", "bled")
    text = definition.read_text()
    assert len(re.findall(r"\n  bleed: 2 ", text)) == 1
    if bleed == 2.0:  # the bundled definition's own bleed: its build is the session's
        folder = a4
    else:
        definition.write_text(re.sub(r"\n  bleed: 2 ", f"\n  bleed: {bleed:g} ", text))
        folder = build(run_cli, tmp_path, definition=str(definition))
    with pdfplumber.open(pdf_in(folder)) as pdf:
        for number, page in enumerate(pdf.pages[FRONTS]):
            faces = filled_rects(page, TILE)
            assert len(faces) == 24
            x0, y0 = min(f["x"] for f in faces) - bleed, min(f["y"] for f in faces) - bleed
            x1, y1 = max(f["x"] for f in faces) + TILE + bleed, max(f["y"] for f in faces) + TILE + bleed
            marks = segments(page, CUT_DASH)
            assert marks
            for m in marks:
                inside_x = x0 < m.x1 < x1 and x0 < m.x2 < x1
                inside_y = y0 < m.y1 < y1 and y0 < m.y2 < y1
                assert not (inside_x and inside_y), m  # never across the art
                assert min(m.x1, m.x2) >= 5 - TOL and max(m.x1, m.x2) <= 205 + TOL
                assert min(m.y1, m.y2) >= 5 - TOL and max(m.y1, m.y2) <= 292 + TOL
                assert m.length <= 3 + TOL
            # a thin cut line along every edge of every tile, for scissors
            lines = trim_lines(page)
            for f in faces:
                x, y = round(f["x"], 2), round(f["y"], 2)
                X, Y = round(x + TILE, 2), round(y + TILE, 2)
                assert {(x, y, X, y), (x, Y, X, Y), (x, y, x, Y), (X, y, X, Y)} <= lines, f
            # bleed: the art drawn with bleed reaches `bleed` mm past the block on every side, and
            # the middle sheet parts its white and black rows by a gutter of 2 x bleed
            bled = filled_rects(page, TILE + 2 * bleed) if bleed else faces
            assert abs(min(b["x"] for b in bled) - x0) < TOL and abs(min(b["y"] for b in bled) - y0) < TOL
            xs, ys = cut_lines(page)
            assert len(xs) == 5
            gaps = sorted(round(b - a, 2) for a, b in zip(ys, ys[1:]))
            if number == 1 and bleed:
                assert len(ys) == 8 and gaps[0] == round(2 * bleed, 2) and gaps[1:] == [TILE] * 6
            else:
                assert len(ys) == 7 and gaps == [TILE] * 6
    with pdfplumber.open(pdf_in(folder)) as pdf:  # the backs of both decks bleed too
        back = pdf.pages[5]
        bled = filled_rects(back, TILE + 2 * bleed) if bleed else []
        assert len(bled) == (24 if bleed else 0)
        if bleed:
            assert back.bbox and float(back.bleedbox[0]) < float(back.trimbox[0])


def test_letter_paper_keeps_24_tiles_a_sheet(all_games_built):
    folder = all_games_built["letter"] / "omiga"  # `printgen build --paper letter`, once for the session
    with pdfplumber.open(pdf_in(folder)) as pdf:
        assert len(pdf.pages) == 8
        assert [len(unique(semicircles_pdf(p))) for p in pdf.pages[FRONTS]] == [48, 48, 48]


def svg_points(d: str) -> tuple[list[tuple[float, float]], int]:
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    pairs = list(zip(numbers[::2], numbers[1::2]))
    curves = d.count("C")
    # M x y, then per C three pairs; the third pair of each C lies on the arc
    on_arc = [pairs[0]] + [pairs[1 + 3 * k + 2] for k in range(curves)]
    return on_arc, curves


def test_one_svg_per_tile_with_exact_semicircles(a4):
    files = sorted(p.name for p in (a4 / "svg").glob("*.svg"))
    assert files == [f"{deck}-{n:02d}.svg" for deck in ("black", "white") for n in range(1, 37)]
    for name in ("white-01.svg", "white-36.svg", "black-17.svg"):
        root = ET.parse(a4 / "svg" / name).getroot()
        assert root.get("width") == "42mm" and root.get("height") == "42mm"
        assert root.get("viewBox") == "0 0 42 42"
        flip = root.find("svg:g", SVG_NS).get("transform")
        assert flip == "matrix(1 0 0 -1 0 42)"
        semis = [p for p in root.iter(f"{{{SVG_NS['svg']}}}path") if p.get("fill") in ("#1f7a44", "#f4a3c7")]
        assert len(semis) == 2
        centres = []
        for path in semis:
            points, curves = svg_points(path.get("d"))
            assert curves >= 4
            cx, cy, r = circle_through(points)
            assert abs(r - RADIUS) < TOL
            centres.append((cx, cy))
        centres.sort()
        assert abs(centres[0][0] - 0) < TOL and abs(centres[1][0] - TILE) < TOL
        assert all(abs(cy - TILE / 2) < TOL for _, cy in centres)


def test_contact_sheet_shows_all_tiles(a4):
    image = Image.open(io.BytesIO((a4 / "omiga-tiles.png").read_bytes()))
    assert image.format == "PNG"
    width_mm = 2 * (6 * TILE + 5 * 3) + 3 * 10
    assert abs(image.width - width_mm / 25.4 * 80) <= 2
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20)}
    assert (0x1f, 0x7a, 0x44) in colours and (0xf4, 0xa3, 0xc7) in colours


def test_builds_are_byte_identical(tmp_path_factory, a4):
    """Two builds, each its own `printgen build` (the session's of every game, and one of a copy of
    the definition, omiga.yaml, which test_component_ink reads too), write the same bytes."""
    again = omiga_in_palette(tmp_path_factory, "standard")
    files = sorted(path.relative_to(a4) for path in a4.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(again) for path in again.rglob("*") if path.is_file())
    for path in files:
        assert (again / path).read_bytes() == (a4 / path).read_bytes(), path.name


def test_colour_blind_palette_puts_a_symbol_in_every_semicircle(palettes):
    folder = palettes["colour_blind"]
    root = ET.parse(folder / "svg" / "white-14.svg").getroot()  # green | pink
    ns = f"{{{SVG_NS['svg']}}}"
    assert {p.get("fill") for p in root.iter(f"{ns}path")} >= {"#005a8f", "#e69f00"}
    dots = [c for c in root.iter(f"{ns}circle") if c.get("fill") not in (None, "none")]
    crosses = [p for p in root.iter(f"{ns}path") if p.get("fill") == "none" and p.get("stroke")
               and "A" not in p.get("d", "") and p.get("d", "").count("C") == 0]  # not the outlines
    assert len(dots) == 1 and len(crosses) == 1
    assert 0 < float(dots[0].get("cx")) < RADIUS  # inside the left semicircle
    with pdfplumber.open(pdf_in(folder)) as pdf:
        first = pdf.pages[0]
        right_column = first.crop((first.width / 2, 0, first.width, first.height)).extract_text()
        assert re.search(r"blue with a .{0,40}dot", " ".join(right_column.split()))  # cells wrap


def test_solid_palette_is_one_word_away(palettes):
    folder = palettes["solid"]
    assert len(list((folder / "svg").glob("*.svg"))) == 72
    with pdfplumber.open(pdf_in(folder)) as pdf:
        fills = {colour_key(r["non_stroking_color"]) for r in pdf.pages[7].rects if r.get("fill")}
    assert colour_key((0.12549, 0.12549, 0.12549)) in fills  # #202020: the solid black deck's back


def test_geometry_contract_of_the_forms():
    card = TileGeometry()
    shapes = {"tip": Form(shape="tip"), "notch": Form(shape="notch"), "rising": Form(shape="diagonal"),
              "falling": Form(shape="diagonal", direction="falling"), "flat": Form(shape="flat")}
    a, b = (card.width - card.form_width) / 2, (card.width + card.form_width) / 2
    for name, form in shapes.items():
        points = profile(form, card)
        assert points[0] == (0.0, 0.0) and points[-1] == (card.width, 0.0)
        if name != "flat":  # each form leaves the band line exactly at x = a and returns at x = b
            assert all(a <= x <= b for x, p in points if p != 0)
            assert (a, 0.0) in points and (b, 0.0) in points
    tip, notch = profile(shapes["tip"], card), profile(shapes["notch"], card)
    assert [(x, -p) for x, p in tip] == notch  # congruent: the same triangle, sunk in
    for form in ("rising", "falling"):
        ramp = [pt for pt in profile(shapes[form], card) if a <= pt[0] <= b and pt[1] != 0]
        angle = math.degrees(math.atan2(abs(ramp[1][1] - ramp[0][1]), ramp[1][0] - ramp[0][0]))
        assert abs(angle - math.degrees(math.atan2(2 * card.form_depth, card.form_width))) < 1e-9

    def value(points, x):  # the profile at x, from the inside of any vertical step
        for (x0, p0), (x1, p1) in zip(points, points[1:]):
            if x0 < x < x1:
                return p0 + (p1 - p0) * (x - x0) / (x1 - x0)
        raise AssertionError(x)

    samples = [card.width * k / 97 for k in range(1, 97)]
    for first, f in shapes.items():
        for second, g in shapes.items():
            sums = [value(profile(f, card), x) + value(profile(g, card), card.width - x) for x in samples]
            assert interlock(f, g) == all(abs(s) < 1e-9 for s in sums), (first, second)


def test_a_radius_too_large_is_a_located_error(run_cli, copy_definition):
    definition = copy_definition("omiga")
    definition.write_text(definition.read_text().replace("radius: 8 ", "radius: 15 "))
    result = run_cli("build", definition)
    assert result.exit_code == 2
    line = next(i for i, t in enumerate(definition.read_text().splitlines(), 1) if "radius: 15" in t)
    assert f"omiga.yaml:{line}: card.radius: expected at most" in result.output


def lightness_of(rgb: tuple[float, ...]) -> float:
    from printgen.drawing.style import lightness
    return lightness("#" + "".join(f"{round(v * 255):02x}" for v in rgb))


@pytest.mark.parametrize("palette", ["standard", "solid", "colour_blind"])
def test_colours_that_carry_meaning_differ_by_25_in_lightness_and_carry_a_symbol(palettes, palette):
    folder = palettes[palette]
    with pdfplumber.open(pdf_in(folder)) as pdf:
        page = pdf.pages[4]  # the middle sheet holds both decks
        semis = {colour_key(c["non_stroking_color"]) for c in page.curves
                 if c.get("fill") and abs((c["x1"] - c["x0"]) / MM - RADIUS) < 0.05
                 and abs((c["bottom"] - c["top"]) / MM - 2 * RADIUS) < 0.05}
        faces = {f["fill"] for f in filled_rects(page, TILE)}
        bands = {colour_key(c["non_stroking_color"]) for c in page.curves  # the form bands' polygons
                 if c.get("fill") and TILE - 0.1 < (c["x1"] - c["x0"]) / MM < TILE + 4.1
                 and (c["bottom"] - c["top"]) / MM < 12}
    assert len(semis) == 2
    semis_pair = sorted(semis)
    assert abs(lightness_of(semis_pair[0]) - lightness_of(semis_pair[1])) >= 25, semis_pair
    # the decks differ where they are told apart: the solid palette's faces, the light palettes' bands
    told = [sorted(kind) for kind in (faces, bands) if len(kind) == 2]
    assert told and any(abs(lightness_of(a) - lightness_of(b)) >= 25 for a, b in told), (faces, bands)
    assert (len(faces), len(bands)) == ((2, 1) if palette == "solid" else (1, 2)), (faces, bands)
    root = ET.parse(folder / "svg" / "white-14.svg").getroot()  # green | pink: two different marks
    ns = f"{{{SVG_NS['svg']}}}"
    marks = [c for c in root.iter(f"{ns}circle")] + [p for p in root.iter(f"{ns}path")
                                                      if p.get("fill") == "none" and "C" not in p.get("d", "")]
    assert len(marks) == 2


def test_default_ink_is_light_enough_for_a_home_inkjet(a4, palettes):
    """The default palette darkens under a fifth of each tile page, measured as the mean darkness of
    the rendered pages, and little more than half as much as the solid palette (0.135 and 0.32 at
    this coarse 20 dpi, where the black deck's hatch blurs to grey; 0.088 and 0.32 at 100 dpi)."""
    import pypdfium2 as pdfium

    def darkness(path: Path) -> float:
        pdf = pdfium.PdfDocument(str(path))
        values = []
        for index in range(2, len(pdf)):
            bitmap = pdf[index].render(scale=20 / 72, grayscale=True)
            data = bytes(bitmap.buffer)
            values.append(1 - sum(data) / (255 * len(data)))
        return sum(values) / len(values)

    light = darkness(a4 / "omiga.pdf")
    assert light < 0.2, light
    solid = darkness(pdf_in(palettes["solid"]))  # the definition with `palette: solid`
    assert light < 0.6 * solid, (light, solid)


def test_colours_too_close_in_lightness_get_a_located_warning(run_cli, copy_definition, tmp_path):
    definition = copy_definition("omiga")
    text = definition.read_text()
    definition.write_text(text.replace('pink: {fill: "#f4a3c7", label: pink, symbol: ring}',
                                       'pink: {fill: "#e4589b", label: pink, symbol: ring}', 1)
                          .replace('green: {fill: "#1f7a44"', 'green: {fill: "#2f9e57"', 1))
    line = next(n for n, row in enumerate(definition.read_text().splitlines(), 1) if "#e4589b" in row)
    result = run_cli("build", definition, "--out", tmp_path / "o")
    assert result.exit_code == 0
    assert (f"{definition.name}:{line}: warning: palettes.standard.colours.pink.fill: #e4589b has lightness "
            f"58 and green has 58") in result.output


CAPTION_MM = 12.0  # a tile sheet's caption stands this near the paper's foot; the tiles above it


def test_every_word_on_the_tile_sheets_prints_once(a4):
    """Each tile's number, and each back's name, is drawn once: the sheets draw every piece twice
    (with bleed, then without on top) and before both layers carried the words, so pdfplumber read
    every number twice at one spot ("1100" for 10) and a printer laid its ink twice."""
    with pdfplumber.open(a4 / "omiga.pdf") as pdf:
        for n in range(2, 8):
            page = pdf.pages[n]
            spots = [(c["text"], round(c["x0"], 2), round(c["top"], 2)) for c in page.chars if c["text"].strip()]
            assert len(spots) == len(set(spots)), (n + 1, len(spots) - len(set(spots)))
            if n % 2 == 0:  # a sheet of faces: its 24 tiles' numbers, each of one or two digits
                above_caption = float(page.height) / MM - CAPTION_MM
                numbers = [w["text"] for w in page.extract_words() if w["bottom"] / MM < above_caption]
                assert len(numbers) == 24 and all(v.isdigit() and 1 <= int(v) <= 36 for v in numbers), numbers
                assert sum(len(v) for v in numbers) == sum(1 for c in page.chars if c["bottom"] / MM < above_caption)
            else:
                assert sum(1 for w in page.extract_words() if w["text"] == "OMIGA") == 24


def test_the_footer_counts_every_page_of_the_file(a4):
    """The rules say pages 3-8 are the tiles, so the footer counts the file a player holds, 8 pages,
    not the rules' 2; each tile page says its page too."""
    with pdfplumber.open(a4 / "omiga.pdf") as pdf:
        texts = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    assert "Pages 3–8 are the tiles" in texts[0]
    for number, text in enumerate(texts, start=1):
        assert f"page {number} of 8" in text, (number, text[-160:])
    assert "of 2" not in texts[0] + texts[1]


def columns_text(page) -> str:
    """A rules page's words column by column (the left half, then the right), spaces folded."""
    middle = float(page.width) / 2
    halves = (page.crop((0, 0, middle, page.height)), page.crop((middle, 0, page.width, page.height)))
    return " ".join(" ".join((half.extract_text() or "").split()) for half in halves)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_placing_picture_ticks_the_two_spaces_beside_whites_tiles(all_games_built, paper):
    """On both papers the rules show, after the three conditions, four tiles from white's seat and
    white's two spaces ticked in the accent: one each side of white's pair (the spaces worked out
    from conditions 2 and 3). Before REVIEW-47, Letter left this, the one picture of the core rule, out."""
    with pdfplumber.open(all_games_built[paper] / "omiga" / "omiga.pdf") as pdf:
        page = pdf.pages[0]
        text = columns_text(page)
        ticks = [c for c in page.curves if not c.get("fill") and hexed(c.get("stroking_color")) == "#2f6649"]
    assert "white's tile" in text and "black's tile" in text and "white may lay here" in text  # the key
    assert "as here from white's seat:" in text
    assert len(ticks) == 3, len(ticks)  # two in the picture, one in its key
    grid = sorted(ticks, key=lambda c: c["x1"] - c["x0"], reverse=True)[:2]
    (left, right) = sorted(grid, key=lambda c: c["x0"])
    assert abs(left["top"] - right["top"]) < 0.01  # one row: white's own
    assert abs((right["x0"] - left["x0"]) / MM - 3 * 9.0) < 0.01  # three 9 mm squares apart: the pair between


ACCENT = "#2f6649"
RACE_CAPTIONS = ("1. The start", "2. White lays", "3. Black lays", "4. The danger")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_race_is_drawn_step_by_step_with_the_space_where_black_can_win(all_games_built, paper):
    """'A race, step by step' has a picture of four panels: the start, white's tile, black's, and a
    few tiles later the space behind white's tile where black can win, ticked. The tiles each step
    lays are outlined in the accent (1 + 1 + 3); the captions are set at the house's 7.5 pt however
    small the tiles (A4 sets the panels two a row, larger; Letter four a row)."""
    from printgen.drawing.style import SMALL_PT
    with pdfplumber.open(all_games_built[paper] / "omiga" / "omiga.pdf") as pdf:
        page = pdf.pages[1]
        text = " ".join((page.extract_text() or "").split())
        outlines = [r for r in page.rects if hexed(r.get("stroking_color")) == ACCENT and not r.get("fill")]
        ticks = [c for c in page.curves if not c.get("fill") and hexed(c.get("stroking_color")) == ACCENT]
        words = page.extract_words(extra_attrs=["size"])
    for caption in RACE_CAPTIONS:
        assert caption in text, caption
    assert len(outlines) == 5, len(outlines)
    assert {round(r["width"] / MM, 2) for r in outlines} == {round(outlines[0]["width"] / MM, 2)}  # one tile size
    assert len(ticks) == 1
    tick, = ticks
    # the ticked space lies under the middle column of the last panel: one tile below a white tile's
    # row (behind it as black sees it), and the outlined black tile beside it in the same row
    tile = outlines[0]["width"]
    beside = [r for r in outlines if abs(r["top"] - (tick["top"] - 0.24 * tile)) < 0.3 * tile]
    assert beside and min(abs(r["x0"] - tick["x0"]) for r in beside) < 1.2 * tile
    sizes = {round(w["size"], 1) for w in words if w["text"] in ("start", "White", "Black", "lays", "danger")}
    assert sizes and min(sizes) >= SMALL_PT
    # every panel caption is within the text column: the picture is never wider than its column
    caption_words = [w for w in words if w["text"] == "danger"]
    assert caption_words and all(w["x1"] / MM < float(page.width) / MM - 14 + 0.01 for w in caption_words)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_subtitle_sets_on_one_line_and_the_body_has_no_edition_talk(all_games_built, paper):
    """The title block's subtitle runs the text's width, on one line (it wrapped after 'Two
    players,' at the house's shorter measure); 'Making the tiles' no longer remarks that the forms
    and colours are this edition's own, which the Notes on this edition say once."""
    with pdfplumber.open(all_games_built[paper] / "omiga" / "omiga.pdf") as pdf:
        page = pdf.pages[0]
        subtitle = [c for c in page.chars if "Oblique" in c["fontname"] or "Italic" in c["fontname"]]
        title = " ".join((page.extract_text() or "").split()[:20])
        first, second = columns_text(page), columns_text(pdf.pages[1])
    lines = {round(c["top"]) for c in subtitle if c["top"] / MM < 40}
    assert len(lines) == 1, sorted(lines)
    assert "A game by Andreas Schleicher. Two players, 72 tiles, no turns: the quicker hand wins." in title
    assert "this edition's own" not in first + second
    assert "the forms and colours of these two decks were drawn for this edition" in second


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_last_rules_page_has_no_blank_band_across_its_foot(all_games_built, paper):
    """Page 2 (the last rules page) fills at least one column to the foot and leaves no more than
    a sixth of the other blank: before REVIEW-47, A4 left 51 and 40 mm across both columns."""
    from typeset import column_blanks
    blanks = column_blanks(all_games_built[paper] / "omiga" / "omiga.pdf", slice(1, 2))[0]
    assert min(blanks) <= 0.03 and max(blanks) <= 1 / 6, blanks
