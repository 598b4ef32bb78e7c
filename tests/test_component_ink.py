"""Component sheets as issue 43 asks: light ink for large areas by default (Omiga's black deck, Fracas's
tokens), the decks still told apart by 25 L* and a pattern, `palette: solid` still solid, and the house
style on the sheets (grey footer-style captions, accent titles, the One Minute War card's title)."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from omiga_builds import omiga_in_palette, printed
from pdfmeasure import MM
from printgen.cli.main import cli
from printgen.drawing.style import ACCENTS, FOOTER_GREY, SMALL_PT, lightness


# one pytest-xdist worker runs every test here (`--dist loadgroup`, pyproject.toml), so the
# module-scoped builds (the Fracas builds in each palette) are made once, not once on each worker
pytestmark = pytest.mark.xdist_group("component-ink")

ROOT = Path(__file__).parents[1]
TILE = 42.0
LARGE_MM2 = 500.0  # a fill bigger than this (over a quarter of a tile) is a large area
LIGHT_LIMIT = 90.0  # least L* of a large area in the default palettes
TILE_PAGES = range(2, 8)


def hexed(value) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in value) if value and len(value) == 3 else ""


def build(tmp: Path, game: str, edit: tuple[str, str] | None = None) -> Path:
    text = (ROOT / "card_defs" / f"{game}.yaml").read_text()
    if edit:
        assert edit[0] in text
        text = text.replace(edit[0], edit[1])
    definition = tmp / f"{game}.yaml"
    definition.write_text(text)
    result = CliRunner().invoke(cli, ["build", str(definition), "--out", str(tmp / "out")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output, result.output
    return tmp / "out" / game


@pytest.fixture(scope="module")
def omiga(tmp_path_factory) -> dict[str, Path]:
    """`printgen build omiga.yaml`, the bundled definition in its own palette and with `palette: solid`,
    each built once for the session (test_omiga reads them too); neither build warns."""
    built = {}
    for palette in ("standard", "solid"):
        folder = omiga_in_palette(tmp_path_factory, palette)
        assert "warning" not in printed(folder), printed(folder)
        built[palette] = folder / "omiga.pdf"
    return built


def fills(page) -> list[tuple[float, str]]:
    """(area in mm^2, '#rrggbb') of every filled rectangle and path on a page."""
    found = []
    for shape in page.rects + page.curves:
        if shape.get("fill"):
            area = (shape["x1"] - shape["x0"]) * (shape["bottom"] - shape["top"]) / MM ** 2
            found.append((area, hexed(shape.get("non_stroking_color"))))
    return found


def test_no_large_area_of_the_standard_omiga_sheets_is_darker_than_l_90(omiga):
    with pdfplumber.open(omiga["standard"]) as pdf:
        large = [fill for n in TILE_PAGES for fill in fills(pdf.pages[n]) if fill[0] > LARGE_MM2]
    assert len(large) >= 72 * 2  # every face and back (and their bled copies)
    dark = [(round(a), c, round(lightness(c))) for a, c in large if lightness(c) < LIGHT_LIMIT]
    assert dark == [], dark[:5]


def test_the_solid_palette_still_floods_the_black_deck(omiga):
    with pdfplumber.open(omiga["solid"]) as pdf:
        dark = [c for n in TILE_PAGES for a, c in fills(pdf.pages[n]) if a > LARGE_MM2 and lightness(c) < 20]
    assert len(dark) >= 36 * 2, len(dark)  # each black face and back at least once
    with pdfplumber.open(omiga["solid"]) as pdf:  # and bleeds it 2 mm past the block's cuts, on the backs too
        for n in (6, 7):
            bled = [r for r in pdf.pages[n].rects if r.get("fill") and lightness(hexed(r["non_stroking_color"])) < 20
                    and abs((r["x1"] - r["x0"]) / MM - (TILE + 4)) < 0.01]
            assert len(bled) == 24, (n, len(bled))


def band_colours(page) -> set[str]:
    """The fills of the form bands: polygons a tile wide (plus bleed) and a band deep."""
    return {hexed(c["non_stroking_color"]) for c in page.curves
            if c.get("fill") and TILE - 0.1 < (c["x1"] - c["x0"]) / MM < TILE + 4.1 and (c["bottom"] - c["top"]) / MM < 12}


def hatch_strokes(page) -> list:
    return [c for c in page.curves + page.lines
            if not c.get("fill") and hexed(c.get("stroking_color")) == "#c4c4c4"]


def test_standard_decks_differ_by_25_l_in_their_bands_and_back_emblems_and_by_a_hatch(omiga):
    with pdfplumber.open(omiga["standard"]) as pdf:
        white_sheet, mixed, black_sheet = pdf.pages[2], pdf.pages[4], pdf.pages[6]
        bands = band_colours(mixed)
        assert len(bands) == 2, bands
        light, dark = sorted(bands, key=lightness, reverse=True)
        assert lightness(light) - lightness(dark) >= 25, bands
        assert band_colours(white_sheet) == {light} and band_colours(black_sheet) == {dark}
        # the pattern: a light hatch on every black face and back, none on the white deck's
        assert hatch_strokes(white_sheet) == [] and hatch_strokes(pdf.pages[3]) == []
        assert hatch_strokes(black_sheet) and hatch_strokes(pdf.pages[7])
        emblems = {side: {hexed(c["stroking_color"]) for c in pdf.pages[n].curves
                          if c.get("stroke") and 25 < (c["x1"] - c["x0"]) / MM < 30}
                   for side, n in (("white", 3), ("black", 7))}
    (white_ring,), (black_ring,) = emblems["white"], emblems["black"]
    assert lightness(white_ring) - lightness(black_ring) >= 25, emblems


BAND_LIGHT_LIMIT = 40.0  # least L* of the form bands: a mid grey, not the near-black #3a3a3a (L* 24) of before


def test_the_black_decks_bands_are_a_mid_grey_that_a_home_printer_takes(omiga):
    """Issue 43's ink: the black deck's bands, a tile wide on every face of half the sheets, are a
    mid grey (L* 45, about 58 % ink) where they were near-black (L* 24, 77 %); the white deck's are
    lighter still, and the two stay 25 L* apart (the test above) with the hatch as their pattern."""
    with pdfplumber.open(omiga["standard"]) as pdf:
        bands = band_colours(pdf.pages[4])
    assert len(bands) == 2 and min(lightness(c) for c in bands) >= BAND_LIGHT_LIMIT, \
        sorted((c, round(lightness(c))) for c in bands)


def test_a_palette_whose_decks_print_alike_gets_a_located_warning(tmp_path):
    text = (ROOT / "card_defs" / "omiga.yaml").read_text()
    definition = tmp_path / "alike.yaml"
    definition.write_text(text.replace('band: "#6b6b6b", ink: "#3a3a3a"', 'band: "#999999", ink: "#3a3a3a"', 1))
    line = next(n for n, row in enumerate(definition.read_text().splitlines(), 1) if '"#999999"' in row)
    result = CliRunner().invoke(cli, ["build", str(definition), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0
    assert (f"alike.yaml:{line}: warning: palettes.standard.black.band: #999999 has lightness 63 and the "
            f"white deck's band 73") in result.output


def words_in(page, colour: str | None = None) -> list[dict]:
    return page.extract_words(extra_attrs=["size", "non_stroking_color", "fontname"])


def test_tile_sheet_captions_are_set_as_the_rulebooks_footer(omiga):
    with pdfplumber.open(omiga["standard"]) as pdf:
        rules_footer = [w for w in words_in(pdf.pages[0]) if w["bottom"] > float(pdf.pages[0].height) - 12 * MM]
        for n in TILE_PAGES:
            page = pdf.pages[n]
            caption = [w for w in words_in(page) if w["bottom"] > float(page.height) - 8 * MM]
            assert caption and " ".join(w["text"] for w in caption).startswith("Omiga tiles, sheet")
            for word in caption:
                assert abs(word["size"] - SMALL_PT) < 0.01 and hexed(word["non_stroking_color"]) == FOOTER_GREY
    assert {(round(w["size"], 2), hexed(w["non_stroking_color"])) for w in rules_footer} == {(SMALL_PT, FOOTER_GREY)}


def test_deck_sheet_captions_are_grey_and_footer_sized(all_games_built):
    # `printgen build deck`: the sample deck names no paper, so A4, the session's build of every game
    with pdfplumber.open(all_games_built["a4"] / "deck" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        caption = [w for w in words_in(page) if w["bottom"] > float(page.height) - 8 * MM]
    assert caption
    assert {(round(w["size"], 2), hexed(w["non_stroking_color"])) for w in caption} == {(SMALL_PT, FOOTER_GREY)}


@pytest.fixture(scope="module")
def fracas(tmp_path_factory) -> dict[str, Path]:
    return {palette: build(tmp_path_factory.mktemp(f"fracas-{palette}"), "fracas",
                           ("  palette: standard ", f"  palette: {palette} ")) / "fracas-tokens.pdf"
            for palette in ("standard", "solid")}


def test_fracas_tokens_are_white_by_default_with_an_accent_title_and_a_grey_footer(fracas):
    with pdfplumber.open(fracas["standard"]) as pdf:
        page = pdf.pages[0]
        assert [c for a, c in fills(page) if a > 100 and lightness(c) < 99] == []  # no tinted grid
        words = words_in(page)
        title = [w for w in words if w["top"] < 20 * MM]
        assert title[0]["text"] == "Fracas:" and title[0]["size"] > 16
        assert {hexed(w["non_stroking_color"]) for w in title[:3]} == {ACCENTS["fracas"]}
        footer = [w for w in words if w["bottom"] > float(page.height) - 10 * MM]
        assert "life tokens" in " ".join(w["text"] for w in footer)
        assert {(round(w["size"], 2), hexed(w["non_stroking_color"])) for w in footer} == {(SMALL_PT, FOOTER_GREY)}
        # the second player's tokens carry a double ring, a pattern that needs no colour
        rings = {}
        for c in page.curves:
            if c.get("stroke") and 10 < (c["x1"] - c["x0"]) / MM < 16:
                rings.setdefault(hexed(c["stroking_color"]), set()).add(round((c["x1"] - c["x0"]) / MM, 1))
    assert sorted(len(sizes) for sizes in rings.values()) == [1, 2], rings


def test_fracas_solid_tokens_keep_their_tint_and_bleed_it_past_the_outer_cuts(fracas):
    with pdfplumber.open(fracas["solid"]) as pdf:
        page = pdf.pages[0]
        tints = [r for r in page.rects if r.get("fill") and 80 < lightness(hexed(r["non_stroking_color"])) < 95]
        assert len(tints) == 24  # 10 ones and 2 fives a player
        trim = [float(v) / MM for v in page.trimbox]
        left = min(r["x0"] for r in tints) / MM
        assert abs(trim[0] - left - 2.0) < 0.01  # the 2 mm bleed past the blocks' outer cut


def test_one_minute_war_card_title_and_mark_in_the_accent(all_games_built):
    folder = all_games_built["a4"] / "one_minute_war"  # `printgen build`, once for the session
    accent = ACCENTS["one_minute_war"]
    with pdfplumber.open(folder / "one_minute_war.pdf") as pdf:
        page = pdf.pages[0]
        title = [w for w in words_in(page) if w["text"] in ("ONE", "MINUTE", "WAR")]
        marks = [c for c in page.curves if c.get("stroke") and hexed(c["stroking_color"]) == accent
                 and abs((c["x1"] - c["x0"]) / MM - 10.0) < 0.8]
        logo = [w for w in words_in(pdf.pages[1]) if w["text"] in ("ONE", "MINUTE", "WAR") and w["size"] > 12]
    assert len(title) == 3 and {hexed(w["non_stroking_color"]) for w in title} == {accent}
    assert len(logo) == 3 and {hexed(w["non_stroking_color"]) for w in logo} == {accent}  # the body's back
    assert len(marks) == 2  # a stopwatch each side of the title
    ys = {round((c["top"] + c["bottom"]) / 2, 1) for c in marks} | {round((title[0]["top"] + title[0]["bottom"]) / 2, 1)}
    assert max(ys) - min(ys) < 3 * MM  # on the title's line
