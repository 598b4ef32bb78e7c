"""reportlab's shape checks, switched off for printgen's own drawing only.

reportlab type-checks every attribute set on a drawing shape. printgen sets some 30,000 of them in
`printgen build omiga`, from tested code; the checks cost about a sixth of the drawing time, and the
output is byte-identical without them. Importing printgen changes nothing: the `printgen` command
starts reportlab without them (printgen.launch; its process draws nothing but printgen's pages), and
a program that uses printgen as a library gets them off only while printgen builds, through
`unchecked_shapes`. PRINTGEN_SHAPE_CHECKS=1 keeps them on everywhere.
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
    """For the `printgen` process before it imports reportlab: reportlab reads RL_shapeChecking once,
    when it starts, and then leaves the per-attribute hook out of its shapes altogether."""
    if not wanted():
        os.environ.setdefault("RL_shapeChecking", "0")
