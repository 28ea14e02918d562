"""The edge search on several threads, and its memo, against the serial search and the
exhaustive enumerations of test_edge_search.py.

The serial search (one thread) is itself checked against the enumerations there; here the
split counter must give the same count and the same first arrangements whatever the number of
threads, and the restarts the same answer on one thread or two.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from test_edge_search import (
    CASES,
    backtrack_arrangements,
    expected_count,
    mated_puzzle,
)

import asterion.solver.edge_search as edge_search
import asterion.solver.edge_search_kernel as kernel
from asterion.models.edge_puzzles import generate
from asterion.models.edges import EdgeProblem, check_arrangement
from asterion.solver import edge_search_parallel as parallel
from asterion.solver.edge_search import Variant, search_arrangements
from asterion.solver.result import Status

ALL = 10**9


@pytest.fixture(autouse=True)
def always_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """These puzzles are small enough to be counted whole at once; split them all the same."""
    monkeypatch.setattr(parallel, "QUICK_STEPS", 1)


PUZZLES: dict[str, EdgeProblem] = {
    "4x4 2/3 s0": generate(4, 4, 2, 3, seed=0),
    "4x4 fixed s2": generate(4, 4, 1, 2, seed=2, rotations=False),
    "5x5 3/4 s0": generate(5, 5, 3, 4, seed=0),
    "5x5 2/3 s1": generate(5, 5, 2, 3, seed=1),
    "4x5 mate": mated_puzzle(4, 5, 2, seed=3, rotations=True),
}


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_split_count_equals_serial_count(name: str, threads: int) -> None:
    problem = PUZZLES[name]
    serial = search_arrangements(problem, count_limit=ALL, keep=5, threads=1)
    split = search_arrangements(problem, count_limit=ALL, keep=5, threads=threads)
    assert serial.complete and split.complete
    assert split.count == serial.count > 0
    assert split.solutions == serial.solutions  # the same first ones, in the same order
    assert "subtrees" in split.notes[0]


@pytest.mark.parametrize("name", ["3x4 rotations", "4x4 mate rotations", "4x3 fixed"])
def test_split_count_equals_exhaustive_enumeration(name: str) -> None:
    problem = CASES[name]
    expected = expected_count(problem, backtrack_arrangements(problem))
    result = search_arrangements(problem, count_limit=ALL, keep=10_000, threads=2)
    assert (result.count, result.complete) == (expected, True)
    assert len(result.solutions) == expected
    assert all(check_arrangement(problem, a) == [] for a in result.solutions)


def test_split_count_stops_at_the_limit_like_the_serial_one() -> None:
    problem = PUZZLES["5x5 3/4 s0"]
    total = search_arrangements(problem, count_limit=ALL, threads=1).count
    limit = total // 2
    serial = search_arrangements(problem, count_limit=limit, keep=3, threads=1)
    for _ in range(3):  # whatever the threads' timing
        split = search_arrangements(problem, count_limit=limit, keep=3, threads=2)
        assert (split.status, split.count, split.complete) == (Status.OPTIMAL, limit, False)
        assert split.solutions == serial.solutions


def test_split_count_of_an_unsolvable_puzzle_is_infeasible() -> None:
    problem = generate(4, 4, 2, 3, seed=1)
    pieces = list(problem.pieces)
    centre = next(i for i, p in enumerate(pieces) if 0 not in p and len(set(p)) > 2)
    n, e, s, w = pieces[centre]
    pieces[centre] = (e, n, s, w)
    bad = EdgeProblem(tuple(pieces), 4, 4, True)
    assert not backtrack_arrangements(bad)
    result = search_arrangements(bad, count_limit=ALL, threads=2)
    assert (result.status, result.count, result.complete) == (Status.INFEASIBLE, 0, True)


def test_prefixes_split_the_search_into_its_subtrees() -> None:
    problem = PUZZLES["5x5 2/3 s1"]
    variant = Variant()
    cells = edge_search.cell_order(5, 5, "row")
    tables = edge_search.build_tables(problem, cells)
    prefixes, depth, _ = parallel.list_prefixes(problem, tables, variant, want=20)
    assert len(prefixes) >= 20 and 0 < depth < 25
    assert ((prefixes >= 0).sum(axis=1) == depth).all()  # each fills the first positions
    assert len({p.tobytes() for p in prefixes}) == len(prefixes)
    counts = []
    for prefix in prefixes:
        run = edge_search.Run(problem, variant, ALL, 0, tables, prefix=(prefix, depth))
        while run.outcome == kernel.RUNNING:
            run.advance(1 << 20)
        counts.append(run.count)
    assert sum(counts) == search_arrangements(problem, count_limit=ALL, threads=1).count


def test_time_out_while_split_counting_is_not_complete() -> None:
    problem = generate(7, 7, 3, 6, seed=0)
    result = search_arrangements(problem, count_limit=ALL, time_limit=0.2, threads=2)
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert not result.complete


def test_a_count_the_clock_stops_before_its_split_answers_its_first_try(
    monkeypatch: pytest.MonkeyPatch, fast_clock: Callable[[], None]
) -> None:
    # The first try takes its steps whatever the clock says; then the deadline has passed, and
    # the split's task gets one slice. The arrangements the first try found are the answer:
    # feasible, a lower bound of the count, not 0 found (which would read as unknown).
    monkeypatch.setattr(parallel, "QUICK_STEPS", 1 << 16)
    problem = PUZZLES["5x5 3/4 s0"]
    whole = search_arrangements(problem, count_limit=ALL, keep=0)
    first = edge_search.Run(problem, Variant(), ALL, 2, memo=edge_search.new_memo())
    first.advance(1 << 16)
    assert first.outcome == kernel.RUNNING and 0 < first.count <= whole.count
    fast_clock()
    result = search_arrangements(
        problem, count_limit=ALL, time_limit=1, threads=1, variant=Variant()
    )
    assert (result.status, result.count, result.complete) == (Status.FEASIBLE, first.count, False)
    assert len(result.solutions) == 2
    assert all(check_arrangement(problem, a) == [] for a in result.solutions)


def test_no_threads_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        search_arrangements(PUZZLES["4x4 2/3 s0"], threads=0)


# ---------------------------------------------------------------------------------------------
# The memo and the two modes of the kernel


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_memo_changes_placements_not_counts(name: str) -> None:
    problem = PUZZLES[name]
    counts, nodes = [], []
    for memo in (None, edge_search.new_memo(12)):
        run = edge_search.Run(problem, Variant(), ALL, 3, memo=memo)
        edge_search.run_alone(run, deadline=float("inf"))
        counts.append(run.count)
        nodes.append(run.nodes)
    assert counts[0] == counts[1] > 0
    assert nodes[1] <= nodes[0]
    if name.startswith("5x5"):
        assert nodes[1] < nodes[0]  # rows of five repeat with the same pieces used


def test_a_tiny_memo_overwrites_and_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edge_search, "MEMO_SIZE_LOG", 1)  # two slots, constant collisions
    problem = PUZZLES["5x5 2/3 s1"]
    tiny = search_arrangements(problem, count_limit=ALL, keep=4, threads=1)
    monkeypatch.setattr(edge_search, "MEMO_SIZE_LOG", 20)
    roomy = search_arrangements(problem, count_limit=ALL, keep=4, threads=1)
    assert (tiny.count, tiny.solutions) == (roomy.count, roomy.solutions)


@pytest.mark.parametrize(
    "name", ["3x3 rotations", "4x4 fixed", "3x4 mate fixed", "2x4 all alike rotations"]
)
def test_wide_mode_counts_like_the_enumeration(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    # Grids of more than 64 pieces keep a flag per piece (no memo); forced here on small ones.
    monkeypatch.setattr(kernel, "SMALL_PIECES", 0)
    problem = CASES[name]
    run = edge_search.Run(problem, Variant(), ALL, 0)
    assert not run.small and not run.memo_at.any()
    expected = expected_count(problem, backtrack_arrangements(problem))
    assert search_arrangements(problem, count_limit=ALL, threads=2).count == expected


def test_forbidden_word_is_the_pin_or_the_ban() -> None:
    same = np.arange(64, dtype=np.int32)
    pinned = edge_search._forbidden(3, -1, same)
    banned = edge_search._forbidden(-1, 63, same)
    assert [(pinned >> p) & 1 for p in range(6)] == [1, 1, 1, 0, 1, 1]
    assert banned == np.int64(-(1 << 63)) and edge_search._forbidden(-1, -1, same) == 0
    moved = same.copy()
    moved[[3, 5]] = [5, 3]  # piece 3 at bit 5
    assert [(edge_search._forbidden(3, -1, moved) >> b) & 1 for b in range(6)] == [1] * 5 + [0]


# ---------------------------------------------------------------------------------------------
# Candidate words against candidate lists


def _searched(run: edge_search.Run) -> tuple[int, int, list[list[int]]]:
    edge_search.run_alone(run, deadline=float("inf"))
    return run.count, run.nodes, run.kept[: run.count].tolist()


@pytest.mark.parametrize("memo", [False, True])
@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_words_loop_searches_like_the_list_loop(name: str, memo: bool) -> None:
    # Same order of trial (bit = piece), so the same tree: same count, placements (with the
    # memo too) and first arrangements, slice after slice.
    problem = PUZZLES[name]
    answers = []
    for words in (True, False):
        table = edge_search.new_memo(12) if memo else None
        run = edge_search.Run(problem, Variant(), ALL, 4, memo=table)
        if not words:
            run.tables = replace(run.tables, words=None)
        assert (run.tables.words is not None) == words
        answers.append(_searched(run))
    assert answers[0] == answers[1] and answers[0][0] > 0


@pytest.mark.parametrize("name", ["3x4 rotations", "4x4 mate rotations", "4x3 fixed"])
def test_words_in_any_bit_order_count_like_the_enumeration(name: str) -> None:
    problem = CASES[name]
    expected = expected_count(problem, backtrack_arrangements(problem))
    base = edge_search.Run(problem, Variant(), ALL, 0).tables
    for seed in range(3):
        bit = np.random.default_rng(seed).permutation(len(problem.pieces)).astype(np.int32)
        run = edge_search.Run(problem, Variant(), ALL, 0, edge_search.with_bits(base, bit))
        assert _searched(run)[0] == expected


def test_a_piece_with_three_turns_under_one_key_takes_the_list_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With one keyed color per key (a huge color table), the middle piece 1, 1, 1, 2 fits
    # the key "north 1" three ways; words hold two, so those tables keep the list loop.
    monkeypatch.setattr(edge_search, "BIG_TABLE_ENTRIES", 0)
    rows = (
        ((0, 3, 3, 0), (0, 3, 1, 3), (0, 0, 3, 3)),
        ((3, 2, 3, 0), (1, 1, 1, 2), (3, 0, 3, 1)),
        ((3, 3, 0, 0), (1, 3, 0, 3), (3, 0, 0, 3)),
    )
    problem = EdgeProblem(tuple(piece for row in rows for piece in row), 3, 3, True)
    run = edge_search.Run(problem, Variant(), ALL, 0)
    assert run.tables.stride == 1 and run.tables.words is None
    expected = expected_count(problem, backtrack_arrangements(problem))
    assert _searched(run)[0] == expected > 0


# ---------------------------------------------------------------------------------------------
# Choosing the variant to count with


@pytest.mark.parametrize("name", ["5x5 3/4 s0", "5x5 2/3 s1", "4x5 mate"])
def test_estimate_is_near_the_placements_made(name: str) -> None:
    # Knuth's estimate is unbiased; 20,000 seeded probes land within a few tens of percent.
    problem = PUZZLES[name]
    for variant in edge_search.race_variants(problem)[:3]:
        run = edge_search.Run(problem, variant, ALL, 0)  # no memo: the whole tree
        edge_search.run_alone(run, deadline=float("inf"))
        estimate = edge_search.estimated_nodes(problem, variant)
        assert 0.6 < estimate / run.nodes < 1.6
        assert estimate == edge_search.estimated_nodes(problem, variant)


def test_the_estimate_starts_no_probe_past_its_work() -> None:
    # A 32 x 32 set of many alike tiles once spent 11.5 s of a 10 s limit in eight estimates.
    # However many probes are asked for, none starts once the work is spent: with work 1,
    # only the first probe runs, as if one had been asked for.
    problem = PUZZLES["5x5 3/4 s0"]
    variant = edge_search.race_variants(problem)[0]
    one = edge_search.estimated_nodes(problem, variant, probes=1)
    assert edge_search.estimated_nodes(problem, variant, probes=1000, work=1) == one
    assert edge_search.estimated_nodes(problem, variant, probes=1000) != one


@pytest.mark.parametrize(
    ("width", "height", "frame", "inner"), [(4, 8, 3, 5), (8, 4, 3, 5), (3, 8, 2, 4)]
)
def test_the_scan_raced_on_a_rectangle_has_the_smaller_whole_tree(
    width: int, height: int, frame: int, inner: int
) -> None:
    # Placements to search the whole space, each scan alone: the one kept must be the
    # smaller tree (measured 8 to 23 times smaller on these), or dropping the other is wrong.
    problem = generate(width, height, frame, inner, seed=0)
    (kept,) = edge_search.scans(width, height)
    trees = {}
    for order in ("row", "column"):
        run = edge_search.Run(problem, Variant(order), ALL, 0)
        edge_search.run_alone(run, deadline=float("inf"))
        trees[order] = (run.nodes, run.count)
    dropped = "column" if kept == "row" else "row"
    assert trees[kept][1] == trees[dropped][1] > 0
    assert trees[kept][0] * 4 < trees[dropped][0]
    assert {v.order for v in edge_search.race_variants(problem)} == {kept}


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_chosen_variant_counts_the_same(name: str) -> None:
    problem = PUZZLES[name]
    chosen = edge_search.counting_variant(problem)
    assert chosen in edge_search.race_variants(problem)
    auto = search_arrangements(problem, count_limit=ALL, variant=None, threads=2)
    fixed = search_arrangements(problem, count_limit=ALL, threads=2)
    assert (auto.count, auto.complete) == (fixed.count, True)
    by_frame = auto.notes[0].startswith("by the frame")  # where that applies (test_edge_frame)
    assert by_frame or f"variant={chosen} chosen by estimated tree size" in auto.notes[0]
    assert by_frame == problem.rotations  # (each of these that turns is of frame pieces)


def test_small_counts_are_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "QUICK_STEPS", 1 << 16)
    problem = PUZZLES["4x4 2/3 s0"]
    whole = search_arrangements(problem, count_limit=ALL, keep=5, threads=2)
    monkeypatch.setattr(parallel, "QUICK_STEPS", 1)
    split = search_arrangements(problem, count_limit=ALL, keep=5, threads=2)
    assert "not split" in whole.notes[0] and "subtrees" in split.notes[0]
    assert (whole.count, whole.solutions) == (split.count, split.solutions)


@pytest.mark.parametrize("order", edge_search.ORDERS)
@pytest.mark.parametrize(("width", "height"), [(2, 2), (3, 4), (5, 5), (4, 7)])
def test_frontier_is_every_placed_side_facing_an_empty_cell(
    order: str, width: int, height: int
) -> None:
    for start in edge_search.CORNERS:
        cells = edge_search.cell_order(width, height, order, start)
        position = {cell: i for i, cell in enumerate(cells)}
        expected = [
            [
                (r * width + c) * 4 + side
                for r, c in cells[:d]
                for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1)))
                if position.get((r + dr, c + dc), -1) >= d
            ]
            for d in range(len(cells))
        ]
        assert edge_search._frontier_lists(width, cells) == expected


def test_tasks_stopped_by_the_clock_never_count_past_the_limit() -> None:
    # Task 0 is cut short by the clock while tasks 1 and 2 (found 3 + 4) finished: 7 found,
    # unsettled in task order, with a limit of 5. That is the limit reached, not 7.
    def run(count: int, outcome: int) -> SimpleNamespace:
        return SimpleNamespace(count=count, outcome=outcome, nodes=10, kept=np.zeros((0, 4)))

    board = parallel._Board(3, count_limit=5)
    board.finish(1, run(3, kernel.EXHAUSTED))
    board.finish(2, run(4, kernel.LIMIT))
    board.finish(0, run(0, kernel.RUNNING))
    assert not board.reached  # task 0 never settled
    tally = board.tally(Variant(), None, keep=0, nodes=0)  # type: ignore[arg-type]
    assert (tally.count, tally.outcome) == (5, kernel.LIMIT)


# ---------------------------------------------------------------------------------------------
# The race after the restarts


def race_in_turn(runs: list[edge_search.Run]) -> int:
    """The race as one thread runs it: each run a slice in turn, stopping at the first done."""
    while True:
        for number, run in enumerate(runs):
            run.advance(edge_search.RACE_SLICE)
            if run.outcome != kernel.RUNNING:
                return number


@pytest.mark.parametrize("seed", range(6))
def test_the_race_has_the_same_winner_on_any_number_of_threads(seed: int) -> None:
    problem = generate(6, 6, 3, 5, seed=seed)  # variants take 10^3 to 10^7 placements here

    def fresh() -> list[edge_search.Run]:
        return [edge_search.Run(problem, v, 1, 1) for v in edge_search.race_variants(problem)]

    expected = race_in_turn(fresh())
    for threads in (1, 2, 3):
        runs = fresh()
        winner = parallel.race(runs, deadline=float("inf"), threads=threads)
        assert runs.index(winner) == expected
        assert winner.count == 1
        arrangement = edge_search._arrangement(problem, winner.tables, winner.kept[0])
        assert check_arrangement(problem, arrangement) == []


def test_a_race_stopped_by_the_clock_answers_with_no_winner() -> None:
    runs = [edge_search.Run(generate(8, 8, 3, 8, seed=0), Variant(), 1, 1)]
    winner = parallel.race(runs, deadline=0.0, threads=2)  # the deadline has passed
    assert (winner.outcome, winner.count, winner.nodes) == (kernel.RUNNING, 0, 0)


# The threads themselves


def test_the_others_do_not_start_once_the_calling_thread_is_done() -> None:
    callers: list[int] = []
    cpu = parallel._on_threads(3, lambda: callers.append(threading.get_ident()), alone=60.0)
    assert callers == [threading.get_ident()]  # and at once, not after a minute
    assert len(cpu) == 3


@pytest.mark.parametrize("alone", [0.0, 0.001])
def test_the_others_join_a_calling_thread_still_at_work(alone: float) -> None:
    meeting = threading.Barrier(3, timeout=60)  # each call waits for all three
    callers: list[int] = []

    def meet() -> None:
        callers.append(threading.get_ident())
        meeting.wait()

    parallel._on_threads(3, meet, alone=alone)
    assert len(set(callers)) == 3 and threading.get_ident() in callers
