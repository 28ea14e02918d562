"""The best placement of a constellation in a position (rules/aster.md A8, A9), by CP-SAT.

"Best" means fewest missing stars, then most of the active player's own stars (A9: the
claimant chooses; tools report the placement with the most of the claimant's stars).

The CP-SAT model is a second, geometric encoding of presence, independent of the placement
enumeration in :mod:`asterion.models.aster_patterns`: it chooses one symmetry of the square
and a translation, and assigns each pattern point to the board point at its image. Its answer
is certified against the enumeration before it is returned.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from asterion.models.aster import AsterState
from asterion.models.aster_board import Board, Point, Vector
from asterion.models.aster_patterns import (
    Placement,
    Transforms,
    missing_points,
    placements,
    symmetries,
    transform,
)
from asterion.solver.result import (
    DEFAULT_TIME_LIMIT,
    SolveResult,
    Status,
    cp_status,
    make_solver,
)


@dataclass(frozen=True)
class ScoredPlacement:
    """A placement with what it lacks in a position and how many of its stars are the
    active player's."""

    points: Placement
    missing: tuple[Point, ...]
    own: int

    def sort_key(self, board: Board) -> tuple[int, int, list[int]]:
        return (len(self.missing), -self.own, sorted(board.index[p] for p in self.points))


def score_placement(state: AsterState, placement: Placement) -> ScoredPlacement:
    """Score ``placement`` in ``state`` with the rules engine's own queries."""
    board = state.board
    missing = missing_points(board, placement, lambda p: not state.is_empty(p))
    own = sum(1 for p in placement if state.star_at(p) is state.player)
    return ScoredPlacement(placement, tuple(missing), own)


def best_placement_by_enumeration(
    state: AsterState, pattern: Sequence[Vector], transforms: Transforms | None = None
) -> ScoredPlacement | None:
    """The exact baseline: score every enumerated placement and keep the best (ties broken
    by board order). ``None`` if the pattern has no placement on the board."""
    transforms = transforms or state.rules.transforms
    scored = [score_placement(state, pl) for pl in placements(state.board, pattern, transforms)]
    return min(scored, key=lambda s: s.sort_key(state.board), default=None)


# -- the CP-SAT model -------------------------------------------------------------------------


@dataclass(frozen=True)
class _PlacementVars:
    symmetry: list[cp_model.IntVar]
    translation: tuple[cp_model.IntVar, cp_model.IntVar]
    cell: list[dict[Point, cp_model.IntVar]]
    """``cell[i][v]`` is true iff pattern point ``i`` lands on board point ``v``."""


def add_placement(
    model: cp_model.CpModel, board: Board, pattern: Sequence[Vector], transforms: Transforms
) -> _PlacementVars:
    """Variables and constraints for "some allowed transform maps the pattern onto board
    points"; reusable by any model that needs a constellation on the board."""
    span = 2 * board.extent
    shift = 0 if transforms is Transforms.EXACT else span
    matrices = symmetries(transforms)
    symmetry = [model.new_bool_var(f"symmetry_{k}") for k in range(len(matrices))]
    model.add_exactly_one(symmetry)
    tx = model.new_int_var(-shift, shift, "translate_x")
    ty = model.new_int_var(-shift, shift, "translate_y")
    cell = [
        {v: model.new_bool_var(f"pattern_{i}_on_{v}") for v in board.points}
        for i in range(len(pattern))
    ]
    # Each pattern point stands on exactly one board point ...
    for choices in cell:
        model.add_exactly_one(choices.values())
    # ... and that point is where the chosen symmetry and translation send it.
    for i, point in enumerate(pattern):
        images = [transform(m, point) for m in matrices]
        for axis, offset in ((0, tx), (1, ty)):
            image = sum(img[axis] * use for img, use in zip(images, symmetry, strict=True))
            for v, var in cell[i].items():
                model.add(image + offset == board.coords[v][axis]).only_enforce_if(var)
    return _PlacementVars(symmetry, (tx, ty), cell)


def best_placement(
    state: AsterState,
    pattern: Sequence[Vector],
    transforms: Transforms | None = None,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> SolveResult[ScoredPlacement]:
    """The placement with the fewest missing stars, then the most own stars, by CP-SAT.

    The objective is ``(n + 1) · missing − own`` for an ``n``-star pattern, so one missing
    star always outweighs every own star. ``INFEASIBLE`` means the pattern has no placement
    on this board at all.

    :raises AssertionError: if the answer is not a placement the enumeration knows, or its
        score disagrees with the rules engine's (a bug, never printed as an answer).
    """
    transforms = transforms or state.rules.transforms
    board = state.board
    started = time.perf_counter()

    # Model.
    model = cp_model.CpModel()
    chosen = add_placement(model, board, pattern, transforms)

    # Objective: fewest missing stars first, then most of the player's own stars.
    empty = [v for v in board.points if state.is_empty(v)]
    own = state.stars_of(state.player)
    missing_count = sum(cell[v] for cell in chosen.cell for v in empty)
    own_count = sum(cell[v] for cell in chosen.cell for v in own)
    model.minimize((len(pattern) + 1) * missing_count - own_count)

    # Solve.
    solver = make_solver(time_limit, seed)
    status = cp_status(solver.solve(model))
    elapsed = time.perf_counter() - started
    if not status.has_value:
        return SolveResult(status, None, None, _bound(solver, status), elapsed)

    # Extract, then certify with the enumeration and the rules engine.
    points = frozenset(
        v for cell in chosen.cell for v, var in cell.items() if solver.boolean_value(var)
    )
    found = score_placement(state, points)
    assert points in placements(board, pattern, transforms), f"not a placement: {sorted(points)}"
    objective = (len(pattern) + 1) * len(found.missing) - found.own
    assert objective == round(solver.objective_value), "CP-SAT objective disagrees with the rules"
    return SolveResult(status, found, float(objective), _bound(solver, status), elapsed)


def _bound(solver: cp_model.CpSolver, status: Status) -> float | None:
    return None if status is Status.INFEASIBLE else float(solver.best_objective_bound)
