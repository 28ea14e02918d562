"""Counting by the frame on rectangles: the inside's rows along the short side (a wide puzzle
searched turned a quarter turn), whole-picture half turns instead of quarter turns; checked
against the exhaustive enumeration of test_edge_search.py and against the row scan."""

from __future__ import annotations

import numpy as np
import pytest
from test_edge_frame import (
    assert_counts_like_the_enumeration,
    counted,
    frame_of,
    row_scan_count,
    shuffled_counts,
)
from test_edge_search import mated_puzzle

import asterion.solver.edge_frame as edge_frame
import asterion.solver.edge_search as edge_search
import asterion.solver.edge_search_parallel as parallel
from asterion.models.edge_puzzles import generate
from asterion.models.edges import EdgeProblem, check_arrangement
from asterion.solver.edge_frame import FrameRun, frame_tables, turn_orbit
from asterion.solver.edge_search import search_arrangements
from asterion.solver.result import Status

ENUMERATED = {  # small enough for the enumeration (a few seconds at most)
    "4x5 3/3 s0": generate(4, 5, 3, 3, seed=0),
    "5x4 3/3 s0": generate(5, 4, 3, 3, seed=0),  # wide: searched turned
    "4x5 mate s2": mated_puzzle(4, 5, 2, seed=2, rotations=True),
    "5x4 mate s5": mated_puzzle(5, 4, 2, seed=5, rotations=True),
}


@pytest.mark.parametrize("name", sorted(ENUMERATED))
def test_rectangle_count_equals_exhaustive_enumeration(name: str) -> None:
    # Each class of half turns once, each arrangement whole and valid (a wide puzzle's turned
    # back onto its own grid), none twice.
    problem = ENUMERATED[name]
    frame = assert_counts_like_the_enumeration(problem)
    assert frame.turned == (problem.width > problem.height)
    assert (frame.side, frame.height) == (min(problem.width, problem.height) - 2, 3)


@pytest.mark.parametrize(
    "width,height,frame_colors,inner_colors,seed",
    [
        (4, 6, 2, 3, 2),  # an even inside, 16,800 classes
        (6, 4, 2, 3, 2),
        (5, 6, 3, 4, 0),
        (4, 7, 3, 3, 0),  # a 2 x 5 inside, 440,064 classes
        (7, 5, 3, 6, 0),  # a 3 x 5 inside, turned: a centre cell
        (5, 7, 3, 6, 0),
    ],
)
def test_rectangle_count_equals_the_row_scan(
    width: int, height: int, frame_colors: int, inner_colors: int, seed: int
) -> None:
    problem = generate(width, height, frame_colors, inner_colors, seed=seed)
    assert counted(frame_of(problem)).count == row_scan_count(problem) > 0


@pytest.mark.parametrize("width,height", [(4, 5), (5, 7), (7, 5)])
def test_any_order_of_the_inner_pieces_counts_the_same_on_a_rectangle(
    width: int, height: int
) -> None:
    # Which piece the half-turn rule holds (or which turns a centre piece keeps) follows the
    # order of the inner pieces; every order counts each class once.
    problem = generate(width, height, 3, 3 if width * height < 30 else 6, seed=0)
    expected = row_scan_count(problem)
    assert counted(frame_of(problem)).count == expected > 0
    assert shuffled_counts(problem) == [expected] * 3


@pytest.mark.parametrize("side,height", [(2, 3), (3, 5), (4, 10), (5, 8), (3, 3)])
def test_turn_orbit_is_what_the_picture_turns_onto_itself(side: int, height: int) -> None:
    orbit = turn_orbit(side, height)
    cells = {divmod(cell, side) for cell in orbit}
    half = {(height - 1 - r, side - 1 - c) for r, c in cells}
    assert half == cells and orbit == sorted(orbit)
    assert len(orbit) == (4 if side == height else 2)


def test_the_half_turn_centre_keeps_two_turns_of_a_piece_unlike_its_turns() -> None:
    # 3 x 5 inside: the centre (cell 7) takes a piece unlike its turns at its held turn and
    # the next, never both of two turns a half turn apart.
    problem = generate(5, 7, 3, 6, seed=0)
    frame = frame_of(problem)
    assert frame.inner[8] == 7
    words = frame.inner[3].view(np.uint64)
    ncolors = frame.inner[6]
    centre_keys = range(4 * ncolors * ncolors, 5 * ncolors * ncolors)
    turns_by_piece: dict[int, set[int]] = {}
    for key in centre_keys:
        for slot in range(4):
            word = int(words[slot, key])
            for bit in (b for b in range(64) if word >> b & 1):
                o = int(frame.inner[4][slot, key, bit])
                turns_by_piece.setdefault(bit, set()).add(frame.inner_pieces[o][1])
    unlike = [bit for bit in turns_by_piece if not frame.inner[11] >> bit & 1]
    assert unlike
    for bit in unlike:
        turns = turns_by_piece[bit]
        assert len(turns) == 2 and (max(turns) - min(turns)) % 2 == 1


@pytest.mark.parametrize("width,height", [(4, 6), (6, 4)])
def test_first_arrangements_of_a_rectangle_come_from_the_frame(width: int, height: int) -> None:
    # The restarts' frame searches apply to rectangles too, turned for a wide one, and answer
    # with a whole valid arrangement of the puzzle's own grid, the same on one thread or two.
    problem = generate(width, height, 3, 4, seed=1)
    first = search_arrangements(problem, threads=2)
    again = search_arrangements(problem, threads=1)
    assert first.notes[0].startswith("by the frame") or "restart" in first.notes[0]
    assert (first.status, first.count) == (Status.OPTIMAL, 1)
    assert not check_arrangement(problem, first.solutions[0])
    assert (first.solutions, first.nodes) == (again.solutions, again.nodes)


def test_a_rectangle_counted_whole_by_the_frame_is_split_like_a_square() -> None:
    problem = generate(6, 4, 2, 3, seed=2)
    whole = search_arrangements(problem, count_limit=10**9, variant=None, threads=2)
    assert whole.notes[0].startswith("by the frame") and "subtrees" in whole.notes[0]
    assert whole.complete and whole.count == row_scan_count(problem) > 0


@pytest.mark.parametrize(
    "problem",
    [
        generate(5, 4, 2, 3, seed=0, rotations=False),  # no turns to break
        generate(3, 6, 2, 2, seed=0),  # an inside one cell wide
        EdgeProblem(((0, 1, 0, 1),) + ((1, 1, 1, 1),) * 19, 4, 5, True),  # not frame pieces
    ],
)
def test_frame_tables_decline_rectangles_of_other_shapes(problem: EdgeProblem) -> None:
    assert (
        frame_tables(problem, edge_search.Run(problem, edge_search.Variant(), 1, 0).tables) is None
    )


@pytest.mark.parametrize(
    "problem,by_frame",
    [
        (generate(6, 8, 4, 6, seed=0), False),  # some 4 x 10^-7 rings an inside: too few
        (generate(6, 8, 3, 7, seed=0), True),  # some 2 x 10^-5
        (generate(7, 7, 4, 6, seed=7), True),  # 10^-7, but square
    ],
)
def test_first_arrangements_of_rectangles_with_few_rings_an_inside_leave_the_frame(
    problem: EdgeProblem, by_frame: bool
) -> None:
    frame = frame_of(problem)  # it still counts by the frame, checking more rows
    assert frame.few_rings == (frame.rings < edge_frame.FEW_RINGS and not frame.square)
    assert frame.few_rings != by_frame
    assert frame.check_rows == (edge_frame.FEW_RINGS_CHECK_ROWS if frame.few_rings else 2)
    assert FrameRun(frame, 1, 0).rows == frame.check_rows
    assert (parallel.first_frame(problem, frame.problem) is not None) == by_frame


@pytest.mark.parametrize("width,height,inner_colors", [(5, 6, 4), (6, 5, 4)])
def test_checking_the_stretch_after_any_rows_of_a_rectangle_counts_the_same(
    width: int, height: int, inner_colors: int
) -> None:
    # A check prunes, it never decides: every number of rows (0: none) finds the row scan's
    # count, and more rows never place more pieces.
    problem = generate(width, height, 3, inner_colors, seed=0)
    frame = frame_of(problem)
    runs = [
        edge_search.run_alone(FrameRun(frame, 10**9, 0, rows=rows), deadline=float("inf"))
        for rows in range(frame.height)
    ]
    assert {run.count for run in runs} == {row_scan_count(problem)} != {0}
    nodes = [run.nodes for run in runs]
    assert nodes == sorted(nodes, reverse=True)
