"""A deck's pictures and fonts printed as the designer drew and named them, each read back from
the build: `<image>` in an SVG template measured in the PDF and the card's PNG for every kind of
`preserveAspectRatio`; font families under `fonts:` by the font names of styled words; template
font-family names warned at their line; glyphs a font only pretends to have refused; and each
user font embedded under a name of its own, so none can stand in for another."""
from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from tests.fontmaking import FONTS, composite_pointing_nowhere, renamed, vera

MM = 72 / 25.4
CARD_W, CARD_H = 63.5, 88.9
PNG_DPI = 150  # the cards' pictures in png/ (build --png)


def line_of(path: Path, text: str) -> int:
    return path.read_text().splitlines().index(next(l for l in path.read_text().splitlines() if text in l)) + 1


def layout_size(deck: Path) -> int:
    """How many elements the face's layout has, counted from the definition's text."""
    text = deck.read_text()
    face = text[text.index("\nface:\n"):text.index("\nback:\n")]
    return face.count("\n    - type:")


def build(run_cli, deck: Path, out: Path, *args: str):
    result = run_cli("build", deck, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return result, out / "deck"


def add_elements(deck: Path, elements: str, fonts: str = "") -> None:
    """Text elements at the end of the face's layout, and a `fonts:` block."""
    text = deck.read_text().replace("\nback:\n", "\n" + elements.rstrip("\n") + "\nback:\n", 1)
    deck.write_text(text + (f"fonts:\n{fonts}" if fonts else ""))


def text_element(text: str, font: str, y: float) -> str:
    return (f"    - type: text\n      text: \"{text}\"\n      font: {font}\n      x: 5\n      y: {y}\n"
            f"      width: 53\n      height: 6\n      size: 9\n")


def tag(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


# -- <image> in an SVG template ----------------------------------------------------------------------

def two_tone_svg(left: str, right: str) -> str:
    """A 20 x 10 picture: its left half one colour, its right half another."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10" width="20mm" height="10mm">'
            f'<rect width="10" height="10" fill="{left}"/><rect x="10" width="10" height="10" fill="{right}"/></svg>')


# name -> (preserveAspectRatio, box x, y; the picture's (left colour, right colour))
BOX = 18.0
CASES = {
    "meet": (None, 4, 4, ("#3c0a64", "#0a643c")),
    "min": ("xMinYMin meet", 22.75, 4, ("#503c0a", "#0a3c50")),
    "max": ("xMaxYMax", 41.5, 4, ("#64283c", "#28643c")),
    "none": ("none", 4, 26, ("#1e5078", "#78501e")),
    "slice": ("xMidYMid slice", 22.75, 26, ("#5a1e1e", "#1e5a1e")),
    "slice-left": ("xMinYMid slice", 41.5, 26, ("#14146e", "#6e1414")),
}
# where each picture is drawn in its BOX-mm box, as a browser draws it: (x, y, width, height), mm
EXPECTED = {"meet": (0, 4.5, 18, 9), "min": (0, 0, 18, 9), "max": (0, 9, 18, 9), "none": (0, 0, 18, 18),
            "slice": (0, 0, 18, 18), "slice-left": (0, 0, 18, 18)}


def image_template(deck: Path, kind: str) -> None:
    """A face template drawing every case, SVG pictures or PNG ones."""
    images = []
    for name, (aspect, x, y, (left, right)) in CASES.items():
        if kind == "svg":
            (deck.parent / f"{name}.svg").write_text(two_tone_svg(left, right))
        else:
            picture = Image.new("RGB", (200, 100), left)
            picture.paste(Image.new("RGB", (100, 100), right), (100, 0))
            picture.save(deck.parent / f"{name}.png")
        par = f' preserveAspectRatio="{aspect}"' if aspect else ""
        images.append(f'  <image href="{name}.{kind}" x="{x}" y="{y}" width="{BOX:g}" height="{BOX:g}"{par}/>')
    (deck.parent / "face.svg.j2").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="{{ card.width }}mm" height="{{ card.height }}mm"\n'
        '     viewBox="0 0 {{ card.width }} {{ card.height }}">\n' + "\n".join(images) + "\n</svg>\n")
    template_alone(deck)


def template_alone(deck: Path) -> None:
    """The face drawn by face.svg.j2 alone over white, no layout over it."""
    text = deck.read_text()
    start, end = text.index("\nface:\n"), text.index("\nback:\n")
    deck.write_text(text[:start] + "\nface:\n  template: face.svg.j2\n  background: '#ffffff'\n  layout: []" + text[end:])


def colour_box(picture: Image.Image, colour: str) -> tuple[float, float, float, float] | None:
    """(x, y, width, height) in mm from the card's top-left of the pixels of `colour`."""
    target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mask = Image.new("1", picture.size)
    mask.putdata([all(abs(a - b) <= 2 for a, b in zip(p, target)) for p in picture.convert("RGB").getdata()])
    box = mask.getbbox()
    if box is None:
        return None
    per_mm = PNG_DPI / 25.4
    return box[0] / per_mm, box[1] / per_mm, (box[2] - box[0]) / per_mm, (box[3] - box[1]) / per_mm


@pytest.mark.parametrize("kind", ["svg", "png"])
def test_template_images_are_drawn_where_svg_puts_them(run_cli, deck, tmp_path, kind):
    """Each picture in its box at the size and place preserveAspectRatio gives it: measured in the
    card's PNG (what prints, clipping included), and for SVG pictures in the PDF's own shapes."""
    image_template(deck, kind)
    _, folder = build(run_cli, deck, tmp_path / "out", "--png")
    picture = Image.open(folder / "png" / "ember-tonic.png")
    assert picture.size == (round(CARD_W / 25.4 * PNG_DPI), round(CARD_H / 25.4 * PNG_DPI))
    tolerance = 2.5 * 25.4 / PNG_DPI  # two pixels and a half of anti-aliasing
    for name, (_, x, y, (left, right)) in CASES.items():
        ex, ey, ew, eh = EXPECTED[name]
        seen = [colour_box(picture, c) for c in (left, right)]
        if name == "slice-left":  # 36 mm wide from the box's left edge: only its left half shows
            assert seen[1] is None or seen[1][2] < 0.4, (name, seen)  # at most a pixel at the clip's edge
            lx, ly, lw, lh = seen[0]
            assert (lx, ly, lw, lh) == pytest.approx((x, y, BOX, BOX), abs=tolerance), name
            continue
        (lx, ly, lw, lh), (rx, ry, rw, rh) = seen
        found = (lx, ly, rx + rw - lx, max(lh, rh))
        assert found == pytest.approx((x + ex, y + ey, ew, eh), abs=tolerance), (name, found)
    if kind == "svg":  # in the PDF: the left halves as the vector shapes they are
        with pdfplumber.open(folder / "deck.pdf") as pdf:
            page = pdf.pages[0]
            shapes = {name: [r for r in page.rects + page.curves if r.get("non_stroking_color") and
                             tuple(round(c * 255) for c in r["non_stroking_color"]) ==
                             tuple(int(left[i:i + 2], 16) for i in (1, 3, 5))]
                      for name, (_, _, _, (left, _)) in CASES.items()}
            widths = {name: round((found[0]["x1"] - found[0]["x0"]) / MM, 2) for name, found in shapes.items()}
        # half the picture: 9 mm wide met in the box, 18 mm for slice (the clip cuts what shows)
        assert widths == {"meet": 9, "min": 9, "max": 9, "none": 9, "slice": 18, "slice-left": 18}


def test_an_image_with_one_side_given_keeps_the_picture_proportions(run_cli, deck, tmp_path):
    (deck.parent / "wide.svg").write_text(two_tone_svg("#123456", "#123457"))
    (deck.parent / "face.svg.j2").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="{{ card.width }}mm" height="{{ card.height }}mm"\n'
        '     viewBox="0 0 {{ card.width }} {{ card.height }}">\n'
        '  <image href="wide.svg" x="11.75" y="18" width="40"/>\n</svg>\n')
    template_alone(deck)
    _, folder = build(run_cli, deck, tmp_path / "out", "--png")
    picture = Image.open(folder / "png" / "ember-tonic.png")
    left, right = colour_box(picture, "#123456"), colour_box(picture, "#123457")
    assert left is not None and right is not None
    assert (left[0], left[1], right[0] + right[2] - left[0], left[3]) == pytest.approx((11.75, 18, 40, 20), abs=0.5)


# -- font-family in templates --------------------------------------------------------------------

TEXT_TEMPLATE = """<svg xmlns="http://www.w3.org/2000/svg" width="{{ card.width }}mm" height="{{ card.height }}mm"
     viewBox="0 0 {{ card.width }} {{ card.height }}">
  <!-- the designer's own narrow face -->
  <text x="6" y="70" font-size="4" font-family="FAMILY" font-weight="bold">Stamp</text>
</svg>
"""


def test_a_font_family_not_available_is_a_warning_at_the_template_line(run_cli, deck, tmp_path):
    (deck.parent / "face.svg.j2").write_text(TEXT_TEMPLATE.replace("FAMILY", "Liberation Sans Narrow"))
    deck.write_text(deck.read_text().replace("face:\n  background:", "face:\n  template: face.svg.j2\n  background:"))
    result, folder = build(run_cli, deck, tmp_path / "out")
    assert (f"face.svg.j2:4: warning: font-family 'Liberation Sans Narrow' is not available, so its text is "
            f"drawn in Bitstream Vera Sans Bold; name a font file for it under the deck's fonts:") in result.output, \
        result.output
    assert result.output.count("Liberation Sans Narrow' is not") == 1  # once, not once a card
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        stamp = [w for w in pdf.pages[0].extract_words(extra_attrs=["fontname"]) if w["text"] == "Stamp"]
    assert stamp and {w["fontname"] for w in stamp} == {"AAAAAA+BitstreamVeraSans-Bold"}


def test_a_font_family_names_a_font_under_fonts(run_cli, deck, tmp_path):
    """`font-family="Narrow"` is the deck's `fonts: {Narrow: ...}`, bold from its bold file."""
    (deck.parent / "face.svg.j2").write_text(TEXT_TEMPLATE.replace("FAMILY", "Narrow"))
    deck.write_text(deck.read_text().replace("face:\n  background:", "face:\n  template: face.svg.j2\n  background:")
                    + "fonts:\n  Narrow: {regular: narrow.ttf, bold: narrow-bold.ttf}\n")
    shutil.copy(FONTS / "VeraIt.ttf", deck.parent / "narrow.ttf")
    shutil.copy(FONTS / "VeraBI.ttf", deck.parent / "narrow-bold.ttf")
    result, folder = build(run_cli, deck, tmp_path / "out")
    assert "font-family" not in result.output, result.output
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        stamp = [w for w in pdf.pages[0].extract_words(extra_attrs=["fontname"]) if w["text"] == "Stamp"]
    assert stamp and {w["fontname"] for w in stamp} == {
        f"AAAAAA+BitstreamVeraSans-BoldOblique-{tag(vera('BI'))}"}


# -- font families --------------------------------------------------------------------------------

def test_bold_and_italic_words_use_the_faces_of_a_family(run_cli, deck, tmp_path):
    for face in ("", "Bd", "It", "BI"):
        (deck.parent / f"body{face}.ttf").write_bytes(vera(face))
    add_elements(deck, text_element("Plain <b>Strong</b> <i>Lean</i> <b><i>Both</i></b>", "Body", 60)
                 + text_element("Alone <b>Loud</b>", "Solo", 67),
                 "  Body: {regular: body.ttf, bold: bodyBd.ttf, italic: bodyIt.ttf, bold_italic: bodyBI.ttf}\n"
                 "  Solo: bodyIt.ttf\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    line = line_of(deck, "Alone <b>Loud</b>")
    assert result.exit_code == 2
    assert (f"{deck}:{line + 1}: face.layout[{layout_size(deck) - 1}].font: the text asks for bold (<b>), and the font Solo under "
            f"fonts: has no bold face; add 'bold: <its bold file>.ttf' to fonts.Solo") in result.output, result.output
    deck.write_text(deck.read_text().replace("Alone <b>Loud</b>", "Alone Loud"))
    _, folder = build(run_cli, deck, tmp_path / "built")
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        words = {w["text"]: w for w in pdf.pages[0].extract_words(extra_attrs=["fontname", "size"])}
    expected = {"Plain": ("Roman", ""), "Strong": ("Bold", "Bd"), "Lean": ("Oblique", "It"),
                "Both": ("BoldOblique", "BI"), "Alone": ("Oblique", "It")}
    for word, (style, face) in expected.items():
        assert words[word]["fontname"] == f"AAAAAA+BitstreamVeraSans-{style}-{tag(vera(face))}", word
        assert words[word]["size"] == pytest.approx(9)


def test_a_missing_face_file_is_located_at_its_key(run_cli, deck, tmp_path):
    (deck.parent / "body.ttf").write_bytes(vera())
    add_elements(deck, text_element("Plain", "Body", 60), "  Body:\n    regular: body.ttf\n    bold: nothere.ttf\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert re.search(rf"deck\.yaml:{line_of(deck, 'nothere.ttf')}: fonts\.Body\.bold: expected a file, but "
                     rf"\S*nothere\.ttf does not exist", result.output), result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


# -- glyphs ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("font", ["regular", "Mine"])
def test_a_character_the_font_draws_as_its_empty_box_is_refused(run_cli, deck, tmp_path, font):
    """Vera lists Ď in its character map but draws it with glyph 0, the empty box: refused for
    printgen's own face and for the designer's copy of it alike, at the row and element."""
    (deck.parent / "mine.ttf").write_bytes(vera())
    # made by Jinja from an escape, as a CSV cell would bring it: a literal in the YAML is checked
    # against printgen's own font before any font loads
    add_elements(deck, text_element("{{ '\\\\u010e' ~ title }}", font, 60), "  Mine: mine.ttf\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert re.search(r"cards\.csv:2: rows 1-8: face\.layout\[\d+\]\.text \(\S*deck\.yaml:\d+\): 'Ď' \(U\+010E "
                     r"LATIN CAPITAL LETTER D WITH CARON\) is not in the font it is printed in", result.output), result.output


def test_printable_glyphs_leave_out_notdef_and_its_copies():
    from reportlab.pdfbase.ttfonts import TTFontFile

    from printgen.core.fontfiles import printable
    from printgen.core.textcheck import drawable

    face = TTFontFile(str(FONTS / "Vera.ttf"))
    boxes = {c for c, g in face.charToGlyph.items() if g == 0}
    assert {ord(c) for c in "ĎĐ∅―‣"} <= boxes and len(boxes) == 27  # listed, drawn as the box
    assert not boxes & printable(face) and not boxes & drawable()
    assert {ord(c) for c in "AéÆ€ "} <= drawable()


# -- fonts known by their file --------------------------------------------------------------------

def font_programs(pdf: Path) -> dict[str, int]:
    """BaseFont -> the object number of its embedded font program, for every font in the PDF."""
    found = {}
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = font["/FontDescriptor"].get_object().raw_get("/FontFile2").idnum
    return found


def test_a_user_font_named_like_printgens_own_cannot_replace_it(run_cli, deck, tmp_path):
    """A bold font calling itself BitstreamVeraSans-Roman, printgen's regular face's own name: both
    are embedded, each with its own program and name, so regular text stays regular."""
    impostor = renamed(vera("Bd"), "Bitstream Vera Sans", "BitstreamVeraSans-Roman")
    twin = renamed(vera("It"), "Bitstream Vera Sans", "BitstreamVeraSans-Roman")  # and another user font
    (deck.parent / "impostor.ttf").write_bytes(impostor)
    (deck.parent / "twin.ttf").write_bytes(twin)
    add_elements(deck, text_element("Cost 7", "Impostor", 60) + text_element("Slant 5", "Twin", 67),
                 "  Impostor: impostor.ttf\n  Twin: twin.ttf\n")
    _, folder = build(run_cli, deck, tmp_path / "out")
    programs = font_programs(folder / "deck.pdf")
    own, theirs = "/AAAAAA+BitstreamVeraSans-Roman", f"/AAAAAA+BitstreamVeraSans-Roman-{tag(impostor)}"
    other = f"/AAAAAA+BitstreamVeraSans-Roman-{tag(twin)}"
    assert {own, theirs, other} <= programs.keys() and len({programs[own], programs[theirs], programs[other]}) == 3, programs
    assert len(set(programs.values())) == len(programs)  # no two fonts share one program
    with pdfplumber.open(folder / "deck.pdf") as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["fontname"])
    assert {w["fontname"] for w in words if w["text"] == "7"} == {theirs[1:]}
    assert {w["fontname"] for w in words if w["text"] == "5"} == {other[1:]}
    assert {w["fontname"] for w in words if w["text"] == "Each"} == {own[1:]}  # the sample's rules text


def test_a_font_damaged_beyond_ascii_is_a_located_error(run_cli, deck, tmp_path):
    """Its ASCII embeds, its é cannot: told at the font's key with exit 2, not inside the PDF writer."""
    (deck.parent / "broken.ttf").write_bytes(composite_pointing_nowhere(vera()))
    add_elements(deck, text_element("Café", "Broken", 60), "  Broken: broken.ttf\n")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert re.search(rf"deck\.yaml:{line_of(deck, 'Broken: broken.ttf')}: fonts\.Broken\.regular: broken\.ttf is "
                     r"not a TrueType font printgen can embed", result.output), result.output
    assert "internal error" not in result.output


def test_template_text_in_a_deck_font_is_asked_of_that_font(run_cli, deck, tmp_path):
    """Text a template sets in one of the deck's fonts is checked against that font's glyphs, not
    printgen's: a font without an S cannot print "Stamp"."""
    (deck.parent / "face.svg.j2").write_text(TEXT_TEMPLATE.replace("FAMILY", "Khmer").replace(' font-weight="bold"', ""))
    deck.write_text(deck.read_text().replace("face:\n  background:", "face:\n  template: face.svg.j2\n  background:")
                    + "fonts:\n  Khmer: khmer.ttf\n")
    shutil.copy(FONTS / "hb-test.ttf", deck.parent / "khmer.ttf")
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert re.search(r"cards\.csv:2: rows 1-8: face\.template \(\S*deck\.yaml:\d+\): the SVG it made for this row: its "
                     r"text has 'S' \(U\+0053 LATIN CAPITAL LETTER S\), which the font-family Khmer \(regular "
                     r"face\) does not have", result.output), result.output


def test_text_svglib_sets_in_a_user_font_is_asked_of_that_font(tmp_path):
    """The check piece templates and deck templates share: a word svglib set in a user's font (by
    the family name inside the file) is refused where that font draws no glyph for a letter."""
    from printgen.art.library import register_user_font
    from printgen.art.svg import convert, embedded_fonts, missing_in_user_font

    registered = register_user_font(tmp_path / "fake.ttf", renamed((FONTS / "hb-test.ttf").read_bytes(), "Fakey", "Fakey-Regular"))
    font_map = embedded_fonts({registered: "Fakey"}, told=True)
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text font-family="Fakey" x="1" y="5">Hi</text></svg>'
    drawing, notes = convert(tmp_path / "t.svg", svg, None, font_map)
    shapes, strings = list(drawing.getContents()), []
    while shapes:  # every String in the drawing's groups
        shape = shapes.pop()
        shapes.extend(getattr(shape, "contents", []))
        strings += [shape] if hasattr(shape, "fontName") and hasattr(shape, "text") else []
    assert strings and {s.fontName for s in strings} == {registered} and not notes
    assert missing_in_user_font(drawing, font_map.labels) == (
        "its text has 'H' (U+0048 LATIN CAPITAL LETTER H), which the font-family Fakey does not have, so it "
        "would print as an empty box; spell it another way, or use a font that has it")
