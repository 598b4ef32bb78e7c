"""A game's pieces drawn from SVG templates fed with plain data (docs/ARCHITECTURE.md, "Pieces
drawn from templates").

The game computes what its rules depend on and the template draws it; printgen checks what it
drew only where a rule depends on it. A template problem is a located DefinitionError; what svglib
leaves out, an <svg> not the piece's size and text past a safe area are located warnings."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from reportlab.graphics.shapes import Drawing, Group, String, inverse, mmult

from printgen.core.paper import PT_PER_MM
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.jinja.plaindata import plain

PIECE_SECONDS = 0.05  # s each piece adds to a batch's time limit (a tile face: ~3 ms to render and convert)
MAX_SECONDS = 120.0
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
    """The piece templates of one build: search path, files read, and warnings."""

    user_dirs: tuple[Path, ...] = ()
    common: dict[str, Any] = field(default_factory=dict)  # plain data every piece's render sees too
    user_fonts: dict[str, str] = field(default_factory=dict)  # the definition's own fonts: name -> family
    warnings: list[str] = field(default_factory=list)
    sources: dict[str, tuple[Path, str]] = field(default_factory=dict)  # name -> (file, its text)

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

    def where(self, name: str, *snippets: str) -> tuple[str, int]:
        """The template's file as messages show it (printgen's own by its repository path), and the
        line where the first of `snippets` stands outside a comment (notes may name the ids too), else 1."""
        from printgen.core.bundled import shown_name

        path, text = self.source(name)
        body = COMMENT.sub(lambda found: re.sub(r"[^\n]", " ", found.group(0)), text)
        found = (body.find(snippet) for snippet in snippets if snippet)
        index = next((i for i in found if i >= 0), -1)
        return shown_name(path) or display_name(path), body.count("\n", 0, index) + 1 if index >= 0 else 1

    def draw_batches(self, batches: Sequence[tuple[str, Sequence[Piece]]]) -> list[list[Group]]:
        """Each batch's pieces drawn from its template, in order; a game keeps what it has drawn
        for the rest of its build."""
        from printgen.drawing import fonts

        fonts.register()  # text in a piece is converted into printgen's embedded fonts
        return [self.convert(name, pieces) if pieces else [] for name, pieces in batches]

    def convert(self, name: str, pieces: Sequence[Piece]) -> list[Group]:
        """Template `name` rendered per piece, each distinct SVG measured and converted once, and
        placed on its piece; then the warnings, once each: an <svg> not the piece's size, what
        svglib leaves out, at the line of the template naming the feature, and svglib's notes."""
        from printgen.art.measure import measure_svg
        from printgen.art.svg import embedded_fonts, missing_in_user_font, scan, template_line
        from printgen.art.svgbatch import BatchConverter
        from printgen.art.svgtree import parse
        from printgen.jinja.render import line_of, render_each

        path, source = self.source(name)
        shown = self.where(name)[0]
        seconds = min(MAX_SECONDS, 8.0 + PIECE_SECONDS * len(pieces))
        texts = render_each(name, [plain(dict(piece.context)) for piece in pieces], list(self.user_dirs), seconds,
                            [piece.label for piece in pieces], self.common)
        converter = BatchConverter(path, path.parent, embedded_fonts(self.user_fonts))
        distinct: dict[str, Drawing] = {}
        findings: dict[str, str] = {}
        notes: dict[str, None] = {}
        for text, piece in zip(texts, pieces):
            if text in distinct:
                continue
            data = text.encode("utf-8")
            try:
                tree = parse(path, data)
                measure_svg(tree, path, path.parent)
                drawing, logged = converter.convert(data, tree)
                missing = missing_in_user_font(drawing, getattr(converter.font_map, "labels", {}))
                if missing is not None:  # text set in the definition's own font, which lacks a glyph
                    raise ValueError(missing)
            except ValueError as exc:  # an SVG svglib cannot read, or one too costly to draw
                raise DefinitionError([Problem(shown, 1, "", f"template error (for {piece.label}): "
                                               f"the SVG it made: {exc}")]) from None
            w, h = drawing.width / PT_PER_MM, drawing.height / PT_PER_MM
            if max(abs(w - piece.width), abs(h - piece.height)) > SIZE_TOLERANCE:
                file, line = self.where(name, "<svg")
                self.warn(f"{file}:{line}: warning: the SVG it makes for {piece.label} is {w:g} x {h:g} mm, but "
                          f"the piece is {piece.width:g} x {piece.height:g} mm, so it is stretched to fit; give "
                          f"the <svg> width=\"{piece.width:g}mm\" height=\"{piece.height:g}mm\"")
            for found in scan(tree):
                findings.setdefault(found.feature, found.what)
            notes.update(dict.fromkeys(logged))
            distinct[text] = drawing
        for feature, what in sorted(findings.items()):
            self.warn(f"{shown}:{template_line(source, feature)}: warning: {feature}: {what}")
        for message in notes:
            family = FAMILY_NOTE.match(message)  # art.svg.replaced_notes: told at the line naming it
            self.warn(f"{shown}:{line_of(source, family.group(1))}: warning: {message}" if family
                      else f"{shown}: warning: svglib: {message}")
        return [placed_at(distinct[text], piece.width, piece.height) for text, piece in zip(texts, pieces)]

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def warn_past(self, name: str, found: Sequence[tuple[Piece, String, float, str | None]], area: str,
                  keep: str) -> None:
        """One warning for the texts of template `name` that reach past their area (`found`: each
        piece, text, how far and id, from past_safe_area): the furthest, at the template line writing
        it, how many more, and `keep`, what to do; `area` names the area ("past the safe area")."""
        texts = {(piece.label, shape.text): (piece, shape, reach, ident) for piece, shape, reach, ident in found}
        if not texts:
            return
        piece, shape, reach, ident = max(texts.values(), key=lambda item: item[2])
        ids = (f'id="{ident}"', f'id="{ident.rstrip("0123456789")}') if ident else ()
        used = [probe for path in paths_to(piece.context, shape.text) for probe in ("{{ " + path, "{{" + path)]
        file, line = self.where(name, *ids, f">{shape.text}<", *used, "<text")
        more = len(texts) - 1
        also = f" (and {more} more text{'s' * (more != 1)})" if more else ""
        self.warn(f"{file}:{line}: warning: {piece.label}: '{shape.text}' reaches {reach:.1f} mm {area}{also}; {keep}")


FAMILY_NOTE = re.compile(r"font-family '([^'\n]+)' ")
COMMENT = re.compile(r"\{#.*?#\}|<!--.*?-->", re.S)  # Jinja and XML comments


def templates_for(defn: Any, folders: Sequence[Path] = (), warnings: list[str] | None = None) -> PieceTemplates:
    """The piece templates of one build of `defn`, searched in `folders` first, warning to `warnings`."""
    from printgen.art.library import loaded_fonts

    return PieceTemplates(tuple(Path(f) for f in folders), {"d": plain(defn)}, loaded_fonts(defn),
                          [] if warnings is None else warnings)


def placed_at(drawing: Drawing, width: float, height: float) -> Group:
    """svglib's drawing (points, y flipped) as a group in mm, y up, filling (0, 0, width, height)."""
    scale = (width / drawing.width, 0.0, 0.0, height / drawing.height, 0.0, 0.0)
    (inner,) = drawing.contents  # svglib's one group, its transform the y flip
    return Group(*inner.contents, transform=mmult(scale, inner.transform))


Matrix = tuple[float, ...]
CAP, DESCENT = 0.73, 0.24  # of the font size: Bitstream Vera's capitals and descenders
SAFE_TOLERANCE = 0.01  # mm a text may reach past its safe area before a warning


def shapes_of(node: Any, matrix: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0),
              ids: tuple[str, ...] = ()) -> Iterator[tuple[Any, Matrix, tuple[str, ...]]]:
    """Every shape of a drawn piece with its transform to the piece's mm (y up) and the ids of the
    elements it is drawn inside, outermost first."""
    ids = ids + (node.svgid,) if getattr(node, "svgid", None) else ids
    if not isinstance(node, Group):
        yield node, matrix, ids
        return
    here = mmult(matrix, tuple(node.transform))
    for child in node.contents:
        yield from shapes_of(child, here, ids)


def past_safe_area(group: Group, width: float, height: float, pad: float) -> Iterator[tuple[String, float, str | None]]:
    """Each text of a drawn piece whose glyphs reach more than SAFE_TOLERANCE past the area `pad` mm
    inside its `width` x `height` (the print rule: text inside a piece's cut lines), how far, and
    the id of the element nearest it."""
    from printgen.drawing import fonts

    for shape, (a, b, c, d, e, f), ids in shapes_of(group):
        if not isinstance(shape, String):
            continue
        advance = fonts.text_width(shape.text, shape.fontName, shape.fontSize)
        x0 = shape.x - {"middle": advance / 2, "end": advance}.get(shape.textAnchor, 0.0)
        corners = [(a * x + c * y + e, b * x + d * y + f) for x in (x0, x0 + advance)
                   for y in (shape.y - DESCENT * shape.fontSize, shape.y + CAP * shape.fontSize)]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        past = max(pad - min(xs), max(xs) - (width - pad), pad - min(ys), max(ys) - (height - pad))
        if past > SAFE_TOLERANCE:
            yield shape, past, ids[-1] if ids else None


def with_art(group: Group, ident: str, shape: Any) -> Group:
    """A copy of `group` with the empty `<g id=ident>` replaced by `shape`, art never templated
    (nothing placed when the template left no such element)."""
    contents = [Group(shape, transform=inverse(group.transform)) if getattr(item, "svgid", None) == ident else item
                for item in group.contents]
    return Group(*contents, transform=group.transform)


def paths_to(data: Any, words: str, prefix: str = "") -> Iterator[str]:
    """The dotted paths in a piece's data whose value is `words` ("name.text")."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from paths_to(value, words, f"{prefix}{key}.")
    elif str(data) == words and prefix and not isinstance(data, (list, bool)):
        yield prefix[:-1]
