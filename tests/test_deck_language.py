"""The deck language of issue 41, read back from what was built: `change:` moving and recolouring an
inherited element (its millimetres and colour in the PDF), lengths written in inches, centimetres
and points (the positions they come to), CSS colour names, #rgb and #rrggbbaa and `opacity` (the
PDF's fill colours and ExtGState alpha, the SVG's opacity, the PNG's blended pixels), and the
messages: a misspelt column told once with the nearest, every literal mistake in one run."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from lxml import etree
from PIL import Image
from pypdf import PdfReader

MM = 72 / 25.4
SVG = "{http://www.w3.org/2000/svg}"
CARD_W, CARD_H = 63.5, 88.9
SIZE = "expected a type size from 7 pt (the smallest that prints clearly) to 72 pt, such as 10, '12pt' or '4mm' (got 5)"

TYPES = """\
game: deck
title: Changed
data: cards.csv
face_layout: "{{ type }}"
sheet:
  layout: fronts
layouts:
  base:
    layout:
      - id: band
        type: rect
        x: 3
        y: 3
        width: 57.5
        height: 11
        fill: "#dddddd"
      - id: title
        type: text
        text: "{{ title }}"
        x: 5
        y: 5
        width: 40
        height: 7
        size: 12
  moved:
    extends: base
    change:
      title: {y: 30, colour: "#ffffff", size: 14}
      band: {height: 40, fill: navy}
"""
TYPE_ROWS = "type,title\nbase,Anchor\nmoved,Drifter\n"


def made(tmp_path: Path, definition: str, rows: str, name: str = "deck") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "cards.csv").write_text(rows, encoding="utf-8")
    (folder / "deck.yaml").write_text(definition, encoding="utf-8")
    return folder / "deck.yaml"


def line_of(path: Path, text: str, after: int = 0) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if n > after and text in line)


def rgb(item: dict) -> tuple[int, ...] | None:
    value = item.get("non_stroking_color")
    return None if not value else tuple(round(v * 255) for v in value)


def cards_of(page) -> list[tuple[float, float]]:
    """The top-left corner (mm) of each card on a sheet: its full-size background rectangle."""
    return sorted((r["x0"] / MM, r["top"] / MM) for r in page.rects
                  if abs(r["width"] / MM - CARD_W) < 0.02 and abs(r["height"] / MM - CARD_H) < 0.02)


def test_change_moves_and_recolours_an_inherited_element_and_keeps_the_rest(run_cli, tmp_path):
    deck = made(tmp_path, TYPES, TYPE_ROWS)
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        corners = cards_of(page)
        words = page.extract_words(extra_attrs=["size", "non_stroking_color"])
        bands = [r for r in page.rects if abs(r["width"] / MM - 57.5) < 0.02]
    assert len(corners) == 2
    found = {}
    for word in words:
        left, top = max((c for c in corners if c[0] <= word["x0"] / MM + 0.01), key=lambda c: c[0])
        found[word["text"]] = (word["x0"] / MM - left, word["top"] / MM - top, word["size"], rgb(word))
    anchor, drifter = found["Anchor"], found["Drifter"]
    assert anchor[0] == pytest.approx(5, abs=0.3) and anchor[1] == pytest.approx(5, abs=0.6)
    assert anchor[2] == pytest.approx(12, abs=0.01) and anchor[3] == (0, 0, 0)
    # the changed title: moved down to y 30, white and larger; its x and box as the base has them
    assert drifter[0] == pytest.approx(5, abs=0.3) and drifter[1] == pytest.approx(30, abs=0.6)
    assert drifter[2] == pytest.approx(14, abs=0.01) and drifter[3] == (255, 255, 255)
    drawn = sorted((round(r["x0"] / MM - left, 2), round(r["top"] / MM - top, 2), round(r["height"] / MM, 2), rgb(r))
                   for r in bands for left, top in corners if 0 <= r["x0"] / MM - left < CARD_W)
    assert drawn == [(3.0, 3.0, 11.0, (0xdd, 0xdd, 0xdd)), (3.0, 3.0, 40.0, (0, 0, 0x80))]


def test_changes_that_are_wrong_are_told_together_each_at_its_line(run_cli, tmp_path):
    deck = made(tmp_path, TYPES.replace('      band: {height: 40, fill: navy}\n',
                                        '      band: {height: 40, fill: navvy, size: 12}\n'
                                        '      bnad: {y: 4}\n').replace(
        'title: {y: 30, colour: "#ffffff", size: 14}', 'title: {y: 30, colour: "#ffffff", size: 5, colur: red}'),
        TYPE_ROWS)
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    title, band, typo = line_of(deck, "title: {y: 30, c"), line_of(deck, "band: {"), line_of(deck, "bnad:")
    assert result.stderr.splitlines() == [
        f"{deck}:{title}: layouts.moved.change.title.colur: unknown key; expected one of: when, align, clip, "
        "colour, font, height, line_height, min_size, opacity, origin, rotate, size, text, valign, width, wrap, x, y",
        f"{deck}:{title}: layouts.moved.change.title.size: {SIZE}",
        f"{deck}:{band}: layouts.moved.change.band.fill: expected a colour: a CSS colour name such as 'teal', or "
        "#rgb, #rrggbb, #rgba or #rrggbbaa ('#1f5f99', or '#1f5f9980' half see-through), or 'none' (got 'navvy'); "
        "did you mean 'navy'?",
        f"{deck}:{band}: layouts.moved.change.band.size: a rect takes no 'size'; it takes clip, fill, height, "
        "opacity, origin, radius, rotate, stroke, stroke_width, width, x, y",
        f"{deck}:{typo}: layouts.moved.change.bnad: expected the id of an element of layout 'base': band, title "
        "(got 'bnad')",
        "printgen: 5 problems found; nothing was written."], result.stderr
    assert not (tmp_path / "out").exists()


def test_a_change_is_inherited_changed_again_and_a_row_fault_told_at_the_change(run_cli, tmp_path):
    deeper = TYPES + "  deeper:\n    extends: moved\n    change:\n      title: {x: 12, colour: \"{{ shade }}\"}\n"
    deck = made(tmp_path, deeper, "type,title,shade\nmoved,Drifter,red\ndeeper,Diver,teal\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        corners = cards_of(page)
        [diver] = [w for w in page.extract_words(extra_attrs=["size", "non_stroking_color"]) if w["text"] == "Diver"]
    left, top = max((c for c in corners if c[0] <= diver["x0"] / MM + 0.01), key=lambda c: c[0])
    # y and size from moved's change, x and colour from its own
    assert diver["x0"] / MM - left == pytest.approx(12, abs=0.3)
    assert diver["top"] / MM - top == pytest.approx(30, abs=0.6)
    assert diver["size"] == pytest.approx(14, abs=0.01) and rgb(diver) == (0, 128, 128)
    (deck.parent / "cards.csv").write_text("type,title,shade\ndeeper,Diver,tael\ndeeper,Dart,tael\n")
    result = run_cli("build", deck, "--out", tmp_path / "again")
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[0] == (
        f"{deck.parent / 'cards.csv'}:2: rows 1-2: layouts.deeper.change.title.colour "
        f"({deck}:{line_of(deck, 'x: 12')}): "
        "expected a colour: a CSS colour name such as 'teal', or #rgb, #rrggbb, #rgba or #rrggbbaa ('#1f5f99', or "
        "'#1f5f9980' half see-through), or 'none' (got 'tael'); did you mean 'teal'?"), result.stderr


UNITS = """\
game: deck
title: Units
data: cards.csv
card:
  width: 2.5in
  height: "88.9mm"
  safe: 0.3cm
sheet:
  layout: fronts
face:
  layout:
    - type: rect
      x: 1cm
      y: 36pt
      width: 1.5in
      height: 20
      fill: "#ff8800"
      stroke_width: 0
    - type: rect
      x: "{{ cost }}cm"
      y: 50
      width: 5mm
      height: 0.5in
      fill: "#0000ff"
      stroke: "#000000"
      stroke_width: 2pt
    - type: text
      text: "{{ title }}"
      x: 5
      y: 70
      width: 50
      height: 10
      size: 5mm
"""


def test_lengths_in_inches_centimetres_and_points_land_where_their_millimetres_do(run_cli, tmp_path):
    deck = made(tmp_path, UNITS, "title,cost\nOne,1\nThree,3\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        corners = cards_of(page)  # 2.5in x 88.9mm: the poker card's 63.5 x 88.9 mm
        rects, chars = page.rects, page.chars
    assert len(corners) == 2
    for (left, top), cost in zip(corners, (1, 3)):
        mine = [r for r in rects if left - 0.01 <= r["x0"] / MM < left + CARD_W - 1]
        orange = [r for r in mine if rgb(r) == (255, 0x88, 0)]
        blue = [r for r in mine if rgb(r) == (0, 0, 255)]
        assert [(round(r["x0"] / MM - left, 2), round(r["top"] / MM - top, 2), round(r["width"] / MM, 2),
                 round(r["height"] / MM, 2)) for r in orange] == [(10.0, 12.7, 38.1, 20.0)]
        # a templated length with its unit, read for each row: 1cm and 3cm from the card's left
        [bar] = blue
        assert (bar["x0"] + bar["x1"]) / 2 / MM - left == pytest.approx(10 * cost + 2.5, abs=0.02)
        assert bar["height"] / MM == pytest.approx(12.7, abs=0.02)
        assert bar["linewidth"] == pytest.approx(2, abs=0.01)
    # a type size written in millimetres: 5 mm is 14.17 pt
    assert {round(c["size"], 2) for c in chars if c["size"] > 10} == {round(5 * MM, 2)}
    assert "".join(c["text"] for c in chars if c["size"] > 10) == "OneThree"


COLOURS = """\
game: deck
title: Glass
data: cards.csv
sheet:
  layout: fronts
face:
  background: white
  layout:
    - type: rect
      x: 5
      y: 5
      width: 20
      height: 10
      fill: teal
      stroke: none
    - type: rect
      x: 30
      y: 5
      width: 20
      height: 10
      fill: "#f80"
      stroke: none
    - type: rect
      x: 5
      y: 20
      width: 20
      height: 10
      fill: "#0000ff80"
      stroke: none
    - type: rect
      x: 30
      y: 20
      width: 20
      height: 10
      fill: "#000"
      stroke: DarkRed
      stroke_width: 1
      opacity: 0.25
    - type: text
      text: "{{ title }}"
      x: 5
      y: 40
      width: 50
      height: 10
      size: 14
      colour: rebeccapurple
      opacity: "{{ '50%' if title == 'Faint' else 1 }}"
"""


def test_css_names_short_hex_and_transparency_reach_pdf_svg_and_png(run_cli, tmp_path):
    deck = made(tmp_path, COLOURS, "title\nSolid\nFaint\n")
    result = run_cli("build", deck, "--out", tmp_path / "out", "--png")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "deck"
    with pdfplumber.open(out / "deck.pdf") as pdf:
        page = pdf.pages[0]
        fills = {rgb(r) for r in page.rects}
        faint = {tuple(round(v * 255) for v in c["non_stroking_color"]) for c in page.chars if c["size"] > 13}
    assert {(0, 128, 128), (255, 0x88, 0), (0, 0, 255), (0, 0, 0), (255, 255, 255)} <= fills
    assert faint == {(0x66, 0x33, 0x99)}
    # the alpha is real: ExtGState /ca (fill) and /CA (stroke) in the sheet's resources
    states = [dict(state) for state in PdfReader(out / "deck.pdf").pages[0]["/Resources"]["/ExtGState"].values()]
    fill_alpha = {round(float(s["/ca"]), 3) for s in states if "/ca" in s}
    stroke_alpha = {round(float(s["/CA"]), 3) for s in states if "/CA" in s}
    assert {0.502, 0.25, 0.5} <= fill_alpha and 0.25 in stroke_alpha
    # the SVG: fill-opacity and stroke-opacity
    faint_svg = etree.parse(str(out / "svg" / "faint.svg")).getroot()
    rects = {(r.get("fill"), r.get("fill-opacity"), r.get("stroke"), r.get("stroke-opacity"))
             for r in faint_svg.iter(f"{SVG}rect")}
    assert {("#008080", None, None, None), ("#ff8800", None, None, None), ("#0000ff", "0.502", None, None),
            ("#000000", "0.25", "#8b0000", "0.25")} <= rects
    assert {t.get("fill-opacity") for t in faint_svg.iter(f"{SVG}text")} == {"0.5"}
    solid_svg = etree.parse(str(out / "svg" / "solid.svg")).getroot()
    assert {t.get("fill-opacity") for t in solid_svg.iter(f"{SVG}text")} == {None}
    # the PNG: the see-through fills blended with the white card under them
    picture = Image.open(out / "png" / "faint.png").convert("RGB")
    per_mm = picture.width / CARD_W

    def at(x: float, y: float) -> tuple[int, ...]:
        return picture.getpixel((int(x * per_mm), int(y * per_mm)))

    assert at(15, 10) == (0, 128, 128)
    assert all(abs(a - b) <= 2 for a, b in zip(at(15, 25), (127, 127, 255)))
    assert all(abs(a - b) <= 2 for a, b in zip(at(40, 25), (191, 191, 191)))


MISTAKES = """\
game: deck
title: Typos
data: cards.csv
face:
  layout:
    - type: text
      text: "{{ nmae }} costs {{ cost }}"
      x: 5
      y: 5
      width: 40
      height: 8
    - type: rect
      x: 5
      y: 20
      width: 10
      height: 10
      fill: "{{ colour }}"
"""


def test_a_misspelt_column_is_one_message_naming_the_rows_the_columns_and_the_nearest(run_cli, tmp_path):
    deck = made(tmp_path, MISTAKES, "name,cost,colour\nA,1,red\nB,2,red\nC,3,blue\nD,4,red\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        f"{deck.parent / 'cards.csv'}:2: rows 1-4: face.layout[0].text ({deck}:{line_of(deck, 'nmae')}): 'nmae' is "
        "not a column; the columns are name, cost, colour (and row, number, copies and card); did you mean 'name'?",
        "printgen: 1 problem found; nothing was written."], result.stderr


def test_a_bad_size_does_not_hide_bad_fills_and_lengths(run_cli, tmp_path):
    deck = made(tmp_path, MISTAKES.replace("      height: 8\n", "      height: 8\n      size: 5\n")
                .replace('fill: "{{ colour }}"', 'fill: redd\n      stroke: "#ff000"').replace("y: 20", "y: 2 inch")
                .replace("data: cards.csv", "data: cards.csv\ncard:\n  size: pokr"),
                "name,cost,colour\nA,1,red\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    colour = ("expected a colour: a CSS colour name such as 'teal', or #rgb, #rrggbb, #rgba or #rrggbbaa "
              "('#1f5f99', or '#1f5f9980' half see-through), or 'none'")
    assert result.stderr.splitlines() == [
        f"{deck}:5: card.size: expected a card size: poker, bridge, tarot, mini, square, euro, mini-euro, domino, "
        "business, jumbo, token; or leave size out and give width and height, such as width: 70 and height: "
        "'4.5in' (got 'pokr'); did you mean 'poker'?",
        f"{deck}:{line_of(deck, 'size: 5')}: face.layout[0].size: {SIZE}",
        f"{deck}:{line_of(deck, 'y: 2 inch')}: face.layout[1].y: expected a length: a number of millimetres, or a "
        "number with its unit (mm, cm, in or pt), such as 12.5, '2.5in', '6.35cm', '18pt' or '4mm' (got '2 inch')",
        f"{deck}:{line_of(deck, 'redd')}: face.layout[1].fill: {colour} (got 'redd'); did you mean 'red'?",
        f"{deck}:{line_of(deck, '#ff000')}: face.layout[1].stroke: {colour} (got '#ff000')",
        "printgen: 5 problems found; nothing was written."], result.stderr


def test_a_colour_or_length_a_template_makes_wrong_is_told_in_the_same_words_at_its_rows(run_cli, tmp_path):
    deck = made(tmp_path, MISTAKES.replace("nmae", "name").replace("x: 5\n      y: 5", 'x: "{{ cost }}px"\n      y: 5'),
                "name,cost,colour\nA,1,red\nB,2,gren\nC,3,gren\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    rows = deck.parent / "cards.csv"
    fill, x = line_of(deck, "fill:"), line_of(deck, "px")
    assert f"{rows}:3: rows 2-3: face.layout[1].fill ({deck}:{fill}): expected a colour: a CSS colour name " \
           "such as 'teal', or #rgb, #rrggbb, #rgba or #rrggbbaa ('#1f5f99', or '#1f5f9980' half see-through), " \
           "or 'none' (got 'gren'); did you mean 'green'?" in result.stderr.splitlines(), result.stderr
    assert f"{rows}:2: row 1: face.layout[0].x ({deck}:{x}): expected a length: a number of millimetres, or a " \
           "number with its unit (mm, cm, in or pt), such as 12.5, '2.5in', '6.35cm', '18pt' or '4mm' " \
           "(got '1px')" in result.stderr.splitlines(), result.stderr


def test_problems_of_every_stage_come_in_one_run(run_cli, tmp_path):
    """A missing icon, a missing template, a misspelt column and an expression failing on every row:
    each stage's problems are told together, a fault every row meets alike once."""
    deck = made(tmp_path, MISTAKES.replace("face:\n", "icons:\n  gem: nothere.svg\nface:\n  template: gone.svg.j2\n")
                .replace('fill: "{{ colour }}"', 'fill: "{{ colour.nothing }}"'),
                "name,cost,colour\nA,1,red\nB,2,red\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    rows = deck.parent / "cards.csv"
    assert result.stderr.splitlines() == [
        f"{rows}:2: rows 1-2: face.layout[0].text ({deck}:{line_of(deck, 'nmae')}): 'nmae' is not a column; the "
        "columns are name, cost, colour (and row, number, copies and card); did you mean 'name'?",
        f"{rows}:2: rows 1-2: face.layout[1].fill ({deck}:{line_of(deck, 'nothing')}): template error: 'str object' "
        "has no attribute 'nothing'",
        f"{deck}:{line_of(deck, 'gem:')}: icons.gem: expected a file, but {deck.parent / 'nothere.svg'} does not exist",
        f"{deck}:{line_of(deck, 'gone')}: face.template: expected a file, but {deck.parent / 'gone.svg.j2'} does not "
        "exist",
        "printgen: 4 problems found; nothing was written."], result.stderr
    assert not (tmp_path / "out").exists()


def test_a_colour_name_is_read_after_pillow_has_read_it_too(run_cli, deck, tmp_path):
    """Pillow's name table keeps an (r, g, b) in place of '#rrggbb' once its own getrgb has read the
    name (a picture made with Image.new(..., 'white') in the same process): the deck still reads it."""
    import pdfplumber
    from PIL import ImageColor

    ImageColor.getrgb("teal")
    text = deck.read_text()
    assert "colour:" in text  # the first text element's colour, written as a name
    first = text.index("colour:")
    end = text.index("\n", first)
    deck.write_text(text[:first] + "colour: teal" + text[end:])
    result = run_cli("build", deck, "--out", tmp_path / "out", "--no-pictures")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / deck.stem / f"{deck.stem}.pdf") as pdf:
        colours = {tuple(round(c, 3) for c in ch["non_stroking_color"]) for ch in pdf.pages[0].chars
                   if ch.get("non_stroking_color") and len(ch["non_stroking_color"]) == 3}
    assert (0.0, 0.502, 0.502) in colours
