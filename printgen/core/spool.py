"""Kept for output/cellpages.py, which names `Held` from here: see printgen.core.staging."""
from printgen.core.staging import Held

__all__ = ["Held"]
