"""Drawing in millimetres: the embedded fonts, picture helpers on reportlab's shapes (picture),
rules text in Markdown turned into flowables (markdown, story),
number formatting for files (numbers). Layer: above core only.
"""
