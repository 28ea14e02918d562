"""The pairs of colors a stretch of the frame leaves the next row's end cells
(:func:`asterion.solver.edge_frame_kernel.stretch_pairs`), against a walk written here from the
pieces themselves, and the arrangements they must never rule out."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_edge_search import mated_puzzle

import asterion.solver.edge_search as edge_search
from asterion.models.edge_puzzles import generate, generate_with_solution
from asterion.models.edges import BORDER, EdgeProblem, Piece, turn
from asterion.solver import edge_frame_kernel as kernel
from asterion.solver.edge_frame import FrameRun, FrameTables, frame_tables, ring_cell
from asterion.solver.edge_frame_nested import stretch_positions
from asterion.solver.edge_search import Variant

INWARD_SIDE = {"top": 2, "right": 3, "bottom": 0, "left": 1}  # the ring piece's side facing in


def frame_of(problem: EdgeProblem) -> FrameTables:
    frame = frame_tables(problem, edge_search.Run(problem, Variant(), 1, 0).tables)
    assert frame is not None
    return frame


def border_north(piece: Piece) -> Piece:
    """The piece turned so that its border side is north (an edge piece) or north and west (a
    corner), as it lies on the frame's north side, going east."""
    for k in range(4):
        p = turn(piece, k)
        if p[0] == BORDER and (p.count(BORDER) == 1 or p[3] == BORDER):
            return p
    raise AssertionError(piece)


def ring_sides(
    problem: EdgeProblem,
) -> tuple[tuple[int, ...], dict[int, tuple[int, int, int]]]:
    """The mate table, and each frame piece's (in, inward, out) colors going clockwise: an
    edge piece's W, S, E, a corner's S, -1, E (as it lies on the north side, going east)."""
    mate = problem.mate or tuple(range(max(max(p) for p in problem.pieces) + 1))
    kinds = {i: border_north(p) for i, p in enumerate(problem.pieces) if BORDER in p}
    ring = {
        i: ((p[3], p[2], p[1]) if p.count(BORDER) == 1 else (p[2], -1, p[1]))
        for i, p in kinds.items()
    }
    return tuple(mate), ring


def brute_pairs(
    problem: EdgeProblem, s: list[int], run: list[int], width: int
) -> tuple[set[tuple[int, int]], int]:
    """Every (west, east) pair of inward colors: some distinct frame pieces walk along ``run``
    (each edge piece's inward color ``s[position]``, each out side mating the next in side) and
    two more unused edge pieces, one mating the walk's first in side, one its last out side.
    And how many walks there are."""
    mate, ring = ring_sides(problem)
    edges = [i for i, (_, inward, _) in ring.items() if inward >= 0]
    pairs: set[tuple[int, int]] = set()
    walks = [0]

    def walk(d: int, used: list[int]) -> None:
        if d == len(run):
            walks[0] += 1
            first_in, last_out = ring[used[0]][0], ring[used[-1]][2]
            for w in edges:
                for e in edges:
                    if w == e or w in used or e in used:
                        continue
                    if mate[ring[w][2]] == first_in and mate[last_out] == ring[e][0]:
                        pairs.add((ring[w][1], ring[e][1]))
            return
        corner = run[d] % (width - 1) == 0
        for i, (come_in, inward, _) in ring.items():
            if i in used or (inward < 0) != corner or (not corner and inward != s[run[d]]):
                continue
            if d == 0 or mate[ring[used[-1]][2]] == come_in:
                walk(d + 1, [*used, i])

    walk(0, [])
    return pairs, walks[0]


def inward_colors(problem: EdgeProblem) -> list[int]:
    return sorted({border_north(p)[2] for p in problem.pieces if p.count(BORDER) == 1})


def as_mask(
    problem: EdgeProblem, pairs: set[tuple[int, int]], walks: int, kept: int = kernel.FOUND_ROWS
) -> int:
    """The pairs as :func:`kernel.stretch_pairs` words them: inward colors numbered in order
    (all one number past 8 colors), every pair when it keeps too few walks to tell."""
    inward = inward_colors(problem)
    k = len(inward) if len(inward) <= 8 else 1
    if walks > kept:
        return (1 << k * k) - 1
    number = {c: (i if k > 1 else 0) for i, c in enumerate(inward)}
    return sum({1 << (number[w] * k + number[e]) for w, e in pairs})


def kernel_pairs(frame: FrameTables, s: list[int], row: int, rows: int = kernel.FOUND_ROWS) -> int:
    run = np.array(stretch_positions(frame.side, row), dtype=np.int64)
    walk = kernel.new_walk(frame.positions)
    found = np.zeros((rows, 3), dtype=np.int64)
    answer = kernel.stretch_pairs(
        np.array(s, dtype=np.int64), run, len(run), frame.ring, walk, found
    )
    return int(answer)


def planted_ring_colors(size: int, frame_colors: int, inner_colors: int, seed: int) -> tuple:
    """A puzzle, and the inward colors of each ring position in its planted arrangement."""
    problem, solution = generate_with_solution(size, size, frame_colors, inner_colors, seed)
    s = []
    for position in range(4 * (size - 1)):
        r, c = ring_cell(position, size)
        side = "top" if r == 0 else "bottom" if r == size - 1 else "left" if c == 0 else "right"
        placed = solution[r][c]
        s.append(turn(problem.pieces[placed.piece], placed.turns)[INWARD_SIDE[side]])
    for corner in range(0, 4 * (size - 1), size - 1):
        s[corner] = 0  # (a corner has no inward side; the walk never reads it)
    return problem, s


def changed_ring_colors(
    size: int, colors: tuple[int, int], seed: int, changes: list[tuple[int, int]]
) -> tuple[EdgeProblem, FrameTables, list[int]]:
    """:func:`planted_ring_colors` where the frame method applies, then some inward colors
    changed (position, color): colors no arrangement has, too (often no walk, no ring)."""
    problem, s = planted_ring_colors(size, *colors, seed)
    assume(frame_tables(problem, edge_search.Run(problem, Variant(), 1, 0).tables) is not None)
    frame = frame_of(problem)
    for position, color in changes:
        position %= len(s)
        if position % (size - 1):
            s[position] = min(color, len(frame.problem.mate) - 1)
    return problem, frame, s


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(5, 7),
    colors=st.sampled_from([(2, 3), (3, 4), (3, 6), (2, 9)]),
    seed=st.integers(0, 10**6),
    changes=st.lists(st.tuples(st.integers(0, 10**3), st.integers(1, 12)), max_size=3),
)
def test_stretch_pairs_are_the_walks_pairs(
    size: int, colors: tuple[int, int], seed: int, changes: list[tuple[int, int]]
) -> None:
    problem, frame, s = changed_ring_colors(size, colors, seed, changes)
    for row in range(frame.side - 1):
        run = stretch_positions(frame.side, row)
        assert kernel_pairs(frame, s, row) == as_mask(problem, *brute_pairs(problem, s, run, size))


@settings(max_examples=30, deadline=None)
@given(size=st.integers(5, 8), seed=st.integers(0, 10**6))
def test_the_planted_arrangement_keeps_its_pair(size: int, seed: int) -> None:
    # No false "no": the colors the arrangement's next row turns to its ring are a pair.
    problem, s = planted_ring_colors(size, 3, size - 1, seed)
    frame = frame_of(problem)
    inward = inward_colors(problem)
    k = len(inward) if len(inward) <= 8 else 1
    number = {c: (i if k > 1 else 0) for i, c in enumerate(inward)}
    for row in range(frame.side - 1):
        west, east = s[frame.positions - 2 - row], s[frame.side + 3 + row]
        assert kernel_pairs(frame, s, row) >> (number[west] * k + number[east]) & 1


def test_a_stretch_with_more_walks_than_kept_rules_nothing_out() -> None:
    problem, s = planted_ring_colors(5, 2, 3, seed=0)  # two frame colors: many walks
    frame = frame_of(problem)
    pairs, walks = brute_pairs(problem, s, stretch_positions(3, 1), 5)
    assert walks > kernel.FOUND_ROWS and as_mask(problem, pairs, 0) != 2**9 - 1
    assert kernel_pairs(frame, s, 1) == 2**9 - 1  # three inward colors: 9 pairs
    assert kernel_pairs(frame, s, 1, rows=walks) == as_mask(problem, pairs, walks, kept=walks)


def test_a_stretch_no_pieces_walk_has_no_pairs() -> None:
    problem, s = planted_ring_colors(6, 3, 5, seed=1)
    frame = frame_of(problem)
    edges = [border_north(p)[2] for p in problem.pieces if p.count(BORDER) == 1]
    rarest = min(inward_colors(problem), key=edges.count)
    assert edges.count(rarest) < 4
    for position in range(1, 5):  # the north side all of the rarest inward color
        s[position] = rarest
    assert brute_pairs(problem, s, stretch_positions(4, 0), 6) == (set(), 0)
    assert kernel_pairs(frame, s, 0) == 0


def test_pairs_prune_the_inner_search() -> None:
    # The same count with fewer placements than pairs that only say "some walk" (one number
    # for every color), which is what the search had before them.
    problem = generate(6, 6, 3, 5, seed=0)
    frame = frame_of(problem)
    ring = list(frame.ring)
    ring[9] = np.where(ring[9] >= 0, 0, -1)
    ring[10] = 1
    blind = FrameTables(**{**frame.__dict__, "ring": tuple(ring)})
    pairs, without = (
        edge_search.run_alone(FrameRun(f, 10**9, 0), deadline=float("inf")) for f in (frame, blind)
    )
    assert pairs.count == without.count > 0
    assert pairs.nodes < without.nodes


def test_mated_pieces_count_as_the_row_scan() -> None:
    problem = mated_puzzle(5, 5, 2, seed=5, rotations=True)
    frame = frame_of(problem)
    run = edge_search.run_alone(FrameRun(frame, 10**9, 0), deadline=float("inf"))
    scan = edge_search.search_arrangements(problem, count_limit=10**9, threads=1, time_limit=60)
    assert scan.complete and run.count == scan.count
