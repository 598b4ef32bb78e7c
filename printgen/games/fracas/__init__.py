"""Fracas: a standard-deck brawling game; its reference sheet and tokens.

The game object is in `game.py` (`GAME`); its definition and rules templates sit beside the code.
"""
