"""One Minute War: the double-sided sheet with its fold-and-cut soldier card.

The game object is in `game.py` (`GAME`); its definition is
card_defs/one_minute_war.yaml and its templates are in templates/one_minute_war/ (printgen/core/bundled.py).
"""
