"""Snapping a real star figure onto the Aster board: which lattice points keep its shape best.

A constellation's ``n`` stars, projected to the plane (``p_i``, centred, scaled so that the mean
of ``|p_i|²`` is 1), go to ``n`` distinct points ``q_i`` of the board. The **distortion** of an
assignment is the mean squared error left after the best similarity fit of the board points
onto the stars::

    D(q) = min over S of (1/n) * sum_i |S(q_i) - p_i|²

with ``S`` any scaling (≥ 0), rotation and translation; no reflection, so a card keeps the
handedness of the figure as seen from Earth. The minimum has a closed form (Procrustes)::

    D(q) = 1 - (A² + B²) / (n * W),   A = sum p_i · q_i,   B = sum p_i × q_i,
                                      W = sum |q_i - q̄|²

so ``D`` is 0 for a perfect copy and 1 for no resemblance at all. The snap minimizes ``D``.

The CP-SAT model (one worker, deterministic time limit, so the same figure gives the same
pattern): a boolean per (star, point), each star on one point and each point holding at most
one star; ``A``, ``B`` and the sums of the coordinates are linear in them, their squares are
product constraints, and the objective maximizes ``F = n (A² + B²) / (n Σ|q|² - |Σq|²)``
(integer division, the stars scaled by :data:`SCALE` and rounded). Rotating a board by a
quarter turn leaves ``D`` unchanged, so the brightest star is kept on the centre or in the
quadrant ``x > 0, y ≥ 0``. A hint comes from :func:`heuristic_snap` (iterated closest points
from many starting rotations and scales), so a stopped search still returns a good pattern;
the status says whether it is proven optimal.

:func:`enumerate_snap` is the exact baseline: every injective assignment, for small figures.

>>> from asterion.models.aster_board import Board
>>> result = snap(Board(), [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], time_limit=20)
>>> result.status.value, round(result.objective or 0, 9)
('optimal', 0.0)
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Sequence

import numpy as np
from ortools.graph.python import linear_sum_assignment
from ortools.sat.python import cp_model

from asterion.errors import InputError
from asterion.models.aster_board import Board, Vector
from asterion.models.aster_patterns import ROTATIONS, transform
from asterion.solver.result import SolveResult, Status, cp_status, make_solver

PlanePoint = tuple[float, float]
Pattern = tuple[Vector, ...]

SCALE = 10_000
"""Star coordinates are multiplied by this and rounded for the integer model."""
DEFAULT_DETERMINISTIC_LIMIT = 0.3
"""CP-SAT deterministic time units per snap (about seconds; the same on every machine)."""
MAX_ENUMERATION_STARS = 4
HEURISTIC_ROTATIONS = 24
HEURISTIC_RADII = (1.0, 1.5, 2.0, 2.5, 3.0, 3.5)
"""Starting RMS radii (lattice units) of the star figure laid over the board."""
COST_SCALE = 1000
"""Squared distances are scaled by this and rounded for the linear assignment."""


# -- the objective --------------------------------------------------------------------------


def normalize(points: Sequence[PlanePoint]) -> tuple[PlanePoint, ...]:
    """Centred on their mean, scaled so that the mean of ``|p|²`` is 1.

    :raises InputError: for fewer than 2 points or all points alike.
    """
    if len(points) < 2:
        raise InputError(f"a figure needs at least 2 stars, not {len(points)}")
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    rms = math.sqrt(sum((x - cx) ** 2 + (y - cy) ** 2 for x, y in points) / len(points))
    if rms == 0:
        raise InputError("the figure's stars all lie on one point")
    return tuple(((x - cx) / rms, (y - cy) / rms) for x, y in points)


def distortion(stars: Sequence[PlanePoint], pattern: Sequence[Vector]) -> float:
    """``D``: the mean squared error after the best similarity fit (module docstring).

    >>> distortion([(0.0, 0.0), (2.0, 0.0)], [(1, 1), (3, 1)])
    0.0
    >>> round(distortion([(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)], [(0, 0), (2, 0), (1, 0)]), 3)
    0.75
    """
    p = normalize(stars)
    n = len(p)
    mx = sum(x for x, _ in pattern) / n
    my = sum(y for _, y in pattern) / n
    q = [(x - mx, y - my) for x, y in pattern]
    spread = sum(x * x + y * y for x, y in q)
    if spread == 0:
        return 1.0
    a = sum(px * qx + py * qy for (px, py), (qx, qy) in zip(p, q, strict=True))
    b = sum(qx * py - qy * px for (px, py), (qx, qy) in zip(p, q, strict=True))
    return max(0.0, 1.0 - (a * a + b * b) / (n * spread))


def _board_points(board: Board) -> list[Vector]:
    return [board.coords[name] for name in board.points]


def _check(board: Board, stars: Sequence[PlanePoint]) -> tuple[PlanePoint, ...]:
    p = normalize(stars)
    if len(p) > len(board.points):
        raise InputError(f"{len(p)} stars do not fit on {len(board.points)} points")
    return p


# -- the exact baseline ---------------------------------------------------------------------


def enumerate_snap(board: Board, stars: Sequence[PlanePoint]) -> tuple[Pattern, float]:
    """The least-distortion pattern by trying every injective assignment (small figures).

    Ties go to the first assignment in board order.

    :raises InputError: for more than :data:`MAX_ENUMERATION_STARS` stars.
    """
    p = np.array(_check(board, stars))
    n = len(p)
    if n > MAX_ENUMERATION_STARS:
        raise InputError(f"enumeration is for up to {MAX_ENUMERATION_STARS} stars, not {n}")
    points = np.array(_board_points(board), dtype=float)
    best_value = math.inf
    best: tuple[int, ...] = ()
    for first in range(len(points)):
        rest = [j for j in range(len(points)) if j != first]
        tails = np.array(list(itertools.permutations(rest, n - 1)), dtype=int).reshape(-1, n - 1)
        index = np.hstack([np.full((len(tails), 1), first), tails])
        q = points[index]  # (m, n, 2)
        q = q - q.mean(axis=1, keepdims=True)
        spread = (q**2).sum(axis=(1, 2))
        a = (q * p).sum(axis=(1, 2))
        b = (q[:, :, 0] * p[:, 1] - q[:, :, 1] * p[:, 0]).sum(axis=1)
        values = 1.0 - (a * a + b * b) / (n * spread)
        k = int(np.argmin(values))
        if values[k] < best_value - 1e-12:
            best_value, best = float(values[k]), tuple(int(j) for j in index[k])
    pattern = tuple(_board_points(board)[j] for j in best)
    return pattern, distortion(stars, pattern)


# -- the heuristic start --------------------------------------------------------------------


def _similarity(p: Sequence[PlanePoint], q: Sequence[Vector]) -> tuple[complex, complex]:
    """The best ``S(z) = s·z + t`` (complex numbers) mapping the stars ``p`` onto ``q``."""
    n = len(p)
    pz = [complex(*xy) for xy in p]
    qz = [complex(*xy) for xy in q]
    qm = sum(qz) / n
    num = sum((b - qm) * a.conjugate() for a, b in zip(pz, qz, strict=True))
    den = sum(abs(a) ** 2 for a in pz)
    s = num / den
    return s, qm


def _assign(targets: Sequence[complex], points: Sequence[Vector]) -> tuple[int, ...]:
    """The distinct points nearest the targets in total squared distance (min-cost matching;
    rows past the targets are free, so the matrix is square)."""
    size = len(points)
    grid = np.array([complex(x, y) for x, y in points])
    cost = np.zeros((size, size), dtype=np.int64)
    cost[: len(targets)] = np.rint(
        COST_SCALE * np.abs(np.array(targets)[:, None] - grid[None, :]) ** 2
    )
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    rows, columns = _square_arcs(size)
    solver.add_arcs_with_cost(rows, columns, cost.ravel())
    if solver.solve() != solver.OPTIMAL:
        raise RuntimeError("the assignment solver failed")
    return tuple(solver.right_mate(i) for i in range(len(targets)))


@functools.cache
def _square_arcs(size: int) -> tuple[np.ndarray, np.ndarray]:
    return np.repeat(np.arange(size), size), np.tile(np.arange(size), size)


def heuristic_snap(board: Board, stars: Sequence[PlanePoint]) -> Pattern:
    """A good pattern fast: iterated closest points from many starting similarities.

    The starts: the figure laid over the board's centre at :data:`HEURISTIC_ROTATIONS`
    rotations and the :data:`HEURISTIC_RADII`, and every similarity that puts the brightest
    star on a point of the quadrant (C or x > 0, y >= 0; a quarter turn covers the rest) and
    the star farthest from it on another board point. From each start, stars are matched
    to distinct points (least total squared distance), the similarity is refitted to the match,
    and so on until the match stops changing; the best match is then improved by moving or
    swapping single stars while the distortion drops.
    """
    p = _check(board, stars)
    points = _board_points(board)
    pz = [complex(*xy) for xy in p]
    starts: list[tuple[complex, complex]] = []
    for k in range(HEURISTIC_ROTATIONS):
        turn = complex(math.cos(2 * math.pi * k / HEURISTIC_ROTATIONS), 0.0)
        turn += 1j * math.sin(2 * math.pi * k / HEURISTIC_ROTATIONS)
        starts += [(radius * turn, 0j) for radius in HEURISTIC_RADII]
    far = max(range(len(pz)), key=lambda i: abs(pz[i] - pz[0]))
    for a, b in itertools.permutations(points, 2):
        if not _in_quadrant(a):
            continue  # a quarter turn of the board maps any start to one of these
        qa, qb = complex(*a), complex(*b)
        scale = (qb - qa) / (pz[far] - pz[0])
        starts.append((scale, qa - scale * pz[0]))
    best_value, best = math.inf, tuple(points[: len(p)])
    tried: set[tuple[int, ...]] = set()
    for scale, shift in starts:
        match = _assign([scale * z + shift for z in pz], points)
        while match not in tried:
            tried.add(match)
            pattern = tuple(points[j] for j in match)
            value = distortion(p, pattern)
            if value < best_value - 1e-12:
                best_value, best = value, pattern
            scale, shift = _similarity(p, pattern)
            match = _assign([scale * z + shift for z in pz], points)
    return _improve(p, best, points)


def _improve(p: Sequence[PlanePoint], pattern: Pattern, points: Sequence[Vector]) -> Pattern:
    """Local search: move one star to a free point or swap two stars while ``D`` drops."""
    best, best_value = pattern, distortion(p, pattern)
    while True:
        candidates: list[Pattern] = []
        free = [xy for xy in points if xy not in best]
        for i in range(len(best)):
            candidates += [(*best[:i], xy, *best[i + 1 :]) for xy in free]
            for k in range(i + 1, len(best)):
                swapped = list(best)
                swapped[i], swapped[k] = swapped[k], swapped[i]
                candidates.append(tuple(swapped))
        values = [distortion(p, c) for c in candidates]
        k = min(range(len(values)), key=values.__getitem__)
        if values[k] >= best_value - 1e-12:
            return best
        best, best_value = candidates[k], values[k]


# -- the CP-SAT model -----------------------------------------------------------------------


def _in_quadrant(point: Vector) -> bool:
    """C or ``x > 0, y >= 0``: every point has exactly one quarter turn landing here."""
    x, y = point
    return (x, y) == (0, 0) or (x > 0 and y >= 0)


def _canonical_turn(pattern: Pattern) -> Pattern:
    """The quarter turn of ``pattern`` that puts its first point on C or in x > 0, y ≥ 0."""
    for matrix in ROTATIONS:
        turned = tuple(transform(matrix, xy) for xy in pattern)
        if _in_quadrant(turned[0]):
            return turned
    raise AssertionError("some quarter turn puts any point in that quadrant")


def snap(
    board: Board,
    stars: Sequence[PlanePoint],
    *,
    time_limit: float = 60.0,
    deterministic_limit: float = DEFAULT_DETERMINISTIC_LIMIT,
    seed: int = 0,
) -> SolveResult[Pattern]:
    """The pattern of least distortion, by CP-SAT; see the module docstring.

    ``value`` is the pattern (``value[i]`` holds star ``i``), ``objective`` its distortion
    ``D`` (recomputed exactly from the pattern), ``bound`` a proven lower bound on ``D``
    (up to the rounding of the stars to 1/:data:`SCALE`).
    """
    started = time.perf_counter()
    p = _check(board, stars)
    n = len(p)
    points = _board_points(board)
    hint = _canonical_turn(heuristic_snap(board, p))

    # -- data
    star = [(round(SCALE * x), round(SCALE * y)) for x, y in p]
    reach = 2 * board.extent * n * SCALE * 2
    model = cp_model.CpModel()

    # -- variables: star i on point j
    at = {
        (i, j): model.new_bool_var(f"star{i}_at_{x}_{y}")
        for i in range(n)
        for j, (x, y) in enumerate(points)
    }

    # -- each star on one point, each point holds at most one star
    for i in range(n):
        model.add_exactly_one(at[i, j] for j in range(len(points)))
    for j in range(len(points)):
        model.add_at_most_one(at[i, j] for i in range(n))

    # -- a quarter turn changes nothing: the brightest star on C or in x > 0, y >= 0
    for j, point in enumerate(points):
        if not _in_quadrant(point):
            model.add(at[0, j] == 0)

    # -- the fit's sums: A, B, sum of q, sum of |q|²
    a_sum = model.new_int_var(-reach, reach, "A")
    b_sum = model.new_int_var(-reach, reach, "B")
    model.add(
        a_sum
        == sum(
            (star[i][0] * x + star[i][1] * y) * at[i, j]
            for i in range(n)
            for j, (x, y) in enumerate(points)
        )
    )
    model.add(
        b_sum
        == sum(
            (x * star[i][1] - y * star[i][0]) * at[i, j]
            for i in range(n)
            for j, (x, y) in enumerate(points)
        )
    )
    extent = board.extent * n
    sum_x = model.new_int_var(-extent, extent, "sum_x")
    sum_y = model.new_int_var(-extent, extent, "sum_y")
    model.add(sum_x == sum(x * at[i, j] for i in range(n) for j, (x, _) in enumerate(points)))
    model.add(sum_y == sum(y * at[i, j] for i in range(n) for j, (_, y) in enumerate(points)))
    squares = sum((x * x + y * y) * at[i, j] for i in range(n) for j, (x, y) in enumerate(points))

    # -- the objective: F = n (A² + B²) / (n Σ|q|² - |Σq|²), maximized
    a_squared = model.new_int_var(0, reach * reach, "A_squared")
    b_squared = model.new_int_var(0, reach * reach, "B_squared")
    model.add_multiplication_equality(a_squared, [a_sum, a_sum])
    model.add_multiplication_equality(b_squared, [b_sum, b_sum])
    sx_squared = model.new_int_var(0, extent * extent, "sum_x_squared")
    sy_squared = model.new_int_var(0, extent * extent, "sum_y_squared")
    model.add_multiplication_equality(sx_squared, [sum_x, sum_x])
    model.add_multiplication_equality(sy_squared, [sum_y, sum_y])
    spread = model.new_int_var(1, n * n * 2 * board.extent**2, "n_times_spread")
    model.add(spread == n * squares - sx_squared - sy_squared)
    numerator = model.new_int_var(0, n * 2 * reach * reach, "numerator")
    model.add(numerator == n * (a_squared + b_squared))
    fit = model.new_int_var(0, n * n * SCALE * SCALE, "fit")
    model.add_division_equality(fit, numerator, spread)
    model.maximize(fit)

    # -- the hint
    for i, xy in enumerate(hint):
        for j, point in enumerate(points):
            model.add_hint(at[i, j], point == xy)

    # -- solve
    solver = make_solver(time_limit, seed)
    solver.parameters.max_deterministic_time = float(deterministic_limit)
    status = cp_status(solver.solve(model))

    # -- extract
    pattern = hint
    if status.has_value:
        found = tuple(
            next(points[j] for j in range(len(points)) if solver.value(at[i, j])) for i in range(n)
        )
        if distortion(p, found) < distortion(p, hint) - 1e-12:
            pattern = found
        bound = max(0.0, 1.0 - solver.best_objective_bound / (n * SCALE * SCALE))
    else:
        bound = 0.0
        status = Status.FEASIBLE  # the hint is a pattern; nothing is proven
    value = distortion(p, pattern)
    return SolveResult(status, pattern, value, min(bound, value), time.perf_counter() - started)
