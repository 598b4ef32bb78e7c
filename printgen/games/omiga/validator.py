"""`printgen validate`: every check of an Omiga tile set, gathered into one report.

An unreadable definition exits 2; all findings are reported together, cause first, and the play
check waits for a sound structure. Errors make the set invalid (exit 1)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from printgen.core.bundled import templates_folder
from printgen.core.problems import DefinitionError
from printgen.core.source import SourceMap
from printgen.drawing.document import Document
from printgen.games.omiga.balance import balance, mirror
from printgen.games.omiga.causes import fold
from printgen.games.omiga.checks import Finding, dead, setup, structure
from printgen.games.omiga.model import DECKS, Omiga, Severity, check_geometry, check_palettes, lightness_warnings
from printgen.games.omiga.playcheck import play_section
from printgen.games.omiga.report import Report
from printgen.games.omiga.simulation import simulate
from printgen.games.omiga.tileset import compile_set

THOROUGH = True  # `validate --thorough` searches every set-up and first move (omiga.exhaustive)
WARNING_LINE = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+))?: warning: (?P<message>.*)$", re.S)

def read(path: Path, allow_outside: bool = False) -> tuple[Omiga, SourceMap]:
    """The definition as `build` loads it, without the checks, which the report gives."""
    from printgen.games import read_as

    return read_as(path, "omiga", "printgen validate checks tile sets", allow_outside)


def static_checks(defn: Omiga) -> tuple[list[Finding], dict[str, Any]]:
    """Everything but the drawing and the play: quick, so `causes.fold` runs it again on repairs."""
    found = [Finding("structure", "error", loc, msg) for check in (check_palettes, check_geometry)
             for loc, msg in check(defn)]
    found += [Finding("structure", "warning", loc, msg) for loc, msg in lightness_warnings(defn)]
    found += structure(defn)
    cs = compile_set(defn)
    sections: dict[str, Any] = {}
    for name, check in (("setup", setup), ("dead", dead), ("balance", balance), ("mirror", mirror)):
        more, stats = check(defn, cs)
        found += more
        sections[name] = stats
    return found, sections


def check_set(defn: Omiga, source: SourceMap, games: int | None = None, seed: int | None = None,
              progress: Callable[[int], None] | None = None, workers: int | None = None,
              thorough: bool = False) -> Report:
    """Every check; play only on a sound structure, the exhaustive search only when `thorough`."""
    report = Report(source.file, defn, source)
    found, sections = static_checks(defn)
    structural = any(f.check == "structure" and f.severity == "error" for f in found)
    if structural:  # the tiles cannot be drawn as written
        sections["drawing"] = {"drawn": False, "reason": "not drawn: the structure problems come first"}
    else:
        more, sections["drawing"] = drawing(defn)
        found += more
    found += art_findings(defn)
    v = defn.validation
    seed = v.seed if seed is None else seed
    if structural:
        sections["play"] = {"simulated": False, "reason": "not simulated: the structure problems come first"}
    else:
        cs = compile_set(defn)
        tally = simulate(cs, v.table.columns, v.table.rows, v.games if games is None else games, seed,
                         progress, workers)
        more, sections["play"] = play_section(defn, cs, tally, seed)
        found += more
    if thorough:
        from printgen.games.omiga.exhaustive import thorough_check

        more, sections["thorough"] = thorough_check(defn, compile_set(defn), sections["dead"],
                                                    sections["setup"], structural)
        found += more
    report.findings = fold(defn, found, lambda d: static_checks(d)[0])
    order = ("drawing", "setup", "dead", "balance", "mirror", "play", "thorough")
    report.sections = {name: sections[name] for name in order if name in sections}
    return report


def drawing(defn: Omiga) -> tuple[list[Finding], dict[str, Any]]:
    """The tiles drawn as `build` draws them and measured; an undrawable template is an error."""
    from printgen.art.library import template_folders
    from printgen.games.omiga.drawn import drawn_problems
    from printgen.games.omiga.tile import FACE_TEMPLATE, tile_art

    art = tile_art(defn, template_folders(defn.templates))
    severity: Severity = "warning"
    try:
        path, _ = art.templates.source(FACE_TEMPLATE)
        bundled = Path(path).resolve().is_relative_to(templates_folder().resolve())
        file = f"printgen's own {FACE_TEMPLATE}" if bundled else art.templates.where(FACE_TEMPLATE)[0]
        art.prepare([defn.card.bleed, 0.0])
        problems = drawn_problems(defn, art)
        noticed = list(art.templates.warnings)
    except DefinitionError as exc:
        file, problems, severity, noticed = FACE_TEMPLATE, exc.problems, "error", []
    found = [Finding("drawing", severity, (), p.message, where=(p.file, p.line)) for p in problems]
    found += [warning_finding("drawing", w) for w in noticed]
    return found, {"drawn": True, "template": file}


def art_findings(defn: Omiga) -> list[Finding]:
    """What loading the deck backs noticed (SVG features that will not print), as `build` says it."""
    from printgen.art.library import art_of

    lines: list[str] = []
    for deck in DECKS:
        art = art_of(getattr(defn.art, f"{deck}_back"))
        if art is not None and art.kind == "SVG":
            lines += [w for w in art.warnings if w not in lines]
    return [warning_finding("drawing", w) for w in lines]


def warning_finding(check: str, line: str) -> Finding:
    """A `file:line: warning: message` line as `build` prints it, as a finding at that file."""
    match = WARNING_LINE.match(line)
    if match is None:
        return Finding(check, "warning", (), line)
    number = match["line"]
    return Finding(check, "warning", (), match["message"],
                   where=(match["file"], int(number) if number else None))


def simulated_games(defn: Omiga, games: int | None = None) -> int:
    """How many games `check_set` plays, for a progress bar."""
    return defn.validation.games if games is None else games


def show_documents(report: Report, seed: int | None = None) -> list[Document]:
    """board.svg and board.png: the first game of the seeded run (nothing if the tiles cannot be drawn)."""
    from printgen.games.omiga.board import board_documents
    from printgen.games.omiga.simulation import replay

    every = report.findings + report.following
    if any(f.check == "structure" and f.severity == "error" for f in every):
        return []
    defn = report.defn
    seed = defn.validation.seed if seed is None else seed
    record = replay(compile_set(defn), defn.validation.table.columns, defn.validation.table.rows, seed, 0)
    return board_documents(defn, record, seed, 0)
