"""Decks: any cards, tiles or tokens from a definition, with layouts in YAML and data in CSV.

The game object is in `game.py` (`GAME`); the bundled sample deck and its files sit beside the code.
"""
