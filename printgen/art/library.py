"""Art a user brings: image files (PNG, JPEG, SVG), TrueType fonts and a template folder.

The field types below say which keys name files; validation checks only what the name says (its
suffix), then the loading step (`load_files`, a step of its own after validation) reads each file,
so a bad file is a located problem like any other, told with validation's; the model's value then
carries its art (`art_of(defn.logo.image)`).
PNG and JPEG art has the pixel count its header states checked first, then every pixel decoded once,
so a damaged file is told now (Pillow's own limits guard the decode itself). A user's TrueType font
has its tables measured (art.measure), then is registered under a name taken from its bytes alone,
so two builds embed it the same way.
"""
from __future__ import annotations

import hashlib
import io
import re
import struct
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, Optional, get_args, get_origin

from pydantic import AfterValidator, BaseModel, Field, ValidationError
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printgen.art.loaded import Art, digest, first_line
from printgen.core.problems import display_name
from printgen.core.source import Loc
from printgen.core.validation import shorten
from printgen.drawing.fonts import USER_PREFIX, css_family, user_family

MAX_ART_BYTES = 30 * 1024 * 1024  # far above any card art; refuses a mistaken multi-GB file early
MAX_PIXELS = 60_000_000  # a full A4 page at 600 dpi is 35 Mpx; refused before decoding, not after
IMAGE_SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".svg": "SVG"}
FONT_SUFFIXES = (".ttf",)
KEPT_SVG_ELEMENTS = 20_000  # pictures of rendered templates kept, by elements (1-2.5 KB each): under 50 MB


@dataclass
class ArtContext:
    """What a definition's art is read against, and the library it is read into (one per build)."""

    base: Path  # the definition's folder, where relative names start
    allow_outside: bool = False
    library: "ArtLibrary" = field(default_factory=lambda: ArtLibrary())


class ArtName(str):
    """A file name as written in the YAML, carrying what was loaded from it, so drawing code reaches
    the art through the definition itself."""

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


def loaded_fonts(model: Any) -> dict[str, str]:
    """Registered name -> family of each user font this definition loaded; fonts stay registered
    for the process, so a template reaches only those of the definition being built."""
    found: dict[str, str] = {}

    def walk(value: Any) -> None:
        loaded = getattr(value, "loaded", None)
        family = user_family(loaded) if isinstance(value, str) and isinstance(loaded, str) else None
        if family is not None:
            found[str(loaded)] = family
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif hasattr(type(value), "model_fields"):
            for name in type(value).model_fields:
                walk(getattr(value, name, None))

    walk(model)
    return found


def template_folders(value: str | None) -> list[Path]:
    folder = getattr(value, "loaded", None)
    return [folder] if isinstance(folder, Path) else []


# -- finding files ---------------------------------------------------------------------------------

def resolve(value: str, context: ArtContext, folder: bool = False) -> Path:
    """The file `value` names, relative to the definition's folder; ValueError says what is wrong."""
    what = "a folder" if folder else "a file"
    try:
        base = context.base.resolve()
        target = (base / value).resolve()
        shown = display_name(target)
        if not context.allow_outside and not target.is_relative_to(base):
            raise ValueError(f"expected {what} inside the definition's folder ({display_name(base)}); "
                             f"{shown} is outside it, so build with --allow-outside to use it")
        if not target.exists():
            raise ValueError(f"expected {what}, but {shown} does not exist")
        if not target.is_file() and not target.is_dir():  # reading a FIFO would wait for ever
            raise ValueError(f"expected {what}, but {shown} is not a regular file (a FIFO, a device or a socket)")
        if folder and not target.is_dir():
            raise ValueError(f"expected a folder of templates, but {shown} is a file")
        if not folder and not target.is_file():
            raise ValueError(f"expected {what}, but {shown} is a folder")
        return target
    except OSError as exc:  # a name too long for the file system, ...
        raise ValueError(f"cannot use this file name ({exc.strerror or exc})")
    except RuntimeError:  # pathlib's report of symbolic links that point at each other
        raise ValueError("cannot use this file name (its symbolic links form a loop)")


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


def load_bitmap(path: Path, data: bytes, kind: str) -> Art:
    """Decode fully, so a truncated or mislabelled file is caught now, after checking the header."""
    from reportlab.lib.utils import ImageReader

    usable = readable_bitmap(display_name(path), data, kind)
    # reportlab copies JPEG data into the PDF as it is; other kinds go in as decoded pixels
    reader = ImageReader(io.BytesIO(data) if kind == "JPEG" else usable)
    return Art(path, kind, data, digest(data), (float(usable.size[0]), float(usable.size[1])),
               reader=reader)


def readable_bitmap(shown: str, data: bytes, kind: str) -> Any:
    """The decoded image (palette, 16-bit and other modes as RGBA), or ValueError saying why not;
    the header is checked before any pixel is decoded."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # refused below instead
            with Image.open(io.BytesIO(data)) as probe:
                if probe.format != kind:
                    raise ValueError(f"{shown} is named like a {kind} image but holds "
                                     f"{probe.format or 'other'} data; save it as {kind} or rename it")
                if probe.width * probe.height > MAX_PIXELS:
                    raise ValueError(f"{shown} is {probe.width} x {probe.height} pixels; art may have at "
                                     f"most {MAX_PIXELS // 1_000_000} million (300 dpi needs about 12 "
                                     f"pixels per mm)")
                probe.load()
                return probe.copy() if probe.mode in ("RGB", "RGBA", "L") else probe.convert("RGBA")
    except UnidentifiedImageError:
        raise ValueError(f"{shown} is not a readable {kind} image (damaged, or another format)")
    except Image.DecompressionBombError:
        raise ValueError(f"{shown} has far more pixels than art may have (at most "
                         f"{MAX_PIXELS // 1_000_000} million)")
    except (OSError, SyntaxError, struct.error) as exc:
        raise ValueError(f"{shown} is not a readable {kind} image ({first_line(exc)})")


def register_user_font(path: Path, data: bytes) -> str:
    """Register a user's TrueType font under a name taken from its content; ValueError if unusable.

    The PDF names a font by the PostScript name inside the file, and reportlab shares one embedded
    font among fonts of one name, so a user's font could stand in for printgen's own face or
    another user font. Each is therefore embedded under its own name with its content's hash added
    (`Title-Regular-1f2e3d4c5b6a`), which no other font can carry. Every character it can print is
    test-embedded now, so a glyph damaged beyond ASCII is told here, at the font's key."""
    tag = hashlib.sha256(data).hexdigest()[:12]
    name = f"{USER_PREFIX}{tag}"
    if name not in pdfmetrics.getRegisteredFontNames():
        from printgen.art.measure import measure_font
        from printgen.core.fontfiles import printable

        measure_font(path, data)  # tables and character maps, before any reader walks them
        try:
            font = TTFont(name, io.BytesIO(data), asciiReadable=False)  # subsets as for Vera
            own = re.sub(rb"[^A-Za-z0-9-]", b"", bytes(getattr(font.face, "name", b"") or b""))[:40]
            font.face.name = (own or b"UserFont") + b"-" + tag.encode("ascii")
            font.face.makeSubset(sorted(printable(font.face)))  # a font that cannot be subset fails here, not in a PDF
        except (MemoryError, RecursionError):
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged font fails in many ways; say so, located
            raise ValueError(f"{path.name} is not a TrueType font printgen can embed ({first_line(exc)})")
        if not css_family(getattr(font.face, "familyName", b"")):
            font.face.familyName = ("".join(c for c in path.stem if c.isalnum()) or "user font").encode()
        pdfmetrics.registerFont(font)  # fonts.user_family reads the family from here
    return name


@dataclass
class ArtLibrary:
    """The art one definition uses, by the name written in the YAML, plus warnings about it."""

    images: dict[str, Art] = field(default_factory=dict)  # by the name written and by the file it resolves to
    fonts: dict[str, str] = field(default_factory=dict)  # YAML name -> registered font name
    warnings: list[str] = field(default_factory=list)
    templates: Path | None = None
    svg_texts: dict[tuple[str, Path], Art] = field(default_factory=dict)  # (digest, template) -> art, the latest

    def add_image(self, value: str, context: ArtContext) -> Art:
        if value in self.images:
            return self.images[value]
        kind = IMAGE_SUFFIXES.get(Path(value).suffix.lower())
        if kind is None:
            raise ValueError(IMAGE_EXPECTED)
        path = resolve(value, context)
        file = f"{kind}\0{path}"  # the same file under another spelling (./x.svg) is converted once
        if file in self.images:
            self.images[value] = self.images[file]
            return self.images[value]
        data = read_art(path)
        if kind == "SVG":
            from printgen.art.svg import load_svg

            art = load_svg(path, data, None if context.allow_outside else context.base.resolve())
            self.warnings += [w for w in art.warnings if w not in self.warnings]
        else:
            art = load_bitmap(path, data, kind)
        self.images[value] = self.images[file] = art
        return art

    def add_svg_text(self, path: Path, data: bytes, context: ArtContext, template: str | None = None,
                     font_map: Any = None) -> Art:
        """An SVG rendered from the template at `path` (its source `template`), converted once per
        (bytes, template), as its links are found from the template's folder; what it cannot draw
        as asked is warned at the template's lines."""
        key = (digest(data), path)
        art = self.svg_texts.get(key)
        if art is None:
            from printgen.art.svg import load_svg

            art = load_svg(path, data, None if context.allow_outside else context.base.resolve(), font_map, template)
            if template is not None:
                self.warnings += [w for w in art.warnings if w not in self.warnings]
            kept = sum(a.elements for a in self.svg_texts.values())
            while self.svg_texts and kept + art.elements > KEPT_SVG_ELEMENTS:  # the oldest go first
                kept -= self.svg_texts.pop(next(iter(self.svg_texts))).elements
            self.svg_texts[key] = art
        return art

    def add_templates(self, value: str, context: ArtContext) -> Path:
        self.templates = resolve(value, context, folder=True)
        return self.templates

    def add_font(self, value: str, context: ArtContext) -> str:
        if value in self.fonts:
            return self.fonts[value]
        if Path(value).suffix.lower() not in FONT_SUFFIXES:
            raise ValueError(FONT_EXPECTED)
        path = resolve(value, context)
        self.fonts[value] = register_user_font(path, read_art(path))
        return self.fonts[value]


def suffix_in(suffixes: tuple[str, ...], expected: str) -> Callable[[str | None], str | None]:
    """A validator of a file name's suffix alone: what the name says, before anything is read."""
    def check(value: str | None) -> str | None:
        if value is not None and Path(value).suffix.lower() not in suffixes:
            raise ValueError(expected)
        return value
    return check


@dataclass(frozen=True)
class Loads:
    """Marks a field naming a file that `load_files` reads after validation, through `add`."""

    add: Callable[[ArtLibrary, str, ArtContext], Any]


IMAGE_EXPECTED = "expected a PNG, JPEG or SVG file (.png, .jpg, .jpeg or .svg)"
FONT_EXPECTED = "expected a TrueType font file (.ttf)"
FileName = Annotated[str, Field(min_length=1, max_length=300)]
ImageFile = Annotated[Optional[FileName], AfterValidator(suffix_in(tuple(IMAGE_SUFFIXES), IMAGE_EXPECTED)),
                      Loads(ArtLibrary.add_image), Field(
    description="a PNG, JPEG or SVG file, relative to this definition's folder, e.g. 'art/logo.png'")]
FontFile = Annotated[Optional[FileName], AfterValidator(suffix_in(FONT_SUFFIXES, FONT_EXPECTED)),
                     Loads(ArtLibrary.add_font), Field(
    description="a TrueType font file (.ttf), relative to this definition's folder")]
TemplateFolder = Annotated[Optional[FileName], Loads(ArtLibrary.add_templates), Field(
    description="a folder of your own templates, relative to this definition's folder; "
                "a file there replaces the bundled template with the same name")]


# -- the loading step, after validation --------------------------------------------------------------

Named = tuple[Loc, str, "Loads", Optional[BaseModel]]  # a file name: its key path, value, how read, its model


def load_files(model: type[BaseModel], data: Any, result: BaseModel | None,
               context: ArtContext) -> list[tuple[Loc, str]]:
    """Read every file a definition names (its `Loads` fields) into `context.library`: those of
    `result`, the validated model, each value then carrying what was read from it (an `ArtName`);
    with no result (the definition has wrong values), those in its parts that are right, so every
    problem comes at once. Each file that cannot be used is a problem at its key, worded as
    validation words its problems."""
    named = named_files(result, ()) if result is not None else files_in_data(model, data, ())
    problems: list[tuple[Loc, str]] = []
    for loc, value, loads, owner in named:
        try:
            loaded = loads.add(context.library, value, context)
        except ValueError as exc:
            problems.append((loc, with_value(str(exc), value)))
        else:
            if owner is not None:
                setattr(owner, str(loc[-1]), ArtName(value, loaded))  # the value validated, and what it names
    return problems


def named_files(model: BaseModel, at: Loc) -> Iterator[Named]:
    """Each file name set in a validated `model` and the models inside it."""
    for name, info in type(model).model_fields.items():
        value = getattr(model, name, None)
        loads = loads_of(info)
        if loads is not None and isinstance(value, str):
            yield (*at, name), value, loads, model
        elif loads is None and holds_files(info.annotation):
            yield from files_within(value, (*at, name))


def files_within(value: Any, at: Loc) -> Iterator[Named]:
    if isinstance(value, BaseModel):
        yield from named_files(value, at)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from files_within(item, (*at, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from files_within(item, (*at, key))


def files_in_data(model: type[BaseModel], data: Any, at: Loc) -> Iterator[Named]:
    """Each file name in the parts of `data`, not valid as a whole, that validation found right."""
    try:
        yield from named_files(model.model_validate(data), at)
        return
    except ValidationError as exc:
        wrong = {tuple(err["loc"])[:1] for err in exc.errors(include_url=False)}
    if not isinstance(data, dict) or () in wrong:  # not a mapping, or wrong as a whole
        return
    for name, info in model.model_fields.items():
        if name not in data:
            continue
        loads = loads_of(info)
        if loads is not None and isinstance(data[name], str) and (name,) not in wrong:  # found right
            yield (*at, name), str(data[name]), loads, None
        elif loads is None and holds_files(info.annotation):
            yield from files_in_parts(info.annotation, data[name], (*at, name))


def files_in_parts(annotation: Any, data: Any, at: Loc) -> Iterator[Named]:
    """`files_in_data` through a field's type: a model, or the items of its lists and mappings."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield from files_in_data(annotation, data, at)
        return
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (list, tuple) and isinstance(data, list) and args:
        for index, item in enumerate(data):
            yield from files_in_parts(args[0], item, (*at, index))
    elif origin is dict and isinstance(data, dict) and len(args) == 2:
        for key, item in data.items():
            yield from files_in_parts(args[1], item, (*at, key))
    elif origin is not None:  # Optional[...], Annotated[...]: the first kind that holds models
        inner = next((arg for arg in args if holds_files(arg)), None)
        if inner is not None:
            yield from files_in_parts(inner, data, at)


def loads_of(info: Any) -> Loads | None:
    """How the file a field names is read, or None for a field naming no file."""
    return next((meta for meta in info.metadata if isinstance(meta, Loads)), None)


def holds_files(annotation: Any, seen: frozenset[type] = frozenset()) -> bool:
    """Whether a field's type has a model naming a file anywhere inside it (a list of players with
    their token images, a mapping of font families), so the walk never enters a deck's rows or a
    tile set's tiles."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation not in seen and any(
            loads_of(info) is not None or holds_files(info.annotation, seen | {annotation})
            for info in annotation.model_fields.values())
    return any(holds_files(arg, seen) for arg in get_args(annotation))


def with_value(message: str, value: str) -> str:
    """A loading problem as validation says a wrong value: the value written, unless it is quoted."""
    return message if "(got " in message else f"{message} (got {shorten(value)})"
