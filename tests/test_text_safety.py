"""Names that look like markup or YAML keywords print exactly as typed, in the PDF and in the SVG.

The bad-input corpus covers text printgen refuses; these are the awkward names it must accept:
`<`, `&` and `"` (escaped for reportlab's markup and for XML), `yes` and `no` (text in YAML 1.2),
and line breaks or tabs (printed as spaces, never as an empty box).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
from click.testing import CliRunner

from pdfmeasure import reading_text
from printgen.cli.main import cli
from printgen.games import bundled_definition


def build_war(tmp_path: Path, replacements: dict[str, str]) -> Path:
    text = bundled_definition("one_minute_war").read_text()
    for old, new in replacements.items():
        assert old in text
        text = text.replace(old, new, 1)
    definition = tmp_path / "war.yaml"
    definition.write_text(text)
    result = CliRunner().invoke(cli, ["build", str(definition), "--out", str(tmp_path / "out")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / "war"


def pdf_text(path: Path) -> str:
    """Each page's text read half by half, as its columns are set (pdfplumber alone would run the
    lines of two columns together)."""
    with pdfplumber.open(path) as pdf:
        return "\n".join(reading_text(page) for page in pdf.pages)


def pdf_chars(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [char["text"] for page in pdf.pages for char in page.chars]


def test_markup_characters_in_names_print_as_typed(tmp_path):
    out = build_war(tmp_path, {"    name: Princess": "    name: '<b>&Q\"'",
                               # the Spearman's ability names her, and must stay true (issue 43)
                               "Defeats Priest and Princess": "'Defeats Priest and <b>&Q\"'",
                               "  text: One Minute War": "  text: 'A&B <i>'"})
    assert '<b>&Q"' in pdf_text(out / "war.pdf")
    assert '<b>&Q"' in pdf_text(out / "war-reference.pdf")
    for svg in (out / "svg").glob("*.svg"):
        texts = "".join(ET.parse(svg).getroot().itertext())  # parses: nothing broke the XML
        assert "<b>&Q\"" in texts or "A&B <I>" in texts


def test_yes_and_no_are_names_in_yaml_1_2(tmp_path):
    out = build_war(tmp_path, {"  - name: Red": "  - name: yes", "  - name: Blue": "  - name: no"})
    # read in the order the words are set: the card now stands beside the first column, so a
    # half-page crop would run its tabs into the setup sentence
    with pdfplumber.open(out / "war.pdf") as pdf:
        text = " ".join(word["text"] for page in pdf.pages
                        for word in page.extract_words(use_text_flow=True))
    assert "yes side" in text and "yes commands the 5 soldiers" in text and "nearer to them, no " in text


def test_line_breaks_and_tabs_in_names_print_as_spaces(tmp_path):
    # a short name: the tab's text keeps 2.4 mm inside its cuts, so a space more must still fit
    out = build_war(tmp_path, {"    name: Princess": '    name: "Li\\tl\\ny"',
                               # the Spearman's ability names her, and must stay true (issue 43)
                               "Defeats Priest and Princess": '"Defeats Priest and Li\\tl\\ny"'})
    assert "\x00" not in pdf_chars(out / "war.pdf")  # the glyph an unknown character is drawn with
    assert "Li l y" in pdf_text(out / "war.pdf")
