"""Static checks of an Omiga tile set: structure, set-up feasibility, dead tiles and sides, balance.

Each check returns every finding it has (never just the first), each naming the tiles involved and
the key path to edit. Neighbour counts use buckets keyed by edge colour or form, so a check costs
tiles x forms rather than tiles x tiles.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from printgen.core.source import Loc
from printgen.games.omiga.model import DECKS, Omiga, Severity, tile_name
from printgen.games.omiga.tileset import Compiled, interlock

SIDES = ("left", "right", "top", "bottom")


@dataclass(frozen=True)
class Finding:
    check: str  # structure, setup, dead, balance, mirror, play, drawing
    severity: Severity
    loc: Loc
    message: str
    tiles: tuple[str, ...] = ()
    where: tuple[str, int] | None = None  # a file and line other than the definition's (a template)


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
                                     f"(expected one of: {', '.join(sorted(known))})", (name,)))
    found += fit_table(defn)
    for deck in DECKS:
        d = defn.deck(deck)
        if len(d.tiles) != d.size:
            found.append(Finding("structure", "error", ("decks", deck, "size"),
                                 f"the {deck} deck declares {d.size} tiles but lists {len(d.tiles)}"))
        first: dict[tuple[str, ...], int] = {}
        for i, tile in enumerate(d.tiles):
            sig = tile.signature()
            if sig in first:
                a, b = tile_name(deck, first[sig]), tile_name(deck, i)
                found.append(Finding("structure", defn.validation.duplicates, ("decks", deck, "tiles", i),
                                     f"{b} is the same tile as {a} ({tile.describe()})", (a, b)))
            first.setdefault(sig, i)
    return found


def fit_table(defn: Omiga) -> list[Finding]:
    """Known names, symmetry, and agreement with the shapes as drawn."""
    found: list[Finding] = []
    forms = defn.forms
    partners_of = {form: set(partners) for form, partners in defn.fits.items()}  # one lookup each
    for form, partners in defn.fits.items():
        if form not in forms:
            found.append(Finding("structure", "error", ("fits", form),
                                 f"unknown form '{form}' (expected one of: {', '.join(forms)})"))
        for j, partner in enumerate(partners):
            loc = ("fits", form, j)
            if partner not in forms:
                found.append(Finding("structure", "error", loc, f"unknown form '{partner}' "
                                     f"(expected one of: {', '.join(forms)})"))
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
@dataclass
class Buckets:
    """How many tiles of one deck (as they lie on the table) show each colour or form per side."""

    left: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)
    top: Counter = field(default_factory=Counter)
    bottom: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, tiles: Iterable[tuple[int, int, int, int]]) -> "Buckets":
        b = cls()
        for left, right, top, bottom in tiles:
            b.left[left] += 1
            b.right[right] += 1
            b.top[top] += 1
            b.bottom[bottom] += 1
        return b


def setup(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    """For each opening white tile, count black tiles that fit above it (black's tiles turned)."""
    black_bottoms = Buckets.of(cs.table[1]).bottom  # a black tile's table bottom is its own top
    found: list[Finding] = []
    answers = []
    for i, (_, _, top, _) in enumerate(cs.table[0]):
        count = sum(black_bottoms[f] for f in cs.fit_up[top])
        answers.append(count)
        if count == 0:
            wanted = ", ".join(cs.forms[f] for f in sorted(cs.fit_up[top])) or "nothing"
            found.append(Finding("setup", "error", ("decks", "white", "tiles", i),
                                 f"if white opens with {cs.describe(0, i)}, black can never answer: "
                                 f"black's tile lies turned, so its own top edge meets white's "
                                 f"{cs.forms[top]}, and no black tile has a top that fits it "
                                 f"({wanted})", (cs.names[0][i],)))
    stats = {"fewest_answers": min(answers), "most_answers": max(answers),
             "openings_without_answer": sum(1 for a in answers if a == 0)}
    return found, stats


# -- dead tiles and sides ----------------------------------------------------------------------
def neighbour_counts(cs: Compiled) -> list[list[dict[str, tuple[int, int]]]]:
    """[deck][tile][side] = (own-deck tiles, opponent tiles) that can sit across that side."""
    buckets = [Buckets.of(cs.table[0]), Buckets.of(cs.table[1])]
    fit_down = [frozenset(a for a, ups in enumerate(cs.fit_up) if b in ups) for b in range(len(cs.forms))]
    result = []
    for deck in (0, 1):
        rows = []
        for edges in cs.table[deck]:
            left, right, top, bottom = edges
            counts = {}
            for side, fn in (("left", lambda b: b.right[left]), ("right", lambda b: b.left[right]),
                             ("top", lambda b: sum(b.bottom[f] for f in cs.fit_up[top])),
                             ("bottom", lambda b: sum(b.top[f] for f in fit_down[bottom]))):
                own, other = fn(buckets[deck]), fn(buckets[1 - deck])
                own -= self_fits(cs, edges, side)
                counts[side] = (own, other)
            rows.append(counts)
        result.append(rows)
    return result


def self_fits(cs: Compiled, edges: tuple[int, int, int, int], side: str) -> int:
    """1 when a tile would fit beside a copy of itself on that side (it cannot touch itself)."""
    left, right, top, bottom = edges
    if side in ("left", "right"):
        return int(left == right)
    return int(cs.fits(top, bottom))


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
                                     f"of its owner's tiles edge to edge", (tile,)))
            for side, (own, other) in sides.items():
                fewest[side] = min(fewest.get(side, own + other), own + other)
                if own + other == 0:
                    found.append(Finding("dead", defn.validation.dead_sides, loc,
                                         f"nothing can ever touch the {side} of {cs.describe(deck, i)}: "
                                         f"no tile of either deck fits there", (tile,)))
    stats = {"fewest_neighbours_per_side": fewest,
             "tiles": {cs.names[d][i]: {s: {"own": o, "opponent": t} for s, (o, t) in sides.items()}
                       for d in (0, 1) for i, sides in enumerate(counts[d])}}
    return found, stats


# -- balance and mirror ------------------------------------------------------------------------
def balance(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    limits = defn.validation.thresholds
    found: list[Finding] = []
    stats: dict[str, Any] = {}
    known_colours = range(len(defn.colours))
    known_forms = range(len(defn.forms))
    for deck in (0, 1):
        name, own = DECKS[deck], cs.own[deck]
        b = Buckets.of(own)
        stats[name] = {side: {cs.colours[c]: getattr(b, side)[c] for c in known_colours}
                       for side in ("left", "right")}
        stats[name].update({side: {cs.forms[f]: getattr(b, side)[f] for f in known_forms}
                            for side in ("top", "bottom")})
        for side in ("left", "right"):
            counter = getattr(b, side)
            most = max(known_colours, key=lambda c: counter[c])
            least = min(known_colours, key=lambda c: counter[c])
            spread = counter[most] - counter[least]
            if spread > limits.max_colour_spread:
                index = 0 if side == "left" else 1
                tiles = [cs.names[deck][i] for i, e in enumerate(own) if e[index] == most]
                found.append(Finding("balance", "error", ("decks", name, "tiles"),
                                     f"the {name} deck has {counter[most]} {cs.colours[most]} and "
                                     f"{counter[least]} {cs.colours[least]} semicircles on the {side} "
                                     f"(spread {spread}, at most {limits.max_colour_spread}); "
                                     f"{cs.colours[most]} on the {side}: {names_list(tiles)}", tuple(tiles)))
        found += form_balance(defn, cs, deck, b)
    return found, stats


def form_balance(defn: Omiga, cs: Compiled, deck: int, b: Buckets) -> list[Finding]:
    """Tops against the bottoms they stack under (tips against notches, diagonals against
    diagonals), and each fitting pair of different forms in total (tips against notches)."""
    limit = defn.validation.thresholds.max_form_spread
    name, own, forms = DECKS[deck], cs.own[deck], cs.forms
    found: list[Finding] = []
    for f in range(len(defn.forms)):
        partners = sorted(cs.fit_up[f])
        under = sum(b.bottom[g] for g in partners)
        if abs(b.top[f] - under) > limit:
            tiles = [cs.names[deck][i] for i, e in enumerate(own) if e[2] == f]
            wanted = " or ".join(forms[g] for g in partners) or "nothing"
            found.append(Finding("balance", "error", ("decks", name, "tiles"),
                                 f"the {name} deck has {b.top[f]} tiles with a {forms[f]} on top but "
                                 f"{under} with a bottom that fits under it ({wanted}); spread "
                                 f"{abs(b.top[f] - under)}, at most {limit}; {forms[f]} on top: "
                                 f"{names_list(tiles)}", tuple(tiles)))
    for f in range(len(defn.forms)):
        for g in sorted(cs.fit_up[f]):
            if g <= f or g >= len(defn.forms):
                continue
            count_f, count_g = b.top[f] + b.bottom[f], b.top[g] + b.bottom[g]
            if abs(count_f - count_g) > limit:
                more = f if count_f > count_g else g
                tiles = [cs.names[deck][i] for i, e in enumerate(own) if more in (e[2], e[3])]
                found.append(Finding("balance", "error", ("decks", name, "tiles"),
                                     f"the {name} deck shows {count_f} {forms[f]} edges against "
                                     f"{count_g} {forms[g]} edges, which fit each other (spread "
                                     f"{abs(count_f - count_g)}, at most {limit}); with a "
                                     f"{forms[more]}: {names_list(tiles)}", tuple(tiles)))
    return found


def mirror(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    """The decks mirror each other when both players hold the same tiles from their own seats."""
    decks = [Counter(t.signature() for t in defn.deck(d).tiles) for d in DECKS]
    only = [decks[0] - decks[1], decks[1] - decks[0]]
    if not (only[0] or only[1]):
        return [], {"mirrored": True}
    parts, tiles = [], []
    for d in (0, 1):
        if only[d]:
            kinds = [f"{'|'.join(sig[:2])} {'/'.join(sig[2:])}" + (f" x{n}" if n > 1 else "")
                     for sig, n in sorted(only[d].items())]
            parts.append(f"only {DECKS[d]} has {'; '.join(kinds)}")
            left = Counter(only[d])
            for i, tile in enumerate(defn.deck(DECKS[d]).tiles):
                if left[tile.signature()] > 0:
                    left[tile.signature()] -= 1
                    tiles.append(tile_name(DECKS[d], i))
    message = (f"the decks do not mirror each other (each player should hold the same tiles from "
               f"their own seat): {', and '.join(parts)}; tiles: {names_list(tiles)}")
    difference = {DECKS[d]: sum(only[d].values()) for d in (0, 1)}
    return ([Finding("mirror", defn.validation.mirror, ("decks",), message, tuple(tiles))],
            {"mirrored": False, "unmatched": difference})


def structure_errors(defn: Omiga) -> Iterable[tuple[Loc, str]]:
    """For `printgen build`: a set with structure errors is refused, with every reason."""
    for finding in structure(defn):
        if finding.severity == "error":
            yield finding.loc, finding.message
