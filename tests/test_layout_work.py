"""Laying out rules costs trials (a page count, a picture that may not fit, columns cut to end
level), and each trial pours the story again. The work a trial repeats is counted here, in calls:
a rules or reference story is read from its Markdown once a build, however many trials and
documents pour it, and a table or picture is built once for each width it is set at, not once for
each trial.
"""
from __future__ import annotations

from collections import Counter

import pytest

from printgen.drawing import markdown, story
from printgen.games.omiga import game as omiga_game
from printgen.games.quick_violence import game as qv_game
from printgen.layout import reference, rulebook


@pytest.fixture
def counted(monkeypatch):
    """Calls of Markdown-to-flowables by template, and builds of each table or picture's content."""
    read: Counter[str] = Counter()
    built: Counter[int] = Counter()
    blocks, at_width = markdown.blocks, story.FitWidth.at_width

    def counting_blocks(text, source, *args, **kwargs):
        read[source] += 1
        return blocks(text, source, *args, **kwargs)

    def counting_at_width(self, width):
        if width not in self.made:
            built[id(self)] += 1
        return at_width(self, width)

    for module in (markdown, omiga_game, qv_game, rulebook, reference):
        monkeypatch.setattr(module, "blocks", counting_blocks, raising=False)
    monkeypatch.setattr(story.FitWidth, "at_width", counting_at_width)
    monkeypatch.setenv("PRINTGEN_NO_SANDBOX_PROCESS", "1")  # the build in this process, where it is counted
    return read, built


@pytest.mark.parametrize("game, rules", [("omiga", "omiga/rules.md.j2"),
                                         ("quick_violence", "quick_violence/rules.md.j2")])
def test_a_rules_story_is_read_once_however_many_trials_pour_it(game, rules, counted, run_cli, tmp_path):
    read, built = counted
    result = run_cli("build", game, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / game / f"{game}.pdf").stat().st_size > 0
    assert read[rules] == 1, read  # Omiga tries its pictures and ends its last columns level; QV grows its pages
    assert set(read.values()) == {1}, read  # the reference too: its sheet and both copies of its card pour one story
    assert built and max(built.values()) <= 2, built  # a table or picture: once a width (a column, a booklet's)
