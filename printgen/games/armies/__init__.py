"""Armies: a standard-deck wargame; its reference sheet and positions figure.

The game object is in `game.py` (`GAME`); its definition and rules templates sit beside the code.
"""
