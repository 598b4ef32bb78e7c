"""Omiga tile sheets as printed: cut lines that read over dark bands and light faces alike (measured
in rendered pixels), and the `low_ink` definition key's saving (measured as ink on rendered pages)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2
import pytest
from click.testing import CliRunner

from omiga_builds import omiga_in_palette
from pdfmeasure import MM
from printgen.cli.main import cli


# one pytest-xdist worker runs every test here (`--dist loadgroup`, pyproject.toml), so the
# module-scoped build (Omiga with low_ink) is made once, not once on each worker
pytestmark = pytest.mark.xdist_group("omiga-ink")

TILE = 42.0
BAND = 4.5
SCALE = 600 / 72  # 600 dpi: the 0.12 mm white core of a cut line is about 3 pixels wide
TILE_PAGES = range(2, 8)  # the rules take the first sheet; then three tile sheets, front and back
MIN_L = 25.0  # the project's least lightness step for things that must be told apart


def lightness(grey: np.ndarray) -> np.ndarray:
    """CIE L* of sRGB grey levels 0..255."""
    c = grey / 255.0
    y = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return np.where(y > 216 / 24389, 116 * np.cbrt(y) - 16, y * 24389 / 27)


def build(tmp: Path, low_ink: bool) -> Path:
    source = Path(__file__).parents[1] / "card_defs" / "omiga.yaml"
    text = source.read_text()
    assert "\nlow_ink: false\n" in text
    definition = tmp / "tiles.yaml"
    definition.write_text(text.replace("\nlow_ink: false\n", f"\nlow_ink: {str(low_ink).lower()}\n"))
    result = CliRunner().invoke(cli, ["build", str(definition), "--out", str(tmp)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return tmp / "tiles" / "tiles.pdf"


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[bool, Path]:
    """The bundled definition (`low_ink: false`; built once for the session, as test_omiga and
    test_component_ink read it) and the same with `low_ink: true`."""
    assert "\nlow_ink: false\n" in (Path(__file__).parents[1] / "card_defs" / "omiga.yaml").read_text()
    return {False: omiga_in_palette(tmp_path_factory, "standard") / "omiga.pdf",
            True: build(tmp_path_factory.mktemp("omiga-low-True"), True)}


def ink(pdf: Path) -> tuple[float, float]:
    """Over the tile pages at 100 dpi: the share of pixels not white, and the mean ink (1 - grey)."""
    document = pypdfium2.PdfDocument(str(pdf))
    covered, inked = [], []
    for number in TILE_PAGES:
        grey = np.asarray(document[number].render(scale=100 / 72).to_pil().convert("L"), dtype=float) / 255
        covered.append(float((grey < 0.98).mean()))
        inked.append(float((1 - grey).mean()))
    return sum(covered) / len(covered), sum(inked) / len(inked)


def test_low_ink_inks_at_most_half_the_area_of_the_light_standard_tiles(pdfs):
    standard, low = ink(pdfs[False]), ink(pdfs[True])
    # measured when written: 24 % of the tile pages' pixels inked (mean ink 8.8 %) standard, 11 % (5.8 %)
    # low; before issue 43 lightened the standard palette's black deck it was 43 % (17 %)
    assert 0.15 < standard[0] < 0.3 and standard[1] < 0.1, standard
    assert low[0] <= 0.5 * standard[0], (standard, low)
    assert low[1] <= 0.7 * standard[1], (standard, low)


def vertical_cuts(pdf: Path, number: int) -> tuple[list[float], list[float]]:
    """The x of every vertical cut and the y (from the top) of every horizontal one, in mm, read from
    the white cores of the trim lines on a tile front."""
    with pdfplumber.open(pdf) as document:
        page = document.pages[number]
        xs, ys = set(), set()
        for line in page.lines:
            if tuple(round(float(v), 3) for v in (line.get("stroking_color") or ())) not in {(1.0,), (1.0, 1.0, 1.0)}:
                continue
            if abs(line["x0"] - line["x1"]) < 0.01:
                xs.add(round(line["x0"] / MM, 2))
            elif abs(line["top"] - line["bottom"]) < 0.01:
                ys.add(round(line["top"] / MM, 2))
    return sorted(xs), sorted(ys)


@pytest.mark.parametrize("low_ink", [False, True])
@pytest.mark.parametrize("number", [2, 6])  # the first white sheet and the all-black last sheet
def test_cut_lines_stand_out_from_dark_bands_and_light_faces(pdfs, low_ink, number):
    pdf = pdfs[low_ink]
    xs, ys = vertical_cuts(pdf, number)
    assert len(xs) == 5 and len(ys) >= 7, (xs, ys)
    x, top = xs[1], ys[0]  # an inner vertical cut, from the top of the first row of tiles
    document = pypdfium2.PdfDocument(str(pdf))
    page = document[number]
    width_pt, height_pt = page.get_size()
    left, right = (x - 3) * MM, width_pt - (x + 3) * MM  # a strip 6 mm wide round the cut
    picture = page.render(scale=SCALE, crop=(left, height_pt - (top + TILE + 1) * MM, right, (top - 1) * MM))
    grey = np.asarray(picture.to_pil().convert("L"), dtype=float)
    stars = lightness(grey)
    centre = grey.shape[1] // 2
    per_mm = SCALE * 72 / 25.4
    checked = {"band": 0, "face": 0}
    for depth in np.arange(0.5, TILE, 0.5):  # every half millimetre down the tile
        row = int(round((1 + depth) * per_mm))
        if abs(depth - TILE / 2) < 9:
            continue  # the semicircles sit here, on the cut
        background = (stars[row, centre - int(2 * per_mm)] + stars[row, centre + int(2 * per_mm)]) / 2
        across = stars[row, centre - int(0.4 * per_mm): centre + int(0.4 * per_mm) + 1]
        step = float(np.max(np.abs(across - background)))
        assert step >= MIN_L, (depth, background, across.round(0).tolist())
        checked["band" if depth < BAND or depth > TILE - BAND else "face"] += 1
    assert checked["band"] >= 10 and checked["face"] >= 30, checked
