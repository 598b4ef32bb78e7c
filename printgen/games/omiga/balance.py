"""Balance and mirror checks of an Omiga tile set, counted in kinds that tiles really use.

Unused names are reported once by the structure check, and forms that fit alike are one kind."""
from __future__ import annotations

from collections import Counter
from typing import Any

from printgen.games.omiga.checks import Finding, buckets, names_list
from printgen.games.omiga.model import DECKS, Omiga
from printgen.games.omiga.tileset import Compiled, Edges


def used_kinds(cs: Compiled) -> tuple[list[int], list[int]]:
    """The defined colours and form kinds that some tile of either deck shows, in declared order."""
    colours, forms = cs.defined
    tiles = cs.own[0] + cs.own[1]
    shown_colours = {c for t in tiles for c in t[:2]}
    shown_kinds = {cs.form_kind[f] for t in tiles for f in t[2:] if f < forms}
    return ([c for c in range(colours) if c in shown_colours and c not in cs.colours[:c]],
            sorted(shown_kinds))


def balance(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    limit = defn.validation.thresholds.max_colour_spread
    colours, kinds = used_kinds(cs)
    found: list[Finding] = []
    stats: dict[str, Any] = {}
    for deck in (0, 1):
        name, own = DECKS[deck], cs.own[deck]
        # per side as the owner holds the tiles: colours on left and right, form kinds on top and bottom
        counts = buckets((left, right, cs.form_kind[top], cs.form_kind[bottom]) for left, right, top, bottom in own)
        stats[name] = {side: {cs.colours[c]: counts[side][c] for c in colours} for side in ("left", "right")}
        stats[name].update({side: {cs.kind_name(k): counts[side][k] for k in kinds}
                            for side in ("top", "bottom")})
        for index, side in enumerate(("left", "right") if colours else ()):
            counter = counts[side]
            most = max(colours, key=lambda c: counter[c])
            least = min(colours, key=lambda c: counter[c])
            spread = counter[most] - counter[least]
            if spread > limit:
                tiles = [cs.names[deck][i] for i, e in enumerate(own) if e[index] == most]
                found.append(Finding("balance", "error", ("decks", name, "tiles"),
                                     f"the {name} deck has {counter[most]} {cs.colours[most]} and "
                                     f"{counter[least]} {cs.colours[least]} semicircles on the {side} "
                                     f"(spread {spread}, at most {limit}); {cs.colours[most]} on the "
                                     f"{side}: {names_list(tiles)}", tuple(tiles), topic=("colour", deck, side)))
        found += form_balance(defn, cs, deck, counts, kinds)
    return found, stats


def form_balance(defn: Omiga, cs: Compiled, deck: int, counts: dict[str, Counter[int]],
                 kinds: list[int]) -> list[Finding]:
    """Tops against the bottoms they stack under, and each fitting pair of different kinds in total."""
    limit = defn.validation.thresholds.max_form_spread
    name, own = DECKS[deck], cs.own[deck]
    top, bottom = counts["top"], counts["bottom"]
    kind_of = cs.form_kind
    found: list[Finding] = []
    for k in kinds:
        partners = [g for g in kinds if g in cs.fit_up[k]]
        under = sum(bottom[g] for g in partners)
        if abs(top[k] - under) > limit:
            tiles = [cs.names[deck][i] for i, e in enumerate(own) if kind_of[e[2]] == k]
            wanted = " or ".join(cs.kind_name(g) for g in partners) or "nothing"
            found.append(Finding("balance", "error", ("decks", name, "tiles"),
                                 f"the {name} deck has {top[k]} tiles with a {cs.kind_name(k)} on top "
                                 f"but {under} with a bottom that fits under it ({wanted}); spread "
                                 f"{abs(top[k] - under)}, at most {limit}; {cs.kind_name(k)} on top: "
                                 f"{names_list(tiles)}", tuple(tiles), topic=("under", deck, cs.kind_name(k))))
    for k in kinds:
        for g in kinds:
            if g <= k or g not in cs.fit_up[k]:
                continue
            count_k, count_g = top[k] + bottom[k], top[g] + bottom[g]
            if abs(count_k - count_g) > limit:
                more = k if count_k > count_g else g
                tiles = [cs.names[deck][i] for i, e in enumerate(own) if more in (kind_of[e[2]], kind_of[e[3]])]
                a, b = cs.kind_name(k), cs.kind_name(g)
                found.append(Finding("balance", "error", ("decks", name, "tiles"),
                                     f"the {name} deck shows {count_k} {a} edges against {count_g} {b} "
                                     f"edges, which fit each other (spread {abs(count_k - count_g)}, at "
                                     f"most {limit}); with a {cs.kind_name(more)}: {names_list(tiles)}",
                                     tuple(tiles), topic=("pair", deck, a, b)))
    return found


def mirror(defn: Omiga, cs: Compiled) -> tuple[list[Finding], dict[str, Any]]:
    """The decks mirror each other when both players hold the same tiles, forms compared by kind."""
    def signature(edges: Edges) -> Edges:
        left, right, top, bottom = edges
        return (left, right, cs.form_kind[top], cs.form_kind[bottom])

    decks = [Counter(signature(e) for e in cs.own[d]) for d in (0, 1)]
    only = [decks[0] - decks[1], decks[1] - decks[0]]
    if not (only[0] or only[1]):
        return [], {"mirrored": True}
    parts, tiles = [], []
    for d in (0, 1):
        if only[d]:
            kinds = [f"{cs.colours[sig[0]]}|{cs.colours[sig[1]]} {cs.kind_name(sig[2])}/"
                     f"{cs.kind_name(sig[3])}" + (f" x{n}" if n > 1 else "")
                     for sig, n in sorted(only[d].items())]
            parts.append(f"only {DECKS[d]} has {'; '.join(kinds)}")
            left = Counter(only[d])
            for i, edges in enumerate(cs.own[d]):
                if left[signature(edges)] > 0:
                    left[signature(edges)] -= 1
                    tiles.append(cs.names[d][i])
    message = (f"the decks do not mirror each other (each player should hold the same tiles from "
               f"their own seat): {', and '.join(parts)}; tiles: {names_list(tiles)}")
    difference = {DECKS[d]: sum(only[d].values()) for d in (0, 1)}
    return ([Finding("mirror", defn.validation.mirror, ("decks",), message, tuple(tiles), topic=("mirror",))],
            {"mirrored": False, "unmatched": difference})
