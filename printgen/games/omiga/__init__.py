"""Omiga: 72 interlocking tiles, their rules, and the tile-set validator with its simulation.

The game object is in `game.py` (`GAME`); its definition is
card_defs/omiga.yaml and its templates are in templates/omiga/ (printgen/core/bundled.py).
"""
