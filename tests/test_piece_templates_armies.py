"""Armies' position drawing and Quick Violence's arrow labels, drawn from SVG piece templates
(armies/positions.svg.j2, quick_violence/arrow-label.svg.j2): a user copies them with `printgen
new GAME DIR --templates`, edits them, and finds the edit in the PDF and in the SVG the copy
makes; a drawing that breaks what the game depends on is a warning at the template's line.
Neither game writes SVG files, so the SVG looked at is the one the copied template renders from
the data the game gives it. A test that reads a PDF builds one game once, on A4; the warnings
are found by drawing only the pieces, as `build` does first."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest

from building import edit, line_of, rgb
from pdfmeasure import SVG_NS
from printgen.core.build import BuildOptions
from printgen.core.paper import PAPERS
from printgen.games import load
from printgen.jinja.render import render

NS = f"{{{SVG_NS['svg']}}}"
MM = 72 / 25.4
CREAM = (0.992157, 0.941176, 0.835294)  # #fdf0d5
INK = (0.121569, 0.305882, 0.47451)  # #1f4e79, Armies' accent
DARK_RED = (0.690196, 0.0, 0.0)  # #b00000
SHORT_BLUE = (0.121569, 0.372549, 0.6)  # #1f5f99, the SHORT arrow's colour


def copied(run_cli, folder: Path, game: str, template: str) -> tuple[Path, Path]:
    """`printgen new GAME FOLDER --templates`: the copy's definition and its piece template."""
    result = run_cli("new", game, folder, "--templates")
    assert result.exit_code == 0, result.output
    path = folder / "templates" / game / template
    assert path.is_file() and f"templates/{game}/{template}" in result.output
    return folder / f"{folder.name}.yaml", path


def svg_of(template: Path, data: dict) -> ET.Element:
    """The SVG the copied template makes from the data the game gives it."""
    return ET.fromstring(render(f"{template.parent.name}/{template.name}", data, [template.parents[1]]))


# -- Armies: the army card in each position ------------------------------------------------------

@pytest.fixture
def army(run_cli, tmp_path) -> tuple[Path, Path]:
    return copied(run_cli, tmp_path / "army", "armies", "positions.svg.j2")


def test_a_copied_position_drawing_changed_in_colour_and_shape_prints_the_change(run_cli, army, tmp_path):
    from printgen.games.armies.positions import figure_data

    definition, template = army
    # cream faces, and a disc where the big corner letter stood
    edit(template, 'height="{{ h }}" rx="{{ card.radius }}" ry="{{ card.radius }}" fill="#ffffff"',
         'height="{{ h }}" rx="{{ card.radius }}" ry="{{ card.radius }}" fill="#fdf0d5"')
    edit(template, '<text x="0" y="{{ card.big_size * 0.36 }}" text-anchor="middle" font-family="Bitstream Vera Sans" '
         'font-weight="bold" font-size="{{ card.big_size }}" fill="{{ ink }}">{{ card.index }}</text>',
         '<circle cx="0" cy="0" r="{{ w / 4 }}" fill="{{ ink }}"/>')
    result = run_cli("build", definition, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output  # every card still turned as its position says
    data = figure_data(load(definition).definition, 87.5, "#1f4e79")  # the rulebook's column on A4
    w = data["card"]["width"]
    with pdfplumber.open(tmp_path / "out" / "army" / "army.pdf") as pdf:
        page = next(p for p in pdf.pages if "Marking lost stamina" in (p.extract_text() or ""))  # with its drawing
        faces = [c for c in page.curves if c.get("fill") and rgb(c["non_stroking_color"]) == CREAM]
        discs = [c for c in page.curves if c.get("fill") and rgb(c["non_stroking_color"]) == INK
                 and w / 2 / 2 ** 0.5 - 0.05 < (c["x1"] - c["x0"]) / MM < w / 2 + 0.05]  # by its 4 points: turned 45, less
        big = [c for c in page.chars if abs(c["size"] - w * 1.6) < 0.1]  # the corner letter, 1.6 pt a mm of card
    assert len(faces) == 3 and len(discs) == 3  # upright, sideways, diagonal; the face-down card has neither
    assert big == []
    root = svg_of(template, data)
    assert [c.get("fill") for c in root.iter(f"{NS}circle")] == ["#1f4e79"] * 3
    assert sum(r.get("fill") == "#fdf0d5" for r in root.iter(f"{NS}rect")) == 3


def test_a_label_out_of_its_box_is_a_located_warning(army):
    from printgen.games.armies.game import figures_for

    definition, template = army
    edit(template, 'y="{{ p.lost_y }}"', 'y="{{ p.lost_y + 4 }}"')
    loaded, warnings = load(definition), []
    # what `build` draws first: the figure at the rulebook's and the reference's column widths
    figures_for(loaded.definition, BuildOptions(PAPERS["a4"], templates=(loaded.art.templates,)), warnings)
    lost = line_of(template, 'id="lost-')
    found = "\n".join(warnings)
    assert re.search(rf"positions\.svg\.j2:{lost}: warning: the position drawing \(\d+\.\d mm wide\): 'nothing lost' "
                     r"reaches \d\.\d mm past the drawing's box, over the text around it \(and 7 more texts\); "
                     r"keep the text inside figure\.width and figure\.height", found), found
    assert len(warnings) == 1  # one for the 4 labels at both column widths, the furthest named


# -- Quick Violence: the arrows' labels on the measuring page ------------------------------------

@pytest.fixture
def fight(run_cli, tmp_path) -> tuple[Path, Path]:
    return copied(run_cli, tmp_path / "fight", "quick_violence", "arrow-label.svg.j2")


def test_a_copied_label_template_changed_in_colour_and_shape_prints_the_change(run_cli, fight, tmp_path):
    from printgen.games.quick_violence.captions import ArrowLabels
    from printgen.games.quick_violence.game import measuring_page
    from printgen.games.pieces import PieceTemplates

    definition, template = fight
    # the explanations in dark red, and a frame round each bold word
    edit(template, 'fill="{{ detail.colour }}"', 'fill="#b00000"')
    edit(template, '  <text id="label-word"', '  <rect x="-0.8" y="0" width="{{ word.width + 1.6 }}" '
         'height="{{ box.height + 1.2 }}" fill="none" stroke="{{ arrow.colour }}" stroke-width="0.3"/>\n'
         '  <text id="label-word"')
    result = run_cli("build", definition, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output  # the frames keep clear of every mark
    labels = ArrowLabels(measuring_page(load(definition).definition, PAPERS["a4"]), PieceTemplates())
    short = next(piece for key, piece, _ in labels.pieces() if key == "width").context
    with pdfplumber.open(tmp_path / "out" / "fight" / "fight.pdf") as pdf:
        page = pdf.pages[-1]  # the measuring page
        reds = "".join(c["text"] for c in page.chars if rgb(c["non_stroking_color"]) == DARK_RED)
        frames = [r for r in page.rects if rgb(r.get("stroking_color")) == SHORT_BLUE and not r.get("fill")]
    assert "paper width, edge to edge: 210 mm" in reds and "an attack reaches this far" in reds
    assert len(frames) == 1  # round SHORT, the one label lying flat; the others turn with their arrows
    (frame,) = frames
    assert abs((frame["x1"] - frame["x0"]) / MM - (short["word"]["width"] + 1.6)) < 0.05
    assert abs(frame["x0"] / MM - (26.0 - 0.8)) < 0.05  # from where SHORT's label starts
    root = svg_of(template, short)
    assert [r.get("stroke") for r in root.iter(f"{NS}rect")] == ["#1f5f99"]
    assert {t.get("fill") for t in root.iter(f"{NS}text")} == {"#1f5f99", "#b00000"}


def test_a_label_into_the_blank_margin_is_a_located_warning(fight):
    from printgen.games.pieces import PieceTemplates
    from printgen.games.quick_violence.captions import ArrowLabels
    from printgen.games.quick_violence.game import measuring_page

    definition, template = fight
    # RANGE's word pushed left, past the paper's printable edge
    edit(template, 'x="{{ word.x }}" y="{{ word.y }}"',
         'x="{{ word.x - 24 if arrow.name == \'range\' else word.x }}" y="{{ word.y }}"')
    loaded, warnings = load(definition), []
    page = measuring_page(loaded.definition, PAPERS["a4"])
    ArrowLabels(page, PieceTemplates((loaded.art.templates,), warnings=warnings)).drawn()  # as `build` draws them
    line = line_of(template, '<text id="label-word"')
    assert [re.sub(r"^\S*/(?=arrow-label)", "", found) for found in warnings] == [
        f"arrow-label.svg.j2:{line}: warning: the RANGE label: 'RANGE' reaches 3.0 mm into the 5 mm at the "
        f"paper's edge; printers leave that strip blank"], warnings
