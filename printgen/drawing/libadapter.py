"""The one place printgen touches private attributes of reportlab (and of no other library): each
function below says why no public API does what it does. Everything else in printgen uses the
libraries' public APIs only (tests/test_library_privates.py holds this), so a library upgrade can
break printgen only here.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from reportlab import rl_config
from reportlab.graphics import shapes


def needs_own_resources(canvas: Any) -> bool:
    """Whether a form being drawn uses an opacity, spot colour or shading. reportlab lists these only
    for pages (`Canvas.showPage`); it has no public way to ask what a form's content used."""
    return bool(canvas._extgstate.getState() or canvas._shadingUsed or canvas._colorsUsed)


def form_resources(canvas: Any) -> Any:
    """The resources a form's content uses; call just before `endForm(Resources=...)`, reportlab's
    public way to give a form resources. What the content used is kept only in the canvas's private
    state (as for a page), so without this a form's opacity, spot colour or gradient prints opaque,
    black or not at all."""
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary

    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if canvas._formsinuse:
        resources.XObject = canvas._doc.xobjDict(canvas._formsinuse)
    state = canvas._extgstate.getState()
    if state:
        resources.ExtGState = state
    resources.setShading(canvas._shadingUsed)
    resources.setColorSpace(canvas._colorsUsed)
    return resources


def canvas_of(renderer: Any) -> Any:
    """The canvas a renderPDF renderer draws on, or None for another renderer (SVG, bitmap).
    `DirectDraw.drawDirectly(renderer)` is reportlab's public hook for a shape that draws itself, but
    it passes only the renderer, whose canvas has no public name."""
    return getattr(renderer, "_canvas", None)


def current_transform(renderer: Any) -> tuple[float, ...]:
    """The renderer's current transform (local units to points): the state tracker that keeps it has
    no public accessor on the renderer."""
    return tuple(renderer._tracker.getState()["ctm"])


def in_form(canvas: Any) -> bool:
    """Whether the canvas is between beginForm and endForm; the canvas does not say publicly."""
    return canvas._formData is not None


@contextmanager
def keeping_drawing(canvas: Any) -> Iterator[None]:
    """For a nested `renderPDF.draw` (public) from inside a shape that the page's own renderPDF.draw
    is drawing: the nested draw resets the canvas's private `_drawing` when it ends, which the outer
    one still needs, so it is put back (reportlab offers no nested draw)."""
    outer = getattr(canvas, "_drawing", None)
    try:
        yield
    finally:
        if outer is not None:
            canvas._drawing = outer


def draw_nested(drawing: Any, canvas: Any) -> None:
    """`renderPDF.draw` of a whole drawing at 0, 0, from inside the page's own (see keeping_drawing)."""
    from reportlab.graphics import renderPDF

    with keeping_drawing(canvas):
        renderPDF.draw(drawing, canvas, 0, 0)


def draw_with_fresh_renderer(canvas: Any, node: Any, defaults: Any) -> None:
    """Draw `node` (a shape or group, no Drawing around it) with a renderer of its own whose state
    starts from `defaults`: renderPDF's public `draw` takes whole Drawings only and would reset the
    page's renderer, which may be midway through the shape that asked for this."""
    from reportlab.graphics.renderbase import StateTracker
    from reportlab.graphics.renderPDF import _PDFRenderer

    renderer = _PDFRenderer()
    renderer._canvas, renderer._tracker = canvas, StateTracker(defaultObj=defaults)
    try:
        renderer.drawNode(node)
    finally:
        del renderer._canvas, renderer._tracker


def last_page(canvas: Any) -> Any:
    """The PDFPage object `showPage` just finished (to compress its operators now rather than hold
    them as text until save): the canvas keeps its document, and the document its pages, privately."""
    return canvas._doc.Pages.pages[-1]


@contextmanager
def binary_streams() -> Iterator[None]:
    """Streams encoded inside this block are compressed bytes without reportlab's ASCII85 layer
    (7-bit only, a quarter bigger). reportlab reads this switch, `rl_config.useA85`, only from its
    process-wide config, with no per-canvas or per-document setting; it is set only while streams
    are encoded and always put back (a picture drawn inline joins the page's operators as text,
    so while drawing it must stay ASCII85)."""
    before = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = before


def ascii85_now() -> bool:
    return bool(rl_config.useA85)


# A Path's operator codes: Path exposes its `operators` list publicly but names the codes only privately.
PATH_STEPS = {shapes._MOVETO: ("M", 1), shapes._LINETO: ("L", 1), shapes._CURVETO: ("C", 3),
              shapes._CLOSEPATH: ("Z", 0)}


def reader_pixels(reader: Any) -> Any:
    """The Pillow image an ImageReader already decoded (None if it holds none): ImageReader's public
    `getRGBData` would copy it again as bytes, a large bitmap's worth, for every resampled size."""
    return getattr(reader, "_image", None)


def page_height(canvas: Any) -> float:
    """The height (pt) of the page a canvas draws on: a flowable gets the canvas from platypus
    without its document, and the canvas keeps its page size only as a private attribute."""
    return float(canvas._pagesize[1])


def frame_cursor(frame: Any) -> float:
    """How far down (pt from the page's foot) a platypus frame has been filled: balancing columns
    compares where each ends, and a Frame keeps that place only in its private `_y`."""
    return float(frame._y)


def placed_at_a_frames_top(flowable: Any) -> bool:
    """Whether the frame now placing `flowable` has nothing in it yet: a gap under a table vanishes
    at a column's top. platypus tells a flowable its frame only in the private `_frame` it sets
    while placing it, and a frame says it is empty only in its private `_atTop`."""
    frame = getattr(flowable, "_frame", None)
    return frame is not None and bool(frame._atTop)
