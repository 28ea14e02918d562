"""Snapping star figures onto the board: the objective, and CP-SAT against enumeration."""

from __future__ import annotations

import math

import pytest

from asterion.errors import InputError
from asterion.models.aster_board import Board
from asterion.models.sky import default_sky
from asterion.solver.result import Status
from asterion.solver.sky_snap import distortion, enumerate_snap, heuristic_snap, snap

BOARD = Board()


def test_distortion_ignores_scale_rotation_and_translation() -> None:
    stars = [(0.0, 0.0), (1.0, 0.0), (0.0, 2.0)]
    # the same shape scaled by 2, turned a quarter and moved
    assert distortion(stars, [(1, 1), (1, 3), (-3, 1)]) == pytest.approx(0.0, abs=1e-12)


def test_distortion_does_not_allow_a_mirror_image() -> None:
    stars = [(0.0, 0.0), (2.0, 0.0), (0.0, 1.0)]
    mirrored = [(0, 0), (-2, 0), (0, 1)]
    assert distortion(stars, mirrored) > 0.1


def test_distortion_is_between_0_and_1() -> None:
    stars = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]
    worst = distortion(stars, [(0, 0), (1, 0), (0, 1)])
    assert 0.0 < worst <= 1.0


def test_a_figure_needs_two_distinct_stars() -> None:
    with pytest.raises(InputError, match="at least 2 stars"):
        distortion([(0.0, 0.0)], [(0, 0)])
    with pytest.raises(InputError, match="one point"):
        snap(BOARD, [(1.0, 1.0), (1.0, 1.0)])


def test_enumeration_refuses_large_figures() -> None:
    with pytest.raises(InputError, match="up to 4"):
        enumerate_snap(BOARD, [(float(i), float(i * i)) for i in range(5)])


# Small real cards, CP-SAT against every injective assignment (32 736 for 3 stars on 33
# points, 982 080 for 4). The snap's pattern must reach the enumerated minimum.
@pytest.mark.parametrize("abbr", ["Tri", "Cnc"])
def test_snap_is_proven_optimal_on_three_star_cards(abbr: str) -> None:
    stars = default_sky()[abbr].plane()
    result = snap(BOARD, stars, deterministic_limit=2.0)
    _, best = enumerate_snap(BOARD, stars)
    assert result.status is Status.OPTIMAL
    assert result.objective == pytest.approx(best, abs=1e-6)
    assert result.bound is not None and result.bound <= best + 1e-6


def test_snap_reaches_the_enumerated_minimum_on_a_four_star_card() -> None:
    stars = default_sky()["Crv"].plane()
    result = snap(BOARD, stars, deterministic_limit=0.5)
    pattern, best = enumerate_snap(BOARD, stars)
    assert result.objective == pytest.approx(best, abs=1e-9)
    assert result.value is not None and len(set(result.value)) == 4
    assert math.isclose(distortion(stars, pattern), best)


def test_heuristic_pattern_uses_distinct_board_points() -> None:
    stars = default_sky()["Ori"].plane()
    pattern = heuristic_snap(BOARD, stars)
    assert len(set(pattern)) == len(stars)
    assert all(xy in BOARD.at for xy in pattern)
