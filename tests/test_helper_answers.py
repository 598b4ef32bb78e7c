"""A helper's answer is accepted as the kind its caller names (`on_cores(..., kind=...)`), never
read from the job's annotations: a declaration that did not resolve made every deck picture twice
(the helper's answer refused, the work done again here), 9 s for a 1,000-card deck instead of 4.7."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial

import pytest

from printgen.core.parallel import can_fork, on_cores
from printgen.core.problems import Problem
from printgen.core.staging import Staging
from printgen.output import writers


pytestmark = pytest.mark.helpers  # builds here fork helpers, as a user's do (conftest.builds_without_helpers)

@dataclass(frozen=True)
class Made:
    pid: int


def made_where(cells: object) -> list[Made]:
    return [Made(os.getpid())]


def written_where(kept: Staging) -> list[writers.Written]:
    return [writers.Written(kept.keep(str(os.getpid()).encode()), [Problem("f.yaml", 2, "k", "m")]),
            writers.Written(b"\x89PNG", [])]


@pytest.mark.skipif(not can_fork(), reason="helpers need fork")
def test_a_helpers_answer_of_the_kind_named_is_taken_not_made_again():
    results = on_cores([partial(made_where, None), partial(made_where, None)], workers=2, kind=list[Made])
    assert results[0][0].pid != os.getpid(), "the helper's answer was refused"  # the helper's first job


@pytest.mark.skipif(not can_fork(), reason="helpers need fork")
def test_the_writers_answers_come_back_with_their_files_kept_and_their_problems():
    kept = Staging()
    results = on_cores([partial(written_where, kept)] * 2, workers=2, kind=list[writers.Written])
    for n, (on_disk, in_memory) in enumerate(results):
        path, size = on_disk.data
        written = open(path, "rb").read()
        assert size == len(written) and (n > 0 or int(written) != os.getpid())  # the first: the helper's
        assert on_disk.problems == [Problem("f.yaml", 2, "k", "m")]
        assert in_memory == writers.Written(b"\x89PNG", [])
