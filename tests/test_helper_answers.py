"""A helper's answer is accepted as the kinds its job declares, even when a parameter's type is
imported for type checking only: a declaration that did not resolve made every deck picture twice
(the helper's answer refused, the work done again here), 9 s for a 1,000-card deck instead of 4.7."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pytest

from printgen.core.parallel import can_fork, declared_kinds, on_cores
from printgen.output import writers

if TYPE_CHECKING:
    from printgen.output.cellpages import Cells  # noqa: F401 - what the job's parameter names


@dataclass(frozen=True)
class Made:
    pid: int


def made_where(cells: Cells | None) -> list[Made]:
    return [Made(os.getpid())]


def test_the_writers_runs_declare_what_they_send_back():
    assert declared_kinds([partial(writers.run_written, [], set(), None, None, None)]) == (writers.Written,)


@pytest.mark.skipif(not can_fork(), reason="helpers need fork")
def test_a_job_whose_parameter_type_is_only_for_type_checking_is_answered_by_its_helper():
    assert declared_kinds([partial(made_where, None)]) == (Made,)
    results = on_cores([partial(made_where, None), partial(made_where, None)], workers=2)
    assert all(result[0].pid != os.getpid() for result in results), "the helpers' answers were refused"
