"""Akelarre data files: the shipped tables, round trips, and one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asterion.errors import InputError
from asterion.models.akelarre import AkelarreState, Message, apply
from asterion.models.akelarre_files import (
    build_rules,
    default_objectives,
    default_payouts,
    default_powers,
    default_supply,
    load_payouts,
    payouts_from_data,
    payouts_to_data,
    state_from_data,
    state_to_data,
    supply_from_data,
)


def test_shipped_tables_match_the_seed() -> None:
    # rules/akelarre.md step 4, and the component list: 26 objectives, 14 powers, 15 per element.
    payouts = default_payouts()
    assert payouts[2].amounts == payouts[3].amounts == (1, 4, 3)
    assert payouts[4].amounts == (1, 3, 4, 3) and payouts[5].amounts == (1, 3, 4, 3, 2)
    assert len(default_objectives()) == 26 and len(default_powers()) == 14
    assert all(default_supply()[n] == (15, 15, 15, 15) for n in (2, 3, 4, 5))


def test_payouts_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(payouts_to_data(default_payouts())))
    assert load_payouts(path) == {n: t for n, t in default_payouts().items()}


@pytest.mark.parametrize(
    ("tables", "where"),
    [
        ({"4": {"1": 1, "2": 3, "4": 3}}, "tables.4: crowd size 3 is missing"),
        ({"3": {"1": 1, "2": -4, "3": 3}}, "tables.3.2: resources must be 0 to 1000"),
        ({"6": {"1": 1}}, "tables.6"),
        ({"2": {"1": 1, "2": 4, "3": 3, "x": 1}}, "crowd size 'x'"),
    ],
)
def test_bad_payouts_name_the_field(tables: object, where: str) -> None:
    with pytest.raises(InputError) as error:
        payouts_from_data({"tables": tables}, "p.json")
    assert str(error.value).startswith("p.json: ") and where in str(error.value)
    assert "\n" not in str(error.value)


def test_bad_supply_unknown_element_and_negative() -> None:
    with pytest.raises(InputError, match=r"tables\.4\.aether"):
        supply_from_data({"tables": {"4": {"aether": 3}}}, "s.json")
    with pytest.raises(InputError, match=r"s.json: tables.4: earth count must be 0 to 1000"):
        supply_from_data(
            {"tables": {"4": {"earth": -1, "water": 1, "air": 1, "fire": 1}}}, "s.json"
        )
    with pytest.raises(InputError, match=r"s.json: tables.4: water is missing"):
        supply_from_data({"tables": {"4": {"earth": 1, "air": 1, "fire": 1}}}, "s.json")


def test_players_outside_2_to_5() -> None:
    with pytest.raises(InputError, match="players must be 2 to 5, not 6"):
        build_rules(6)
    with pytest.raises(InputError, match="no payout table for 4 players"):
        build_rules(4, payouts=payouts_from_data({"tables": {"3": {"1": 1, "2": 2, "3": 3}}}, ""))


def test_state_round_trip() -> None:
    state = AkelarreState.new_game(build_rules(3), seed=4)
    again = state_from_data(state_to_data(state), "s.json")
    assert again == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 7}, "players"),
        ({"seats": [{}, {}]}, "seats: 3 seats expected for 3 players"),
        ({"public": "O99"}, "public: unknown card 'O99'"),
        ({"well": {"earth": -2}}, "well"),
    ],
)
def test_bad_state_is_one_line(change: dict[str, object], message: str) -> None:
    data = state_to_data(AkelarreState.new_game(build_rules(3), seed=4))
    data.update(change)
    with pytest.raises(InputError) as error:
        state_from_data(data, "s.json")
    assert message in str(error.value) and str(error.value).startswith("s.json")


def test_a_card_in_two_places_is_refused() -> None:
    data = state_to_data(AkelarreState.new_game(build_rules(3), seed=4))
    data["seats"][1]["private"] = data["seats"][0]["private"]
    with pytest.raises(InputError, match=r"seats.1.private: card 'O\d+' is also at seats.0"):
        state_from_data(data, "s.json")


def test_a_chain_in_progress_round_trips() -> None:
    state = AkelarreState.new_game(build_rules(4), seed=4, first=2)
    state = apply(state, Message(3, to=0))
    state = apply(state, Message(4, to=1))
    data = state_to_data(state)
    assert data["chain"] == [
        {"seat": 2, "destination": "fire", "to": 0},
        {"seat": 0, "destination": "well", "to": 1},
    ]
    assert state_from_data(data, "s.json") == state


@pytest.mark.parametrize(
    ("chain", "message"),
    [
        ([{"seat": 1, "destination": "fire", "to": 0}], "chain.0.seat: seat 2 gives"),
        (
            [
                {"seat": 2, "destination": "fire", "to": 0},
                {"seat": 0, "destination": "air", "to": 2},
            ],
            "chain.1: illegal message",
        ),
        ([{"seat": 2, "destination": "lava", "to": 0}], "chain.0.destination"),
    ],
)
def test_bad_chain_is_refused(chain: list[dict[str, object]], message: str) -> None:
    data = state_to_data(AkelarreState.new_game(build_rules(4), seed=4, first=2))
    data["chain"] = chain
    with pytest.raises(InputError) as error:
        state_from_data(data, "s.json")
    assert message in str(error.value)
