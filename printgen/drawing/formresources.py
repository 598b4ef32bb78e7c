"""The resources of a PDF form, which reportlab gives a page but not a form.

reportlab lists only fonts and other forms among a form's resources. A form whose content sets an
opacity (a graphics state), paints a spot colour (a colour space) or a gradient (a shading) then
names what it does not hold, and prints opaque, black or not at all. printgen's forms (art drawn
from an SVG, pictures stored once) ask for them here, just before `endForm`.
"""
from __future__ import annotations

from typing import Any


def needs_own_resources(canvas: Any) -> bool:
    """Whether the form being drawn uses anything reportlab's resources for a form leave out."""
    return bool(canvas._extgstate.getState() or canvas._shadingUsed or canvas._colorsUsed)


def form_resources(canvas: Any) -> Any:
    """The resources a form's content uses. Must be called just before endForm, while the form's
    accumulators are current."""
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
