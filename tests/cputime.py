"""CPU seconds spent by this process and the children it waited for: the budget a test holds a
piece of work to, which a busy machine does not stretch as it stretches the wall clock."""
from __future__ import annotations

import resource
from contextlib import contextmanager
from typing import Iterator


def spent() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class Spent:
    seconds = 0.0


@contextmanager
def cpu_seconds() -> Iterator[Spent]:
    """`with cpu_seconds() as took: ...` then `took.seconds`: the CPU time of the block, its forked
    workers included once they have been waited for."""
    took = Spent()
    before = spent()
    try:
        yield took
    finally:
        took.seconds = spent() - before
