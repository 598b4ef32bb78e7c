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
from printgen.output.pdf import write_pdf
from printgen.output.png import write_png
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


def write_all(documents: Sequence[Document], source: SourceMap) -> list[Artifact]:
    """Every document as an artifact, in order; the `apart` ones are written by a forked helper on
    another core meanwhile. Raises one DefinitionError holding every document's problems."""
    apart = [doc for doc in documents if doc.apart]
    with beside(lambda: [written(doc, source) for doc in apart], fork=bool(apart)) as helper:
        here = {id(doc): written(doc, source) for doc in documents if not doc.apart}
        there = dict(zip((id(doc) for doc in apart), helper.result()))
    artifacts: list[Artifact] = []
    problems: list[Problem] = []
    for doc in documents:
        data, found = here.get(id(doc)) or there[id(doc)]
        problems += found
        artifacts += [Artifact(name, data) for name in (doc.name, *doc.also)]
    if problems:
        raise DefinitionError(list(dict.fromkeys(problems)))
    return artifacts
