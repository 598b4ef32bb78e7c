"""Art a user brings (pictures, TrueType fonts, a template folder): checked while the definition is
validated and measured before it is decoded. library: the fields, ArtLibrary and the bitmap and font
readers; loaded: Art and how it is drawn; svg: the SVG reader; measure: costs; svgtree: the safe SVG parser.
Layer: above core and drawing; games use it through their models.
"""
