"""A fast exact search engine for edge matching (the hard Eternity II family, issue 4).

The idea: lay pieces cell by cell in a fixed order (by default row by row, north first), and at
each cell try only the oriented pieces whose sides already fit. The fit is looked up, not
tested: every cell of the order is of one *kind* (which of its sides lie on the border, and
which two sides are keyed), and for each kind a table maps the two keyed colors to the list of
oriented pieces that carry them, with exactly the cell's border sides colored 0. Other sides
facing an already placed neighbour are checked in the loop; used pieces are skipped by a flag
per piece. The loop is an explicit stack, compiled with numba (the module still imports and
answers without numba, some hundred times slower).

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
restarts (:class:`_Restarts`): short runs of the same variants with each candidate list in a
seeded random order, cut off after a Luby sequence of step budgets; a restart that finishes
answers (a found arrangement, or a whole space searched: no arrangement). Counting runs one
variant over the whole space.

Measured (benchmarks/bench_nacht.py, docs/benchmarks.md): row by row beats column-free
alternatives (border ring first, spiral, anti-diagonals: 3 to 8 times the nodes when counting
every 6 x 6); counting by color (the open sides of each color must pair up with the unused
pieces' sides) is not used: along a row scan its parity half never fails while the whole set
pairs up, and its "enough sides left" half only bites in the last row.

>>> from asterion.models.edge_puzzles import generate
>>> result = search_arrangements(generate(4, 4, 2, 2, seed=3), count_limit=10**6)
>>> result.status.value, result.complete, result.count > 0
('optimal', True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

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
from asterion.solver.edge_result import EdgeSearchResult
from asterion.solver.result import Status

F = TypeVar("F", bound=Callable[..., Any])

try:  # numba compiles the hot loop; without it the same code runs as plain Python.
    from numba import njit as _numba_njit  # type: ignore[import-untyped,unused-ignore]

    HAVE_NUMBA = True

    def _compiled(func: F) -> F:
        return _numba_njit(cache=True, nogil=True)(func)  # type: ignore[return-value]

except ImportError:  # pragma: no cover - exercised only where numba is missing
    HAVE_NUMBA = False

    def _compiled(func: F) -> F:
        return func


__all__ = [
    "CORNERS",
    "ORDERS",
    "Variant",
    "cell_order",
    "corner_pieces",
    "race_variants",
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
RESTART_SHARE = 0.5
"""Restarts may use this share of the time limit; the exhaustive race then runs in the rest."""
SLICE_SECONDS = 0.05
"""The search runs in slices of nodes; each slice is sized to take about this long."""

_RUNNING, _EXHAUSTED, _LIMIT = 0, 1, 2
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
class _Tables:
    """Everything the compiled loop reads; arrays indexed by oriented piece, key or position."""

    colors: IntArray  # [oriented, side]
    piece: IntArray  # [oriented]
    turns: IntArray  # [oriented]
    mate: IntArray  # [color]
    candidates: IntArray  # oriented pieces, grouped by key
    cand_piece: IntArray  # the piece of each candidate (one lookup less in the hot loop)
    seg_start: IntArray  # [key]
    seg_len: IntArray  # [key]
    cell: IntArray  # [position] cell index r * width + c
    base: IntArray  # [position] first key of the position's kind
    key_side: IntArray  # [position, 2] keyed sides
    key_nb: IntArray  # [position, 2] neighbour cell on that side, -1 = outside
    stride: int  # keys per first color (1 = second keyed side checked in the loop)
    extra_side: IntArray  # [position, 3] other sides to check, -1 = none
    extra_nb: IntArray  # [position, 3]
    pin: IntArray  # [position] the only piece allowed there, -1 = any
    ban: IntArray  # [position] a piece not allowed there, -1 = none


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


def _build_tables(problem: EdgeProblem, cells: list[Cell], pinned: int = 0) -> _Tables:
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
    key_side = np.zeros((n, 2), dtype=np.int32)
    key_nb = np.full((n, 2), -1, dtype=np.int32)
    extra_side = np.full((n, 3), -1, dtype=np.int32)
    extra_nb = np.full((n, 3), -1, dtype=np.int32)
    base = np.zeros(n, dtype=np.int32)
    for position, (shape, sides, keys) in enumerate(zip(shapes, known, keyed, strict=True)):
        base[position] = kind_base[shape, keys[0][0], keys[1][0]]
        for j, (side, nb) in enumerate(keys):
            key_side[position, j], key_nb[position, j] = side, nb
        in_key = [side for side, _ in keys] if stride > 1 else [keys[0][0]]
        extras = [(side, nb) for side, nb in sides if side not in in_key]
        for j, (side, nb) in enumerate(extras):
            extra_side[position, j], extra_nb[position, j] = side, nb

    pin, ban = _symmetry_breaking(problem, cells, pinned)
    return _Tables(
        colors=np.array([o[2] for o in oriented], dtype=np.int32).reshape(-1, 4),
        piece=np.array([o[0] for o in oriented], dtype=np.int32),
        turns=np.array([o[1] for o in oriented], dtype=np.int32),
        mate=np.array(mate, dtype=np.int32),
        candidates=flat,
        cand_piece=np.array([o[0] for o in oriented], dtype=np.int32)[flat],
        seg_start=seg_start,
        seg_len=seg_len,
        cell=np.array([r * width + c for r, c in cells], dtype=np.int32),
        base=base,
        key_side=key_side,
        key_nb=key_nb,
        stride=stride,
        extra_side=extra_side,
        extra_nb=extra_nb,
        pin=np.array(pin, dtype=np.int32),
        ban=np.array(ban, dtype=np.int32),
    )


# ---------------------------------------------------------------------------------------------
# The compiled loop


@_compiled
def _search_slice(
    colors: IntArray,
    piece: IntArray,
    mate: IntArray,
    candidates: IntArray,
    cand_piece: IntArray,
    seg_start: IntArray,
    seg_len: IntArray,
    cell: IntArray,
    base: IntArray,
    key_side: IntArray,
    key_nb: IntArray,
    stride: int,
    extra_side: IntArray,
    extra_nb: IntArray,
    pin: IntArray,
    ban: IntArray,
    placed: IntArray,
    used: IntArray,
    cursor: IntArray,
    seg_end: IntArray,
    state: LongArray,
    kept: IntArray,
    count_limit: int,
    budget: int,
) -> None:
    """Run the depth-first search for up to ``budget`` steps, resuming from ``state``.

    ``state`` = [depth, count, nodes, outcome]; ``placed[cell]`` is the oriented piece there
    (-1 empty); ``cursor[position]`` the candidate now tried there (-1 = not entered yet).
    """
    n = cell.shape[0]
    keep = kept.shape[0]
    depth = state[0]
    count = state[1]
    nodes = state[2]
    steps = 0
    while steps < budget:
        if depth == n:  # a full arrangement
            if count < keep:
                for i in range(n):
                    kept[count, i] = placed[i]
            count += 1
            depth -= 1
            if count >= count_limit:
                state[3] = 2
                break
            continue
        here = cell[depth]
        if cursor[depth] < 0:  # entering: look the fitting pieces up
            nb = key_nb[depth, 0]
            c1 = 0 if nb < 0 else mate[colors[placed[nb], (key_side[depth, 0] + 2) % 4]]
            c2 = 0
            if stride > 1:
                nb = key_nb[depth, 1]
                c2 = 0 if nb < 0 else mate[colors[placed[nb], (key_side[depth, 1] + 2) % 4]]
            key = base[depth] + c1 * stride + c2
            i = seg_start[key]
            end = i + seg_len[key]
        else:  # backtracking into this position: take the piece off, try the next one
            used[piece[placed[here]]] = 0
            placed[here] = -1
            i = cursor[depth] + 1
            end = seg_end[depth]
        found = -1
        banned = ban[depth]
        pinned = pin[depth]
        while i < end:
            p = cand_piece[i]
            if used[p] == 0 and p != banned and (pinned < 0 or p == pinned):
                o = candidates[i]
                fits = True
                for j in range(3):
                    side = extra_side[depth, j]
                    if side < 0:
                        break
                    if colors[o, side] != mate[colors[placed[extra_nb[depth, j]], (side + 2) % 4]]:
                        fits = False
                        break
                if fits:
                    found = i
                    break
            i += 1
        steps += 1
        if found >= 0:
            o = candidates[found]
            cursor[depth] = found
            seg_end[depth] = end
            placed[here] = o
            used[piece[o]] = 1
            nodes += 1
            depth += 1
            if depth < n:
                cursor[depth] = -1
        else:
            cursor[depth] = -1
            depth -= 1
            if depth < 0:
                state[3] = 1
                break
    state[0] = depth
    state[1] = count
    state[2] = nodes


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


class _Run:
    """One variant's search, resumable slice by slice."""

    def __init__(
        self,
        problem: EdgeProblem,
        variant: Variant,
        count_limit: int,
        keep: int,
        tables: _Tables | None = None,
    ):
        cells = cell_order(problem.width, problem.height, variant.order, variant.start)
        self.variant = variant
        self.tables = _build_tables(problem, cells, variant.pinned) if tables is None else tables
        n = len(cells)
        self.count_limit = min(count_limit, 1 << 62)
        self.placed = np.full(n, -1, dtype=np.int32)
        self.used = np.zeros(len(problem.pieces), dtype=np.int32)
        self.cursor = np.full(n, -1, dtype=np.int32)
        self.seg_end = np.zeros(n, dtype=np.int32)
        self.state = np.zeros(4, dtype=np.int64)
        self.kept = np.full((min(keep, count_limit), n), -1, dtype=np.int32)

    def advance(self, budget: int) -> None:
        t = self.tables
        _search_slice(
            t.colors,
            t.piece,
            t.mate,
            t.candidates,
            t.cand_piece,
            t.seg_start,
            t.seg_len,
            t.cell,
            t.base,
            t.key_side,
            t.key_nb,
            t.stride,
            t.extra_side,
            t.extra_nb,
            t.pin,
            t.ban,
            self.placed,
            self.used,
            self.cursor,
            self.seg_end,
            self.state,
            self.kept,
            self.count_limit,
            budget,
        )

    @property
    def outcome(self) -> int:
        return int(self.state[3])

    @property
    def count(self) -> int:
        return int(self.state[1])

    @property
    def nodes(self) -> int:
        return int(self.state[2])


def race_variants(problem: EdgeProblem) -> list[Variant]:
    """The variants raced for a first arrangement: row and column scans, each from every
    distinct corner piece pinned (rotations on) or from every corner (rotations off).

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
        for order in ("row", "column")
        for start in starts
    ]


def search_arrangements(
    problem: EdgeProblem,
    *,
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = 10.0,
    race: bool | None = None,
    variant: Variant = Variant(),
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
        INFEASIBLE.
    race : bool or None
        Run the :func:`race_variants` side by side in equal slices and answer with the first
        to finish (to find one arrangement fast); with ``count_limit`` 1, randomized restarts
        first, for up to :data:`RESTART_SHARE` of the time limit. None (default): race when
        ``count_limit`` is 1, else run ``variant`` alone (counting needs the whole space once).
    variant : Variant
        The search run when not racing (row by row from the north-west corner by default).

    :raises ValueError: on a piece count other than width x height, a grid outside the
        limits, a bad mate table, a count limit below 1 or an unknown order.
    :raises RuntimeError: if an arrangement fails the edge-by-edge re-check (a bug).
    """
    began = time.perf_counter()
    _validate(problem, count_limit, keep)
    cell_order(2, 2, variant.order, variant.start)  # an unknown order or corner raises here
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
    variants = race_variants(problem) if racing else [variant]
    runs = [_Run(problem, v, count_limit, keep) for v in variants]
    deadline = began + time_limit
    winner, restarts = None, _Restarts()
    if racing and count_limit == 1:
        winner = restarts.run(problem, runs, keep, began + RESTART_SHARE * time_limit)
    if winner is None:
        winner = _race(runs, deadline) if racing else _alone(runs[0], deadline)

    solutions = tuple(
        _arrangement(problem, winner.tables, winner.kept[i]) for i in range(min(winner.count, keep))
    )
    for arrangement in solutions:
        mismatches = check_arrangement(problem, arrangement)
        if mismatches:
            raise RuntimeError(f"search produced an invalid arrangement: {mismatches[0]}")
    count, outcome = winner.count, winner.outcome
    if outcome == _EXHAUSTED:
        status = Status.OPTIMAL if count else Status.INFEASIBLE
    elif outcome == _LIMIT:
        status = Status.OPTIMAL
    else:
        status = Status.FEASIBLE if count else Status.UNKNOWN
    how = f" (first of {len(runs)} raced)" if racing else ""
    if winner not in runs:
        how = f" (restart {restarts.done}, candidates shuffled; {len(runs)} raced after)"
    notes = (
        f"variant={winner.variant}" + how,
        "numba" if HAVE_NUMBA else "pure Python (numba missing)",
    )
    return EdgeSearchResult(
        status=status,
        count=count,
        complete=outcome == _EXHAUSTED,
        solutions=solutions,
        nodes=restarts.nodes + sum(run.nodes for run in runs),
        wall_time=time.perf_counter() - began,
        engine="search",
        notes=notes,
    )


def _alone(run: _Run, deadline: float) -> _Run:
    """Run one search in slices sized to about :data:`SLICE_SECONDS` until done or late."""
    budget = FIRST_SLICE
    while True:
        slice_start = time.perf_counter()
        run.advance(budget)
        now = time.perf_counter()
        if run.outcome != _RUNNING or now >= deadline:
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


def _shuffled(tables: _Tables, seed: int) -> _Tables:
    """The same tables with each candidate list (one key's segment) in a seeded random order."""
    rng = np.random.default_rng(seed)
    segment = np.repeat(np.arange(len(tables.seg_len)), tables.seg_len)
    order = np.lexsort((rng.random(len(segment)), segment))
    return replace(tables, candidates=tables.candidates[order], cand_piece=tables.cand_piece[order])


class _Restarts:
    """Randomized restarts for a first arrangement (Gomes, Selman and Kautz): restart k runs
    the raced variants in turn with shuffled candidate lists for ``luby(k) * RESTART_BASE``
    steps. Times to a first arrangement are heavy-tailed; short shuffled runs cut the tail."""

    def __init__(self) -> None:
        self.done = 0  # restarts begun
        self.nodes = 0  # placements made by all of them

    def run(self, problem: EdgeProblem, runs: list[_Run], keep: int, until: float) -> _Run | None:
        """The run that finished (found one, or searched its whole space: each run is
        complete, only its order of trial differs), or None when the clock passes ``until``
        (the caller then races ``runs`` without cutoff)."""
        while time.perf_counter() < until:
            self.done += 1
            base = runs[(self.done - 1) % len(runs)]
            tables = _shuffled(base.tables, RESTART_SEED + self.done)
            run = _Run(problem, base.variant, 1, keep, tables)
            left = luby(self.done) * RESTART_BASE
            while left > 0 and run.outcome == _RUNNING and time.perf_counter() < until:
                run.advance(min(left, RACE_SLICE))
                left -= RACE_SLICE
            self.nodes += run.nodes
            if run.outcome != _RUNNING:
                return run
        return None


def _race(runs: list[_Run], deadline: float) -> _Run:
    """Round-robin in equal slices of :data:`RACE_SLICE` steps (so the winner does not depend
    on the machine's speed); the first run to finish wins, else the one with most found."""
    while True:
        for run in runs:
            run.advance(RACE_SLICE)
            if run.outcome != _RUNNING:
                return run
        if time.perf_counter() >= deadline:
            return max(runs, key=lambda r: r.count)


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
    if not 0 <= min(keep, count_limit) <= MAX_KEEP:
        raise ValueError(f"keep must be in 0..{MAX_KEEP}, got {keep}")


def _arrangement(problem: EdgeProblem, tables: _Tables, placed: IntArray) -> Arrangement:
    def at(r: int, c: int) -> Placement:
        o = placed[r * problem.width + c]
        return Placement(int(tables.piece[o]), int(tables.turns[o]))

    return tuple(tuple(at(r, c) for c in range(problem.width)) for r in range(problem.height))
