"""Which problem to fix first: findings ordered cause first, and those that follow from an
unknown name folded under it.

The checks run again with each unknown name replaced by its best known one; whatever goes away
there follows from the unknown name."""
from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Callable, Hashable, Literal

from printgen.games.omiga.checks import Finding
from printgen.games.omiga.model import DECKS, Omiga, Tile

RANK = {"structure": 0, "art": 1, "drawing": 1, "setup": 2, "dead": 3, "balance": 4, "mirror": 5,
        "play": 6, "thorough": 7}
SEARCHED = 6  # unknown names searched fully; more just take the nearest known name
Kind = Literal["colour", "form"]
Name = tuple[Kind, str]
Checks = Callable[[Omiga], list[Finding]]


def cause_first(findings: list[Finding], line_of: Callable[[Finding], tuple[bool, int, str]]) -> list[Finding]:
    """Sorted by check (causes before what rests on them), then by file and line."""
    return sorted(findings, key=lambda f: (RANK.get(f.check, len(RANK)), *line_of(f)))


def unknown_name(defn: Omiga, finding: Finding) -> Name | None:
    """The name an unknown-name finding is about (see checks.structure and checks.fit_table)."""
    topic = finding.topic
    if not topic or topic[0] != "unknown":
        return None
    if topic[1] == "fits":
        form = str(topic[2])
        return ("form", form if len(topic) == 3 else defn.fits[form][int(topic[3])])  # type: ignore[call-overload]
    deck, index, side = str(topic[1]), int(topic[2]), str(topic[3])  # type: ignore[call-overload]
    kind: Kind = "colour" if side in ("left", "right") else "form"
    return (kind, getattr(defn.deck(deck).tiles[index], side))


def renamed(defn: Omiga, kind: Kind, old: str, new: str) -> Omiga:
    """A copy of the definition with every use of `old` (a colour or a form) written `new`."""
    sides = ("left", "right") if kind == "colour" else ("top", "bottom")

    def tile_copy(tile: Tile) -> Tile:
        changes = {s: new for s in sides if getattr(tile, s) == old}
        return tile.model_copy(update=changes) if changes else tile

    decks = defn.decks.model_copy(update={
        d: defn.deck(d).model_copy(update={"tiles": [tile_copy(t) for t in defn.deck(d).tiles]}) for d in DECKS})
    update: dict[str, object] = {"decks": decks}
    if kind == "form":
        update["fits"] = {(new if a == old else a): [new if b == old else b for b in partners]
                          for a, partners in defn.fits.items()}
    return defn.model_copy(update=update)


def keys(findings: list[Finding]) -> set[tuple[Hashable, ...]]:
    return {f.key for f in findings}


def best_repair(defn: Omiga, kind: Kind, name: str, run: Checks, search: bool) -> tuple[str, Omiga]:
    """The known name that, put in place of `name`, leaves the fewest findings."""
    known = list(defn.colours) if kind == "colour" else list(defn.forms)
    nearness = {k: difflib.SequenceMatcher(None, name.lower(), k.lower()).ratio() for k in known}
    ranked = sorted(known, key=lambda k: -nearness[k])
    best = min(ranked, key=lambda k: len(run(renamed(defn, kind, name, k)))) if search else ranked[0]
    return best, renamed(defn, kind, name, best)


def fold(defn: Omiga, findings: list[Finding], run: Checks) -> list[Finding]:
    """The findings with those that follow from an unknown name moved under its first report."""
    causes: dict[Name, Finding] = {}
    for f in findings:
        name = unknown_name(defn, f)
        if name is not None:
            causes.setdefault(name, f)
    if not causes or not (defn.colours and defn.forms):
        return findings
    repaired, fixes = defn, dict[Name, str]()
    for n, (kind, written) in enumerate(causes):
        fixes[(kind, written)], repaired = best_repair(repaired, kind, written, run, n < SEARCHED)
    gone = keys(findings) - keys(run(repaired))
    candidates = [f for f in findings if f.key in gone and unknown_name(defn, f) is None]
    followers: dict[Name, list[Finding]] = {name: [] for name in causes}
    for cause in list(causes)[:SEARCHED]:  # those that go away with this name alone follow from it
        alone = keys(run(renamed(defn, *cause, fixes[cause]))) if len(causes) > 1 else set()
        for f in candidates:
            if f.key not in alone and not any(f in got for got in followers.values()):
                followers[cause].append(f)
    first = next(iter(causes))
    followers[first] += [f for f in candidates if not any(f in got for got in followers.values())]
    folded = {id(f) for got in followers.values() for f in got}
    out = []
    for f in findings:
        if id(f) in folded:
            continue
        unknown = unknown_name(defn, f)
        if unknown is not None and causes[unknown] is f and followers[unknown]:
            f = replace(f, follows=tuple(followers[unknown]), repair=fixes[unknown])
        out.append(f)
    return out

