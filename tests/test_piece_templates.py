"""Pieces drawn from SVG templates (printgen/games/pieces.py): a user copies the bundled piece
templates with `printgen new GAME DIR --templates`, edits them, and finds the edit in the PDF and
the SVGs; what the rules depend on is compared with what printgen gives and a template that
breaks it is named."""
from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest

from building import edit, line_of, rgb
from pdfmeasure import SVG_NS
from printgen.core.problems import DefinitionError
from printgen.jinja.render import render_each

NS = f"{{{SVG_NS['svg']}}}"
TILE = 42.0
MM = 72 / 25.4
CREAM = (0.992157, 0.941176, 0.835294)  # #fdf0d5
GREEN = (0.121569, 0.478431, 0.266667)  # #1f7a44, the standard palette's green semicircle


@pytest.fixture
def copied(run_cli, tmp_path) -> Path:
    """`printgen new omiga DIR --templates`: the definition and every template, the tile face and
    back among them, ready to edit; returns the face template."""
    result = run_cli("new", "omiga", tmp_path / "mine", "--templates")
    assert result.exit_code == 0, result.output
    face = tmp_path / "mine" / "templates" / "omiga" / "tile-face.svg.j2"
    assert face.is_file() and (face.parent / "tile-back.svg.j2").is_file()
    assert "templates/omiga/tile-face.svg.j2" in result.output
    return face


def test_a_copied_tile_template_changed_in_colour_and_shape_prints_the_change(run_cli, copied, tmp_path):
    # a cream face instead of the deck's colour, and a diamond where the green semicircles had a dot
    edit(copied, 'fill="{{ look.face }}"', 'fill="#fdf0d5"')
    edit(copied, '<circle cx="{{ m.x }}" cy="{{ m.y }}" r="{{ m.size * 0.6 }}" fill="{{ s.ink }}"/>',
         '<polygon points="{{ m.x }},{{ m.y - m.size }} {{ m.x + m.size }},{{ m.y }} {{ m.x }},{{ m.y + m.size }} '
         '{{ m.x - m.size }},{{ m.y }}" fill="{{ s.ink }}"/>')
    result = run_cli("build", copied.parents[2] / "mine.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output  # the semicircles and forms are as the rules need
    folder = tmp_path / "out" / "mine"
    with pdfplumber.open(folder / "mine.pdf") as pdf:
        page = pdf.pages[2]  # the first tile sheet's faces: 24 white tiles
        faces = [r for r in page.rects if r.get("fill") and abs((r["x1"] - r["x0"]) / MM - TILE) < 0.01
                 and abs((r["bottom"] - r["top"]) / MM - TILE) < 0.01]
        assert len(faces) == 24 and {rgb(r["non_stroking_color"]) for r in faces} == {CREAM}
        diamonds = [c for c in page.curves if c.get("fill") and len(c["pts"]) in (4, 5)
                    and rgb(c["non_stroking_color"]) == (1.0, 1.0, 1.0)
                    and abs((max(x for x, _ in c["pts"]) - min(x for x, _ in c["pts"])) / MM - 2 * 0.26 * 8) < 0.01]
        assert diamonds  # white diamonds (2.08 mm across) on the green semicircles
        greens = [c for c in page.curves if c.get("fill") and rgb(c["non_stroking_color"]) == GREEN]
        assert greens  # the semicircles themselves are unchanged
        fonts = {c["fontname"].split("+")[-1] for c in page.chars}
        assert fonts and all(f.startswith("BitstreamVeraSans") for f in fonts)  # the numbers, embedded
    root = ET.parse(folder / "svg" / "white-01.svg").getroot()  # green | green
    assert {r.get("fill") for r in root.iter(f"{NS}rect")} == {"#fdf0d5"}
    assert len([p for p in root.iter(f"{NS}polygon") if p.get("fill") == "#ffffff"]) == 2
    assert not [c for c in root.iter(f"{NS}circle") if c.get("fill") not in (None, "none")]


def test_a_semicircle_moved_off_its_edge_midpoint_is_a_located_warning(run_cli, copied, tmp_path):
    edit(copied, 'd="{{ s.path }}" fill="{{ s.fill }}"/>', 'd="{{ s.path }}" fill="{{ s.fill }}" transform="translate(0 1.5)"/>')
    line = line_of(copied, '<path id="semicircle-')
    definition = copied.parents[2] / "mine.yaml"
    result = run_cli("build", definition, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output  # a warning: the user may mean it
    found = re.findall(rf"tile-face\.svg\.j2:{line}: warning: tile white-01 \(and 71 more\): the (left|right) "
                       r"semicircle \(id=\"semicircle-\1\"\) is drawn up to 1\.50 mm from the outline printgen "
                       r"gives it \(s\.path\), so the halves of two tiles will not make one circle", result.output)
    assert sorted(found) == ["left", "right"], result.output
    result = run_cli("validate", definition, "--games", "20")
    assert re.search(rf"tile-face\.svg\.j2:{line}: tile white-01 \(and 71 more\): the left semicircle",
                     result.output), result.output
    assert "Result: valid" in result.output and "drawing   warn" in result.output


def test_forms_drawn_so_they_no_longer_fit_are_named(run_cli, copied, tmp_path):
    # every bottom band drawn flat: a tile's tip no longer meets its partner's notch
    edit(copied, '<polygon id="form-{{ form.edge }}" points="{{ form.points }}" fill="{{ look.band }}"'
                 '{% if look.band_line %} stroke="{{ look.band_line }}" stroke-width="{{ look.band_line_width }}" '
                 'stroke-linejoin="round"{% endif %}/>',
         '{% if form.edge == "top" %}<polygon id="form-top" points="{{ form.points }}" fill="{{ look.band }}"/>'
         '{% else %}<rect id="form-bottom" x="{{ box.x }}" y="{{ tile.height - form.band }}" '
         'width="{{ box.width }}" height="{{ form.band - box.y }}" fill="{{ look.band }}"/>{% endif %}')
    result = run_cli("build", copied.parents[2] / "mine.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    line = line_of(copied, '<rect id="form-bottom"')
    assert re.search(rf"tile-face\.svg\.j2:{line}: warning: tile white-01 \(and 71 more\): the bottom form "
                     r"\(id=\"form-bottom\"\) is drawn in another shape than the outline printgen gives it "
                     r"\(form\.points\), so tiles with it will not interlock", result.output), result.output
    assert "form-top" not in result.output


def test_a_mistake_in_a_piece_template_is_located_and_names_the_piece(run_cli, copied, tmp_path):
    edit(copied, "{% if number %}", "{% if number.missing.key %}")
    line = line_of(copied, "number.missing.key")
    result = run_cli("build", copied.parents[2] / "mine.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert re.search(rf"tile-face\.svg\.j2:{line}: template error \(for tile white-01\): .*missing",
                     result.output), result.output
    assert not (tmp_path / "out").exists()


def test_render_each_renders_every_context_and_locates_failures(tmp_path):
    (tmp_path / "piece.svg.j2").write_text('<svg>{{ n }}</svg>\n{% if n > 2 %}{{ 1 / 0 }}{% endif %}\n')
    assert render_each("piece.svg.j2", [{"n": 1}, {"n": 2}], [tmp_path], 4.0) == ["<svg>1</svg>\n", "<svg>2</svg>\n"]
    with pytest.raises(DefinitionError) as caught:
        render_each("piece.svg.j2", [{"n": 1}, {"n": 3}], [tmp_path], 4.0, ["one", "three"])
    assert "piece.svg.j2:2: template error (for three): ZeroDivisionError" in str(caught.value)


def test_elements_converted_once_draw_what_whole_svgs_draw(tmp_path):
    """art.svgbatch: an element seen before is not converted again, and the drawing is the same as
    svglib's of the whole SVG (an SVG whose parts depend on each other is converted whole)."""
    from printgen.art.svg import convert, embedded_fonts
    from printgen.art.svgbatch import BatchConverter
    from printgen.art.svgtree import parse
    from printgen.games.pieces import placed_at
    from printgen.output.svg import svg_bytes

    head = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'
    svgs = [head + '<rect x="-1" y="-1" width="22" height="12" fill="#fdf0d5"/>'
            '<path id="semicircle-left" d="M0 2 C3 2 5 4 5 5 Z" fill="#1f7a44" transform="translate(0 1)"/>'
            f'<text x="2" y="8" font-size="3" font-weight="bold">{n}</text></svg>' for n in (1, 2)]
    svgs.append(head + '<style>.a { fill: #cc0000 }</style><rect class="a" width="4" height="4"/></svg>')
    path = tmp_path / "piece.svg.j2"
    fonts = embedded_fonts()
    batch = BatchConverter(path, tmp_path, fonts)
    for text in svgs:
        data = text.encode()
        alone, _ = convert(path, data, tmp_path, fonts, parse(path, data))
        together, _ = batch.convert(data, parse(path, data))
        assert (svg_bytes([placed_at(together, 20, 10)], 20, 10)
                == svg_bytes([placed_at(alone, 20, 10)], 20, 10))
    assert len(batch.parts) == 5  # the empty root, the rect and the path once, a text for each number
    first, second = (batch.convert(t.encode(), parse(path, t.encode()))[0] for t in svgs[:2])
    assert first.contents[0].contents[0] is second.contents[0].contents[0]  # one shape, twice placed
    assert b"#cc0000" in svg_bytes([placed_at(batch.convert(svgs[2].encode(), parse(path, svgs[2].encode()))[0],
                                              20, 10)], 20, 10)


def test_export_draws_tiles_from_a_templates_folder_given_on_the_command_line(run_cli, tmp_path):
    from printgen.jinja.render import bundled_dir

    folder = tmp_path / "mine" / "omiga"
    folder.mkdir(parents=True)
    face = folder / "tile-face.svg.j2"
    face.write_text((bundled_dir() / "omiga" / "tile-face.svg.j2").read_text())
    edit(face, 'fill="{{ look.face }}"', 'fill="#fdf0d5"')
    result = run_cli("export", "omiga", "--print-shop", "--templates", tmp_path / "mine", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "omiga" / "print-shop" / "white-01.pdf") as pdf:
        fills = {rgb(r["non_stroking_color"]) for r in pdf.pages[0].rects if r.get("fill")}
    assert CREAM in fills


def test_a_piece_template_that_makes_broken_svg_is_located(run_cli, copied, tmp_path):
    edit(copied, "</svg>", "</svg\n")
    result = run_cli("build", copied.parents[2] / "mine.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert re.search(r"tile-face\.svg\.j2:1: template error \(for tile white-01\): the SVG it made: .*"
                     r"not a readable SVG file \(line \d+", result.output), result.output


def test_a_picture_placed_by_a_piece_template_is_in_the_pdf_and_embedded_in_each_svg(run_cli, copied, tmp_path):
    """An <image> of a PNG beside the template, 5 mm square, 2 mm in from the tile's top-left
    corner: the PDF draws it there, and each tile's SVG carries the file's own bytes."""
    import base64

    from PIL import Image

    Image.new("RGB", (8, 8), (255, 0, 0)).save(copied.parent / "badge.png")
    edit(copied, "</svg>", '<image href="badge.png" x="2" y="2" width="5" height="5"/></svg>')
    result = run_cli("build", copied.parents[2] / "mine.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "mine"
    with pdfplumber.open(folder / "mine.pdf") as pdf:
        page = pdf.pages[2]  # the first tile sheet's faces
        faces = sorted((r for r in page.rects if r.get("fill") and abs((r["x1"] - r["x0"]) / MM - TILE) < 0.01
                        and abs((r["bottom"] - r["top"]) / MM - TILE) < 0.01), key=lambda r: (r["top"], r["x0"]))
        places = {(round(i["x0"], 2), round(i["top"], 2), round(i["x1"], 2), round(i["bottom"], 2)) for i in page.images}
        badges = [dict(zip(("x0", "top", "x1", "bottom"), place)) for place in sorted(places, key=lambda p: (p[1], p[0]))]
        assert len(badges) == len(faces) == 24
        for face, badge in zip(faces, badges):
            assert abs((badge["x0"] - face["x0"]) / MM - 2) < 0.01 and abs((badge["top"] - face["top"]) / MM - 2) < 0.01
            assert abs((badge["x1"] - badge["x0"]) / MM - 5) < 0.01 and abs((badge["bottom"] - badge["top"]) / MM - 5) < 0.01
    root = ET.parse(folder / "svg" / "white-01.svg").getroot()
    images = list(root.iter(NS + "image"))
    assert len(images) == 1
    href = images[0].get("{http://www.w3.org/1999/xlink}href") or images[0].get("href")
    assert href.startswith("data:image/png;base64,")
    assert base64.b64decode(href.split(",", 1)[1]) == (copied.parent / "badge.png").read_bytes()
    corners = placed(root, images[0])  # the unit image's corners on the tile's SVG, mm, y down
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    assert [round(v, 6) for v in (min(xs), min(ys), max(xs), max(ys))] == [2, 2, 7, 7]


def placed(root: ET.Element, target: ET.Element) -> list[tuple[float, float]]:
    """The corners of the unit square `target` draws, through every transform above it."""
    def matrix(text: str) -> tuple[float, ...]:
        kind, _, args = text.strip().partition("(")
        values = [float(v) for v in re.split(r"[ ,]+", args.rstrip(") ").strip())]
        if kind == "matrix":
            return tuple(values)
        if kind == "scale":
            return (values[0], 0, 0, values[-1], 0, 0)
        raise AssertionError(f"unexpected transform {text}")

    def times(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, ...]:
        a, b, c, d, e, f = m
        p, q, r, s_, t, u = n
        return (a * p + c * q, b * p + d * q, a * r + c * s_, b * r + d * s_, a * t + c * u + e, b * t + d * u + f)

    def walk(node: ET.Element, m: tuple[float, ...]) -> tuple[float, ...] | None:
        if node.get("transform"):
            m = times(m, matrix(node.get("transform")))
        if node is target:
            return m
        for child in node:
            found = walk(child, m)
            if found is not None:
                return found
        return None

    m = walk(root, (1, 0, 0, 1, 0, 0))
    assert m is not None
    return [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]

# -- One Minute War: tabs and card body --------------------------------------------------------

@pytest.fixture
def war(run_cli, tmp_path) -> Path:
    result = run_cli("new", "one_minute_war", tmp_path / "war", "--templates")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "war" / "templates" / "one_minute_war"
    for name in ("tab-front.svg.j2", "tab-back.svg.j2", "card-body.svg.j2"):
        assert (folder / name).is_file(), name
    return folder


def test_copied_tab_templates_changed_in_colour_and_shape_print_the_change(run_cli, war, tmp_path):
    # the tabs' backs in a dark grey instead of the side's light tint, and a ring round each number
    edit(war / "tab-back.svg.j2", 'height="{{ box.height }}" fill="{{ side.tint }}"/>',
         'height="{{ box.height }}" fill="#333333"/>\n  <circle cx="{{ tab.width / 2 }}" '
         'cy="{{ rows.number - sizes.number * 0.36 }}" r="3.2" fill="none" stroke="#ffcc00" stroke-width="0.4"/>')
    result = run_cli("build", war.parents[1] / "war.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    folder = tmp_path / "out" / "war"
    dark, gold, name = (0.2, 0.2, 0.2), (1.0, 0.8, 0.0), "war"  # the copy is named after its folder
    with pdfplumber.open(folder / f"{name}.pdf") as pdf:
        back = pdf.pages[1]
        fills = {rgb(r["non_stroking_color"]) for r in back.rects if r.get("fill")}
        rings = [c for c in back.curves if rgb(c.get("stroking_color")) == gold]
        fonts = {c["fontname"].split("+")[-1] for c in back.chars}
        darks = [r for r in back.rects if r.get("fill") and rgb(r["non_stroking_color"]) == dark]
        cuts = [(e["x0"], e["x1"]) for e in back.lines if (e.get("dash") or ([],))[0] == [3, 1.5]]
    sides = {rgb(int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)) for h in ("#b03a2e", "#1f5f99")}
    assert dark in fills and not sides & fills  # the bleed is in the template's colour too
    # ... and runs 2 mm past the card's outline on the left and right (the long cut lines' ends)
    left, right = min(x0 for x0, _ in cuts), max(x1 for _, x1 in cuts)
    assert min(r["x0"] for r in darks) == pytest.approx(left - 2 * MM, abs=0.05)
    assert max(r["x1"] for r in darks) == pytest.approx(right + 2 * MM, abs=0.05)
    assert len(rings) == 10  # a ring on every tab's back, both rows
    assert fonts and all(f.startswith("BitstreamVeraSans") for f in fonts)
    root = ET.parse(folder / "svg" / f"{name}-card-back.svg").getroot()
    assert len([c for c in root.iter(f"{NS}circle") if c.get("stroke") == "#ffcc00"]) == 10
    assert "#333333" in {r.get("fill") for r in root.iter(f"{NS}rect")}


def test_text_past_a_tabs_safe_area_is_a_located_warning(run_cli, war, tmp_path):
    template = war / "tab-front.svg.j2"
    edit(template, '<text x="{{ tab.pad }}" y="{{ rows.name }}"', '<text x="0.5" y="{{ rows.name }}"')
    line = line_of(template, "{{ soldier.name }}")  # the line writing the name
    result = run_cli("build", war.parents[1] / "war.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert re.search(rf"tab-front\.svg\.j2:{line}: warning: (\w+)'s tab \(Red side, face\): '\1' "
                     r"reaches 1\.9 mm past the safe area \(and 9 more texts\); keep a tab's "
                     r"text 2\.4 mm inside its edges", result.output), result.output  # a face's words: 2.4 mm
    assert result.output.count("warning") == 1


def test_a_font_one_definition_loads_does_not_reach_the_next_build(run_cli, copy_definition, tmp_path):
    # Vera Roman as a user's own logo font: its family is "Bitstream Vera Sans", the family the
    # bundled templates name in bold. It serves the definition that loads it (the card's title in
    # it, not bold), and no later build in the same process (Omiga's tile backs stay bold)
    import reportlab

    war = copy_definition("one_minute_war", "war")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "display.ttf").write_bytes((Path(reportlab.__file__).parent / "fonts" / "Vera.ttf").read_bytes())
    war.write_text(war.read_text().replace("  # font: art/display.ttf", "  font: art/display.ttf", 1))
    assert run_cli("build", war, "--out", tmp_path / "mine").exit_code == 0
    with pdfplumber.open(tmp_path / "mine" / "war" / "war.pdf") as pdf:
        title = {c["fontname"].split("+")[-1] for c in pdf.pages[0].chars if round(c["size"]) == 14}
    assert title == {f"BitstreamVeraSans-Roman-{hashlib.sha256((tmp_path / 'art' / 'display.ttf').read_bytes()).hexdigest()[:12]}"}
    assert run_cli("build", "omiga", "--out", tmp_path / "omiga").exit_code == 0
    with pdfplumber.open(tmp_path / "omiga" / "omiga" / "omiga.pdf") as pdf:
        backs = {c["fontname"].split("+")[-1] for c in pdf.pages[3].chars if c["size"] > 8}
    assert backs == {"BitstreamVeraSans-Bold"}
