"""A shape drawn again by writing again the PDF operators it wrote the first time.

A deck's cards share the shapes of elements whose values repeat (games.deck.drawn: the same box,
the same cost, the same rules text, the same picture), so a sheet draws the very same group again
and again, and renderPDF would work out every operator afresh each time. Drawn from the same state,
a shape writes the same operators, so output.renderer keeps what a shape wrote once it is seen a
second time, and from then on writes that again.

What a plain shape writes depends on the state it starts in only through what `entry` puts in the
key (whether fill and stroke are on, the canvas's font, size, leading and fill rule, and in a PDF
drawn to be rasterised the scale, which picks resampled art): it sets the
rest itself, inside its own `q ... Q`. Besides operators, drawing may record that the page uses a
form, which is kept and repeated too. Operators naming any other resource of the page (an
opacity's graphics state, a spot colour, a gradient), anything else drawing changed (a link), or a
shape the renderer cannot vouch for make what was written unfit to repeat, and that shape is drawn
afresh every time.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SEEN = 2048  # shapes remembered as drawn once (kept alive meanwhile, so an id names one shape)
KEPT = 512  # shapes whose operators are kept
# operators naming a resource the page itself must list (a graphics state, a shading, a colour
# space, a pattern): written again on another page, they would name one that page lacks
PAGE_RESOURCE = re.compile(r"/\S+ (gs|sh|cs|CS)\b| (scn|SCN)\b")


@dataclass(frozen=True)
class Written:
    """What one shape wrote from one state: its operators, the forms it used, the fill and stroke
    it left on (renderPDF keeps those from shape to shape)."""

    node: Any  # held, so that its id is not given to another shape meanwhile
    code: list[str]
    forms: list[str]
    fill: int
    stroke: int


class Replays:
    """One canvas's kept operators (a document's: forms and pages alike)."""

    def __init__(self) -> None:
        self.seen: dict[int, Any] = {}
        self.kept: dict[tuple[Any, ...], Written] = {}

    def again(self, node: Any) -> bool:
        """Whether `node` was drawn before (so worth keeping what it writes now)."""
        if self.seen.get(id(node)) is node:
            return True
        if len(self.seen) >= SEEN:
            self.seen.clear()
        self.seen[id(node)] = node
        return False

    def keep(self, key: tuple[Any, ...], written: Written) -> None:
        if len(self.kept) >= KEPT:
            self.kept.clear()
        self.kept[key] = written


def replays_of(canvas: Any) -> Replays:
    found = canvas.__dict__.get("_printgen_replays")
    if found is None:
        found = canvas.__dict__["_printgen_replays"] = Replays()
    return found


def entry(node: Any, renderer: Any, canvas: Any) -> tuple[Any, ...]:
    """The key of what `node` writes when drawn now: the node and the state it starts from. In a
    PDF drawn only to be rasterised, the scale it is drawn at too, since bitmap art picks its
    resampled copy by the pixels it covers (art.resample)."""
    key = (id(node), renderer._fill, renderer._stroke, canvas._fontname, canvas._fontsize, canvas._leading,
           canvas._fillMode)
    if canvas.__dict__.get("_printgen_raster_dpi"):
        return (*key, *renderer._tracker._combined[-1]["ctm"][:4])
    return key


def repeatable(canvas: Any) -> bool:
    """Whether what is drawn now may be kept or repeated: no opacity set (which decides whether a
    shape writes a graphics state)."""
    return not canvas._extgstate._d


def effects(canvas: Any) -> tuple[Any, ...]:
    """What drawing may change besides the operators and forms; equal before and after a shape,
    it changed none of it."""
    return (id(canvas._code), id(canvas._formsinuse), id(canvas._colorsUsed), len(canvas._colorsUsed),
            id(canvas._shadingUsed), len(canvas._shadingUsed), len(canvas._extgstate._c),
            id(canvas._annotationrefs), len(canvas._annotationrefs), canvas._formData)


def fit_to_repeat(code: list[str]) -> bool:
    """Whether operators may be written again on any page: none names a page's own resource (a
    form's name is repeated with the forms the page uses)."""
    return not any(PAGE_RESOURCE.search(line) for line in code)


def write_again(written: Written, renderer: Any, canvas: Any) -> None:
    canvas._code.extend(written.code)
    canvas._formsinuse.extend(written.forms)
    renderer._fill, renderer._stroke = written.fill, written.stroke
