"""Turning and clipping a deck element: `rotate` about `origin`, and `clip` to the card or a shape.

A clip is a reportlab Path marked `isClipPath` at the head of a group: renderPDF makes it the
group's clip (` W n`), the SVG writer a <clipPath>. It stays in card millimetres and does not turn
with the element, so what it keeps out is where the designer measured it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from reportlab.graphics.shapes import FILL_NON_ZERO, Group, Path, rotate, translate

from printgen.core.source import Loc
from printgen.drawing.picture import Matrix, compose, placed
from printgen.games.deck.model import Clip, Deck, Element, article, element_lists
from printgen.games.deck.paths import path_of
from printgen.games.deck.richtext import MarkupError, spans
from printgen.games.deck.typefaces import faces_asked
from printgen.jinja.values import is_template

TAKES = {"card": set(), "rect": {"x", "y", "width", "height", "radius"}, "ellipse": {"x", "y", "width", "height"},
         "path": {"d"}}  # the keys each kind of clip reads
KAPPA = 0.5522847498  # a quarter circle's control points, of its radius


@dataclass(frozen=True)
class CardClip:
    """An element clipped to the card and its bleed, which is known only when the side is placed."""

    shape: Any


def turning(angle: float, x: float, y: float) -> Matrix | None:
    """The matrix turning a y-down card `angle` degrees clockwise about (x, y); None for no turn."""
    if angle % 360 == 0:
        return None
    return compose(translate(x, y), rotate(angle), translate(-x, -y))


def corners(x: float, y: float, w: float, h: float, matrix: Matrix | None) -> list[tuple[float, float]]:
    """The box's corners where the matrix puts them."""
    a, b, c, d, e, f = matrix or (1, 0, 0, 1, 0, 0)
    return [(a * px + c * py + e, b * px + d * py + f) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]


def placed_element(shape: Any, matrix: Matrix | None, clip: Clip | None) -> Any:
    """The drawn element turned, then clipped in card coordinates; itself when neither is asked."""
    if matrix is not None:
        shape = placed(shape, matrix)
    if clip is None:
        return shape
    if clip.type == "card":
        return CardClip(shape)
    return Group(clip_path(clip), shape)


def on_card(shape: Any, width: float, height: float, bleed: float) -> Any:
    """A drawn element for a side placed with `bleed`: a CardClip clipped to the card and its bleed."""
    if not isinstance(shape, CardClip):
        return shape
    return Group(clip_path(Clip(x=-bleed, y=-bleed, width=width + 2 * bleed, height=height + 2 * bleed)),
                 shape.shape)


def clip_path(clip: Clip) -> Path:
    """The clip's outline as a clipping path (painted neither filled nor stroked)."""
    kind = clip.type or ("path" if clip.d is not None else "rect")
    if kind == "path":
        path = path_of(clip.d or "")
    else:
        path = Path()
        x, y, w, h = clip.x, clip.y, clip.width or 0.0, clip.height or 0.0
        if kind == "ellipse":
            rounded(path, x, y, w, h, w / 2, h / 2)
        else:
            r = min(clip.radius, w / 2, h / 2)
            rounded(path, x, y, w, h, r, r)
    path.isClipPath, path.fillMode = 1, FILL_NON_ZERO
    path.fillColor = path.strokeColor = None
    path.strokeWidth = 0
    return path


def rounded(path: Path, x: float, y: float, w: float, h: float, rx: float, ry: float) -> None:
    """A box with quarter-ellipse corners of radii (rx, ry): a rect at 0, an ellipse at half the box."""
    if rx <= 0 or ry <= 0:
        path.moveTo(x, y)
        for px, py in ((x + w, y), (x + w, y + h), (x, y + h)):
            path.lineTo(px, py)
        path.closePath()
        return
    kx, ky = rx * KAPPA, ry * KAPPA
    path.moveTo(x + rx, y)
    path.lineTo(x + w - rx, y)
    path.curveTo(x + w - rx + kx, y, x + w, y + ry - ky, x + w, y + ry)
    path.lineTo(x + w, y + h - ry)
    path.curveTo(x + w, y + h - ry + ky, x + w - rx + kx, y + h, x + w - rx, y + h)
    path.lineTo(x + rx, y + h)
    path.curveTo(x + rx - kx, y + h, x, y + h - ry + ky, x, y + h - ry)
    path.lineTo(x, y + ry)
    path.curveTo(x, y + ry - ky, x + rx - kx, y, x + rx, y)
    path.closePath()


def check_placing(defn: Deck) -> Iterable[tuple[Loc, str]]:
    """Clips that draw nothing or cannot be read, and markup in a text written in the definition,
    told at their lines before any row is read (a templated text is read per row, faces.py)."""
    for at, elements in element_lists(defn):
        for i, element in elements:
            for key, message in placing_problems(element, defn.fonts):
                yield (*at, i, *key), message


def placing_problems(element: Element, fonts: Mapping[str, Any]) -> Iterable[tuple[Loc, str]]:
    """One element's clip and written markup, each problem at its key within the element."""
    clip = element.clip
    if clip is not None:
        kind = clip.type or ("path" if clip.d is not None else "rect")
        wrong = sorted((clip.model_fields_set - {"type"}) - TAKES[kind])
        if wrong:
            yield ("clip", wrong[0]), f"{article(kind)} {kind} clip takes no '{wrong[0]}'"
        if kind == "path":
            try:
                path_of(clip.d or "")
            except ValueError as exc:
                yield ("clip", "d"), str(exc)
        elif kind != "card" and (clip.width is None or clip.height is None):
            yield ("clip",), f"{article(kind)} {kind} clip needs 'width' and 'height' in mm"
    if element.type == "text" and element.text is not None and not is_template(element.text):
        yield from text_markup(element.text, element.font, (), fonts)


def text_markup(text: str, font: str, where: tuple[Any, ...], given: Mapping[str, Any]) -> Iterable[tuple[Loc, str]]:
    try:
        found = spans(text)
    except MarkupError as exc:
        yield (*where, "text"), str(exc)
        return
    missing = faces_asked({(s.style.bold, s.style.italic) for s in found}, font, given)
    if missing:
        yield (*where, "font"), missing


def centre_of(bounds: tuple[float, float, float, float]) -> tuple[float, float]:
    """The centre of (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = bounds
    return (x0 + x1) / 2, (y0 + y1) / 2

