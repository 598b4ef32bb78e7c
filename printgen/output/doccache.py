"""Documents already written in this process, kept by a digest of everything they draw, so a
rebuild in `build --watch` or `serve` does not draw again a picture whose shapes did not change
(Omiga's contact sheet and its 72 tile SVGs after an edit that only touches the rules or the
backs; everything in a rebuild that changed nothing at all).

Only documents of shapes alone are kept: no story, no frames, no checks after drawing, no
problems known beforehand, since text flowing through frames is not a tree of plain values that
can be digested. The digest reads every attribute of every shape, children in order; a picture
an SVG names by file, by the file's bytes; a value that is not a number, text, colour or list of
them (loaded art, a decoded picture) by its identity (art.library loads art again when a file it
draws from changes), and each kept entry holds its pages alive, so such an identity can never be
taken by another object while the entry stands. Off until `keep_documents()` is called (the watch loop
does; a one-off build would only pay for the digests), and always off under `PRINTGEN_NO_CACHE=1`.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any, Callable

from reportlab.graphics.shapes import DirectDraw, Group, Image, Shape
from reportlab.lib.colors import Color

from printgen.core.fingerprint import caching_off, file_digest
from printgen.drawing.document import Document

MAX_ENTRIES = 1024
MAX_BYTES = 64 * 1024 * 1024  # a rebuild of the bundled games keeps well under 2 MiB

_kept: OrderedDict[str, tuple[bytes, Any]] = OrderedDict()  # key -> (bytes, what keeps ids alive)
_held = [0]  # bytes held in `_kept`
_on = [False]


def keep_documents(on: bool = True) -> None:
    """Keep written documents for the rest of this process (a process that rebuilds), or stop."""
    _on[0] = on
    if not on:
        _kept.clear()
        _held[0] = 0


# Groups that are never changed once made (pieces placed in their boxes, handed out again by every
# rebuild: games.pieces.placed_once), with their digests once worked out, which then hold for good.
# Each entry holds its group, so its id names no other group while it stands.
_settled: OrderedDict[int, tuple[Group, str | None]] = OrderedDict()
MOST_SETTLED = 8192


def settle(group: Group) -> Group:
    """Mark `group` as never to change again, so its digest is worked out once in this process."""
    _settled[id(group)] = (group, None)
    while len(_settled) > MOST_SETTLED:
        _settled.popitem(last=False)
    return group


def document_keys(docs: list[Document], writer_of: Callable[[Document], Callable[[Document], bytes]],
                  untitled: frozenset[str] = frozenset()) -> dict[int, str | None]:
    """The key of each document (by `id`), or None where it is not kept. A group drawn in several
    documents (a tile face in the contact sheet and in its own SVG) is read once. Documents of the
    `untitled` kinds are kept without their title, which the caller puts in (an SVG's <title>)."""
    if not _on[0] or caching_off():
        return {id(doc): None for doc in docs}
    seen: dict[int, str] = {}  # id of a group -> digest of its subtree; valid while nothing draws
    keys: dict[int, str | None] = {}
    for doc in docs:
        try:
            keys[id(doc)] = document_key(doc, writer_of(doc), seen, doc.kind in untitled)
        except RecursionError:  # shapes nested past Python's limit: simply not kept
            keys[id(doc)] = None
    return keys


def document_key(doc: Document, writer: Callable[[Document], bytes], seen: dict[int, str],
                 untitled: bool = False) -> str | None:
    """The digest a document of shapes alone is kept by, or None when it is not kept; `untitled`
    leaves the title out, for bytes kept without it."""
    if not doc.shapes_alone():
        return None
    if doc.draw is not None:  # pages made only while it is written (a deck's): nothing to digest before
        return None
    # a PNG is pixels: the title, subject and duplex wish of the PDF it is rasterised from are not
    # in it, so a new title does not draw the Omiga contact sheet again; an SVG kept untitled gets
    # its title put in on each use, so nor do Omiga's 72 tile SVGs
    told: tuple[Any, ...] = (() if doc.kind == "png" else (doc.subject, doc.flip) if untitled
                             else (doc.title, doc.subject, doc.flip))
    parts: list[str] = [repr((doc.kind, id(writer), doc.paper, told, doc.dpi, doc.breaks, len(doc.pages)))]
    for page in doc.pages:
        parts.append(repr((page.trim_box, page.bleed_box, page.shift, len(page.shapes))))
        for shape in page.shapes:
            describe(shape, parts, seen)
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def describe(shape: Any, parts: list[str], seen: dict[int, str]) -> None:
    """Append every attribute of `shape` (private ones too) to `parts`, children in order; a group
    as the digest of its own description, read once however often it recurs."""
    if isinstance(shape, Group):
        known = seen.get(id(shape))
        if known is None:
            settled = _settled.get(id(shape))
            if settled is not None and settled[0] is shape and settled[1] is not None:
                known = seen[id(shape)] = settled[1]
            else:
                own: list[str] = []
                describe_attributes(shape, own, seen)
                known = seen[id(shape)] = hashlib.sha256("\x00".join(own).encode()).hexdigest()
                if settled is not None and settled[0] is shape:
                    _settled[id(shape)] = (shape, known)
        parts.append(known)
    else:
        describe_attributes(shape, parts, seen)


def describe_attributes(shape: Any, parts: list[str], seen: dict[int, str]) -> None:
    parts.append(type(shape).__qualname__)
    if isinstance(shape, Image) and isinstance(shape.path, str):
        # a picture an SVG names by file (svglib keeps the name): read when written, so its
        # bytes count, or a picture replaced under the same name would keep the old one
        parts.append("file=" + file_digest(shape.path))
    attributes = vars(shape) if hasattr(shape, "__dict__") else {}
    for key in sorted(attributes):
        value = attributes[key]
        if key == "contents":
            for child in value:
                describe(child, parts, seen)
        elif key in NOT_DRAWN:
            continue
        elif isinstance(value, (Shape, DirectDraw)):  # a form's group (output.reuse.Reused)
            parts.append(key + "=(")
            describe(value, parts, seen)
            parts.append(")")
        else:
            parts.append(key + "=" + plain(value))
    parts.append("/")


# the attributes' validators, and where a renderer is (set only while a node is being drawn)
NOT_DRAWN = frozenset({"_attrMap", "_parent", "_canvas"})
PLAIN = (type(None), bool, int, float, str, bytes)


def plain(value: Any) -> str:
    """Numbers, text, colours and lists of them by value; anything else by identity."""
    kind = type(value)
    if kind in PLAIN:
        return repr(value)
    if isinstance(value, Color):
        return f"{kind.__name__}{sorted(vars(value).items())!r}"
    if kind is list or kind is tuple:
        if all(type(v) in PLAIN for v in value):
            return repr(value)
        return "[" + ",".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{plain(k)}:{plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple, bool, int, float, str, bytes)):  # a subclass: by value too
        return kind.__qualname__ + repr(value)
    return f"{kind.__qualname__}@{id(value)}"


def kept(key: str | None) -> bytes | None:
    """The bytes written before under `key`, if still kept."""
    if key is None or key not in _kept:
        return None
    _kept.move_to_end(key)
    return _kept[key][0]


def keep(key: str | None, doc: Document, writer: Callable[[Document], bytes], data: bytes) -> None:
    """Remember `data` as what `doc` writes to; the oldest entries go past the limits."""
    if key is None or not data or key in _kept:
        return
    _kept[key] = (data, (doc.pages, writer))
    _held[0] += len(data)
    while len(_kept) > MAX_ENTRIES or _held[0] > MAX_BYTES:
        _, (old, _alive) = _kept.popitem(last=False)
        _held[0] -= len(old)
