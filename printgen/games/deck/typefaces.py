"""The font a deck's text is set in, and the face `<b>` and `<i>` pick in it.

A text element's `font` is printgen's own sans in one of its four faces, a single TrueType file (one
face), or a family the deck names under `fonts:` (up to four files). Bold and italic combine with the
element's own face; a face the font does not have is a located error naming it, never a faked or
borrowed one."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from printgen.art.library import font_of
from printgen.drawing import fonts

Face = tuple[bool, bool]  # (bold, italic)
FACE_KEYS: dict[Face, str] = {(False, False): "regular", (True, False): "bold", (False, True): "italic",
                              (True, True): "bold_italic"}  # the keys of a family under fonts:
OWN_FACES: dict[str, Face] = {"regular": (False, False), "bold": (True, False), "italic": (False, True),
                              "bold-italic": (True, True)}
OWN: dict[Face, str] = {(False, False): fonts.REGULAR, (True, False): fonts.BOLD, (False, True): fonts.ITALIC,
                        (True, True): fonts.BOLD_ITALIC}


class NoFace(ValueError):
    """Bold or italic asked of a font that has no such face."""


@dataclass(frozen=True)
class Family:
    """The faces of the font an element names, by (bold, italic), as registered fonts."""

    name: str  # as the element's `font` writes it: 'bold', 'body.ttf' or a name under fonts:
    faces: Mapping[Face, str]
    base: Face = (False, False)  # the element's own face: printgen's 'bold' is bold before any <b>

    def face(self, bold: bool, italic: bool) -> str:
        wanted = (self.base[0] or bold, self.base[1] or italic)
        if wanted not in self.faces:
            raise NoFace(no_face(self.name, wanted))
        return self.faces[wanted]


def own_family(style: str) -> Family:
    return Family(style, OWN, OWN_FACES[style])


def named_faces(given: Any) -> dict[Face, str]:
    """The registered font of each face a family under `fonts:` gives (a model.FontFaces)."""
    return {face: font_of(getattr(given, key), "") for face, key in FACE_KEYS.items()
            if getattr(given, key, None) is not None}


def face_words(face: Face) -> tuple[str, str]:
    """('bold-italic', '<b> and <i>') for a face."""
    words = {(True, False): ("bold", "<b>"), (False, True): ("italic", "<i>"),
             (True, True): ("bold-italic", "<b> and <i>"), (False, False): ("regular", "plain text")}
    return words[face]


def no_face(font: str, face: Face) -> str:
    """Why styled text cannot print in `font`, as the element names it."""
    word, tag = face_words(face)
    if font.lower().endswith(".ttf"):
        return (f"the text asks for {word} ({tag}), and {font} is one TrueType file with no {word} face; "
                f"name a family under fonts: with a {FACE_KEYS[face]} file (fonts: {{Body: {{regular: "
                f"{font}, {FACE_KEYS[face]}: <its {word} file>.ttf}}}}) and set font: Body, or use "
                f"printgen's own faces (font: regular)")
    return (f"the text asks for {word} ({tag}), and the font {font} under fonts: has no {word} face; "
            f"add '{FACE_KEYS[face]}: <its {word} file>.ttf' to fonts.{font}")


def faces_asked(styles: Iterable[Face], font: str, given: Mapping[str, Any]) -> str | None:
    """Before anything is loaded: why a text whose spans ask for `styles` cannot print in `font`
    (`given`: the deck's fonts: by name), or None."""
    if font in OWN_FACES:
        return None
    has = set(FACE_KEYS) if font not in given else {f for f, k in FACE_KEYS.items() if getattr(given[font], k) is not None}
    if font.lower().endswith(".ttf"):
        has = {(False, False)}
    for bold, italic in styles:
        if (bold, italic) not in has:
            return no_face(font, (bold, italic))
    return None
