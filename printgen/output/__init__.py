"""Writers: the millimetre picture and text story into files. pdf (reportlab canvas, invariant),
svg (svgwrite), png (pypdfium2), and forms a PDF stores once (reuse). Layer: above core and drawing.
"""
