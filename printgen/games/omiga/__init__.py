"""Omiga: 72 interlocking tiles, their rules, and the tile-set validator with its simulation."""
