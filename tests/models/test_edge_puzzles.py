"""The Eternity II-family generator: deterministic per seed, and what it plants is a solution
with the family's coloring (border 0, frame colors between border cells, inner colors inside)."""

from __future__ import annotations

import pytest

from asterion.models.edge_puzzles import generate, generate_with_solution
from asterion.models.edges import BORDER, check_arrangement, turn

SIZES = [(2, 2), (3, 3), (4, 3), (5, 5), (2, 6), (7, 7)]


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("rotations", [True, False])
def test_planted_arrangement_is_a_solution(width: int, height: int, rotations: bool) -> None:
    problem, planted = generate_with_solution(width, height, 2, 3, seed=11, rotations=rotations)
    assert (problem.width, problem.height, problem.rotations) == (width, height, rotations)
    assert len(problem.pieces) == width * height
    assert check_arrangement(problem, planted) == []
    if not rotations:
        assert all(p.turns == 0 for row in planted for p in row)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_frame_colors_only_between_border_cells(seed: int) -> None:
    width, height, frame, inner = 6, 5, 3, 4
    problem, planted = generate_with_solution(width, height, frame, inner, seed)
    square = {
        (r, c): turn(problem.pieces[planted[r][c].piece], planted[r][c].turns)
        for r in range(height)
        for c in range(width)
    }

    def on_border(r: int, c: int) -> bool:
        return r in (0, height - 1) or c in (0, width - 1)

    for (r, c), sides in square.items():
        if c + 1 < width:
            color = sides[1]
            frame_edge = on_border(r, c) and on_border(r, c + 1)
            assert (1 <= color <= frame) if frame_edge else (frame < color <= frame + inner)
        if r + 1 < height:
            color = sides[2]
            frame_edge = on_border(r, c) and on_border(r + 1, c)
            assert (1 <= color <= frame) if frame_edge else (frame < color <= frame + inner)
    zeros = sum(piece.count(BORDER) for piece in problem.pieces)
    assert zeros == 2 * (width + height)


def test_same_seed_same_puzzle_other_seed_other_puzzle() -> None:
    assert generate(5, 5, 3, 4, seed=7) == generate(5, 5, 3, 4, seed=7)
    assert generate(5, 5, 3, 4, seed=7) != generate(5, 5, 3, 4, seed=8)


def test_pieces_are_shuffled_and_turned() -> None:
    _, planted = generate_with_solution(6, 6, 3, 5, seed=3)
    reading_order = [p.piece for row in planted for p in row]
    assert reading_order != sorted(reading_order)
    assert any(p.turns for row in planted for p in row)


@pytest.mark.parametrize(
    ("width", "height", "frame", "inner"),
    [(1, 3, 1, 1), (3, 33, 1, 1), (3, 3, 0, 1), (3, 3, 1, 0)],
)
def test_bad_arguments_are_refused(width: int, height: int, frame: int, inner: int) -> None:
    with pytest.raises(ValueError):
        generate(width, height, frame, inner, seed=0)
