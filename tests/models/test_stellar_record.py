"""Stellar game records (``asterion.stellar-record/1``): moves in the words the toolkit
prints, replayed by the rules engine; mistakes named by move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.stellar import (
    FinalNote,
    Move,
    StellarRules,
    StellarState,
    Turn,
    apply,
    legal_moves,
    score,
)
from asterion.models.stellar_files import game_to_data
from asterion.models.stellar_record import (
    demo_data,
    parse_move,
    record_data,
    record_from_data,
)
from asterion.solver.stellar_play import GreedyPolicy, RandomPolicy, selfplay_game


def random_moves(deal: int, count: int) -> tuple[StellarState, list[Move]]:
    rng = random.Random(deal)
    state = StellarState.new_game(seed=deal)
    moves: list[Move] = []
    while not state.is_over and len(moves) < count:
        moves.append(rng.choice(list(legal_moves(state))))
        state = apply(state, moves[-1])
    return state, moves


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_a_written_record_replays_to_the_same_game(deal: int, count: int) -> None:
    end, moves = random_moves(deal, count)
    record = record_from_data(record_data(deal, moves), "game.json")
    assert record.moves == tuple(moves) and record.end == end


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 30))
def test_every_legal_move_reads_back_from_its_words(deal: int, count: int) -> None:
    state, _ = random_moves(deal, count)
    for move in legal_moves(state):
        assert parse_move(state, str(move)) == move
        assert parse_move(state, f"  {str(move).upper()} ") == move  # case and spacing


def test_a_selfplay_record_is_the_game_selfplay_scored() -> None:
    moves: list[Move] = []
    game = selfplay_game(GreedyPolicy(), RandomPolicy(), 0, 0, StellarRules(), moves)
    record = record_from_data(record_data(game.deal, moves), "game.json")
    assert record.end.is_over
    assert tuple(s.total for s in score(record.end)[:2]) == (game.score_a, game.score_b)


def test_a_start_position_replaces_the_deal() -> None:
    start, _ = random_moves(5, 6)
    first = str(next(iter(legal_moves(start))))
    data = {"start": game_to_data(start), "moves": [first]}
    record = record_from_data(data, "game.json")
    assert record.states[0] == start and len(record.moves) == 1


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        ({"moves": []}, None, "give the deal or a start position"),
        ({"deal": 1, "start": {}, "moves": []}, None, "give the deal or a start position"),
        ({"deal": -1, "moves": []}, "deal", "greater than or equal to 0"),
        ({"deal": 1, "moves": ["take 9, play X to notebook"]}, "moves.0", "not a legal move"),
        ({"deal": 1, "moves": [], "turns": []}, "turns", "unknown field"),
    ],
)
def test_a_bad_record_is_one_line(data: Any, field: str | None, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(data, "game.json")
    assert caught.value.field == field and problem in caught.value.problem


def test_a_refused_move_lists_legal_ones_and_names_its_place() -> None:
    state = StellarState.new_game(seed=1)
    first = str(next(iter(legal_moves(state))))
    with pytest.raises(InputError) as caught:
        record_from_data({"deal": 1, "moves": [first, "keep the display"]}, "game.json")
    assert caught.value.field == "moves.1"
    assert "(legal: take" in caught.value.problem and "more)" in caught.value.problem


def test_a_move_after_the_end_is_refused() -> None:
    end, moves = random_moves(2, 200)
    assert end.is_over
    with pytest.raises(InputError) as caught:
        record_from_data(record_data(2, [*moves, moves[-1]]), "game.json")
    assert caught.value.field == f"moves.{len(moves)}" and "over" in caught.value.problem


def test_the_shipped_record_is_a_whole_game() -> None:
    record = record_from_data(demo_data(), "demo")
    assert record.end.is_over
    # rules/stellar.md: 11 turns each, then one final note each
    assert sum(isinstance(m, Turn) for m in record.moves) == 22
    assert sum(isinstance(m, FinalNote) for m in record.moves) == 2


def test_a_refused_move_lists_a_few_legal_ones_and_counts_the_rest() -> None:
    # docs/stellar.md: a refused move is "one line naming it (`moves.4`) and a few of the
    # legal moves there": the ones listed and the "N more" together are all the legal moves.
    state = StellarState.new_game(seed=1)
    legal = list(legal_moves(state))
    with pytest.raises(InputError) as caught:
        parse_move(state, "take 9, play X to notebook")
    listed, _, rest = caught.value.problem.partition("(legal: ")[2].partition(" and ")
    shown = listed.split("; ")
    assert rest.endswith(" more)")
    assert 1 <= len(shown) < len(legal)
    assert len(shown) + int(rest.removesuffix(" more)")) == len(legal)
    assert shown == [str(move) for move in legal[: len(shown)]]


def test_a_record_of_more_than_200_moves_is_refused_at_the_door() -> None:
    # MAX_RECORD_MOVES: a record holds at most 200 moves (a game has 22 turns, a few display
    # answers and two final notes); an input too large is refused with the limit named.
    with pytest.raises(InputError) as caught:
        record_from_data({"deal": 1, "moves": ["pass"] * 201}, "game.json")
    assert caught.value.field == "moves" and "200" in caught.value.problem
    # 200 moves pass the door: the first is then read, and refused, by the rules.
    with pytest.raises(InputError) as caught:
        record_from_data({"deal": 1, "moves": ["pass"] * 200}, "game.json")
    assert caught.value.field == "moves.0" and "not a legal move" in caught.value.problem
