"""printgen's PDF renderer (output.renderer, output.replay) writes exactly what reportlab's renderPDF
writes: the same bytes for the same pages, with shapes shared between places and pages (written
again from what they wrote before), with opacities, forms, dashes and strings among them."""
from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Circle, Ellipse, Group, Line, Path as ShapePath, PolyLine, Polygon, String
from reportlab.lib.colors import Color, HexColor

from printgen.core.paper import Paper
from printgen.drawing import fonts
from printgen.drawing.document import Document, Page
from printgen.drawing.picture import placed, rect, text
from printgen.output import pdf, replay
from printgen.output.reuse import reusable

PAPER = Paper("test", 100.0, 100.0)


def card(label: str, shared: list[Group]) -> Group:
    """A card drawn from shared pieces and one of its own, the way a deck's cards are."""
    group = Group()
    for piece in shared:
        group.add(piece)
    group.add(placed(text(5, 5, label, 9, fonts.BOLD), (1, 0, 0, -1, 0, 10)))
    return group


def shared_pieces() -> list[Group]:
    faded = rect(2, 2, 20, 10, fill=HexColor("#336699"))
    faded.fillOpacity = 0.5  # a graphics state on the page: never repeated
    dashed = Line(0, 0, 30, 30, strokeColor=HexColor("#aa0000"), strokeWidth=0.3, strokeDashArray=[1, 2])
    no_fill = Group(rect(1, 1, 5, 5, fill=None, stroke=HexColor("#000000")), Circle(8, 8, 2),
                    Ellipse(12, 12, 3, 2, fillColor=None, strokeColor=HexColor("#00aa00")))
    path = ShapePath(fillColor=Color(0.2, 0.4, 0.6), strokeColor=None)
    path.moveTo(0, 0)
    path.lineTo(10, 0)
    path.curveTo(10, 5, 5, 10, 0, 10)
    path.closePath()
    words = Group(String(0, 0, "shared words", fontName=fonts.REGULAR, fontSize=3),
                  String(0, 5, "middle", fontName=fonts.ITALIC, fontSize=4, textAnchor="middle"))
    lines = Group(PolyLine([0, 0, 5, 5, 10, 0], strokeColor=HexColor("#0000ff")),
                  Polygon([0, 0, 5, 5, 10, 0], fillColor=HexColor("#ffcc00")))
    form = reusable(Group(rect(0, 0, 4, 4, fill=HexColor("#123456"))))
    return [rect(0, 0, 40, 40, fill=HexColor("#eeeeee")), no_fill, faded, dashed, path, words, lines,
            placed(form, (1, 0, 0, 1, 30, 30))]


def pages(count: int) -> list[Page]:
    shared = shared_pieces()
    return [Page([placed(card(f"card {n}.{k}", shared), (1, 0, 0, 1, 10 + 45 * (k % 2), 10 + 45 * (k // 2)))
                  for k in range(4)]) for n in range(count)]


def written(monkeypatch: pytest.MonkeyPatch, draw, shown: list[Page]) -> bytes:
    monkeypatch.setattr(pdf, "render_drawing", draw)
    return pdf.render_pdf(Document("t.pdf", PAPER, [], "renderer"), shown, [])


def test_the_same_bytes_as_renderpdf_with_shapes_shared_across_places_and_pages(monkeypatch):
    shown = pages(3)
    ours = written(monkeypatch, pdf.render_drawing, shown)
    theirs = written(monkeypatch, renderPDF.draw, shown)
    assert ours == theirs
    reader = pypdf.PdfReader(io.BytesIO(ours))
    assert len(reader.pages) == 3
    assert "card 2.3" in reader.pages[2].extract_text()


def test_shapes_are_repeated_and_the_faded_one_never(monkeypatch):
    kept: list[replay.Replays] = []
    real = replay.replays_of

    def watched(canvas):
        found = real(canvas)
        if found not in kept:
            kept.append(found)
        return found

    monkeypatch.setattr("printgen.output.renderer.replays_of", watched)
    written(monkeypatch, pdf.render_drawing, pages(2))
    (replays,) = kept
    repeated = {type(w.node).__name__ for w in replays.kept.values()}
    assert {"Group", "Rect", "Line", "Path"} <= repeated  # written again from what they wrote
    faded = [w for w in replays.kept.values() if getattr(w.node, "fillOpacity", None) == 0.5]
    assert faded == []
    assert all(w.code[0] == "q" and w.code[-1] == "Q" for w in replays.kept.values())


def test_a_deck_writes_the_sheets_renderpdf_writes(monkeypatch, tmp_path):
    from printgen.cli.engine import build_games
    from printgen.core.build import BuildOptions
    from printgen.core.paper import PAPERS
    from printgen.drawing.checks import unchecked_shapes

    deck = Path(__file__).parent.parent / "card_defs" / "deck.yaml"
    options = BuildOptions(PAPERS["a4"], pictures=False)
    with unchecked_shapes():
        ((_, ours),) = build_games([deck], options)
        monkeypatch.setattr(pdf, "render_drawing", renderPDF.draw)
        ((_, theirs),) = build_games([deck], options)
    assert [a.name for a in ours] == ["deck.pdf"]
    assert ours[0].data == theirs[0].data


def test_a_form_holds_the_graphics_states_and_colour_spaces_its_shapes_name(monkeypatch):
    """A picture stored once as a form (a piece's back, drawn from a user's template with
    fill-opacity, or a spot colour) names its opacity's graphics state and its colour space in its
    own content, so its own resources must list them: reportlab gives a form only fonts and forms,
    and without them the opacity printed opaque and the spot colour black."""
    import pypdfium2
    from reportlab.lib.colors import CMYKColorSep

    faded = rect(2, 2, 20, 10, fill=HexColor("#336699"))
    faded.fillOpacity = 0.5
    spot = rect(30, 2, 20, 10, fill=CMYKColorSep(0, 0.5, 1, 0, spotName="Gold"))
    data = written(monkeypatch, pdf.render_drawing, [Page([reusable(Group(faded, spot))])])
    reader = pypdf.PdfReader(io.BytesIO(data))
    (form,) = [x.get_object() for x in reader.pages[0]["/Resources"]["/XObject"].values()]
    resources = form["/Resources"]
    assert list(resources["/ExtGState"]) == ["/gRLs0"] and list(resources["/ColorSpace"]) == ["/Gold"]
    picture = pypdfium2.PdfDocument(data)[0].render(scale=1).to_pil().convert("RGB")
    per_mm = 72 / 25.4
    faded_pixel = picture.getpixel((int(10 * per_mm), int(picture.height - 6 * per_mm)))
    spot_pixel = picture.getpixel((int(40 * per_mm), int(picture.height - 6 * per_mm)))
    assert all(abs(a - b) <= 2 for a, b in zip(faded_pixel, (153, 178, 204)))  # half of #336699 on white
    assert spot_pixel != (0, 0, 0)
