"""The table of writers, chosen by a document's kind, and the one place where a layout failure
(text that does not fit, a figure too wide for its column) becomes a problem located in the
definition. Every document of a build is written before any problem is reported, so a user sees
them all at once, and nothing reaches the disk while one stands.
"""
from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from printgen.core.build import Artifact
from printgen.core.parallel import Beside, beside, can_fork, on_cores
from printgen.core.problems import DefinitionError, Problem
from printgen.core.spill import Held, Spill, in_memory
from printgen.core.source import SourceMap
from printgen.drawing.document import Document, DoesNotFit, Located, TextOverflow
from printgen.output.doccache import document_keys, keep, kept
from printgen.output.pdf import write_pdf
from printgen.output.png import pictures, write_png, write_pngs_kept
from printgen.output.svg import with_title, without_title, write_svg

if TYPE_CHECKING:
    from printgen.output.cellpages import Cells

WRITERS: dict[str, Callable[[Document], bytes]] = {"pdf": write_pdf, "svg": write_svg, "png": write_png}
# kinds whose bytes are kept without the document's title, put back in on each use: (take it out,
# or None when that cannot be undone exactly; put it in)
UNTITLED: dict[str, tuple[Callable[[bytes, str], bytes | None], Callable[[bytes, str], bytes]]] = {
    "svg": (without_title, with_title)}
SPILL_AFTER = 300  # documents: a build that makes more keeps each file on disk once it is made
Hold = Callable[[bytes], Held]
Written = tuple[Held, list[Problem]]


def write(doc: Document) -> bytes:
    """The document's bytes, from the writer for its kind."""
    try:
        writer = WRITERS[doc.kind]
    except KeyError:
        raise ValueError(f"no writer makes '.{doc.kind}' files ({doc.name})") from None
    if doc.draw is not None and doc.kind != "pdf":  # a picture of one page: drawn now, let go after
        doc = replace(doc, pages=list(doc.draw()), draw=None)
    return writer(doc)


def written(doc: Document, source: SourceMap) -> tuple[bytes, list[Problem]]:
    """The document's bytes (empty when its layout failed) and every problem its layout met, located
    in the definition that `source` maps."""
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
    if doc.after is not None and data:
        found += doc.after()
    return data, [source.problem(loc, message) for loc, message in found] + problems


def simple_picture(doc: Document) -> bool:
    """A one-page PNG of shapes alone (or drawn later, which is shapes alone): nothing about it can
    fail in a way to be located."""
    return doc.kind == "png" and doc.shapes_alone() and (doc.draw is not None or len(doc.pages) == 1)


def written_kept(doc: Document, source: SourceMap, hold: Hold) -> Written:
    data, problems = written(doc, source)
    return hold(data), problems


def written_many(documents: Sequence[Document], source: SourceMap, hold: Hold = in_memory) -> list[Written]:
    """`written` for each document; simple pictures of one size and resolution are made together
    (printgen.output.png.pictures), which for a deck of a thousand cards is several times quicker.
    The largest such batch is shared out on every core in runs of a page of pictures, each run
    writing, in order, the other documents between its pictures (a card's SVG just before its PNG,
    so the card is drawn once for both)."""
    from printgen.output.cellpages import Cells

    results: dict[int, Written] = {}
    batches: dict[tuple[float, float, float], list[Document]] = {}
    for doc in documents:
        if simple_picture(doc):
            batches.setdefault((doc.paper.width, doc.paper.height, doc.dpi), []).append(doc)
    largest = max(batches.values(), key=len, default=[])
    for batch in batches.values():
        if len(batch) > 1 and batch is not largest:
            results.update((id(doc), (data, [])) for doc, data in zip(batch, write_pngs_kept(batch, hold)))
    if len(largest) < 2:
        return [results.get(id(doc)) or written_kept(doc, source, hold) for doc in documents]
    cells = Cells.of(largest[0].paper.width, largest[0].paper.height, largest[0].dpi, len(largest))
    members = {id(doc) for doc in largest}
    runs = runs_of([doc for doc in documents if id(doc) not in results], members, cells.per_page)
    for run, written_run in zip(runs, on_cores([partial(run_written, run, members, cells, source, hold)
                                                for run in runs])):
        results.update(zip((id(doc) for doc in run), written_run))
    return [results[id(doc)] for doc in documents]


def runs_of(documents: list[Document], members: set[int], size: int) -> list[list[Document]]:
    """The documents in order, cut into runs of `size` members each (the last may hold fewer);
    documents after the last member join the last run."""
    runs: list[list[Document]] = [[]]
    count = 0
    for doc in documents:
        if id(doc) in members:
            if count == size:
                runs.append([])
                count = 0
            count += 1
        runs[-1].append(doc)
    return runs


def run_written(run: list[Document], members: set[int], cells: Cells, source: SourceMap,
                hold: Hold) -> list[Written]:
    """One run: its pictures drawn and rasterised together, each other document written in its
    turn between them."""
    pictures_in = [doc for doc in run if id(doc) in members]
    others: dict[int, Written] = {}
    turns = iter(run)

    def write_until(index: int) -> None:  # every other document before picture `index`
        for doc in turns:
            if id(doc) in members:
                return
            others[id(doc)] = written_kept(doc, source, hold)

    pngs = iter(pictures(pictures_in, cells, hold, write_until))
    write_until(len(pictures_in))  # and those after the last
    return [others[id(doc)] if id(doc) in others else (next(pngs), []) for doc in run]


def write_all(made: Iterable[Document], source: SourceMap) -> list[Artifact]:
    """Every document as an artifact, in order; the `apart` ones are written by a forked helper on
    another core meanwhile. Raises one DefinitionError holding every document's problems.

    A build of more than SPILL_AFTER documents (a deck of hundreds of cards) puts each file in a
    private spill folder as soon as it is made (printgen.core.spill), so its memory does not grow
    with the number of cards; nothing reaches the output folder until the CLI writes the artifacts.
    A document written before in this process with the same shapes is not written again
    (output.doccache: only in a process that rebuilds); an SVG is kept without its title, which
    is put in on each use, so a new title does not draw every tile SVG again. In a rebuild, the
    documents to write are shared between this process and a helper by the times they took last.

    A game that hands its documents over one at a time (a generator) has each written as it comes
    (`written_as_made`)."""
    if not isinstance(made, Sequence):
        return artifacts_of(*written_as_made(made, source), None)
    documents = list(made)
    keys = document_keys(documents, lambda doc: WRITERS.get(doc.kind, write), frozenset(UNTITLED))
    done = {id(doc): found for doc in documents if (found := kept_written(doc, keys[id(doc)])) is not None}
    pending = [doc for doc in documents if id(doc) not in done]
    elsewhere = shared_out(pending)
    apart = [doc for doc in pending if doc.apart or id(doc) in elsewhere]
    spill = Spill() if len(documents) > SPILL_AFTER else None
    hold: Hold = spill.keep if spill is not None else in_memory
    with beside(lambda: timed_many(apart, source, hold), fork=bool(apart)) as helper:
        here = {id(doc): timed_kept(doc, source, hold, SECONDS_TAKEN) for doc in pending
                if not (doc.apart or id(doc) in elsewhere)}
        results, seconds_there = helper.result()
        there = dict(zip((id(doc) for doc in apart), results))
        SECONDS_TAKEN.update(seconds_there)
    return artifacts_of(documents, keys, {**here, **there}, done, spill)


def written_as_made(made: Iterable[Document], source: SourceMap
                    ) -> tuple[list[Document], dict[int, str | None], dict[int, Written], dict[int, Written]]:
    """Each document written the moment the game hands it over, so drawing what comes later (a
    child drawing pieces) overlaps with writing what came before: by a helper of its own if it
    is `apart` or took long last time (`starts_early`), else here and now; one kept from before
    (output.doccache) is not written again. (documents, keys, written, kept)"""
    documents: list[Document] = []
    keys: dict[int, str | None] = {}
    written_now: dict[int, Written] = {}
    done: dict[int, Written] = {}
    with ExitStack() as stack:
        starters: list[tuple[Document, Beside[tuple[list[Written], dict[str, float]]]]] = []
        for doc in made:
            documents.append(doc)
            keys.update(document_keys([doc], lambda doc: WRITERS.get(doc.kind, write), frozenset(UNTITLED)))
            found = kept_written(doc, keys[id(doc)])
            if found is not None:
                done[id(doc)] = found
            elif doc.apart or starts_early(doc):
                starters.append((doc, stack.enter_context(beside(partial(timed_many, [doc], source, in_memory)))))
            else:
                written_now[id(doc)] = timed_kept(doc, source, in_memory, SECONDS_TAKEN)
        for doc, starter in starters:
            results, seconds_there = starter.result()
            written_now[id(doc)] = results[0]
            SECONDS_TAKEN.update(seconds_there)
    return documents, keys, written_now, done


def kept_written(doc: Document, key: str | None) -> Written | None:
    """The bytes of `doc` written before in this process (output.doccache), with its title put
    back in where it was kept without; None when none are kept."""
    cached = kept(key)
    if cached is None:
        return None
    return (UNTITLED[doc.kind][1](cached, doc.title) if doc.kind in UNTITLED else cached), []


def artifacts_of(documents: list[Document], keys: dict[int, str | None], written_now: dict[int, Written],
                 done: dict[int, Written], spill: Spill | None) -> list[Artifact]:
    """The documents' artifacts, listed by their `order`, each written one kept (output.doccache);
    one DefinitionError for every problem found."""
    if len(SECONDS_TAKEN) > MOST_KEPT:
        SECONDS_TAKEN.clear()
    artifacts: list[Artifact] = []
    problems: list[Problem] = []
    for doc in sorted(documents, key=lambda doc: doc.order):
        data, found = done.get(id(doc)) or written_now[id(doc)]
        if not found and id(doc) not in done and isinstance(data, bytes):
            body = UNTITLED[doc.kind][0](data, doc.title) if doc.kind in UNTITLED else data
            if body is not None:
                keep(keys[id(doc)], doc, WRITERS.get(doc.kind, write), body)
        problems += found
        artifacts += [artifact(name, data, spill) for name in (doc.name, *doc.also)]
    if problems:
        raise DefinitionError(list(dict.fromkeys(problems)))
    return artifacts


# Seconds each document (by file name) took to write when last written alone in this process, so a
# rebuild (`build --watch`, `serve`) can share the documents it must write again between this core
# and a forked helper; a first build only sends the `apart` ones.
SECONDS_TAKEN: dict[str, float] = {}
SHARE_FROM = 0.02  # s of writing, all told, worth a helper: one costs some 3 ms to start and answer
MOST_TIMED = 16  # documents a helper times at most (more are a deck's cards, made in batches)
MOST_SHARED = 16  # documents a rebuild shares out at most
MOST_KEPT = 1024  # times kept at most (a deck, a `serve` building many games); all forgotten past it


EARLY_FROM = 0.03  # s: a document that took this long last time is written as soon as it is made


def starts_early(doc: Document) -> bool:
    """Whether to hand `doc` to a helper the moment the game makes it: a rebuild's document that
    took long last time and is written anew each time (text flows through it, so it is never kept
    by its shapes), and a second core to write it on."""
    return (not doc.apart and not doc.shapes_alone() and SECONDS_TAKEN.get(doc.name, 0.0) >= EARLY_FROM
            and can_fork())


def shared_out(pending: Sequence[Document]) -> set[int]:
    """The documents (by id) a helper should write while this process writes the rest: the two
    sides' known times made as even as possible, longest first. None when any is `apart` (the
    helper then takes those), any time is unknown, or the whole is too quick to share."""
    if len(pending) < 2 or len(pending) > MOST_SHARED or any(doc.apart for doc in pending):
        return set()
    known = {id(doc): SECONDS_TAKEN[doc.name] for doc in pending if doc.name in SECONDS_TAKEN}
    if len(known) < len(pending) or sum(known.values()) < SHARE_FROM:
        return set()
    here = there = 0.0
    elsewhere: set[int] = set()
    for doc in sorted(pending, key=lambda doc: -known[id(doc)]):
        if there < here:
            there += known[id(doc)]
            elsewhere.add(id(doc))
        else:
            here += known[id(doc)]
    return elsewhere


def timed_kept(doc: Document, source: SourceMap, hold: Hold, seconds: dict[str, float]) -> Written:
    """`written_kept`, the time it took put in `seconds` by the document's name."""
    start = time.perf_counter()
    result = written_kept(doc, source, hold)
    seconds[doc.name] = time.perf_counter() - start
    return result


def timed_many(documents: Sequence[Document], source: SourceMap,
               hold: Hold) -> tuple[list[Written], dict[str, float]]:
    """`written_many`, perhaps in a helper, with the time of each document when there are only a
    handful, none of them pictures made together (the times go back with the results)."""
    seconds: dict[str, float] = {}
    if len(documents) > MOST_TIMED or sum(map(simple_picture, documents)) > 1:
        return written_many(documents, source, hold), seconds
    return [timed_kept(doc, source, hold, seconds) for doc in documents], seconds


def artifact(name: str, data: Held, spill: Spill | None) -> Artifact:
    if isinstance(data, tuple):
        return Artifact(name, b"", data, spill)
    return Artifact(name, data)
