"""Counting by the frame (inside first, rings counted) against the exhaustive enumerations of
test_edge_search.py and against the row scan, which those check."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from test_edge_search import backtrack_arrangements, canonical, expected_count, mated_puzzle

import asterion.solver.edge_frame as edge_frame
import asterion.solver.edge_search as edge_search
from asterion.models.edge_puzzles import generate
from asterion.models.edges import BORDER, EdgeProblem, check_arrangement, turn
from asterion.solver import edge_frame_kernel as kernel
from asterion.solver import edge_search_parallel as parallel
from asterion.solver.compile_clock import search_clock
from asterion.solver.edge_frame import (
    FrameRun,
    FrameTables,
    frame_tables,
    ring_cell,
    turn_orbit,
    without_turn_rule,
)
from asterion.solver.edge_search import Variant, search_arrangements
from asterion.solver.result import Status

ALL = 10**9


def frame_of(problem: EdgeProblem) -> FrameTables:
    tables = edge_search.Run(problem, Variant(), 1, 0).tables
    frame = frame_tables(problem, tables)
    assert frame is not None
    return frame


def counted(frame: FrameTables, count_limit: int = ALL, keep: int = 0) -> FrameRun:
    run = FrameRun(frame, count_limit, keep)
    return edge_search.run_alone(run, deadline=float("inf"))


def row_scan_count(problem: EdgeProblem) -> int:
    """Every arrangement counted by the row scan (which the enumerations check), whole."""
    scan = search_arrangements(problem, count_limit=ALL, threads=1, time_limit=120)
    assert scan.complete
    return scan.count


SMALL = {
    "4x4 2/3 s0": generate(4, 4, 2, 3, seed=0),
    "4x4 2/3 s2": generate(4, 4, 2, 3, seed=2),
    "4x4 mate s9": mated_puzzle(4, 4, 2, seed=9, rotations=True),
    "4x4 mate s4": mated_puzzle(4, 4, 1, seed=4, rotations=True),
}


def assert_counts_like_the_enumeration(problem: EdgeProblem) -> FrameTables:
    """The frame's count is the enumeration's, with one arrangement kept per class, each
    whole and valid (the rings built back from the colors) and none twice."""
    expected = expected_count(problem, backtrack_arrangements(problem))
    frame = frame_of(problem)
    run = counted(frame, keep=expected)
    assert run.count == expected > 0
    arrangements = {edge_search._arrangement(problem, frame.problem, row) for row in run.kept}
    assert len(arrangements) == expected
    assert all(check_arrangement(problem, a) == [] for a in arrangements)
    return frame


@pytest.mark.parametrize("name", sorted(SMALL))
def test_frame_count_equals_exhaustive_enumeration(name: str) -> None:
    assert_counts_like_the_enumeration(SMALL[name])


@pytest.mark.parametrize(
    "size,frame_colors,inner_colors,seed",
    [
        (5, 3, 4, 0),
        (5, 2, 3, 1),
        (5, 3, 4, 2),
        (6, 3, 5, 0),
        (6, 3, 5, 2),
    ],
)
def test_frame_count_equals_the_row_scan(
    size: int, frame_colors: int, inner_colors: int, seed: int
) -> None:
    problem = generate(size, size, frame_colors, inner_colors, seed=seed)
    assert counted(frame_of(problem)).count == row_scan_count(problem) > 0


@pytest.mark.parametrize("size,inner_colors,seed", [(5, 4, 1), (6, 5, 0)])
def test_checking_the_stretch_after_fewer_rows_counts_the_same(
    size: int, inner_colors: int, seed: int
) -> None:
    # The stretch is checked after rows 0-1 only (CHECK_ROWS): a check prunes, it never
    # decides, so every choice finds the same arrangements, and a check after more rows never
    # places more pieces.
    problem = generate(size, size, 3, inner_colors, seed=seed)
    frame = frame_of(problem)
    runs = [
        edge_search.run_alone(FrameRun(frame, ALL, 0, rows=rows), deadline=float("inf"))
        for rows in range(size - 1)
    ]
    assert {run.count for run in runs} == {row_scan_count(problem)} != {0}
    nodes = [run.nodes for run in runs]
    assert nodes == sorted(nodes, reverse=True) and nodes[0] > nodes[-1]


@pytest.mark.parametrize("size,inner_colors,seed", [(5, 4, 0), (6, 5, 1), (7, 6, 2)])
def test_each_colors_balance_is_what_an_arrangement_turns_inward(
    size: int, inner_colors: int, seed: int
) -> None:
    # In any arrangement an inner piece's side either meets the ring or another inner piece,
    # so the balance the frame keeps for a color (one byte each, colors of inner sides in
    # order, biased) is the number of that color's sides that inner pieces turn to each other
    # in an arrangement found by the search.
    problem = generate(size, size, 3, inner_colors, seed=seed)
    found = search_arrangements(problem, count_limit=1).solutions[0]
    inward: Counter[int] = Counter()
    inside = range(1, size - 1)
    for r in inside:
        for c in inside:
            colors = turn(problem.pieces[found[r][c].piece], found[r][c].turns)
            for k, (dr, dc) in enumerate([(-1, 0), (0, 1), (1, 0), (0, -1)]):
                inward[colors[k]] += r + dr in inside and c + dc in inside
    lanes = sorted(
        {x for i, piece in enumerate(problem.pieces) if BORDER not in piece for x in piece}
    )
    word, bias = frame_of(problem).inner[17] % (1 << 64), int(kernel.BIASES) & 0xFF
    assert [(word >> 8 * k & 0xFF) - bias for k in range(len(lanes))] == [inward[x] for x in lanes]


def test_the_balance_prunes_placements_and_keeps_the_count() -> None:
    problem = generate(6, 6, 3, 5, seed=0)
    frame = frame_of(problem)
    blind = (*frame.inner[:16], np.zeros_like(frame.inner[16]), int(kernel.BIASES), frame.side)
    kept, unchecked = counted(frame), counted(replace(frame, inner=blind))
    assert kept.count == unchecked.count == row_scan_count(problem) > 0
    assert kept.nodes < unchecked.nodes


def test_stretch_keys_that_would_not_fit_in_62_bits_turn_the_cache_off() -> None:
    # 32 colors (the border, 3 frame, 28 inner): 5 bits a color. After rows 0-1 the longest
    # stretch of a 6 x 6 inside has 6 + 2 x 2 = 10 edge positions, 3 + 50 bits; after rows
    # 0-4, 6 + 2 x 5 = 16, 3 + 80 bits: no cache rather than keys that collide.
    frame = frame_of(generate(8, 8, 3, 28, seed=0))
    assert (frame.bits, frame.key_bits(2), frame.key_bits(5)) == (5, 5, 0)
    runs = [FrameRun(frame, ALL, 0, rows=rows) for rows in (2, 5)]
    assert [run.check[1] for run in runs] == [5, 0]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_any_order_of_the_inner_pieces_counts_the_same(name: str) -> None:
    # The frame restarts shuffle the inner pieces' order (and so which one is held at turn
    # 0): every order must count each class once, as the enumeration says.
    problem = SMALL[name]
    expected = expected_count(problem, backtrack_arrangements(problem))
    assert shuffled_counts(problem) == [expected] * 3


def shuffled_counts(problem: EdgeProblem, seeds: int = 3) -> list[int]:
    """The frame's counts with the inner pieces in shuffled orders (each tried in its order)."""
    inner = [i for i, piece in enumerate(problem.pieces) if BORDER not in piece]
    tables = frame_of(problem).problem
    counts = []
    for seed in range(seeds):
        order = [int(i) for i in np.random.default_rng(seed).permutation(len(inner))]
        frame = frame_tables(problem, tables, order)
        assert frame is not None
        assert frame.inner_pieces[0][0] == inner[order[0]]  # tried first
        counts.append(counted(frame).count)
    return counts


@pytest.mark.parametrize("seed", [0, 1])
def test_centre_pieces_like_their_turns_fall_back_on_the_orbit(seed: int) -> None:
    # Two inner colors make pieces like some of their turns, and some arrangements have one at
    # the centre, where the orbit rule decides (dropping its order check, or treating every
    # piece as unlike its turns, counts 563,040 and 927,360 on seed 0: both caught).
    problem = generate(5, 5, 2, 3, seed=seed)
    frame = frame_of(problem)
    assert frame.inner[8] == 4  # the centre cell
    assert bin(frame.inner[11]).count("1") == 2  # two pieces like their turns
    assert counted(frame).count == row_scan_count(problem) > 0


COPIED = {  # puzzles whose inner pieces include identical ones (the same up to a turn)
    "5x5 3/4 s1": generate(5, 5, 3, 4, seed=1),  # one pair
    "5x5 3/4 s5": generate(5, 5, 3, 4, seed=5),
    "5x5 3/3 s8": generate(5, 5, 3, 3, seed=8),  # a pair, a three and a pair: 24 orders
}


@pytest.mark.parametrize("name", sorted(COPIED))
def test_identical_pieces_are_placed_in_order_and_counted_for_every_order(name: str) -> None:
    # Swapping two identical pieces is another arrangement of the same picture: the search
    # takes one order and counts it for all (the row scan places every piece as itself).
    problem = COPIED[name]
    frame = frame_of(problem)
    times = frame.inner[13]
    assert frame.copies and times == math.prod(math.factorial(len(g)) for g in frame.copies)
    for group in frame.copies:  # identical pieces, with bits in a row
        shapes = {
            edge_frame._shape(problem.pieces[frame.inner_pieces[o][0]])
            for o in np.flatnonzero(np.isin(frame.inner[2], group))
        }
        assert len(shapes) == 1 and list(group) == list(range(group[0], group[-1] + 1))
    expected = row_scan_count(problem)
    every_order = replace(frame, inner=(*frame.inner[:12], 0, 1, *frame.inner[14:]), copies=())
    plain, ordered = counted(every_order), counted(frame, keep=expected)
    assert ordered.count == plain.count == expected
    assert ordered.nodes < plain.nodes
    # every arrangement, the copies' other orders built back: valid and distinct
    arrangements = {edge_search._arrangement(problem, frame.problem, row) for row in ordered.kept}
    assert len(arrangements) == expected
    assert all(check_arrangement(problem, a) == [] for a in arrangements)


def test_a_count_limit_is_reached_exactly_where_an_inside_counts_twice() -> None:
    frame = frame_of(COPIED["5x5 3/4 s5"])
    assert frame.inner[13] == 2
    run = counted(frame, count_limit=3, keep=3)
    assert (run.count, run.outcome, len(run.kept)) == (3, edge_search.LIMIT, 3)


ORBIT_COPIES = {  # copies where the orbit rule keeps the turn (it may keep several)
    "4x4 2/1 s0": generate(4, 4, 2, 1, seed=0),  # four identical pieces, like their turns
    "4x4 2/2 s0": generate(4, 4, 2, 2, seed=0),  # two pairs
    "4x4 2/2 s2": generate(4, 4, 2, 2, seed=2),  # three
    "5x5 3/3 s0": generate(5, 5, 3, 3, seed=0),  # a centre cell, pieces like their turns
    "5x5 3/3 s3": generate(5, 5, 3, 3, seed=3),
    "6x6 3/5 s0": generate(6, 6, 3, 5, seed=0),
}


@pytest.mark.parametrize("name", sorted(ORBIT_COPIES))
def test_copies_under_the_orbit_rule_count_each_class_once(name: str) -> None:
    # An inside whose orbit cells hold copies of its lowest set is kept in as many turns as
    # they are, each counting for that many times fewer arrangements (inside_times).
    problem = ORBIT_COPIES[name]
    expected = row_scan_count(problem)  # (the enumerations check it)
    frame = frame_of(problem)
    assert frame.copies
    run = counted(frame, keep=expected)
    assert run.count == expected
    arrangements = [edge_search._arrangement(problem, frame.problem, row) for row in run.kept]
    assert len({canonical(problem, a) for a in arrangements}) == expected  # one of each class
    assert all(check_arrangement(problem, a) == [] for a in arrangements)


def test_an_inside_that_is_its_own_turn_counts_a_quarter_of_its_orders() -> None:
    # Four identical inner pieces, each its own turn: every inside is its own turn, kept
    # once, and stands for 4! / 4 orders.
    frame = frame_of(ORBIT_COPIES["4x4 2/1 s0"])
    assert frame.copies == ((0, 1, 2, 3),) and frame.inner[13] == 24
    inside = np.array([0, 1, 2, 3], dtype=np.int32)  # the one orientation of each piece
    bit_of, centre, alike, times, sets, orbit = (frame.inner[i] for i in (2, 8, 11, 13, 14, 15))
    assert kernel.inside_times(inside, bit_of, sets, orbit, centre, alike, times) == 6


def test_kept_arrangements_are_valid_distinct_and_include_the_first() -> None:
    problem = generate(5, 5, 3, 4, seed=2)
    run = counted(frame_of(problem), keep=6)
    tables = frame_of(problem).problem
    arrangements = [edge_search._arrangement(problem, tables, row) for row in run.kept]
    assert len(arrangements) == 6 and len(set(arrangements)) == 6
    assert all(check_arrangement(problem, a) == [] for a in arrangements)


def test_count_limit_stops_at_the_limit() -> None:
    problem = generate(5, 5, 3, 4, seed=2)  # 256 classes
    run = counted(frame_of(problem), count_limit=10, keep=3)
    assert run.count == 10 and run.outcome == edge_search.LIMIT
    assert len(run.kept) == 3


@pytest.mark.parametrize("limit", [1, 10])
def test_the_rings_of_an_inside_are_counted_only_up_to_the_limit(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One frame and one inner color: all 8 edge pieces alike, all 4 corners alike, so any
    # inside takes 8! x 4! = 967,680 rings. Counted one by one to the end they made a 10 x 10
    # of this kind run past its time limit; a count to N needs no more than N of them.
    problem = generate(4, 4, 1, 1, seed=0)
    monkeypatch.setattr(edge_frame, "MAX_EXPECTED_RINGS", 10**7)  # (the frame declines it)
    run = counted(frame_of(problem), count_limit=limit, keep=1)
    assert run.count == limit and run.outcome == edge_search.LIMIT
    # the walk stopped there: each ring stands for 4! / 4 arrangements (the four identical
    # inner pieces in any order, over the four turns of the inside that the rule keeps)
    assert run.leaf_rings[0] == -(-limit // 6)
    assert len(run.kept) == 1
    # asked to keep more than the limit: no more arrangements than were counted
    assert len(counted(frame_of(problem), count_limit=limit, keep=limit + 5).kept) == limit


def test_puzzles_with_too_many_rings_an_inside_are_left_to_the_row_scan() -> None:
    # The same puzzle: about 10^6 rings an inside (expected_rings), in walks the clock cannot
    # stop. The Eternity II family keeps well under (distinct frame colors chain the ring).
    problem = generate(4, 4, 1, 1, seed=0)
    tables = edge_search.Run(problem, Variant(), 1, 0).tables
    assert frame_tables(problem, tables) is None
    frame_of(generate(7, 7, 3, 6, seed=0))  # (asserts that the frame applies)


@pytest.mark.parametrize("threads", [1, 2])
def test_search_counts_by_the_frame_when_asked_for_the_fastest_way(
    monkeypatch: pytest.MonkeyPatch, threads: int
) -> None:
    monkeypatch.setattr(parallel, "QUICK_STEPS", 1)  # split even this small search
    problem = generate(5, 5, 3, 4, seed=2)
    fast = search_arrangements(problem, count_limit=ALL, keep=4, variant=None, threads=threads)
    scan = search_arrangements(problem, count_limit=ALL, keep=4, threads=threads)
    assert fast.notes[0].startswith("by the frame") and "subtrees" in fast.notes[0]
    assert (fast.status, fast.complete, fast.count) == (Status.OPTIMAL, True, scan.count)
    assert all(check_arrangement(problem, a) == [] for a in fast.solutions)
    limited = search_arrangements(problem, count_limit=7, variant=None, threads=threads)
    assert (limited.count, limited.complete) == (7, False)


def test_split_by_frame_is_the_same_on_one_thread_or_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "QUICK_STEPS", 1)
    problem = generate(6, 6, 3, 5, seed=2)
    one, two = (
        search_arrangements(problem, count_limit=ALL, keep=3, variant=None, threads=t)
        for t in (1, 2)
    )
    assert (one.count, one.solutions, one.nodes) == (two.count, two.solutions, two.nodes)
    assert one.count == 144  # the row scan's count (test above, docs/benchmarks.md)


@pytest.mark.parametrize(
    "problem",
    [
        generate(4, 4, 2, 3, seed=0, rotations=False),  # no turns to break
        generate(3, 3, 2, 2, seed=0),  # an inside of one cell: nothing to gain
        EdgeProblem(((0, 1, 0, 1),) + ((1, 1, 1, 1),) * 15, 4, 4, True),  # not frame pieces
    ],
)
def test_frame_tables_decline_other_shapes(problem: EdgeProblem) -> None:
    tables = edge_search.Run(problem, Variant(), 1, 0).tables
    assert frame_tables(problem, tables) is None


@pytest.mark.parametrize("side", range(2, 9))
def test_turn_orbit_is_four_cells_a_quarter_turn_moves_round(side: int) -> None:
    orbit = turn_orbit(side)
    assert len(set(orbit)) == 4 and orbit == sorted(orbit)
    cells = {divmod(cell, side) for cell in orbit}
    turned = {(c, side - 1 - r) for r, c in cells}  # a quarter turn clockwise
    assert turned == cells


def test_ring_positions_go_clockwise_from_the_north_west_corner() -> None:
    cells = [ring_cell(p, 4) for p in range(12)]
    assert cells == [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 3),
        (2, 3),
        (3, 3),
        (3, 2),
        (3, 1),
        (3, 0),
        (2, 0),
        (1, 0),
    ]
    assert len(set(cells)) == 12 and np.all(np.array(cells) >= 0)


# ---------------------------------------------------------------------------------------------
# The sieve of bottoms (pruning tops whose last rows cannot be had)


def sieved(frame: FrameTables, keep: int = 3, threads: int = 2) -> parallel.Tally:
    """Counted by the frame, sieved whatever the inside's side, from the start."""
    return parallel.count_by_frame(frame, ALL, keep, float("inf"), threads, 0, ALWAYS)


ALWAYS = parallel.Sieving(sides=range(2, 9), min_limit=1, after=0, log=20)


def unsieved(frame: FrameTables, keep: int = 3) -> parallel.Tally:
    return parallel.count_by_frame(
        frame, ALL, keep, float("inf"), 2, 0, parallel.Sieving(sides=range(0))
    )


@pytest.mark.parametrize("name", sorted(SMALL))
def test_sieved_count_equals_exhaustive_enumeration(name: str) -> None:
    problem = SMALL[name]
    expected = expected_count(problem, backtrack_arrangements(problem))
    tally = sieved(frame_of(problem), keep=expected)
    assert (tally.count, tally.outcome) == (expected, edge_search.EXHAUSTED)
    arrangements = {edge_search._arrangement(problem, tally.tables, row) for row in tally.kept}
    assert len(arrangements) == expected
    assert all(check_arrangement(problem, a) == [] for a in arrangements)


@pytest.mark.parametrize(
    "size,frame_colors,inner_colors,seed",
    [(5, 2, 3, 0), (5, 2, 3, 1), (5, 3, 4, 2), (5, 3, 4, 5), (6, 3, 5, 2), (6, 3, 5, 3)],
)
def test_sieved_count_equals_the_row_scan_with_fewer_placements(
    size: int, frame_colors: int, inner_colors: int, seed: int
) -> None:
    # Three bugs tried by hand, all caught: a bottom's colors read left to right instead of
    # turned, bottoms listed with the turn rule (counts fall short of the row scan's), and no
    # bit tested (placements not fewer).
    problem = generate(size, size, frame_colors, inner_colors, seed=seed)
    frame = frame_of(problem)
    plain, tally = unsieved(frame), sieved(frame)
    assert tally.count == plain.count == row_scan_count(problem) > 0
    assert tally.outcome == edge_search.EXHAUSTED
    assert np.array_equal(tally.kept, plain.kept)  # the same first arrangements, in order
    listing = parallel.fill_sieve(frame, 2, float("inf"), 20)[1]
    assert tally.nodes - listing < plain.nodes  # the bottoms' listing aside


def test_a_count_done_within_the_first_try_lists_no_bottoms() -> None:
    frame = frame_of(generate(5, 5, 3, 4, seed=2))  # 256 classes
    patient = replace(ALWAYS, after=10**9)
    quick = parallel.count_by_frame(frame, ALL, 3, float("inf"), 2, 0, patient)
    assert (quick.count, quick.outcome, quick.tasks) == (256, edge_search.EXHAUSTED, 0)
    assert np.array_equal(quick.kept, unsieved(frame).kept)
    limited = parallel.count_by_frame(frame, 10, 3, float("inf"), 2, 0, patient)
    assert (limited.count, limited.outcome, len(limited.kept)) == (10, edge_search.LIMIT, 3)


def test_a_count_the_clock_stops_while_listing_bottoms_answers_its_first_try(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The clock stands still through the whole try and runs out as the bottoms' listing
    # starts: the split's tasks then get one slice. What the whole try found is still found,
    # a lower bound of the 256 classes, not 0 (which would read as unknown).
    frame = frame_of(generate(5, 5, 3, 4, seed=2))
    clock = [0.0]
    monkeypatch.setattr(parallel, "search_clock", lambda: clock[0])
    listing = parallel.fill_sieve

    def out_of_time(*args: Any, **kwargs: Any) -> tuple[edge_frame.Sieve | None, int]:
        clock[0] = math.inf
        return listing(*args, **kwargs)

    monkeypatch.setattr(parallel, "fill_sieve", out_of_time)
    tried = FrameRun(frame, ALL, 3)
    while tried.nodes < 4096:
        tried.advance(4096)
    tally = parallel.count_by_frame(frame, ALL, 3, 1.0, 1, 0, replace(ALWAYS, after=4096))
    assert 0 < tried.count == tally.count < 256 and tally.first_try
    assert tally.outcome == edge_search.RUNNING
    assert np.array_equal(tally.kept, tried.kept[:3])  # the first try's, in its order


def test_counts_to_a_small_limit_are_not_sieved(monkeypatch: pytest.MonkeyPatch) -> None:
    def listed(*args: object) -> None:
        raise AssertionError("bottoms listed for a count to a small limit")

    monkeypatch.setattr(parallel, "fill_sieve", listed)
    frame = frame_of(generate(5, 5, 3, 4, seed=2))
    rule = replace(ALWAYS, min_limit=100)
    tally = parallel.count_by_frame(frame, 99, 3, float("inf"), 2, 0, rule)
    assert (tally.count, tally.outcome) == (99, edge_search.LIMIT)


def test_sieve_is_the_same_on_one_thread_or_two() -> None:
    frame = frame_of(generate(6, 6, 3, 5, seed=2))
    (one, one_nodes), (two, two_nodes) = (
        parallel.fill_sieve(frame, threads, float("inf"), 20) for threads in (1, 2)
    )
    assert one is not None and two is not None
    assert np.array_equal(one.bits, two.bits) and one_nodes == two_nodes
    assert 0 < np.count_nonzero(one.bits) < len(one.bits)


def test_a_thread_lists_its_bottoms_with_one_stretch_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # A new 64 MiB table for each listed subtree cost its pages again each time; the stretch's
    # answers hold for every subtree (one thread or two list the same bits, above).
    made: list[int] = []
    new_cache = parallel.new_cache

    def counted(*args: int) -> tuple[np.ndarray, np.ndarray]:
        made.append(1)
        return new_cache(*args)

    monkeypatch.setattr(parallel, "new_cache", counted)
    frame = frame_of(generate(6, 6, 3, 5, seed=2))
    prefixes = parallel.list_frame_prefixes(frame, parallel.TASKS)[0]
    sieve, _ = parallel.fill_sieve(frame, 2, float("inf"), 20)
    assert sieve is not None and len(prefixes) > 2
    assert 1 <= len(made) <= parallel.FILL_THREADS


def test_a_sieve_cut_short_by_the_deadline_is_not_used() -> None:
    # A part of the bottoms would prune tops that have some: the count would be too low.
    frame = frame_of(generate(6, 6, 3, 5, seed=2))
    sieve, _ = parallel.fill_sieve(frame, 2, deadline=0.0, log=20)
    assert sieve is None


def test_no_room_for_a_sieve_counts_unsieved(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(side: int, log: int) -> None:
        raise MemoryError

    monkeypatch.setattr(parallel, "new_sieve", no_room)
    frame = frame_of(generate(5, 5, 3, 4, seed=2))
    assert parallel.fill_sieve(frame, 2, float("inf"), 20)[0] is None
    assert sieved(frame).count == 256


def test_bottoms_are_listed_without_the_turn_rule() -> None:
    # The 4 x 4 inside's orbit has cells in its first two rows: with the rule, some bottoms
    # (tops turned) would be missing from the listing.
    frame = frame_of(generate(6, 6, 3, 5, seed=2))
    free = without_turn_rule(frame)
    assert frame.inner[8] == -1 and max(frame.inner[9][:8]) >= 0  # an anchored cell in rows 0-1
    assert free.inner[8] == -1 and max(free.inner[9]) == -1 and len(free.inner[10]) == 0
    ruled, every = (
        edge_search.run_alone(FrameRun(f, ALL, 0, leaf=8), float("inf")).count
        for f in (frame, free)
    )
    assert every > ruled > 0


def test_progress_tells_of_the_listing_then_every_subtree_in_turn() -> None:
    frame = frame_of(generate(6, 6, 3, 5, seed=2))
    calls: list[tuple[int, int, str]] = []
    tally = parallel.count_by_frame(
        frame, ALL, 0, float("inf"), 2, 0, ALWAYS, lambda *call: calls.append(call)
    )
    stages = [stage for _, _, stage in calls]
    listing = stages.count(parallel.LISTING)
    assert listing > 0 and stages[:listing] == [parallel.LISTING] * listing
    counting = calls[listing:]
    assert [done for done, _, _ in counting] == list(range(1, tally.tasks + 1))
    assert {(total, stage) for _, total, stage in counting} == {(tally.tasks, parallel.COUNTING)}
    assert [done for done, _, _ in calls[:listing]] == list(range(1, listing + 1))


def test_a_count_with_little_time_left_does_not_compile_the_written_loops(
    monkeypatch: pytest.MonkeyPatch, fast_clock: Callable[[], None]
) -> None:
    # Compiling the loops written for a 5 x 5 inside took 23-27 s for a kind of puzzle not
    # met before, past a short limit; with less than NESTED_TIME_LEFT left, the listing of
    # the bottoms (and the split count after it) runs the one loop instead. (A clock that
    # runs a second a reading: a deadline of a real second was met by the listing, when a
    # first run's compile did not count.)
    from asterion.solver import edge_frame_nested

    loaded: list[str] = []
    monkeypatch.setattr(edge_frame_nested, "load", loaded.append)
    edge_frame._nested_search.cache_clear()  # loops an earlier test loaded would be reused
    frame = frame_of(generate(7, 7, 3, 6, seed=0))
    fast_clock()
    sieve, nodes = parallel.fill_sieve(frame, 2, search_clock() + 5, log=20)
    assert sieve is None and nodes > 0  # cut short by the deadline, having listed some
    assert loaded == []


# -- the rings of an inside, listed ---------------------------------------------------------


def plain_rings(frame: FrameTables, want: np.ndarray, wanted: bool = True) -> list[list[int]]:
    """Every ring, by the plain walk (no pruning): corners at corners, edge pieces with the
    inward color ``want`` asks (any, without ``wanted``), distinct, each out color fitting
    the next piece's in color, the last one's the first corner's."""
    edges, corners, is_corner = frame.ring[0], frame.ring[1], frame.ring[5]
    rings: list[list[int]] = []

    def walk(chain: list[tuple[int, int, int]]) -> None:  # (piece, in, out) so far
        position = len(chain)
        if position == frame.positions:
            if chain[-1][2] == chain[0][1]:
                rings.append([piece for piece, _, _ in chain])
            return
        if is_corner[position]:
            options = [
                (p, int(corners[b, 0]), int(corners[b, 1]))
                for b, p in enumerate(frame.corner_pieces)
            ]
        else:
            options = [
                (p, int(edges[b, 0]), int(edges[b, 2]))
                for b, p in enumerate(frame.edge_pieces)
                if not wanted or edges[b, 1] == want[position]
            ]
        for piece, come_in, out in options:
            if piece not in {p for p, _, _ in chain} and (not chain or chain[-1][2] == come_in):
                walk([*chain, (piece, come_in, out)])

    walk([])
    return rings


def inward_colors_of(frame: FrameTables, ring: list[int]) -> np.ndarray:
    """The inward colors a ring shows (what an inside it fits asks)."""
    edge_of = {p: b for b, p in enumerate(frame.edge_pieces)}
    want = np.full(frame.positions, -1, dtype=np.int64)
    for position, piece in enumerate(ring):
        if not frame.ring[5][position]:
            want[position] = frame.ring[0][edge_of[piece], 1]
    return want


@pytest.mark.parametrize(
    ("width", "height", "frame_colors", "seed"),
    [(4, 4, 2, 0), (4, 4, 3, 1), (5, 4, 3, 2), (5, 5, 4, 3)],
)
def test_the_rings_listed_are_every_ring_that_fits(
    width: int, height: int, frame_colors: int, seed: int
) -> None:
    # The listing prunes walks that cannot close and remembers dead ends by the kinds of
    # piece used (the clue puzzle 2 of Eternity II spent 8 s in the plain walk); it must
    # still list every ring, and a few in the plain walk's order.
    frame = frame_of(generate(width, height, frame_colors, 3, seed=seed))
    any_ring = plain_rings(frame, np.zeros(0), wanted=False)
    assert any_ring
    for ring in any_ring[:: max(1, len(any_ring) // 12)]:
        want = inward_colors_of(frame, ring)
        every = plain_rings(frame, want)
        assert ring in every
        listed = edge_frame._rings(frame, want, len(every) + 1)
        assert sorted(listed) == sorted(every)
        assert edge_frame._rings(frame, want, 2) == every[:2]
