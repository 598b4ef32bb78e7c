"""Rules texts are Markdown (printgen/drawing/markdown.py): what each piece of Markdown becomes,
every problem at its line, the hooks a game plugs in, and a designer's rulebook built with them,
measured in the PDF."""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from reportlab.platypus import PageBreak, Paragraph, Spacer

from building import build
from pdfmeasure import MM
from printgen.core.problems import MarkdownProblems
from printgen.drawing.flow import ColumnBreak
from printgen.drawing.markdown import ExampleBox, Hooks, NotPrintable, Picture, Row, blocks
from printgen.drawing.story import FitWidth, Item, Stack, styles
from printgen.jinja.render import aligned_line, markdown_value


def flat(items):
    """The blocks a story holds, with the Stacks that keep headings with their text opened up."""
    for item in items:
        if isinstance(item, Stack):
            yield from flat(item.items)
        else:
            yield item


def story(text: str, hooks: Hooks = Hooks()):
    return list(flat(blocks(text, "rules.md", styles(), hooks)))


def problems(text: str, hooks: Hooks = Hooks()) -> list[tuple[int, str]]:
    with pytest.raises(MarkdownProblems) as caught:
        blocks(text, "rules.md", styles(), hooks)
    return [(p.line, p.message) for p in caught.value.problems]


def test_headings_subtitles_and_paragraphs_take_the_house_styles():
    items = story("# Game\n\n*For two players.*\n\n*Second line.*\n\n## Setup\n\nShuffle *the* **deck**.\n\n"
                  "### Small\n\nMore words\non two lines.\n")
    names = [(type(i).__name__, i.style.name) for i in items]
    assert names == [("Paragraph", "title"), ("Paragraph", "subtitle"), ("Paragraph", "subtitle"),
                     ("Paragraph", "heading"), ("Paragraph", "body"), ("Paragraph", "subheading"),
                     ("Paragraph", "body")]
    assert items[1].text == "For two players."  # the subtitle's own italics are its style's
    assert items[4].text == "Shuffle <i>the</i> <b>deck</b>."
    assert items[6].text == "More words on two lines."
    assert [i.section for i in items] == ["Game", "Game", "Game", "Setup", "Setup", "Setup", "Setup"]


def test_an_italic_paragraph_later_on_is_body_text():
    items = story("# Game\n\nPlain first.\n\n*Not a subtitle.*\n")
    assert [i.style.name for i in items] == ["title", "body", "body"]


def test_a_paragraph_starting_in_bold_is_kept_whole_as_a_step():
    items = story("**Round 1.** Mia plays.\n\nPlain.\n")
    assert type(items[0]) is Item and type(items[1]) is Paragraph


def test_nested_and_numbered_lists_indent_and_number():
    items = story("- one\n  - inner\n    1. deep\n- two\n\n3. three\n4. four\n")
    marks = [(i.bulletText if hasattr(i, "bulletText") else i.frags[0].bulletText) for i in items]
    assert marks == ["\u2022", "\u2013", "1.", "\u2022", "3.", "4."]
    indents = [i.style.leftIndent for i in items]
    assert indents[0] < indents[1] < indents[2] and indents[3] == indents[0] <= indents[4]
    assert all(isinstance(i, Item) for i in items)


def test_a_table_is_set_at_the_column_width_with_its_head_and_alignment():
    items = story("| Card | Cost |\n|:-----|-----:|\n| **Toad** | 3 |\n| Newt \\| Eft | 12 |\n")
    table = next(i for i in items if isinstance(i, FitWidth))
    content = table.factory(80.0)  # mm
    width, _ = content.wrap(80 / 0.3528, 1000)
    assert abs(width * 0.3528 - 80.0) < 0.1
    fresh = table.factory(80.0)
    cells = [[p.text for p in row] for row in fresh._cellvalues]
    assert cells == [["Card", "Cost"], ["<b>Toad</b>", "3"], ["Newt | Eft", "12"]]
    assert fresh._cellvalues[1][1].style.alignment == 2  # right, as the delimiter row asks


def test_a_table_wider_than_its_column_is_a_located_problem():
    text = "Intro.\n\n| " + " | ".join(["Extraordinarily"] * 8) + " |\n|" + "---|" * 8 + "\n"
    table = next(i for i in story(text) if isinstance(i, FitWidth))
    with pytest.raises(MarkdownProblems) as caught:
        table.factory(60.0)
    assert caught.value.problems[0].line == 3
    assert "too wide for its column" in caught.value.problems[0].message


def test_a_block_quote_is_an_example_box_and_a_rule_a_line():
    items = story("> **Example.** Mia plays a 9.\n>\n> Tom loses.\n\n---\n\nAfter.\n")
    box = items[0]
    assert isinstance(box, ExampleBox) and len(box.items) == 2
    assert type(items[1]).__name__ == "HRFlowable"


def test_directives_are_comments_any_viewer_hides():
    made = []
    items = story("Text.\n\n<!-- table: soldiers -->\n\n<!-- page break -->\n\n<!--  column   break -->\n\n"
                  "<!-- a note for the designer -->\nEnd.\n",
                  Hooks({"soldiers": lambda width: made.append(width) or Spacer(1, 1)}))
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["Paragraph", "FitWidth", "GapAfter", "PageBreak", "ColumnBreak", "Paragraph"]
    assert isinstance(items[3], PageBreak) and isinstance(items[4], ColumnBreak)


def test_links_print_their_words_and_code_its_text():
    items = story("See [the forum](https://192.0.2.1/x) and <https://192.0.2.1/y>, or `a < b`.\n")
    assert items[0].text == "See the forum and https://192.0.2.1/y, or a &lt; b."


def test_every_problem_is_told_at_once_at_its_line():
    found = problems("# T\n\nSome <b>bold</b> words.\n\n<div>\nblock\n</div>\n\n<!-- table: nope -->\n\n"
                     "<!-- tabel: nope -->\n\n<!-- page-break -->\n\n![a](https://192.0.2.1/p.png)\n",
                     Hooks({"known": lambda width: Spacer(1, 1)}))
    lines = [line for line, _ in found]
    assert lines == [3, 5, 9, 13, 15], found
    assert "raw HTML (<b>) is not printed" in found[0][1]
    assert "raw HTML (<div> block </div>)" in found[1][1]
    assert "unknown table 'nope' (known: known)" in found[2][1]
    assert "not one of printgen's comments" in found[3][1]
    assert "no picture can come from 'https://192.0.2.1/p.png'" in found[4][1]


def test_nesting_past_the_limit_is_a_problem_never_text_left_out():
    found = problems("Start.\n\n" + "> " * 12 + "deep\n")
    assert found and found[0][0] == 3 and "at most 8 deep" in found[0][1]


def test_pictures_come_from_the_hooks_by_scheme_and_stand_in_a_row():
    asked: list[Picture] = []

    def card(picture: Picture):
        asked.append(picture)
        if picture.target == "Nobody":
            raise NotPrintable("no card is titled 'Nobody'")
        return Spacer(20, 30)

    hooks = Hooks(pictures={"card": card})
    items = story("![Toad](card:Toad)\n\n![a](<card:Mossback Toad> \"face\") ![b](card:Newt)\n", hooks)
    assert isinstance(items[0], Spacer) and isinstance(items[1], Row)
    assert [(p.scheme, p.target, p.alt) for p in asked] == [("card", "Toad", "Toad"),
                                                            ("card", "Mossback Toad", "a"), ("card", "Newt", "b")]
    assert asked[1].title == "face" and asked[1].line == 3
    width, height = items[1].wrap(500, 500)
    assert abs(width - (20 + 20 + 2 * 72 / 25.4)) < 0.01 and height == 30  # side by side, 2 mm apart
    assert problems("Text.\n\n![x](card:Nobody)\n", hooks) == [(3, "no card is titled 'Nobody'")]
    assert problems("Text ![x](card:Toad) inline.\n", hooks)[0][0] == 1


def test_icons_come_from_their_hook():
    hooks = Hooks(icons=lambda name: {"fire": "<b>F</b>"}.get(name))
    assert story("Pay :fire: now, at 10:30.\n", hooks)[0].text == "Pay <b>F</b> now, at 10:30."
    assert problems("Pay :ice: now.\n", hooks) == [(1, "no icon called 'ice'")]
    assert story("Pay :fire: now.\n")[0].text == "Pay :fire: now."  # no icons: words as typed


@pytest.mark.parametrize("value", ["# Hacked", "*Ransom*", "<b>x</b>", "[l](http://192.0.2.1)", "![p](card:x)",
                                   "| a | b |", "1. one", "a\n<!-- page break -->\n- b", "\\*", "&amp;"])
def test_a_value_prints_as_typed(value):
    items = story(f"Credit: {markdown_value(value)}.\n")
    assert len(items) == 1 and isinstance(items[0], Paragraph)
    typed = " ".join(value.split())
    assert items[0].text == "Credit: " + typed.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "."


def test_a_rendered_line_is_found_in_its_template():
    source = "{# about #}\n# {{ d.title }}\n\n{% for r in rounds %}\n**Round {{ loop.index }}.** x\n{% endfor %}\n" \
             "Plain line.\n<b>{{ d.name }}</b> here\n"
    rendered = "# Fracas\n\n**Round 1.** x\n**Round 2.** x\nPlain line.\n<b>Red</b> here\n"
    assert aligned_line(source, rendered, 1) == 2
    assert aligned_line(source, rendered, 5) == 7
    assert aligned_line(source, rendered, 6, "<b>") == 8
    assert aligned_line(source, rendered, 4) == 5


# -- a designer's rulebook, built ------------------------------------------------------------------

RULES = """{# a designer's own Fracas rulebook #}
# {{ d.title }}

*House rules for two.*

## Setup

Each player takes a deck of {{ 27 }} cards.

> **Example.** Red shuffles, Black cuts. Both draw seven cards and look at them.

| Card | Role | Value |
|------|------|------:|
| Jack, Queen, King | General | 0 |
| 2 to 10 | Soldier | its number |
| Ace | Assassin | — |

<!-- column break -->

## Play

1. Untap.
2. Draw.
   - one card;
   - two if you hold none.
3. Attack.

---

Whoever holds no tokens loses.
"""


@pytest.fixture(scope="module")
def designer_book(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("md")
    mine = root / "mine" / "fracas"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text(RULES)
    build(root / "out", "fracas", "--templates", str(root / "mine"))
    return root / "out" / "fracas" / "fracas.pdf"


def test_a_designers_markdown_rulebook_is_set_as_written(designer_book):
    with pdfplumber.open(designer_book) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        text = " ".join(w["text"] for w in words)
        assert "House rules for two." in text and "27 cards" in text
        play = next(w for w in words if w["text"] == "Play")
        setup = next(w for w in words if w["text"] == "Setup")
        assert play["x0"] > page.width / 2 > setup["x0"]  # the column break moved Play over
        assert abs(play["top"] - setup["top"]) < 25 * MM  # to the top of the second column
        grey = [r for r in page.rects if r["non_stroking_color"] and len(r["non_stroking_color"]) == 3
                and all(abs(c - 0xf0 / 255) < 0.01 for c in r["non_stroking_color"])]
        assert len(grey) == 1 and grey[0]["width"] > 60 * MM  # the example box, across its column
        example = next(w for w in words if w["text"] == "Example.")
        assert grey[0]["top"] < example["top"] < grey[0]["bottom"]
        table = page.find_tables()
        assert table and len(table[0].rows) == 4
        assert re.search(r"1\.\s*Untap", page.extract_text()) and "two if you hold none" in page.extract_text()
        assert "<!--" not in text and "|" not in text and "**" not in text


@pytest.mark.parametrize("breaks, line", [(2, 10), (0, 4)])  # the second break; the last line
def test_a_reference_text_without_exactly_one_page_break_is_told_at_its_line(run_cli, tmp_path, breaks, line):
    mine = tmp_path / "mine" / "fracas"
    mine.mkdir(parents=True)
    text = "{# a card #}\n# {{ d.title }}\n\nFront.\n" + "".join(f"\n<!-- page break -->\n\nSide {k}.\n"
                                                               for k in range(breaks))
    (mine / "reference.md.j2").write_text(text)
    result = run_cli("build", "fracas", "--templates", tmp_path / "mine", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(rf"mine/fracas/reference\.md\.j2:{line}: a reference text needs exactly one "
                     rf"<!-- page break --> .*\(found {breaks}\)", result.output), result.output
    assert not (tmp_path / "o").exists()


def test_a_column_break_in_a_reference_card_starts_its_next_column(run_cli, tmp_path):
    mine = tmp_path / "mine" / "fracas"
    mine.mkdir(parents=True)
    (mine / "reference.md.j2").write_text("# {{ d.title }}\n\n## Left\n\nShort.\n\n<!-- column break -->\n\n"
                                          "## Right\n\nAlso short.\n\n<!-- page break -->\n\n# Back\n\nDone.\n")
    assert run_cli("build", "fracas", "--templates", tmp_path / "mine", "--out", tmp_path / "o").exit_code == 0
    with pdfplumber.open(tmp_path / "o" / "fracas" / "fracas-reference.pdf") as pdf:
        page = pdf.pages[0]
        words = {w["text"]: w for w in page.extract_words()}
    assert words["Left"]["x0"] < page.width / 2 < words["Right"]["x0"]
    assert abs(words["Left"]["top"] - words["Right"]["top"]) < 1  # both at the top of their columns


def test_a_problem_inside_a_paragraph_names_its_own_line():
    assert problems("# T\n\nOne line,\nthen <span>two</span>,\nthen :x: three.\n",
                    Hooks(icons=lambda name: None)) == [
        (4, "raw HTML (<span>) is not printed; write Markdown instead (**bold**, *italic*), or a backslash "
            "before a < that should print"), (5, "no icon called 'x'")]


LONG = """# {{ d.title }}

*A longer house rulebook, to see how Markdown blocks travel between columns and pages.*

{% for n in range(1, 13) %}
## Part {{ n }}

Each part opens with a paragraph of plain words long enough to wrap over several lines of a column,
so that the blocks after it land at many different heights on the page as the parts go by.

{% if n % 2 %}
> **Example {{ n }}.** A box that must stay in one piece: its first line, then a second sentence
> that wraps, and a third that closes the example off.

{% else %}
Totals for part {{ n }}:

| Step | Who | Points |
|------|-----|-------:|
| Draw | both players | {{ n }} |
| Play | the first player | {{ n * 2 }} |
| Score | whoever won | {{ n * 3 }} |

{% endif %}
A closing paragraph for part {{ n }}, again of a few lines, before the next heading begins.
{% endfor %}
"""


def test_example_boxes_and_short_tables_never_split_in_a_long_markdown_rulebook(tmp_path):
    from typeset import body_size, column_blanks, size_shares

    mine = tmp_path / "mine" / "fracas"
    mine.mkdir(parents=True)
    (mine / "rules.md.j2").write_text(LONG)
    pdf_path = build(tmp_path / "out", "fracas", "--templates", str(tmp_path / "mine")) / "fracas" / "fracas.pdf"
    boxes, rows, headings_at_foot = 0, 0, 0
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) >= 2
        for page in pdf.pages:
            boxes += sum(1 for r in page.rects if r["non_stroking_color"] and len(r["non_stroking_color"]) == 3
                         and all(abs(c - 0xf0 / 255) < 0.01 for c in r["non_stroking_color"]))
            rows += sum(len(table.rows) for table in page.find_tables())
            text = page.extract_text()
            assert "<!--" not in text and "**" not in text
    assert boxes == 6  # one ground per example: none broke across a column or a page
    assert rows == 6 * 4  # every table whole, its head with its rows
    assert body_size(pdf_path) >= 9 and len(size_shares(pdf_path)) <= 8
    last = column_blanks(pdf_path)[-1]
    assert len(last) == 2 and abs(last[0] - last[1]) <= 0.15, last  # the last page's columns end level


def test_a_character_the_font_lacks_is_told_at_its_line():
    found = problems("# T\n\nShalom: \u05e9\u05dc\u05d5\u05dd.\n\nA `\u2603` and &#0; here.\n")
    assert [line for line, _ in found] == [3, 5]
    assert "U+05E9 HEBREW LETTER SHIN" in found[0][1] and "empty box" in found[0][1]
    assert "U+2603 SNOWMAN" in found[1][1]
