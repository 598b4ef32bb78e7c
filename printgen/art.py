"""Art a user brings: image files (PNG, JPEG, SVG), TrueType fonts and a template folder.

Every game takes art the same way. A definition names files relative to its own folder, through
the field types below. They are checked while the definition is validated, so a missing, unreadable,
unsupported or out-of-folder file is a located `file:line: key.path` problem like any other, and
nothing is written. Each file is loaded once (and cached by content across builds) into the
definition's `ArtLibrary` (warnings, files read, the template folder); the value in the model
carries its loaded art, so drawing code asks `art_of(defn.logo.image)` for it.

An image is drawn through a PDF form XObject named after its content, so a logo printed on a
hundred tiles is stored in the PDF once and the output stays byte-identical from run to run.
"""
from __future__ import annotations

import hashlib
import io
import struct
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Optional

from pydantic import AfterValidator, Field, ValidationInfo
from reportlab.graphics.shapes import DirectDraw

from .bounded import Budget, BudgetExceeded, MiB, run_bounded
from .problems import display_name

MAX_ART_BYTES = 30 * 1024 * 1024  # far above any card art; refuses a mistaken multi-GB file early
MAX_PIXELS = 60_000_000  # a full A4 page at 600 dpi is 35 Mpx; refused before decoding, not after
IMAGE_SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".svg": "SVG"}
FONT_SUFFIXES = (".ttf",)
PICTURE_BUDGET = Budget(8.0, 768 * MiB, "the picture")  # decoding one art file; SECURITY.md


@dataclass
class ArtContext:
    """What a definition's art is checked against; passed to pydantic as validation context."""

    base: Path  # the definition's folder, where relative names start
    allow_outside: bool = False
    library: "ArtLibrary" = field(default_factory=lambda: ArtLibrary())


def art_context(info: ValidationInfo) -> ArtContext | None:
    """The context of a real load; None when a model is validated on its own (tests, tools)."""
    found = (info.context or {}).get("art") if isinstance(info.context, dict) else None
    return found if isinstance(found, ArtContext) else None


# -- the field types definitions use ---------------------------------------------------------------

class ArtName(str):
    """A file name as written in the YAML that also carries what was loaded from it, so drawing
    code anywhere (a build, an export, a preview) reaches the art through the definition itself."""

    loaded: Any

    def __new__(cls, value: str, loaded: Any = None) -> "ArtName":
        name = super().__new__(cls, value)
        name.loaded = loaded
        return name

    def __reduce__(self) -> tuple[Any, ...]:
        return (ArtName, (str(self), self.loaded))

    def __deepcopy__(self, memo: dict[int, Any]) -> "ArtName":
        return self  # a name and its loaded art never change once loaded


def art_of(value: str | None) -> "Art | None":
    """The loaded image behind an `ImageFile` value; None when unset (or not loaded from a file)."""
    return getattr(value, "loaded", None)


def font_of(value: str | None, default: str) -> str:
    """The registered font name behind a `FontFile` value, or `default` when unset."""
    return getattr(value, "loaded", None) or default


def _check_image(value: str | None, info: ValidationInfo) -> str | None:
    context = art_context(info)
    if value is not None and context is not None:
        return ArtName(value, context.library.add_image(value, context))
    return value


def _check_font(value: str | None, info: ValidationInfo) -> str | None:
    context = art_context(info)
    if value is not None and context is not None:
        return ArtName(value, context.library.add_font(value, context))
    return value


def _check_templates(value: str | None, info: ValidationInfo) -> str | None:
    context = art_context(info)
    if value is not None and context is not None:
        context.library.templates = resolve(value, context, folder=True)
    return value


FileName = Annotated[str, Field(min_length=1, max_length=300)]
ImageFile = Annotated[Optional[FileName], AfterValidator(_check_image), Field(
    description="a PNG, JPEG or SVG file, relative to this definition's folder, e.g. 'art/logo.png'")]
FontFile = Annotated[Optional[FileName], AfterValidator(_check_font), Field(
    description="a TrueType font file (.ttf), relative to this definition's folder")]
TemplateFolder = Annotated[Optional[FileName], AfterValidator(_check_templates), Field(
    description="a folder of your own templates, relative to this definition's folder; "
                "a file there replaces the bundled template with the same name")]


# -- finding files ---------------------------------------------------------------------------------

def resolve(value: str, context: ArtContext, folder: bool = False) -> Path:
    """The file `value` names, relative to the definition's folder; ValueError says what is wrong."""
    try:
        return _resolve(value, context, folder)
    except OSError as exc:  # a name too long for the file system, ...
        raise ValueError(f"cannot use this file name ({exc.strerror or exc})")
    except RuntimeError:  # pathlib's report of symbolic links that point at each other
        raise ValueError("cannot use this file name (its symbolic links form a loop)")


def _resolve(value: str, context: ArtContext, folder: bool) -> Path:
    base = context.base.resolve()
    target = (base / value).resolve()
    shown = display_name(target)
    if not context.allow_outside and not target.is_relative_to(base):
        raise ValueError(f"expected {'a folder' if folder else 'a file'} inside the definition's folder "
                         f"({display_name(base)}); "
                         f"{shown} is outside it, so build with --allow-outside to use it")
    what = "a folder" if folder else "a file"
    if not target.exists():
        raise ValueError(f"expected {what}, but {shown} does not exist")
    if folder and not target.is_dir():
        raise ValueError(f"expected a folder of templates, but {shown} is a file")
    if not folder and not target.is_file():
        raise ValueError(f"expected {what}, but {shown} is a folder")
    return target


def read_art(path: Path) -> bytes:
    shown = display_name(path)
    try:
        size = path.stat().st_size
        if size > MAX_ART_BYTES:
            raise ValueError(f"{shown} is {size / 2**20:.0f} MiB; an art file may be at most "
                             f"{MAX_ART_BYTES // 2**20} MiB")
        return path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {shown} ({exc.strerror or exc})")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- loaded art ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Art:
    """One image file, loaded once: its kind, its natural size and what draws it."""

    path: Path
    kind: str  # "PNG", "JPEG" or "SVG"
    data: bytes = field(repr=False)
    digest: str
    natural: tuple[float, float]  # width, height in any unit; only the ratio matters
    drawing: Any = field(default=None, repr=False)  # the svglib Drawing for SVG art
    reader: Any = field(default=None, repr=False)  # the reportlab ImageReader for PNG and JPEG art

    @property
    def form_name(self) -> str:
        return f"PGArt{self.digest[:16]}"

    def fit(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """The largest box with the art's proportions inside (x, y, w, h), centred in it."""
        nw, nh = self.natural
        scale = min(w / nw, h / nh)
        fw, fh = nw * scale, nh * scale
        return (x + (w - fw) / 2, y + (h - fh) / 2, fw, fh)

    def shape(self, x: float, y: float, w: float, h: float) -> "ArtShape":
        """A shape drawing the art as large as fits in the box (mm), proportions kept, centred."""
        return ArtShape(self, *self.fit(x, y, w, h))


class ArtShape(DirectDraw):
    """Draws art in a reportlab shape tree; printgen's SVG writer asks it for an element too."""

    def __init__(self, art: Art, x: float, y: float, width: float, height: float) -> None:
        self.art, self.x, self.y, self.width, self.height = art, x, y, width, height

    def getBounds(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.width, self.y + self.height)

    def copy(self) -> "ArtShape":
        return ArtShape(self.art, self.x, self.y, self.width, self.height)

    def getProperties(self) -> dict[str, Any]:
        """What decides the look, compactly (shape fingerprints read this, never the image bytes)."""
        return {"art": self.art.digest, "x": self.x, "y": self.y, "width": self.width,
                "height": self.height}

    def drawDirectly(self, renderer: Any) -> None:
        """Define the art's form once per PDF, then place it (the canvas is in mm here)."""
        canvas, art = renderer._canvas, self.art
        if not canvas.hasForm(art.form_name):
            define_form(canvas, art)
        sx, sy = (1.0, 1.0) if art.drawing is None else (art.drawing.width, art.drawing.height)
        canvas.saveState()
        canvas.transform(self.width / sx, 0, 0, self.height / sy, self.x, self.y)
        canvas.doForm(art.form_name)
        canvas.restoreState()

    def svg_element(self, writer: Any) -> Any:
        """A <use> of the art, which is stored once per SVG file in <defs> as a data URI."""
        import base64

        art, doc = self.art, writer.document
        ident = f"art-{art.digest[:12]}"
        if ident not in writer.art_ids:
            writer.art_ids.add(ident)
            mime = {"PNG": "image/png", "JPEG": "image/jpeg", "SVG": "image/svg+xml"}[art.kind]
            href = f"data:{mime};base64,{base64.b64encode(art.data).decode('ascii')}"
            doc.defs.add(doc.image(href=href, insert=(0, 0), size=(1, 1), id=ident,
                                   preserveAspectRatio="none"))
        # The writer's root is y-up; an image's first row must land at the top of the box.
        from .writers.svg import num

        matrix = (self.width, 0, 0, -self.height, self.x, self.y + self.height)
        return doc.use(f"#{ident}", transform="matrix(" + " ".join(num(v) for v in matrix) + ")")


def define_form(canvas: Any, art: Art) -> None:
    """Store the art once in this PDF: a unit-square form for bitmaps, the drawing's own box for SVG."""
    if art.drawing is None:
        canvas.beginForm(art.form_name, 0, 0, 1, 1)
        canvas.drawImage(art.reader, 0, 0, 1, 1, mask="auto")
    else:
        from reportlab.graphics import renderPDF

        canvas.beginForm(art.form_name, 0, 0, art.drawing.width, art.drawing.height)
        outer = getattr(canvas, "_drawing", None)  # we are inside the page's own renderPDF.draw,
        renderPDF.draw(art.drawing, canvas, 0, 0)  # which this nested draw would otherwise undo
        if outer is not None:
            canvas._drawing = outer
        canvas.endForm(Resources=form_resources(canvas))
        return
    canvas.endForm()


def form_resources(canvas: Any) -> Any:
    """The resources a form's content uses, as reportlab gives a page but not a form: without
    them, an SVG's gradients (shadings) and fill-/stroke-opacity (graphics states) print black
    and opaque. Must be called just before endForm, while the form's accumulators are current."""
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary

    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if canvas._formsinuse:
        resources.XObject = canvas._doc.xobjDict(canvas._formsinuse)
    state = canvas._extgstate.getState()
    if state:
        resources.ExtGState = state
    resources.setShading(canvas._shadingUsed)
    resources.setColorSpace(canvas._colorsUsed)
    return resources


_CACHE: dict[tuple[str, str, bool], Art] = {}  # (digest, kind, allow_outside) -> Art


def load_bitmap(path: Path, data: bytes, kind: str) -> Art:
    """Decode a PNG or JPEG fully, so a truncated or mislabelled file is caught now, not at print.

    The header is measured first; the full decode then runs once in a bounded child (which proves
    it fits the budget) before printgen decodes the same bytes itself.
    """
    from reportlab.lib.utils import ImageReader

    shown = display_name(path)
    readable_bitmap(shown, data, kind, header_only=True)

    def proof() -> None:
        readable_bitmap(shown, data, kind)

    try:
        run_bounded(proof, PICTURE_BUDGET)
    except BudgetExceeded as exc:
        raise ValueError(f"{shown}: {exc}")
    usable = readable_bitmap(shown, data, kind)
    # reportlab copies JPEG data into the PDF as it is; other kinds go in as decoded pixels
    reader = ImageReader(io.BytesIO(data) if kind == "JPEG" else usable)
    return Art(path, kind, data, digest(data), (float(usable.size[0]), float(usable.size[1])),
               reader=reader)


def check_header(shown: str, probe: Any, kind: str) -> None:
    """The kind and the pixel count an image's header states, checked before any pixel is read."""
    if probe.format != kind:
        raise ValueError(f"{shown} is named like a {kind} image but holds "
                         f"{probe.format or 'other'} data; save it as {kind} or rename it")
    if probe.width * probe.height > MAX_PIXELS:
        raise ValueError(f"{shown} is {probe.width} x {probe.height} pixels; art may have at "
                         f"most {MAX_PIXELS // 1_000_000} million (300 dpi needs about 12 "
                         f"pixels per mm)")


def readable_bitmap(shown: str, data: bytes, kind: str, header_only: bool = False) -> Any:
    """The decoded image (palette, 16-bit and other modes as RGBA), or ValueError saying why not."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # refused below instead
            with Image.open(io.BytesIO(data)) as probe:
                check_header(shown, probe, kind)
                if header_only:
                    return None
                probe.load()
                return probe.copy() if probe.mode in ("RGB", "RGBA", "L") else probe.convert("RGBA")
    except UnidentifiedImageError:
        raise ValueError(f"{shown} is not a readable {kind} image (damaged, or another format)")
    except Image.DecompressionBombError:
        raise ValueError(f"{shown} has far more pixels than art may have (at most "
                         f"{MAX_PIXELS // 1_000_000} million)")
    except (OSError, SyntaxError, struct.error) as exc:
        raise ValueError(f"{shown} is not a readable {kind} image ({first_line(exc)})")


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@dataclass
class ArtLibrary:
    """The art one definition uses, by the name written in the YAML, plus warnings about it."""

    images: dict[str, Art] = field(default_factory=dict)
    fonts: dict[str, str] = field(default_factory=dict)  # YAML name -> registered font name
    warnings: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # every file read, for tools that watch them
    templates: Path | None = None

    def add_image(self, value: str, context: ArtContext) -> Art:
        if value in self.images:
            return self.images[value]
        kind = IMAGE_SUFFIXES.get(Path(value).suffix.lower())
        if kind is None:
            raise ValueError("expected a PNG, JPEG or SVG file (.png, .jpg, .jpeg or .svg)")
        path = resolve(value, context)
        data = read_art(path)
        key = (digest(data), kind, context.allow_outside)
        art = _CACHE.get(key)
        if art is None or art.path != path:
            if kind == "SVG":
                from .svgart import load_svg

                art = load_svg(path, data, None if context.allow_outside else context.base.resolve())
            else:
                art = load_bitmap(path, data, kind)
            _CACHE[key] = art
        if kind == "SVG":
            from .svgart import warnings_for

            self.warnings += [w for w in warnings_for(art) if w not in self.warnings]
        self.images[value] = art
        self.files.append(path)
        return art

    def add_font(self, value: str, context: ArtContext) -> str:
        if value in self.fonts:
            return self.fonts[value]
        if Path(value).suffix.lower() not in FONT_SUFFIXES:
            raise ValueError("expected a TrueType font file (.ttf)")
        path = resolve(value, context)
        from .fonts import register_user_font

        self.fonts[value] = register_user_font(path, read_art(path))
        self.files.append(path)
        return self.fonts[value]

