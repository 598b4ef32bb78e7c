"""`printgen validate` for a deck: every problem and warning its build would meet, with nothing
written. The deck is built in memory as `printgen build --no-pictures` builds it (every card's face
and back drawn on the sheets), so what validate says and what a build refuses cannot drift apart.
An unreadable definition (its YAML, or a key of the wrong kind) exits 2; a deck whose build would be
refused exits 1, with every problem at once."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from printgen.core.build import BuildOptions
from printgen.core.paper import SHEET_PAPERS
from printgen.core.problems import DefinitionError, Problem
from printgen.core.source import SourceMap
from printgen.drawing.document import Document
from printgen.games.verdicts import plural

if TYPE_CHECKING:
    from printgen.games import Loaded

THOROUGH = False
SHOWS = False  # `--show` draws a board; a deck has none (`printgen build` draws its cards)


@dataclass
class Report:
    """What a build of the deck would say: the problems that refuse it, and its warnings."""

    file: str
    title: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # as a build says them: `file:line: warning: ...`
    pages: int = 0  # pages of the deck's PDF, once it builds

    @property
    def valid(self) -> bool:
        return not self.problems

    def result_line(self) -> str:
        verdict = "valid" if self.valid else "NOT valid"
        return (f"Result: {verdict} ({plural(len(self.problems), 'problem')}, "
                f"{plural(len(self.warnings), 'warning')})")

    def as_text(self) -> str:
        lines = [str(p) for p in sorted(self.problems, key=lambda p: (p.file, p.line, p.path))]
        lines += self.warnings
        if self.valid:
            lines.append(f"{self.title}: every card's face and back drawn as `printgen build` draws them; "
                         f"its sheets would be {plural(self.pages, 'page')}. Nothing was written.")
        else:
            lines.append(f"{self.title}: `printgen build` would refuse this deck and write nothing until "
                         "each problem above is fixed.")
        return "\n".join([*lines, self.result_line()])

    def as_json(self) -> str:
        problems = [{"severity": "error", "file": p.file, "line": p.line, "path": p.path, "message": p.message}
                    for p in self.problems]
        problems += [{"severity": "warning", "message": w} for w in self.warnings]
        return json.dumps({"file": self.file, "readable": True, "valid": self.valid, "errors": len(self.problems),
                           "warnings": len(self.warnings), "pages": self.pages, "problems": problems}, indent=2)


def read(path: Path, allow_outside: bool = False) -> tuple[Loaded, SourceMap]:
    """The deck as `build` loads it, its checks left to `check_set`, which reports them."""
    from printgen.core.yamlread import read_yaml
    from printgen.core.validation import shorten
    from printgen.games import load_read

    data, source = read_yaml(path)
    if isinstance(data, dict) and data.get("game") != "deck":
        got = "nothing" if data.get("game") is None else shorten(data.get("game"))
        raise DefinitionError([source.problem(("game",), f"expected game: deck (got {got})")])
    return load_read(path, data, source, allow_outside, checks=False), source


def check_set(loaded: Loaded, source: SourceMap, games: int | None = None, seed: int | None = None,
              progress: Callable[[int], None] | None = None) -> Report:
    """The deck's checks, then (when they pass) its whole build in memory, without pictures."""
    report = Report(source.file, loaded.title)
    report.problems = [source.problem(loc, message) for check in loaded.game.checks
                       for loc, message in check(loaded.definition)]
    if not report.problems:
        try:
            artifacts = loaded.build(BuildOptions(SHEET_PAPERS["a4"], pictures=False))
        except DefinitionError as exc:
            report.problems = list(exc.problems)
        else:
            # the sheets only: the first PDF; a rulebook and a reference card come after it
            report.pages = next((pages_in(a.data) for a in artifacts if a.name.endswith(".pdf")), 0)
    report.warnings = list(dict.fromkeys(loaded.art.warnings))
    return report


def pages_in(pdf: bytes) -> int:
    """How many pages a PDF the build made has (read back with pypdfium2, as a reader: a game never
    calls a writer, so not printgen.output.png.page_count, which does the same)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def show_documents(report: Any, seed: int | None = None) -> list[Document]:
    return []


def simulated_games(defn: Any, games: int | None = None) -> int:
    return 0
