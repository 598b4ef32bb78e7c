"""Generated shape trees drawn by printgen's renderer (output.renderer, output.replay) and by
reportlab's renderPDF give the same PDF bytes: random groups, transforms, colours (RGB, CMYK,
spot, with alpha, none), widths (0 among them), dashes, caps and joins, opacities, fill rules,
clipping paths, strings in several TrueType faces and in text render modes, and forms, with nodes
shared between places, groups and pages, so that every kept operator is written again from many
states. A difference is wrong output unless it is only a different way to write the same thing,
and renderPDF is what the renderer promises to match byte for byte."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import (Circle, Ellipse, Group, Line, Path as ShapePath, PolyLine, Polygon, Rect,
                                       String)
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color

from printgen.core.paper import Paper
from printgen.drawing import fonts
from printgen.drawing.checks import unchecked_shapes
from printgen.drawing.document import Document, Page
from printgen.output import pdf
from printgen.output.reuse import reusable

PAPER = Paper("test", 120.0, 120.0)
WORDS = ["card", "Ärger", "ÿ½", "deck 3", "Ωmega", "naïve", "€ 5", "the same words", "ŁÓDŹ", "ſtraße"]


def colour(rng: random.Random) -> Any:
    kind = rng.randrange(7)
    if kind == 0:
        return None
    if kind == 1:
        return Color(rng.random(), rng.random(), rng.random())
    if kind == 2:
        return Color(rng.random(), rng.random(), rng.random(), alpha=rng.choice([0.5, 1, 0.25]))
    if kind == 3:
        return CMYKColor(rng.random(), rng.random(), rng.random(), rng.random())
    if kind == 4:
        return CMYKColor(0.1, 0.2, 0.3, 0.4, alpha=0.5)
    if kind == 5:
        return CMYKColorSep(0, 0.5, 1, 0, spotName=rng.choice(["Gold", "Silver"]), density=rng.choice([1, 0.5]))
    return Color(0, 0, 0)


def styled(shape: Any, rng: random.Random, fill: bool = True) -> Any:
    if fill:
        shape.fillColor = colour(rng)
    shape.strokeColor = colour(rng)
    shape.strokeWidth = rng.choice([0, 0.2, 1.5])
    shape.strokeDashArray = rng.choice([None, [], [1, 2], (1, [2, 1])])
    shape.strokeLineCap = rng.randrange(3)
    shape.strokeLineJoin = rng.randrange(3)
    if rng.random() < 0.3:
        shape.strokeMiterLimit = rng.choice([1, 4, 10])
    if rng.random() < 0.25:
        if fill:
            shape.fillOpacity = rng.choice([None, 0.5, 1])
        shape.strokeOpacity = rng.choice([None, 0.3, 1])
    if rng.random() < 0.1:
        shape.fillOverprint = rng.choice([True, False])
    return shape


def leaf(rng: random.Random) -> Any:
    kind = rng.randrange(9)
    x, y = rng.uniform(0, 30), rng.uniform(0, 30)
    if kind == 0:
        radius = rng.choice([0, 0, 2])
        return styled(Rect(x, y, rng.uniform(1, 20), rng.uniform(1, 20), rx=radius, ry=radius), rng)
    if kind == 1:
        return styled(Circle(x, y, rng.uniform(1, 8)), rng)
    if kind == 2:
        return styled(Ellipse(x, y, rng.uniform(1, 8), rng.uniform(1, 5)), rng)
    if kind == 3:
        return styled(Line(x, y, rng.uniform(0, 30), rng.uniform(0, 30)), rng, fill=False)
    if kind == 4:
        return styled(PolyLine([x, y, x + 5, y + 3, x + 9, y - 2]), rng, fill=False)
    if kind == 5:
        return styled(Polygon([x, y, x + 6, y + 4, x + 2, y + 9]), rng)
    if kind in (6, 7):
        path = styled(ShapePath(autoclose=rng.choice([None, "svg", "pdf"])), rng)
        path.moveTo(x, y)
        path.lineTo(x + 8, y)
        path.curveTo(x + 8, y + 4, x + 4, y + 8, x, y + 8)
        if rng.random() < 0.5:
            path.closePath()
        path.moveTo(x + 2, y + 2)
        path.lineTo(x + 5, y + 2)
        path.lineTo(x + 5, y + 5)
        path.closePath()
        if rng.random() < 0.5:
            path.fillMode = rng.choice([0, 1])
        if kind == 7 and rng.random() < 0.5:
            path.isClipPath = 1
        return path
    face = rng.choice([fonts.REGULAR, fonts.BOLD, fonts.ITALIC, fonts.BOLD_ITALIC])
    word = rng.choice(WORDS)
    if rng.random() < 0.15:  # more characters than one subset holds
        word = "".join(chr(c) for c in rng.sample(range(0x100, 0x17F), 60))
    string = String(x, y, word, fontName=face, fontSize=rng.choice([2, 3.5, 5]),
                    textAnchor=rng.choice(["start", "middle", "end"]), fillColor=colour(rng))
    if rng.random() < 0.3:
        string.textRenderMode = rng.randrange(8)
    return string


def tree(rng: random.Random, pool: list[Any], depth: int) -> Any:
    if depth == 0 or rng.random() < 0.35:
        if pool and rng.random() < 0.5:
            return rng.choice(pool)  # a shared node, drawn again elsewhere
        node = leaf(rng)
        pool.append(node)
        return node
    group = Group()
    if rng.random() < 0.6:
        a = rng.choice([1, -1, 0.5])
        group.transform = (a, 0, rng.choice([0, 0.3]), rng.choice([1, -1]), rng.uniform(0, 20), rng.uniform(0, 20))
    for _ in range(rng.randrange(1, 5)):
        group.add(tree(rng, pool, depth - 1))
    if rng.random() < 0.3:  # state a group passes down (svglib's groups carry some)
        for key, value in (("fillColor", colour(rng)), ("strokeColor", colour(rng)),
                           ("strokeWidth", rng.choice([0, 2])), ("fontSize", 4), ("fontName", fonts.ITALIC)):
            if rng.random() < 0.4:
                group.__dict__[key] = value
    if rng.random() < 0.15:
        return reusable(group)
    pool.append(group)
    return group


def generated_pages(seed: int) -> list[Page]:
    rng = random.Random(seed)
    pool: list[Any] = []
    shared = [tree(rng, pool, 3) for _ in range(4)]
    pages = []
    for _ in range(rng.randrange(1, 4)):
        shapes = []
        for _ in range(rng.randrange(1, 7)):
            shape = rng.choice(shared) if rng.random() < 0.6 else tree(rng, pool, 3)
            shapes.append(Group(shape, transform=(1, 0, 0, 1, rng.uniform(0, 60), rng.uniform(0, 60))))
        pages.append(Page(shapes))
    return pages


def reportlab_fresh(canvas: Any, defaults: Any) -> Any:
    """What output.renderer.fresh makes, as reportlab's own renderer (a form's content)."""
    from reportlab.graphics.renderbase import StateTracker

    plain = renderPDF._PDFRenderer()
    plain._canvas, plain._tracker = canvas, StateTracker(defaultObj=defaults)
    return plain


def written(monkeypatch: pytest.MonkeyPatch, draw: Any, shown: list[Page]) -> bytes:
    """The PDF of `shown`; drawn by renderPDF, forms' contents are drawn by reportlab's renderer too."""
    from printgen.output import renderer, reuse

    monkeypatch.setattr(pdf, "render_drawing", draw)
    monkeypatch.setattr(reuse, "fresh", renderer.fresh if draw is renderer.draw else reportlab_fresh)
    return pdf.render_pdf(Document("t.pdf", PAPER, [], "generated"), shown, [])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_trees_write_the_bytes_renderpdf_writes(monkeypatch, seed):
    from printgen.output import renderer

    fonts.register()
    ours_draw = renderer.draw  # not pdf.render_drawing: the fixture's patch outlives each example
    with unchecked_shapes():
        shown = generated_pages(seed)
        ours = written(monkeypatch, ours_draw, shown)
        theirs = written(monkeypatch, renderPDF.draw, shown)
    assert ours == theirs


def test_a_plain_shape_with_a_derived_value_in_a_group_is_drawn_as_renderpdf_draws_it():
    """reportlab's drawGroup fills a child's derived values (`inherit`) before drawing it; a plain
    child with one goes to reportlab's path, which must see the filled value, not `inherit`."""
    import io

    from reportlab.graphics.shapes import Drawing, inherit
    from reportlab.lib.colors import blue, red
    from reportlab.pdfgen.canvas import Canvas

    from printgen.output import renderer

    def drawn(draw: Any) -> bytes:
        drawing, group = Drawing(100, 100), Group()
        group.__dict__["fillColor"] = red
        square = Rect(10, 10, 20, 20, fillColor=blue)
        square.__dict__["fillColor"] = inherit
        group.add(square)
        drawing.add(group)
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1)
        draw(drawing, canvas, 0, 0)
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    assert drawn(renderer.draw) == drawn(renderPDF.draw)
