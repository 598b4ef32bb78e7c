"""The one document model and its table of writers: a document's kind picks its writer, what comes
out has the document's size, and every layout failure of every document comes back at once, located
in the definition. Games lay out documents and never call a writer (read from the source)."""
from __future__ import annotations

import ast
import io
from pathlib import Path

import pypdf
import pytest
from lxml import etree
from PIL import Image
from reportlab.platypus import PageBreak, Paragraph

from printgen.core.paper import PAPERS, Paper
from printgen.core.problems import DefinitionError
from printgen.core.yamlread import read_yaml
from printgen.drawing.document import Blame, Document, DoesNotFit, Grow, Growing, Page, TextOverflow
from printgen.drawing.picture import rect
from printgen.drawing.story import styles
from printgen.layout.paging import lay_out, laid_out
from printgen.output.writers import WRITERS, write, write_all

PT = 72 / 25.4
GAMES = Path(__file__).parent.parent / "printgen" / "games"


def square() -> Page:
    return Page(shapes=[rect(10, 10, 20, 20)])


def test_each_kind_has_its_writer_and_keeps_the_documents_size():
    paper = Paper("piece", 63.5, 88.9)
    pdf = pypdf.PdfReader(io.BytesIO(write(Document("a.pdf", paper, [square(), square()], "two pages"))))
    assert len(pdf.pages) == 2
    box = pdf.pages[0].mediabox
    assert (float(box.width) / PT, float(box.height) / PT) == pytest.approx((63.5, 88.9), abs=0.01)
    assert pdf.metadata.title == "two pages"

    svg = etree.fromstring(write(Document("a.svg", paper, [square()], "one piece")))
    assert (svg.get("width"), svg.get("height"), svg.get("viewBox")) == ("63.5mm", "88.9mm", "0 0 63.5 88.9")

    png = Image.open(io.BytesIO(write(Document("a.png", paper, [square()], "pixels", dpi=100))))
    assert png.size == (round(63.5 / 25.4 * 100), round(88.9 / 25.4 * 100))
    assert set(WRITERS) == {"pdf", "svg", "png"}


def test_a_kind_without_a_writer_is_refused():
    with pytest.raises(ValueError, match=r"no writer makes '\.docx' files"):
        write(Document("a.docx", PAPERS["a4"], [square()], "nope"))


def long_text(words: int) -> list:
    """Paragraphs of 50 words (a paragraph never splits across frames)."""
    return [Paragraph("word " * min(50, words - start), styles(10).body) for start in range(0, words, 50)]


def definition(tmp_path: Path):
    path = tmp_path / "game.yaml"
    path.write_text("title: x\ntext_size_pt: 9\nlabels:\n  width: wide\n")
    return read_yaml(path)[1]


def test_every_documents_problems_come_back_together_and_located(tmp_path):
    source = definition(tmp_path)
    small = Page(frames=[(20, 20, 40, 20)])

    def too_wide(width: float):
        raise DoesNotFit(("labels", "width"), "'wide' is wider than its cell")

    overflowing = Document("rules.pdf", PAPERS["a4"], [small], "rules", story=long_text(400),
                           overflow=Blame(("text_size_pt",), "the rules do not fit", "lower text_size_pt"))
    figure = Document("ref.pdf", PAPERS["a4"], [small], "ref", label="the reference sheet (A4)",
                      story=[_Figure(too_wide)])
    fine = Document("fine.svg", PAPERS["a4"], [square()], "fine", problems=[(("title",), "too plain")])
    with pytest.raises(DefinitionError) as caught:
        write_all([overflowing, figure, fine], source)
    lines = [str(p).replace(f"{tmp_path}/", "") for p in caught.value.problems]
    assert lines[0].startswith("game.yaml:2: text_size_pt: the rules do not fit: ")
    assert lines[0].endswith("; lower text_size_pt")
    assert lines[1] == "game.yaml:4: labels.width: the reference sheet (A4): 'wide' is wider than its cell"
    assert lines[2] == "game.yaml:1: title: too plain"


class _Figure(Paragraph):
    """A flowable that, like a reference figure, fails when asked to fit a width."""

    def __init__(self, make) -> None:
        super().__init__("x", styles(10).body)
        self.make = make

    def wrap(self, width, height):
        self.make(width)
        return super().wrap(width, height)


def test_a_growing_document_gets_the_pages_its_text_needs(tmp_path):
    column = (20, 20, 170, 250)

    def pages(count: int) -> list[Page]:
        return [Page(frames=[column]) for _ in range(count)] + [Page(frames=[column])]

    def story() -> list:
        return long_text(3000) + [PageBreak()] + long_text(10)

    laid, found = lay_out([Growing(Document("book.pdf", PAPERS["a4"], [], "book"), Grow(pages, story, 1, 8))],
                          definition(tmp_path))
    assert found == [[]] and laid[0].story
    pdf = pypdf.PdfReader(io.BytesIO(write(laid[0])))  # written once, at the count the layout found
    assert 3 <= len(pdf.pages) <= 9
    assert "word" in pdf.pages[-1].extract_text()
    with pytest.raises(TextOverflow):  # one page fewer would not hold the text
        write(Document("book.pdf", PAPERS["a4"], pages(len(pdf.pages) - 2), "book", story=story()))


def test_the_layout_step_writes_no_pdf_to_count_pages(tmp_path, monkeypatch):
    """Page counts are tried by pouring the story on a throwaway canvas; the one PDF is written after."""
    import printgen.output.pdf as pdf_writer

    rendered: list[str] = []
    real = pdf_writer.render_pdf
    monkeypatch.setattr(pdf_writer, "render_pdf", lambda doc, *args, **kw: rendered.append(doc.name) or real(doc, *args, **kw))
    tried: list[int] = []

    def pages(count: int) -> list[Page]:
        tried.append(count)
        return [Page(frames=[(20, 20, 170, 250)]) for _ in range(count)]

    growing = Growing(Document("book.pdf", PAPERS["a4"], [], "book"), Grow(pages, lambda: long_text(3000), 1, 8))
    laid, _ = lay_out([growing], definition(tmp_path))
    assert len(tried) >= 3 and rendered == []
    assert len(pypdf.PdfReader(io.BytesIO(write(laid[0]))).pages) == tried[-1] == len(laid[0].pages)
    assert rendered == ["book.pdf"]


def test_text_too_long_for_a_fixed_last_page_is_told_without_adding_pages(tmp_path):
    source = definition(tmp_path)
    tried: list[int] = []

    def pages(count: int) -> list[Page]:
        tried.append(count)
        return [Page(frames=[(20, 20, 170, 250)]) for _ in range(count)] + [Page(frames=[(20, 20, 40, 10)])]

    doc = Growing(Document("book.pdf", PAPERS["a4"], [], "book",
                           overflow=Blame(("title",), "the rules need more pages", "shorten them")),
                  Grow(pages, lambda: long_text(5) + [PageBreak()] + long_text(300), 1, 8,
                       fixed_last=Blame(("text_size_pt",), "the last page's text does not fit", "cut it")))
    with pytest.raises(DefinitionError) as caught:
        write_all([doc], source, lay=laid_out)
    assert [p.path for p in caught.value.problems] == ["text_size_pt"]
    assert "the last page's text does not fit" in caught.value.problems[0].message
    assert tried == [1]


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_games_lay_out_documents_and_never_call_a_writer():
    writers = ("printgen.output.writers", "printgen.output.pdf", "printgen.output.svg", "printgen.output.png")
    offenders = {str(path.relative_to(GAMES)): sorted(m for m in imports_of(path) if m.startswith(writers))
                 for path in GAMES.glob("*/*.py")}
    assert {name: mods for name, mods in offenders.items() if mods} == {}
