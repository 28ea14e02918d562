"""Edge matching with CP-SAT: arrange the pieces, count the arrangements.

The model (one Boolean per cell, piece and distinct orientation that puts border colors
exactly on the cell's outside sides):

- each cell holds one oriented piece, each piece lies in one cell;
- for every inner edge and every color ``k``: the number of placements whose facing side is
  ``k`` on one side of the edge equals the number whose facing side mates ``k`` on the other
  (both sums are 0 or 1, so this says "the two sides fit", and it is the tight linear form);
  where some colors are near others (``EdgeProblem.near``), a placement showing ``k`` asks
  for one showing a color that fits ``k`` across the edge instead;
- with rotations on, the lowest-numbered corner piece (two adjacent border sides, so it can
  only sit in a corner) is held in the north-west corner (square grids) or one of the two
  northern corners (otherwise): exactly one member of each class of arrangements under
  whole-picture turns satisfies that, so enumeration counts classes.

Pieces that show the same sides (in some turn, with rotations) are one *kind*: one Boolean
per cell, kind and orientation, and as many cells of a kind as it has pieces. Pieces are
told apart by id, so each arrangement of kinds stands for ``m!`` arrangements per kind of
``m`` pieces (the same for all), which the count multiplies in and the kept arrangements
spell out. A cut sky is mostly blank tiles alike: a 16 x 16 cut of the shipped chart has 98
kinds of 256 tiles, and its first arrangement took 3.5 s instead of 8.7 s. The anchor's kind
stays piece by piece (the class of turns is told by that very piece).

*Forced links* (tiles that do not turn): where a piece's side can face only one other piece
at all (one piece in the set shows a color that fits it, on the facing side), those two are
side by side in every arrangement; such links tie a sky's line-bearing tiles into rigid
*islands* (:func:`forced_islands`). Each island's pieces share its first piece's Booleans,
shifted, so it is placed as a whole, at the positions where all its pieces may sit. The
same arrangements, fewer Booleans: a 32 x 32 cut of the shipped chart has 31 islands of 173
tiles (benchmarks, thirty-first round).

Building the model counts against the time limit: a 32 x 32 set has millions of Booleans,
and building them took a minute where the limit said five seconds. Large models get a short
presolve (:data:`LIGHT_PRESOLVE`).

Counting enumerates solutions up to the limit. Every arrangement is re-checked side by side
(:func:`asterion.models.edges.check_arrangement`) before it is returned.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence

from ortools.sat.python import cp_model

from asterion.models.edges import (
    BORDER,
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Arrangement,
    Cell,
    EdgeProblem,
    Placement,
    alike_pieces,
    allowed,
    anchor_cells,
    anchor_piece,
    check_arrangement,
    orientations,
    turn,
)
from asterion.solver.edge_result import EdgeSearchResult, edge_status
from asterion.solver.result import DEFAULT_TIME_LIMIT, OutOfTime, check_clock, make_solver

LIGHT_PRESOLVE = 10_000
"""Booleans above which CP-SAT's presolve runs one round without probing. On cut skies its
full presolve took most of the time (a 24 x 24 cut of the shipped chart: 9.7 s of 15 s, its
clauses grown to 4.4 million literals): cuts of 16 x 16, 20 x 20 and 24 x 24 now take 1.7,
3.3 and 7.9 s instead of 2.5, 9.0 and 17.5 s, and a 32 x 32 is arranged in 51 s where it was
unknown at 60 s. Small models keep the full presolve: the Eternity II family's 6 x 6 sets
(some 1,100 Booleans) ran from 6 s to over 60 s either way, seed by seed (benchmarks,
twenty-eighth round)."""


class _Model:
    def __init__(self, problem: EdgeProblem, deadline: float = float("inf")):
        self.problem = problem
        self.deadline = deadline
        self.model = cp_model.CpModel()
        self.kinds = alike_pieces(problem)
        self.x: dict[tuple[Cell, int, int], cp_model.IntVar] = {}
        anchor = anchor_piece(problem) if problem.whole_turns() > 1 else None
        anchor_at = set(anchor_cells(problem))
        islands = forced_islands(problem, self.kinds)
        may: set[tuple[Cell, int, int]] = set()
        for cell in problem.cells():
            check_clock(self.deadline)
            for piece, k in allowed(problem, cell):
                if piece not in self.kinds or (piece == anchor and cell not in anchor_at):
                    continue
                if piece in islands:
                    may.add((cell, piece, k))
                else:
                    self.x[cell, piece, k] = self.model.new_bool_var(f"x{cell}p{piece}t{k}")
        self._place_islands(islands, may)
        self.at: dict[Cell, list[tuple[int, int, cp_model.IntVar]]] = defaultdict(list)
        by_kind: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        for (cell, piece, k), var in self.x.items():
            self.at[cell].append((piece, k, var))
            by_kind[piece].append(var)
        for cell in problem.cells():
            self.model.add_exactly_one(var for _, _, var in self.at[cell])
        for kind, members in self.kinds.items():
            self.model.add(sum(by_kind[kind]) == len(members))
        self._add_edges()

    def _place_islands(
        self, islands: dict[int, tuple[int, int, int]], may: set[tuple[Cell, int, int]]
    ) -> None:
        """One Boolean per position of an island's first piece where every piece of the island
        may sit (unturned), shared by the pieces at their offsets."""
        members: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for piece, (first, dr, dc) in islands.items():
            members[first].append((piece, dr, dc))
        for first, pieces in members.items():
            for r, c in self.problem.cells():
                cells = [((r + dr, c + dc), piece) for piece, dr, dc in pieces]
                if all((cell, piece, 0) in may for cell, piece in cells):
                    var = self.model.new_bool_var(f"i{first}at{r},{c}")
                    for cell, piece in cells:
                        self.x[cell, piece, 0] = var

    @property
    def copies(self) -> int:
        """The arrangements of pieces each arrangement of kinds stands for."""
        return math.prod(math.factorial(len(members)) for members in self.kinds.values())

    def _side_sums(self, cell: Cell, side: int, mated: bool) -> dict[int, list[cp_model.IntVar]]:
        sums: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        for piece, k, var in self.at[cell]:
            color = turn(self.problem.pieces[piece], k)[side]
            sums[self.problem.mate_of(color) if mated else color].append(var)
        return sums

    def _add_edges(self) -> None:
        problem = self.problem
        for r, c in problem.cells():
            check_clock(self.deadline)
            pairs = []
            if c + 1 < problem.width:
                pairs.append(((r, c + 1), EAST, WEST))
            if r + 1 < problem.height:
                pairs.append(((r + 1, c), SOUTH, NORTH))
            for other, side, facing in pairs:
                mine = self._side_sums((r, c), side, mated=False)
                if problem.near is None:
                    theirs = self._side_sums(other, facing, mated=True)
                    for color in set(mine) | set(theirs):
                        self.model.add(sum(mine.get(color, [])) == sum(theirs.get(color, [])))
                    continue
                shown = self._side_sums(other, facing, mated=False)
                for color, placed in mine.items():  # (a color shown here wants one that fits)
                    fitting = [var for f in problem.facing(color) for var in shown.get(f, [])]
                    self.model.add(sum(placed) <= sum(fitting))

    def arrangement(
        self, value: cp_model.CpSolverSolutionCallback | cp_model.CpSolver
    ) -> Arrangement:
        chosen = {cell: Placement(p, k) for (cell, p, k), var in self.x.items() if value.value(var)}
        return tuple(
            tuple(chosen[r, c] for c in range(self.problem.width))
            for r in range(self.problem.height)
        )

    def spelled_out(self, arrangement: Arrangement) -> Iterator[Arrangement]:
        """The arrangements of pieces an arrangement of kinds stands for: each kind's pieces
        in every order over its cells (row by row), each turned to show the kind's sides."""
        cells: dict[int, list[Cell]] = defaultdict(list)
        for r, row in enumerate(arrangement):
            for c, placed in enumerate(row):
                cells[placed.piece].append((r, c))
        shared = [(kind, where) for kind, where in cells.items() if len(where) > 1]
        for orders in _lazy_product([list(self.kinds[kind]) for kind, _ in shared]):
            grid = [list(row) for row in arrangement]
            for (kind, where), order in zip(shared, orders, strict=True):
                for (r, c), piece in zip(where, order, strict=True):
                    grid[r][c] = Placement(piece, self._showing(piece, kind, grid[r][c].turns))
            yield tuple(tuple(row) for row in grid)

    def _showing(self, piece: int, kind: int, turns: int) -> int:
        """The orientation of ``piece`` that shows ``kind``'s sides turned ``turns`` times."""
        pieces = self.problem.pieces
        wanted = turn(pieces[kind], turns)
        return next(
            k
            for k in orientations(pieces[piece], self.problem.rotations)
            if turn(pieces[piece], k) == wanted
        )


def forced_islands(
    problem: EdgeProblem, kinds: dict[int, tuple[int, ...]]
) -> dict[int, tuple[int, int, int]]:
    """Pieces tied together by forced links, tiles fixed: each piece of an island of two or
    more, with the island's first piece and its offset (rows, columns) from it.

    A side whose color is not the border's faces another piece in every arrangement, and if
    only one other piece shows, on the facing side, a color that fits it, that piece is
    there: the two are side by side, at this offset, in every arrangement. Pieces of kinds
    with several members are left out (which of them is where is not forced)."""
    if problem.rotations:
        return {}
    single = {members[0] for members in kinds.values() if len(members) == 1}
    showing: dict[tuple[int, int], list[int]] = defaultdict(list)
    for piece, colors in enumerate(problem.pieces):
        for side, color in enumerate(colors):
            showing[side, color].append(piece)
    step = {NORTH: (-1, 0), EAST: (0, 1), SOUTH: (1, 0), WEST: (0, -1)}
    links: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for piece in sorted(single):
        for side, color in enumerate(problem.pieces[piece]):
            facing = (side + 2) % 4
            fitting = [q for f in problem.facing(color) for q in showing[facing, f] if q != piece]
            if color != BORDER and len(fitting) == 1:  # (it has no twin: a twin would fit too)
                dr, dc = step[side]
                links[piece].append((fitting[0], dr, dc))
                links[fitting[0]].append((piece, -dr, -dc))
    return _offsets(links)


def _offsets(links: dict[int, list[tuple[int, int, int]]]) -> dict[int, tuple[int, int, int]]:
    """Each linked piece's island (its lowest piece) and offset, by a walk of the links."""
    placed: dict[int, tuple[int, int, int]] = {}
    for start in sorted(links):
        if start in placed:
            continue
        placed[start] = (start, 0, 0)
        todo = [start]
        while todo:
            piece = todo.pop()
            _, r, c = placed[piece]
            for other, dr, dc in links[piece]:
                if other not in placed:
                    placed[other] = (start, r + dr, c + dc)
                    todo.append(other)
    return placed


def _lazy_product(groups: Sequence[list[int]]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every choice of one order per group, lazily (a group of 100 alike tiles has 100!)."""
    if not groups:
        yield ()
        return
    for order in itertools.permutations(groups[0]):
        for rest in _lazy_product(groups[1:]):
            yield (order, *rest)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Counts arrangements of pieces (``copies`` an arrangement of kinds), keeps kinds'."""

    def __init__(self, model: _Model, count_limit: int, keep: int):
        super().__init__()
        self.model = model
        self.count_limit = count_limit
        self.keep = keep
        self.count = 0
        self.copies = model.copies
        self.solutions: list[Arrangement] = []

    def on_solution_callback(self) -> None:
        self.count += self.copies
        if len(self.solutions) < self.keep:
            self.solutions.append(self.model.arrangement(self))
        if self.count >= self.count_limit:
            self.stop_search()

    def kept(self, count: int) -> tuple[Arrangement, ...]:
        """The first ``min(keep, count)`` arrangements of pieces, spelled out."""
        spelled = (a for kinds in self.solutions for a in self.model.spelled_out(kinds))
        return tuple(itertools.islice(spelled, min(self.keep, count)))


def _solver(model: _Model, time_limit: float, seed: int) -> cp_model.CpSolver:
    """The solver for this model: a short presolve for a large one (:data:`LIGHT_PRESOLVE`)."""
    solver = make_solver(time_limit, seed)
    if len(model.x) > LIGHT_PRESOLVE:
        solver.parameters.max_presolve_iterations = 1
        solver.parameters.cp_model_probing_level = 0
    return solver


def cp_arrangements(
    problem: EdgeProblem,
    *,
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> EdgeSearchResult:
    """Up to ``count_limit`` arrangements (classes under whole-picture turns with rotations),
    the first ``keep`` of them, within ``time_limit`` seconds."""
    started = time.perf_counter()
    try:
        model = _Model(problem, started + time_limit)
    except OutOfTime:
        return EdgeSearchResult(
            status=edge_status(0, reached=False, exhausted=False),
            count=0,
            complete=False,
            solutions=(),
            nodes=0,
            wall_time=time.perf_counter() - started,
            engine="cp-sat",
        )
    left = max(time_limit - (time.perf_counter() - started), 0.01)  # what the build left
    solver = _solver(model, left, seed)
    collector = _Collector(model, count_limit, keep)
    solver.parameters.enumerate_all_solutions = count_limit > collector.copies
    code = solver.solve(model.model, collector)
    reached = collector.count >= count_limit
    count = min(collector.count, count_limit)
    complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not (reached and count_limit > 1)
    status = edge_status(count, reached=reached, exhausted=complete)
    solutions = collector.kept(count)
    for arrangement in solutions:
        mismatches = check_arrangement(problem, arrangement)
        if mismatches:
            raise RuntimeError(f"CP-SAT arrangement fails the re-check: {mismatches[0]}")
    merged = len(problem.pieces) - len(model.kinds)
    return EdgeSearchResult(
        status=status,
        count=count,
        complete=complete and not reached,
        solutions=solutions,
        nodes=int(solver.num_branches),
        wall_time=time.perf_counter() - started,
        engine="cp-sat",
        notes=(f"{len(model.kinds)} kinds of {len(problem.pieces)} pieces",) if merged else (),
    )
