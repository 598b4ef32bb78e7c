"""Omiga: 72 interlocking tiles, their rules, and the tile-set validator with its simulation.

The game object is in `game.py` (`GAME`); its definition and rules templates sit beside the code.
"""
