"""Tile sets whose fragments lie near one another, counted against a brute force of the rule.

rules/nacht.md: two tiles side by side fit when the facing sides' fragments coincide, same
constellations, offsets equal within N1 (0.02 of a side). "Within" is not transitive: 0.30
fits 0.31 and 0.31 fits 0.32, but 0.30 does not fit 0.32. The brute force below reads that
sentence directly, in picture coordinates (a fragment on a tile's east side at height y
meets one on its neighbour's west side at height y), with no colors, mates or mirrors: every
tile in every cell and turn, cell by cell. The engines work on colors (models/nacht.py), so
the two are independent encodings of the rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_edge_cpsat import classes, enumerate_all

from asterion.models.edge_puzzles import generate
from asterion.models.edges import Arrangement, EdgeProblem, check_arrangement
from asterion.models.nacht import (
    Segment,
    Star,
    Tile,
    TileSet,
    chamfers_for,
    edge_problem,
    misfits,
    turn_chamfers,
)
from asterion.solver.nacht_solve import CROWDED, arrange, choose_engine, crowding, run_engine
from asterion.solver.result import Status

N1 = 0.02
OFFSETS = (0.30, 0.31, 0.32, 0.33, 0.5)
"""Where lines cross a side: 0.30-0.33 chain within N1."""
SHIFTS = (0.0, 0.0, 0.005, -0.01, 0.015)
"""How far the facing tile's end lies from it (within N1, so the planted picture fits)."""

Picture = tuple[tuple[str, tuple[float, float], tuple[float, float]], ...]
"""A tile's lines once turned, sorted (a multiset: two lines may lie alike)."""
Key = tuple[tuple[int, int, str, Picture], ...]


# -- the brute force ----------------------------------------------------------------------------


def turned_point(point: tuple[float, float], turns: int) -> tuple[float, float]:
    """A quarter turn clockwise about the tile's centre takes (x, y) to (y, 1 - x)."""
    x, y = point
    for _ in range(turns % 4):
        x, y = y, 1 - x
    return (x, y)


def picture(tile: Tile, turns: int) -> Picture:
    def at(p: tuple[float, float]) -> tuple[float, float]:
        x, y = turned_point(p, turns)
        return (round(x, 6), round(y, 6))

    return tuple(sorted((s.constellation, *sorted((at(s.a), at(s.b)))) for s in tile.segments))  # type: ignore[misc]


def ends_on(lines: Picture, side: str) -> dict[str, list[float]]:
    """Per constellation, where lines end on ``side`` (N, E, S, W), as a coordinate along it
    in the picture's own axes (x along N and S, y along E and W), corners left out."""
    ends: dict[str, list[float]] = {}
    for name, a, b in lines:
        for x, y in (a, b):
            on = {"N": y == 1, "S": y == 0, "E": x == 1, "W": x == 0}
            along = x if side in "NS" else y
            if on[side] and 0 < along < 1:
                ends.setdefault(name, []).append(along)
    return {name: sorted(v) for name, v in ends.items()}


def meet(a: dict[str, list[float]], b: dict[str, list[float]]) -> bool:
    return a.keys() == b.keys() and all(
        len(a[n]) == len(b[n])
        and all(abs(s - t) <= N1 + 1e-9 for s, t in zip(a[n], b[n], strict=True))
        for n in a
    )


def brute_classes(tileset: TileSet) -> set[Key]:
    """Every arrangement the rule allows, as classes under whole-picture turns (with
    rotations on; square pictures by quarter turns, others by half turns)."""
    w, h = tileset.width, tileset.height
    cells = [(r, c) for r in range(h) for c in range(w)]
    options = []
    for tile in tileset.tiles:
        seen: dict[tuple[frozenset[str], Picture], int] = {}
        for k in range(4) if tileset.rotations else (0,):
            look = (turn_chamfers(tile.chamfers, k), picture(tile, k))
            seen.setdefault(look, k)  # turns that look alike are one placement
        options.append([(k, look[1]) for look, k in seen.items()])
    found: set[Key] = set()
    laid: dict[tuple[int, int], tuple[int, int, Picture]] = {}

    def fits(cell: tuple[int, int], index: int, k: int, lines: Picture) -> bool:
        r, c = cell
        if turn_chamfers(tileset.tiles[index].chamfers, k) != chamfers_for(w, h, r, c):
            return False
        outer = {"N": r == 0, "S": r == h - 1, "W": c == 0, "E": c == w - 1}
        if any(outer[side] and ends_on(lines, side) for side in "NESW"):
            return False  # a line leaving the sky (N3)
        if c and not meet(ends_on(laid[r, c - 1][2], "E"), ends_on(lines, "W")):
            return False
        return not (r and not meet(ends_on(laid[r - 1, c][2], "S"), ends_on(lines, "N")))

    def place(depth: int, free: set[int]) -> None:
        if depth == len(cells):
            found.add(class_key(tileset, laid))
            return
        cell = cells[depth]
        for index in sorted(free):
            for k, lines in options[index]:
                if fits(cell, index, k, lines):
                    laid[cell] = (index, k, lines)
                    place(depth + 1, free - {index})
                    del laid[cell]

    place(0, set(range(len(tileset.tiles))))
    return found


def class_key(tileset: TileSet, laid: dict[tuple[int, int], tuple[int, int, Picture]]) -> Key:
    w, h = tileset.width, tileset.height
    members = []
    turns = (0,) if not tileset.rotations else (0, 1, 2, 3) if w == h else (0, 2)
    for t in turns:
        member = []
        for (r, c), (index, k, _) in laid.items():
            if w == h:
                for _ in range(t):
                    r, c = c, w - 1 - r  # a quarter turn clockwise
            elif t == 2:
                r, c = h - 1 - r, w - 1 - c  # a half turn
            tile = tileset.tiles[index]
            member.append((r, c, tile.id, picture(tile, k + t)))
        members.append(tuple(sorted(member, key=repr)))
    return min(members, key=repr)


def arrangement_key(tileset: TileSet, arrangement: Arrangement) -> Key:
    laid = {
        (r, c): (p.piece, p.turns, picture(tileset.tiles[p.piece], p.turns))
        for r, row in enumerate(arrangement)
        for c, p in enumerate(row)
    }
    return class_key(tileset, laid)


# -- the sets -----------------------------------------------------------------------------------


def near_miss_set(
    width: int, height: int, rotations: bool, seed: int, lines: tuple[int, ...] = (0, 1, 1, 2)
) -> TileSet:
    """A picture cut into tiles whose lines cross each inner side at as many of
    :data:`OFFSETS` as one of ``lines`` says, the facing end shifted by one of
    :data:`SHIFTS`; shuffled, and turned with rotations."""
    rng = random.Random(seed)
    segments: dict[tuple[int, int], list[Segment]] = {
        (r, c): [] for r in range(height) for c in range(width)
    }
    centre = (0.5, 0.5)
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr >= height or c + dc >= width:
                    continue
                for _ in range(rng.choice(lines)):
                    name, at = rng.choice("AB"), rng.choice(OFFSETS)
                    other = round(at + rng.choice(SHIFTS), 6)
                    if dc:  # east side at height ``at``, the neighbour's west side
                        segments[r, c].append(Segment(name, centre, (1.0, at)))
                        segments[r, c + 1].append(Segment(name, (0.0, other), centre))
                    else:  # south side at ``at`` along x, the neighbour's north side
                        segments[r, c].append(Segment(name, centre, (at, 0.0)))
                        segments[r + 1, c].append(Segment(name, (other, 1.0), centre))
    tiles = []
    for (r, c), lines in segments.items():
        turns = rng.randrange(4) if rotations else 0
        tiles.append(
            Tile(
                f"T{r}{c}",
                turn_chamfers(chamfers_for(width, height, r, c), -turns % 4),
                (Star(0.5, 0.5, 1.0, "A"),),
                tuple(
                    Segment(s.constellation, turned_point(s.a, -turns), turned_point(s.b, -turns))
                    for s in lines
                ),
            )
        )
    rng.shuffle(tiles)
    return TileSet(f"near {seed}", width, height, tuple(tiles), rotations=rotations)


def engines() -> Iterator[str]:
    yield from ("auto", "propagate", "cp-sat")


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(2, 2, True), (2, 3, True), (3, 3, True), (4, 3, False), (4, 4, False)]),
    st.integers(0, 10**6),
)
def test_counts_agree_with_the_rule_read_directly(size: tuple[int, int, bool], seed: int) -> None:
    tileset = near_miss_set(*size, seed)
    expected = brute_classes(tileset)
    assert expected  # the planted picture fits
    encoding = edge_problem(tileset)
    for engine in engines():
        result = arrange(tileset, encoding, engine, count_limit=10**6, keep=50, time_limit=60)
        assert result.complete and result.count == len(expected), engine
        assert result.status is Status.OPTIMAL
        kept = [arrangement_key(tileset, a) for a in result.solutions]
        assert set(kept) <= expected and len(set(kept)) == len(kept)
        assert all(misfits(tileset, a) == [] for a in result.solutions)


def test_the_sets_meet_chains_and_near_fits_that_add_arrangements() -> None:
    # The property above must meet what it is about: chains of near misses, and sets that
    # near fits give more than one arrangement (3 x 3 without rotations has none: the
    # chamfers fix every tile's cell).
    chained = ambiguous = 0
    for seed in range(40):
        tileset = near_miss_set(4, 4, False, seed)
        if edge_problem(tileset).chains:
            chained += 1
            ambiguous += len(brute_classes(tileset)) > 1
    assert chained >= 20 and ambiguous >= 2


# -- near colors on crowded puzzles ------------------------------------------------------------


def with_near_colors(problem: EdgeProblem, rng: random.Random) -> EdgeProblem:
    """``problem`` with two of its inner colors made near each other (sides of the two fit)."""
    inner = sorted({color for piece in problem.pieces for color in piece} - {0})
    a, b = rng.sample(inner, 2)
    near = [() for _ in range(max(inner) + 1)]
    near[a], near[b] = (b,), (a,)
    return replace(problem, mate=tuple(range(max(inner) + 1)), near=tuple(near))


# Seeds whose near colors add arrangements (1792, 768 and 1008 against 16, 32 and 48 on
# mates alone) and whose enumeration stays within seconds; others take minutes.
@pytest.mark.parametrize("seed", [0, 9, 11])
def test_near_colors_on_a_crowded_puzzle_are_counted_by_every_engine(seed: int) -> None:
    # Few colors, where ``auto`` would use the search, which reads no near colors: the
    # engines that do answer. The enumeration reads fits as mates or near.
    rng = random.Random(seed)
    problem = with_near_colors(generate(4, 4, 2, 3, seed=seed), rng)
    assert crowding(problem) > CROWDED
    assert choose_engine(problem) == "propagate+cp-sat"
    expected = len(classes(problem, enumerate_all(problem)))
    on_mates = len(classes(problem, enumerate_all(replace(problem, near=None))))
    assert on_mates < expected  # the near colors matter here
    for engine in engines():
        for limit in (1, 3, 10**6):
            result = run_engine(problem, engine, count_limit=limit, keep=5, time_limit=60)
            assert result.count == min(limit, expected), (engine, limit)
            assert result.status is Status.OPTIMAL
            assert result.complete is (limit > expected)
            assert all(check_arrangement(problem, a) == [] for a in result.solutions)
