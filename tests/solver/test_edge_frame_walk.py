"""The walk that counts the rings fitting an inside (:func:`asterion.solver.edge_frame_kernel.
_ring_walk`, closed), against a count written here from the pieces themselves: its memo of
dead ends and its closing prune must never lose a ring, and they must spare steps."""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_edge_frame_pairs import (
    border_north,
    changed_ring_colors,
    frame_of,
    planted_ring_colors,
    ring_sides,
)
from test_edge_search import mated_puzzle

import asterion.solver.edge_search as edge_search
from asterion.models.edges import BORDER, EdgeProblem
from asterion.solver import edge_frame_kernel as kernel
from asterion.solver.edge_frame import FrameTables, frame_tables
from asterion.solver.edge_search import Variant


def brute_rings(problem: EdgeProblem, s: list[int], size: int) -> tuple[int, int]:
    """Every way of laying the frame pieces round a square of ``size``: each edge piece with
    inward color ``s[position]``, each out side mating the next in side, the last the first;
    and how many pieces the plain depth-first walk tried."""
    mate, ring = ring_sides(problem)
    positions = 4 * (size - 1)
    rings, tried = 0, 0

    def walk(d: int, used: list[int]) -> None:
        nonlocal rings, tried
        if d == positions:
            rings += mate[ring[used[-1]][2]] == ring[used[0]][0]
            return
        corner = d % (size - 1) == 0
        for i, (come_in, inward, _) in ring.items():
            if i in used or (inward < 0) != corner or (not corner and inward != s[d]):
                continue
            if d == 0 or mate[ring[used[-1]][2]] == come_in:
                tried += 1
                walk(d + 1, [*used, i])

    walk(0, [])
    return rings, tried


def kernel_rings(
    frame: FrameTables, s: list[int], limit: int = 1 << 40, walk: kernel.Walk | None = None
) -> tuple[int, int]:
    """The closed walk's count, and its steps (its memo's tally); ``walk``: buffers kept from
    earlier walks (by default new ones)."""
    walk = kernel.new_walk(frame.positions) if walk is None else walk
    whole = np.arange(frame.positions, dtype=np.int64)
    found = np.zeros((0, 3), dtype=np.int64)
    rings = kernel._ring_walk(
        np.array(s, dtype=np.int64), whole, frame.positions, True, frame.ring, walk, limit, found
    )
    return int(rings), int(walk[-1][0, 1])


rims = given(
    size=st.integers(5, 6),
    colors=st.sampled_from([(2, 3), (3, 3), (2, 4), (3, 4), (4, 3)]),
    seed=st.integers(0, 10**6),
    changes=st.lists(st.tuples(st.integers(0, 10**3), st.integers(1, 12)), max_size=2),
)
"""Planted 5x5 and 6x6 frames, some of their inward colors changed."""


@settings(max_examples=40, deadline=None)
@rims
def test_the_walk_counts_every_ring(
    size: int, colors: tuple[int, int], seed: int, changes: list[tuple[int, int]]
) -> None:
    problem, frame, s = changed_ring_colors(size, colors, seed, changes)
    assert kernel_rings(frame, s)[0] == brute_rings(problem, s, size)[0]


@settings(max_examples=60, deadline=None)
@rims
def test_dead_ends_remembered_from_the_first_step_lose_no_ring(
    size: int, colors: tuple[int, int], seed: int, changes: list[tuple[int, int]]
) -> None:
    # The compiled walk remembers its dead ends only past SHORT_WALK steps, which walks round
    # frames this small seldom take. Run as Python (which reads the constant at each walk)
    # with the memo on from the first step, every state of every walk is looked up.
    problem, frame, s = changed_ring_colors(size, colors, seed, changes)
    plain = getattr(kernel._ring_walk, "py_func", kernel._ring_walk)
    with (
        mock.patch.object(kernel, "SHORT_WALK", 0),
        mock.patch.object(kernel, "_ring_walk", plain),
        np.errstate(over="ignore"),  # the de Bruijn products wrap on purpose, as compiled
    ):
        rings = kernel_rings(frame, s)[0]
    assert rings == brute_rings(problem, s, size)[0]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_walk_counts_every_ring_under_a_mate_table(seed: int) -> None:
    problem = mated_puzzle(5, 5, 2, seed=seed, rotations=True)
    assume(frame_tables(problem, edge_search.Run(problem, Variant(), 1, 0).tables) is not None)
    frame = frame_of(problem)
    inward = sorted(border_north(p)[2] for p in problem.pieces if p.count(BORDER) == 1)
    order = np.random.default_rng(seed).permutation(inward).tolist()
    s = [0 if position % 4 == 0 else order.pop() for position in range(16)]
    assert kernel_rings(frame, s)[0] == brute_rings(problem, s, 5)[0]


def test_a_long_walk_with_no_ring_spares_steps() -> None:
    # Two frame colors, the inward colors of a planted ring shuffled: no ring fits, and the
    # plain walk tries some 89,000 pieces to learn it (each of its steps tries one or backs up).
    problem, s = planted_ring_colors(6, 2, 3, seed=2)
    frame = frame_of(problem)
    inward = [color for position, color in enumerate(s) if position % 5]
    order = np.random.default_rng(2).permutation(inward).tolist()
    s = [0 if position % 5 == 0 else order.pop() for position in range(20)]
    rings, steps = kernel_rings(frame, s)
    brute, tried = brute_rings(problem, s, 6)
    assert rings == brute == 0
    assert tried > 50_000 and kernel.SHORT_WALK < steps < tried / 10


def test_a_walk_stops_at_its_limit() -> None:
    problem, s = planted_ring_colors(6, 2, 3, seed=0)  # 20,736 rings
    frame = frame_of(problem)
    assert kernel_rings(frame, s, limit=7)[0] == 7
    assert kernel_rings(frame, s)[0] == brute_rings(problem, s, 6)[0] > 10_000


def test_walks_that_share_their_buffers_forget_each_others_dead_ends() -> None:
    # One memo for every walk of a search: a dead end of one inside's colors is no dead end
    # of the next one's, though its pieces, position and colors may be the same.
    problem, planted = planted_ring_colors(6, 2, 3, seed=2)
    frame = frame_of(problem)
    walk = kernel.new_walk(frame.positions)
    inward = [color for position, color in enumerate(planted) if position % 5]
    rng = np.random.default_rng(7)
    rims = [planted]
    for _ in range(12):
        order = rng.permutation(inward).tolist()
        rims.append([0 if position % 5 == 0 else order.pop() for position in range(20)])
    for s in [*rims, planted]:
        assert kernel_rings(frame, s, walk=walk)[0] == brute_rings(problem, s, 6)[0]
