"""reportlab's PDF renderer with its per-node bookkeeping cut to what printgen's shapes need.

renderPDF walks the shape tree and, around every node, reads all the node's attributes twice for
"derived values" (reportlab's `inherit`, which printgen and svglib never set), hangs the canvas and
the parent on the node and takes them off again, and works out how to undo each state change on the
way back up, which a PDF does with `Q` anyway. For a deck of a thousand cards (some 30,000 nodes)
that bookkeeping was half the time spent writing deck.pdf.

`ShapeRenderer` draws the plain shapes printgen makes (groups, rectangles, strings, paths, ellipses,
circles, lines, polylines, polygons: exactly these classes, with no derived value and no draw-time
callback) by calling the very canvas methods renderPDF calls, in the same order with the same
values, so the PDF's bytes are the same. Anything else (a subclass, `DirectDraw` art and forms, a
node with a derived value or a callback) goes through renderPDF's own code.
"""
from __future__ import annotations

from typing import Any

from reportlab.graphics.renderbase import StateTracker, renderScaledDrawing
from reportlab.graphics.renderPDF import _PDFRenderer
from reportlab.graphics.shapes import (STATE_DEFAULTS, Circle, Drawing, Ellipse, Group, Line, Path, PolyLine,
                                       Polygon, Rect, String)
from reportlab.graphics.transform import mmult
from reportlab.lib.validators import DerivedValue
from reportlab.pdfgen.canvas import Canvas

from printgen.output.replay import Written, effects, entry, fit_to_repeat, repeatable, replays_of, write_again

STATE_KEYS = frozenset(STATE_DEFAULTS)
STATE_ATTRIBUTES = tuple(Canvas.STATE_ATTRIBUTES)  # what Canvas.saveState keeps
# the exact classes drawn here, and the renderer method renderPDF's dispatcher picks for each
PLAIN = {Group: "drawGroup", Rect: "drawRect", String: "drawString", Path: "drawPath", Ellipse: "drawEllipse",
         Circle: "drawCircle", Line: "drawLine", PolyLine: "drawPolyLine", Polygon: "drawPolygon"}


class ShapeRenderer(_PDFRenderer):
    """renderPDF's renderer, quicker on plain nodes and unchanged on every other; a plain node drawn
    again from the same state writes again what it wrote before (output.replay)."""

    def __init__(self) -> None:
        super().__init__()
        self.unvouched = 0  # nodes drawn by reportlab's own path that may not be repeated

    def drawNode(self, node: Any) -> None:
        method = PLAIN.get(type(node))
        canvas = self._canvas
        may_repeat = (method is not None and type(canvas) is Canvas and not (method == "drawPath" and node.isClipPath)
                      and repeatable(canvas))
        if may_repeat:
            replays, key = replays_of(canvas), entry(node, self, canvas)
            written = replays.kept.get(key)
            if written is not None and written.node is node:
                write_again(written, self, canvas)
                return
        delta = None if method is None else state_delta(node)
        if method is None or delta is None:
            if not getattr(type(node), "replayable", False):
                self.unvouched += 1
            if method is not None:  # a plain class drawGroup passed on unfilled: fill it as reportlab's would
                self.fillDerivedValues(node)
            super().drawNode(node)  # reportlab's own path, which dispatches back here for children
            return
        if not may_repeat:
            self.draw_plain(node, method, delta)
            return
        if not replays.again(node):
            self.draw_plain(node, method, delta)
            return
        before, code_at, forms_at, unvouched = effects(canvas), len(canvas._code), len(canvas._formsinuse), \
            self.unvouched
        self.draw_plain(node, method, delta)
        code = canvas._code[code_at:]
        if effects(canvas) == before and self.unvouched == unvouched and fit_to_repeat(code):
            replays.keep(key, Written(node, code, canvas._formsinuse[forms_at:], self._fill, self._stroke))

    def draw_plain(self, node: Any, method: str, delta: dict[str, Any]) -> None:
        """A plain node as renderPDF draws it: its state in q ... Q (a clipping path without)."""
        canvas, tracker = self._canvas, self._tracker
        clip = method == "drawPath" and node.isClipPath
        plain_canvas = type(canvas) is Canvas
        if not clip:
            save_state(canvas) if plain_canvas else canvas.saveState()
        combined = tracker._combined
        state = combined[-1].copy()
        state.update(delta)
        if "transform" in delta:
            state["ctm"] = mmult(combined[-1]["ctm"], delta["transform"])
        combined.append(state)
        tracker._deltas.append(delta)
        self.applyStateChanges(delta, {})
        getattr(self, method)(node)
        del combined[-1], tracker._deltas[-1]  # what StateTracker.pop does, less the undo it works out
        if not clip:
            restore_state(canvas) if plain_canvas else canvas.restoreState()

    def drawGroup(self, group: Any) -> None:
        for node in group.getContents():
            if type(node) in PLAIN:
                self.drawNode(node)  # which falls back to reportlab's path itself if it must
            else:
                self.draw_child_as_reportlab(group, node)

    def draw_child_as_reportlab(self, group: Any, anode: Any) -> None:
        """One child of a group exactly as reportlab's Renderer.drawGroup draws it."""
        from reportlab.graphics.renderbase import _expandUserNode

        canvas = self._canvas
        node = _expandUserNode(anode, canvas)
        if not node:
            return
        self.fillDerivedValues(node)
        ocanvas = hasattr(node, "_canvas")
        try:
            if not ocanvas:
                node._canvas = canvas
            if node is not anode:
                anode._parent = group
                node._parent = anode
            else:
                node._parent = group
            self.drawNode(node)
        finally:
            if node is not anode:
                del anode._parent
            del node._parent
            if not ocanvas:
                del node._canvas


def state_delta(node: Any) -> dict[str, Any] | None:
    """The state the node sets, in its attributes' order (as renderbase.getStateDelta finds it), or
    None when the node needs reportlab's own path (a derived value, a draw-time callback)."""
    delta = {}
    for key, value in node.__dict__.items():
        if isinstance(value, DerivedValue) or key == "_drawTimeCallback":
            return None
        if key in STATE_KEYS:
            delta[key] = value
    return delta


def save_state(canvas: Canvas) -> None:
    """Canvas.saveState, the same state kept, with less overhead per call."""
    kept = canvas.__dict__
    canvas.state_stack.append({name: kept[name] for name in STATE_ATTRIBUTES})
    canvas._extgstate = canvas._extgstate.pushCopy()
    canvas._code.append("q")


def restore_state(canvas: Canvas) -> None:
    """Canvas.restoreState."""
    canvas._code.append("Q")
    canvas.__dict__.update(canvas.state_stack.pop())


def draw(drawing: Drawing, canvas: Any, x: float = 0, y: float = 0) -> None:
    """renderPDF.draw with this renderer."""
    ShapeRenderer().draw(renderScaledDrawing(drawing), canvas, x, y)


def fresh(canvas: Any, defaults: Any) -> ShapeRenderer:
    """A renderer set up to draw straight onto `canvas` (a form's content) from `defaults`' state."""
    renderer = ShapeRenderer()
    renderer._canvas = canvas
    renderer._tracker = StateTracker(defaultObj=defaults)
    return renderer


__all__ = ["ShapeRenderer", "draw", "fresh"]
