"""svgwrite, imported without the validation tables that printgen's own SVGs never consult.

printgen writes its SVGs with svgwrite's checks off (`debug=False`: the output is printgen's own
and tests parse it), yet `svgwrite.params` imports `svgwrite.validator2` up front, and with it the
SVG 1.1 and 1.2 Tiny tables and their regular expressions: about half of svgwrite's import time
(some 20 ms of 45). So svgwrite is imported here with `get_validator` answered by
`DeferredValidator`, which imports the real tables the first time anything asks it to check.
With `debug=False` nothing ever asks; a program that also uses svgwrite with its checks on gets the
real validator, unchanged, at its first check. Nothing else in svgwrite differs.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from importlib import import_module
from types import ModuleType
from typing import Any

TABLES = "svgwrite.validator2"


class DeferredValidator:
    """Stands in for svgwrite's validator of one profile; the real one is imported on first use."""

    def __init__(self, profile: str, debug: bool = True) -> None:
        self.profile = profile
        self.debug = debug

    def __getattr__(self, name: str) -> Any:  # only attributes this object lacks: the checks
        real = import_module(TABLES).get_validator(self.profile, self.debug)
        return getattr(real, name)


@lru_cache(maxsize=None)
def svgwrite_module() -> ModuleType:
    """The svgwrite package; its tables are imported only if this process has not yet imported
    svgwrite (then whoever did has paid for them) and only when a check is asked for."""
    if "svgwrite.params" not in sys.modules and TABLES not in sys.modules:
        stand_in = ModuleType(TABLES, "imported only when a check is asked for")
        stand_in.get_validator = DeferredValidator  # type: ignore[attr-defined]
        sys.modules[TABLES] = stand_in
        try:
            import svgwrite.params  # noqa: F401 - binds the stand-in's get_validator
        finally:
            if sys.modules.get(TABLES) is stand_in:
                del sys.modules[TABLES]  # a later import of the tables finds the real module
    import svgwrite

    return svgwrite
