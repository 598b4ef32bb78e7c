"""Decks: any cards, tiles or tokens from a definition, with layouts in YAML and data in CSV."""
