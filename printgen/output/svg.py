"""The SVG writer: walks the millimetre shape tree that renderPDF draws, with svgwrite (imported by the
first SVG written; its checks off, `debug=False`, as the shapes are printgen's own). The user unit
is the millimetre, so the SVG prints at the PDF's size; one flip at the root turns reportlab's y-up
space into SVG's y-down, and text is flipped back locally so it reads upright.
"""
from __future__ import annotations

import math
from typing import Any

from reportlab.graphics import shapes as rl
from reportlab.lib.colors import Color

from printgen.drawing import fonts
from printgen.drawing.document import Document
from printgen.drawing.numbers import num

XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'


def paint(colour: Color | None) -> str:
    if colour is None:
        return "none"
    return "#" + colour.hexval()[2:].lower()


def style_attrs(shape: Any, fill: bool = True) -> dict[str, str]:
    colour = getattr(shape, "fillColor", None) if fill else None
    attrs = {"fill": paint(colour)}
    if colour is not None and getattr(colour, "alpha", 1) < 1:
        attrs["fill-opacity"] = num(colour.alpha)
    stroke = getattr(shape, "strokeColor", None)
    width = getattr(shape, "strokeWidth", 0)
    if stroke is not None and width:
        attrs["stroke"] = paint(stroke)
        attrs["stroke-width"] = num(width)
        if getattr(stroke, "alpha", 1) < 1:
            attrs["stroke-opacity"] = num(stroke.alpha)
        dash = getattr(shape, "strokeDashArray", None)
        if dash:
            # (phase, pattern) exactly where renderPDF reads it so; a one-value pattern is a pattern
            paired = len(dash) == 2 and isinstance(dash[1], (list, tuple))
            phase, pattern = (dash[0], dash[1]) if paired else (0, dash)
            attrs["stroke-dasharray"] = " ".join(num(v) for v in pattern)
            if phase:
                attrs["stroke-dashoffset"] = num(phase)
        cap = getattr(shape, "strokeLineCap", 0)
        attrs["stroke-linecap"] = ("butt", "round", "square")[cap or 0]
    return attrs


class SvgWriter:
    def __init__(self, width: float, height: float, title: str = "") -> None:
        import svgwrite  # here, not at the top: only a command that writes an SVG needs it

        self.document = svgwrite.Drawing(size=(f"{num(width)}mm", f"{num(height)}mm"),
                                         viewBox=f"0 0 {num(width)} {num(height)}", debug=False)
        if title:
            self.document.set_desc(title=title)
        self.root = self.document.g(transform=f"matrix(1 0 0 -1 0 {num(height)})")
        self.document.add(self.root)
        self.art_ids: set[str] = set()  # art already stored in <defs> (see printgen.art.ArtShape)
        self.clips = 0  # clip paths defined so far

    def add(self, shape: Any) -> None:
        self.root.add(self.element(shape))

    def tostring(self) -> bytes:
        return (XML_DECLARATION + self.document.tostring() + "\n").encode()

    def element(self, shape: Any) -> Any:
        """The svgwrite element of one shape (a group's with every child in it)."""
        doc = self.document
        if hasattr(shape, "svg_group"):
            return self.element(shape.svg_group)
        if hasattr(shape, "svg_element"):  # shapes that know their own SVG, such as user art
            return shape.svg_element(self)
        if isinstance(shape, rl.Group):
            group = target = doc.g()
            if tuple(shape.transform) != (1, 0, 0, 1, 0, 0):
                group["transform"] = "matrix(" + " ".join(num(v) for v in shape.transform) + ")"
            for child in shape.contents:
                if isinstance(child, rl.Path) and child.isClipPath:  # clips what follows, as in renderPDF
                    target = self.clipped(target, child)
                    continue
                target.add(self.element(child))
            return group
        if isinstance(shape, rl.Line):
            return doc.line((num(shape.x1), num(shape.y1)), (num(shape.x2), num(shape.y2)),
                            **style_attrs(shape, fill=False))
        if isinstance(shape, rl.Rect):
            attrs = style_attrs(shape)
            if shape.rx:
                attrs.update(rx=num(shape.rx), ry=num(shape.ry or shape.rx))
            return doc.rect((num(shape.x), num(shape.y)), (num(shape.width), num(shape.height)), **attrs)
        if isinstance(shape, rl.Circle):
            return doc.circle((num(shape.cx), num(shape.cy)), num(shape.r), **style_attrs(shape))
        if isinstance(shape, rl.Ellipse):
            return doc.ellipse((num(shape.cx), num(shape.cy)), (num(shape.rx), num(shape.ry)),
                               **style_attrs(shape))
        if isinstance(shape, rl.Wedge):
            return doc.path(d=wedge_path(shape), **style_attrs(shape))
        if isinstance(shape, (rl.Polygon, rl.PolyLine)):
            points = [(num(x), num(y)) for x, y in zip(shape.points[::2], shape.points[1::2])]
            if isinstance(shape, rl.Polygon):
                return doc.polygon(points, **style_attrs(shape))
            return doc.polyline(points, **style_attrs(shape, fill=False))
        if isinstance(shape, rl.Path):
            return doc.path(d=path_data(shape), **style_attrs(shape))
        if isinstance(shape, rl.String):
            return self.text(shape)
        if isinstance(shape, rl.Image):
            return self.image(shape)
        raise TypeError(f"the SVG writer cannot draw {type(shape).__name__}")

    def clipped(self, parent: Any, path: rl.Path) -> Any:
        """A group in `parent` clipped to `path` (a <clipPath> in <defs>, numbered in order)."""
        self.clips += 1
        clip = self.document.clipPath(id=f"clip{self.clips}")
        outline = self.document.path(d=path_data(path))
        if getattr(path, "fillMode", rl.FILL_EVEN_ODD) == rl.FILL_EVEN_ODD:
            outline["clip-rule"] = "evenodd"
        clip.add(outline)
        self.document.defs.add(clip)
        group = self.document.g(clip_path=f"url(#clip{self.clips})")
        parent.add(group)
        return group

    def image(self, shape: rl.Image) -> Any:
        """A picture a piece template placed with <image>: embedded, since the SVG must stand
        alone. svglib has already read it from the template's own folder and measured it."""
        # The root is y-up; a unit image's first row must land at the top of the box.
        matrix = (shape.width, 0, 0, -shape.height, shape.x, shape.y + shape.height)
        return self.document.image(href=picture_href(shape.path), insert=(0, 0), size=(1, 1),
                                   preserveAspectRatio="none",
                                   transform="matrix(" + " ".join(num(v) for v in matrix) + ")")

    def text(self, shape: rl.String) -> Any:
        anchor = {"start": "start", "middle": "middle", "end": "end"}.get(shape.textAnchor, "start")
        attrs = {"font-family": fonts.svg_family(shape.fontName), "font-size": num(shape.fontSize),
                 "text-anchor": anchor, "fill": paint(shape.fillColor)}
        if getattr(shape.fillColor, "alpha", 1) < 1:
            attrs["fill-opacity"] = num(shape.fillColor.alpha)
        if fonts.is_bold(shape.fontName):
            attrs["font-weight"] = "bold"
        if fonts.is_italic(shape.fontName):
            attrs["font-style"] = "italic"
        return self.document.text(shape.text, insert=(num(shape.x), num(-shape.y)),
                                  transform="scale(1 -1)", **attrs)


def picture_href(source: Any) -> str:
    """A data URI of the picture an Image shape draws: a PNG or JPEG file's own bytes, else (a
    picture svglib decoded, or a file of another kind) the pixels encoded as PNG."""
    import base64
    import io

    data = b""
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        with open(source, "rb") as stream:
            data = stream.read()
        for magic, mime in ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg")):
            if data.startswith(magic):
                return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    from PIL import Image

    picture = Image.open(io.BytesIO(data)) if data else source
    encoded = io.BytesIO()
    picture.save(encoded, "PNG")
    return f"data:image/png;base64,{base64.b64encode(encoded.getvalue()).decode('ascii')}"


def path_data(path: rl.Path) -> str:
    points = iter(zip(path.points[::2], path.points[1::2]))
    steps = {rl._MOVETO: ("M", 1), rl._LINETO: ("L", 1), rl._CURVETO: ("C", 3), rl._CLOSEPATH: ("Z", 0)}
    return " ".join(letter + " ".join(f"{num(x)} {num(y)}" for x, y in (next(points) for _ in range(count)))
                    for letter, count in (steps[op] for op in path.operators if op in steps))


def wedge_path(wedge: rl.Wedge) -> str:
    """An exact arc (not reportlab's polygon approximation) from start to end angle."""
    cx, cy, r = wedge.centerx, wedge.centery, wedge.radius
    a0, a1 = math.radians(wedge.startangledegrees), math.radians(wedge.endangledegrees)
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    large = 1 if (wedge.endangledegrees - wedge.startangledegrees) % 360 > 180 else 0
    return (f"M{num(cx)} {num(cy)} L{num(x0)} {num(y0)} "
            f"A{num(r)} {num(r)} 0 {large} 1 {num(x1)} {num(y1)} Z")


def svg_bytes(shapes: list[Any], width: float, height: float, title: str = "") -> bytes:
    writer = SvgWriter(width, height, title)
    for shape in shapes:
        writer.add(shape)
    return writer.tostring()


def write_svg(doc: Document) -> bytes:
    """The document's first page as an SVG of the paper's size, in millimetres."""
    return svg_bytes(doc.pages[0].shapes if doc.pages else [], doc.paper.width, doc.paper.height, doc.title)
