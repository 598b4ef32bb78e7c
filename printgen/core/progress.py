"""Progress bars for long work, on stderr so that stdout stays clean for paths and reports.

A bar only appears when the work is expected to take about a second or more: a bar that flashes
past is noise. Where stderr is not a terminal, click prints the label once instead of a bar.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Protocol

import click

SHOW_FROM_SECONDS = 1.0


class Progress(Protocol):
    def update(self, n_steps: int, current_item: Any = None) -> None: ...


class Silent:
    def update(self, n_steps: int, current_item: Any = None) -> None:
        pass


@contextmanager
def progress(length: int, label: str, seconds_each: float,
             show: Callable[[Any], str] | None = None) -> Iterator[Progress]:
    """A bar of `length` steps if they should take a second or more in all, else a silent stand-in.

    `show` names the item in hand (passed to `update` as `current_item`) after the bar.
    """
    if length * seconds_each < SHOW_FROM_SECONDS:
        yield Silent()
        return
    bar: Any = click.progressbar(length=length, label=label, file=sys.stderr,
                                 item_show_func=(lambda item: show(item) if item is not None
                                                 else None) if show else None)
    with bar:
        yield bar
