"""Art a user brings (PNG, JPEG and SVG pictures, TrueType fonts, a template folder): checked while
the definition is validated, measured before it is decoded (the whole build runs in one bounded child).

library: the definition fields and the per-definition ArtLibrary. loaded: Art once loaded, and how it
is drawn. bitmap, svg, userfont: one reader per kind. measure: what a file would cost to read.
svgtree: the safe SVG parser.
Layer: above core and drawing; games use it through their models.
"""
