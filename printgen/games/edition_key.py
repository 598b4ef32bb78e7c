"""The rulings key on a reference sheet or card: at the foot of the front's last column, in caption type.

A publisher keeps the edition's talk out of the title block; the key is a caption, small and grey,
under the last thing on the card's front (`<!-- table: ruling_key -->` in a reference template)."""
from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph

from printgen.drawing import fonts, style
from printgen.drawing.story import escape
from printgen.games.header import RULING_KEY

KEY_TABLE = "ruling_key"  # the name a reference template places it by


def key_caption(width_mm: float) -> Flowable:
    """The key in caption type: the footer's size and grey, italic, a little space above it."""
    caption = ParagraphStyle("ruling-key", fontName=fonts.ITALIC, fontSize=style.SMALL_PT,
                             leading=style.SMALL_PT * 1.25, textColor=HexColor(style.FOOTER_GREY),
                             spaceBefore=style.SMALL_PT * 0.5)
    return Paragraph(escape(RULING_KEY), caption)
