"""Seeded generator of Eternity II-family edge-matching puzzles (rules/nacht.md).

The recipe of the family: lay out a W x H grid, give every side on the outer border color 0,
every edge between two border cells one of ``frame_colors`` colors, every other inner edge one
of ``inner_colors`` colors, all uniformly at random; cut the grid into its pieces, shuffle them
and, with rotations on, turn each one at random. The planted arrangement is one solution; few
colors make many others and a hard search.

Colors: frame colors are ``1 .. frame_colors``, inner colors follow them
(``frame_colors + 1 .. frame_colors + inner_colors``); the mate table is the identity. Same
arguments, same puzzle, on every machine (one ``random.Random(seed)``, drawn in a fixed order).

>>> p = generate(3, 3, frame_colors=1, inner_colors=1, seed=0)
>>> len(p.pieces), p.rotations, sorted(p.pieces)[0]
(9, True, (0, 0, 1, 1))
"""

from __future__ import annotations

import random

from asterion.models.edges import (
    BORDER,
    MAX_SIDE,
    MIN_SIDE,
    Arrangement,
    EdgeProblem,
    Piece,
    Placement,
    turn,
)


def generate(
    width: int,
    height: int,
    frame_colors: int,
    inner_colors: int,
    seed: int,
    rotations: bool = True,
) -> EdgeProblem:
    """A shuffled Eternity II-family puzzle (see the module docstring).

    :raises ValueError: on a grid side outside 2..32 or a color count below 1.
    """
    return generate_with_solution(width, height, frame_colors, inner_colors, seed, rotations)[0]


def generate_with_solution(
    width: int,
    height: int,
    frame_colors: int,
    inner_colors: int,
    seed: int,
    rotations: bool = True,
) -> tuple[EdgeProblem, Arrangement]:
    """The puzzle of :func:`generate` and its planted arrangement (turns undo the shuffle's)."""
    for name, side in (("width", width), ("height", height)):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(f"{name} {side} is outside {MIN_SIDE}..{MAX_SIDE}")
    for name, count in (("frame_colors", frame_colors), ("inner_colors", inner_colors)):
        if count < 1:
            raise ValueError(f"{name} must be at least 1, got {count}")
    rng = random.Random(seed)
    solved = _solved_grid(width, height, frame_colors, inner_colors, rng)

    # Shuffle: slot i of the puzzle holds the piece from cell order[i], turned by spin[i].
    cells = [(r, c) for r in range(height) for c in range(width)]
    order = list(range(len(cells)))
    rng.shuffle(order)
    spin = [rng.randrange(4) if rotations else 0 for _ in order]
    pieces = tuple(turn(solved[cells[cell]], spin[i]) for i, cell in enumerate(order))

    slot_of_cell = {cell: i for i, cell in enumerate(order)}
    placement = {
        cells[cell]: Placement(slot, (4 - spin[slot]) % 4) for cell, slot in slot_of_cell.items()
    }
    arrangement = tuple(tuple(placement[r, c] for c in range(width)) for r in range(height))
    problem = EdgeProblem(pieces=pieces, width=width, height=height, rotations=rotations)
    return problem, arrangement


def _solved_grid(
    width: int, height: int, frame_colors: int, inner_colors: int, rng: random.Random
) -> dict[tuple[int, int], Piece]:
    """Colors of every cell's sides in the planted solution: horizontal edges, then vertical."""

    def on_border(r: int, c: int) -> bool:
        return r in (0, height - 1) or c in (0, width - 1)

    def draw(a: tuple[int, int], b: tuple[int, int]) -> int:
        if on_border(*a) and on_border(*b):
            return rng.randint(1, frame_colors)
        return frame_colors + rng.randint(1, inner_colors)

    # east[r, c]: color of the edge between (r, c) and (r, c + 1); south[r, c] likewise down.
    east = {(r, c): draw((r, c), (r, c + 1)) for r in range(height) for c in range(width - 1)}
    south = {(r, c): draw((r, c), (r + 1, c)) for r in range(height - 1) for c in range(width)}
    grid: dict[tuple[int, int], Piece] = {}
    for r in range(height):
        for c in range(width):
            grid[r, c] = (
                south[r - 1, c] if r > 0 else BORDER,
                east[r, c] if c < width - 1 else BORDER,
                south[r, c] if r < height - 1 else BORDER,
                east[r, c - 1] if c > 0 else BORDER,
            )
    return grid
