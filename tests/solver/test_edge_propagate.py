"""The forward-checking engine against the exhaustive enumeration of test_edge_cpsat.py.

That enumeration knows only the rules (pieces clockwise from north, border color exactly
outside, mates facing, each piece once, classes under whole-picture turns with rotations on),
so a count that agrees with it is right for an independent reason.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_edge_cpsat import classes, enumerate_all, solved_problem

from asterion.models.edge_puzzles import generate
from asterion.models.edges import EdgeProblem, check_arrangement
from asterion.models.nacht import edge_problem
from asterion.models.nacht_cut import cut
from asterion.models.nacht_files import default_tileset
from asterion.puzzles.nacht import shipped_chart
from asterion.solver import edge_propagate
from asterion.solver.edge_propagate import propagate_arrangements
from asterion.solver.edge_result import EdgeSearchResult
from asterion.solver.nacht_solve import (
    ALIKE,
    CROWDED,
    PROPAGATE_NODES,
    alike_share,
    arrange,
    choose_engine,
    crowding,
    run_engine,
)
from asterion.solver.result import Status


def check_counts(problem: EdgeProblem) -> None:
    every = enumerate_all(problem)
    want = classes(problem, every)
    result = propagate_arrangements(problem, count_limit=len(want) + 1, keep=len(want) + 1)
    assert (result.count, result.complete) == (len(want), True)
    assert result.status is (Status.OPTIMAL if want else Status.INFEASIBLE)
    assert set(result.solutions) <= set(every)
    assert classes(problem, list(result.solutions)) == want


@pytest.mark.parametrize("long", [edge_propagate.LONG, 2])
@settings(max_examples=40, deadline=None)
@given(
    width=st.integers(2, 3),
    height=st.integers(2, 3),
    colors=st.integers(1, 3),
    rotations=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_counts_match_the_enumeration(
    long: int, width: int, height: int, colors: int, rotations: bool, seed: int
) -> None:
    # Lists longer than LONG keep used pieces until their cell gains a neighbour or is
    # chosen (a large cut sky's blank tiles); with LONG at 2, nearly every list does here.
    problem = solved_problem(width, height, colors, random.Random(seed), rotations=rotations)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(edge_propagate, "LONG", long)
        check_counts(problem)


@pytest.mark.parametrize("seed", range(4))
def test_counts_match_with_a_mate_table(seed: int) -> None:
    # Colors 1<->2 are a pair (a fragment and its other half), 3 mates itself.
    mate = (0, 2, 1, 3)
    problem = solved_problem(3, 2, 0, random.Random(seed), rotations=seed % 2 == 1, mate=mate)
    check_counts(problem)


def test_a_set_missing_a_corner_has_no_arrangement() -> None:
    problem = solved_problem(3, 3, 2, random.Random(1))
    broken = EdgeProblem((*problem.pieces[:-1], (5, 5, 5, 5)), 3, 3)
    result = propagate_arrangements(broken, count_limit=2)
    assert (result.status, result.count, result.complete) == (Status.INFEASIBLE, 0, True)


def test_the_count_limit_stops_the_search_with_the_question_answered() -> None:
    problem = solved_problem(3, 3, 1, random.Random(0), rotations=True)
    want = len(classes(problem, enumerate_all(problem)))
    assert want > 3  # one color: many arrangements
    result = propagate_arrangements(problem, count_limit=3, keep=2)
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 3, False)
    assert len(result.solutions) == 2
    assert all(check_arrangement(problem, a) == [] for a in result.solutions)


def test_the_node_limit_gives_unknown_never_no() -> None:
    hard = generate(6, 6, 2, 3, seed=1)  # few colors: far beyond a tiny budget
    result = propagate_arrangements(hard, count_limit=2, node_limit=50)
    assert result.status in (Status.UNKNOWN, Status.FEASIBLE)
    assert not result.complete


def test_the_shipped_sky_is_settled_within_the_budget() -> None:
    # rules/nacht.md: the shipped sky assembles one way only; the portfolio must prove it
    # here, without handing over to CP-SAT.
    problem = edge_problem(default_tileset()).problem
    result = propagate_arrangements(problem, count_limit=10, node_limit=PROPAGATE_NODES)
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 1, True)
    assert run_engine(problem, "auto", count_limit=10).engine == "propagate"


def test_auto_hands_an_undecided_designed_set_to_cp_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    import asterion.solver.nacht_solve as nacht_solve

    monkeypatch.setattr(nacht_solve, "PROPAGATE_NODES", 1)
    problem = edge_problem(default_tileset()).problem
    result = run_engine(problem, "auto", count_limit=10)
    assert result.engine == "cp-sat"
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 1, True)


def test_arrangements_found_before_the_hand_over_stand_when_the_clock_stops_the_next_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 8x8 5/128 seed 0, a designed-like set with two arrangements: propagate's budget ends
    # after it found both but before it proved there is no third. CP-SAT, then stopped by
    # the clock with none found, must not turn the answer into unknown.
    import asterion.solver.nacht_solve as nacht_solve

    problem = generate(8, 8, 5, 128, seed=0)
    assert choose_engine(problem) == "propagate+cp-sat"
    alone = propagate_arrangements(problem, count_limit=3, node_limit=100)
    assert (alone.count, alone.complete) == (2, False)
    stopped = EdgeSearchResult(Status.UNKNOWN, 0, False, nodes=7, wall_time=1.0, engine="cp-sat")
    monkeypatch.setattr(nacht_solve, "PROPAGATE_NODES", 100)
    monkeypatch.setattr(nacht_solve, "_exact", lambda *args: stopped)
    result = run_engine(problem, "auto", count_limit=3)
    assert (result.status, result.count, result.complete) == (Status.FEASIBLE, 2, False)
    assert (result.engine, result.nodes) == ("propagate", alone.nodes + 7)
    assert result.solutions == alone.solutions
    assert all(check_arrangement(problem, a) == [] for a in result.solutions)


def test_auto_settles_a_small_crowded_set_without_loading_the_search() -> None:
    # 4x4 2/3 seed 0: few colors, the search's kind of set, but small; its 16 classes are
    # what every peer of benchmarks/bench_nacht.py counted (docs/benchmarks.md).
    problem = generate(4, 4, 2, 3, seed=0)
    assert crowding(problem) > CROWDED
    result = run_engine(problem, "auto", count_limit=100, keep=100)
    assert result.engine == "propagate"
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 16, True)
    assert all(check_arrangement(problem, a) == [] for a in result.solutions)


def test_auto_hands_a_small_crowded_set_to_the_search_when_the_budget_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asterion.solver.nacht_solve as nacht_solve

    monkeypatch.setattr(nacht_solve, "PROPAGATE_FIRST_NODES", 1)
    result = run_engine(generate(4, 4, 2, 3, seed=0), "auto", count_limit=100)
    assert result.engine == "search"
    assert (result.status, result.count, result.complete) == (Status.OPTIMAL, 16, True)


def test_a_uniqueness_question_the_row_scan_does_not_settle_soon_is_counted_by_the_frame() -> None:
    # 7x7 3/6 seed 2 has millions of arrangements (docs/benchmarks.md), yet the row scan's
    # split found none of two in 10 s: `solve --count-limit 2` answered unknown where the
    # frame finds two at once.
    problem = generate(7, 7, 3, 6, seed=2)
    result = run_engine(problem, "auto", count_limit=2, time_limit=120)
    assert result.notes[0].startswith("by the frame")
    assert (result.status, result.count, len(result.solutions)) == (Status.OPTIMAL, 2, 2)
    assert all(check_arrangement(problem, a) == [] for a in result.solutions)
    assert result.solutions[0] != result.solutions[1]


def test_auto_sends_a_larger_crowded_set_straight_to_the_search() -> None:
    assert choose_engine(generate(5, 5, 3, 4, seed=0)) == "propagate+search"
    assert choose_engine(generate(6, 6, 3, 5, seed=0)) == "search"
    # Generated puzzles of the search's kind have few alike pieces, well under the share
    # that sends a crowded set to CP-SAT instead.
    for size, frame, inner in ((6, 3, 5), (7, 3, 6), (8, 3, 8)):
        for seed in range(10):
            problem = generate(size, size, frame, inner, seed=seed)
            assert alike_share(problem) <= ALIKE - 0.2
            assert choose_engine(problem) == "search"


def test_a_cut_sky_of_alike_blank_tiles_goes_to_cp_sat() -> None:
    # The shipped chart cut 10x10 with a wide blank margin: its sides are crowded (blank
    # ones alike) and two thirds of its tiles are alike some other. The search was still
    # undecided at 10 s there; CP-SAT, placing alike tiles as kinds, answers.
    tileset = cut(shipped_chart(), 10, 10, (-2.0, -2.0, 7.0, 7.0), shuffle_seed=1)
    encoding = edge_problem(tileset)
    problem = encoding.problem
    assert crowding(problem) > CROWDED and alike_share(problem) > ALIKE
    assert choose_engine(problem) == "cp-sat"
    result = arrange(tileset, encoding, "auto", count_limit=2, time_limit=60)
    assert (result.status, result.count) == (Status.OPTIMAL, 2)  # alike tiles swap


def test_the_clock_is_read_at_every_node(fast_clock: Callable[[], None]) -> None:
    # On a large set a node can take a millisecond or more: the deadline is checked at each
    # one, not every few hundred. Each reading of this clock moves it one second on.
    fast_clock()
    result = propagate_arrangements(generate(6, 6, 2, 3, seed=1), count_limit=2, time_limit=5)
    assert result.status is Status.UNKNOWN and not result.complete
    assert result.nodes == 6  # the start read 1, node k reads k + 1: past 1 + 5 at node 6


def test_the_largest_grid_is_arranged() -> None:
    # 32 x 32 (the format's largest) with nearly every side color its own, as a cut sky's
    # fragments are: one level of recursion a cell goes past Python's default limit, and
    # every cell holds thousands of options before its neighbours are placed.
    problem = generate(32, 32, 5, 2000, seed=0)
    result = propagate_arrangements(problem, count_limit=1, time_limit=600)
    assert (result.status, result.count) == (Status.OPTIMAL, 1)
    assert check_arrangement(problem, result.solutions[0]) == []
