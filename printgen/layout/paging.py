"""The layout step: a game's growing documents become pages before their writer runs (the build
hands `laid_out` to printgen.output.writers.write_all, which calls it on the core that then writes
the document, so laying out a deck's rulebook still overlaps writing its sheets).

A `Growing` document (a rulebook, a booklet's half-size pages) gets the least page count its story
fills, found by pouring the story through each count's frames on a throwaway canvas, as platypus
fills frames (flowables' own `wrap` and `split`); no PDF is written to count pages. Its last page
may then be remade for the text that reaches it (`Grow.balance`: columns that end level). A story
that no count holds becomes a problem located at the document's `overflow` key instead of pages.
The writers then only serialise what this step made, each document once.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from reportlab.platypus import Flowable

from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap
from printgen.drawing import fonts
from printgen.drawing.document import Document, DoesNotFit, Growing, Page, TextOverflow
from printgen.drawing.flow import Trial, pour_page


def grown(growing: Growing) -> tuple[list[Page], list[Flowable]]:
    """The pages at the least count whose frames take the whole story, with the story for them;
    TextOverflow (with the fixed last page's blame when only that page overflows) when none does.
    The story is made once: a pour splits blocks into new ones and leaves the story's own as they
    were, so each count, and then the writer, pours a copy of the list (as platypus's multiBuild
    lays out one story again on each pass)."""
    grow, breaks = growing.grow, growing.document.breaks
    fonts.register()
    canvas = Trial()
    overflow = TextOverflow([])
    story = grow.story()
    for count in range(grow.first, grow.last + 1):
        pages = grow.pages(count)
        remaining, carried = list(story), False
        for page in pages[:-1]:
            carried = pour_page(page, remaining, canvas, breaks)
        reaching = list(remaining)  # the text the last page gets
        pour_page(pages[-1], remaining, canvas, breaks)
        if not remaining:
            if grow.balance is not None:
                pages = [*pages[:-1], grow.balance(pages[-1], reaching)]
            return pages, list(story)
        if grow.fixed_last is not None and not carried:  # another page would not help
            raise TextOverflow(remaining, blame=grow.fixed_last)
        overflow = TextOverflow(remaining, carried)
    raise overflow


def laid_out(item: Document | Growing, source: SourceMap) -> tuple[Document, list[Problem]]:
    """The document with its pages, and the problems its layout met, located through `source`; a
    document that could not be laid out has no pages (its problems say why)."""
    if isinstance(item, Document):
        return item, []
    doc = item.document
    try:
        pages, story = grown(item)
    except TextOverflow as exc:
        blame = exc.blame or doc.overflow
        if blame is None:
            raise
        return doc, [source.problem(blame.key, f"{blame.what}: {exc}; {blame.advice}")]
    except DoesNotFit as exc:
        return doc, [source.problem(exc.loc, f"{doc.label}: {exc.message}" if doc.label else exc.message)]
    except DefinitionError as exc:  # a figure that placed its own problems
        return doc, list(exc.problems)
    return (item.then(pages, story) if item.then is not None else replace(doc, pages=pages, story=story)), []


def lay_out(items: Sequence[Document | Growing], source: SourceMap) -> tuple[list[Document], list[list[Problem]]]:
    """`laid_out` for each item, in order: the documents, and each one's problems."""
    laid = [laid_out(item, source) for item in items]
    return [doc for doc, _ in laid], [found for _, found in laid]
