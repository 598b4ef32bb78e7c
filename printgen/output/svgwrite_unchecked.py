"""svgwrite, imported without the parts that printgen's own SVGs never use.

printgen writes its SVGs with svgwrite's checks off (`debug=False`: the output is printgen's own
and tests parse it), yet svgwrite imports two things up front that only other uses need:

- `svgwrite.validator2`, and with it the SVG 1.1 and 1.2 Tiny tables and their regular
  expressions (some 20 to 40 ms), which only a drawing with its checks on consults;
- `urllib.request`, and with it http.client and ssl (some 7 to 20 ms: OpenSSL is loaded), which
  only `embed_google_web_font` calls.

So, the first time svgwrite is imported in this process, each of them is stood in for by a module
whose one name svgwrite binds (`get_validator`, `urlopen`) imports the real module when first
used. Nothing in svgwrite's behaviour changes: a program that also uses svgwrite with its checks on,
or embeds a web font, gets the real tables and the real urlopen at that first use. The stand-ins
are in `sys.modules` only while svgwrite's own modules are imported, then removed, so any later
import of either name finds the real module.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from importlib import import_module
from types import ModuleType
from typing import Any


class DeferredValidator:
    """Stands in for svgwrite's validator of one profile; the real one is imported on first use."""

    def __init__(self, profile: str, debug: bool = True) -> None:
        self.profile = profile
        self.debug = debug

    def __getattr__(self, name: str) -> Any:  # only attributes this object lacks: the checks
        real = import_module("svgwrite.validator2").get_validator(self.profile, self.debug)
        return getattr(real, name)


def deferred_urlopen(*args: Any, **kwargs: Any) -> Any:
    """urllib.request.urlopen, imported when svgwrite first fetches something."""
    return import_module("urllib.request").urlopen(*args, **kwargs)


STAND_INS: dict[str, dict[str, Any]] = {
    "svgwrite.validator2": {"get_validator": DeferredValidator},
    "urllib.request": {"urlopen": deferred_urlopen},
}


@lru_cache(maxsize=None)
def svgwrite_module() -> ModuleType:
    """The svgwrite package; if this process has not imported it yet, imported with the stand-ins."""
    if "svgwrite" not in sys.modules:
        placed = {name: stand_in(name, names) for name, names in STAND_INS.items() if name not in sys.modules}
        sys.modules.update(placed)
        try:
            import svgwrite  # noqa: F401 - binds the stand-ins' names
        finally:
            for name, module in placed.items():
                if sys.modules.get(name) is module:
                    del sys.modules[name]  # a later import of the name finds the real module
    import svgwrite

    return svgwrite


def stand_in(name: str, names: dict[str, Any]) -> ModuleType:
    module = ModuleType(name, "printgen's stand-in while svgwrite is imported (svgwrite_unchecked)")
    module.__dict__.update(names)
    return module
