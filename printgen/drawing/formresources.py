"""The resources of a PDF form, which reportlab gives a page but not a form: without them a form's
opacity, spot colour or gradient prints opaque, black or not at all.
"""
from __future__ import annotations

from typing import Any


def needs_own_resources(canvas: Any) -> bool:
    return bool(canvas._extgstate.getState() or canvas._shadingUsed or canvas._colorsUsed)


def form_resources(canvas: Any) -> Any:
    """The resources a form's content uses; call just before endForm."""
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
