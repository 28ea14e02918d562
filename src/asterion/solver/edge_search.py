"""A fast exact search engine for edge matching (the hard Eternity II family, issue 4).

The idea: lay pieces cell by cell in a fixed order (by default row by row, north first), and at
each cell try only the oriented pieces whose sides already fit. The fit is looked up, not
tested: every cell of the order is of one *kind* (which of its sides lie on the border, and
which two sides are keyed), and for each kind a table maps the two keyed colors to the list of
oriented pieces that carry them, with exactly the cell's border sides colored 0. Other sides
facing an already placed neighbour are checked in the loop. Up to 64 pieces, each list is also
a word of piece bits, so the fitting unused pieces are one AND with the used word and the next
candidate its lowest bit (a flag per piece and a scan of the list beyond 64 pieces, and in the
randomized restarts, whose lists are shuffled one by one). The loop
(:mod:`.edge_search_kernel`) is an explicit stack, compiled with numba (the module still
imports and answers without numba, some hundred times slower).

With rotations on, arrangements are counted up to turning the whole picture
(models/edges.py) by breaking the symmetry, not by dividing: one corner piece is pinned to the
corner where the scan starts (square grids: every class has exactly one member so placed), or
kept to that corner and the other one on its row (other grids, turned by half turns only).

The search is resumable: it runs in slices of a step budget and the driver checks the clock
between slices, so the answer does not depend on the machine's speed, only on where the clock
stopped it. To find a first arrangement, several *variants* (row or column scan, each corner
piece pinned in turn, or each start corner without rotations) run side by side in equal slices
and the first to finish answers: their times to a first arrangement differ by orders of
magnitude on one puzzle. Before that race, a first arrangement is sought by randomized
restarts (:class:`.edge_search_parallel.Restarts`): short runs of the same variants with each
candidate list in a seeded random order biased towards pieces of rare colors (:func:`rarity`),
cut off after a Luby sequence of step budgets (on Eternity II-family puzzles with rotations,
half of the work goes to restarts of the frame method's inner search, :mod:`.edge_frame`); a
restart that finishes answers (a found arrangement, or a whole space searched: no
arrangement). Counting runs one variant over the whole space, split into the subtrees below
its first few placements, with a memo of subtree counts at the start of each row (or, asked
for the fastest way, counts by the frame where that applies).

Both run on several threads (:mod:`.edge_search_parallel`) with the answer of one thread: the
restarts are numbered and the lowest that finishes answers; the subtrees are fixed tasks whose
counts add up in order.

Measured (benchmarks/bench_nacht.py, docs/benchmarks.md): row by row beats column-free
alternatives (border ring first, spiral, anti-diagonals: 3 to 8 times the nodes when counting
every 6 x 6); counting by color (the open sides of each color must pair up with the unused
pieces' sides) is not used: along a row scan its parity half never fails while the whole set
pairs up, and its "enough sides left" half only bites in the last row. Forward checking (every
empty cell next to a placed one keeps a candidate) was estimated by Knuth's random probes to
save 1.2 to 1.7 times the placements at a far higher cost per placement: not used either.

>>> from asterion.models.edge_puzzles import generate
>>> result = search_arrangements(generate(4, 4, 2, 2, seed=3), count_limit=10**6)
>>> result.status.value, result.complete, result.count > 0
('optimal', True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from asterion.models.edges import (
    BORDER,
    MAX_SIDE,
    MIN_SIDE,
    Arrangement,
    EdgeProblem,
    Placement,
    check_arrangement,
    orientations,
    turn,
)
from asterion.solver import edge_search_kernel as kernel
from asterion.solver.compile_clock import search_clock
from asterion.solver.edge_result import EdgeSearchResult, Progress, edge_status
from asterion.solver.edge_search_kernel import EXHAUSTED, LIMIT, RUNNING
from asterion.solver.numba_loops import HAVE_NUMBA
from asterion.solver.result import Status

__all__ = [
    "CORNERS",
    "ORDERS",
    "Variant",
    "cell_order",
    "corner_pieces",
    "counting_variant",
    "estimated_nodes",
    "race_variants",
    "scans",
    "search_arrangements",
]

Cell = tuple[int, int]
IntArray = npt.NDArray[np.int32]
LongArray = npt.NDArray[np.int64]

ORDERS = ("row", "column", "diagonal", "frame", "spiral")
"""Cell orders: row by row; column by column; by anti-diagonals; the border ring first, then
the inside row by row; ring by ring inwards. Row by row is the fastest measured (benchmarks)."""

CORNERS = ("nw", "ne", "sw", "se")

BIG_TABLE_ENTRIES = 1 << 22
"""Above this many (kind, color, color) slots the tables key one color and check the other."""

MAX_KEEP = 1_000_000
"""At most this many arrangements are returned (the count goes on)."""

FIRST_SLICE = 20_000
RACE_SLICE = 1 << 17
RESTART_BASE = 1 << 15
"""Restart *k* (1, 2, ...) of a first-solution search may take ``luby(k) * RESTART_BASE`` steps."""
RESTART_SEED = 20260
"""Restart *k* shuffles the candidate lists with seed ``RESTART_SEED + k`` (same problem, same
runs)."""
RESTART_BIAS = 2.0
"""How strongly restarts try pieces with rare colors first: each candidate list is sorted by a
uniform random number less this times the piece's :func:`rarity` (0 = a plain shuffle). Over
7x7 3/6 seeds 0-79 it halved the median placements to a first arrangement (benchmarks);
stronger (4, 8) fattened the tail."""
ESTIMATE_PROBES = 20_000
"""Random probes per variant for :func:`estimated_nodes` when choosing one to count with."""
ESTIMATE_WORK = 1 << 24
"""Candidates looked at per estimate, at most, before the last probe: some 0.1 s. Eight
estimates of a 32 x 32 set of many alike tiles took 11.5 s of a 10 s time limit; the
estimates of puzzles up to 10 x 10 never come near it (benchmarks, twenty-second round)."""
ESTIMATE_SEED = 4
RESTART_SHARE = 0.5
"""Restarts without exhaustive searches among their turns may use this share of the time
limit; the exhaustive race then runs in the rest. (By default such searches are among them,
:data:`.edge_search_parallel.ORDERED_SHARE` and ``SCAN_ORDERED_SHARE``, and the restarts run
to the time limit.)"""
MEMO_SIZE_LOG = 16
"""Memo entries per counting thread (32 bytes each; the table is zeroed lazily by the system)."""
SLICE_SECONDS = 0.05
"""The search runs in slices of nodes; each slice is sized to take about this long."""

_DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W as (row, column) steps


# ---------------------------------------------------------------------------------------------
# Cell orders


def cell_order(width: int, height: int, order: str, start: str = "nw") -> list[Cell]:
    """The cells in the order the search fills them (see :data:`ORDERS`), from corner ``start``.

    >>> cell_order(3, 3, "frame")[-1], cell_order(3, 3, "spiral")[:4]
    ((1, 1), [(0, 0), (0, 1), (0, 2), (1, 2)])
    >>> cell_order(3, 2, "column", "se")[:3]
    [(1, 2), (0, 2), (1, 1)]
    """
    if start not in CORNERS:
        raise ValueError(f"unknown start corner {start!r}; expected one of {', '.join(CORNERS)}")
    transpose = order == "column"
    w, h = (height, width) if transpose else (width, height)
    cells = _nw_order(w, h, "row" if transpose else order)
    if transpose:
        cells = [(c, r) for r, c in cells]
    if start in ("sw", "se"):
        cells = [(height - 1 - r, c) for r, c in cells]
    if start in ("ne", "se"):
        cells = [(r, width - 1 - c) for r, c in cells]
    return cells


def _nw_order(width: int, height: int, order: str) -> list[Cell]:
    rows = [(r, c) for r in range(height) for c in range(width)]
    if order == "row":
        return rows
    if order == "diagonal":
        return sorted(rows, key=lambda cell: (cell[0] + cell[1], cell[0]))
    if order == "frame":
        ring = _ring(0, 0, height - 1, width - 1)
        on_ring = set(ring)
        return ring + [cell for cell in rows if cell not in on_ring]
    if order == "spiral":
        cells: list[Cell] = []
        top, left, bottom, right = 0, 0, height - 1, width - 1
        while top <= bottom and left <= right:
            cells += _ring(top, left, bottom, right)
            top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
        return cells
    raise ValueError(f"unknown cell order {order!r}; expected one of {', '.join(ORDERS)}")


def _ring(top: int, left: int, bottom: int, right: int) -> list[Cell]:
    """The cells of one rectangle's rim, clockwise from its north-west corner."""
    cells = [(top, c) for c in range(left, right + 1)]
    cells += [(r, right) for r in range(top + 1, bottom + 1)]
    if bottom > top:
        cells += [(bottom, c) for c in range(right - 1, left - 1, -1)]
    if right > left:
        cells += [(r, left) for r in range(bottom - 1, top, -1)]
    return cells


# ---------------------------------------------------------------------------------------------
# Tables


@dataclass(frozen=True)
class Tables:
    """Everything the compiled loop reads; arrays indexed by oriented piece, key or position."""

    colors: IntArray  # [oriented, side]
    piece: IntArray  # [oriented]
    turns: IntArray  # [oriented]
    mate: IntArray  # [color]
    facing: IntArray  # [oriented, side] the mate of the color there: what a neighbour needs
    candidates: IntArray  # oriented pieces, grouped by key
    cand_piece: IntArray  # the piece of each candidate (one lookup less in the hot loop)
    seg_start: IntArray  # [key]
    seg_len: IntArray  # [key]
    cell: IntArray  # [position] cell index r * width + c
    base: IntArray  # [position] first key of the position's kind
    keyed: IntArray  # [position, 2] neighbour cell * 4 + its side facing us, -1 = border
    stride: int  # keys per first color (1 = second keyed side checked in the loop)
    extra: IntArray  # [position, 3] other placed neighbours, as keyed, -1 = none
    pin: IntArray  # [position] the only piece allowed there, -1 = any
    ban: IntArray  # [position] a piece not allowed there, -1 = none
    forbid: LongArray  # [position] pin and ban as a word of forbidden pieces (small mode)
    front: IntArray  # [position, j] the frontier (placed cell * 4 + side facing an empty one)
    memo_at: IntArray  # [position] 1 where the memo may key on the frontier
    bits: int  # bits per color in a memo key
    bit: IntArray  # [piece] its bit in the used word and in the candidate words (small mode)
    words: kernel.Words | None  # candidates as words (small mode), see candidate_words()

    def loop_tables(self) -> kernel.LoopTables:
        """The arrays the compiled loops read, in their order."""
        return (
            self.colors,
            self.piece,
            self.facing,
            self.candidates,
            self.cand_piece,
            self.seg_start,
            self.seg_len,
            self.cell,
            self.base,
            self.keyed,
            self.stride,
            self.extra,
            self.pin,
            self.ban,
        )


def _mate_table(problem: EdgeProblem) -> list[int]:
    top = max((max(p) for p in problem.pieces), default=0)
    if problem.mate is None:
        return list(range(top + 1))
    mate = list(problem.mate)
    if len(mate) <= top:
        raise ValueError(f"mate table has {len(mate)} colors, the pieces use color {top}")
    for color, other in enumerate(mate):
        if not 0 <= other < len(mate) or mate[other] != color:
            raise ValueError(f"mate is not an involution at color {color}")
    if mate[BORDER] != BORDER:
        raise ValueError("mate[0] must be 0 (the border)")
    return mate


def corner_pieces(problem: EdgeProblem) -> list[int]:
    """The pieces whose border sides are two adjacent ones."""
    found = []
    for index, piece in enumerate(problem.pieces):
        zeros = [side for side in range(4) if piece[side] == BORDER]
        if len(zeros) == 2 and (zeros[1] - zeros[0]) in (1, 3):
            found.append(index)
    return found


def _symmetry_breaking(
    problem: EdgeProblem, cells: list[Cell], pinned: int
) -> tuple[list[int], list[int]]:
    """Per position, the pinned piece and the banned piece (rotations on: one per class).

    One corner piece (the ``pinned``-th, cyclically) is kept to one corner (square grids:
    turning by quarter turns takes it through all four, once each) or to two corners on one
    side (other grids: the half turn swaps opposite corners). The corner is the first cell of
    the order when that is a corner, so the search starts with it.
    """
    n = len(cells)
    pin, ban = [-1] * n, [-1] * n
    corners = corner_pieces(problem)
    if problem.whole_turns() == 1 or not corners:
        return pin, ban
    chosen = corners[pinned % len(corners)]
    last_row, last_col = problem.height - 1, problem.width - 1
    all_corners = {(0, 0), (0, last_col), (last_row, 0), (last_row, last_col)}
    home = cells[0] if cells[0] in all_corners else (0, 0)
    same_row = (home[0], last_col - home[1])
    allowed = {home} if problem.whole_turns() == 4 else {home, same_row}
    for position, cell in enumerate(cells):
        if allowed == {cell}:
            pin[position] = chosen
        elif cell not in allowed:
            ban[position] = chosen
    return pin, ban


def build_tables(problem: EdgeProblem, cells: list[Cell], pinned: int = 0) -> Tables:
    width, height = problem.width, problem.height
    mate = _mate_table(problem)
    ncolors = len(mate)

    oriented = [
        (index, k, turn(piece, k))
        for index, piece in enumerate(problem.pieces)
        for k in orientations(piece, problem.rotations)
    ]

    # Each position: which sides are on the border, which face an earlier cell.
    seen: set[Cell] = set()
    shapes: list[int] = []
    known: list[list[tuple[int, int]]] = []  # (side, neighbour cell index)
    for r, c in cells:
        shape, sides = 0, []
        for side, (dr, dc) in enumerate(_DELTA):
            nr, nc = r + dr, c + dc
            if not (0 <= nr < height and 0 <= nc < width):
                shape |= 1 << side
            elif (nr, nc) in seen:
                sides.append((side, nr * width + nc))
        seen.add((r, c))
        shapes.append(shape)
        known.append(sides)

    # Keyed sides: two facing earlier cells if there are two, else border sides (color 0).
    keyed: list[list[tuple[int, int]]] = []
    for shape, sides in zip(shapes, known, strict=True):
        border = [(side, -1) for side in range(4) if shape >> side & 1]
        keyed.append((sides + border + [(s, -1) for s in range(4)])[:2])
    kinds = sorted({(shape, k[0][0], k[1][0]) for shape, k in zip(shapes, keyed, strict=True)})
    stride = ncolors if len(kinds) * ncolors * ncolors <= BIG_TABLE_ENTRIES else 1
    kind_base = {kind: i * ncolors * stride for i, kind in enumerate(kinds)}

    # Group the oriented pieces by key: (kind, color on d1, color on d2), each group in
    # oriented-piece order (pieces by index, then turns), so the search order is fixed.
    all_colors = np.array([o[2] for o in oriented], dtype=np.int64).reshape(-1, 4)
    zeros = ((all_colors == BORDER) * (1 << np.arange(4))).sum(axis=1)
    key_parts, member_parts = [], []
    for kind in kinds:
        shape, d1, d2 = kind
        fitting = np.flatnonzero(zeros == shape)
        second = all_colors[fitting, d2] if stride > 1 else 0
        key_parts.append(kind_base[kind] + all_colors[fitting, d1] * stride + second)
        member_parts.append(fitting)
    all_keys = np.concatenate(key_parts)
    by_key = np.argsort(all_keys, kind="stable")
    nkeys = len(kinds) * ncolors * stride
    seg_len = np.bincount(all_keys, minlength=nkeys).astype(np.int32)
    seg_start = (np.cumsum(seg_len) - seg_len).astype(np.int32)
    flat = np.concatenate(member_parts)[by_key].astype(np.int32)

    n = len(cells)
    keyed_at = np.full((n, 2), -1, dtype=np.int32)
    extra = np.full((n, 3), -1, dtype=np.int32)
    base = np.zeros(n, dtype=np.int32)
    for position, (shape, sides, keys) in enumerate(zip(shapes, known, keyed, strict=True)):
        base[position] = kind_base[shape, keys[0][0], keys[1][0]]
        for j, (side, nb) in enumerate(keys):
            keyed_at[position, j] = _facing(nb, side)
        in_key = [side for side, _ in keys] if stride > 1 else [keys[0][0]]
        extras = [(side, nb) for side, nb in sides if side not in in_key]
        for j, (side, nb) in enumerate(extras):
            extra[position, j] = _facing(nb, side)

    pin, ban = _symmetry_breaking(problem, cells, pinned)
    front, memo_at, bits = _frontiers(problem, cells, ncolors)
    oriented_colors = np.array([o[2] for o in oriented], dtype=np.int32).reshape(-1, 4)
    tables = Tables(
        colors=oriented_colors,
        piece=np.array([o[0] for o in oriented], dtype=np.int32),
        turns=np.array([o[1] for o in oriented], dtype=np.int32),
        mate=np.array(mate, dtype=np.int32),
        facing=np.array(mate, dtype=np.int32)[oriented_colors],
        candidates=flat,
        cand_piece=np.array([o[0] for o in oriented], dtype=np.int32)[flat],
        seg_start=seg_start,
        seg_len=seg_len,
        cell=np.array([r * width + c for r, c in cells], dtype=np.int32),
        base=base,
        keyed=keyed_at,
        stride=stride,
        extra=extra,
        pin=np.array(pin, dtype=np.int32),
        ban=np.array(ban, dtype=np.int32),
        forbid=np.zeros(n, dtype=np.int64),
        front=front,
        memo_at=memo_at,
        bits=bits,
        bit=np.arange(len(problem.pieces), dtype=np.int32),
        words=None,
    )
    return with_bits(tables, tables.bit)


def with_bits(tables: Tables, bit: IntArray) -> Tables:
    """The tables with piece ``p`` at bit ``bit[p]`` of the used word and of the candidate
    words (small mode: the words loop tries pieces in bit order), else unchanged."""
    if len(bit) > kernel.SMALL_PIECES:
        return tables
    words = candidate_words(tables, bit)
    if words is None:  # the loop that scans lists runs, with the pieces' own bits
        bit = np.arange(len(bit), dtype=np.int32)
    forbid = [_forbidden(p, b, bit) for p, b in zip(tables.pin, tables.ban, strict=True)]
    return replace(tables, bit=bit, forbid=np.array(forbid, dtype=np.int64), words=words)


def candidate_words(tables: Tables, bit: IntArray) -> kernel.Words | None:
    """Each key's candidates as words of piece bits, for the words loop: ``key_row`` [key]
    (row 0: no candidate), ``first`` and ``second`` [row] (the pieces with one, with two
    orientations there), ``first_o`` and ``second_o`` [row, bit] (those oriented pieces, in
    candidate-list order). None if some piece has three orientations under one key (only
    when a key holds one color: the loop that scans lists handles those tables)."""
    nkeys = len(tables.seg_len)
    key_of = np.repeat(np.arange(nkeys), tables.seg_len)
    bits = bit[tables.cand_piece].astype(np.int64)
    pair = key_of * kernel.SMALL_PIECES + bits
    order = np.lexsort((np.arange(len(pair)), pair))  # by (key, bit), then list order
    pair, key_of, bits = pair[order], key_of[order], bits[order]
    oriented = tables.candidates[order]
    repeat = np.r_[False, pair[1:] == pair[:-1]]
    if np.any(repeat[1:] & repeat[:-1]):
        return None
    used_keys = np.unique(key_of)
    key_row = np.zeros(nkeys, dtype=np.int64)
    key_row[used_keys] = np.arange(1, len(used_keys) + 1)
    rows = key_row[key_of]
    words, by_bit = [], []
    for take in (~repeat, repeat):
        word = np.zeros(len(used_keys) + 1, dtype=np.uint64)
        np.bitwise_or.at(word, rows[take], np.uint64(1) << bits[take].astype(np.uint64))
        table = np.full((len(used_keys) + 1, kernel.SMALL_PIECES), -1, dtype=np.int32)
        table[rows[take], bits[take]] = oriented[take]
        words.append(word.view(np.int64))
        by_bit.append(table)
    return (key_row, words[0], words[1], by_bit[0], by_bit[1])


def _facing(neighbour: int, side: int) -> int:
    """A placed neighbour's side as the loop reads it: its cell * 4 + the side facing us."""
    return -1 if neighbour < 0 else neighbour * 4 + (side + 2) % 4


def _forbidden(pinned: int, banned: int, bit: IntArray) -> int:
    """The pieces a position may not take, as a signed 64-bit word of their bits (small
    mode)."""
    word = 0
    if pinned >= 0:
        word = ((1 << 64) - 1) ^ (1 << int(bit[pinned]))
    elif banned >= 0:
        word = 1 << int(bit[banned])
    return signed_word(word)


def signed_word(word: int) -> int:
    """A 64-bit word as numpy's int64 holds it."""
    return word - (1 << 64) if word >= 1 << 63 else word


def _frontiers(
    problem: EdgeProblem, cells: list[Cell], ncolors: int
) -> tuple[IntArray, IntArray, int]:
    """Per position, the sides of placed cells that face empty ones (placed cell * 4 + side);
    the memo positions (past the first row, a frontier no longer than the grid is across: the
    start of each row of a row scan); and the bits per color of a memo key.

    The memo needs the used pieces in one word and the key in 62 bits, else it is off (and
    no frontier is listed).
    """
    n, bits = len(cells), max(1, (ncolors - 1).bit_length())
    if n > kernel.SMALL_PIECES:
        return np.full((n, 1), -1, dtype=np.int32), np.zeros(n, dtype=np.int32), bits
    lists = _frontier_lists(problem.width, cells)
    front = np.full((n, max(len(f) for f in lists) + 1), -1, dtype=np.int32)
    for d, sides in enumerate(lists):
        front[d, : len(sides)] = sides
    across = min(problem.width, problem.height)
    memo_at = np.zeros(n, dtype=np.int32)
    for d in range(across, n):
        fits = n.bit_length() + len(lists[d]) * bits <= 62
        if fits and len(lists[d]) <= across:
            memo_at[d] = 1
    return front, memo_at, bits


def _frontier_lists(width: int, cells: list[Cell]) -> list[list[int]]:
    """The frontier before each position, kept up to date cell by cell, in the order of the
    placed cells, then of their sides."""
    position = {cell: i for i, cell in enumerate(cells)}
    lists: list[list[int]] = [[]]
    for d, (r, c) in enumerate(cells[:-1]):
        inside = [
            (side, (r + dr, c + dc))
            for side, (dr, dc) in enumerate(_DELTA)
            if (r + dr, c + dc) in position
        ]
        facing_here = {(nr * width + nc) * 4 + (side + 2) % 4 for side, (nr, nc) in inside}
        kept = [where for where in lists[-1] if where not in facing_here]
        new = [(r * width + c) * 4 + side for side, nb in inside if position[nb] > d]
        lists.append(kept + new)
    return lists


# ---------------------------------------------------------------------------------------------
# The driver


def _precheck(problem: EdgeProblem, mate: list[int]) -> str | None:
    """A reason no arrangement exists, from counts alone (cheap checks first), or None."""
    border_sides = sum(p.count(BORDER) for p in problem.pieces)
    if border_sides != 2 * (problem.width + problem.height):
        return f"{border_sides} border sides, the grid has {2 * (problem.width + problem.height)}"
    tally = [0] * len(mate)
    for p in problem.pieces:
        for color in p:
            tally[color] += 1
    for color in range(1, len(mate)):
        other = mate[color]
        if other == color and tally[color] % 2:
            return f"color {color} is on an odd number of sides"
        if other != color and tally[color] != tally[other]:
            return f"color {color} and its mate {other} are on {tally[color]}/{tally[other]} sides"
    return None


@dataclass(frozen=True)
class Variant:
    """One way to run the search: a cell order, its start corner, and which corner piece
    (by position among :func:`corner_pieces`) is pinned when rotations are on."""

    order: str = "row"
    start: str = "nw"
    pinned: int = 0

    def __str__(self) -> str:
        return f"{self.order}/{self.start}/pin{self.pinned}"


class Counters:
    """What a search's ``state`` array says so far (the layout both compiled loops share)."""

    state: LongArray

    @property
    def outcome(self) -> int:
        return int(self.state[kernel.OUTCOME])

    @property
    def count(self) -> int:
        return int(self.state[kernel.COUNT])

    @property
    def nodes(self) -> int:
        return int(self.state[kernel.NODES])


class Run(Counters):
    """One variant's search, resumable slice by slice.

    ``memo``: a table for :mod:`~asterion.solver.edge_search_kernel`'s memo (None: off),
    which runs on one thread may take in turn, each with its own ``stamp``.
    ``prefix``: placed oriented pieces by cell (-1 empty), the first ``depth`` positions of
    the order: the run searches only below it. Its tables, unless given, are built when first
    read: a first arrangement's restarts take most raced variants' tables only after some
    turns, and small puzzles are solved before (the clue puzzles' 6x6: 7 of its 19 ms).
    """

    def __init__(
        self,
        problem: EdgeProblem,
        variant: Variant,
        count_limit: int,
        keep: int,
        tables: Tables | None = None,
        memo: LongArray | None = None,
        prefix: tuple[IntArray, int] | None = None,
        leaf: int | None = None,
        stamp: int = 1,
    ):
        cells = cell_order(problem.width, problem.height, variant.order, variant.start)
        self.variant = variant
        self._problem, self._cells = problem, cells
        if tables is not None:
            self.tables = tables
        n = len(cells)
        self.small = len(problem.pieces) <= kernel.SMALL_PIECES
        self.count_limit = min(count_limit, 1 << 62)
        self.leaf = n if leaf is None else leaf
        self.memo = _NO_MEMO if memo is None else memo
        self.stamp = stamp  # memo entries of other stamps count as empty
        self.memo_at = self.tables.memo_at if memo is not None else np.zeros(n, dtype=np.int32)
        self.entry = np.zeros(n, dtype=np.int64)
        self.placed = np.full(n, -1, dtype=np.int32)
        self.used = np.zeros(len(problem.pieces), dtype=np.int32)
        self.cursor = np.full(n, -1, dtype=np.int32)
        self.seg_end = np.zeros(n, dtype=np.int32)
        self.rest = np.zeros((n, 3), dtype=np.int64)  # the words loop's candidates left
        self.chosen = np.full(n, kernel.ENTER, dtype=np.int32)
        self.state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self.kept = np.full((min(keep, count_limit), n), -1, dtype=np.int32)
        if prefix is not None:
            self._start_below(*prefix)

    @cached_property
    def tables(self) -> Tables:
        return build_tables(self._problem, self._cells, self.variant.pinned)

    def _start_below(self, placed: IntArray, depth: int) -> None:
        self.placed[:] = placed
        pieces = self.tables.piece[placed[placed >= 0]]
        self.used[pieces] = 1
        word = sum(1 << int(self.tables.bit[p]) for p in pieces) if self.small else 0
        self.state[kernel.USED] = signed_word(word)
        self.state[kernel.DEPTH] = self.state[kernel.FLOOR] = depth

    def advance(self, budget: int) -> None:
        t = self.tables
        # the memo's arrays and the placed pieces, in both loops' order
        memo = (self.memo_at, t.front, t.bits, self.memo, self.stamp, self.entry, self.placed)
        if self.small and t.words is not None:
            kernel.search_words(
                t.loop_tables(), t.words, t.forbid, *memo, self.rest, self.chosen, self.state,
                self.kept, self.count_limit, self.leaf, budget,
            )  # fmt: skip
            return
        kernel.search_slice(
            t.loop_tables(), t.forbid, self.small, *memo, self.used, self.cursor, self.seg_end,
            self.state, self.kept, self.count_limit, self.leaf, budget,
        )  # fmt: skip


_NO_MEMO = np.zeros((1, 4), dtype=np.int64)


def new_memo(size_log: int = MEMO_SIZE_LOG) -> LongArray:
    """An empty memo table of ``2 ** size_log`` entries (used word, key, count, stamp)."""
    return np.zeros((1 << size_log, 4), dtype=np.int64)


def race_variants(problem: EdgeProblem) -> list[Variant]:
    """The variants raced for a first arrangement: the :func:`scans` from every distinct
    corner piece pinned (rotations on) or from every corner (rotations off).

    Their running times to a first arrangement differ by orders of magnitude on the same
    puzzle (benchmarks), so running them side by side in equal slices finds one in about
    (number of variants) x (the fastest one's time).
    """
    pins, starts = [0], list(CORNERS)
    corners = corner_pieces(problem)
    if problem.whole_turns() > 1 and corners:
        starts = ["nw"]
        seen: dict[tuple[int, ...], int] = {}
        for position, index in enumerate(corners):
            piece = problem.pieces[index]
            seen.setdefault(min(turn(piece, k) for k in range(4)), position)
        pins = sorted(seen.values())
    return [
        Variant(order, start, pin)
        for pin in pins
        for order in scans(problem.width, problem.height)
        for start in starts
    ]


def scans(width: int, height: int) -> tuple[str, ...]:
    """The orders worth racing on a grid: rows and columns on a square, else the lines along
    its short side only.

    A scan's tree is widest where the filled region's open boundary (about one line) has
    most ways to be colored, so lines along the long side make it wider by a factor that
    grows with each cell of that extra length: 6 x 12 4/10 seed 0 has an estimated 9 x 10^8
    placements by rows of 6, 8 x 10^12 to 6 x 10^13 by columns of 12, and the row scan
    finds its arrangement in 17 s where the columns find none in 60 s (benchmarks).

    >>> scans(6, 6), scans(6, 12), scans(12, 6)
    (('row', 'column'), ('row',), ('column',))
    """
    if width == height:
        return ("row", "column")
    return ("row",) if width < height else ("column",)


def estimated_nodes(
    problem: EdgeProblem,
    variant: Variant,
    probes: int = ESTIMATE_PROBES,
    work: int = ESTIMATE_WORK,
) -> float:
    """Knuth's estimate of the placements a variant makes to search the whole space (the
    same every time: a seeded generator).

    >>> from asterion.models.edge_puzzles import generate
    >>> problem = generate(3, 3, 1, 1, seed=0)
    >>> run_alone(Run(problem, Variant(), 10**9, 0), deadline=float("inf")).nodes  # no memo
    593
    >>> round(estimated_nodes(problem, Variant()))  # pieces all alike: every path alike
    593
    """
    cells = cell_order(problem.width, problem.height, variant.order, variant.start)
    t = build_tables(problem, cells, variant.pinned)
    return float(
        kernel.estimate_nodes(
            t.loop_tables(),
            probes,
            ESTIMATE_SEED,
            work,
        )
    )


def counting_variant(problem: EdgeProblem) -> Variant:
    """The raced variant with the smallest estimated search tree (first of equals).

    Counting searches the whole space, whose size differs between variants (6 x 6 3/5 seed 3:
    271 million placements row by row with the first corner piece pinned, 144 million with the
    second), and the estimate is cheap next to that.
    """
    variants = race_variants(problem)
    sizes = [estimated_nodes(problem, v) for v in variants]
    return variants[sizes.index(min(sizes))]


def search_arrangements(
    problem: EdgeProblem,
    *,
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = 10.0,
    race: bool | None = None,
    variant: Variant | None = Variant(),
    threads: int | None = None,
    progress: Progress | None = None,
) -> EdgeSearchResult:
    """Find and count the arrangements of an edge-matching problem by exact search.

    Parameters
    ----------
    problem : EdgeProblem
        Pieces, grid (2 x 2 to 32 x 32), rotations, mate table.
    count_limit : int
        Stop after this many arrangements (classes under whole-picture turns when rotations
        are on); the status is then OPTIMAL with ``complete`` false.
    keep : int
        How many of the first arrangements to return (each re-checked edge by edge).
    time_limit : float
        Seconds; when the clock stops the search the status is FEASIBLE or UNKNOWN, never
        INFEASIBLE. Seconds numba spends compiling the loops (a machine's first run) do not
        count (:mod:`.compile_clock`).
    race : bool or None
        Run the :func:`race_variants` side by side in equal slices and answer with the first
        to finish (to find one arrangement fast); with ``count_limit`` 1, randomized restarts
        instead, among whose turns exhaustive searches in fixed orders take their share (the
        frame's, or else the raced variants themselves), up to the time limit (were those
        shares 0, the restarts would stop at :data:`RESTART_SHARE` of it for the race). None
        (default): race when ``count_limit`` is 1, else run ``variant`` alone (counting needs
        the whole space once).
    variant : Variant or None
        The search run when not racing (row by row from the north-west corner by default);
        None: the fastest way to count (once the default one has not finished within a few
        milliseconds): by the frame (:mod:`.edge_frame`) for Eternity II-family puzzles
        with rotations, else the :func:`counting_variant`, chosen by the estimated
        size of its tree.
    threads : int or None
        Threads to search on (None: the cores this process may use, up to 8). Counting splits
        the search into subtrees, restarts are shared out; the count, the status and the
        kept arrangements do not depend on the threads (only ``nodes`` may, when counting).
    progress : callable or None
        ``progress(done, total, stage)`` as a split count's subtrees finish (a long count's
        progress bar; called from the searching threads).

    :raises ValueError: on a piece count other than width x height, a grid outside the
        limits, a bad mate table, near colors (:attr:`EdgeProblem.near`), a count limit below
        1, no threads or an unknown order.
    :raises RuntimeError: if an arrangement fails the edge-by-edge re-check (a bug).
    """
    from asterion.solver import edge_search_parallel as parallel  # it builds on this module

    began = time.perf_counter()
    start = search_clock()  # stands still while numba compiles (a machine's first run)
    _validate(problem, count_limit, keep)
    threads = parallel.default_threads() if threads is None else threads
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    if variant is not None:  # an unknown order or corner raises here
        cell_order(2, 2, variant.order, variant.start)
    mate = _mate_table(problem)
    reason = _precheck(problem, mate)
    if reason is not None:
        return EdgeSearchResult(
            status=Status.INFEASIBLE,
            count=0,
            complete=True,
            wall_time=time.perf_counter() - began,
            engine="search",
            notes=(reason,),
        )

    racing = count_limit == 1 if race is None else race
    deadline = start + time_limit
    restarts = parallel.Restarts(threads)
    winner: Run | parallel.Tally | None = None
    if racing:
        runs = [Run(problem, v, count_limit, keep) for v in race_variants(problem)]
        if count_limit == 1:
            until = start + RESTART_SHARE * time_limit
            winner = restarts.run(problem, runs, keep, until, deadline)
        if winner is None and not restarts.exhaustive:
            winner = parallel.race(runs, deadline, threads)
        winner = winner or runs[0]  # the restarts ran out of time: unknown
        nodes = restarts.nodes + sum(run.nodes for run in runs)
    else:
        winner = parallel.count_split(
            problem, variant, count_limit, keep, deadline, threads, progress
        )
        runs, nodes = [], winner.nodes

    solutions = tuple(
        _arrangement(problem, winner.tables, winner.kept[i]) for i in range(min(winner.count, keep))
    )
    for arrangement in solutions:
        mismatches = check_arrangement(problem, arrangement)
        if mismatches:
            raise RuntimeError(f"search produced an invalid arrangement: {mismatches[0]}")
    count, outcome = winner.count, winner.outcome
    status = edge_status(count, reached=outcome == LIMIT, exhausted=outcome == EXHAUSTED)
    how = f" (first of {len(runs)} raced)" if racing else ""
    if restarts.exhaustive and winner in runs:
        how = f" (none found in {restarts.done} turns of the restarts)"
    if racing and winner not in runs:
        after = "" if restarts.exhaustive else f"; {len(runs)} raced after"
        how = f" (turn {restarts.done} of the restarts: {restarts.trial}{after})"
    thread_cpu = restarts.thread_cpu
    if isinstance(winner, parallel.Tally) and not racing:
        how = f" (split into {winner.tasks} subtrees on {threads} threads)"
        if variant is None:
            how = " chosen by estimated tree size" + how
        if winner.method == "frame":
            how = how[how.index(" (") :]
        if winner.tasks == 1:
            how = " (small: not split)"
        if winner.first_try:
            how += "; the clock stopped it before the split found as many as its first try"
        thread_cpu = winner.thread_cpu
    method = f"variant={winner.variant}"
    if isinstance(winner, parallel.Tally) and winner.method == "frame":
        method = "by the frame: insides searched, rings " + ("fitted" if racing else "counted")
    notes: tuple[str, ...] = (
        method + how,
        "numba" if HAVE_NUMBA else "pure Python (numba missing)",
    )
    if thread_cpu:
        notes += ("threads' CPU seconds: " + "/".join(f"{t:.2f}" for t in thread_cpu),)
    return EdgeSearchResult(
        status=status,
        count=count,
        complete=outcome == EXHAUSTED,
        solutions=solutions,
        nodes=nodes,
        wall_time=time.perf_counter() - began,
        engine="search",
        notes=notes,
    )


class Slices(Protocol):
    """A search run slice by slice: :class:`Run`, or :class:`.edge_frame.FrameRun`."""

    def advance(self, budget: int) -> None: ...

    @property
    def outcome(self) -> int: ...

    @property
    def count(self) -> int: ...

    @property
    def nodes(self) -> int: ...

    @property
    def kept(self) -> IntArray: ...


S = TypeVar("S", bound=Slices)


def run_alone(run: S, deadline: float, stop: Callable[[], bool] | None = None) -> S:
    """Run one search in slices sized to about :data:`SLICE_SECONDS` until done, late, or
    ``stop()`` says so (another thread's answer made this one moot)."""
    budget = FIRST_SLICE
    while True:
        slice_start = search_clock()
        run.advance(budget)
        now = search_clock()
        if run.outcome != RUNNING or now >= deadline or (stop is not None and stop()):
            return run
        took = max(now - slice_start, 1e-4)
        budget = int(min(max(budget * SLICE_SECONDS / took, 1000), budget * 4, 1 << 30))


def luby(k: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... at ``k`` >= 1 (the cutoffs of restart k).

    >>> [luby(k) for k in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    while True:
        top = 1
        while (1 << top) - 1 < k:
            top += 1
        if k == (1 << top) - 1:
            return 1 << (top - 1)
        k -= (1 << (top - 1)) - 1


def shuffled(tables: Tables, seed: int, rarity_of: npt.NDArray[np.float64] | None = None) -> Tables:
    """The same tables with each candidate list (one key's segment) in a seeded random order,
    biased by :data:`RESTART_BIAS` towards pieces of high ``rarity_of[piece]`` when given.

    The lists are searched by the loop that scans them (no candidate words): words try the
    pieces in one order for every list, and restarts with one random order of the pieces
    (by bits) needed twice the placements of shuffled lists to a first 7x7 3/6 arrangement
    (mean over seeds 0-39), more than the words' speed gives back."""
    rng = np.random.default_rng(seed)
    segment = np.repeat(np.arange(len(tables.seg_len)), tables.seg_len)
    draw = rng.random(len(segment))
    if rarity_of is not None:
        draw -= RESTART_BIAS * rarity_of[tables.cand_piece]
    order = np.lexsort((draw, segment))
    candidates, cand_piece = tables.candidates[order], tables.cand_piece[order]
    return replace(tables, candidates=candidates, cand_piece=cand_piece, words=None)


def rarity(problem: EdgeProblem) -> npt.NDArray[np.float64]:
    """Per piece, how rare its colors are, scaled to 0..1 over the pieces: the sum over its
    non-border sides of -log(share of all sides carrying that color).

    Why: the search dies in its last rows, when the pieces left do not fit each other; placing
    pieces of rare colors early leaves common, easily matched ones for the end.

    >>> rarity(EdgeProblem(((1, 1, 2, 0), (2, 2, 2, 0)), 2, 1, True)).tolist()  # 1 is rarer
    [1.0, 0.0]
    """
    sides = np.array(problem.pieces, dtype=np.int64)
    counts = np.bincount(sides.ravel())
    surprise = -np.log(np.maximum(counts, 1) / sides.size)
    score = np.where(sides != BORDER, surprise[sides], 0.0).sum(axis=1)
    spread = score.max() - score.min()
    return (score - score.min()) / spread if spread > 0 else np.zeros(len(score))


def _validate(problem: EdgeProblem, count_limit: int, keep: int) -> None:
    for name, side in (("width", problem.width), ("height", problem.height)):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(f"grid {name} {side} is outside {MIN_SIDE}..{MAX_SIDE}")
    if len(problem.pieces) != problem.width * problem.height:
        raise ValueError(
            f"{len(problem.pieces)} pieces for a {problem.width}x{problem.height} grid"
        )
    if count_limit < 1:
        raise ValueError(f"count_limit must be at least 1, got {count_limit}")
    if problem.near is not None:
        raise ValueError("the search matches sides by mates alone; near colors it cannot take")
    if not 0 <= min(keep, count_limit) <= MAX_KEEP:
        raise ValueError(f"keep must be in 0..{MAX_KEEP}, got {keep}")


def _arrangement(problem: EdgeProblem, tables: Tables, placed: IntArray) -> Arrangement:
    def at(r: int, c: int) -> Placement:
        o = placed[r * problem.width + c]
        return Placement(int(tables.piece[o]), int(tables.turns[o]))

    return tuple(tuple(at(r, c) for c in range(problem.width)) for r in range(problem.height))
