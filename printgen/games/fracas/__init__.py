"""Fracas: a standard-deck brawling game; its reference sheet and tokens."""
