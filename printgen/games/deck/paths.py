"""SVG path data (`d`) for a deck's `path` element, read into a reportlab Path in millimetres.

S, T and A are refused with a hint, since C draws the same curves. Every point the path reaches,
relative moves added up, is held to the deck's reach (printgen.games.deck.reach)."""
from __future__ import annotations

import re

from reportlab.graphics.shapes import Path

from printgen.games.deck.reach import LIMIT, out_of_reach

TOKEN = re.compile(r"[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}
MAX_COMMANDS = 5000


def path_of(d: str, x0: float = 0.0, y0: float = 0.0) -> Path:
    """The path, moved by (x0, y0); ValueError says what in `d` cannot be read."""
    if TOKEN.sub(" ", d).replace(",", " ").strip():
        raise ValueError("expected SVG path data: the letters M L H V C Q Z and numbers")
    items = TOKEN.findall(d)
    path = Path()
    x = y = start_x = start_y = 0.0
    command, i, count = "", 0, 0
    while i < len(items):
        if items[i].isalpha():
            command = items[i]
            i += 1
        elif not command:
            raise ValueError("path data starts with a command such as M")
        upper = command.upper()
        if upper not in ARGS:
            raise ValueError(f"'{command}' is not read; draw curves with C or Q")
        need = ARGS[upper]
        args = items[i:i + need]
        if len(args) < need or any(a.isalpha() for a in args):
            raise ValueError(f"'{command}' needs {need} numbers")
        i += need
        count += 1
        if count > MAX_COMMANDS:
            raise ValueError(f"more than {MAX_COMMANDS} commands in one path")
        values = [float(a) for a in args]
        if command.islower():  # relative: from the current point
            offsets = {"H": [x], "V": [y]}.get(upper, [x, y] * (need // 2))
            values = [v + o for v, o in zip(values, offsets)]
        far = next((v for v in values if out_of_reach(v)), None)
        if far is not None:
            raise ValueError(f"'{command} {' '.join(args)}' (command {count}) takes the path to {far:g} mm; "
                             f"expected every point within {LIMIT:g} mm of the card's corner")
        if upper == "Z":
            path.closePath()
            x, y = start_x, start_y
            if i < len(items) and not items[i].isalpha():
                raise ValueError("Z takes no numbers")
            continue
        if upper == "M":
            x, y = start_x, start_y = values
            path.moveTo(x + x0, y + y0)
            command = "l" if command.islower() else "L"  # numbers after a move draw lines
            continue
        if not path.operators:
            raise ValueError("path data starts with M (a move)")
        if upper in ("L", "H", "V"):
            x, y = {"L": values, "H": [values[0], y], "V": [x, values[0]]}[upper]
            path.lineTo(x + x0, y + y0)
        elif upper == "C":
            path.curveTo(*(v + o for v, o in zip(values, [x0, y0] * 3)))
            x, y = values[4], values[5]
        else:  # Q: the cubic that draws the same curve
            cx, cy, ex, ey = values
            path.curveTo(x + 2 / 3 * (cx - x) + x0, y + 2 / 3 * (cy - y) + y0,
                         ex + 2 / 3 * (cx - ex) + x0, ey + 2 / 3 * (cy - ey) + y0, ex + x0, ey + y0)
            x, y = ex, ey
    return path
