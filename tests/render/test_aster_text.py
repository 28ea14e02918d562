"""The terminal diagram of an Aster board, checked against diagrams worked out by hand.

Lattice rule (rules/aster.md, "Board"): ring r has half-size R + 1 - r, so on a 2-ring board
ring 1 is the square of corners (±2, ±2) and ring 2 the square of corners (±1, ±1).
"""

from __future__ import annotations

import pytest

from asterion.errors import InputError
from asterion.models.aster import Color
from asterion.models.aster_board import Board
from asterion.render.aster_text import board_text

# Rows y = 2 … -2, columns x = -2 … 2. Ring 1's sides pass through (±1, ±2) and (±2, ±1),
# ring 2's sides join adjacent points, and the middle row (the E-W spoke) has no ring side.
EMPTY_TWO_RINGS = "\n".join(
    [
        ".---.---.",
        "| .-.-. |",
        ". . . . .",
        "| .-.-. |",
        ".---.---.",
    ]
)


def test_empty_two_ring_board() -> None:
    assert board_text(Board(rings=2)) == EMPTY_TWO_RINGS


def test_two_ring_board_with_stars_and_highlight() -> None:
    # 1NE = (2, 2), 2W = (-1, 0), C = (0, 0), 2SE = (1, -1), 1S = (0, -2).
    stars = {"1NE": Color.RED, "2W": Color.BLUE, "C": Color.GREEN, "2SE": Color.YELLOW}
    expected = "\n".join(
        [
            ".---.---R",
            "| .-.-. |",
            ". b G . .",
            "| .-.-y |",
            ".---*---.",
        ]
    )
    assert board_text(Board(rings=2), stars, highlight=["1NE", "C", "1S"]) == expected


def test_without_ring_lines() -> None:
    expected = "\n".join(
        [
            ".   .   .",
            "  . . .",
            ". . . . .",
            "  . . .",
            ".   .   .",
        ]
    )
    assert board_text(Board(rings=2), ring_lines=False) == expected


def test_default_board_starting_position() -> None:
    # A3: red NE, blue NW, green SW, yellow SE, on the corners of rings 2 and 3.
    stars = {
        "2NE": Color.RED,
        "3NE": Color.RED,
        "2NW": Color.BLUE,
        "3NW": Color.BLUE,
        "2SW": Color.GREEN,
        "3SW": Color.GREEN,
        "2SE": Color.YELLOW,
        "3SE": Color.YELLOW,
    }
    expected = "\n".join(
        [
            ".-------.-------.",
            "| b-----.-----r |",
            "| | b---.---r | |",
            "| | | .-.-. | | |",
            ". . . . . . . . .",
            "| | | .-.-. | | |",
            "| | g---.---y | |",
            "| g-----.-----y |",
            ".-------.-------.",
        ]
    )
    assert board_text(Board(), stars) == expected


@pytest.mark.parametrize("rings", [2, 5, 9])
def test_grid_shape_and_one_cell_per_point(rings: int) -> None:
    board = Board(rings=rings)
    lines = board_text(board, ring_lines=False).split("\n")
    assert len(lines) == 2 * rings + 1
    assert max(len(line) for line in lines) == 2 * (2 * rings + 1) - 1
    assert sum(line.count(".") for line in lines) == len(board.points)


def test_every_star_in_its_cell() -> None:
    board = Board()
    for point, (x, y) in board.coords.items():
        text = board_text(board, {point: Color.BLUE})
        row = text.split("\n")[board.extent - y]
        assert row[2 * (x + board.extent)] == "b"
        assert text.count("b") == 1


def test_deterministic() -> None:
    stars = {"C": Color.RED, "1N": Color.GREEN}
    swapped = dict(reversed(stars.items()))
    assert board_text(Board(), stars, ["C"]) == board_text(Board(), swapped, ["C"])


def test_unknown_point_is_an_input_error() -> None:
    with pytest.raises(InputError, match="3N"):
        board_text(Board(rings=2), {"3N": Color.RED})
