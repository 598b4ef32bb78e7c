"""Which file holds each face of the embedded font (Vera, inside reportlab); in core because
`textcheck` needs the character map long before anything is drawn."""
from __future__ import annotations

from pathlib import Path

REGULAR = "PG-Sans"
BOLD = "PG-Sans-Bold"
ITALIC = "PG-Sans-Italic"
BOLD_ITALIC = "PG-Sans-BoldItalic"
FACE_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}


def font_dir() -> Path:
    import reportlab

    return Path(reportlab.__file__).parent / "fonts"
