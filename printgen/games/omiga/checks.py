"""Static checks of an Omiga tile set: structure, set-up feasibility, dead tiles and sides.

Each check returns every finding, naming the tiles and key path; neighbour counts use buckets so
a check costs tiles x forms rather than tiles x tiles."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Hashable, Iterable

from printgen.core.source import Loc
from printgen.games.omiga.model import DECKS, Omiga, Severity, tile_name
from printgen.games.omiga.tileset import Compiled, interlock

SIDES = ("left", "right", "top", "bottom")
TURNED = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}  # black's, on the table


@dataclass(frozen=True)
class Finding:
    check: str  # structure, art, drawing, setup, dead, balance, mirror, play, thorough
    severity: Severity
    loc: Loc
    message: str
    tiles: tuple[str, ...] = ()
    where: tuple[str, int | None] | None = None  # a file and line other than the definition's (a template)
    topic: tuple[Hashable, ...] = ()  # what the finding is about, the same however its figures change
    follows: tuple["Finding", ...] = ()  # findings that go away once this one is fixed (see causes)
    repair: str | None = None  # for an unknown name: the known name that makes `follows` go away

    @property
    def key(self) -> tuple[Hashable, ...]:
        """The same finding in another run of the checks (on a repaired copy of the set)."""
        return (self.check, *self.topic) if self.topic else (self.check, self.loc, self.message)


def names_list(tiles: Iterable[str], limit: int = 8) -> str:
    tiles = list(tiles)
    shown = ", ".join(tiles[:limit])
    return shown + (f" and {len(tiles) - limit} more" if len(tiles) > limit else "")


# -- structure ---------------------------------------------------------------------------------
def structure(defn: Omiga) -> list[Finding]:
    found: list[Finding] = []
    colours, forms = set(defn.colours), set(defn.forms)
    for deck, i, tile in defn.tiles():
        name = tile_name(deck, i)
        for side in SIDES:
            value = getattr(tile, side)
            known, kind = (colours, "colour") if side in ("left", "right") else (forms, "form")
            if value not in known:
                found.append(Finding("structure", "error", ("decks", deck, "tiles", i, side),
                                     f"{name} has an unknown {kind} '{value}' on its {side} "
                                     f"(expected one of: {', '.join(sorted(known))})", (name,),
                                     topic=("unknown", deck, i, side)))
    found += fit_table(defn)
    found += deck_sizes(defn)
    for deck in DECKS:
        d = defn.deck(deck)
        first: dict[tuple[str, ...], int] = {}
        for i, tile in enumerate(d.tiles):
            sig = tile.signature()
            if sig in first:
                a, b = tile_name(deck, first[sig]), tile_name(deck, i)
                found.append(Finding("structure", defn.validation.duplicates, ("decks", deck, "tiles", i),
                                     f"{b} is the same tile as {a} ({tile.describe()})", (a, b),
                                     topic=("duplicate", deck, i)))
            first.setdefault(sig, i)
    return found + unused(defn)


def deck_sizes(defn: Omiga) -> list[Finding]:
    """Each deck holds its declared size, the same for both, so neither player runs out first."""
    found = []
    for deck in DECKS:
        d = defn.deck(deck)
        if len(d.tiles) != d.size:
            found.append(Finding("structure", "error", ("decks", deck, "size"),
                                 f"the {deck} deck declares {d.size} tiles but lists {len(d.tiles)}",
                                 topic=("size", deck)))
    white, black = defn.decks.white.size, defn.decks.black.size
    if white != black:
        found.append(Finding("structure", defn.validation.unequal_decks, ("decks", "black", "size"),
                             f"the decks differ in size: white has {white} tiles and black {black}; "
                             f"both players start with as many tiles, so make them equal (or set "
                             f"validation.unequal_decks: warning if you mean it)", topic=("unequal",)))
    return found


def unused(defn: Omiga) -> list[Finding]:
    """Colours and forms no tile uses, warned once each and left out of every balance figure."""
    used = {getattr(t, side) for _, _, t in defn.tiles() for side in SIDES}
    found = []
    for i, colour in enumerate(defn.colours):
        if colour not in used and colour not in defn.colours[:i]:
            found.append(Finding("structure", "warning", ("colours", i),
                                 f"no tile uses the colour '{colour}'; the balance checks leave it out",
                                 topic=("unused", "colour", colour)))
    for form in defn.forms:
        if form not in used:
            found.append(Finding("structure", "warning", ("forms", form),
                                 f"no tile uses the form '{form}'; the balance checks leave it out",
                                 topic=("unused", "form", form)))
    return found


def fit_table(defn: Omiga) -> list[Finding]:
    """Known names, symmetry, and agreement with the shapes as drawn."""
    found: list[Finding] = []
    forms = defn.forms
    partners_of = {form: set(partners) for form, partners in defn.fits.items()}  # one lookup each
    for form, partners in defn.fits.items():
        if form not in forms:
            found.append(Finding("structure", "error", ("fits", form),
                                 f"unknown form '{form}' (expected one of: {', '.join(forms)})",
                                 topic=("unknown", "fits", form)))
        for j, partner in enumerate(partners):
            loc = ("fits", form, j)
            if partner not in forms:
                found.append(Finding("structure", "error", loc, f"unknown form '{partner}' "
                                     f"(expected one of: {', '.join(forms)})",
                                     topic=("unknown", "fits", form, j)))
            elif form in forms and form not in partners_of.get(partner, ()):
                found.append(Finding("structure", "error", loc,
                                     f"the fit table is not symmetric: {form} fits {partner}, but "
                                     f"fits.{partner} does not list {form}"))
    for a in forms:
        for b in forms:
            said = b in partners_of.get(a, ())
            if said != (a in partners_of.get(b, ())) or (a > b):
                continue  # asymmetry is reported above; each pair once
            drawn = interlock(forms[a], forms[b])
            if said and not drawn:
                found.append(Finding("structure", "error", ("fits", a),
                                     f"says {a} fits {b}, but the printed shapes do not interlock "
                                     f"(a tip meets a notch, a diagonal the same diagonal)"))
            elif drawn and not said:
                what = (f"{a} interlocks with itself when printed" if a == b else
                        f"{a} and {b} interlock when printed")
                found.append(Finding("structure", "error", ("fits", a) if a in defn.fits else ("fits",),
                                     f"{what}, but the fit table does not let them meet; add {b} "
                                     f"to fits.{a}"))
    return found


# -- set-up ------------------------------------------------------------------------------------
def buckets(tiles: Iterable[tuple[int, int, int, int]]) -> dict[str, Counter[int]]:
    """How many tiles of one deck (as they lie on the table) show each colour or form per side."""
    tiles = list(tiles)
    return {side: Counter(edges[k] for edges in tiles) for k, side in enumerate(SIDES)}


def setup(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    """For each opening white tile, count black tiles that fit above it (black's tiles turned)."""
    black_bottoms = buckets(cs.table[1])["bottom"]  # a black tile's table bottom is its own top
    found: list[Finding] = []
    answers = []
    for i, (_, _, top, _) in enumerate(cs.table[0]):
        count = sum(black_bottoms[f] for f in cs.fit_up[top])
        answers.append(count)
        if count == 0:
            wanted = ", ".join(cs.forms[f] for f in sorted(cs.fit_up[top])) or "nothing"
            found.append(Finding("setup", "error", ("decks", "white", "tiles", i, "top"),
                                 f"if white opens with {cs.describe(0, i)}, black can never answer: "
                                 f"black's tile lies turned, so its own top edge meets white's "
                                 f"{cs.forms[top]}, and no black tile has a top that fits it "
                                 f"({wanted})", (cs.names[0][i],), topic=("setup", i)))
    stats = {"fewest_answers": min(answers), "most_answers": max(answers),
             "openings_without_answer": sum(1 for a in answers if a == 0),
             "answers": dict(zip(cs.names[0], answers))}
    return found, stats


# -- dead tiles and sides ----------------------------------------------------------------------
def neighbour_counts(cs: Compiled) -> list[list[dict[str, tuple[int, int]]]]:
    """[deck][tile][side] = (own-deck, opponent) tiles that can sit across that side, as written."""
    counted = [buckets(cs.table[0]), buckets(cs.table[1])]
    fit_down = [frozenset(a for a, ups in enumerate(cs.fit_up) if b in ups) for b in range(len(cs.forms))]
    result = []
    for deck in (0, 1):
        rows = []
        for edges in cs.table[deck]:
            left, right, top, bottom = edges
            counts = {}
            beside, stacked = left == right, cs.fits(top, bottom)  # would it fit a copy of itself there
            for side, fn, itself in (("left", lambda b: b["right"][left], beside),
                                     ("right", lambda b: b["left"][right], beside),
                                     ("top", lambda b: sum(b["bottom"][f] for f in cs.fit_up[top]), stacked),
                                     ("bottom", lambda b: sum(b["top"][f] for f in fit_down[bottom]), stacked)):
                # a tile cannot touch itself, so a copy of it is no neighbour
                counts[side if deck == 0 else TURNED[side]] = (fn(counted[deck]) - itself, fn(counted[1 - deck]))
            rows.append({side: counts[side] for side in SIDES})
        result.append(rows)
    return result


def dead(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    counts = neighbour_counts(cs)
    found: list[Finding] = []
    fewest: dict[str, int] = {}
    for deck in (0, 1):
        name = DECKS[deck]
        for i, sides in enumerate(counts[deck]):
            tile = cs.names[deck][i]
            loc = ("decks", name, "tiles", i)
            if all(own == 0 for own, _ in sides.values()):
                found.append(Finding("dead", "error", loc,
                                     f"{cs.describe(deck, i)} can never be placed: no other {name} "
                                     f"tile fits any of its four sides, and a tile must touch one "
                                     f"of its owner's tiles edge to edge", (tile,), topic=("tile", deck, i)))
            for side, (own, other) in sides.items():
                fewest[side] = min(fewest.get(side, own + other), own + other)
                if own + other == 0:  # black's: say where the edge lies on the table too
                    turned = f", its {TURNED[side]} as it lies on the table (turned 180 degrees)" if deck else ""
                    found.append(Finding("dead", defn.validation.dead_sides, (*loc, side),
                                         f"nothing can ever touch the {side} of {cs.describe(deck, i)}"
                                         f"{turned}: no tile of either deck fits there", (tile,),
                                         topic=("side", deck, i, side)))
    stats = {"fewest_neighbours_per_side": fewest,
             "tiles": {cs.names[d][i]: {s: {"own": o, "opponent": t} for s, (o, t) in sides.items()}
                       for d in (0, 1) for i, sides in enumerate(counts[d])}}
    return found, stats


def structure_errors(defn: Omiga) -> Iterable[tuple[Loc, str]]:
    """For `printgen build`: a set with structure errors is refused, with every reason."""
    for finding in structure(defn):
        if finding.severity == "error":
            yield finding.loc, finding.message
