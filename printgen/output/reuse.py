"""Pictures that recur (a deck back on every slot, the same cut marks on every sheet), stored once:
`reusable(group)` makes the PDF writer define a group once per document as a form XObject, shared by
identical groups (matched by a digest of their content, numbered in order of first use, so the bytes
stay the same), and only place it (`/Name Do`) after. Elsewhere (SVG) the group is drawn.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from reportlab.graphics.shapes import DirectDraw, Group
from reportlab.lib.colors import Color

from printgen.drawing import fonts
from printgen.drawing.libadapter import canvas_of, draw_with_fresh_renderer, form_resources, needs_own_resources


class Reused(DirectDraw):
    """A group that a PDF stores once as a form and places wherever it recurs."""

    def __init__(self, group: Group, key: str) -> None:
        self.group = group
        self.key = key  # equal keys draw the same picture

    def getBounds(self) -> tuple[float, float, float, float]:
        return self.group.getBounds()

    def copy(self) -> "Reused":
        return Reused(self.group, self.key)

    def drawDirectly(self, renderer: Any) -> None:
        canvas = canvas_of(renderer)
        names = getattr(canvas, "printgen_forms", None)  # this document's forms by key (PrintCanvas)
        if names is None:  # not printgen's PDF writer (SVG, a measuring canvas): draw it as a group
            renderer.drawNode(self.group)
            return
        if self.key not in names:
            names[self.key] = f"PGForm{len(names) + 1}"
            define(canvas, self.group, names[self.key])
        canvas.doForm(names[self.key])

    @property
    def svg_group(self) -> Group:
        """What the SVG writer draws: the group itself."""
        return self.group


class Defaults:
    """What a fresh renderer assumes before the form's first shape (never Helvetica)."""

    initialFontName = fonts.REGULAR


def define(canvas: Any, group: Group, name: str) -> None:
    """Draw `group` into a new form with a fresh renderPDF renderer; every shape sets its own colours,
    widths, dashes and fonts, so the form looks the same wherever it is placed."""
    x0, y0, x1, y1 = group.getBounds()
    pad = widest_stroke(group) + 0.01 * max(x1 - x0, y1 - y0, 1.0)  # bounds leave out stroke width
    canvas.beginForm(name, x0 - pad, y0 - pad, x1 + pad, y1 + pad)
    draw_in_form(canvas, group)
    if needs_own_resources(canvas):  # an opacity, spot colour or shading: list them in the form
        canvas.endForm(Resources=form_resources(canvas))
    else:
        canvas.endForm()  # reportlab's own resources suffice (and keep the bytes they always had)


def draw_in_form(canvas: Any, group: Group) -> None:
    """Draw `group` with a fresh renderer of its own: a page's renderer may be midway through
    drawing the shape that asked for the form."""
    draw_with_fresh_renderer(canvas, group, Defaults)


def widest_stroke(shape: Any) -> float:
    if isinstance(shape, Group):
        return max((widest_stroke(child) for child in shape.contents), default=0.0)
    if isinstance(shape, Reused):
        return widest_stroke(shape.group)
    return float(getattr(shape, "strokeWidth", 0) or 0) if getattr(shape, "strokeColor", None) else 0.0


def fingerprint(shape: Any, digest: Any) -> None:
    """Feed everything that decides how `shape` looks into `digest`, children in order."""
    digest.update(type(shape).__name__.encode())
    if isinstance(shape, Reused):
        fingerprint(shape.group, digest)
        return
    properties = shape.getProperties() if hasattr(shape, "getProperties") else vars(shape)
    for key in sorted(properties):
        if key != "contents":
            digest.update(f"{key}={plain(properties[key])};".encode())
    for child in getattr(shape, "contents", ()):
        fingerprint(child, digest)
    digest.update(b"/")


def plain(value: Any) -> str:
    """Numbers, text, colours and lists of them by value; anything else (loaded art, fonts) by
    identity, which is what a document shares anyway, and which never reads large data."""
    if value is None or isinstance(value, (bool, int, float, str, Color)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(plain(v) for v in value) + "]"
    return f"id:{id(value)}"


def reusable(group: Group) -> Reused:
    """`group`, to be stored once per PDF however often it is placed (same content, same form)."""
    digest = hashlib.sha256()
    fingerprint(group, digest)
    return Reused(group, digest.hexdigest())


class Forms:
    """`reusable` for pictures placed again and again, each group object (a Group hashes by identity)
    digested once while among the last `keep` (a thousand digests of a deck's one back were a fifth
    of imposing a 1,000-card deck)."""

    def __init__(self, keep: int = 64) -> None:
        self.reused = lru_cache(maxsize=keep)(reusable)

    def __call__(self, group: Group) -> Reused:
        return self.reused(group)
