"""Quick Violence: the rulebook whose measuring page is the paper itself.

The game object is in `game.py` (`GAME`); its definition is
card_defs/quick_violence.yaml and its templates are in templates/quick_violence/ (printgen/core/bundled.py).
"""
