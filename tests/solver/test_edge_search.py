"""The edge-matching search engine against independent exhaustive enumerations.

Two enumerations, written here and sharing nothing with the engine but the problem type:

* ``permutation_arrangements``: every permutation of the pieces times every turn of each,
  kept when ``check_arrangement`` finds nothing wrong (2 x 2 only: 6,144 candidates);
* ``backtrack_arrangements``: plain recursion, column by column (the engine goes row by row),
  each piece tried in each distinct turn, every full arrangement re-checked.

Both count every arrangement; with rotations on, classes under whole-picture turns are formed
with ``canonical()``, and each class must have exactly ``whole_turns()`` members.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import asterion.solver.edge_search as edge_search
from asterion.models.edge_puzzles import generate, generate_with_solution
from asterion.models.edges import (
    BORDER,
    Arrangement,
    EdgeProblem,
    Piece,
    Placement,
    canonical,
    check_arrangement,
    normalize_turns,
    turn,
)
from asterion.solver import edge_search_parallel as parallel
from asterion.solver.edge_search import ORDERS, Variant, race_variants, search_arrangements
from asterion.solver.result import Status

ALL = 10**9


# ---------------------------------------------------------------------------------------------
# Independent enumerations


def permutation_arrangements(problem: EdgeProblem) -> set[Arrangement]:
    """Every valid arrangement, by brute force over permutations and turns."""
    n, width = len(problem.pieces), problem.width
    turn_choices = range(4) if problem.rotations else range(1)
    found: set[Arrangement] = set()
    for perm in itertools.permutations(range(n)):
        for turns in itertools.product(turn_choices, repeat=n):
            flat = [Placement(p, k) for p, k in zip(perm, turns, strict=True)]
            grid = tuple(tuple(flat[r * width : (r + 1) * width]) for r in range(problem.height))
            if not check_arrangement(problem, grid):
                found.add(normalize_turns(problem, grid))
    return found


def backtrack_arrangements(problem: EdgeProblem) -> list[Arrangement]:
    """Every valid arrangement, by recursion over the cells column by column."""
    width, height = problem.width, problem.height
    cells = [(r, c) for c in range(width) for r in range(height)]
    squares: list[list[tuple[int, Piece]]] = []
    for piece in problem.pieces:
        distinct: dict[Piece, int] = {}
        for k in range(4) if problem.rotations else range(1):
            distinct.setdefault(turn(piece, k), k)
        squares.append([(k, sq) for sq, k in distinct.items()])
    grid: dict[tuple[int, int], tuple[int, int, Piece]] = {}
    used = [False] * len(problem.pieces)
    found: list[Arrangement] = []

    def fits(r: int, c: int, sq: Piece) -> bool:
        outside = (r == 0, c == width - 1, r == height - 1, c == 0)
        if any(out != (color == BORDER) for out, color in zip(outside, sq, strict=True)):
            return False
        if r > 0 and sq[0] != problem.mate_of(grid[r - 1, c][2][2]):
            return False
        return not (c > 0 and sq[3] != problem.mate_of(grid[r, c - 1][2][1]))

    def place(i: int) -> None:
        if i == len(cells):
            arrangement = tuple(
                tuple(Placement(grid[r, c][0], grid[r, c][1]) for c in range(width))
                for r in range(height)
            )
            assert check_arrangement(problem, arrangement) == []
            found.append(arrangement)
            return
        r, c = cells[i]
        for index, options in enumerate(squares):
            if used[index]:
                continue
            for k, sq in options:
                if fits(r, c, sq):
                    used[index] = True
                    grid[r, c] = (index, k, sq)
                    place(i + 1)
                    used[index] = False
                    del grid[r, c]

    place(0)
    return found


def expected_count(problem: EdgeProblem, arrangements: list[Arrangement]) -> int:
    """Arrangements, or classes of them under whole-picture turns when rotations are on."""
    if not problem.rotations:
        return len(arrangements)
    classes: dict[Arrangement, int] = {}
    for arrangement in arrangements:
        key = canonical(problem, arrangement)
        classes[key] = classes.get(key, 0) + 1
    assert set(classes.values()) <= {problem.whole_turns()}
    return len(classes)


# ---------------------------------------------------------------------------------------------
# Problems


def mated_puzzle(width: int, height: int, pairs: int, seed: int, rotations: bool) -> EdgeProblem:
    """A puzzle under a non-identity mate: colors 2k+1 and 2k+2 mate, plus one self-mate color."""
    rng = random.Random(seed)
    mate = [0]
    for k in range(pairs):
        mate += [2 * k + 2, 2 * k + 1]
    self_mate = len(mate)
    mate.append(self_mate)
    colors = list(range(1, len(mate)))
    east = {(r, c): rng.choice(colors) for r in range(height) for c in range(width - 1)}
    south = {(r, c): rng.choice(colors) for r in range(height - 1) for c in range(width)}
    pieces: list[Piece] = []
    for r in range(height):
        for c in range(width):
            sq = (
                mate[south[r - 1, c]] if r > 0 else BORDER,
                east[r, c] if c < width - 1 else BORDER,
                south[r, c] if r < height - 1 else BORDER,
                mate[east[r, c - 1]] if c > 0 else BORDER,
            )
            pieces.append(turn(sq, rng.randrange(4)) if rotations else sq)
    rng.shuffle(pieces)
    return EdgeProblem(tuple(pieces), width, height, rotations, tuple(mate))


def all_alike(width: int, height: int, rotations: bool) -> EdgeProblem:
    """One frame and one inner color: duplicate pieces everywhere, symmetric inner pieces."""
    return generate(width, height, 1, 1, seed=0, rotations=rotations)


CASES: dict[str, EdgeProblem] = {
    "2x2 rotations": generate(2, 2, 2, 1, seed=1),
    "2x2 fixed": generate(2, 2, 1, 1, seed=1, rotations=False),
    "2x3 rotations": generate(2, 3, 1, 1, seed=2),
    "3x3 rotations": generate(3, 3, 2, 2, seed=3),
    "3x3 fixed": generate(3, 3, 1, 2, seed=3, rotations=False),
    "3x4 rotations": generate(3, 4, 2, 2, seed=4),
    "4x3 fixed": generate(4, 3, 1, 2, seed=5, rotations=False),
    "4x4 rotations": generate(4, 4, 2, 3, seed=6),
    "4x4 fixed": generate(4, 4, 1, 2, seed=6, rotations=False),
    "3x3 mate rotations": mated_puzzle(3, 3, 1, seed=7, rotations=True),
    "3x4 mate fixed": mated_puzzle(3, 4, 1, seed=8, rotations=False),
    "4x4 mate rotations": mated_puzzle(4, 4, 2, seed=9, rotations=True),
    "3x3 all alike rotations": all_alike(3, 3, True),
    "3x3 all alike fixed": all_alike(3, 3, False),
    "2x4 all alike rotations": all_alike(2, 4, True),
}


# ---------------------------------------------------------------------------------------------
# Counts against the enumerations


@pytest.mark.parametrize("name", ["2x2 rotations", "2x2 fixed"])
def test_the_two_enumerations_agree(name: str) -> None:
    problem = CASES[name]
    assert set(backtrack_arrangements(problem)) == permutation_arrangements(problem)


@pytest.mark.parametrize("name", sorted(CASES))
def test_count_equals_exhaustive_enumeration(name: str) -> None:
    problem = CASES[name]
    expected = expected_count(problem, backtrack_arrangements(problem))
    result = search_arrangements(problem, count_limit=ALL, keep=3)
    assert (result.count, result.complete) == (expected, True)
    assert result.status is (Status.OPTIMAL if expected else Status.INFEASIBLE)
    assert result.engine == "search"
    assert len(result.solutions) == min(expected, 3)
    for arrangement in result.solutions:
        assert check_arrangement(problem, arrangement) == []
    if problem.rotations:  # kept solutions lie in different classes
        keys = {canonical(problem, a) for a in result.solutions}
        assert len(keys) == len(result.solutions)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("start", ["nw", "se"])
@pytest.mark.parametrize("name", ["3x4 rotations", "4x3 fixed", "4x4 mate rotations"])
def test_every_cell_order_counts_the_same(name: str, order: str, start: str) -> None:
    problem = CASES[name]
    reference = search_arrangements(problem, count_limit=ALL)
    variant = Variant(order, start, pinned=1)
    result = search_arrangements(problem, count_limit=ALL, variant=variant)
    assert (result.count, result.complete) == (reference.count, True)


@pytest.mark.parametrize("name", ["4x4 rotations", "4x3 fixed", "3x4 mate fixed"])
def test_every_raced_variant_counts_the_same(name: str) -> None:
    problem = CASES[name]
    variants = race_variants(problem)
    assert len(variants) == len(set(variants)) >= 2
    counts = {search_arrangements(problem, count_limit=ALL, variant=v).count for v in variants}
    raced = search_arrangements(problem, count_limit=ALL, race=True)
    assert counts == {raced.count}
    assert raced.complete


@pytest.mark.parametrize("name", sorted(CASES))
def test_race_finds_one_or_proves_none(name: str) -> None:
    problem = CASES[name]
    alone = search_arrangements(problem, count_limit=ALL, race=False)
    raced = search_arrangements(problem)  # count_limit 1: restarts, then raced
    assert "raced" in raced.notes[0] or "of the restarts" in raced.notes[0]
    assert raced.count == min(alone.count, 1)
    assert raced.status is (Status.OPTIMAL if alone.count else Status.INFEASIBLE)
    assert raced.complete == (alone.count == 0)


def test_all_alike_counts_by_hand() -> None:
    # 3x3, one frame and one inner color: any corner in any corner, any edge piece on any side.
    fixed = search_arrangements(all_alike(3, 3, False), count_limit=ALL)
    turned = search_arrangements(all_alike(3, 3, True), count_limit=ALL)
    assert fixed.count == 1  # unturned, each piece's border sides name its cell
    assert turned.count == 24 * 24 // 4


def test_planted_solution_is_among_the_counted() -> None:
    problem, planted = generate_with_solution(4, 4, 2, 3, seed=6)
    result = search_arrangements(problem, count_limit=ALL, keep=10_000)
    keys = {canonical(problem, a) for a in result.solutions}
    assert canonical(problem, planted) in keys
    assert len(keys) == result.count


# ---------------------------------------------------------------------------------------------
# Limits, statuses, infeasible inputs


def test_count_limit_stops_early_and_answers() -> None:
    problem = CASES["3x3 all alike rotations"]
    result = search_arrangements(problem, count_limit=5, keep=2)
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 5, False)
    assert len(result.solutions) == 2


def test_time_out_is_unknown_not_infeasible() -> None:
    problem = generate(12, 12, 3, 9, seed=1)
    result = search_arrangements(problem, time_limit=0.0)
    assert result.status is Status.UNKNOWN
    assert (result.count, result.complete, result.solutions) == (0, False, ())


def test_time_out_while_counting_is_feasible() -> None:
    problem = all_alike(5, 5, True)
    result = search_arrangements(problem, count_limit=ALL, time_limit=0.0)
    assert result.status is Status.FEASIBLE
    assert result.count > 0 and not result.complete


def test_color_counts_that_cannot_pair_are_infeasible_at_once() -> None:
    problem = generate(4, 4, 2, 3, seed=6)
    first = problem.pieces[0]
    broken = (first[0], first[1], first[2], first[3] + 7 if first[3] else first[3])
    if broken == first:
        broken = (first[0] + 7 if first[0] else first[0], *first[1:])  # type: ignore[assignment]
    bad = EdgeProblem((broken, *problem.pieces[1:]), 4, 4, True)
    result = search_arrangements(bad)
    assert (result.status, result.complete, result.nodes) == (Status.INFEASIBLE, True, 0)
    assert result.notes


def test_infeasible_after_search() -> None:
    # Swapping two sides inside one inner piece keeps every color count but breaks the fit.
    problem = generate(3, 3, 1, 2, seed=4, rotations=False)
    pieces = list(problem.pieces)
    centre = next(i for i, p in enumerate(pieces) if BORDER not in p and p[0] != p[1])
    n, e, s, w = pieces[centre]
    pieces[centre] = (e, n, s, w)
    bad = EdgeProblem(tuple(pieces), 3, 3, False)
    expected = len(backtrack_arrangements(bad))
    result = search_arrangements(bad, count_limit=ALL)
    assert (result.count, result.complete) == (expected, True)
    if expected == 0:
        assert result.status is Status.INFEASIBLE


@pytest.mark.parametrize(
    ("problem", "kwargs"),
    [
        (EdgeProblem(((0, 0, 0, 0),), 1, 1), {}),
        (EdgeProblem(generate(2, 2, 1, 1, seed=0).pieces[:3], 2, 2), {}),
        (generate(2, 2, 1, 1, seed=0), {"count_limit": 0}),
        (EdgeProblem(generate(2, 2, 1, 1, seed=0).pieces, 2, 2, True, (0, 2, 2)), {}),
        (generate(2, 2, 1, 1, seed=0), {"variant": Variant("zigzag")}),
        (generate(2, 2, 1, 1, seed=0), {"count_limit": ALL, "keep": ALL}),
    ],
)
def test_bad_questions_raise_value_error(problem: EdgeProblem, kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        search_arrangements(problem, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("order", ["row", "frame"])
def test_many_colors_use_one_keyed_color_and_still_solve(order: str) -> None:
    # 1,100 colors: the (kind, color, color) table would be too big, so one color is keyed
    # and the other checked in the loop; a planted 16 x 16 is then found at once.
    problem = generate(16, 16, 100, 1000, seed=5, rotations=False)
    assert edge_search.build_tables(problem, edge_search.cell_order(16, 16, order)).stride == 1
    result = search_arrangements(problem, count_limit=2, race=False, variant=Variant(order))
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 1, True)


@pytest.mark.parametrize("threads", [1, 2])
def test_deterministic(threads: int) -> None:
    # The same subtrees, each with its own memo, whatever the number of threads.
    problem = generate(6, 6, 3, 5, seed=0)
    first = search_arrangements(problem, count_limit=3, keep=3, threads=threads)
    again = search_arrangements(problem, count_limit=3, keep=3, threads=1)
    assert (first.solutions, first.count, first.status, first.nodes) == (
        again.solutions,
        again.count,
        again.status,
        again.nodes,
    )


def test_plain_python_fallback_gives_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = edge_search.kernel.search_slice
    plain = getattr(compiled, "py_func", compiled)
    monkeypatch.setattr(edge_search.kernel, "search_slice", plain)
    problem = CASES["3x3 mate rotations"]
    expected = expected_count(problem, backtrack_arrangements(problem))
    assert search_arrangements(problem, count_limit=ALL).count == expected


# ---------------------------------------------------------------------------------------------
# Property: random small problems, solvable or not


@st.composite
def small_problems(draw: st.DrawFn) -> EdgeProblem:
    width = draw(st.integers(2, 3))
    height = draw(st.integers(2, 3))
    rotations = draw(st.booleans())
    seed = draw(st.integers(0, 10**6))
    if draw(st.booleans()):
        problem = mated_puzzle(width, height, draw(st.integers(0, 1)), seed, rotations)
    else:
        frame, inner = draw(st.integers(1, 2)), draw(st.integers(1, 3))
        problem = generate(width, height, frame, inner, seed, rotations)
    if draw(st.booleans()):  # perturb: turn one piece's colors (may make it unsolvable)
        pieces = list(problem.pieces)
        i = draw(st.integers(0, len(pieces) - 1))
        pieces[i] = (pieces[i][1], pieces[i][0], pieces[i][2], pieces[i][3])
        problem = EdgeProblem(tuple(pieces), width, height, rotations, problem.mate)
    return problem


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems())
def test_random_small_problems_match_enumeration(problem: EdgeProblem) -> None:
    expected = expected_count(problem, backtrack_arrangements(problem))
    result = search_arrangements(problem, count_limit=ALL, keep=2)
    assert (result.count, result.complete) == (expected, True)
    for arrangement in result.solutions:
        assert check_arrangement(problem, arrangement) == []


# ---------------------------------------------------------------------------------------------
# Randomized restarts (first arrangement only)


def test_luby_sequence() -> None:
    assert [edge_search.luby(k) for k in range(1, 32)] == [
        1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8,
        1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16,
    ]  # fmt: skip


def test_shuffle_keeps_each_candidate_list_as_a_set() -> None:
    problem = generate(5, 5, 3, 4, seed=0)
    tables = edge_search.build_tables(problem, edge_search.cell_order(5, 5, "row"))
    shuffled = edge_search.shuffled(tables, seed=1)
    assert not (shuffled.candidates == tables.candidates).all()
    for start, length in zip(tables.seg_start, tables.seg_len, strict=True):
        segment = slice(start, start + length)
        assert sorted(shuffled.candidates[segment]) == sorted(tables.candidates[segment])
        assert (shuffled.cand_piece[segment] == tables.piece[shuffled.candidates[segment]]).all()


def test_rarity_ranks_pieces_by_how_rare_their_colors_are() -> None:
    # Colors by count of sides: 1 on 2 sides, 2 on 6, 3 on 7 (border 0 on 17, not scored).
    # Piece 0 (2, 1, 3, 1): the two rarest sides; piece 1 the most common colors only.
    pieces: list[Piece] = [(2, 1, 3, 1), (3, 3, 3, 3), (2, 2, 2, 2), (3, 2, 3, 0)]
    pieces += [(0, 0, 0, 0)] * 4
    problem = EdgeProblem(tuple(pieces), 4, 2, True)
    counts = {1: 2, 2: 6, 3: 7, 0: 17}
    surprise = {color: -math.log(n / 32) for color, n in counts.items()}
    scores = [sum(surprise[c] for c in piece if c != BORDER) for piece in pieces]
    low, high = min(scores), max(scores)
    expected = [(score - low) / (high - low) for score in scores]
    assert edge_search.rarity(problem).tolist() == pytest.approx(expected)
    assert expected[0] == 1.0 and expected[2] > expected[1]  # color 2 is rarer than 3


def test_biased_shuffle_puts_rare_pieces_first_when_the_bias_dominates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With a bias far above the random draw (0..1), each list is sorted by rarity alone.
    monkeypatch.setattr(edge_search, "RESTART_BIAS", 1e6)
    problem = generate(5, 5, 3, 4, seed=0)
    tables = edge_search.build_tables(problem, edge_search.cell_order(5, 5, "row"))
    rarity = edge_search.rarity(problem)
    biased = edge_search.shuffled(tables, seed=1, rarity_of=rarity)
    for start, length in zip(tables.seg_start, tables.seg_len, strict=True):
        segment = slice(start, start + length)
        assert sorted(biased.candidates[segment]) == sorted(tables.candidates[segment])
        ranks = rarity[biased.cand_piece[segment]]
        assert (ranks[:-1] >= ranks[1:]).all()


@pytest.mark.parametrize(
    "seed,only",
    [(seed, "") for seed in range(4)]
    + [(seed, "frame") for seed in range(3)]
    + [(seed, "ordered") for seed in range(3)]
    + [(seed, "scans") for seed in range(3)],
)
def test_restarts_find_valid_arrangements_the_same_way_twice(
    monkeypatch: pytest.MonkeyPatch, seed: int, only: str
) -> None:
    # Also on one thread and on two: turn k is the same computation on either. Frame only
    # (no ordered search, every restart a frame one): the answer is a whole arrangement,
    # inside and ring. Ordered only: its turns run one after another on either thread. Scans
    # only: pieces that do not turn, so no frame; the raced scans are the searches in fixed
    # orders.
    if only == "frame":
        monkeypatch.setattr(parallel, "FRAME_SHARE", 1.0)
        monkeypatch.setattr(parallel, "ORDERED_SHARE", 0.0)
    if only == "ordered":
        monkeypatch.setattr(parallel, "ORDERED_SHARE", 1.0)
        monkeypatch.setattr(parallel, "ORDERED_SLICE", 1 << 12)  # many turns
    problem = generate(6, 6, 3, 5, seed=seed)
    if only == "scans":
        monkeypatch.setattr(parallel, "SCAN_ORDERED_SHARE", 1.0)
        monkeypatch.setattr(parallel, "SCAN_ORDERED_SLICE", 1 << 12)
        problem = generate(4, 6, 3, 4, seed=seed, rotations=False)
    first = search_arrangements(problem, threads=2)
    again = search_arrangements(problem, threads=1)
    assert "restart" in first.notes[0]
    assert first.notes[0].startswith("by the frame") or only in ("", "scans")
    assert ("in a fixed order" in first.notes[0]) == (only == "ordered") or not only
    assert ("candidates in order, row/nw/pin" in first.notes[0]) == (only == "scans") or not only
    assert (first.status, first.count, first.complete) == (Status.OPTIMAL, 1, False)
    assert not check_arrangement(problem, first.solutions[0])
    assert (first.solutions, first.nodes, first.notes[:2]) == (
        again.solutions,
        again.nodes,
        again.notes[:2],
    )


@pytest.mark.parametrize("share", [0.0, 0.25, 0.5, 0.75])
def test_restart_plan_gives_the_frame_its_share_of_the_work(
    monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    monkeypatch.setattr(parallel, "FRAME_SHARE", share)
    monkeypatch.setattr(parallel, "ORDERED_SHARE", 0.4)
    problem = generate(6, 6, 3, 5, seed=0)
    restarts = parallel.Restarts()
    restarts._frame = parallel.frame_tables(
        problem, edge_search.Run(problem, Variant(), 1, 0).tables
    )
    for _ in range(20000):
        restarts._take()
    plan = restarts._plan
    scan_work, frame_work, *ordered_work = restarts._work
    assert frame_work / (scan_work + frame_work) == pytest.approx(share, abs=0.03)
    total = sum(restarts._work)
    assert len(ordered_work) == len(parallel.ORDERS)
    for work in ordered_work:  # the ordered searches share their part equally
        assert work / total == pytest.approx(0.4 / len(ordered_work), abs=0.03)
    for kind in range(2 + len(parallel.ORDERS)):  # each kind's turns numbered 1, 2, ...
        numbers = [j for planned, j in plan if planned == kind]
        assert numbers == list(range(1, len(numbers) + 1))


def test_searches_for_a_first_arrangement_get_the_small_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every restart and ordered search has a stretch cache of its own; a count's large one
    # cost more to fill with pages than most first arrangements take.
    sizes: list[int] = []

    class Spy(parallel.FrameRun):
        def __post_init__(self) -> None:
            super().__post_init__()
            sizes.append(len(self.check[2]))

    monkeypatch.setattr(parallel, "FrameRun", Spy)
    problem = generate(7, 7, 3, 6, seed=91)  # answered by an ordered search, rarest first
    result = search_arrangements(problem, threads=1)
    assert result.count == 1 and result.notes[0].startswith("by the frame")
    assert len(sizes) >= 3  # a frame restart, and the two ordered searches
    assert set(sizes) == {1 << parallel.FIRST_CACHE_LOG}  # (25 inner cells)


@pytest.mark.parametrize("seed", [85, 87, 91])  # by a frame restart, then ordered searches
def test_an_ordered_search_is_made_only_when_its_first_turn_comes(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    made: list[str] = []
    make = parallel.Restarts._ordered_frame

    def ordered_frame(self: parallel.Restarts, *args: Any) -> parallel.FrameRun:
        made.append(args[2])
        return make(self, *args)

    monkeypatch.setattr(parallel.Restarts, "_ordered_frame", ordered_frame)
    problem = generate(7, 7, 3, 6, seed=seed)
    result = search_arrangements(problem, threads=1)
    turn = int(result.notes[0].split("(turn ")[1].split()[0])
    plan = parallel.Restarts()  # the same plan of turns, up to the answer's
    plan._frame = parallel.frame_tables(problem, edge_search.Run(problem, Variant(), 1, 0).tables)
    for _ in range(turn):
        plan._take()
    begun = [parallel.ORDERS[kind - 2] for kind, j in plan._plan if kind >= 2 and j == 1]
    assert made == begun  # on one thread, no turn after the answer's runs
    assert not check_arrangement(problem, result.solutions[0])


def test_no_frame_restarts_where_the_frame_does_not_apply() -> None:
    problem = generate(6, 5, 3, 5, seed=0, rotations=False)  # pieces that do not turn
    result = search_arrangements(problem, threads=1)
    assert result.status is Status.OPTIMAL and "restart" in result.notes[0]
    assert not result.notes[0].startswith("by the frame")


def test_restarts_do_not_touch_counting() -> None:
    problem = generate(5, 5, 3, 4, seed=0)
    counted = search_arrangements(problem, count_limit=ALL)
    assert "restart" not in counted.notes[0]
    assert counted.complete


def unsolvable_4x4() -> EdgeProblem:
    """A 4x4 with one inner piece's sides swapped: no arrangement (the exhaustive count)."""
    problem = generate(4, 4, 2, 3, seed=1)
    pieces = list(problem.pieces)
    centre = next(i for i, p in enumerate(pieces) if BORDER not in p and len(set(p)) > 2)
    n, e, s, w = pieces[centre]
    pieces[centre] = (e, n, s, w)
    bad = EdgeProblem(tuple(pieces), 4, 4, True)
    assert not backtrack_arrangements(bad)
    return bad


@pytest.mark.parametrize("restart_base", [1, edge_search.RESTART_BASE])
def test_restarts_still_prove_infeasible(
    monkeypatch: pytest.MonkeyPatch, restart_base: int
) -> None:
    # A restart that searches its whole space proves it; cut off every time (base 1), the
    # uncapped race after the restarts' share of the time limit proves it.
    monkeypatch.setattr(edge_search, "RESTART_BASE", restart_base)
    if restart_base == 1:  # and no frame restarts or ordered search (they could prove it)
        monkeypatch.setattr(parallel, "FRAME_SHARE", 0.0)
        monkeypatch.setattr(parallel, "ORDERED_SHARE", 0.0)
    bad = unsolvable_4x4()
    result = search_arrangements(bad, time_limit=1.0)
    assert (result.status, result.count, result.complete) == (Status.INFEASIBLE, 0, True)
    assert ("restart" in result.notes[0]) == (restart_base > 1)


def test_the_ordered_search_proves_infeasible_among_the_restarts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every restart is cut off (budgets of one placement); the ordered search is resumed turn
    # after turn where it stopped, so it ends, and ends with a proof.
    monkeypatch.setattr(edge_search, "RESTART_BASE", 1)
    monkeypatch.setattr(parallel, "FRAME_RESTART_BASE", 1)
    monkeypatch.setattr(parallel, "ORDERED_SLICE", 8)
    bad = unsolvable_4x4()
    for threads in (1, 2):
        result = search_arrangements(bad, time_limit=10.0, threads=threads)
        assert (result.status, result.count, result.complete) == (Status.INFEASIBLE, 0, True)
        assert "restarts: inner pieces in a fixed order" in result.notes[0]


def test_time_out_after_restarts_is_unknown() -> None:
    problem = generate(12, 12, 3, 9, seed=1)
    result = search_arrangements(problem, time_limit=0.3)
    assert result.status is Status.UNKNOWN
    assert (result.count, result.complete, result.solutions) == (0, False, ())
    assert result.nodes > 0


def test_restarts_with_exhaustive_searches_run_to_the_time_limit() -> None:
    # Square with rotations: the frame's searches in fixed orders are exhaustive, so the
    # restarts are not cut at RESTART_SHARE for a race; the clock stops them, unknown.
    problem = generate(8, 8, 3, 8, seed=0)  # unknown after 45 minutes (benchmarks)
    result = search_arrangements(problem, time_limit=0.3, threads=1)
    assert result.status is Status.UNKNOWN and result.count == 0
    assert "none found in" in result.notes[0] and "raced" not in result.notes[0]
    assert result.nodes > 0
    # 81 inner pieces, too many for the frame's words: the raced scans are the searches in
    # fixed orders, so the same.
    large = generate(11, 11, 3, 8, seed=0)
    result = search_arrangements(large, time_limit=0.3, threads=1)
    assert result.status is Status.UNKNOWN and "none found in" in result.notes[0]
    assert "raced" not in result.notes[0]


def test_without_their_share_the_scans_race_after_the_restarts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "SCAN_ORDERED_SHARE", 0.0)
    large = generate(11, 11, 3, 8, seed=0)  # no frame: 81 inner pieces
    result = search_arrangements(large, time_limit=0.3, threads=1)
    assert result.status is Status.UNKNOWN and "raced" in result.notes[0]


def test_the_raced_scans_prove_infeasible_among_the_restarts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "SCAN_ORDERED_SHARE", 1.0)
    monkeypatch.setattr(parallel, "SCAN_ORDERED_SLICE", 8)
    bad = unsolvable_4x4()
    bad = EdgeProblem(bad.pieces, 4, 4, rotations=False)  # no frame: its pieces do not turn
    assert not backtrack_arrangements(bad)
    for threads in (1, 2):
        result = search_arrangements(bad, time_limit=10.0, threads=threads)
        assert (result.status, result.count, result.complete) == (Status.INFEASIBLE, 0, True)
        assert "restarts: candidates in order" in result.notes[0]


@pytest.mark.parametrize("cells,log", [(4, 10), (16, 14), (20, 18), (25, 18), (100, 18)])
def test_a_first_arrangements_stretch_cache_grows_with_the_inside(cells: int, log: int) -> None:
    assert parallel.first_cache_log(cells) == log
