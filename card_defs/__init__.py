"""Bundled game definitions (installed as printgen.card_defs)."""
