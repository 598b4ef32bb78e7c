"""A game's pieces drawn from SVG templates fed with plain data (docs/ARCHITECTURE.md, "Pieces
drawn from templates").

A game computes what its rules depend on (an Omiga semicircle's centre and radius, a form's
polygon) and hands it, as plain data in millimetres with y down from the piece's top-left corner,
to a Jinja template that writes an SVG. The template is found like a rules template: the
`--templates` folders, then the definition's `templates:` folder, then printgen's own.

`PieceTemplates.draw_many` renders every piece of a batch (72 tile faces, say) and converts each
distinct SVG with svglib in ONE bounded child, each distinct element once (`art.svgbatch`); the
child sends the drawings back pickled (`art.drawingdata`). Text goes into printgen's embedded
fonts (`art.svg.embedded_fonts`). Each drawing comes back as a reportlab group in millimetres, y up, placed at the piece's box
(0, 0, width, height), ready for the imposition code; the same piece asked for again (the contact
sheet, an SVG of one tile) is not drawn again.

Every template problem is a located DefinitionError: a Jinja failure at its file and line; an
SVG svglib cannot read, or that is too costly to draw, at the template's file. What svglib
leaves out (markers, filters...) and a drawing of the wrong size are warnings naming the file.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from reportlab.graphics.shapes import Drawing, Group, mmult

from printgen.core.bounded import Budget, BudgetExceeded, MiB, Running, start_bounded
from printgen.core.paper import PT_PER_MM
from printgen.core.problems import DefinitionError, Problem
from printgen.drawing.markup import line_of
from printgen.games.piecechild import shown_name
from printgen.games.piececache import Drawn
from printgen.games.piecekeys import MEMORY_KEYS, MOST_KEYS, keys_of
from printgen.jinja.plaindata import plain

PIECE_SECONDS = 0.05  # s each piece adds to a batch's budget (a tile face: ~3 ms to render and convert)
MAX_SECONDS = 120.0
PIECE_MEMORY = 768 * MiB  # as for one SVG art file
SIZE_TOLERANCE = 0.01  # mm: a template's <svg> further off the piece's size than this is reported


@dataclass(frozen=True)
class Piece:
    """One piece to draw: the template's data and the box it is drawn in (mm)."""

    context: Mapping[str, Any]
    width: float
    height: float
    label: str  # names the piece in messages: "tile white-03 (face)"


@dataclass
class PieceTemplates:
    """The piece templates of one build: where they are searched, every piece drawn so far (by
    template and data), and the warnings found while drawing."""

    user_dirs: tuple[Path, ...] = ()
    common: dict[str, Any] = field(default_factory=dict)  # plain data every piece's render sees too
    user_fonts: dict[str, str] = field(default_factory=dict)  # the definition's own fonts: name -> family
    drawn: dict[str, Group] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    sources: dict[str, tuple[Path, str]] = field(default_factory=dict)  # name -> (file, its text)
    shared: tuple[str | None] | None = None  # the cache key every piece of this build shares, once known
    parts: dict[Any, str] = field(default_factory=dict)  # piececache.common_part's memo
    children: list[Running] = field(default_factory=list)  # started; ended by `stop_children`

    def source(self, name: str) -> tuple[Path, str]:
        """The file template `name` is read from and its text (the first found in the search order)."""
        if name not in self.sources:
            from printgen.jinja.render import environment, searched

            env = environment(self.user_dirs)
            try:
                text, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
            except Exception as exc:  # noqa: BLE001 - missing, too big, a link out of its folder
                raise DefinitionError([Problem(name, 1, "", f"template error: cannot read the piece "
                                               f"template '{name}' from {searched(env.loader.searchpath)} "  # type: ignore[union-attr]
                                               f"({exc})")]) from None
            self.sources[name] = (Path(str(filename)), text)
        return self.sources[name]

    def where(self, name: str, snippet: str = "") -> tuple[str, int]:
        """The template's file as messages show it, and the line holding `snippet` (else 1)."""
        path, text = self.source(name)
        return shown_name(path), line_of(text, snippet) if snippet else 1

    def draw(self, name: str, piece: Piece) -> Group:
        return self.draw_many(name, [piece])[0]

    def draw_many(self, name: str, pieces: Sequence[Piece]) -> list[Group]:
        """Each piece drawn from template `name`, in order (see draw_batches)."""
        return self.draw_batches([(name, pieces)])[0]

    def draw_batches(self, batches: Sequence[tuple[str, Sequence[Piece]]]) -> list[list[Group]]:
        """Each batch's pieces drawn from its template, in order. The pieces not drawn before, of
        every batch, are taken from the caches (`piececache`: this process, then the disk) or
        else rendered and converted together in one bounded child."""
        return self.draw_batches_later(batches)[1]()

    def draw_batches_later(self, batches: Sequence[tuple[str, Sequence[Piece]]]
                           ) -> tuple[list[list[Group | None]], Callable[[], list[list[Group]]]]:
        """`draw_batches` begun: each batch's pieces to be had at once (drawn before, or kept in
        this process), placed, with None for the others; and the function giving every batch's
        pieces, which waits for the child drawing the others (started here, to work beside the
        caller meanwhile)."""
        keyed: list[list[str]] = []
        jobs: list[tuple[str, dict[str, tuple[Piece, Any]]]] = []
        for name, pieces in batches:
            keys = keys_of(name, pieces)
            wanted: dict[str, tuple[Piece, Any]] = {}
            for key, piece in zip(keys, pieces):
                if key not in self.drawn:
                    wanted.setdefault(key, (piece, None))  # its plain data made only if it is drawn
            keyed.append(keys)
            if wanted:
                jobs.append((name, wanted))

        def groups() -> list[list[Group]]:
            return [[self.drawn[key] for key in keys] for keys in keyed]

        if not jobs:
            return list(groups()), groups
        made = self.recalled(jobs)
        placed = {key: placed_once(made[key], piece.width, piece.height)
                  for _, wanted in jobs for key, (piece, _) in wanted.items() if key in made}
        now = [[self.drawn.get(key) or placed.get(key) for key in keys] for keys in keyed]
        missing = [(name, {k: (piece, plain(dict(piece.context))) for k, (piece, _) in wanted.items()
                           if k not in made}) for name, wanted in jobs]
        missing = [(name, wanted) for name, wanted in missing if wanted]
        converted = self.convert_later(missing) if missing else dict

        def finish() -> list[list[Group]]:
            made.update(converted())
            for name, wanted in jobs:
                self.take(name, wanted, made)
            return groups()

        return now, finish

    def cache_key(self) -> str | None:
        """What every piece of this build shares (piececache.environment_key), once per build;
        None when nothing may be cached."""
        if self.shared is None:
            from printgen.core.fingerprint import caching_off
            from printgen.games import piececache
            from printgen.jinja.render import bundled_dir

            key = None if caching_off() else \
                piececache.environment_key(self.user_dirs, bundled_dir(), self.user_fonts)
            self.shared = (key,)
        return self.shared[0]

    def memory_key(self, base: str, name: str, key: str) -> str:
        from printgen.games.piececache import common_part, digest

        part = common_part(base, name, self.common, self.parts)
        found = MEMORY_KEYS.get((base, part, key))
        if found is None:
            found = MEMORY_KEYS[(base, part, key)] = digest(base, key, part)
            if len(MEMORY_KEYS) > MOST_KEYS:
                MEMORY_KEYS.pop(next(iter(MEMORY_KEYS)))
        return found

    def recalled(self, jobs: list[tuple[str, dict[str, tuple[Piece, Any]]]]) -> dict[str, Drawn]:
        """The wanted pieces this process has drawn before, for a build just like this one."""
        from printgen.games.piececache import recall

        base = self.cache_key()
        found: dict[str, Drawn] = {}
        if base is not None:
            for name, wanted in jobs:
                for key in wanted:
                    drawn = recall(self.memory_key(base, name, key))
                    if drawn is not None:
                        found[key] = drawn
        return found

    def take(self, name: str, wanted: dict[str, tuple[Piece, Any]], made: dict[str, Drawn]) -> None:
        """Place each wanted piece of template `name`, warning once for what drawing them noticed."""
        findings: dict[str, str] = {}
        notes: dict[str, None] = {}
        for key in wanted:
            for feature, what in made[key].findings:
                findings.setdefault(feature, what)
            notes.update(dict.fromkeys(made[key].notes))
        self.note(name, [list(item) for item in sorted(findings.items())], list(notes))
        for key, (piece, _) in wanted.items():
            self.check_size(name, made[key].drawing, piece)
            self.drawn[key] = placed_once(made[key], piece.width, piece.height)

    def convert(self, jobs: list[tuple[str, dict[str, tuple[Piece, Any]]]]) -> dict[str, Drawn]:
        """Every job's pieces (each with its plain data) from the disk cache, one entry a
        template's pieces, else rendered and converted together in one bounded child (then kept
        on disk); each remembered in this process too. (Sharing the pieces out over two cores
        was tried: with each distinct element converted once per child, one child is quicker.)"""
        return self.convert_later(jobs)()

    def convert_later(self, jobs: list[tuple[str, dict[str, tuple[Piece, Any]]]]) -> Callable[[], dict[str, Drawn]]:
        """`convert` begun: what the disk cache has is read now and the child is started; the
        function returned waits for the child and gives every job's pieces."""
        from printgen.drawing import fonts
        from printgen.games import piececache

        fonts.register()  # before the fork, so the child converts text with the fonts in place
        base = self.cache_key()
        made: dict[str, Drawn] = {}
        missing = []
        for job in jobs:
            found = None if base is None else piececache.recalled_job(base, job, self.common, self.parts)
            if found is None:
                missing.append(job)
            else:
                made.update(found)
        drawing = self.start_child(missing) if missing else None

        def finish() -> dict[str, Drawn]:
            if drawing is not None:
                drawn, names = piececache.unpack(missing, self.child_result(missing, drawing))
                made.update(drawn)
                if base is not None:
                    for job, read in zip(missing, names):
                        piececache.learn(base, job[0], read)
                        piececache.keep_job(base, job, self.common, self.parts, drawn, read)
            if base is not None:
                for name, wanted in jobs:
                    for key in wanted:
                        piececache.remember(self.memory_key(base, name, key), made[key])
            return made

        return finish

    def start_child(self, jobs: list[tuple[str, dict[str, tuple[Piece, Any]]]]) -> Running:
        """The bounded child rendering and converting every job's pieces, started."""
        from printgen.games.piececache import ready_for_child

        known = ready_for_child(self.cache_key(), [name for name, _ in jobs], self.user_dirs)
        work = [(name, self.source(name)[0], [item for _, item in wanted.values()],
                 [piece.label for piece, _ in wanted.values()]) for name, wanted in jobs]
        count = sum(len(wanted) for _, wanted in jobs)
        budget = Budget(min(MAX_SECONDS, 8.0 + PIECE_SECONDS * count), PIECE_MEMORY, "the piece template")
        folders, common, user_fonts = list(self.user_dirs), self.common, self.user_fonts
        from printgen.games.piecechild import draw_here

        running = start_bounded(lambda: draw_here(work, folders, budget.seconds, common, user_fonts, known), budget)
        self.children.append(running)
        return running

    def stop_children(self) -> None:
        """End every child still drawing (a build that failed before it needed their pieces)."""
        for running in self.children:
            running.stop()
        self.children.clear()

    def child_result(self, jobs: list[tuple[str, dict[str, tuple[Piece, Any]]]], drawing: Running) -> bytes:
        """What the child sent: the pickled drawings and its report, or a located DefinitionError."""
        try:
            blob = drawing.result()
        except BudgetExceeded as exc:  # killed inside one long step: blame the templates it ran
            raise DefinitionError([Problem(*self.where(name), "", f"template error: {exc}")
                                   for name, _ in jobs]) from None
        if not isinstance(blob, bytes):
            raise RuntimeError(f"the piece templates came back as {type(blob).__name__}")
        return blob

    def note(self, name: str, findings: list[list[Any]], notes: list[str]) -> None:
        """Warnings for what svglib leaves out, each at the line of the template naming the feature."""
        file, text = self.source(name)
        shown = shown_name(file)
        for feature, what in findings:
            warning = f"{shown}:{line_of(text, '<' + feature) if '<' + feature in text else line_of(text, feature)}: " \
                      f"warning: {feature}: {what}"
            self.warn(warning)
        for message in notes:
            self.warn(f"{shown}: warning: svglib: {message}")

    def check_size(self, name: str, drawing: Any, piece: Piece) -> None:
        w, h = drawing.width / PT_PER_MM, drawing.height / PT_PER_MM
        if abs(w - piece.width) > SIZE_TOLERANCE or abs(h - piece.height) > SIZE_TOLERANCE:
            file, line = self.where(name, "<svg")
            self.warn(f"{file}:{line}: warning: the SVG it makes for {piece.label} is {w:g} x {h:g} mm, "
                      f"but the piece is {piece.width:g} x {piece.height:g} mm, so it is stretched to "
                      f"fit; give the <svg> width=\"{piece.width:g}mm\" height=\"{piece.height:g}mm\"")

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


def templates_for(defn: Any, folders: Sequence[Path] = ()) -> PieceTemplates:
    """The piece templates of one build of `defn`: searched in `folders` first; every piece sees
    the definition as plain data `d` and may name the definition's own fonts by family."""
    from printgen.art.library import loaded_fonts

    return PieceTemplates(tuple(Path(f) for f in folders), {"d": plain(defn)}, user_fonts=loaded_fonts(defn))


# Pieces placed in their boxes in this process, by the drawing placed and the box: a rebuild hands
# out the very groups of the last build for pieces drawn alike, which are never changed once placed
# (with_art copies), so what is worked out from them (output.doccache's digests) holds as well.
PLACED: OrderedDict[tuple[int, float, float], tuple[Drawn, Group]] = OrderedDict()
MOST_PLACED = 4096


def placed_once(drawn: Drawn, width: float, height: float) -> Group:
    """`placed_at` of a drawn piece, the same group each time it is asked for in this process."""
    from printgen.core.fingerprint import caching_off
    from printgen.output.doccache import settle

    if caching_off():
        return placed_at(drawn.drawing, width, height)
    key = (id(drawn), width, height)
    found = PLACED.get(key)
    if found is not None and found[0] is drawn:
        PLACED.move_to_end(key)
        return found[1]
    group = settle(placed_at(drawn.drawing, width, height))
    PLACED[key] = (drawn, group)  # the Drawn held, so its id names no other while this stands
    while len(PLACED) > MOST_PLACED:
        PLACED.popitem(last=False)
    return group


def placed_at(drawing: Drawing, width: float, height: float) -> Group:
    """svglib's drawing (points, its own y flip inside) as a group in millimetres, y up, filling
    the box (0, 0, width, height): the drawing's size is mapped onto the box."""
    scale = (width / drawing.width, 0.0, 0.0, height / drawing.height, 0.0, 0.0)
    contents = list(drawing.contents)
    if len(contents) == 1 and isinstance(contents[0], Group):
        inner = contents[0]
        return Group(*inner.contents, transform=mmult(scale, inner.transform))
    return Group(*contents, transform=scale)


def shapes_with_id(group: Group, ident: str) -> Iterator[tuple[Any, tuple[float, ...]]]:
    """Every shape drawn by the SVG element with id `ident` (svglib keeps it as `svgid`), each with
    the transform from its own coordinates to the piece's (mm, y up)."""
    def walk(node: Any, matrix: tuple[float, ...], inside: bool) -> Iterator[tuple[Any, tuple[float, ...]]]:
        inside = inside or getattr(node, "svgid", None) == ident
        if isinstance(node, Group):
            here = mmult(matrix, tuple(node.transform))
            for child in node.contents:
                yield from walk(child, here, inside)
        elif inside:
            yield node, matrix

    yield from walk(group, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), False)


def with_art(group: Group, ident: str, shape: Any) -> Group:
    """`group` (as placed_at made it) with the top-level element of id `ident` (an empty
    `<g id="...">` the template puts where a picture goes) replaced by `shape`, which is drawn in
    the piece's own millimetres, y up: art a definition names (a logo image) is loaded by printgen
    and never passes through the template, which only says where in its layers it goes. The
    group is copied, never changed: drawings are shared between pieces."""
    a, b, c, d, e, f = group.transform
    det = a * d - b * c
    inverse = (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    contents = [Group(shape, transform=inverse) if getattr(item, "svgid", None) == ident else item
                for item in group.contents]
    return Group(*contents, transform=group.transform)


def has_id(group: Group, ident: str) -> bool:
    return any(getattr(item, "svgid", None) == ident for item in group.contents)


def text_boxes(group: Group) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
    """Every line of text a drawn piece prints, with the box its glyphs take in the piece's
    millimetres (x0, y0, x1, y1): from the font's advance widths, and from the baseline down by
    the descent and up by the cap height (as printgen lays text out)."""
    from reportlab.graphics.shapes import String

    from printgen.drawing import fonts

    def walk(node: Any, matrix: tuple[float, ...]) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
        if isinstance(node, Group):
            for child in node.contents:
                yield from walk(child, mmult(matrix, tuple(node.transform)))
        elif isinstance(node, String):
            width = fonts.text_width(node.text, node.fontName, node.fontSize)
            x0 = node.x - {"middle": width / 2, "end": width}.get(node.textAnchor, 0.0)
            low, high = node.y - DESCENT * node.fontSize, node.y + CAP * node.fontSize
            a, b, c, d, e, f = matrix
            xs, ys = [], []
            for x, y in ((x0, low), (x0 + width, low), (x0, high), (x0 + width, high)):
                xs.append(a * x + c * y + e)
                ys.append(b * x + d * y + f)
            yield node.text, (min(xs), min(ys), max(xs), max(ys))

    yield from walk(group, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))


CAP, DESCENT = 0.73, 0.24  # of the font size: Bitstream Vera's capitals and descenders
