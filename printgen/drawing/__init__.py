"""Drawing in millimetres: the embedded fonts, picture helpers on reportlab's shapes (picture),
printgen's text markup turned into flowables (story) and the paragraph tags it allows (markup),
number formatting for files (numbers). Layer: above core only.
"""
