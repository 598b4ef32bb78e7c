"""Simulated games of Omiga, fast enough to play thousands of them.

Every game has its own seed, so a run gives the same numbers on any number of cores."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from printgen.core.parallel import on_cores
from printgen.games.omiga.tileset import Compiled

OUTCOMES = ("white_behind", "white_edge", "black_behind", "black_edge", "draw_edges", "draw_out",
            "stall", "no_start")
WHITE_BEHIND, WHITE_EDGE, BLACK_BEHIND, BLACK_EDGE, DRAW_EDGES, DRAW_OUT, STALL, NO_START = range(8)
EMPTY, WALL = 3, 2  # cell owners besides the players 0 (white) and 1 (black)
HAND = 3
PARALLEL_FROM = 2000  # games; fewer take too short a time to be worth sharing out
BATCH = 250  # games per job: small enough for a smooth progress bar, large enough to cost nothing
SUMS = ("games", "placements", "looks", "no_legal", "placements_sq", "looks_sq", "no_legal_sq", "looks_no_legal")


@dataclass
class Tally:
    """Sums over games; adding tallies in any order gives the same result."""

    games: int = 0
    outcomes: list[int] = field(default_factory=lambda: [0] * len(OUTCOMES))
    placements: int = 0
    looks: int = 0
    no_legal: int = 0
    # sums of squares and products of the per-game counts, for the spread between games
    placements_sq: int = 0
    looks_sq: int = 0
    no_legal_sq: int = 0
    looks_no_legal: int = 0
    dead_hands: list[list[int]] = field(default_factory=list)  # [deck][tile]: in a hand with no move

    def add(self, other: "Tally") -> None:
        for name in SUMS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.outcomes = [a + b for a, b in zip(self.outcomes, other.outcomes)]
        if not self.dead_hands:
            self.dead_hands = [[0] * len(d) for d in other.dead_hands]
        for mine, theirs in zip(self.dead_hands, other.dead_hands):
            for i, v in enumerate(theirs):
                mine[i] += v


@dataclass(frozen=True)
class Placement:
    column: int
    row: int
    deck: int
    tile: int


@dataclass(frozen=True)
class Record:
    """One game's end position, for pictures: every placed tile, in order."""

    outcome: str
    placements: list[Placement]
    columns: int
    rows: int


def game_rng(seed: int, game: int) -> random.Random:
    return random.Random(f"omiga:{seed}:{game}")


def play(cs: Compiled, columns: int, rows: int, rng: random.Random, tally: Tally,
         record: list[Placement] | None = None) -> int:
    stride = columns + 2
    owner = [WALL] * (stride * (rows + 2))
    for r in range(1, rows + 1):
        for c in range(1, columns + 1):
            owner[r * stride + c] = EMPTY
    left_c, right_c, top_f, bottom_f = ([0] * len(owner) for _ in range(4))
    fit_up = cs.fit_up
    tiles = cs.table
    dead = tally.dead_hands
    near = (-1, 1, stride, -stride, stride - 1, stride + 1, -stride - 1, -stride + 1)
    piles = [list(range(len(tiles[0]))), list(range(len(tiles[1])))]
    rng.shuffle(piles[0])
    rng.shuffle(piles[1])
    discards: list[list[int]] = [[], []]
    hands: list[list[int]] = [[], []]
    frontier: list[set[int]] = [set(), set()]
    touching: list[set[int]] = [set(), set()]  # cells edge or corner to edge with each player's tiles
    reached = [0, 0]
    placed = 0

    def put(p: int, cell: int, t: int) -> None:
        owner[cell] = p
        left_c[cell], right_c[cell], top_f[cell], bottom_f[cell] = tiles[p][t]
        frontier[0].discard(cell)
        frontier[1].discard(cell)
        for n in (cell - 1, cell + 1, cell + stride, cell - stride):
            if owner[n] == EMPTY:
                frontier[p].add(n)
        touching[p].update(cell + o for o in near)
        column = cell % stride - 1
        reached[p] |= (1 if column == 0 else 0) | (2 if column == columns - 1 else 0)
        if record is not None:
            record.append(Placement(column, cell // stride - 1, p, t))

    def draw(p: int) -> None:
        pile, hand = piles[p], hands[p]
        while len(hand) < HAND:
            if not pile:
                if not discards[p]:
                    return
                pile.extend(reversed(discards[p]))  # the face-up pile, turned over
                discards[p].clear()
            hand.append(pile.pop())

    # Set-up: white's first tile in the middle; black turns up tiles until one fits above it.
    start = (rows // 2) * stride + columns // 2 + 1  # padded row rows/2 is table row rows/2 - 1
    put(0, start, piles[0].pop())
    need = fit_up[top_f[start]]
    rejected = []
    while piles[1] and tiles[1][piles[1][-1]][3] not in need:
        rejected.append(piles[1].pop())
    if not piles[1]:
        tally.games += 1
        tally.outcomes[NO_START] += 1
        return NO_START
    put(1, start + stride, piles[1].pop())
    piles[1].extend(rejected)
    rng.shuffle(piles[1])
    draw(0)
    draw(1)

    version = 0  # bumps whenever a tile is placed
    seen_at = [[-1] * len(tiles[0]), [-1] * len(tiles[1])]
    seen_count = [0, 0]
    seen_version = [-1, -1]
    looks = no_legal = 0
    outcome = STALL
    for _ in range(40 * (len(tiles[0]) + len(tiles[1]))):
        p = 0 if rng.random() < 0.5 else 1
        q = 1 - p
        hand = hands[p]
        mine = tiles[p]
        looks += 1
        moves = []
        for cell in sorted(frontier[p]):
            if cell not in touching[q]:  # condition 3: no opponent's tile at an edge or corner
                continue
            need_left = right_c[cell - 1] if owner[cell - 1] < 2 else -1
            need_right = left_c[cell + 1] if owner[cell + 1] < 2 else -1
            above = bottom_f[cell + stride] if owner[cell + stride] < 2 else -1  # the bottom form my top must fit
            below = fit_up[top_f[cell - stride]] if owner[cell - stride] < 2 else None
            for k, t in enumerate(hand):
                left, right, top, bottom = mine[t]
                if ((need_left < 0 or left == need_left) and (need_right < 0 or right == need_right)
                        and (above < 0 or above in fit_up[top])
                        and (below is None or bottom in below)):
                    moves.append((k, cell))
        if moves:
            k, cell = moves[rng.randrange(len(moves))]
            put(p, cell, hand.pop(k))
            placed += 1
            version += 1
            row = cell // stride
            if p == 0 and owner[cell - stride] == 1:
                outcome = WHITE_BEHIND
            elif p == 0 and row == rows:
                outcome = WHITE_EDGE
            elif p == 1 and owner[cell + stride] == 0:
                outcome = BLACK_BEHIND
            elif p == 1 and row == 1:
                outcome = BLACK_EDGE
            elif reached[0] == 3 and reached[1] == 3:
                outcome = DRAW_EDGES
            else:
                if not hand:
                    draw(p)
                continue
            break
        no_legal += 1
        for t in hand:
            dead[p][t] += 1
        if not piles[p] and not discards[p]:
            outcome = DRAW_OUT
            break
        if seen_version[p] != version:
            seen_version[p], seen_count[p] = version, 0
        for t in hand:
            if seen_at[p][t] != version:
                seen_at[p][t] = version
                seen_count[p] += 1
        discards[p].extend(hand)
        hand.clear()
        draw(p)
        stuck = [seen_version[i] == version
                 and seen_count[i] >= len(piles[i]) + len(discards[i]) + len(hands[i]) for i in (0, 1)]
        if stuck[0] and stuck[1]:
            outcome = STALL
            break
    tally.add(Tally(1, [int(k == outcome) for k in range(len(OUTCOMES))], placed, looks, no_legal,
                    placed * placed, looks * looks, no_legal * no_legal, looks * no_legal))
    return outcome


def empty_tally(cs: Compiled) -> Tally:
    return Tally(dead_hands=[[0] * len(cs.table[0]), [0] * len(cs.table[1])])


def play_range(cs: Compiled, columns: int, rows: int, seed: int, first: int, last: int) -> Tally:
    tally = empty_tally(cs)
    for game in range(first, last):
        play(cs, columns, rows, game_rng(seed, game), tally)
    return tally


def replay(cs: Compiled, columns: int, rows: int, seed: int, game: int) -> Record:
    placements: list[Placement] = []
    outcome = play(cs, columns, rows, game_rng(seed, game), empty_tally(cs), placements)
    return Record(OUTCOMES[outcome], placements, columns, rows)


def simulate(cs: Compiled, columns: int, rows: int, games: int, seed: int,
             progress: Callable[[int], None] | None = None, workers: int | None = None) -> Tally:
    """Play `games` seeded games in batches on every core; `progress(n)` hears of each batch."""
    batches = [(a, min(a + BATCH, games)) for a in range(0, games, BATCH)]
    jobs = [partial(play_range, cs, columns, rows, seed, a, b) for a, b in batches]

    def finished(index: int, _: Tally) -> None:
        if progress:
            progress(batches[index][1] - batches[index][0])

    total = empty_tally(cs)
    for tally in on_cores(jobs, finished, workers if games >= PARALLEL_FROM else 1, kind=Tally):
        total.add(tally)
    return total
