"""Armies: a standard-deck wargame; its reference sheet and positions figure.

The game object is in `game.py` (`GAME`); its definition is
card_defs/armies.yaml and its templates are in templates/armies/ (printgen/core/bundled.py).
"""
