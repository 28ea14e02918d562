"""Akelarre data files: the shipped tables, round trips, and one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asterion.errors import InputError
from asterion.models.akelarre import AkelarreState, Message, Objective, apply
from asterion.models.akelarre_files import (
    build_rules,
    default_objectives,
    default_payouts,
    default_powers,
    default_supply,
    load_payouts,
    objectives_from_data,
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
        # A payout is 0 or more, at most 1000.
        ({"3": {"1": -1, "2": 4, "3": 3}}, "tables.3.1: resources must be 0 to 1000"),
        ({"3": {"1": 1001, "2": 4, "3": 3}}, "tables.3.1: resources must be 0 to 1000"),
        # Two players: the virtual player makes crowds of 3 possible; the first gap is named.
        ({"2": {"1": 1}}, "tables.2: crowd size 2 is missing (a 2-player table gives 1-3)"),
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
    with pytest.raises(InputError, match=r"s.json: tables.4: water is missing"):
        supply_from_data({"tables": {"4": {"earth": 1, "fire": 1}}}, "s.json")
    with pytest.raises(InputError, match=r"s.json: tables.4: air count must be 0 to 1000"):
        supply_from_data(
            {"tables": {"4": {"earth": 1, "water": 1, "air": 1001, "fire": 1}}}, "s.json"
        )


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


def test_tables_accept_0_and_1000_and_crowd_sizes_up_to_5() -> None:
    # A payout or a count is 0 to 1000 ("0 for none"); a 3-player table may give sizes 4 and 5
    # (the seed's 4-5 column), unused: only crowds of 1-3 happen with 3 players.
    payouts = payouts_from_data({"tables": {"3": {"1": 0, "2": 1000, "3": 3, "4": 9, "5": 9}}}, "")
    assert payouts[3].amounts == (0, 1000, 3)
    supply = supply_from_data(
        {"tables": {"4": {"earth": 0, "water": 1000, "air": 1, "fire": 2}}}, ""
    )
    assert supply[4] == (0, 1000, 1, 2)


def test_build_rules_gives_the_k4_sabba_bonus_of_1_unless_changed() -> None:
    # K4: alone at a location takes 1 + sabba_bonus (default 1): 2, or 1 with no bonus.
    assert build_rules(3).rite_amount(1, True) == 2
    assert build_rules(3, sabba_bonus=0).rite_amount(1, True) == 1


def test_objectives_need_at_least_one_resource() -> None:
    # K3: an Objective card is a combination of resources; one resource is the least, and a
    # file of a single card is a valid (if small) objective set.
    one = objectives_from_data({"objectives": [{"id": "W1", "needs": {"water": 1}}]}, "o.json")
    assert one == (Objective("W1", (0, 1, 0, 0)),)
    with pytest.raises(InputError, match=r"o.json: objectives.0: an objective needs at least"):
        objectives_from_data({"objectives": [{"id": "Z", "needs": {"earth": 0}}]}, "o.json")
    with pytest.raises(InputError, match=r"o\.json"):
        objectives_from_data({"objectives": []}, "o.json")


def three_player_file() -> dict[str, object]:
    return state_to_data(AkelarreState.new_game(build_rules(3), seed=4))


@pytest.mark.parametrize("turn", [1, 13])
def test_a_position_may_be_on_turns_1_to_13(turn: int) -> None:
    # Components: the turn marker runs 1-13.
    data = three_player_file() | {"turn": turn}
    assert state_from_data(data, "s.json").turn == turn


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turn": 14}, "s.json: turn: turn 14 is after the last turn (13)"),
        ({"turn": 0}, "s.json"),
        ({"first": 3}, "s.json: first: first must be a seat 0-2"),
        ({"first": -1}, "s.json"),
    ],
)
def test_a_position_off_the_turn_track_or_first_player_is_refused(
    change: dict[str, int], message: str
) -> None:
    # 13 turns; the first-player token is held by one of the 3 players (seats 0-2).
    with pytest.raises(InputError) as error:
        state_from_data(three_player_file() | change, "s.json")
    assert message in str(error.value)


@pytest.mark.parametrize("first", [0, 2])
def test_any_player_may_hold_the_first_player_token(first: int) -> None:
    assert state_from_data(three_player_file() | {"first": first}, "s.json").first == first


def test_the_virtual_player_never_holds_the_first_player_token() -> None:
    # Two players: seats 0 and 1 are the Sorginak, seat 2 the virtual player.
    data = state_to_data(AkelarreState.new_game(build_rules(2), seed=4)) | {"first": 2}
    with pytest.raises(InputError, match="first must be a seat 0-1"):
        state_from_data(data, "s.json")


def test_the_rules_given_must_be_for_the_files_player_count() -> None:
    with pytest.raises(InputError, match=r"s\.json: players: the file is for 3 players, the rules"):
        state_from_data(three_player_file(), "s.json", build_rules(4))
    # Rules for 3 players are used as given: a 5-turn game ends its turn track at 5.
    short = build_rules(3, turns=5)
    assert state_from_data(three_player_file() | {"turn": 5}, "s.json", short).rules == short
    with pytest.raises(InputError, match="turn 6 is after the last turn"):
        state_from_data(three_player_file() | {"turn": 6}, "s.json", short)


def test_a_position_without_supply_or_decks_completes_them() -> None:
    # K2: the supply is the rules' (15 per element); omitted decks hold the cards nobody has,
    # in file order (the state format's description).
    data = three_player_file()
    for key in ("supply", "objective_deck", "power_deck"):
        del data[key]
    state = state_from_data(data, "s.json")
    assert state.supply == (15, 15, 15, 15)
    held = {state.public, *(board.private for board in state.seats)}
    assert len(held) == 4
    assert state.objective_deck == tuple(o.id for o in default_objectives() if o.id not in held)
    assert state.power_deck == tuple(p.id for p in default_powers())
    given = state_from_data(data | {"supply": {"earth": 2, "water": 0, "air": 7, "fire": 15}}, "")
    assert given.supply == (2, 0, 7, 15)


def test_a_position_without_a_turn_is_on_turn_1() -> None:
    # Components: the turn marker starts the game on turn 1.
    data = three_player_file()
    del data["turn"]
    assert state_from_data(data, "s.json").turn == 1
