"""Texts rendered ahead of their use: a build that knows which texts it will ask for (Omiga's rules
and reference card) starts one bounded child rendering all of them at once, beside its own work,
and each later render finds its text ready instead of starting a child of its own and waiting.

Only a text rendered without a problem is taken from here. One that failed, or a batch that broke
its budget, leaves the render to start its usual child, so every message is exactly the one a
render asked for alone would give (`printgen.jinja.render`).
"""
from __future__ import annotations

from typing import Any

from printgen.core.bounded import Running

# key of a text (jinja.textcache.key_of) -> the batch rendering it; only while a build runs
PENDING: dict[str, "Batch"] = {}


class Batch:
    """Texts being rendered in one bounded child, each by its key."""

    def __init__(self, running: Running, keys: list[str]) -> None:
        self.running = running
        self.keys = keys
        self.texts: dict[str, str] | None = None

    def text(self, key: str) -> str | None:
        """The text rendered for `key`, waiting for the child the first time; None if it failed."""
        if self.texts is None:
            self.texts = {}
            try:
                found: Any = self.running.result()
            except Exception:  # noqa: BLE001 - a broken budget or a bug: rendered alone again
                found = None
            if isinstance(found, list) and len(found) == len(self.keys):
                self.texts = {k: t for k, t in zip(self.keys, found) if isinstance(t, str)}
        return self.texts.get(key)

    def close(self) -> None:
        """Forget the batch's keys and end its child if nobody asked for its texts."""
        for key in self.keys:
            if PENDING.get(key) is self:
                del PENDING[key]
        self.running.stop()


def waiting(key: str) -> Batch | None:
    return PENDING.get(key)


def add(batch: Batch) -> None:
    for key in batch.keys:
        PENDING[key] = batch
