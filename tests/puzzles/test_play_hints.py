"""``hint`` in a puzzle being played: following the hints alone must solve the puzzle (in the
fewest actions, for Aster: the puzzle's proven shortest plan), whatever the player did first
that can still be mended; and a hint must say so when nothing can be."""

from __future__ import annotations

import random
import re

import pytest

from asterion.models.aster import slot_actions
from asterion.models.aster_cards import BOARD_ACTIONS
from asterion.models.edges import turn_arrangement
from asterion.puzzles.aster import Difficulty
from asterion.puzzles.aster import generate_puzzle as aster_puzzle
from asterion.puzzles.nacht import generate_puzzle as nacht_puzzle
from asterion.puzzles.nacht import prove
from asterion.puzzles.play import AsterGame, NachtGame, typed

HINTED = re.compile(r"hint: '([^']+)'")


def follow_hints(game: AsterGame | NachtGame, most: int) -> int:
    """Type each hinted line until the game is solved; the hints taken."""
    taken = 0
    while not game.solved:
        assert taken < most, "the hints do not lead to the solution"
        (line,) = game.handle("hint")
        found = HINTED.search(line)
        assert found is not None, line
        game.handle(found.group(1))
        taken += 1
    return taken


@pytest.mark.parametrize(
    ("seed", "difficulty"), [(11, Difficulty.MEDIUM), (1, Difficulty.EXPERT), (2, Difficulty.HARD)]
)
def test_aster_hints_alone_find_the_shortest_plan(seed: int, difficulty: Difficulty) -> None:
    made = aster_puzzle(seed, 0, difficulty)
    assert made.puzzle is not None and made.puzzle.grade is not None
    game = AsterGame(made.puzzle)
    follow_hints(game, most=3 * made.puzzle.grade.min_actions + made.puzzle.turns)
    # the turn's 'end' is no action: the hints took as few actions as the proven plan
    assert game.actions_used == made.puzzle.grade.min_actions
    assert "the shortest plan. Solved!" in game._solved_words()


def board_slots(game: AsterGame) -> list[int]:
    """The slots left this turn whose actions move stars (the ones a player types)."""
    state = game.state
    return [i for i in state.remaining_slots() if state.actions[i] in BOARD_ACTIONS]


def test_aster_hint_when_the_turn_is_spent_says_the_target_is_out_of_reach() -> None:
    rng = random.Random(5)
    for seed in range(20):
        made = aster_puzzle(seed, 0, Difficulty.MEDIUM)
        assert made.puzzle is not None
        if made.puzzle.turns != 1:
            continue
        game, said = AsterGame(made.puzzle), [""]
        while (slots := board_slots(game)) and not game.solved:
            said = game.handle(typed(rng.choice(list(slot_actions(game.state, slots[0])))))
        if not game.solved:  # every slot used, the target not formed: nothing can change
            assert said[-1] == "no actions left and the target is not formed: 'undo' or 'quit'"
            assert game.handle("hint") == ["the target can no longer be formed from here: 'undo'"]
            return
    pytest.fail("no puzzle left unsolved by random moves")


@pytest.mark.parametrize(
    ("source", "difficulty"),
    [("edge", Difficulty.MEDIUM), ("edge", Difficulty.HARD), ("sky", Difficulty.EASY)],
)
def test_nacht_hints_alone_arrange_every_tile(source: str, difficulty: Difficulty) -> None:
    made = nacht_puzzle(0, 0, difficulty, source=source)  # type: ignore[arg-type]
    assert made.puzzle is not None
    cells = len(made.puzzle.tileset.tiles)
    game = NachtGame(made.puzzle)
    assert follow_hints(game, most=cells) == cells
    assert game.handle("hint") == ["solved already"]  # (no empty cell left to hint at)


@pytest.mark.parametrize("quarters", [1, 2, 3])
def test_nacht_hints_follow_a_picture_begun_turned(quarters: int) -> None:
    made = nacht_puzzle(0, 0, Difficulty.MEDIUM)
    assert made.puzzle is not None and made.puzzle.tileset.rotations
    solution = prove(made.puzzle.tileset).arrangement
    assert solution is not None
    # the player lays the corner of the solution turned 1, 2 or 3 quarters: "a square
    # picture turned by a quarter is the same solution" (rules/nacht.md), so any turn is
    corner = turn_arrangement(solution, quarters)[0][0]
    game = NachtGame(made.puzzle)
    tile = made.puzzle.tileset.tiles[corner.piece].id
    game.handle(f"{tile} 1 1 {corner.turns}")
    assert "does not go" not in game.handle("hint")[0]
    cells = len(made.puzzle.tileset.tiles)
    assert follow_hints(game, most=cells) == cells - 1


def test_nacht_hint_names_a_misplaced_tile() -> None:
    made = nacht_puzzle(0, 0, Difficulty.MEDIUM)
    assert made.puzzle is not None
    solution = prove(made.puzzle.tileset).arrangement
    assert solution is not None
    # the tile of the solution's centre laid in a corner: no turning of the picture puts it there
    centre = solution[1][1]
    tile = made.puzzle.tileset.tiles[centre.piece].id
    game = NachtGame(made.puzzle)
    game.handle(f"{tile} 1 1")
    assert game.handle("hint") == [f"hint: {tile} does not go at 1 1: 'clear 1 1'"]


# A 3x3 worked by hand, pieces listed as solved (N E S W; 0 the border): the centre shows
# 1 2 1 2, the same sides when turned twice. Every other inner side has a color of its own.
SYMMETRIC_CENTRE = """3 3
0 3 7 0
0 4 1 3
0 0 9 4
7 2 8 0
1 2 1 2
9 0 10 2
8 5 0 0
1 6 0 5
10 0 0 6
"""


def test_nacht_hint_takes_a_symmetric_tile_turned_twice_as_laid_right() -> None:
    from asterion.models.nacht_files import parse_tileset
    from asterion.puzzles.nacht import NachtPuzzle

    puzzle = NachtPuzzle("centre", parse_tileset(SYMMETRIC_CENTRE, "centre.txt"), "edge")
    solution = prove(puzzle.tileset).arrangement
    assert solution is not None
    game = NachtGame(puzzle)
    corner, centre = solution[0][0], solution[1][1]
    assert centre.piece == 4
    game.handle(f"{corner.piece} 1 1 {corner.turns}")
    game.handle(f"4 2 2 {(centre.turns + 2) % 4}")  # the same sides as the solution's
    assert "does not go" not in game.handle("hint")[0]
    assert follow_hints(game, most=7) == 7


def test_nacht_hint_says_a_puzzle_without_arrangement_has_none() -> None:
    from asterion.models.nacht_files import parse_tileset
    from asterion.puzzles.nacht import NachtPuzzle

    # One side of color 10 made 11: each is left with no side to face (neither may face the
    # border), so no arrangement exists, and the hint says so rather than "not found in time".
    broken = SYMMETRIC_CENTRE.replace("10 0 0 6", "11 0 0 6")
    puzzle = NachtPuzzle("broken", parse_tileset(broken, "broken.txt"), "edge")
    game = NachtGame(puzzle)
    assert game.handle("hint") == [
        "no hint: these tiles have no arrangement (the puzzle has no solution)"
    ]
