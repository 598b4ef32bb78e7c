"""The table of writers by a document's kind, and the one loop that writes a build's documents once
the layout step (printgen.layout.paging) has made their pages. Text poured into a document's fixed
frames as it is written can still meet a layout failure (text that does not fit, a figure too wide),
which becomes a problem located in the definition here. Every document is written before any problem
is reported, so a user sees them all at once.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Callable, Sequence

from printgen.core.build import Artifact
from printgen.core.parallel import on_cores
from printgen.core.problems import DefinitionError, Problem
from printgen.core.staging import Held, Staging, in_memory
from printgen.core.source import SourceMap
from printgen.drawing.document import Document, DoesNotFit, Growing, Located, TextOverflow, cut_short
from printgen.output.pdf import write_pdf
from printgen.output.png import pictures, write_png, write_pngs_stored
from printgen.output.svg import write_svg

if TYPE_CHECKING:
    from printgen.output.cellpages import Cells

WRITERS: dict[str, Callable[[Document], bytes]] = {"pdf": write_pdf, "svg": write_svg, "png": write_png}
SPOOL_AFTER = 300  # documents: a build that makes more keeps each file on disk once it is made
Store = Callable[[bytes], Held]
Lay = Callable[[Growing, SourceMap], tuple[Document, list[Problem]]]  # printgen.layout.paging.laid_out


@dataclass(frozen=True)
class Written:
    """A document's bytes (in memory, or the file it was kept in) and the problems its layout met;
    sent back from a helper as plain data (`on_cores(..., kind=list[Written])`)."""

    data: Held
    problems: list[Problem]


def write(doc: Document) -> bytes:
    """The document's bytes, from the writer for its kind."""
    try:
        writer = WRITERS[doc.kind]
    except KeyError:
        raise ValueError(f"no writer makes '.{doc.kind}' files ({doc.name})") from None
    if doc.draw is not None and doc.kind != "pdf":  # a picture of one page: drawn now, let go after
        doc = replace(doc, pages=list(doc.draw()), draw=None)
    return writer(doc)


def written_stored(item: Document | Growing, source: SourceMap, store: Store, lay: Lay | None = None) -> Written:
    """The document's bytes (empty when its layout failed), handed to `store`, and every problem its
    layout met, located in the definition that `source` maps. A growing document is laid out by
    `lay` first (printgen.layout.paging.laid_out, handed down by the build), on the core that then
    writes it, so a deck's rulebook is laid out while this process writes its sheets."""
    if isinstance(item, Growing):
        if lay is None:
            raise ValueError(f"{item.name}: a growing document is laid out before it is written")
        doc, laid_problems = lay(item, source)
        if laid_problems:
            return Written(store(b""), laid_problems)
    else:
        doc = item
    found: Located = list(doc.problems)
    problems: list[Problem] = []
    data = b""
    try:
        data = write(doc)
    except TextOverflow as exc:
        blame = exc.blame or doc.overflow
        if blame is None:
            raise
        found.append((blame.key, f"{blame.what}: {exc}; {blame.advice}"))
    except DoesNotFit as exc:
        found.append((exc.loc, f"{doc.label}: {exc.message}" if doc.label else exc.message))
    except DefinitionError as exc:  # a figure that placed its own problems
        problems += exc.problems
    if data:
        found += cut_short(doc.story)
    return Written(store(data), [source.problem(loc, message) for loc, message in found] + problems)


def write_all(documents: Sequence[Document | Growing], source: SourceMap, scratch: str | None = None,
              lay: Lay | None = None) -> list[Artifact]:
    """Every document as an artifact, in order, each growing one laid out by `lay` just before it is
    written; one DefinitionError holding every document's problems. A build of more than SPOOL_AFTER documents (a deck of hundreds of cards) keeps each file
    on disk once made (printgen.core.staging, in the build's `scratch` folder), so its memory does not
    grow with the number of cards."""
    spool = Staging(scratch) if len(documents) > SPOOL_AFTER else None
    store: Store = spool.keep if spool is not None else in_memory
    results = written_all(documents, source, store, lay)
    artifacts: list[Artifact] = []
    problems: list[Problem] = []
    for item, result in zip(documents, results):
        problems += result.problems
        doc = item if isinstance(item, Document) else item.document
        artifacts += [artifact(name, result.data, spool) for name in (doc.name, *doc.also)]
    if problems:
        raise DefinitionError(list(dict.fromkeys(problems)))
    return artifacts


def simple_picture(doc: Document | Growing) -> bool:
    """A one-page PNG of shapes alone (or drawn later): nothing about it can fail to be located."""
    return isinstance(doc, Document) and doc.kind == "png" and doc.shapes_alone() and (doc.draw is not None or len(doc.pages) == 1)


def written_all(documents: Sequence[Document | Growing], source: SourceMap, store: Store,
                lay: Lay | None = None) -> list[Written]:
    """`written_stored` for each document, in order. Simple pictures of one size are drawn as cells of
    shared pages (png.pictures: a 1,000-card deck several times sooner) on other cores, while this
    process writes the rest (which may draw pieces whose warnings it must keep); the largest batch in
    runs of a page, each writing the documents between its pictures (a card's SVG just before its PNG)."""
    from printgen.output.cellpages import Cells

    results: dict[int, Written] = {}
    batches: dict[tuple[float, float, float], list[Document]] = {}
    for doc in documents:
        if isinstance(doc, Document) and simple_picture(doc):
            batches.setdefault((doc.paper.width, doc.paper.height, doc.dpi), []).append(doc)
    largest = max(batches.values(), key=len, default=[])
    for batch in batches.values():
        if len(batch) > 1 and batch is not largest:
            results.update((id(doc), Written(data, [])) for doc, data in zip(batch, write_pngs_stored(batch, store)))
    pending = [doc for doc in documents if id(doc) not in results]
    if len(largest) > 1:
        page = Cells.of(largest[0].paper.width, largest[0].paper.height, largest[0].dpi, len(largest))
        cells: Cells | None = page
        members = {id(doc) for doc in largest}
        first = next(i for i, doc in enumerate(pending) if id(doc) in members)
        here, runs = pending[:first], runs_of(pending[first:], members, page.per_page)
    else:
        cells, members = None, set()
        here = [doc for doc in pending if not simple_picture(doc)]
        runs = [[doc for doc in pending if simple_picture(doc)]]
    runs = [run for run in runs if run]
    jobs = [partial(run_written, run, members, cells, source, store, lay) for run in runs]
    mine = lambda: results.update((id(doc), written_stored(doc, source, store, lay)) for doc in here)  # noqa: E731
    for run, written_run in zip(runs, on_cores(jobs, meanwhile=mine, kind=list[Written])):
        results.update(zip(map(id, run), written_run))
    return [results[id(doc)] for doc in documents]


def runs_of(documents: list[Document | Growing], members: set[int], size: int) -> list[list[Document | Growing]]:
    """The documents in order, cut before every `size`-th member (the first is one); documents after
    the last member join the last run."""
    starts = [i for i, doc in enumerate(documents) if id(doc) in members][size::size]
    return [documents[a:b] for a, b in zip([0, *starts], [*starts, len(documents)])]


def run_written(run: list[Document | Growing], members: set[int], cells: Cells | None, source: SourceMap,
                store: Store, lay: Lay | None = None) -> list[Written]:
    """One run: its pictures drawn and rasterised together, each other document written in its
    turn between them."""
    pictures_in = [doc for doc in run if id(doc) in members and isinstance(doc, Document)]
    others: dict[int, Written] = {}
    turns = iter(run)

    def write_until(index: int) -> None:  # every other document before picture `index`
        for doc in turns:
            if id(doc) in members:
                return
            others[id(doc)] = written_stored(doc, source, store, lay)

    pngs = iter(pictures(pictures_in, cells, store, write_until) if pictures_in and cells else [])
    write_until(len(pictures_in))  # and those after the last
    return [others[id(doc)] if id(doc) in others else Written(next(pngs), []) for doc in run]


def artifact(name: str, data: Held, spool: Staging | None) -> Artifact:
    return Artifact(name, b"", data, spool) if isinstance(data, tuple) else Artifact(name, data)
