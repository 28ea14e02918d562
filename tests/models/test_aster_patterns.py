"""Constellation placements (rules/aster.md, A8 "presence" and the worked examples).

The brute-force check at the end enumerates the 8 symmetries of the square and every
translation in a deliberately naive way, with its own copy of the lattice rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lattice import UNIT

from asterion.errors import InputError
from asterion.models.aster_board import Board
from asterion.models.aster_patterns import (
    Transforms,
    check_pattern,
    compose,
    missing_points,
    parse_transforms,
    placements,
)


def lattice_names(rings: int) -> dict[tuple[int, int], str]:
    """Lattice position -> point name, from the rules page: ring r has half-size R + 1 - r."""
    names = {(0, 0): "C"}
    for r in range(1, rings + 1):
        h = rings + 1 - r
        for d, (ux, uy) in UNIT.items():
            names[(h * ux, h * uy)] = f"{r}{d}"
    return names


# The 8 symmetries of the square, written out by hand: 4 rotations, then 4 reflections.
ROTATIONS = [
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
]
REFLECTIONS = [
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
]
GROUPS = {
    Transforms.TRANSLATE: ROTATIONS[:1],
    Transforms.TRANSLATE_ROTATE: ROTATIONS,
    Transforms.TRANSLATE_ROTATE_REFLECT: ROTATIONS + REFLECTIONS,
}


def naive_placements(
    rings: int, pattern: list[tuple[int, int]], transforms: Transforms
) -> set[frozenset[str]]:
    names = lattice_names(rings)
    found = set()
    reach = 3 * rings + 8  # more than enough: any useful shift is at most 2R + pattern size
    for symmetry in GROUPS[transforms]:
        image = [symmetry(x, y) for x, y in pattern]
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                moved = [(x + dx, y + dy) for x, y in image]
                if all(p in names for p in moved):
                    found.add(frozenset(names[p] for p in moved))
    return found


# -- worked examples ----------------------------------------------------------------------------


def test_two_stars_side_by_side() -> None:
    # rules/aster.md: 24 placements under translate+rotate+reflect: 12 horizontal (8 along the
    # E-W line through C, 2 on each of the rows y = +-1 of ring 4) and 12 vertical.
    board = Board()
    found = placements(board, [(0, 0), (1, 0)])
    assert len(found) == 24
    assert len(set(found)) == 24  # distinct
    horizontal = [pl for pl in found if len({board.coords[p][1] for p in pl}) == 1]
    assert len(horizontal) == 12
    on_ew_line = [pl for pl in horizontal if all(board.coords[p][1] == 0 for p in pl)]
    assert len(on_ew_line) == 8
    assert frozenset({"4NW", "4N"}) in found and frozenset({"4N", "4NE"}) in found


def test_two_stars_side_by_side_translate_only() -> None:
    # Under translate alone only the 12 horizontal placements remain.
    board = Board()
    found = placements(board, [(0, 0), (1, 0)], Transforms.TRANSLATE)
    assert len(found) == 12
    assert all(len({board.coords[p][1] for p in pl}) == 1 for pl in found)
    # translate+rotate already gives the vertical ones: 24 again.
    assert len(placements(board, [(0, 0), (1, 0)], Transforms.TRANSLATE_ROTATE)) == 24


def test_single_star_and_diagonal_pair() -> None:
    board = Board()
    # A single star fits on each of the 33 points.
    single = placements(board, [(0, 0)])
    assert len(single) == 33
    assert {p for pl in single for p in pl} == set(board.points)
    # [[0, 0], [1, 1]]: 28 (rules page). By hand: 8 consecutive pairs on each diagonal line (16),
    # the diamond of ring-4 midpoints 4N-4E-4S-4W (4), and each ring-3 midpoint with its two
    # ring-4 corners, e.g. 3E (2, 0) with 4NE (1, 1) and 4SE (1, -1) (8): 16 + 4 + 8 = 28.
    diagonal = placements(board, [(0, 0), (1, 1)])
    assert len(diagonal) == 28
    assert frozenset({"3E", "4NE"}) in diagonal
    assert frozenset({"4N", "4E"}) in diagonal


@pytest.mark.parametrize("rings", range(2, 10))
def test_small_pattern_counts_for_every_board(rings: int) -> None:
    # The hand counts above, for any R:
    # - single star: 8R + 1;
    # - horizontal pair: 2R on the E-W line + 2 on each row y = +-1 = 2R + 4, doubled by
    #   rotation: 4R + 8 (rows y = +-h, h >= 2, have points h apart, so no pairs);
    # - diagonal pair: 2 * 2R on the diagonals + 4 (ring-R midpoint diamond) + 8 (ring R-1
    #   midpoints with ring R corners) = 4R + 12.
    board = Board(rings=rings)
    assert len(placements(board, [(0, 0)])) == 8 * rings + 1
    assert len(placements(board, [(0, 0), (1, 0)])) == 4 * rings + 8
    assert len(placements(board, [(0, 0), (1, 0)], Transforms.TRANSLATE)) == 2 * rings + 4
    assert len(placements(board, [(0, 0), (1, 1)])) == 4 * rings + 12


def test_pattern_as_wide_as_the_board() -> None:
    # [[0, 0], [8, 0]] on R = 4: x must go from -4 to 4, so the two ends are ring-1 points on
    # the rows y = 4, 0, -4 (1NW-1NE, 1W-1E, 1SW-1SE), and the same 3 columns when rotated.
    board = Board()
    assert set(placements(board, [(0, 0), (8, 0)])) == {
        frozenset({"1NW", "1NE"}),
        frozenset({"1W", "1E"}),
        frozenset({"1SW", "1SE"}),
        frozenset({"1NW", "1SW"}),
        frozenset({"1N", "1S"}),
        frozenset({"1NE", "1SE"}),
    }


def test_chiral_pattern_counts_per_transform_group() -> None:
    # [[-4, 4], [0, 4], [4, -4]] is 1NW, 1N, 1SE on R = 4: two opposite corners of ring 1 and the
    # midpoint next to one of them. It spans 8 x 8, the whole board, so no translation other than
    # the identity fits, and the corners must land on ring-1 corners. By hand: 2 diagonals x 2
    # choices of the corner with the midpoint x 2 midpoints next to it = 8 placements, one per
    # symmetry of the square (rotations keep the turning sense, reflections reverse it).
    board = Board()
    pattern = [(-4, 4), (0, 4), (4, -4)]
    assert placements(board, pattern, Transforms.TRANSLATE) == [frozenset({"1NW", "1N", "1SE"})]
    assert set(placements(board, pattern, Transforms.TRANSLATE_ROTATE)) == {
        frozenset({"1NW", "1N", "1SE"}),
        frozenset({"1NE", "1E", "1SW"}),  # 90 degrees clockwise
        frozenset({"1SE", "1S", "1NW"}),
        frozenset({"1SW", "1W", "1NE"}),
    }
    full = placements(board, pattern, Transforms.TRANSLATE_ROTATE_REFLECT)
    assert len(full) == 8
    assert frozenset({"1NE", "1N", "1SW"}) in full  # the mirror image (x -> -x)


def test_compose_applies_first_then_then() -> None:
    # Matrices (a, b, c, d) map (x, y) to (ax + by, cx + dy). Worked by hand:
    # a quarter turn (x, y) -> (-y, x) twice is the half turn (x, y) -> (-x, -y);
    # the mirror (x, y) -> (-x, y) then the quarter turn: (x, y) -> (-x, y) -> (-y, -x);
    # the quarter turn then the mirror: (x, y) -> (-y, x) -> (y, x).
    quarter, mirror = (0, -1, 1, 0), (-1, 0, 0, 1)
    assert compose(quarter, quarter) == (-1, 0, 0, -1)
    assert compose(mirror, quarter) == (0, -1, -1, 0)
    assert compose(quarter, mirror) == (0, 1, 1, 0)


def test_missing_points_are_the_empty_points_in_board_order() -> None:
    # rules/aster.md question 1: for a placement, which stars it lacks. Three on the NE
    # diagonal, only 2NE occupied: 3NE and 4NE are missing (ring 3 comes before ring 4).
    board = Board()
    placement = frozenset({"4NE", "2NE", "3NE"})
    assert missing_points(board, placement, lambda p: p == "2NE") == ["3NE", "4NE"]
    assert missing_points(board, placement, lambda p: True) == []


def test_placements_refuse_an_empty_or_repeating_pattern() -> None:
    for pattern in ([], [(0, 0), (0, 0)]):
        with pytest.raises(InputError):
            placements(Board(), pattern)


# -- exact transforms ---------------------------------------------------------------------------


def test_exact_uses_the_pattern_coordinates() -> None:
    board = Board()
    # (0, 0) is C, (1, 0) is 4E, (2, 2) is 3NE, (-4, 4) is 1NW.
    assert placements(board, [(0, 0), (1, 0)], Transforms.EXACT) == [frozenset({"C", "4E"})]
    assert placements(board, [(2, 2), (-4, 4)], Transforms.EXACT) == [frozenset({"3NE", "1NW"})]
    # (1, 2) is not a board point: no placement at all, even though a translation would fit.
    assert placements(board, [(1, 2), (2, 2)], Transforms.EXACT) == []
    assert placements(board, [(5, 5)], Transforms.EXACT) == []


def test_parse_transforms() -> None:
    assert parse_transforms("exact") is Transforms.EXACT
    assert parse_transforms("translate+rotate+reflect") is Transforms.TRANSLATE_ROTATE_REFLECT
    with pytest.raises(InputError):
        parse_transforms("rotate")


# -- check_pattern ------------------------------------------------------------------------------


def test_check_pattern_accepts_a_good_pattern() -> None:
    assert check_pattern([[0, 0], [1, 1]], Board()) == ((0, 0), (1, 1))
    # As wide as the board (8 units on R = 4) is still fine.
    assert check_pattern([[0, 0], [8, 0]], Board()) == ((0, 0), (8, 0))


@pytest.mark.parametrize(
    "pattern",
    [
        [],  # empty
        [[0, 0], [0, 0]],  # repeated point
        [[1, 2], [3, 4], [1, 2]],  # repeated point
        [[0, 0], [9, 0]],  # 9 units wide; a 4-ring board spans 8
        [[0, 0], [0, -9]],  # 9 units high
        [[x, y] for x in range(6) for y in range(6)][:34],  # 34 points; the board has 33
        [[0]],  # not a pair
        [[0, 0, 0]],  # not a pair
        [[0, "1"]],  # not integers
        [[0, 1.5]],
        [[True, 0]],  # a bool is not a coordinate
    ],
)
def test_check_pattern_errors(pattern: list[list[object]]) -> None:
    with pytest.raises(InputError):
        check_pattern(pattern, Board())  # type: ignore[arg-type]


def test_any_size_takes_a_pattern_larger_than_the_board_and_nothing_else_bad() -> None:
    # (for `place`: whether it fits is the question, answered by its 0 placements)
    large = [[x, y] for x in range(6) for y in range(6)]
    assert len(check_pattern(large, Board(), any_size=True)) == 36
    assert placements(Board(), check_pattern([[0, 0], [9, 0]], Board(), any_size=True)) == []
    with pytest.raises(InputError):
        check_pattern([[0, 0], [0, 0]], Board(), any_size=True)


def test_a_pattern_the_size_of_the_board_is_accepted() -> None:
    # The whole default board as a pattern: 33 points, not more than the board's 33, 8 units
    # wide. The board is symmetric under the 8 symmetries, so its only placement is itself.
    board = Board()
    whole = [list(xy) for xy in lattice_names(4)]
    assert len(check_pattern(whole, board)) == 33
    assert placements(board, [tuple(xy) for xy in whole]) == [frozenset(board.points)]


def test_check_pattern_width_does_not_depend_on_where_the_pattern_sits() -> None:
    # From x = -5 to x = 4 is 9 units: too wide for R = 4 (8 units), wherever it starts.
    with pytest.raises(InputError):
        check_pattern([[-5, 0], [4, 0]], Board())
    # From x = 3 to x = 11 is 8 units: fine, and it fits like [[0, 0], [8, 0]] (6 placements).
    shifted = check_pattern([[3, 0], [11, 0]], Board())
    assert len(placements(Board(), shifted)) == 6


def test_check_pattern_width_depends_on_the_board() -> None:
    # A 2-ring board spans 4 units: 5 is too wide there, fine on 4 rings.
    with pytest.raises(InputError):
        check_pattern([[0, 0], [5, 0]], Board(rings=2))
    check_pattern([[0, 0], [5, 0]], Board(rings=4))


# -- independent brute force --------------------------------------------------------------------

small_patterns = st.lists(
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=4, unique=True
)


@settings(max_examples=60, deadline=None)
@given(
    rings=st.integers(2, 5),
    pattern=small_patterns,
    transforms=st.sampled_from(
        [Transforms.TRANSLATE, Transforms.TRANSLATE_ROTATE, Transforms.TRANSLATE_ROTATE_REFLECT]
    ),
)
def test_placements_match_brute_force(
    rings: int, pattern: list[tuple[int, int]], transforms: Transforms
) -> None:
    board = Board(rings=rings)
    found = placements(board, pattern, transforms)
    assert len(found) == len(set(found))  # no placement listed twice
    assert set(found) == naive_placements(rings, pattern, transforms)


@settings(max_examples=40, deadline=None)
@given(rings=st.integers(2, 5), pattern=small_patterns)
def test_exact_matches_brute_force(rings: int, pattern: list[tuple[int, int]]) -> None:
    names = lattice_names(rings)
    expected = [frozenset(names[p] for p in pattern)] if all(p in names for p in pattern) else []
    assert placements(Board(rings=rings), pattern, Transforms.EXACT) == expected
