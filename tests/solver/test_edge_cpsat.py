"""The CP-SAT arranging engine against an exhaustive enumeration written here.

The enumeration knows only the rules of models/edges.py's docstring: pieces (N, E, S, W)
clockwise, color 0 exactly on the outer sides, a side fits its neighbour's facing side when it
is that side's mate, each piece once, each piece in each of its distinct orientations (rotations
on), and with rotations on arrangements counted up to turning the whole picture (quarter turns
for a square grid, half turns otherwise). It places pieces cell by cell in reading order,
checking each against its western and northern neighbours, so it sees every arrangement; on
2 x 2 it is checked once more against plain permutations.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.models.edge_puzzles import generate
from asterion.models.edges import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Arrangement,
    EdgeProblem,
    Piece,
    Placement,
    alike_pieces,
    canonical,
    check_arrangement,
)
from asterion.solver import edge_cpsat
from asterion.solver.edge_cpsat import cp_arrangements
from asterion.solver.result import Status

# -- the exhaustive enumeration -------------------------------------------------------------------


def turned(piece: Piece, k: int) -> Piece:
    """A quarter turn clockwise brings the west side north."""
    n, e, s, w = piece
    for _ in range(k % 4):
        n, e, s, w = w, n, e, s
    return (n, e, s, w)


def own_orientations(piece: Piece, rotations: bool) -> list[int]:
    """The smallest turn count of each distinct colored square."""
    if not rotations:
        return [0]
    first: dict[Piece, int] = {}
    for k in range(4):
        first.setdefault(turned(piece, k), k)
    return sorted(first.values())


def mate_of(mate: Sequence[int] | None, color: int) -> int:
    return color if mate is None else mate[color]


def meet(problem: EdgeProblem, a: int, b: int) -> bool:
    """Facing sides of colors ``a`` and ``b`` fit: mates, or listed as near each other."""
    return a == mate_of(problem.mate, b) or (problem.near is not None and a in problem.near[b])


def fits_here(
    problem: EdgeProblem, grid: dict[tuple[int, int], Piece], r: int, c: int, sides: Piece
) -> bool:
    outside = (r == 0, c == problem.width - 1, r == problem.height - 1, c == 0)
    if any((color == 0) != out for color, out in zip(sides, outside, strict=True)):
        return False
    if c > 0 and not meet(problem, grid[r, c - 1][1], sides[3]):
        return False
    return not (r > 0 and not meet(problem, grid[r - 1, c][2], sides[0]))


def enumerate_all(problem: EdgeProblem) -> list[Arrangement]:
    """Every valid arrangement (not up to turns), by backtracking in reading order."""
    cells = problem.cells()
    found: list[Arrangement] = []
    grid: dict[tuple[int, int], Piece] = {}
    chosen: list[Placement] = []
    used = [False] * len(problem.pieces)

    def place(i: int) -> None:
        if i == len(cells):
            w = problem.width
            found.append(tuple(tuple(chosen[r * w : (r + 1) * w]) for r in range(problem.height)))
            return
        r, c = cells[i]
        for index, piece in enumerate(problem.pieces):
            if used[index]:
                continue
            for k in own_orientations(piece, problem.rotations):
                sides = turned(piece, k)
                if fits_here(problem, grid, r, c, sides):
                    used[index] = True
                    grid[r, c] = sides
                    chosen.append(Placement(index, k))
                    place(i + 1)
                    chosen.pop()
                    used[index] = False

    place(0)
    return found


def valid(problem: EdgeProblem, arrangement: Arrangement) -> bool:
    """The rules checked on a whole arrangement at once."""
    grid = {
        (r, c): turned(problem.pieces[p.piece], p.turns)
        for r, row in enumerate(arrangement)
        for c, p in enumerate(row)
    }
    return all(fits_here(problem, grid, r, c, grid[r, c]) for r, c in problem.cells())


def picture_turns(problem: EdgeProblem, arrangement: Arrangement) -> Iterator[Arrangement]:
    """The arrangement turned as a whole by the turns that identify arrangements."""

    def smallest(index: int, k: int) -> int:
        piece = problem.pieces[index]
        return next(j for j in range(4) if turned(piece, j) == turned(piece, k))

    h, w = problem.height, problem.width
    yield arrangement
    if not problem.rotations:
        return
    if h == w:
        grid = arrangement
        for _ in range(3):
            # Clockwise: the cell (r, c) goes to (c, h - 1 - r).
            grid = tuple(
                tuple(
                    Placement(
                        grid[h - 1 - c][r].piece,
                        smallest(grid[h - 1 - c][r].piece, grid[h - 1 - c][r].turns + 1),
                    )
                    for c in range(h)
                )
                for r in range(w)
            )
            yield grid
    else:
        yield tuple(
            tuple(
                Placement(p.piece, smallest(p.piece, p.turns + 2))
                for p in reversed(arrangement[h - 1 - r])
            )
            for r in range(h)
        )


def classes(problem: EdgeProblem, arrangements: list[Arrangement]) -> set[Arrangement]:
    return {min(picture_turns(problem, a)) for a in arrangements}


def brute_count(problem: EdgeProblem) -> int:
    return len(classes(problem, enumerate_all(problem)))


# -- problems -------------------------------------------------------------------------------------


def solved_problem(
    width: int,
    height: int,
    colors: int,
    rng: random.Random,
    *,
    rotations: bool = False,
    mate: tuple[int, ...] | None = None,
) -> EdgeProblem:
    """A problem made from a solved grid: random inner colors, pieces shuffled (and turned)."""
    palette = list(range(1, colors + 1)) if mate is None else list(range(1, len(mate)))
    sides = {(r, c): [0, 0, 0, 0] for r in range(height) for c in range(width)}
    for (r, c), piece in sides.items():
        if c + 1 < width:
            piece[1] = rng.choice(palette)
            sides[r, c + 1][3] = mate_of(mate, piece[1])
        if r + 1 < height:
            piece[2] = rng.choice(palette)
            sides[r + 1, c][0] = mate_of(mate, piece[2])
    pieces = [(p[0], p[1], p[2], p[3]) for p in sides.values()]
    rng.shuffle(pieces)
    if rotations:
        pieces = [turned(p, rng.randrange(4)) for p in pieces]
    return EdgeProblem(tuple(pieces), width, height, rotations, mate)


def check_engine(problem: EdgeProblem, expected: int | None = None) -> None:
    """The engine counts what the enumeration counts, and what it keeps is among it."""
    every = enumerate_all(problem)
    want = len(classes(problem, every))
    if expected is not None:
        assert want == expected  # the hand count agrees with the enumeration
    result = cp_arrangements(problem, count_limit=want + 1, keep=want + 1, time_limit=20)
    assert result.count == want
    assert result.complete
    assert result.status is (Status.OPTIMAL if want else Status.INFEASIBLE)
    assert len(result.solutions) == want
    assert set(every) >= set(result.solutions)
    assert classes(problem, list(result.solutions)) == classes(problem, every)
    for arrangement in result.solutions:
        assert check_arrangement(problem, arrangement) == []


def test_the_enumeration_agrees_with_plain_permutations_on_2x2() -> None:
    rng = random.Random(4)
    for rotations in (False, True):
        for colors in (1, 2):
            problem = solved_problem(2, 2, colors, rng, rotations=rotations)
            brute = set()
            for order in itertools.permutations(range(4)):
                options = [own_orientations(problem.pieces[i], rotations) for i in order]
                for ks in itertools.product(*options):
                    placed = [Placement(i, k) for i, k in zip(order, ks, strict=True)]
                    arrangement = (tuple(placed[:2]), tuple(placed[2:]))
                    if valid(problem, arrangement):
                        brute.add(arrangement)
                    assert (check_arrangement(problem, arrangement) == []) is valid(
                        problem, arrangement
                    )
            assert brute == set(enumerate_all(problem))


# -- hand-counted problems ------------------------------------------------------------------------

CORNERS_2X2 = ((0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0))
"""NW, NE, SE, SW corners of a 2 x 2 with one inner color."""


def test_2x2_one_color_without_rotations_is_unique() -> None:
    # Each corner piece has its border sides where only one corner has them.
    check_engine(EdgeProblem(CORNERS_2X2, 2, 2), expected=1)


def test_2x2_one_color_with_rotations() -> None:
    # Turned, every piece fits every corner: 4! arrangements, in classes of 4 turns.
    check_engine(EdgeProblem(CORNERS_2X2, 2, 2, rotations=True), expected=6)


def test_2x2_with_a_non_identity_mate() -> None:
    # 1 and 2 mate (a line read clockwise on one side, reversed on the other); 3 mates itself.
    mate = (0, 2, 1, 3)
    nw, ne, se, sw = (0, 1, 3, 0), (0, 0, 3, 2), (3, 0, 0, 2), (3, 1, 0, 0)
    check_engine(EdgeProblem((nw, ne, se, sw), 2, 2, mate=mate), expected=1)
    # With identity matching, 1 never meets 1: no arrangement.
    check_engine(EdgeProblem((nw, ne, se, sw), 2, 2), expected=0)
    # Turned pieces, counted up to turns: still the one picture.
    turned_pieces = tuple(turned(p, k) for p, k in zip((nw, ne, se, sw), (1, 2, 3, 1), strict=True))
    check_engine(EdgeProblem(turned_pieces, 2, 2, rotations=True, mate=mate), expected=1)


def test_duplicate_pieces_swap() -> None:
    # 3 x 2, one color, no rotations: every piece's border sides fix its cell.
    pieces = (
        (0, 1, 1, 0),
        (0, 1, 1, 1),
        (0, 0, 1, 1),
        (1, 1, 0, 0),
        (1, 1, 0, 1),
        (1, 0, 0, 1),
    )
    check_engine(EdgeProblem(pieces, 3, 2), expected=1)
    # The southern middle piece replaced by a copy of the northern one: nothing fits south.
    duplicated = (*pieces[:4], pieces[1], pieces[5])
    check_engine(EdgeProblem(duplicated, 3, 2), expected=0)
    # 4 x 2: two alike northern middle pieces and two alike southern ones: 2 x 2 = 4.
    north, south = pieces[:3], pieces[3:]
    wide = (north[0], north[1], north[1], north[2], south[0], south[1], south[1], south[2])
    check_engine(EdgeProblem(wide, 4, 2), expected=4)


def test_symmetric_pieces_count_once_per_distinct_orientation() -> None:
    # 3 x 3, one inner color, rotations on: the centre (1, 1, 1, 1) has one orientation; the
    # four corner pieces fit any corner, the four border pieces any border cell:
    # 4! * 4! arrangements, in classes of 4.
    corner, border, centre = (0, 1, 1, 0), (0, 1, 1, 1), (1, 1, 1, 1)
    pieces = (corner,) * 4 + (border,) * 4 + (centre,)
    check_engine(EdgeProblem(pieces, 3, 3, rotations=True), expected=24 * 24 // 4)
    # A centre (1, 2, 1, 2) has two: with 1 and 2 across, borders split in two kinds.
    mixed = ((0, 1, 2, 0), (0, 2, 1, 1), (0, 0, 1, 2), (2, 1, 0, 0), (1, 2, 0, 1), (1, 0, 0, 2))
    check_engine(EdgeProblem(mixed, 3, 2, rotations=True))
    check_engine(EdgeProblem(mixed, 3, 2, rotations=False))


def test_a_2x3_turned_by_a_half_only() -> None:
    # Not square: classes of 2 (the half turn); a quarter turn is no other picture.
    rng = random.Random(11)
    problem = solved_problem(2, 3, 1, rng, rotations=True)
    every = enumerate_all(problem)
    assert len(every) == 2 * len(classes(problem, every))
    check_engine(problem)


@pytest.mark.parametrize(
    ("width", "height", "colors", "rotations", "seed"),
    [
        (2, 2, 1, False, 0),
        (2, 3, 2, False, 1),
        (3, 2, 1, True, 2),
        (3, 3, 2, False, 3),
        (3, 3, 2, True, 4),
        (3, 3, 1, False, 5),
        (3, 3, 3, True, 6),
        (4, 2, 1, True, 7),
    ],
)
@pytest.mark.parametrize("short_presolve", [False, True])
def test_counts_equal_the_enumeration(
    width: int,
    height: int,
    colors: int,
    rotations: bool,
    seed: int,
    short_presolve: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if short_presolve:  # every model counts as large (edge_cpsat.LIGHT_PRESOLVE)
        monkeypatch.setattr(edge_cpsat, "LIGHT_PRESOLVE", 0)
    check_engine(solved_problem(width, height, colors, random.Random(seed), rotations=rotations))


def test_a_large_model_gets_the_short_presolve() -> None:
    small = edge_cpsat._Model(MANY)
    assert len(small.x) <= edge_cpsat.LIGHT_PRESOLVE
    assert edge_cpsat._solver(small, 1.0, 0).parameters.max_presolve_iterations > 1
    large = generate(12, 12, 5, 288, seed=0)
    model = edge_cpsat._Model(large)
    assert len(model.x) > edge_cpsat.LIGHT_PRESOLVE
    parameters = edge_cpsat._solver(model, 1.0, 0).parameters
    assert (parameters.max_presolve_iterations, parameters.cp_model_probing_level) == (1, 0)


@pytest.mark.parametrize("rotations", [False, True])
def test_counts_with_a_non_identity_mate(rotations: bool) -> None:
    mate = (0, 2, 1, 4, 3, 5)
    for seed in range(3):
        check_engine(solved_problem(3, 3, 0, random.Random(seed), rotations=rotations, mate=mate))


def canonical_agrees(problem: EdgeProblem, arrangement: Arrangement) -> None:
    assert canonical(problem, arrangement) == min(picture_turns(problem, arrangement))


def test_canonical_is_the_least_turned_picture() -> None:
    rng = random.Random(3)
    for width, height in ((2, 2), (3, 3), (2, 3)):
        problem = solved_problem(width, height, 1, rng, rotations=True)
        for arrangement in enumerate_all(problem)[:30]:
            canonical_agrees(problem, arrangement)


MATES = st.sampled_from([None, (0, 2, 1), (0, 1, 2), (0, 2, 1, 3), (0, 3, 2, 1)])


@settings(max_examples=25, deadline=None)
@given(
    size=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]),
    colors=st.integers(1, 3),
    rotations=st.booleans(),
    mate=MATES,
    seed=st.integers(0, 2**32 - 1),
    damage=st.booleans(),
)
def test_random_small_problems(
    size: tuple[int, int],
    colors: int,
    rotations: bool,
    mate: tuple[int, ...] | None,
    seed: int,
    damage: bool,
) -> None:
    rng = random.Random(seed)
    width, height = size
    problem = solved_problem(width, height, colors, rng, rotations=rotations, mate=mate)
    if damage:
        # One inner side recolored: often no arrangement is left, sometimes another.
        pieces = list(problem.pieces)
        i = rng.randrange(len(pieces))
        sides = list(pieces[i])
        inner = [j for j, color in enumerate(sides) if color]
        j = rng.choice(inner)
        palette = range(1, len(mate)) if mate else range(1, colors + 2)
        sides[j] = rng.choice(list(palette))
        pieces[i] = (sides[0], sides[1], sides[2], sides[3])
        problem = EdgeProblem(tuple(pieces), width, height, rotations, mate)
    check_engine(problem)


# -- forced links ---------------------------------------------------------------------------------


def islands_of(problem: EdgeProblem) -> dict[int, tuple[int, int, int]]:
    return edge_cpsat.forced_islands(problem, alike_pieces(problem))


def test_distinct_inner_colors_tie_every_piece_into_one_island() -> None:
    # Every inner side's color is its own, so each piece's neighbours are forced: one island,
    # its offsets those of the solved grid it was cut from.
    pieces = [[0, 0, 0, 0] for _ in range(9)]
    color = iter(range(1, 100))
    for r, c in itertools.product(range(3), range(3)):
        if c < 2:
            pieces[3 * r + c][EAST] = pieces[3 * r + c + 1][WEST] = next(color)
        if r < 2:
            pieces[3 * r + c][SOUTH] = pieces[3 * r + c + 3][NORTH] = next(color)
    order = [4, 7, 0, 8, 2, 5, 1, 6, 3]  # piece i of the problem is grid cell order[i]
    problem = EdgeProblem(tuple(tuple(pieces[cell]) for cell in order), 3, 3)  # type: ignore[misc]
    islands = islands_of(problem)
    assert len(islands) == 9 and {first for first, _, _ in islands.values()} == {0}
    for piece, (_, dr, dc) in islands.items():
        assert divmod(order[piece], 3) == (1 + dr, 1 + dc)  # piece 0 sits in the middle
    check_engine(problem, expected=1)


def test_no_islands_when_tiles_turn_or_pieces_are_alike() -> None:
    problem = solved_problem(3, 3, 40, random.Random(2))
    assert islands_of(problem)
    assert not islands_of(EdgeProblem(problem.pieces, 3, 3, True))
    twice = EdgeProblem((problem.pieces[0],) * 2 + problem.pieces[2:], 3, 3)
    assert 0 not in islands_of(twice) and 1 not in islands_of(twice)


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)]),
    colors=st.integers(3, 12),
    mate=st.sampled_from([None, (0, 2, 1, 4, 3, 6, 5)]),
    seed=st.integers(0, 2**32 - 1),
    damage=st.booleans(),
)
def test_islands_hold_in_every_arrangement(
    size: tuple[int, int], colors: int, mate: tuple[int, ...] | None, seed: int, damage: bool
) -> None:
    # Forced links are facts of every arrangement (checked on the enumeration), and CP-SAT,
    # which places each island whole, still counts what the enumeration counts.
    rng = random.Random(seed)
    problem = solved_problem(*size, colors, rng, mate=mate)
    if damage:  # a piece's inner side recolored: islands may conflict, or none exist
        pieces = [list(piece) for piece in problem.pieces]
        piece = rng.choice([p for p in pieces if any(p)])
        side = rng.choice([k for k, color in enumerate(piece) if color])
        piece[side] = rng.randrange(1, len(mate) if mate else colors + 1)
        problem = EdgeProblem(tuple(map(tuple, pieces)), *size, False, mate)  # type: ignore[arg-type]
    islands = islands_of(problem)
    for arrangement in enumerate_all(problem):
        where = {
            placed.piece: (r, c)
            for r, row in enumerate(arrangement)
            for c, placed in enumerate(row)
        }
        for piece, (first, dr, dc) in islands.items():
            assert where[piece] == (where[first][0] + dr, where[first][1] + dc)
    check_engine(problem)


# -- limits and status ----------------------------------------------------------------------------

MANY = EdgeProblem(((0, 1, 1, 0),) * 4 + ((0, 1, 1, 1),) * 4 + ((1, 1, 1, 1),), 3, 3, True)
"""144 classes (test_symmetric_pieces_count_once_per_distinct_orientation)."""


@pytest.mark.parametrize(("limit", "keep"), [(1, 2), (2, 2), (5, 3), (143, 1)])
def test_the_count_limit_is_respected(limit: int, keep: int) -> None:
    result = cp_arrangements(MANY, count_limit=limit, keep=keep)
    assert result.count == limit
    # The question "at least `limit`?" is answered, but the space is not exhausted.
    assert result.status is Status.OPTIMAL
    assert not result.complete
    assert len(result.solutions) == min(keep, limit)
    assert len(classes(MANY, list(result.solutions))) == len(result.solutions)
    for arrangement in result.solutions:
        assert check_arrangement(MANY, arrangement) == []


def test_a_limit_above_the_count_gives_the_exact_count() -> None:
    result = cp_arrangements(MANY, count_limit=200, keep=0)
    assert (result.count, result.complete, result.status) == (144, True, Status.OPTIMAL)
    assert result.solutions == ()
    assert result.engine == "cp-sat"


def test_unique_and_infeasible_status() -> None:
    unique = EdgeProblem(CORNERS_2X2, 2, 2)
    result = cp_arrangements(unique, count_limit=2)
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 1, True)
    assert result.solutions == (((Placement(0), Placement(1)), (Placement(3), Placement(2))),)
    none = EdgeProblem((*CORNERS_2X2[:3], (1, 2, 0, 0)), 2, 2)
    for limit in (1, 2):
        result = cp_arrangements(none, count_limit=limit)
        assert (result.status, result.count, result.complete) == (Status.INFEASIBLE, 0, True)
        assert result.solutions == ()
    # A piece with border colors on opposite sides fits no cell.
    bad = EdgeProblem((*CORNERS_2X2[:3], (0, 1, 0, 1)), 2, 2, rotations=True)
    assert cp_arrangements(bad).status is Status.INFEASIBLE


def test_a_search_stopped_by_time_is_not_a_no() -> None:
    rng = random.Random(2)
    big = solved_problem(12, 12, 2, rng, rotations=True)
    result = cp_arrangements(big, count_limit=10**6, time_limit=0.05)
    assert not result.complete
    if result.count:
        assert result.status is Status.FEASIBLE
    else:
        assert result.status is Status.UNKNOWN
    for arrangement in result.solutions:
        assert check_arrangement(big, arrangement) == []


def test_building_the_model_counts_against_the_time_limit(fast_clock: Callable[[], None]) -> None:
    # A 32 x 32 set has millions of Booleans: building them once took a minute under a
    # five-second limit. Here each cell built reads the clock; 3 readings exhaust the limit,
    # so the 4 x 4 model is never finished, let alone solved.
    fast_clock()
    problem = solved_problem(4, 4, 2, random.Random(0), rotations=True)
    result = cp_arrangements(problem, time_limit=3.0)
    assert (result.status, result.count, result.complete) == (Status.UNKNOWN, 0, False)
    assert result.nodes == 0  # the solver never ran


# -- alike pieces ---------------------------------------------------------------------------------


def one_color_frame(size: int, rotations: bool) -> EdgeProblem:
    """A size x size picture with one inner color: corners, border pieces and inner pieces,
    the border pieces given turned to their cells (so alike only up to a turn)."""
    sides = {}
    for r in range(size):
        for c in range(size):
            north, south = int(r > 0), int(r < size - 1)
            west, east = int(c > 0), int(c < size - 1)
            sides[r, c] = (north, east, south, west)
    return EdgeProblem(tuple(sides.values()), size, size, rotations)


def test_alike_pieces_are_counted_by_the_factorial_of_their_number() -> None:
    # 5 x 5, rotations off: the 9 inner pieces swap freely (9!), and so do the 3 border
    # pieces of each side (3!^4); the corners fit one cell each: 9! * 6^4 arrangements,
    # far too many to list one by one.
    problem = one_color_frame(5, rotations=False)
    expected = math.factorial(9) * math.factorial(3) ** 4
    result = cp_arrangements(problem, count_limit=10**12, keep=3)
    assert (result.count, result.complete, result.status) == (expected, True, Status.OPTIMAL)
    assert len(set(result.solutions)) == 3
    for arrangement in result.solutions:
        assert check_arrangement(problem, arrangement) == []
    # With rotations, classes of turns: the lowest corner piece held north-west, the other
    # three corners in 3! ways, the 12 border pieces (alike up to a turn) in 12!, the 9
    # inner ones in 9!.
    turned = one_color_frame(5, rotations=True)
    expected = math.factorial(3) * math.factorial(12) * math.factorial(9)
    result = cp_arrangements(turned, count_limit=10**18, keep=2)
    assert (result.count, result.complete) == (expected, True)
    for arrangement in result.solutions:
        assert check_arrangement(turned, arrangement) == []


def test_a_count_limit_below_one_arrangement_of_kinds() -> None:
    # One arrangement of kinds stands for 9! * 6^4 arrangements: a limit of 5 is reached
    # at once, and 5 distinct arrangements are kept.
    problem = one_color_frame(5, rotations=False)
    result = cp_arrangements(problem, count_limit=5, keep=10)
    assert (result.count, result.complete, result.status) == (5, False, Status.OPTIMAL)
    assert len(set(result.solutions)) == 5
