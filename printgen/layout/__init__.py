"""Pages from pieces: duplex sheets with cut and fold guides (sheet), imposition of cards and
tiles with bleed and backs (imposition, cards), reference sheets from a template and tables
(reference), the calibration sheet. Layer: above core, drawing, jinja and output.
"""
