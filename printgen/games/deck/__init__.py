"""Decks: any cards, tiles or tokens from a definition, with layouts in YAML and data in CSV.

The game object is in `game.py` (`GAME`); the bundled sample deck is
card_defs/deck.yaml, with the files it names beside it (see printgen/core/bundled.py).
"""
