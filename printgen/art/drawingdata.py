"""A drawing sent back from a bounded child: pickled there, read here with drawing classes only.

svglib needs about 0.3 ms per SVG element, so converting art twice (once in the bounded child to
prove it fits its budget, once more in printgen) would double the slowest step of a build with SVG
art. Instead the child sends the drawing it made. A pickle can name any callable, so it is read with
an unpickler that resolves only classes (never functions) from the modules that make up a drawing:
reportlab's shapes, colours and their attribute validators, svglib's shape subclasses, and Pillow's
image classes for bitmaps inside an SVG. Anything else in the stream is refused as printgen's bug.
"""
from __future__ import annotations

import io
import pickle
from typing import Any

DRAWING_MODULES = ("reportlab.graphics.shapes", "reportlab.lib.colors", "reportlab.lib.attrmap",
                   "reportlab.lib.validators", "svglib.svglib")
IMAGE_MODULES = ("PIL.Image", "PIL.PngImagePlugin", "PIL.JpegImagePlugin", "PIL.ImageFile")


class DrawingUnpickler(pickle.Unpickler):
    """Resolves classes of drawing modules only."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "JpegData"):
            return JpegData
        if module in DRAWING_MODULES or module in IMAGE_MODULES:
            found = super().find_class(module, name)
            if isinstance(found, type) and (module in DRAWING_MODULES or is_image_class(found)):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a drawing")


def is_image_class(cls: type) -> bool:
    from PIL import Image

    return issubclass(cls, Image.Image)


class JpegData(bytes):
    """A JPEG's file bytes inside a pickled drawing: reportlab copies a JPEG into the PDF from the
    open file, so the image is sent as its file and opened again (header only) on arrival."""


def images(node: Any) -> list[Any]:
    """Every reportlab Image shape in a drawing."""
    from reportlab.graphics.shapes import Group, Image

    found, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Image):
            found.append(item)
        elif isinstance(item, Group):
            stack.extend(item.contents)
    return found


def dumps(value: Any) -> bytes:
    """Pickle `value` (a drawing, or a tuple holding one), JPEGs as their file bytes."""
    drawings = value if isinstance(value, tuple) else (value,)
    for drawing in drawings:
        for shape in images(drawing):
            source = getattr(shape.path, "fp", None)
            if getattr(shape.path, "format", None) == "JPEG" and source is not None:
                source.seek(0)
                shape.path = JpegData(source.read())
    return pickle.dumps(value, protocol=5)


def loads(data: bytes) -> Any:
    from PIL import Image

    value = DrawingUnpickler(io.BytesIO(data)).load()
    for drawing in value if isinstance(value, tuple) else (value,):
        for shape in images(drawing):
            if isinstance(shape.path, JpegData):
                shape.path = Image.open(io.BytesIO(bytes(shape.path)))
    return value
