"""Akelarre game records (``asterion.akelarre-game/1``): message chains in words, replayed by
the rules engine; mistakes named by turn and message."""

from __future__ import annotations

from typing import Any

import pytest
from akelarre_games import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.akelarre import (
    WELL,
    AkelarreRules,
    AkelarreState,
    Message,
    apply,
    is_chance_node,
    legal_actions,
    virtual_target,
)
from asterion.models.akelarre_record import (
    demo_data,
    message_words,
    parse_message,
    record_data,
    record_from_data,
    record_players,
)
from asterion.solver.akelarre_balance import deal_seed


def replay_by_hand(start: AkelarreState, chains: list[list[Message]]) -> AkelarreState:
    state = start
    for chain in chains:
        for message in chain:
            state = apply(state, message)
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 13))
def test_a_written_record_replays_to_the_same_game(players: int, seed: int, turns: int) -> None:
    start, chains = random_game(players, seed, turns)
    record = record_from_data(record_data(start, chains, seed=deal_seed(seed)), "game.json")
    assert record.end == replay_by_hand(start, chains)
    assert [list(t.messages) for t in record.turns] == chains
    # each turn's first state is the one before its first message, with no chain yet
    assert all(not t.start.chain for t in record.turns)
    # the start written whole replays alike
    whole = record_from_data(record_data(start, chains), "game.json")
    assert whole.end == record.end


def test_every_legal_message_reads_back_from_its_words() -> None:
    for players in (2, 3, 5):
        state = AkelarreState.new_game(AkelarreRules.default(players), seed=players)
        for _ in range(3 * state.rules.seats):
            for message in legal_actions(state):
                assert parse_message(state, message_words(message)) == message
            state = apply(state, next(iter(legal_actions(state))))


def test_the_virtual_players_card_goes_where_k8_says() -> None:
    data = {"players": 2, "first": 0, "turns": [["fire to 1", "fire to 1", "fire"]]}
    with pytest.raises(InputError) as caught:
        record_from_data(data, "game.json")
    assert caught.value.field == "turns.0.0"
    assert "the virtual player's card goes to seat 0 on turn 1 (K8)" in caught.value.problem


def test_the_virtual_players_recipient_may_be_left_out() -> None:
    state = AkelarreState.new_game(AkelarreRules.default(2), seed=0)
    assert is_chance_node(state)
    # K8: to seat 0 on odd turns
    assert parse_message(state, "FIRE") == Message(3, virtual_target(1)) == Message(3, 0)


def three_player_data(turns: list[list[str]], **head: Any) -> dict[str, Any]:
    return {"players": 3, "seed": 1, "first": 0, "turns": turns} | head


@pytest.mark.parametrize(
    ("turns", "field", "problem"),
    [
        (
            [["fire to 1", "fire to 2"]],
            "turns.0",
            "a turn's chain has 3 messages, one per seat, not 2",
        ),
        ([["fire to 1", "lava to 2", "fire"]], "turns.0.1", "unknown destination 'lava'"),
        ([["fire", "fire to 2", "fire"]], "turns.0.0", "must go to a seat still to choose: 1, 2"),
        ([["fire to 0", "fire to 2", "fire"]], "turns.0.0", "must go to a seat still to choose"),
        ([["fire to 1", "fire to 2", "fire to 0"]], "turns.0.2", "places its message itself"),
        ([["well to 1", "well to 2", "fire"]], "turns.0.1", "seat 0 already declared the Well"),
        ([["fire 1", "fire to 2", "fire"]], "turns.0.0", "not a message: 'fire 1'"),
        # an outside audit: a Well handed to oneself was blamed on "seat None" declaring it
        ([["well to 0", "fire to 2", "fire"]], "turns.0.0", "must go to a seat still to choose"),
        ([["fire to ²", "fire to 2", "fire"]], "turns.0.0", "not a message"),
    ],
)
def test_a_refused_message_names_turn_and_message(turns: Any, field: str, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(three_player_data(turns), "game.json")
    assert caught.value.source == "game.json" and caught.value.field == field
    assert problem in caught.value.problem


def test_an_illegal_message_lists_the_legal_ones() -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(three_player_data([["fire", "fire", "fire"]]), "game.json")
    assert "(legal: earth to 1, earth to 2, water to 1" in caught.value.problem


def test_a_turn_after_the_end_is_refused() -> None:
    rules = AkelarreRules.default(3, turns=1)
    turn = ["fire to 1", "fire to 2", "fire"]
    with pytest.raises(InputError) as caught:
        record_from_data(three_player_data([turn, turn]), "game.json", rules)
    assert caught.value.field == "turns.1" and "over before this turn" in caught.value.problem


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        ({"turns": []}, None, "give the players (2-5) or a start position"),
        ({"players": 6, "turns": []}, "players", "less than or equal to 5"),
        ({"players": 3, "first": 3, "turns": []}, "first", "first player must be a seat 0-2"),
        ({"players": 3, "start": {}, "turns": []}, "players", "not both"),
        ({"seed": 3, "start": {}, "turns": []}, "seed", "not both"),
        ({"players": 3, "turns": [], "moves": []}, "moves", "unknown field"),
        ({"players": 3, "turns": [["x"] * 6]}, "turns.0", "at most 5 items"),
    ],
)
def test_a_bad_head_is_one_line(data: Any, field: str | None, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(data, "game.json")
    assert caught.value.field == field and problem in caught.value.problem


def test_a_start_in_mid_chain_is_refused() -> None:
    state = AkelarreState.new_game(AkelarreRules.default(3), seed=0)
    state = apply(state, next(iter(legal_actions(state))))
    data = record_data(state, [])
    with pytest.raises(InputError) as caught:
        record_from_data(data, "game.json")
    assert caught.value.field == "start" and "no chain" in caught.value.problem


def test_the_rules_must_be_for_the_records_player_count() -> None:
    with pytest.raises(InputError) as caught:
        record_from_data(three_player_data([]), "game.json", AkelarreRules.default(4))
    assert "for 3 players, the rules for 4" in caught.value.problem


def test_the_player_count_is_read_from_the_head_or_the_start() -> None:
    assert record_players({"players": 4}) == 4
    assert record_players({"start": {"players": 2}}) == 2
    assert record_players({"players": 9}) is None and record_players([]) is None


def test_the_shipped_record_is_a_whole_three_player_game() -> None:
    record = record_from_data(demo_data(), "demo")
    assert record.start.rules.players == 3 and record.end.is_over
    assert len(record.turns) == record.start.rules.turns or record.end.deck_ran_out


def test_a_well_declared_is_public_to_every_later_seat() -> None:
    record = record_from_data(three_player_data([["well to 1", "fire to 2", "earth"]]), "game.json")
    last = record.turns[0].states[2]
    # rules/akelarre.md: a Well declaration is public; seat 2 was handed seat 1's message
    assert last.known_to(2) == {0: WELL, 1: 3}
