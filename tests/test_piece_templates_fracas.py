"""Fracas's life tokens and pot mat drawn from SVG piece templates (printgen/games/fracas/piece_art.py):
a user copies them with `printgen new fracas DIR --templates`, edits them, and finds the edit on the
token sheet and in the print-shop files (Fracas writes no SVG); text a template puts past a token's safe area is a warning
at the template's line."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest

from building import edit, line_of, rgb
from pdfmeasure import MM
from printgen.games.fracas.tokens import BLEED

TOKEN = 22.0  # mm, the bundled tokens.size
MAT_WIDTH = 2 * 4 * TOKEN + 12.0  # two blocks of four tokens and the gap between them
CREAM = (0.992157, 0.941176, 0.835294)  # #fdf0d5
GREEN = (0.121569, 0.478431, 0.266667)  # #1f7a44
RED, BLACK = (0.690196, 0.227451, 0.180392), (0.184314, 0.231373, 0.270588)  # the players' colours
TEMPLATES = ("token-face.svg.j2", "token-back.svg.j2", "pot.svg.j2")


@pytest.fixture
def fracas(run_cli, tmp_path) -> Path:
    """`printgen new fracas DIR --templates`: returns the folder of the copied piece templates."""
    result = run_cli("new", "fracas", tmp_path / "duel", "--templates")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "duel" / "templates" / "fracas"
    for name in TEMPLATES:
        assert (folder / name).is_file() and f"templates/fracas/{name}" in result.output, name
    return folder


def width_mm(curve) -> float:
    xs = [x for x, _ in curve["pts"]]
    return (max(xs) - min(xs)) / MM


def test_copied_token_and_mat_templates_changed_in_colour_and_shape_print_the_change(run_cli, fracas, tmp_path):
    # cream tokens with a diamond where the ring was; a green oval mat instead of the rounded box
    face = fracas / "token-face.svg.j2"
    edit(face, 'fill="{{ player.background }}"', 'fill="#fdf0d5"')
    edit(face, '<circle cx="{{ ring.cx }}" cy="{{ ring.cy }}" r="{{ ring.r }}"',
         '<polygon points="{{ ring.cx }},{{ ring.cy - ring.r }} {{ ring.cx + ring.r }},{{ ring.cy }} '
         '{{ ring.cx }},{{ ring.cy + ring.r }} {{ ring.cx - ring.r }},{{ ring.cy }}"')
    edit(fracas / "pot.svg.j2", '<rect x="0" y="0" width="{{ mat.width }}" height="{{ mat.height }}" '
         'rx="{{ mat.radius }}" ry="{{ mat.radius }}" fill="none" stroke="{{ accent }}"',
         '<ellipse cx="{{ mat.width / 2 }}" cy="{{ mat.height / 2 }}" rx="{{ mat.width / 2 }}" '
         'ry="{{ mat.height / 2 }}" fill="none" stroke="#1f7a44"')
    definition = fracas.parents[1] / "duel.yaml"
    result = run_cli("build", definition, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    with pdfplumber.open(tmp_path / "out" / "duel" / "duel-tokens.pdf") as pdf:
        page = pdf.pages[0]
        grounds = [r for r in page.rects if r.get("fill") and r["width"] / MM < TOKEN + 2 * BLEED + 0.01]
        diamonds = [c for c in page.curves if len(c["pts"]) in (4, 5)
                    and abs(width_mm(c) - 2 * 0.32 * TOKEN) < 0.01]
        ovals = [c for c in page.curves if rgb(c.get("stroking_color")) == GREEN]
        fonts = {c["fontname"].split("+")[-1] for c in page.chars}
    assert len(grounds) == 24 and {rgb(r["non_stroking_color"]) for r in grounds} == {CREAM}
    assert sorted(rgb(c["stroking_color"]) for c in diamonds) == [BLACK] * 12 + [RED] * 12  # 10 ones and 2 fives each
    assert len(ovals) == 1 and width_mm(ovals[0]) == pytest.approx(MAT_WIDTH, abs=0.01)
    assert fonts and all(f.startswith("BitstreamVeraSans") for f in fonts)  # the template's text too
    # export draws the print-shop files from the same templates (here: the copy's templates: folder)
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS
    from printgen.games import load
    from printgen.layout.export import print_shop

    loaded = load(definition)
    assert loaded.game.pieces is not None
    files = {f.name: f.data for f in print_shop("Fracas", loaded.game.pieces(loaded, BuildOptions(PAPERS["a4"])))}
    with pdfplumber.open(io.BytesIO(files["print-shop/token-red.pdf"])) as pdf:
        page = pdf.pages[0]
        assert CREAM in {rgb(r["non_stroking_color"]) for r in page.rects if r.get("fill")}
        assert [rgb(c["stroking_color"]) for c in page.curves if len(c["pts"]) in (4, 5)] == [RED]

def test_token_text_past_the_safe_area_is_a_warning_at_its_template_line(run_cli, fracas, tmp_path):
    face = fracas / "token-face.svg.j2"
    edit(face, 'y="{{ name.y }}"', 'y="{{ token.size - 0.5 }}"')  # the name on the cut
    line = line_of(face, "{{ name.text }}")
    result = run_cli("build", fracas.parents[1] / "duel.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output  # a warning: the tokens are still printed
    assert re.search(rf"token-face\.svg\.j2:{line}: warning: Red's life token \(face\): 'Red' reaches "
                     r"2\.2 mm past the safe area \(and 3 more texts\); keep a token's text 2 mm inside its "
                     r"cut", result.output), result.output
    assert result.output.count("warning") == 1


def test_a_back_of_the_wrong_size_and_a_filter_svglib_drops_are_located_warnings(run_cli, fracas, tmp_path):
    """The two warnings drawing a piece gives besides text: an <svg> not the piece's size (it is
    stretched to fit, once a distinct drawing) and what svglib leaves out, each at its line; the
    token sheet still prints."""
    back = fracas / "token-back.svg.j2"
    edit(back, 'width="{{ token.size }}mm"', 'width="{{ token.size + 2 }}mm"')
    edit(back, "</svg>", '<rect x="1" y="1" width="2" height="2" filter="blur(2px)"/>\n</svg>')
    result = run_cli("build", fracas.parents[1] / "duel.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    svg, rect = line_of(back, "<svg "), line_of(back, 'filter="blur')
    for player in ("Red", "Black"):
        assert (f"token-back.svg.j2:{svg}: warning: the SVG it makes for {player}'s life token (back) is 24 x 22 "
                f"mm, but the piece is 22 x 22 mm, so it is stretched to fit; give the <svg> width=\"22mm\" "
                f"height=\"22mm\"") in result.output, result.output
    assert re.search(rf"token-back\.svg\.j2:{rect}: warning: filter: filters .* are ignored", result.output)
    assert result.output.count("warning") == 3
    with pdfplumber.open(tmp_path / "out" / "duel" / "duel.pdf") as pdf:
        assert len(pdf.pages) > 1  # built all the same
