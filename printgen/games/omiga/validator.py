"""`printgen validate`: every check of an Omiga tile set, gathered into one report.

Reading: a file that is not YAML, not an Omiga definition, or breaks the schema cannot be checked
at all (exit 2). Everything after that is a finding, and all findings are reported together:
structure, set-up feasibility, dead tiles and sides, balance, mirror, and seeded play against the
thresholds in the definition. Errors make the set invalid (exit 1); warnings are only shown.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from printgen.art.library import ArtContext
from printgen.core.source import SourceMap
from printgen.drawing.document import Document
from printgen.core.validation import shorten, validate
from printgen.core.yamlread import read_yaml
from printgen.core.problems import DefinitionError, Problem
from printgen.games.omiga.checks import Finding, balance, dead, mirror, names_list, setup, structure
from printgen.games.omiga.model import Omiga, Severity, check_geometry, check_palettes
from printgen.games.omiga.tileset import Compiled, compile_set
from printgen.games.omiga.simulation import OUTCOMES, Tally, simulate

TOP_TILES = 6  # tiles named when a play threshold fails


def read(path: Path, allow_outside: bool = False) -> tuple[Omiga, SourceMap]:
    """The definition as a model, or a DefinitionError saying why it cannot be read. Its art files
    and template folder are found and read as `build` reads them, with the same messages."""
    data, source = read_yaml(path)
    if not isinstance(data, dict):
        raise DefinitionError([Problem(source.file, 1, "", f"expected a mapping of keys at the top "
                                       f"level (got {shorten(data)})")])
    if data.get("game") != "omiga":
        got = "nothing" if data.get("game") is None else shorten(data.get("game"))
        raise DefinitionError([source.problem(("game",), f"printgen validate checks tile sets, so "
                                              f"expected game: omiga (got {got})")])
    art = ArtContext(path.parent, allow_outside)
    return validate(Omiga, data, source, context={"art": art}), source


@dataclass
class Report:
    file: str
    defn: Omiga
    source: SourceMap
    findings: list[Finding] = field(default_factory=list)
    sections: dict[str, Any] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def valid(self) -> bool:
        return not self.errors

    def located(self, finding: Finding) -> Problem:
        if finding.where is not None:  # in a template, not the definition
            return Problem(finding.where[0], finding.where[1], "", finding.message)
        return self.source.problem(finding.loc, finding.message)

    def as_json(self) -> str:
        problems = []
        for f in self.findings:
            where = self.located(f)
            problems.append({"severity": f.severity, "check": f.check, "file": where.file,
                             "line": where.line, "path": where.path, "message": f.message,
                             "tiles": list(f.tiles)})
        body = {"file": self.file, "readable": True, "valid": self.valid, "errors": len(self.errors),
                "warnings": len(self.warnings), "problems": problems, **self.sections}
        return json.dumps(body, indent=2, sort_keys=False)

    def as_text(self) -> str:
        d = self.defn
        lines = [f"{d.title} tile set {self.file}: {len(d.decks.white.tiles)} white and "
                 f"{len(d.decks.black.tiles)} black tiles"]
        for check, summary in self.summaries():
            mark = "FAIL" if any(f.check == check and f.severity == "error" for f in self.findings) else (
                "warn" if any(f.check == check for f in self.findings) else "ok")
            lines.append(f"  {check:<9} {mark:<4}  {summary}")
        for title, group in (("Problems", self.errors), ("Warnings", self.warnings)):
            if group:
                lines.append(f"{title}:")
                lines += [f"  {self.located(f)}" for f in sorted(group, key=self.order)]
        verdict = "valid" if self.valid else "NOT valid"
        lines.append(f"Result: {verdict} ({len(self.errors)} problem{'s' * (len(self.errors) != 1)}, "
                     f"{len(self.warnings)} warning{'s' * (len(self.warnings) != 1)})")
        return "\n".join(lines)

    def order(self, finding: Finding) -> tuple[bool, int, str]:
        if finding.where is not None:
            return (True, finding.where[1], finding.message)
        return (False, self.source.line_of(finding.loc), finding.message)

    def summaries(self) -> list[tuple[str, str]]:
        s = self.sections
        out = [("structure", "names, fit table, deck sizes and duplicates checked")]
        if "drawing" in s:
            out.append(("drawing", f"the tile face template ({s['drawing']['template']}) checked: "
                                   "semicircles on their edge midpoints with one radius, forms that fit"))
        if "setup" in s:
            st = s["setup"]
            out.append(("setup", f"each white opening has {st['fewest_answers']} to {st['most_answers']} "
                                 f"black tiles that fit above it"))
        if "dead" in s:
            fewest = s["dead"]["fewest_neighbours_per_side"]
            out.append(("dead", "fewest tiles that can touch a side: " +
                        ", ".join(f"{side} {n}" for side, n in fewest.items())))
        if "balance" in s:
            out.append(("balance", "; ".join(f"{deck}: " + ", ".join(
                f"{side} " + "/".join(f"{k} {v}" for k, v in counts.items())
                for side, counts in sides.items()) for deck, sides in s["balance"].items())))
        if "mirror" in s:
            out.append(("mirror", "both players hold the same tiles from their own seats"
                        if s["mirror"]["mirrored"] else "the decks differ (see below)"))
        if "play" in s:
            out.append(("play", play_summary(s["play"])))
        return out


def pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def play_summary(p: dict[str, Any]) -> str:
    w, b = p["white"], p["black"]
    return (f"{p['games']} games (seed {p['seed']}, table {p['table']}): white wins {pct(w['wins'])} "
            f"(behind {pct(w['behind'])}, far edge {pct(w['edge'])}), black wins {pct(b['wins'])} "
            f"(behind {pct(b['behind'])}, far edge {pct(b['edge'])}), draws {pct(p['draw_rate'])}, "
            f"stalls {pct(p['stall_rate'])}; {p['mean_placements']:.1f} placements a game; "
            f"{pct(p['no_legal_rate'])} of looks at a hand found nothing to place")


def play_section(defn: Omiga, cs: Compiled, tally: Tally, seed: int) -> tuple[list[Finding], dict[str, Any]]:
    n = max(tally.games, 1)
    o = dict(zip(OUTCOMES, tally.outcomes))
    rate = {k: v / n for k, v in o.items()}
    stats: dict[str, Any] = {
        "games": tally.games, "seed": seed,
        "table": f"{defn.validation.table.columns} x {defn.validation.table.rows}",
        "white": {"wins": rate["white_behind"] + rate["white_edge"], "behind": rate["white_behind"],
                  "edge": rate["white_edge"]},
        "black": {"wins": rate["black_behind"] + rate["black_edge"], "behind": rate["black_behind"],
                  "edge": rate["black_edge"]},
        "draw_rate": rate["draw_edges"] + rate["draw_out"],
        "draws": {"both_side_edges": o["draw_edges"], "out_of_tiles": o["draw_out"]},
        "stall_rate": rate["stall"] + rate["no_start"],
        "stalls": {"frozen": o["stall"], "no_opening": o["no_start"]},
        "mean_placements": tally.placements / n,
        "no_legal_rate": tally.no_legal / max(tally.looks, 1),
        "no_legal_hands_per_game": tally.no_legal / n,
        "outcomes": o,
    }
    ranked = sorted(((count, cs.names[d][i]) for d in (0, 1) for i, count in enumerate(tally.dead_hands[d])),
                    key=lambda x: (-x[0], x[1]))
    stuck = [name for count, name in ranked[:TOP_TILES] if count > 0]
    stats["tiles_most_often_in_a_dead_hand"] = stuck
    stats = {k: round(v, 4) if isinstance(v, float) else v for k, v in stats.items()}
    for side in ("white", "black"):
        stats[side] = {k: round(v, 4) for k, v in stats[side].items()}
    t = defn.validation.thresholds
    found = []

    def over(key: str, value: float, limit: float, what: str, tiles: Sequence[str] = (), below: bool = False) -> None:
        if (value < limit) if below else (value > limit):
            named = f"; tiles most often stuck in a hand: {names_list(tiles)}" if tiles else ""
            found.append(Finding("play", "error", ("validation", "thresholds", key),
                                 f"{what} ({key} is {limit:g}){named}", tuple(tiles)))

    gap = round(abs(stats["white"]["wins"] - stats["black"]["wins"]), 6)  # 0.55 - 0.45 is not above 0.1
    over("max_win_gap", gap, t.max_win_gap, f"white wins {pct(stats['white']['wins'])} of games and "
         f"black {pct(stats['black']['wins'])}, a gap of {pct(gap)}")
    over("max_draw_rate", stats["draw_rate"], t.max_draw_rate, f"{pct(stats['draw_rate'])} of games are drawn")
    over("max_stall_rate", stats["stall_rate"], t.max_stall_rate,
         f"{pct(stats['stall_rate'])} of games stall: neither player can ever place again", stuck)
    over("max_no_legal_rate", stats["no_legal_rate"], t.max_no_legal_rate,
         f"{pct(stats['no_legal_rate'])} of looks at a hand find nothing to place", stuck)
    over("min_mean_placements", stats["mean_placements"], t.min_mean_placements,
         f"games last only {stats['mean_placements']:.1f} placements on average", below=True)
    return found, stats


def check_set(defn: Omiga, source: SourceMap, games: int | None = None, seed: int | None = None,
              progress: Callable[[int], None] | None = None, workers: int | None = None) -> Report:
    """Run every check; the play check is skipped only when no game could be simulated."""
    report = Report(source.file, defn, source)
    model = [Finding("structure", "error", loc, msg)
             for check in (check_palettes, check_geometry) for loc, msg in check(defn)]
    report.findings += model + structure(defn)
    if not any(f.severity == "error" for f in report.findings):  # the tiles can be drawn
        found, stats = drawing(defn)
        report.findings += found
        report.sections["drawing"] = stats
    cs = compile_set(defn)
    for name, check in (("setup", setup), ("dead", dead), ("balance", balance), ("mirror", mirror)):
        found, stats = check(defn, cs)
        report.findings += found
        report.sections[name] = stats
    v = defn.validation
    games = v.games if games is None else games
    seed = v.seed if seed is None else seed
    tally = simulate(cs, v.table.columns, v.table.rows, games, seed, progress, workers)
    found, stats = play_section(defn, cs, tally, seed)
    report.findings += found
    report.sections["play"] = stats
    return report


def drawing(defn: Omiga) -> tuple[list[Finding], dict[str, Any]]:
    """What the tile face template draws, measured against the geometry (omiga.drawn); a template
    that cannot be drawn at all is an error, as it would stop `build`."""
    from printgen.art.library import template_folders
    from printgen.games.omiga.drawn import drawn_problems
    from printgen.games.omiga.tile import FACE_TEMPLATE, tile_art

    art = tile_art(defn, template_folders(defn.templates))
    severity: Severity = "warning"
    try:
        file, _ = art.templates.where(FACE_TEMPLATE)
        problems = drawn_problems(defn, art)
    except DefinitionError as exc:
        file, problems, severity = FACE_TEMPLATE, exc.problems, "error"
    found = [Finding("drawing", severity, (), p.message, where=(p.file, p.line)) for p in problems]
    return found, {"template": file}


def simulated_games(defn: Omiga, games: int | None = None) -> int:
    """How many games `check_set` plays, told `games` or not (for a progress bar)."""
    return defn.validation.games if games is None else games


def show_documents(report: Report, seed: int | None = None, game: int = 0) -> list[Document]:
    """board.svg and board.png: game `game` of the seeded run (nothing if the tiles cannot be drawn)."""
    from printgen.games.omiga.board import board_documents
    from printgen.games.omiga.simulation import replay

    if any(f.check == "structure" and f.severity == "error" for f in report.findings):
        return []
    defn = report.defn
    seed = defn.validation.seed if seed is None else seed
    record = replay(compile_set(defn), defn.validation.table.columns, defn.validation.table.rows, seed, game)
    return board_documents(defn, record, seed, game, "board")
