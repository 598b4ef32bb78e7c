"""Progress bars on stderr (stdout stays clean for paths and reports), only for work expected to take
a second or more: a bar that flashes past is noise. Off a terminal, click prints the label once.
"""
from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Any, ContextManager

import click

SHOW_FROM_SECONDS = 1.0


class Silent:
    def update(self, n_steps: int, current_item: Any = None) -> None:
        pass


def progress(length: int, label: str, seconds_each: float) -> ContextManager[Any]:
    """A bar of `length` steps if they should take a second or more in all, else a silent stand-in."""
    if length * seconds_each < SHOW_FROM_SECONDS:
        return nullcontext(Silent())
    return click.progressbar(length=length, label=label, file=sys.stderr)
