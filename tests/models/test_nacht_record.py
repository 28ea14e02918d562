"""Nacht der Sterne game records (``asterion.nacht-game/1``): moves in words, read by the
rules engine at the door; mistakes named by move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asterion.errors import InputError
from asterion.models.nacht_game import NachtState
from asterion.models.nacht_game_files import order_state, practice_tileset
from asterion.models.nacht_record import demo_game, parse_move, read_game
from asterion.solver.nacht_play import solved_sky


def demo_start() -> NachtState:
    """The start of the shipped record's game (3x4 practice sky of seed 1, deal 7)."""
    spec = demo_game()
    assert spec.practice is not None
    sky = solved_sky(practice_tileset(spec.practice.width, spec.practice.height, 1))
    return order_state(spec, sky, "demo")


@pytest.mark.parametrize("text", ["lay", "knock", "lay T05 now", "place T05", "decline T05"])
def test_words_naming_no_move_are_refused(text: str) -> None:
    # The moves are "lay ID, decline, pass, knock ID and no-knock" (the module's format): a
    # lay or knock without its one tile id, or another verb, is no move at all.
    with pytest.raises(InputError) as caught:
        parse_move(demo_start(), text)
    assert caught.value.problem.startswith(f"not a move: {text!r}")


def test_an_illegal_move_lists_the_legal_ones() -> None:
    # The shipped record opens with "pass": the first drawn tile does not fit (rules/nacht.md,
    # Play: a tile fits when its cell is next to a laid tile), so there is nothing to decline,
    # lay or knock, and pass is the one legal move. The message must say so, not "none".
    start = demo_start()
    assert demo_game().moves[0] == "pass"
    for text in ("decline", "knock T01"):
        with pytest.raises(InputError) as caught:
            parse_move(start, text)
        assert caught.value.problem.endswith("(legal: pass)")


def _record_with_moves(tmp_path: Path, count: int) -> Path:
    data = {"format": "asterion.nacht-game/1", "practice": {"width": 3, "height": 4, "seed": 1}}
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**data, "deal": 7, "moves": ["pass"] * count}), encoding="utf-8")
    return path


def test_a_record_over_the_move_limit_is_refused_at_the_door(tmp_path: Path) -> None:
    # A grid side is at most 32 (docs/nacht.md: "a grid side outside 2..32" is bad input),
    # so at most 1024 tiles; a record holds 12 moves a tile at most (MAX_GAME_MOVES).
    assert len(read_game(_record_with_moves(tmp_path, 12 * 1024)).moves) == 12 * 1024
    with pytest.raises(InputError) as caught:
        read_game(_record_with_moves(tmp_path, 12 * 1024 + 1))
    assert caught.value.field == "moves" and "12288" in caught.value.problem
