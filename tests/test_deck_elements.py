"""Deck elements styled, turned and clipped (issue 34), each read back from what was built: the fonts,
sizes and colours of styled words, the angle of turned glyphs and the corners of a turned rectangle,
clip operators in the PDF and <clipPath> in the SVG, and pixels that a clip keeps unpainted."""
from __future__ import annotations

import csv
import io
import math
import shutil
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from lxml import etree
from PIL import Image
from pypdf import PdfReader


MM = 72 / 25.4
SVG = "{http://www.w3.org/2000/svg}"
STYLED = ('<b>Deal 2</b> damage to <i>any</i> card. <font color="#c00000" size="14">Burn</font> it, '
          '<u>then</u> a < b & <b>:flask:</b> done.')



def set_cell(deck: Path, row: int, column: str, value: str) -> None:
    """Row `row` (1 = the first after the header) gets `value` in `column`, quoted as CSV needs."""
    path = deck.parent / "cards.csv"
    rows = list(csv.reader(io.StringIO(path.read_text())))
    rows[row][rows[0].index(column)] = value
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path.write_text(buffer.getvalue())


def add_to_face(deck: Path, yaml: str) -> None:
    """Elements appended to the face's layout (the face layout ends where `back:` starts)."""
    text = deck.read_text()
    deck.write_text(text.replace("\nback:\n", "\n" + yaml.rstrip("\n") + "\nback:\n", 1))


def line_of(deck: Path, snippet: str) -> int:
    return next(n for n, line in enumerate(deck.read_text().splitlines(), 1) if snippet in line)


def build(run_cli, deck: Path, out: Path, *args: str) -> Path:
    result = run_cli("build", deck, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return out / "deck"


def words(page) -> dict[str, dict]:
    """The page's words by text (the first of each), with font, size and colour."""
    found: dict[str, dict] = {}
    for word in page.extract_words(extra_attrs=["fontname", "size", "non_stroking_color"]):
        found.setdefault(word["text"], word)
    return found


def angle(char: dict) -> float:
    """The angle a glyph is turned on the page, degrees anticlockwise (PDF space is y up)."""
    a, b = char["matrix"][:2]
    return round(math.degrees(math.atan2(b, a)), 1)


def test_styled_words_print_bold_italic_coloured_and_larger(run_cli, deck, tmp_path):
    """Markup in a CSV cell styles its words; a tag printgen does not take, and a lone <, print."""
    set_cell(deck, 1, "text", STYLED)
    set_cell(deck, 1, "title", "Ember <i>Tonic</i>")  # the title's element is bold
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        found = words(pdf.pages[0])
        text = pdf.pages[0].extract_text()
    assert found["Ember"]["fontname"].endswith("VeraSans-Bold")
    assert found["Tonic"]["fontname"].endswith("VeraSans-BoldOblique")
    assert "Bold" in found["Deal"]["fontname"] and "Bold" in found["2"]["fontname"]
    assert "Oblique" in found["any"]["fontname"]
    for plain in ("damage", "card.", "it,", "done."):
        assert found[plain]["fontname"].endswith("VeraSans-Roman"), (plain, found[plain]["fontname"])
        assert found[plain]["non_stroking_color"] == (0.0, 0.0, 0.0)
    burn = found["Burn"]
    assert burn["fontname"].endswith("VeraSans-Roman")
    assert [round(c, 2) for c in burn["non_stroking_color"]] == [0.75, 0.0, 0.0]
    assert burn["size"] == pytest.approx(found["damage"]["size"] * 1.4, abs=0.01)
    assert {"<u>then</u>", "<", "&"} <= set(found)
    assert "<b>" not in text and "<font" not in text


def test_written_out_tags_print_as_text_and_never_become_markup(run_cli, deck, tmp_path):
    """&lt; is how a cell prints a tag: it is read after the tags are, so it cannot make one."""
    set_cell(deck, 1, "text", "&lt;b>plain&lt;/b> &amp;lt; <b>bold</b> R&D")
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        found = words(pdf.pages[0])
    assert found["<b>plain</b>"]["fontname"].endswith("VeraSans-Roman")
    assert "&lt;" in found and "R&D" in found
    assert "Bold" in found["bold"]["fontname"]


def test_styled_text_shrinks_with_its_sizes_in_proportion_and_never_under_7_pt(run_cli, deck, tmp_path):
    long = " ".join([STYLED] * 3)
    set_cell(deck, 1, "text", long)
    folder = build(run_cli, deck, tmp_path / "out")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        page = pdf.pages[0]
        found = words(page)
        sizes = {round(c["size"], 2) for c in page.chars if c["upright"]}
    plain, burn = found["damage"]["size"], found["Burn"]["size"]
    assert 7.5 - 1e-6 <= plain < 10  # shrunk from 10 pt, not under the element's min_size
    assert burn == pytest.approx(plain * 1.4, abs=0.01)
    assert min(sizes) >= 7
    # a span of 7 pt cannot shrink with the rest, so the text is too long for the box
    set_cell(deck, 1, "text", long.replace('size="14"', 'size="7"'))
    result = run_cli("build", deck, "--out", tmp_path / "small")
    assert result.exit_code == 2, result.output
    assert "cards.csv:2: row 1: face.layout[6].text (" in result.stderr
    assert ('the text does not fit its 53.5 x 22 mm box at any size its <font size="7"> words allow, since '
            'they shrink with the rest and no glyph prints under 7 pt') in result.stderr, result.stderr


@pytest.mark.parametrize("cell, said", [
    ("Draw <b>two cards", "the <b> opened at character 6 is never closed"),
    ("Draw </i> cards", "the </i> at character 6 closes nothing; write a plain < as &lt;"),
    ("<b><i>Draw</b></i>", "the </b> at character 11 comes before the <i> opened at character 4 is "
                           "closed; close tags in the reverse order"),
    ('<font colour="red">Draw</font>', "the <font> at character 1: expected a colour as #rrggbb (got 'red')"),
    ('<font size="5">Draw</font>', "the <font> at character 1: expected a size from 7 to 72 points, as no "
                                   "glyph prints under 7 (got '5')"),
])
def test_markup_that_cannot_be_read_is_located_at_the_row_and_element(run_cli, deck, tmp_path, cell, said):
    set_cell(deck, 3, "text", cell)
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    layout_line = line_of(deck, 'text: "{{ text }}"')
    assert result.stderr.splitlines()[0] == \
        f"{deck.parent / 'cards.csv'}:4: row 3: face.layout[6].text ({deck}:{layout_line}): {said}"
    assert not (tmp_path / "out").exists()


def test_markup_written_in_the_definition_is_checked_at_its_line(run_cli, deck, tmp_path):
    text = deck.read_text()
    deck.write_text(text.replace("      text: Potion Shop\n", "      text: Potion <b>Shop\n", 1))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert f"{deck}:{line_of(deck, 'Potion <b>Shop')}: back.layout[1].text: the <b> opened at character 8 " \
           f"is never closed" in result.stderr, result.stderr


def test_a_fault_in_a_templated_text_that_every_row_shares_is_told_once(run_cli, deck, tmp_path):
    """Markup broken in the layout's own template text breaks every card alike: one message naming
    the rows, not one a row (and again for each card's picture)."""
    deck.write_text(deck.read_text().replace('      text: "{{ cost }}"\n', '      text: "<b>{{ cost }}"\n', 1))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    told = [line for line in result.stderr.splitlines() if "never closed" in line]
    assert told == [f"{deck.parent / 'cards.csv'}:2: rows 1-8: face.layout[3].text ({deck}:{line_of(deck, '<b>{{ cost }}')}): "
                    f"the <b> opened at character 1 is never closed"], result.stderr
    assert "1 problem found" in result.stderr


def test_bold_in_a_font_file_is_a_located_error(run_cli, deck, tmp_path):
    """A .ttf file is one face: bold asked of it is told, not faked with another font."""
    import reportlab

    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf", deck.parent / "body.ttf")
    deck.write_text(deck.read_text().replace("      size: 10\n      min_size: 7.5\n",
                                             "      size: 10\n      min_size: 7.5\n      font: body.ttf\n", 1))
    set_cell(deck, 2, "text", "<b>Freeze</b> a rival card.")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert (f"cards.csv:3: row 2: face.layout[6].font ({deck}:{line_of(deck, 'font: body.ttf')}): the text "
            f"asks for bold (<b>), and body.ttf is one TrueType file with no bold face") in result.stderr, \
        result.stderr


TURNED = """    - type: text
      text: "Tier {{ cost }}"
      x: 9
      y: 40
      width: 20
      height: 5
      size: 8
      rotate: "{{ -90 + cost }}"
      origin: [9, 45]
    - type: rect
      x: 20
      y: 60
      width: 20
      height: 8
      fill: "#b03a2e"
      rotate: 30
"""


def test_rotated_text_and_shapes_turn_clockwise_about_their_origin(run_cli, deck, tmp_path):
    add_to_face(deck, TURNED)
    folder = build(run_cli, deck, tmp_path / "out")
    with open(deck.parent / "cards.csv", newline="", encoding="utf-8") as f:
        costs = {row["title"]: int(row["cost"]) for row in csv.DictReader(f)}
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        tiers = [c for page in pdf.pages[0::2] for c in page.chars if abs(angle(c)) > 1]
        # -90 + cost degrees clockwise on the card is 90 - cost anticlockwise in PDF space
        assert tiers and {angle(c) for c in tiers} == {90.0 - cost for cost in costs.values()}
        page = pdf.pages[0]
        turned = [c for c in page.curves if c["fill"] and len(c["pts"]) == 5
                  and [round(v, 3) for v in c["non_stroking_color"]] == [0.69, 0.227, 0.18]]
        assert turned
        for shape in turned:
            (x0, t0), (x1, t1), (x2, t2) = shape["pts"][:3]
            # pts are (x, top): y grows down the page, as on the card, so clockwise is a positive angle
            assert math.degrees(math.atan2(t1 - t0, x1 - x0)) == pytest.approx(30, abs=0.01)
            assert math.hypot(x1 - x0, t1 - t0) / MM == pytest.approx(20, abs=0.01)
            assert math.hypot(x2 - x1, t2 - t1) / MM == pytest.approx(8, abs=0.01)
            centre = ((x0 + x2) / 2, (t0 + t2) / 2)  # turned about its own centre, which stays put
            band = next(r for r in page.rects + page.curves if abs((r["x1"] - r["x0"]) / MM - 57.5) < 0.05
                        and r["x0"] <= centre[0] <= r["x1"] and 0 < centre[1] - r["top"] < 80 * MM)
            card = (band["x0"] / MM - 3, band["top"] / MM - 3)  # the title band is 3 mm inside the card
            assert (centre[0] / MM - card[0], centre[1] / MM - card[1]) == pytest.approx((30, 64), abs=0.01)


def test_text_turned_out_of_the_safe_area_is_located(run_cli, deck, tmp_path):
    add_to_face(deck, TURNED.replace('"{{ -90 + cost }}"', "180"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert (f"cards.csv:2: rows 1-8: face.layout[9].rotate ({deck}:{line_of(deck, 'rotate: 180')}): the text box "
            f"(9, 40, 20 x 5 mm) turned as it is leaves the safe area, 3 mm inside the cut") in result.stderr


CLIPPED = """    - type: rect
      x: 10
      y: 60
      width: 20
      height: 20
      fill: "#b03a2e"
      clip: {type: ellipse, x: 10, y: 60, width: 20, height: 20}
    - type: rect
      x: 55
      y: 30
      width: 30
      height: 6
      fill: "#b03a2e"
      clip: card
"""


def operators(page) -> str:
    """The page's drawing operators, with those of every form it places (a card with copies)."""
    found = [page.get_contents().get_data().decode("latin-1")]
    forms = list((page["/Resources"].get("/XObject") or {}).values())
    while forms:
        form = forms.pop().get_object()
        if form.get("/Subtype") == "/Form":
            found.append(form.get_data().decode("latin-1"))
            forms += list((form.get("/Resources", {}).get("/XObject") or {}).values())
    return "\n".join(found)


def red(pixel: tuple[int, ...]) -> bool:
    return pixel[0] > 150 and pixel[1] < 90 and pixel[2] < 90


def test_clipped_shapes_paint_only_inside_their_clip_in_pdf_png_and_svg(run_cli, deck, tmp_path):
    add_to_face(deck, CLIPPED)
    deck.write_text(deck.read_text().replace("  cut: marks ", "  gap: 6\n  cut: marks ", 1))
    folder = build(run_cli, deck, tmp_path / "out", "--png")
    content = operators(PdfReader(folder / "deck.pdf").pages[0])
    assert content.count(" W n") >= 2 * 2  # two clips a face, each form (a card with copies) once
    picture = Image.open(folder / "png" / "ember-tonic.png").convert("RGB")
    scale = picture.width / 63.5  # pixels a mm
    at = lambda x, y: picture.getpixel((int(x * scale), int(y * scale)))  # noqa: E731
    assert red(at(20, 70))  # the circle's middle
    assert not red(at(11, 61)) and not red(at(29, 79))  # the square's corners, outside the circle
    assert red(at(62.5, 33))  # the bar up to the cut
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        page = pdf.pages[0]
        bands = sorted(r["x0"] for r in page.rects + page.curves if abs((r["x1"] - r["x0"]) / MM - 57.5) < 0.05)
        top = min(r["top"] for r in page.rects + page.curves if abs((r["x1"] - r["x0"]) / MM - 57.5) < 0.05)
        sheet = pypdfium2.PdfDocument(folder / "deck.pdf")[0].render(scale=4).to_pil().convert("RGB")
    px = 4  # pixels a point
    card_x, card_top = bands[0] / MM - 3, top / MM - 3
    y = (card_top + 33) * MM * px
    assert red(sheet.getpixel((int((card_x + 62.5) * MM * px), int(y))))
    assert not red(sheet.getpixel((int((card_x + 63.5 + 3) * MM * px), int(y))))  # past the bleed, in the gap
    svg = etree.parse(str(folder / "svg" / "ember-tonic.svg"))
    clips = {c.get("id"): c for c in svg.iter(f"{SVG}clipPath")}
    assert len(clips) == 2
    users = [g for g in svg.iter(f"{SVG}g") if g.get("clip-path")]
    assert {g.get("clip-path") for g in users} == {f"url(#{name})" for name in clips}
    assert all(any(child.tag == f"{SVG}rect" and child.get("fill") == "#b03a2e" for child in g.iter())
               for g in users)


def test_a_clip_that_cannot_be_drawn_is_located(run_cli, deck, tmp_path):
    add_to_face(deck, CLIPPED.replace("{type: ellipse, x: 10, y: 60, width: 20, height: 20}",
                                      "{type: ellipse, x: 10, radius: 2}")
                .replace("clip: card", "clip: {d: 'M 0 0 S 1 1'}"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    ellipse, path = line_of(deck, "radius: 2}"), line_of(deck, "S 1 1")
    assert f"{deck}:{ellipse}: face.layout[9].clip.radius: an ellipse clip takes no 'radius'" in result.stderr
    assert f"{deck}:{ellipse}: face.layout[9].clip: an ellipse clip needs 'width' and 'height' in mm" in result.stderr
    assert f"{deck}:{path}: face.layout[10].clip.d: 'S' is not read; draw curves with C or Q" in result.stderr
    deck.write_text(deck.read_text().replace("clip: {d: 'M 0 0 S 1 1'}", "clip: cards"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert (f"{deck}:{line_of(deck, 'clip: cards')}: face.layout[10].clip: expected card, or a shape such as "
            f"{{type: ellipse, x: 5, y: 5, width: 20, height: 20}} or {{d: 'M 0 0 L 10 0 L 5 8 Z'}} "
            f"(got 'cards')") in result.stderr, result.stderr


def test_a_turn_or_origin_a_template_makes_wrong_is_located_at_the_row(run_cli, deck, tmp_path):
    add_to_face(deck, TURNED.replace("rotate: 30", 'rotate: "{{ title }}"')
                .replace("origin: [9, 45]", 'origin: ["{{ kind }}", 45]'))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    rotate = line_of(deck, "rotate: \"{{ title }}")
    assert (f"cards.csv:2: row 1: face.layout[10].rotate ({deck}:{rotate}): "
            f"expected a number of degrees, clockwise (got 'Ember Tonic')") in result.stderr, result.stderr
    # the two fire potions share the fault word for word: told once, naming both rows
    assert (f"cards.csv:2: rows 1 and 6: face.layout[9].origin ({deck}:{line_of(deck, 'origin: [')}): expected "
            f"a length: a number of millimetres, or a number with its unit (mm, cm, in or pt), such as 12.5, "
            f"'2.5in', '6.35cm', '18pt' or '4mm' (got 'fire')") in result.stderr, result.stderr


def test_the_schema_editors_read_takes_the_new_keys(run_cli, deck):
    """An editor checking deck.yaml against `printgen schema deck` accepts what printgen builds."""
    import json

    import jsonschema
    from ruamel.yaml import YAML

    add_to_face(deck, CLIPPED + TURNED)
    schema = json.loads(run_cli("schema", "deck").stdout)
    jsonschema.validate(json.loads(json.dumps(YAML(typ="safe").load(deck.read_text()))), schema)
    element = schema["$defs"]["Element"]["properties"]
    assert {"rotate", "origin", "clip"} <= set(element)
    bad = deck.read_text().replace("clip: card", "clip: cards")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(json.loads(json.dumps(YAML(typ="safe").load(bad))), schema)
