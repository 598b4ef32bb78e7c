"""The table of writers, chosen by a document's kind, and the one place where a layout failure
(text that does not fit, a figure too wide for its column) becomes a problem located in the
definition. Every document of a build is written before any problem is reported, so a user sees
them all at once, and nothing reaches the disk while one stands.
"""
from __future__ import annotations

from typing import Callable, Sequence

from printgen.core.build import Artifact
from printgen.core.parallel import beside
from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap
from printgen.drawing.document import Document, DoesNotFit, Located, TextOverflow
from printgen.output.doccache import document_keys, keep, kept
from printgen.output.pdf import write_pdf
from printgen.output.png import write_png, write_pngs
from printgen.output.svg import write_svg

WRITERS: dict[str, Callable[[Document], bytes]] = {"pdf": write_pdf, "svg": write_svg, "png": write_png}


def write(doc: Document) -> bytes:
    """The document's bytes, from the writer for its kind."""
    try:
        writer = WRITERS[doc.kind]
    except KeyError:
        raise ValueError(f"no writer makes '.{doc.kind}' files ({doc.name})") from None
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
    """A one-page PNG of shapes alone: nothing about it can fail in a way to be located."""
    return (doc.kind == "png" and len(doc.pages) == 1 and not doc.story and doc.grow is None
            and doc.after is None and not doc.problems and not doc.pages[0].frames)


def written_many(documents: Sequence[Document], source: SourceMap) -> list[tuple[bytes, list[Problem]]]:
    """`written` for each document; simple pictures of one size and resolution are made together
    (printgen.output.png.write_pngs), which for a deck of a thousand cards is several times quicker."""
    results: dict[int, tuple[bytes, list[Problem]]] = {}
    batches: dict[tuple[float, float, float], list[Document]] = {}
    for doc in documents:
        if simple_picture(doc):
            batches.setdefault((doc.paper.width, doc.paper.height, doc.dpi), []).append(doc)
    for batch in batches.values():
        if len(batch) > 1:
            results.update((id(doc), (data, [])) for doc, data in zip(batch, write_pngs(batch)))
    return [results.get(id(doc)) or written(doc, source) for doc in documents]


def write_all(documents: Sequence[Document], source: SourceMap) -> list[Artifact]:
    """Every document as an artifact, in order; the `apart` ones are written by a forked helper on
    another core meanwhile. Raises one DefinitionError holding every document's problems."""
    keys = document_keys(list(documents), lambda doc: WRITERS.get(doc.kind, write))
    done: dict[int, tuple[bytes, list[Problem]]] = {}
    for doc in documents:  # written before in this process (output.doccache: only when rebuilding)
        data = kept(keys[id(doc)])
        if data is not None:
            done[id(doc)] = (data, [])
    apart = [doc for doc in documents if doc.apart and id(doc) not in done]
    with beside(lambda: written_many(apart, source), fork=bool(apart)) as helper:
        here = {id(doc): written(doc, source) for doc in documents if not doc.apart and id(doc) not in done}
        there = dict(zip((id(doc) for doc in apart), helper.result()))
    artifacts: list[Artifact] = []
    problems: list[Problem] = []
    for doc in documents:
        data, found = done.get(id(doc)) or here.get(id(doc)) or there[id(doc)]
        if not found and id(doc) not in done:
            keep(keys[id(doc)], doc, WRITERS.get(doc.kind, write), data)
        problems += found
        artifacts += [Artifact(name, data) for name in (doc.name, *doc.also)]
    if problems:
        raise DefinitionError(list(dict.fromkeys(problems)))
    return artifacts
