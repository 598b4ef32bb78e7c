"""The user's printgen settings: the printer's duplex back offset, per flip edge (turning on the
other edge moves the back differently), applied by `printgen build` when `--back-offset` is not
given; it belongs to the printer, not to a game. In $XDG_CONFIG_HOME/printgen/config.toml (default
~/.config/printgen/config.toml): `[back_offset]` with `long = [1.5, -0.5]`.
"""
from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from printgen.core.atomic import write_bytes
from printgen.core.paper import Flip
from printgen.core.problems import DefinitionError, Problem, display_name

LIMIT_MM = 20.0  # the same bound the command line puts on --back-offset


def toml_parser() -> ModuleType:
    """tomllib (tomli before Python 3.11), imported only when there is a file to read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - the same parser, as a package, before Python 3.11
        import tomli as tomllib
    return tomllib


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "printgen" / "config.toml"


def located(path: Path, text: str, key: str, message: str) -> Problem:
    """A problem at the line where `key` is set (line 1 if it cannot be found)."""
    name = re.escape(key.rsplit(".", 1)[-1])
    lines = enumerate(text.splitlines(), start=1)
    line = next((number for number, each in lines if re.match(rf"\s*{name}\s*=", each)), 1)
    return Problem(display_name(path), line, key, message)


def read(path: Path | None = None) -> tuple[dict[str, Any], str]:
    """The parsed config and its text ({} if there is no file); a broken file is a located error."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, ""
    except (OSError, UnicodeDecodeError) as exc:
        raise DefinitionError([Problem(display_name(path), 1, "", f"cannot read the config file ({exc})")])
    tomllib = toml_parser()
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"at line (\d+)", str(exc))  # newer parsers give `lineno`, older ones only say it
        line = getattr(exc, "lineno", None) or (int(at.group(1)) if at else 1)
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise DefinitionError([Problem(display_name(path), line, "", f"not valid TOML: {reason}")])


def saved_back_offset(flip: Flip, path: Path | None = None) -> tuple[float, float] | None:
    """The saved offset for `flip`, or None; a malformed entry is a located error, never ignored."""
    path = path or config_path()
    data, text = read(path)
    table = data.get("back_offset")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise DefinitionError([located(path, text, "back_offset", "expected a table such as "
                                       "[back_offset] with long = [1.5, -0.5]")])
    value = table.get(flip)
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            or not all(math.isfinite(v) and abs(v) <= LIMIT_MM for v in value)):
        raise DefinitionError([located(path, text, f"back_offset.{flip}", (
            f"expected two numbers of mm between -{LIMIT_MM:g} and {LIMIT_MM:g}, such as [1.5, -0.5] "
            f"(got {value!r})"))])
    return float(value[0]), float(value[1])


def save_back_offset(flip: Flip, offset: tuple[float, float], path: Path | None = None) -> Path:
    """Store the offset for `flip`, keeping everything else in the file as the user wrote it: other
    tables however deeply nested, comments, order and spacing (tomlkit edits the text in place)."""
    import tomlkit  # only `calibrate --save` writes the file

    path = path or config_path()
    _, text = read(path)  # a broken file is a located error before anything is written
    document = tomlkit.parse(text) if text else tomlkit.document()
    if not text:
        document.add(tomlkit.comment("printgen settings; `printgen calibrate --save X,Y` writes the "
                                     "back offset."))
    table = document.get("back_offset")
    if not isinstance(table, dict):
        table = tomlkit.table()
        document["back_offset"] = table
    table[flip] = [float(offset[0]), float(offset[1])]
    write_bytes(path, tomlkit.dumps(document).encode("utf-8"))
    return path
