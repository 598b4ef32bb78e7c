"""The one document model every game returns, and the layout failures a writer can meet.

A `Document` is plain data: pages of shapes, and a story poured through their frames. A document
whose page count is known only once its text is set is a `Growing`; the layout step
(printgen.layout.paging) turns it into a Document of the pages its text needs, or into located
problems, before any writer runs. Games never call a writer: printgen.output.writers writes each by
its suffix. Drawing is in millimetres, y up from the paper's bottom-left.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Iterable

from printgen.core.paper import Flip, Paper
from printgen.core.source import Loc

if TYPE_CHECKING:  # only named here: a document is built by code that has imported platypus already
    from reportlab.platypus import Flowable


@dataclass
class Page:
    """One side of a sheet: millimetre shapes and the rectangles text may flow into."""

    shapes: list[Any] = field(default_factory=list)
    frames: list[tuple[float, float, float, float]] = field(default_factory=list)  # x, y, w, h mm
    trim_box: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1 mm, before `shift`
    bleed_box: tuple[float, float, float, float] | None = None
    shift: tuple[float, float] = (0.0, 0.0)  # mm; moves all content (a duplex back offset)


class TextOverflow(Exception):
    """The story did not fit its frames; `spilled`: the page before the last passed text on to it."""

    def __init__(self, leftover: list[Flowable], spilled: bool = False, blame: Blame | None = None) -> None:
        self.leftover = leftover
        self.spilled = spilled
        self.blame = blame
        heading = next((f for f in leftover if getattr(f, "section", None)), None)
        where = f" (from section '{heading.section}')" if heading else ""
        super().__init__(f"{len(leftover)} block(s) of text did not fit on the pages{where}")


class DoesNotFit(Exception):
    """Raised by a figure that cannot be drawn in the width it is given; `loc` is the YAML key."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


@dataclass(frozen=True)
class Blame:
    """Where text that does not fit is placed in the definition, and what the user can do."""

    key: Loc
    what: str  # "the rules do not fit on one sheet"
    advice: str  # "lower text_size_pt"


@dataclass(frozen=True)
class Grow:
    """Pages for a count known once the text is set: `first`, then one more at a time up to `last`;
    the layout step tries each count by pouring the story on a throwaway canvas, not by writing."""

    pages: Callable[[int], list[Page]]
    story: Callable[[], list[Flowable]]  # the story, made when the layout step starts
    first: int
    last: int
    fixed_last: Blame | None = None  # the last page never moves: text overflowing it alone is told so
    # the last page remade for the text that reaches it (a rulebook's columns ending level), once it fits
    balance: Callable[[Page, list[Flowable]], Page] | None = None


Located = list[tuple[Loc, str]]


def cut_short(story: Iterable[Any]) -> Located:
    """What the story's blocks found cut short once drawn, each told once: a block that sets text
    in boxes of its own (a reference sheet's half) says so by an `overflow()` method, which gives
    where in the definition and what, or None when all of its text fit."""
    found = (item.overflow() for item in story if callable(getattr(item, "overflow", None)))
    return list(dict.fromkeys(where for where in found if where is not None))


@dataclass
class Document:
    """One output file: pages, a story poured through their frames, and how failures are told; its
    kind is its suffix (`pdf`, or the first page as `svg` or as `png` at `dpi`)."""

    name: str  # relative to the game's output folder, e.g. "svg/white-01.svg"
    paper: Paper  # the page size; for an SVG or PNG, the picture's size
    pages: list[Page]
    title: str
    subject: str = ""
    flip: Flip | None = None  # the duplex edge a PDF asks the printer for; None: one-sided
    story: list[Flowable] = field(default_factory=list)
    dpi: float = 0.0
    overflow: Blame | None = None  # where story left over is placed
    label: str = ""  # how a figure that does not fit names this document: "the Fracas reference sheet (A4)"
    problems: Located = field(default_factory=list)  # found while laying out, before any drawing
    also: tuple[str, ...] = ()  # the same bytes under these names too
    breaks: bool = False  # blocks may break across frames, so a booklet's columns end level
    draw: Callable[[], Iterable[Page]] | None = None  # instead of `pages`: shape pages made while
    # writing, page by page (a huge deck); may raise DefinitionError
    author: str = ""  # the PDF's Author: the game's designer as its definition names them, or nobody

    def shapes_alone(self) -> bool:
        """Nothing but shapes, so drawing can fail in no way that must be located."""
        if self.story or self.problems:
            return False
        return self.draw is not None or not any(page.frames for page in self.pages)

    def pages_now(self) -> Iterable[Page]:
        return self.pages if self.draw is None else self.draw()

    @property
    def kind(self) -> str:
        return PurePosixPath(self.name).suffix.lstrip(".")


@dataclass
class Growing:
    """A document whose page count depends on its text: `document` holds everything but its pages
    and story (its name, paper, titles, `overflow` and `label`), `grow` how to make them, `then`
    what the layout step makes of them when they are not the file itself."""

    document: Document
    grow: Grow
    # the pages found made into the document written instead (a booklet's sheets), when given
    then: Callable[[list[Page], list[Flowable]], Document] | None = None

    @property
    def name(self) -> str:
        return self.document.name
