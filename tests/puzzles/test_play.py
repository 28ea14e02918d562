"""Playing a puzzle by hand: what each typed line is refused for, and when a layout is solved
(the limits a mutation audit found unguarded; the hints are in test_play_hints)."""

from __future__ import annotations

import pytest
from test_play_hints import SYMMETRIC_CENTRE

from asterion.models.nacht_files import parse_tileset
from asterion.puzzles.aster import Difficulty
from asterion.puzzles.aster import generate_puzzle as aster_puzzle
from asterion.puzzles.nacht import NachtPuzzle, prove
from asterion.puzzles.play import AsterGame, NachtGame


def centre_game() -> NachtGame:
    tileset = parse_tileset(SYMMETRIC_CENTRE, "centre.txt")
    return NachtGame(NachtPuzzle("centre", tileset, "edge"))


def test_nacht_play_refuses_a_fourth_turn_and_a_cell_off_the_grid() -> None:
    game = centre_game()
    assert game.handle("0 1 1 4") == ["turns are 0-3 quarter turns clockwise, not 4"]
    assert game.handle("0 4 1") == ["no cell 4 1 in a 3x3 grid"]
    assert game.handle("0 1 4") == ["no cell 1 4 in a 3x3 grid"]
    assert game.cells == {}


def test_laying_a_tile_again_moves_it() -> None:
    game = centre_game()
    game.handle("0 1 1")
    game.handle("0 2 2")
    assert list(game.cells) == [(1, 1)]


def test_a_full_layout_that_does_not_fit_is_not_solved() -> None:
    # The solution with the centre (1 2 1 2) turned a quarter: its four sides now face
    # neighbours that show the other color.
    game = centre_game()
    solution = prove(game.puzzle.tileset).arrangement
    assert solution is not None
    for r, row in enumerate(solution):
        for c, placed in enumerate(row):
            turns = (placed.turns + (1 if (r, c) == (1, 1) else 0)) % 4
            last = game.handle(f"{placed.piece} {r + 1} {c + 1} {turns}")
    assert last[-1] == "all tiles laid, but 4 sides do not fit"
    assert not game.solved and not game.finished


def test_the_hint_fills_the_empty_cell_with_most_laid_neighbours() -> None:
    game = centre_game()
    solution = prove(game.puzzle.tileset).arrangement
    assert solution is not None
    for r, c in ((1, 1), (2, 2)):
        placed = solution[r][c]
        game.handle(f"{placed.piece} {r + 1} {c + 1} {placed.turns}")
    # cells (1, 2) and (2, 1) each touch two laid tiles; (1, 2) comes first in reading order
    (hint,) = game.handle("hint")
    assert f" 2 3 {solution[1][2].turns}'" in hint, hint


@pytest.fixture(scope="module")
def one_turn_puzzle() -> AsterGame:
    for seed in range(20):
        made = aster_puzzle(seed, 0, Difficulty.MEDIUM)
        if made.puzzle is not None and made.puzzle.turns == 1:
            return AsterGame(made.puzzle)
    raise AssertionError("no one-turn puzzle among 20 seeds")


def test_end_is_refused_on_the_last_turn(one_turn_puzzle: AsterGame) -> None:
    assert one_turn_puzzle.handle("end") == ["this is the last turn"]
    assert one_turn_puzzle.turn == 1


@pytest.mark.parametrize(("typed", "left"), [("nudge 1N 2N", "(none)"), ("1N 2N", "nudge")])
def test_a_typed_symbol_chooses_the_slot(typed: str, left: str) -> None:
    from asterion.models.aster_files import parse_state
    from asterion.puzzles.aster import AsterPuzzle

    # 1N to 2N is one edge (a nudge) along the north line (a line move): the symbol typed
    # picks the slot; without one, the earliest slot that can make the move is used. Slots
    # go in order, so using the nudge (slot 1) skips the line move (slot 0).
    state = parse_state(
        '{"stars": {"1N": "red"}, "player": "red", "actions": ["move_line", "nudge"]}'
    )
    game = AsterGame(AsterPuzzle("slots", state, ((0, 0), (1, 0))))
    lines = game.handle(typed)
    assert any(f"slots left: {left};" in line for line in lines), lines


def test_a_slot_left_is_not_reported_spent_and_point_names_ignore_case() -> None:
    # Two nudges; 1N to 2N and 1S to 2S complete the N-C-S line (test_aster_puzzles). After
    # the first, one nudge is still left on the only turn: no "no actions left" yet. Points
    # are typed in any case ("2n" is 2N).
    from asterion.models.aster_files import parse_state
    from asterion.puzzles.aster import AsterPuzzle

    state = parse_state(
        '{"rings": 2, "stars": {"1N": "red", "1S": "blue", "C": "red"}, "player": "red",'
        ' "players": ["red", "blue"], "actions": ["nudge", "nudge"]}'
    )
    game = AsterGame(AsterPuzzle("line", state, ((0, 0), (0, 1), (0, -1))))
    lines = game.handle("nudge 1n 2n")
    assert not any("not understood" in line or "no actions left" in line for line in lines)
    assert game.state.star_map().get("2N") is not None and not game.solved
    game.handle("nudge 1s 2s")
    assert game.solved
