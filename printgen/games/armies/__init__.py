"""Armies: a standard-deck wargame; its reference sheet and positions figure."""
