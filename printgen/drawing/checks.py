"""reportlab's shape checks, switched off for printgen's own drawing only.

They cost a sixth of the drawing time on tested code. With them on, svglib writes art in other
(equivalent) bytes, so every build draws with them off (cli.engine.in_worker) and its bytes never
depend on the process that asked. The `printgen` process starts reportlab without them; a library
user gets them off only inside `unchecked_shapes`.
PRINTGEN_SHAPE_CHECKS=1 keeps them on.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

ASKED_FOR = "PRINTGEN_SHAPE_CHECKS"


def wanted() -> bool:
    return os.environ.get(ASKED_FOR) == "1"


@contextmanager
def unchecked_shapes() -> Iterator[None]:
    """reportlab's shape checks off inside the block, restored after it (even if it raises)."""
    if wanted():
        yield
        return
    from reportlab import rl_config

    before = rl_config.shapeChecking
    rl_config.shapeChecking = 0
    try:
        yield
    finally:
        rl_config.shapeChecking = before


def start_unchecked() -> None:
    """For the `printgen` process before it imports reportlab, which reads RL_shapeChecking once."""
    if not wanted():
        os.environ.setdefault("RL_shapeChecking", "0")
