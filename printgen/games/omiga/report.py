"""What `printgen validate` prints for an Omiga tile set, cause first, as text or JSON
(fields described in docs/homebrew-tile-set.md)."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from printgen.core.problems import Problem, shown
from printgen.core.source import SourceMap
from printgen.games.omiga.causes import RANK, cause_first
from printgen.games.omiga.checks import Finding
from printgen.games.omiga.model import Omiga
from printgen.games.omiga.playcheck import play_lines
from printgen.games.verdicts import Verdicts, plural

INDENT = " " * 18  # continuation lines of a check's summary line up under its text


@dataclass
class Report(Verdicts):
    file: str
    defn: Omiga
    source: SourceMap
    findings: list[Finding] = field(default_factory=list)  # cause first; followers inside each
    sections: dict[str, Any] = field(default_factory=dict)

    @property
    def following(self) -> list[Finding]:
        return [g for f in self.findings for g in f.follows]

    def located(self, finding: Finding) -> Problem:
        if finding.where is not None:  # in a template or an art file, not the definition
            return Problem(finding.where[0], finding.where[1] or 0, "", finding.message)
        return self.source.problem(finding.loc, finding.message)

    def line(self, finding: Finding) -> str:
        where = self.located(finding)
        if finding.where is not None and not finding.where[1]:  # a file-wide note (svglib's own)
            return f"{shown(where.file)}: {shown(where.message)}"
        return str(where)

    def order_key(self, finding: Finding) -> tuple[bool, int, str]:
        if finding.where is not None:
            return (True, finding.where[1] or 0, finding.message)
        return (False, self.source.line_of(finding.loc), finding.message)

    def ordered(self, findings: list[Finding]) -> list[Finding]:
        return cause_first(findings, self.order_key)

    # -- JSON ------------------------------------------------------------------------------------
    def problem_json(self, f: Finding) -> dict[str, Any]:
        where = self.located(f)
        body: dict[str, Any] = {
            "severity": f.severity, "check": f.check, "file": where.file,
            "line": where.line if f.where is None or f.where[1] else None,
            "path": where.path, "message": f.message, "tiles": list(f.tiles)}
        if f.follows or f.repair:
            body["repair"] = f.repair
            body["follows"] = [self.problem_json(g) for g in self.ordered(list(f.follows))]
        return body

    def as_json(self) -> str:
        body = {"file": self.file, "readable": True, "valid": self.valid, "errors": len(self.errors),
                "warnings": len(self.warnings), "following": len(self.following),
                "problems": [self.problem_json(f) for f in self.ordered(self.findings)], **self.sections}
        return json.dumps(body, indent=2, sort_keys=False)

    # -- text ------------------------------------------------------------------------------------
    def as_text(self) -> str:
        d = self.defn
        lines = [f"{d.title} tile set {self.file}: {len(d.decks.white.tiles)} white and "
                 f"{len(d.decks.black.tiles)} black tiles"]
        every = self.findings + self.following
        for check, summary in self.summaries():
            mark = ("skip" if check in self.skipped() else
                    "FAIL" if any(f.check == check and f.severity == "error" for f in every) else
                    "warn" if any(f.check == check for f in every) else "ok")
            first, *more = summary
            lines.append(f"  {check:<9} {mark:<4}  {first}")
            lines += [INDENT + text for text in more]
        for title, group in (("Problems", self.errors), ("Warnings", self.warnings)):
            if group:
                lines.append(f"{title}:")
                for f in self.ordered(group):
                    lines.append(f"  {self.line(f)}")
                    if f.follows:
                        lines.append(f"    {self.folded(f)}")
        then = f", and {len(self.following)} that follow from them" if self.following else ""
        lines.append(self.result_line(then))
        return "\n".join(lines)

    def folded(self, cause: Finding) -> str:
        """'and 5 problems that follow from it (...)': what fixing `cause` would clear too."""
        n = len(cause.follows)
        by_check = Counter(f.check + (" warning" if f.severity == "warning" else "") for f in cause.follows)
        parts = ", ".join(f"{k} {v}" if v > 1 else k
                          for k, v in sorted(by_check.items(), key=lambda kv: RANK.get(kv[0].split()[0], 99)))
        follow = "follows" if n == 1 else "follow"
        return (f"and {plural(n, 'problem')} that {follow} from it ({parts}); with '{cause.repair}' in "
                f"its place {'it goes' if n == 1 else 'they go'} away (--json lists them)")

    def skipped(self) -> set[str]:
        """Checks that did not run (their section says why)."""
        return {name for name, body in self.sections.items() if isinstance(body, dict) and
                False in (body.get("drawn"), body.get("simulated"), body.get("searched"))}

    def summaries(self) -> list[tuple[str, list[str]]]:
        s = self.sections
        out = [("structure", ["names, fit table, deck sizes and duplicates checked"])]
        if "drawing" in s:
            out.append(("drawing", [s["drawing"]["reason"] if not s["drawing"]["drawn"] else
                                    f"the tiles drawn as build draws them ({s['drawing']['template']}): "
                                    "semicircles on their edge midpoints with one radius, forms that fit"]))
        if "setup" in s:
            st = s["setup"]
            out.append(("setup", [f"each white opening has {st['fewest_answers']} to {st['most_answers']} "
                                  f"black tiles that fit above it"]))
        if "dead" in s:
            fewest = s["dead"]["fewest_neighbours_per_side"]
            out.append(("dead", ["fewest tiles that can touch a side, as written: " +
                                 ", ".join(f"{side} {n}" for side, n in fewest.items())]))
        if "balance" in s:
            out.append(("balance", [f"{deck}: " + ", ".join(
                f"{side} " + "/".join(f"{k} {v}" for k, v in counts.items())
                for side, counts in sides.items()) for deck, sides in s["balance"].items()]))
        if "mirror" in s:
            out.append(("mirror", ["both players hold the same tiles from their own seats"
                                   if s["mirror"]["mirrored"] else "the decks differ (see below)"]))
        if "play" in s:
            out.append(("play", play_lines(s["play"])))
        if "thorough" in s:
            out.append(("thorough", [s["thorough"]["summary"]]))
        return out

