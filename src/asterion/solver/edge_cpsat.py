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

Building the model counts against the time limit: a 32 x 32 set has millions of Booleans,
and building them took a minute where the limit said five seconds.

Counting enumerates solutions up to the limit. Every arrangement is re-checked side by side
(:func:`asterion.models.edges.check_arrangement`) before it is returned.
"""

from __future__ import annotations

import time
from collections import defaultdict

from ortools.sat.python import cp_model

from asterion.models.edges import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Arrangement,
    Cell,
    EdgeProblem,
    Placement,
    allowed,
    anchor_cells,
    anchor_piece,
    check_arrangement,
    turn,
)
from asterion.solver.edge_result import EdgeSearchResult, edge_status
from asterion.solver.result import DEFAULT_TIME_LIMIT, OutOfTime, check_clock, make_solver


class _Model:
    def __init__(self, problem: EdgeProblem, deadline: float = float("inf")):
        self.problem = problem
        self.deadline = deadline
        self.model = cp_model.CpModel()
        self.x: dict[tuple[Cell, int, int], cp_model.IntVar] = {}
        anchor = anchor_piece(problem) if problem.whole_turns() > 1 else None
        anchor_at = set(anchor_cells(problem))
        for cell in problem.cells():
            check_clock(self.deadline)
            for piece, k in allowed(problem, cell):
                if piece == anchor and cell not in anchor_at:
                    continue
                self.x[cell, piece, k] = self.model.new_bool_var(f"x{cell}p{piece}t{k}")
        self.at: dict[Cell, list[tuple[int, int, cp_model.IntVar]]] = defaultdict(list)
        by_piece: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        for (cell, piece, k), var in self.x.items():
            self.at[cell].append((piece, k, var))
            by_piece[piece].append(var)
        for cell in problem.cells():
            self.model.add_exactly_one(var for _, _, var in self.at[cell])
        for piece in range(len(problem.pieces)):
            self.model.add_exactly_one(by_piece[piece])
        self._add_edges()

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


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, model: _Model, count_limit: int, keep: int):
        super().__init__()
        self.model = model
        self.count_limit = count_limit
        self.keep = keep
        self.count = 0
        self.solutions: list[Arrangement] = []

    def on_solution_callback(self) -> None:
        self.count += 1
        if len(self.solutions) < self.keep:
            self.solutions.append(self.model.arrangement(self))
        if self.count >= self.count_limit:
            self.stop_search()


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
    solver = make_solver(left, seed)
    solver.parameters.enumerate_all_solutions = count_limit > 1
    collector = _Collector(model, count_limit, keep)
    code = solver.solve(model.model, collector)
    reached = collector.count >= count_limit
    complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not (reached and count_limit > 1)
    status = edge_status(collector.count, reached=reached, exhausted=complete)
    for arrangement in collector.solutions:
        mismatches = check_arrangement(problem, arrangement)
        if mismatches:
            raise RuntimeError(f"CP-SAT arrangement fails the re-check: {mismatches[0]}")
    return EdgeSearchResult(
        status=status,
        count=collector.count,
        complete=complete and not reached,
        solutions=tuple(collector.solutions),
        nodes=int(solver.num_branches),
        wall_time=time.perf_counter() - started,
        engine="cp-sat",
    )
