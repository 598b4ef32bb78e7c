"""An independent check of placement: every set-up and every first move, searched one by one.

The fast checks and the simulation share the compiled set, so could be wrong alike; this search
restates the rules from the definition's names and must agree with them (a disagreement is a
bug in printgen). Only sets up to LIMIT checks are searched."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from printgen.games.omiga.checks import TURNED, Finding, names_list
from printgen.games.omiga.model import DECKS, Omiga, tile_name
from printgen.games.omiga.tileset import Compiled

LIMIT = 400_000  # placements tried; the bundled 36 + 36 tiles take 186,624 (about a second)
Cell = tuple[int, int]  # column, row; rows count up from white's side
ACROSS = {(-1, 0): ("left", "right"), (1, 0): ("right", "left"), (0, 1): ("top", "bottom"),
          (0, -1): ("bottom", "top")}  # offset: (my side, the neighbour's side), on the table


@dataclass
class Seen:
    """What the search saw: answers per opening, and who sat across each side (as written)."""

    answers: dict[int, int] = field(default_factory=dict)
    across: dict[tuple[int, int, str], set[tuple[int, int]]] = field(default_factory=dict)
    setups: int = 0
    moves: int = 0
    tried: int = 0
    frozen: list[tuple[int, int]] = field(default_factory=list)  # set-ups with no first move at all

    def touch(self, a: tuple[int, int], side: str, b: tuple[int, int]) -> None:
        """Tile `a` met tile `b` across `a`'s table side `side`."""
        written = side if a[0] == 0 else TURNED[side]
        self.across.setdefault((a[0], a[1], written), set()).add(b)


class Table:
    """The rules restated over names: edges as each tile lies, and which forms fit."""

    def __init__(self, defn: Omiga) -> None:
        self.fits = {(a, b) for a, partners in defn.fits.items() for b in partners}
        self.fits |= {(b, a) for a, b in self.fits}  # listed either way round (asymmetry is reported)
        self.edges: list[list[dict[str, str]]] = [  # side -> name, as each tile lies on the table
            [{(side if deck == "white" else TURNED[side]): name for side, name in t.model_dump().items()}
             for t in defn.deck(deck).tiles] for deck in DECKS]

    def meets(self, mine: dict[str, str], side: str, theirs: dict[str, str], their_side: str) -> bool:
        """Condition 1 across one side: colours equal, forms that fit."""
        if side in ("left", "right"):
            return mine[side] == theirs[their_side]
        lower, upper = (mine, theirs) if side == "top" else (theirs, mine)
        return (lower["top"], upper["bottom"]) in self.fits

    def legal(self, board: dict[Cell, tuple[int, int]], deck: int, tile: int, cell: Cell) -> bool:
        """All three placing conditions for `tile` of `deck` at the empty `cell`."""
        mine = self.edges[deck][tile]
        own = opponent = False
        for (dc, dr), (side, their_side) in ACROSS.items():
            other = board.get((cell[0] + dc, cell[1] + dr))
            if other is None:
                continue
            if not self.meets(mine, side, self.edges[other[0]][other[1]], their_side):
                return False
            own |= other[0] == deck
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                other = board.get((cell[0] + dc, cell[1] + dr))
                opponent |= other is not None and other[0] != deck
        return own and opponent


def work(defn: Omiga) -> int:
    """Placements the search will try: six cells for every tile of both decks, per set-up."""
    table = Table(defn)
    setups = sum(1 for w in table.edges[0] for b in table.edges[1] if table.meets(w, "top", b, "bottom"))
    return setups * 6 * (len(table.edges[0]) + len(table.edges[1]))


def search(defn: Omiga) -> Seen:
    """Every opening, every answer to it, and every first move of either player after it."""
    table = Table(defn)
    seen = Seen()
    w0, b0 = (0, 0), (0, 1)  # white's opening, and black's answer above it
    near = [(-1, 0), (1, 0), (0, -1), (-1, 1), (1, 1), (0, 2)]
    for w in range(len(table.edges[0])):
        seen.answers[w] = 0
        for b in range(len(table.edges[1])):
            if not table.meets(table.edges[0][w], "top", table.edges[1][b], "bottom"):
                continue
            seen.answers[w] += 1
            seen.setups += 1
            seen.touch((0, w), "top", (1, b))
            seen.touch((1, b), "bottom", (0, w))
            board = {w0: (0, w), b0: (1, b)}
            moves = 0
            for deck in (0, 1):
                for t in range(len(table.edges[deck])):
                    if board[w0 if deck == 0 else b0] == (deck, t):
                        continue
                    for cell in near:
                        seen.tried += 1
                        if not table.legal(board, deck, t, cell):
                            continue
                        moves += 1
                        for (dc, dr), (side, their_side) in ACROSS.items():
                            other = board.get((cell[0] + dc, cell[1] + dr))
                            if other is not None:
                                seen.touch((deck, t), side, other)
                                seen.touch(other, their_side, (deck, t))
            seen.moves += moves
            if not moves:
                seen.frozen.append((w, b))
    return seen


def thorough_check(defn: Omiga, cs: Compiled, dead: dict[str, Any], setup: dict[str, Any],
                   structural: bool) -> tuple[list[Finding], dict[str, Any]]:
    """The search, and every way it disagrees with the fast checks (`dead` and `setup` stats)."""
    cost = work(defn)
    if structural or cost > LIMIT:
        why = ("not searched: the structure problems come first" if structural else
               f"not searched: the set would take {cost:,} placements, over the {LIMIT:,} searched")
        return [], {"searched": False, "summary": why}
    seen = search(defn)
    found = disagreements(defn, seen, dead, setup)
    if seen.frozen:
        pairs = [f"{tile_name('white', w)} under {tile_name('black', b)}" for w, b in seen.frozen]
        found.append(Finding("thorough", "warning", ("decks",),
                             f"in {len(seen.frozen)} of {seen.setups} set-ups neither player can place "
                             f"any tile next, so such a game stalls at once: {names_list(pairs, 4)}",
                             tuple(dict.fromkeys(p for pair in pairs for p in pair.split(" under ")))))
    agrees = not any(f.severity == "error" for f in found)
    summary = (f"{seen.setups} set-ups and {seen.moves} first moves searched one by one "
               f"({seen.tried} placements tried): " + ("they agree with the set-up and neighbour counts"
                                                       if agrees else "they DISAGREE with the fast checks"))
    stats = {"searched": True, "setups": seen.setups, "first_moves": seen.moves, "tried": seen.tried,
             "setups_without_a_move": len(seen.frozen), "agrees": agrees, "summary": summary}
    return found, stats


def disagreements(defn: Omiga, seen: Seen, dead: dict[str, Any], setup: dict[str, Any]) -> list[Finding]:
    found = []

    def wrong(deck: int, tile: int, side: str | None, what: str) -> None:
        name = tile_name(DECKS[deck], tile)
        loc = ("decks", DECKS[deck], "tiles", tile) + ((side,) if side else ())
        found.append(Finding("thorough", "error", loc, f"{name}: {what}; the exhaustive search and the "
                             f"fast checks disagree, which is a bug in printgen: please report it with "
                             f"this file", (name,)))

    for w, count in seen.answers.items():
        fast = setup["answers"][tile_name("white", w)]
        if fast != count:
            wrong(0, w, "top", f"{count} black tiles answer it as an opening, the set-up check counted {fast}")
    opening = {w for w, n in seen.answers.items() if n}
    answering = {b for (d, _, side), met in seen.across.items() if d == 0 and side == "top" for _, b in met}
    for (deck, tile, side), met in sorted(seen.across.items()):
        counted = dead["tiles"][tile_name(DECKS[deck], tile)][side]
        own = sum(1 for d, _ in met if d == deck)
        other = len(met) - own
        if own > counted["own"] or other > counted["opponent"]:
            wrong(deck, tile, side, f"the search put {own} own and {other} opponent tiles across its "
                                    f"{side}, the fast check counted {counted['own']} and {counted['opponent']}")
            continue
        placed = tile in (opening if deck == 0 else answering)
        if placed and side in ("left", "right") and own != counted["own"]:
            wrong(deck, tile, side, f"the search put {own} own tiles beside its {side}, the fast check "
                                    f"counted {counted['own']}")
        set_up_side = "top"  # white's top meets black's own top: the set-up pair, both searched in full
        if placed and side == set_up_side and other != counted["opponent"]:
            wrong(deck, tile, side, f"the search found {other} opponent tiles across its {side} in set-ups, "
                                    f"the fast check counted {counted['opponent']}")
    return found
