"""SVG art through svglib, with a warning for everything svglib would silently leave out.

svglib drops markers, patterns, masks, filters, `opacity`, text on a path and more without a word,
so the file is scanned first and each such feature is named with its line; the art still prints.
"""
from __future__ import annotations

import io
import logging
import math
import re
import sys
from dataclasses import dataclass
from logging.handlers import BufferingHandler
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from printgen.art.loaded import Art, digest, first_line
from printgen.art.measure import measure_svg
from printgen.art.svgimage import fill_placeholders, place_images
from printgen.art.svgtree import local, parse
from printgen.core.problems import display_name
from printgen.core.textcheck import FONT_NAME
from printgen.jinja.render import line_of

MARKERS = "markers (arrowheads and other marks at line ends) are not drawn"
MASKS = "masks are ignored; the masked shapes print whole"
FILTERS = "filters (blur, drop shadow and the like) are ignored"
ANIMATION = "animation is ignored; the first frame prints"
# element name -> what the user loses (elements svglib skips, or draws wrongly)
ELEMENTS = {
    "marker": MARKERS, "mask": MASKS, "filter": FILTERS,
    "pattern": "pattern fills are not drawn; the shapes they fill come out empty",
    "foreignObject": "embedded HTML (foreignObject) is not drawn",
    "textPath": "text along a path is not drawn along the path",
    "animate": ANIMATION, "animateTransform": ANIMATION, "animateMotion": ANIMATION, "set": ANIMATION,
    "script": "scripts are ignored",
}
# presentation property (attribute or CSS) -> what the user loses
PROPERTIES = {
    "opacity": "'opacity' is ignored, so those parts print fully opaque (fill-opacity and "
               "stroke-opacity do work)",
    "marker-start": MARKERS, "marker-mid": MARKERS, "marker-end": MARKERS, "marker": MARKERS,
    "mask": MASKS, "filter": FILTERS,
    "mix-blend-mode": "blend modes are ignored; shapes are painted normally",
}
# the feature's name in a warning, so related spellings are reported once
FEATURE = {"marker-start": "marker", "marker-mid": "marker", "marker-end": "marker",
           "animateTransform": "animate", "animateMotion": "animate", "set": "animate"}
CSS_PROPERTY = re.compile(r"(?<![\w-])(" + "|".join(sorted(PROPERTIES, key=len, reverse=True))
                          + r")\s*:\s*([^;}\n]+)")


@dataclass(frozen=True)
class Finding:
    feature: str
    line: int
    what: str


def scan(root: Any) -> list[Finding]:
    """Every feature svglib cannot draw, once per feature, at the first line it appears."""
    found: dict[str, Finding] = {}

    def note(feature: str, line: int | None, what: str) -> None:
        name = FEATURE.get(feature, feature)
        found.setdefault(name, Finding(name, line or 1, what))

    for element in root.iter():
        name = local(element.tag)
        line = element.sourceline
        if name in ELEMENTS:
            note(name, line, ELEMENTS[name])
        if name == "clipPath" and len([c for c in element if local(c.tag) not in ("title", "desc")]) > 1:
            note("clipPath", line, "a clip path made of more than one shape clips with its first "
                                   "shape only")
        if name == "style" and element.text:
            if "@import" in element.text:
                note("@import", line, "@import in a stylesheet is ignored")
            for prop, value in CSS_PROPERTY.findall(element.text):
                if not is_neutral(prop, value):
                    note(prop, line, PROPERTIES[prop])
        for prop, value in properties(element):
            if prop in PROPERTIES and not is_neutral(prop, value):
                note(prop, line, PROPERTIES[prop])
            if prop in ("fill", "stroke") and value.strip().startswith("url(") and points_to_pattern(root, value):
                note("pattern", line, ELEMENTS["pattern"])
    return sorted(found.values(), key=lambda f: (f.line, f.feature))


def undrawable_text(root: Any) -> tuple[int, str] | None:
    """The line and the reason of the first character an SVG's text would print as an empty box:
    its text is set in the embedded sans (embedded_fonts), whatever family it asks for."""
    from printgen.core.textcheck import WHITESPACE_OK, describe, drawable

    glyphs = drawable()
    for element in root.iter():
        if isinstance(element.tag, str) and local(element.tag) == "text":
            char = next((c for c in "".join(element.itertext()) if c not in WHITESPACE_OK
                         and ord(c) not in glyphs), None)
            if char is not None:
                return element.sourceline or 1, (f"its text has {char!r} ({describe(char)}), which the "
                                                  f"embedded font ({FONT_NAME}) lacks, so it would print as "
                                                  f"an empty box; convert the text to paths in your drawing "
                                                  f"program, or spell it another way")
    return None


def properties(element: Any) -> Iterator[tuple[str, str]]:
    """Presentation attributes and `style="..."` declarations of one element."""
    for key, value in element.attrib.items():
        if isinstance(key, str) and key != "style":
            yield local(key), str(value)
    for declaration in str(element.attrib.get("style", "")).split(";"):
        if ":" in declaration:
            prop, value = declaration.split(":", 1)
            yield prop.strip(), value.strip()


def is_neutral(prop: str, value: str) -> bool:
    """`opacity: 1`, `filter: none` and the like change nothing, so they need no warning."""
    value = value.strip().lower().replace("!important", "").strip()
    if prop == "opacity":
        try:
            return float(value.rstrip("%")) >= (100 if value.endswith("%") else 1)
        except ValueError:
            return value in ("", "inherit", "initial", "unset")
    if prop == "mix-blend-mode":
        return value in ("normal", "")
    return value in ("none", "")


def points_to_pattern(root: Any, value: str) -> bool:
    match = re.search(r"url\(\s*['\"]?#([^'\")\s]+)", value)
    if not match:
        return False
    target = root.xpath("//*[@id=$ident]", ident=match.group(1))
    return bool(target) and local(target[0].tag) == "pattern"


def load_svg(path: Path, data: bytes, root_folder: Path | None, font_map: Any = None,
             template: str | None = None) -> Art:
    """Measure the SVG, then convert it; files it links must lie under `root_folder`. `template`:
    the source of the template that made `data`, where warnings are then located."""
    tree = parse(path, data)
    measured = measure_svg(tree, path, root_folder)  # refuses what would cost too much, before svglib runs
    findings = scan(tree)
    fonts = embedded_fonts(told=True) if font_map is None else font_map
    drawing, notes = convert(path, data, root_folder, fonts)
    shown = display_name(path)
    boxed = undrawable_text(tree)
    spoken = replaced_notes(fonts)  # each told at the line naming the family instead
    notes = tuple(note for note in notes if note not in spoken)
    drawn = getattr(fonts, "replaced", {})
    if template is None:
        warnings = [f"{shown}:{f.line}: warning: {f.feature}: {f.what}" for f in findings]
        warnings += [f"{shown}:{boxed[0]}: warning: text: {boxed[1]}"] if boxed else []
        source = data.decode("utf-8", "replace")
        warnings += [f"{shown}:{line_of(source, family)}: warning: {note}"
                     for family, note in zip(named_families(drawn), spoken)]
    else:  # the lines of the SVG made are not the template's: each is found by what it names
        warnings = [f"{shown}:{template_line(template, f.feature)}: warning: {f.feature}: {f.what}" for f in findings]
        warnings += [f"{shown}:{line_of(template, family)}: warning: font-family {family!r} {drawn[family]}; "
                     f"name a font file for it under the deck's fonts: (such as \"{family}: fonts/"
                     f"{''.join(c for c in family.lower() if c.isalnum()) or 'font'}.ttf\"), or "
                     f"convert the text to paths in your drawing program"
                     for family in named_families(drawn)]
    warnings += [f"{shown}: warning: svglib: {note}" for note in notes]
    missing = missing_in_user_font(drawing, getattr(fonts, "labels", {}))
    if missing is not None:
        raise ValueError(missing)
    return Art(path, "SVG", data, digest(data), (float(drawing.width), float(drawing.height)),
               drawing=drawing, warnings=tuple(warnings), elements=measured.elements)


def missing_in_user_font(drawing: Any, labels: Mapping[str, str]) -> str | None:
    """Why a text svglib set in a user's font (`labels`: those it used -> the family asked for)
    would print a character as an empty box, or None; text in printgen's own font is checked
    before conversion (undrawable_text)."""
    from reportlab.graphics.shapes import Group, String

    from printgen.core.textcheck import WHITESPACE_OK, describe, drawable_in

    if not labels:
        return None
    shapes = list(getattr(drawing, "contents", []))
    while shapes:
        shape = shapes.pop()
        if isinstance(shape, Group):
            shapes.extend(shape.contents)
        elif isinstance(shape, String) and shape.fontName in labels:
            glyphs = drawable_in(shape.fontName)
            char = next((c for c in shape.text if c not in WHITESPACE_OK and c != " " and ord(c) not in glyphs), None)
            if char is not None:
                return (f"its text has {char!r} ({describe(char)}), which the font-family "
                        f"{labels[shape.fontName]} does not have, so it would print as an empty box; "
                        f"spell it another way, or use a font that has it")
    return None


def template_line(template: str, feature: str) -> int:
    """The template's line naming `feature` (an element, else a property), 1 if none does."""
    return line_of(template, "<" + feature) if "<" + feature in template else line_of(template, feature)


def convert(path: Path, data: bytes, root_folder: Path | None,
            font_map: Any = None, tree: Any = None) -> tuple[Any, tuple[str, ...]]:
    """svglib's drawing of `data` and what svglib logged; `data`, not the file, as a rendered
    template has no file. `font_map` defaults to embedded_fonts(), telling each family it replaces;
    `tree` is `data` already parsed."""
    from svglib.svglib import SvgRenderer, load_svg_file

    logger = logging.getLogger("svglib")
    handler, propagate = BufferingHandler(sys.maxsize), logger.propagate  # keeps every record
    handler.setLevel(logging.WARNING)
    logger.addHandler(handler)
    logger.propagate = False
    try:
        root = tree if tree is not None else load_svg_file(io.BytesIO(data), resolve_entities=False)
        fonts = embedded_fonts(told=True) if font_map is None else font_map
        pictures: list[str] = []

        def picture(target: Path, picture_data: bytes) -> Any:
            drawn, notes = convert(target, picture_data, root_folder, fonts)
            pictures.extend(notes)
            return drawn

        root, placed = (root, {}) if root is None else place_images(root, path, root_folder, picture)
        drawing = None if root is None else SvgRenderer(
            str(path), font_map=fonts,
            external_reference_root=None if root_folder is None else str(root_folder)).render(root)
        if drawing is not None:
            fill_placeholders(drawing, placed)
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 - svglib fails in many ways on odd files; say which
        raise ValueError(f"{display_name(path)} could not be converted by svglib ({first_line(exc)})")
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError(f"{display_name(path)} has no size: give its <svg> a width and height or a viewBox")
    if not all(math.isfinite(v) and v > 0 for v in (drawing.width, drawing.height)):
        raise ValueError(f"{display_name(path)} has a size of {drawing.width} x {drawing.height}; expected "
                         f"positive, finite numbers")
    replaced = replaced_notes(fonts)
    return drawing, tuple(dict.fromkeys([*(r.getMessage() for r in handler.buffer), *pictures, *replaced]))


def replaced_notes(font_map: Any) -> list[str]:
    """What the font map drew in another font than asked, in words (not located)."""
    drawn = getattr(font_map, "replaced", {})
    return [f"font-family {family!r} {drawn[family]}; convert the text to paths in your drawing "
            f"program to keep its look"
            for family in named_families(drawn)]


def named_families(tried: Iterable[str]) -> list[str]:
    """The families as written, without the single words svglib also tries ("DejaVu", "Sans")."""
    families = list(tried)
    return [f for f in families if not any(f != g and f in g.split() for g in families)]


QUIET_FAMILIES = {"helvetica", "sans-serif", FONT_NAME.lower()}  # svglib's default family, and Vera's own


Faces = Mapping[tuple[bool, bool], str]  # (bold, italic) -> a registered font, for the faces a family has


def embedded_fonts(user_fonts: Mapping[str, str] | None = None, told: bool = False,
                   families: Mapping[str, Faces] | None = None) -> Any:
    """Every `font-family` in an embedded font: a family the definition names (`families`: its
    name -> faces, such as a deck's `fonts:`), else a user font it loaded by the family name inside
    the file (`user_fonts`: registered name -> family), else Vera in the asked face, never a font
    the viewer substitutes (a standard PDF font such as Helvetica is named in the PDF but not in it,
    so a printer picks its own). `told`: each family drawn in another font is kept in `replaced`
    (as written -> what was drawn instead), for a warning."""
    from svglib.fonts import FontMap

    from printgen.drawing import fonts

    fonts.register()
    faces = {(False, False): fonts.REGULAR, (True, False): fonts.BOLD, (False, True): fonts.ITALIC,
             (True, True): fonts.BOLD_ITALIC}
    named = {name.lower(): given for name, given in (families or {}).items()}

    class EmbeddedFonts(FontMap):
        def __init__(self) -> None:
            self.replaced: dict[str, str] = {}
            self.labels: dict[str, str] = {}  # a user font drawn -> the family and face that asked for it
            super().__init__()

        def register_default_fonts(self) -> None:  # no standard-font aliases: nothing maps there
            return None

        def find_font(self, font_name: str, weight: Any = "normal", style: Any = "normal") -> tuple[str, bool]:
            written = font_name.strip().strip("'\"")
            family = written.lower()
            text = str(weight).strip().lower()
            asked = (text in ("bold", "bolder") or (text.isdigit() and int(text) >= 600),
                     str(style).strip().lower() in ("italic", "oblique"))
            if family in named:
                given = named[family]
                if asked in given:
                    self.labels[given[asked]] = f"{written} ({face_name(asked)} face)"
                    return given[asked], True
                if told:
                    self.replaced[written] = (f"has no {face_name(asked)} face, so that text is drawn "
                                              f"in its regular face")
                self.labels[given[(False, False)]] = f"{written} (regular face)"
                return given[(False, False)], True
            for registered, name in (user_fonts or {}).items():
                if name.lower() == family:
                    self.labels[registered] = written
                    return registered, True
            if told and family not in QUIET_FAMILIES:
                self.replaced[written] = f"is not available, so its text is drawn in {FONT_NAME}{STYLE_NAMES[asked]}"
            return faces[asked], True

    return EmbeddedFonts()


STYLE_NAMES = {(False, False): "", (True, False): " Bold", (False, True): " Oblique", (True, True): " Bold Oblique"}


def face_name(face: tuple[bool, bool]) -> str:
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
            (True, True): "bold-italic"}[face]
