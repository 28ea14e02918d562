"""The Aster board geometry (rules/aster.md, "Board"), checked against the lattice rule itself.

Every expected value is derived in this file from the rule "ring r has half-size h = R + 1 - r;
its points are h times the 8 compass unit vectors; C is (0, 0)", never read back from the code.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from lattice import CLOCKWISE, CORNERS, UNIT

from asterion.errors import InputError
from asterion.models.aster import HOME_DIRECTIONS, AsterRules, AsterState, Color
from asterion.models.aster_board import Board, Direction, parse_point

RING_COUNTS = range(2, 10)  # rules/aster.md: 2 <= R <= 9


def lattice(rings: int) -> dict[str, tuple[int, int]]:
    """The points of an R-ring board by the rules page's lattice rule, written independently."""
    coords = {"C": (0, 0)}
    for r in range(1, rings + 1):
        h = rings + 1 - r
        for d, (ux, uy) in UNIT.items():
            coords[f"{r}{d}"] = (h * ux, h * uy)
    return coords


def cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def collinear(points: list[tuple[int, int]]) -> bool:
    return all(cross(points[0], points[1], p) == 0 for p in points[2:])


def share_a_line(board: Board, a: str, b: str) -> bool:
    return any(a in line and b in line for line in board.lines)


# -- counts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_point_and_edge_counts(rings: int) -> None:
    # 8 points per ring plus C: 8R + 1. Ring edges: a cycle of 8 per ring, 8R. Line edges: each of
    # the 8 spokes d1-...-dR-C has R edges, 8R. Total 16R.
    board = Board(rings=rings)
    graph = board.graph
    assert len(board.points) == 8 * rings + 1
    assert graph.number_of_nodes() == 8 * rings + 1
    kinds = [kind for _, _, kind in graph.edges(data="kind")]
    assert kinds.count("ring") == 8 * rings
    assert kinds.count("line") == 8 * rings
    assert graph.number_of_edges() == 16 * rings


def test_default_board_matches_worked_example() -> None:
    # rules/aster.md worked examples: 33 points; 64 connections: 32 ring, 32 line.
    board = Board()
    assert board.rings == 4
    assert len(board.points) == 33
    kinds = [kind for _, _, kind in board.graph.edges(data="kind")]
    assert (len(kinds), kinds.count("ring"), kinds.count("line")) == (64, 32, 32)


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_degrees(rings: int) -> None:
    # Ring 1 points: 2 ring neighbours + 1 spoke neighbour (inward) = 3. Inner ring points: 2 ring
    # + 2 spoke = 4. C: the 8 points of ring R.
    board = Board(rings=rings)
    for name in board.points:
        if name == "C":
            expected = 8
        elif name[0] == "1":  # ring numbers are single digits (R <= 9)
            expected = 3
        else:
            expected = 4
        assert board.graph.degree(name) == expected, name
    assert set(board.neighbors("C")) == {f"{rings}{d}" for d in UNIT}


# -- node attributes ----------------------------------------------------------------------------


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_node_attributes_follow_the_lattice_rule(rings: int) -> None:
    board = Board(rings=rings)
    expected = lattice(rings)
    assert set(board.graph.nodes) == set(expected)
    for name, (x, y) in expected.items():
        data = board.graph.nodes[name]
        assert (data["x"], data["y"]) == (x, y), name
        assert board.coords[name] == (x, y)
        if name == "C":
            assert data["ring"] is None and data["direction"] is None
            assert data["kind"] == "center"
            continue
        ring, direction = int(name[0]), name[1:]
        assert data["ring"] == ring
        assert data["direction"] == direction
        assert data["kind"] == ("corner" if direction in CORNERS else "midpoint")
        # half-size h = R + 1 - r: the point's Chebyshev distance from C.
        assert max(abs(x), abs(y)) == rings + 1 - ring
    # Distinct names sit on distinct lattice points.
    assert len(set(board.coords.values())) == len(board.points)


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_ring_of_follows_the_half_size(rings: int) -> None:
    # Ring r has half-size h = R + 1 - r, so the point at Chebyshev distance h from C is on ring
    # R + 1 - h; C is on no ring.
    board = Board(rings=rings)
    for name, (x, y) in lattice(rings).items():
        if name == "C":
            assert board.ring_of(name) is None
        else:
            assert board.ring_of(name) == rings + 1 - max(abs(x), abs(y)), name


def test_named_coordinates_on_the_default_board() -> None:
    # R = 4: ring 2 has h = 3, ring 4 has h = 1, ring 1 has h = 4.
    coords = Board().coords
    assert coords["2NE"] == (3, 3)
    assert coords["4S"] == (0, -1)
    assert coords["1W"] == (-4, 0)
    assert coords["3SE"] == (2, -2)
    assert coords["C"] == (0, 0)


def test_parse_point() -> None:
    assert parse_point("C") is None
    assert parse_point("2NE") == (2, Direction.NE)
    assert parse_point("4S") == (4, Direction.S)
    for bad in ("", "X", "0N", "2XX", "NE2", "2ne", "10N"):
        with pytest.raises(InputError):
            parse_point(bad)
    # A well-formed name beyond the board's rings is refused by the board.
    with pytest.raises(InputError):
        Board(rings=4).parse("5N")


# -- derived rings and spokes -------------------------------------------------------------------


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_ring_cycles(rings: int) -> None:
    board = Board(rings=rings)
    cycles = board.rings_cycles
    assert len(cycles) == rings
    for r, cycle in enumerate(cycles, start=1):
        assert len(cycle) == 8
        assert set(cycle) == {f"{r}{d}" for d in UNIT}
        # Clockwise from N: N NE E SE S SW W NW.
        assert list(cycle) == [f"{r}{d}" for d in CLOCKWISE]
        # It is a cycle of ring edges in the graph (the last point closes onto the first).
        for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            assert board.graph.has_edge(a, b)
            assert board.graph.edges[a, b]["kind"] == "ring"
        for p in cycle:
            assert set(board.ring_points(p)) == set(cycle)
    assert board.ring_points("C") == ()


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_spokes(rings: int) -> None:
    board = Board(rings=rings)
    spokes = board.spokes
    assert len(spokes) == 8
    directions = set()
    for spoke in spokes:
        assert len(spoke) == rings
        (direction,) = {p[1:] for p in spoke}
        directions.add(direction)
        chain = [f"{r}{direction}" for r in range(1, rings + 1)] + ["C"]
        for a, b in pairwise(chain):
            assert board.graph.edges[a, b]["kind"] == "line"
    assert directions == set(UNIT)


# -- straight lines (A1) ------------------------------------------------------------------------


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_lines_are_the_four_lines_through_the_center(rings: int) -> None:
    board = Board(rings=rings)
    coords = lattice(rings)
    assert len(board.lines) == 4
    for line in board.lines:
        # Two opposite spokes of R points each, plus C.
        assert len(line) == 2 * rings + 1
        assert "C" in line
        assert collinear([coords[p] for p in line])
        # Ordered along the line: consecutive points are joined by a line edge.
        for a, b in pairwise(line):
            assert board.graph.edges[a, b]["kind"] == "line"
    directions = {frozenset(p[1:] for p in line if p != "C") for line in board.lines}
    assert directions == {
        frozenset({"N", "S"}),
        frozenset({"E", "W"}),
        frozenset({"NE", "SW"}),
        frozenset({"NW", "SE"}),
    }
    # Every point lies on exactly one line, except C which lies on all four.
    for p in board.points:
        assert len(board.lines_through(p)) == (4 if p == "C" else 1), p


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_sides_become_lines_when_asked(rings: int) -> None:
    board = Board(rings=rings, sides_are_lines=True)
    coords = lattice(rings)
    through_center = [line for line in board.lines if "C" in line]
    sides = [line for line in board.lines if "C" not in line]
    assert len(through_center) == 4
    # Each square has 4 sides of 3 points (corner, midpoint, corner): 4R more lines.
    assert len(sides) == 4 * rings
    expected_sides = set()
    for r in range(1, rings + 1):
        for mid, (c1, c2) in {
            "N": ("NW", "NE"),
            "E": ("NE", "SE"),
            "S": ("SE", "SW"),
            "W": ("SW", "NW"),
        }.items():
            expected_sides.add(frozenset({f"{r}{c1}", f"{r}{mid}", f"{r}{c2}"}))
    assert {frozenset(side) for side in sides} == expected_sides
    for side in sides:
        assert len(side) == 3
        assert collinear([coords[p] for p in side])
        # Ordered: the midpoint is in the middle.
        assert side[1][1:] in {"N", "E", "S", "W"}
    # A corner now lies on 3 lines (diagonal + 2 sides), a midpoint on 2, C on 4.
    for p in board.points:
        if p == "C":
            expected = 4
        elif p[1:] in CORNERS:
            expected = 3
        else:
            expected = 2
        assert len(board.lines_through(p)) == expected, p


def test_which_points_share_a_straight_line() -> None:
    default = Board()
    sides = Board(sides_are_lines=True)
    # 2NE (3, 3) and 4SW (-1, -1) are both on the NE-SW diagonal through C.
    assert share_a_line(default, "2NE", "4SW")
    assert share_a_line(sides, "2NE", "4SW")
    # 2NE (3, 3) and 2N (0, 3) only share the top side of square 2 (A1: not a line by default).
    assert not share_a_line(default, "2NE", "2N")
    assert share_a_line(sides, "2NE", "2N")
    # 2NW (-3, 3) and 2NE (3, 3): the same top side.
    assert not share_a_line(default, "2NW", "2NE")
    assert share_a_line(sides, "2NW", "2NE")
    # 1N (0, 4) and 4S (0, -1): the N-S line.
    assert share_a_line(default, "1N", "4S")
    # 2NE (3, 3) and 3N (0, 2): no line and no side in common.
    assert not share_a_line(default, "2NE", "3N")
    assert not share_a_line(sides, "2NE", "3N")
    # 3E (2, 0) and 4NE (1, 1) are lattice neighbours on a diagonal, but no edge joins them.
    assert not share_a_line(sides, "3E", "4NE")
    # C shares a line with every point.
    assert all(share_a_line(default, "C", p) for p in default.points)


def test_between() -> None:
    board = Board()
    (diagonal,) = board.lines_through("2NE")
    # Along the NE-SW line: 1NE 2NE 3NE 4NE C 4SW ...; between 2NE and 4SW: 3NE, 4NE, C.
    assert set(board.between(diagonal, "2NE", "4SW")) == {"3NE", "4NE", "C"}
    assert board.between(diagonal, "2NE", "3NE") == ()


# -- generation points (A2) ---------------------------------------------------------------------


@pytest.mark.parametrize("rings", RING_COUNTS)
def test_default_generation_points(rings: int) -> None:
    # A2: the 4 corners of ring 1 and the center.
    board = Board(rings=rings)
    assert set(board.generation_points) == {"1NE", "1SE", "1SW", "1NW", "C"}
    corners = {(rings, rings), (rings, -rings), (-rings, rings), (-rings, -rings)}
    assert {board.coords[p] for p in board.generation_points} == corners | {(0, 0)}


def test_generation_points_are_a_parameter() -> None:
    board = Board(generation_points=("2N", "C"))
    assert board.generation_points == ("2N", "C")
    with pytest.raises(InputError):
        Board(generation_points=("5N",))
    with pytest.raises(InputError):
        Board(rings=2, generation_points=("3NE",))


# -- starting stars (A3) ------------------------------------------------------------------------


@pytest.mark.parametrize("rings", range(3, 10))
def test_starting_points(rings: int) -> None:
    # A3: red NE, blue NW, green SW, yellow SE; each on 2D and 3D.
    board = Board(rings=rings)
    expected = {
        Color.RED: ("2NE", "3NE"),
        Color.BLUE: ("2NW", "3NW"),
        Color.GREEN: ("2SW", "3SW"),
        Color.YELLOW: ("2SE", "3SE"),
    }
    for color, points in expected.items():
        assert set(board.starting_points(HOME_DIRECTIONS[color])) == set(points)
        # Adjacent on a diagonal line: joined by a line edge.
        assert board.graph.edges[points]["kind"] == "line"
    state = AsterState.new_game(players=tuple(Color), rules=AsterRules(board=board))
    for color, points in expected.items():
        assert set(state.stars_of(color)) == set(points)
        # 10 stars a color, 2 on the board.
        assert state.reserve_of(color) == 8


def test_starting_points_need_three_rings() -> None:
    with pytest.raises(InputError):
        Board(rings=2).starting_points(Direction.NE)
    with pytest.raises(InputError):
        AsterState.new_game(rules=AsterRules(board=Board(rings=2)))


@pytest.mark.parametrize("rings", [-1, 0, 1, 10, 11, 100])
def test_rings_out_of_range_are_rejected(rings: int) -> None:
    with pytest.raises(InputError):
        Board(rings=rings)
