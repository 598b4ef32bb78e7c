"""Fracas: a standard-deck brawling game; its reference sheet and tokens.

The game object is in `game.py` (`GAME`); its definition is
card_defs/fracas.yaml and its templates are in templates/fracas/ (printgen/core/bundled.py).
"""
