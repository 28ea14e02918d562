"""Edge matching by forward checking, in plain Python: the engine for designed tile sets.

A designed set (a sky cut into tiles, rules/nacht.md) has many distinct fragment colors, so
once a few tiles lie, most cells have one candidate left. This engine keeps each empty cell's
candidates (oriented pieces that fit every placed neighbour and are not used elsewhere), fills
the cell with the fewest first, and gives up a branch as soon as some cell has none. On such
sets it settles existence and uniqueness in a few hundred nodes, with nothing to load: no
OR-Tools, no compiled kernel, which is what lets ``asterion nacht verify`` answer for the
shipped sky in a fraction of a second.

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
import time
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
    allowed,
    anchor_cells,
    anchor_piece,
    check_arrangement,
    turn,
)
from asterion.solver.edge_result import EdgeSearchResult, edge_status
from asterion.solver.result import DEFAULT_TIME_LIMIT

Option = tuple[int, int, tuple[int, int, int, int]]
"""A candidate for a cell: piece, quarter turns, and the colors it then shows (N, E, S, W)."""

Domains = dict[Cell, list[Option]]

# A neighbour in each direction, and which of its sides faces back.
_STEPS = ((NORTH, -1, 0, SOUTH), (EAST, 0, 1, WEST), (SOUTH, 1, 0, NORTH), (WEST, 0, -1, EAST))


class _Stop(Exception):
    """Raised inside the recursion when a limit (count, nodes, time) ends the search."""


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
        self.placed: dict[Cell, Option] = {}

    def run(self, domains: Domains) -> None:
        self.nodes += 1
        if self.nodes % 256 == 0 and time.perf_counter() > self.deadline:
            self.stopped_by_limit = True
            raise _Stop
        if self.node_limit is not None and self.nodes > self.node_limit:
            self.stopped_by_limit = True
            raise _Stop
        if not domains:
            self._record()
            return
        cell = min(domains, key=lambda c: (len(domains[c]), c))
        for option in domains[cell]:
            narrowed = self._narrow(domains, cell, option)
            if narrowed is None:
                continue
            self.placed[cell] = option
            self.run(narrowed)
            del self.placed[cell]

    def _narrow(self, domains: Domains, cell: Cell, option: Option) -> Domains | None:
        """The other cells' candidates once ``option`` lies in ``cell`` (None: one has none)."""
        piece, _, colors = option
        facing = {}
        for side, dr, dc, back in _STEPS:
            facing[(cell[0] + dr, cell[1] + dc)] = (back, self.problem.mate_of(colors[side]))
        narrowed: Domains = {}
        for other, options in domains.items():
            if other == cell:
                continue
            need = facing.get(other)
            kept = [
                o for o in options if o[0] != piece and (need is None or o[2][need[0]] == need[1])
            ]
            if not kept:
                return None
            narrowed[other] = kept
        return narrowed

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


def initial_domains(problem: EdgeProblem) -> Domains:
    """Every cell's candidates before any tile lies: border sides exactly outside, and the
    anchor corner piece only in the anchor cells when rotations are on."""
    anchor = anchor_piece(problem) if problem.whole_turns() > 1 else None
    anchored = set(anchor_cells(problem)) if anchor is not None else set()
    domains: Domains = {}
    for cell in problem.cells():
        domains[cell] = [
            (piece, k, turn(problem.pieces[piece], k))
            for piece, k in allowed(problem, cell)
            if piece != anchor or cell in anchored
        ]
    return domains


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
    domains = initial_domains(problem)
    if len(problem.pieces) == len(domains) and all(domains.values()):
        with contextlib.suppress(_Stop):  # a limit ended the search; the counts say which
            search.run(domains)
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
