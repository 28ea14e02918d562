"""Edge matching by forward checking, in plain Python: the engine for designed tile sets.

A designed set (a sky cut into tiles, rules/nacht.md) has many distinct fragment colors, so
once a few tiles lie, most cells have one candidate left. This engine keeps each empty cell's
candidates (oriented pieces that fit every placed neighbour and are not used elsewhere), fills
the cell with the fewest first, and gives up a branch as soon as some cell has none. On such
sets it settles existence and uniqueness in a few hundred nodes, with nothing to load: no
OR-Tools, no compiled kernel, which is what lets ``asterion nacht verify`` answer for the
shipped sky in a fraction of a second.

Only the cells next to a placed piece keep lists; they are drawn from the options filed by the
color they show on each side, and the other cells are counted by kind (which sides lie
outside): no kind may have more empty cells than unused pieces that fit it. A 32 x 32 set has
some 4,000 options a cell: lists for every cell, copied at each node, took 5 GB and over a
minute on a designed set that now takes half a second (benchmarks, twenty-second round).

On the Eternity II family (few colors) it is hopeless; ``node_limit`` bounds the effort so that
the portfolio (solver/nacht_solve.py) can hand the set on to CP-SAT. Counting conventions are
CP-SAT's (solver/edge_cpsat.py): with rotations on, the lowest-numbered corner piece is held in
the anchor cells, so each class of arrangements under whole-picture turns is counted once.

>>> from asterion.models.edges import EdgeProblem
>>> two_by_two = EdgeProblem(((0, 1, 2, 0), (0, 0, 3, 1), (2, 4, 0, 0), (3, 0, 0, 4)), 2, 2)
>>> result = propagate_arrangements(two_by_two, count_limit=5)
>>> result.status.value, result.count, result.complete
('optimal', 1, True)
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

from asterion.models.edges import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Arrangement,
    Cell,
    EdgeProblem,
    Placement,
    anchor_cells,
    anchor_piece,
    check_arrangement,
    fits_outside,
    orientations,
    outside_of,
    turn,
)
from asterion.solver.edge_result import EdgeSearchResult, edge_status
from asterion.solver.result import DEFAULT_TIME_LIMIT

Option = tuple[int, int, tuple[int, int, int, int]]
"""A candidate for a cell: piece, quarter turns, and the colors it then shows (N, E, S, W)."""

Domains = dict[Cell, list[Option]]

LONG = 256
"""A cell's candidate list longer than this is not copied at every node to drop the piece
just placed (a blank tile of a large cut sky has some 800 alike candidates, and copying such
lists took 9 ms a node): its used pieces are dropped when it gains a placed neighbour or is
chosen. Shorter lists stay exact, so every cell with none left is seen at once."""

Kind = tuple[bool, bool, bool, bool]
"""Which sides of a cell lie on the outside (N, E, S, W): before any neighbour is placed, a
cell's candidates depend on nothing else."""

# A neighbour in each direction, and which of its sides faces back.
_STEPS = ((NORTH, -1, 0, SOUTH), (EAST, 0, 1, WEST), (SOUTH, 1, 0, NORTH), (WEST, 0, -1, EAST))


class _Stop(Exception):
    """Raised inside the recursion when a limit (count, nodes, time) ends the search."""


class _Table:
    """Each kind of cell's options, also filed by the color each shows on each side: a cell's
    candidates come from the shortest list its placed neighbours select, not from filtering
    every option (a 32 x 32 set has some 4,000 options a cell)."""

    def __init__(self, problem: EdgeProblem) -> None:
        self.kind_of = {cell: outside_of(problem, cell) for cell in problem.cells()}
        self.cells_of: dict[Kind, list[Cell]] = {}
        for cell, kind in self.kind_of.items():  # (in reading order)
            self.cells_of.setdefault(kind, []).append(cell)
        # With rotations, the anchor piece lies only in the anchor cells (corners, each a
        # kind of its own), so that each class of whole-picture turns is met once.
        anchor = anchor_piece(problem) if problem.whole_turns() > 1 else None
        anchored = {self.kind_of[cell] for cell in anchor_cells(problem)}
        self.anchor = anchor
        oriented = [
            (index, k, turn(piece, k))
            for index, piece in enumerate(problem.pieces)
            for k in orientations(piece, problem.rotations)
        ]
        self.options: dict[Kind, list[Option]] = {}
        self.by_side: dict[tuple[Kind, int, int], list[Option]] = {}
        for kind in self.cells_of:
            self.options[kind] = [
                option
                for option in oriented
                if fits_outside(option[2], kind) and (option[0] != anchor or kind in anchored)
            ]
            for option in self.options[kind]:
                for side in range(4):
                    self.by_side.setdefault((kind, side, option[2][side]), []).append(option)
        self.kinds_of_piece: dict[int, list[Kind]] = {}
        for kind, options in self.options.items():
            for piece in sorted({option[0] for option in options}):
                self.kinds_of_piece.setdefault(piece, []).append(kind)


@dataclass
class _Search:
    problem: EdgeProblem
    count_limit: int
    keep: int
    node_limit: int | None
    deadline: float
    count: int = 0
    nodes: int = 0
    stopped_by_limit: bool = False

    def __post_init__(self) -> None:
        self.solutions: list[Arrangement] = []
        self.table = _Table(self.problem)
        self.placed: dict[Cell, Option] = {}
        self.used: set[int] = set()
        self.empty = set(self.table.kind_of)
        # Per kind: its empty cells, and the unused pieces that fit it in some turn.
        self.empty_of = {kind: len(cells) for kind, cells in self.table.cells_of.items()}
        self.free_of = dict.fromkeys(self.table.cells_of, 0)
        for kinds in self.table.kinds_of_piece.values():
            for kind in kinds:
                self.free_of[kind] += 1

    def run(self, domains: Domains) -> None:
        """Search on from here; ``domains`` holds the candidates of the empty cells next to a
        placed one (the others have their kind's unused options)."""
        self.nodes += 1
        # The clock at every node: on a large set one node can take a millisecond or more.
        over_nodes = self.node_limit is not None and self.nodes > self.node_limit
        if over_nodes or time.perf_counter() > self.deadline:
            self.stopped_by_limit = True
            raise _Stop
        if not self.empty:
            self._record()
            return
        if any(self.free_of[kind] < empty for kind, empty in self.empty_of.items()):
            return  # fewer unused pieces fit a kind of cell than it has empty cells
        chosen = self._fewest(domains)
        if chosen is None:
            return
        cell, options = chosen
        # A piece that shows here the colors of one whose subtree held no arrangement holds
        # none either: swapping the two pieces in one would give one below the first. So a
        # set of many alike tiles (a cut sky's blank ones) is not tried tile by tile. (Not
        # the anchor piece, which may lie only in the anchor cells: a swap could move it.)
        barren: set[tuple[int, int, int, int]] = set()
        for option in options:
            if option[2] in barren and option[0] != self.table.anchor:
                continue
            narrowed = self._narrow(domains, cell, option)
            if narrowed is None:
                barren.add(option[2])
                continue
            found = self.count
            self._place(cell, option, -1)
            self.run(narrowed)
            self._place(cell, option, +1)
            if self.count == found:
                barren.add(option[2])

    def _fewest(self, domains: Domains) -> tuple[Cell, list[Option]] | None:
        """The empty cell with the fewest candidates, and those (ties: the first in reading
        order); None if it has none left (a :data:`LONG` list counts used pieces)."""
        best = min(((len(o), cell) for cell, o in domains.items()), default=None)
        for cell in self._open_cells(domains, None if best is None else best[0]):
            kind = self.table.kind_of[cell]
            options = [o for o in self.table.options[kind] if o[0] not in self.used]
            if best is None or (len(options), cell) < best:
                best = (len(options), cell)
                domains = {**domains, cell: options}
        assert best is not None  # some cell is empty
        options = domains[best[1]]
        if len(options) > LONG:
            options = [o for o in options if o[0] not in self.used]
        return (best[1], options) if options else None

    def _open_cells(self, domains: Domains, below: int | None) -> list[Cell]:
        """Of each kind that may have at most ``below`` candidates (every kind when None), its
        first empty cell with no placed neighbour: the unused pieces that fit a kind bound its
        candidates from below, and such cells of one kind tie."""
        found = []
        for kind, cells in self.table.cells_of.items():
            if below is None or self.free_of[kind] <= below:
                open_cells = (c for c in cells if c in self.empty and c not in domains)
                first = next(open_cells, None)
                if first is not None:
                    found.append(first)
        return found

    def _narrow(self, domains: Domains, cell: Cell, option: Option) -> Domains | None:
        """The candidates of the cells next to a placed one once ``option`` lies in ``cell``
        (None: one of them has none)."""
        piece, _, colors = option
        facing = {
            beyond: (back, self.problem.facing(colors[side]))
            for side, beyond, back in _neighbours(cell)
            if beyond in self.empty and beyond != cell
        }
        narrowed: Domains = {}
        for other, options in domains.items():
            if other == cell:
                continue
            need = facing.pop(other, None)
            exact = len(options) <= LONG
            if need is None and not exact:
                narrowed[other] = options  # kept as it is: used pieces are dropped later
                continue
            kept = [
                o
                for o in options
                if o[0] != piece
                and (need is None or o[2][need[0]] in need[1])
                and (exact or o[0] not in self.used)
            ]
            if not kept:
                return None
            narrowed[other] = kept
        for other, (side, wanted) in facing.items():  # cells with their first placed neighbour
            kind = self.table.kind_of[other]
            kept = [
                o
                for color in wanted
                for o in self.table.by_side.get((kind, side, color), [])
                if o[0] != piece and o[0] not in self.used
            ]
            if not kept:
                return None
            narrowed[other] = kept
        return narrowed

    def _place(self, cell: Cell, option: Option, step: int) -> None:
        """Lay ``option`` in ``cell`` (step -1) or lift it (+1); the counts per kind follow."""
        if step < 0:
            self.placed[cell] = option
            self.used.add(option[0])
            self.empty.discard(cell)
        else:
            del self.placed[cell]
            self.used.discard(option[0])
            self.empty.add(cell)
        self.empty_of[self.table.kind_of[cell]] += step
        for kind in self.table.kinds_of_piece.get(option[0], ()):
            self.free_of[kind] += step

    def _record(self) -> None:
        self.count += 1
        if len(self.solutions) < self.keep:
            problem = self.problem
            arrangement = tuple(
                tuple(Placement(*self.placed[(r, c)][:2]) for c in range(problem.width))
                for r in range(problem.height)
            )
            mismatches = check_arrangement(problem, arrangement)
            if mismatches:
                raise RuntimeError(f"propagation arrangement fails the re-check: {mismatches[0]}")
            self.solutions.append(arrangement)
        if self.count >= self.count_limit:
            raise _Stop


def propagate_arrangements(
    problem: EdgeProblem,
    *,
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
) -> EdgeSearchResult:
    """Up to ``count_limit`` arrangements (classes under whole-picture turns with rotations),
    the first ``keep`` of them, within ``time_limit`` seconds and ``node_limit`` nodes.

    Stopped by either limit, the answer is FEASIBLE (some found) or UNKNOWN (none), never
    INFEASIBLE; the node limit makes that outcome the same on every machine.
    """
    started = time.perf_counter()
    search = _Search(problem, count_limit, keep, node_limit, started + time_limit)
    if len(problem.pieces) == problem.width * problem.height:
        # A level of recursion a cell: a 32 x 32 set goes past Python's default 1,000.
        with _recursion_room(len(problem.pieces) + 100), contextlib.suppress(_Stop):
            search.run({})  # (a limit ended it, if _Stop: the counts say which)
    reached = search.count >= count_limit
    complete = not search.stopped_by_limit and not reached
    status = edge_status(search.count, reached=reached, exhausted=complete)
    return EdgeSearchResult(
        status=status,
        count=search.count,
        complete=complete,
        solutions=tuple(search.solutions),
        nodes=search.nodes,
        wall_time=time.perf_counter() - started,
        engine="propagate",
    )


def _neighbours(cell: Cell) -> list[tuple[int, Cell, int]]:
    """(side, the cell beyond it, that cell's side facing back) for each side of ``cell``."""
    return [(side, (cell[0] + dr, cell[1] + dc), back) for side, dr, dc, back in _STEPS]


@contextlib.contextmanager
def _recursion_room(depth: int) -> Iterator[None]:
    """At least ``depth`` levels of recursion while inside, the old limit restored after."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, depth))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
