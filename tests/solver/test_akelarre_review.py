"""The Akelarre post-mortem: hand-worked turns, and every hindsight gain against the game
replayed through the rules engine with the seat's message changed.

Hand-worked positions: 3 players, each with a private objective of 8 fire (F0-F2), no public
objective and empty decks, so a seat's progress is ½ · fire held / 8 = fire / 16 until it
completes one. The 2-3 player table pays 2 (1 + Sabba), 4, 3 for crowds of 1, 2, 3.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1] / "models"))
from akelarre_games import random_game

from asterion.models.akelarre import (
    DESTINATIONS,
    LOCATIONS,
    WELL,
    Decider,
    Message,
    Objective,
    apply,
    outcome,
)
from asterion.models.akelarre_files import build_rules
from asterion.models.akelarre_record import GameRecord, record_data, record_from_data
from asterion.solver.akelarre_equilibria import objective_progress
from asterion.solver.akelarre_review import hindsight_gains, review_game

EARTH, WATER, AIR, FIRE = 0, 1, 2, 3
FIRE_RULES = build_rules(3, objectives=tuple(Objective(f"F{k}", (0, 0, 0, 8)) for k in range(3)))


def fire_record(turns: list[list[str]]) -> GameRecord:
    start: dict[str, Any] = {
        "format": "asterion.akelarre-state/1",
        "players": 3,
        "public": None,
        "seats": [{"private": f"F{k}"} for k in range(3)],
        "objective_deck": [],
        "power_deck": [],
    }
    return record_from_data({"start": start, "turns": turns}, "game.json", FIRE_RULES)


TURN_1 = ["fire to 1", "earth to 2", "fire"]
"""Seat 0 (first) to fire, seat 1 to earth, seat 2 to fire: 4 fire each for seats 0 and 2,
2 earth for seat 1, and the Well gets 1 water and 1 air (nobody chose it)."""


def test_turn_one_worked_by_hand() -> None:
    review = review_game(fire_record([TURN_1]))
    zero, one, two = review.decisions
    # Seat 0, told nothing: at fire, each of the others (anywhere of 5) is there with
    # chance 1/5: alone 2 fire (16/25), with one 4 (8/25), with both 3 (1/25).
    assert zero.told == {} and zero.expected[FIRE] == Fraction(16 * 2 + 8 * 4 + 1 * 3, 25 * 16)
    assert zero.best_expected == (FIRE,) and zero.expected_loss == 0
    # in hindsight seat 2 was at fire too: 4 fire
    assert zero.gain == Fraction(4, 16) and zero.hindsight_loss == 0
    # Seat 1, told seat 0 fire: at fire, seat 2 is there with chance 1/5 (crowd 3: 3 fire),
    # else a crowd of 2 (4 fire). Earth and the others give no fire.
    assert one.told == {0: FIRE} and one.expected[FIRE] == Fraction(1, 5) * Fraction(
        3, 16
    ) + Fraction(4, 5) * Fraction(4, 16)
    assert one.expected[EARTH] == 0 and one.expected_loss == Fraction(19, 80)
    # in hindsight both others were at fire: 3 fire in a crowd of 3
    assert one.gain == 0 and one.hindsight_loss == Fraction(3, 16)
    assert one.best_expected == one.best_hindsight == (FIRE,)
    # Seat 2, told seat 1 earth: seat 0 chose unseen, so at one of the 4 locations: with it
    # at fire 4 fire (1/4), else alone 2.
    assert two.told == {1: EARTH}
    assert two.expected[FIRE] == Fraction(1, 4) * Fraction(4, 16) + Fraction(3, 4) * Fraction(2, 16)
    assert two.expected_loss == 0 and two.gain == Fraction(4, 16)
    summary = review.seats
    assert [s.off_best for s in summary] == [0, 1, 0]
    assert summary[1].expected_loss == Fraction(19, 80)
    assert summary[1].hindsight_loss == Fraction(3, 16)


def test_turn_two_completes_both_fire_objectives_and_ends_the_game() -> None:
    # Turn 2, seat 1 first: it declares the Well (1 water, 1 air in it), seats 0 and 2 go
    # to fire. Rites from seat 1: seat 2 takes 4 of the 7 fire left, holds 8, completes F2
    # and the 8 fire go back; seat 0 then takes 4 and completes F0. The objective deck is
    # empty, so neither is replaced and the game ends (K7).
    record = fire_record([TURN_1, ["well to 0", "fire to 2", "fire"]])
    review = review_game(record)
    one, zero, two = review.decisions[3:]
    assert (one.seat, zero.seat, two.seat) == (1, 0, 2)
    # each completer had 4/16 and ends with 1 completed, nothing left in play
    assert zero.gain == two.gain == 1 - Fraction(4, 16)
    assert zero.hindsight_loss == two.hindsight_loss == 0
    # the Well was declared before them: not theirs to choose
    assert set(zero.expected) == set(zero.hindsight) == set(LOCATIONS)
    assert two.told == {0: FIRE, 1: WELL}
    # Seat 1 at the Well took water and air: no fire; at fire (a crowd of 3) it had had 3.
    assert one.gain == 0 and one.hindsight[FIRE] == Fraction(3, 16)
    end = record.end
    assert end.is_over and outcome(end).winners == (0, 2)
    assert outcome(end).decided_by is Decider.SHARED  # 1 objective, 0 resources, 0 powers each
    assert review.to_json()["winners"] == [0, 2]


def test_the_well_is_no_alternative_when_another_seat_went_there() -> None:
    review = review_game(fire_record([["fire to 1", "fire to 2", "well"]]))
    zero, one, two = review.decisions
    # seat 1 could have declared it (nobody had), so it is weighed as told ...
    assert WELL in one.expected and WELL in zero.expected
    # ... but seat 2 went there, so in hindsight it is left out
    assert WELL not in one.hindsight and WELL not in zero.hindsight
    assert set(two.hindsight) == set(DESTINATIONS)


def test_json_lists_each_turns_decisions_under_that_turn() -> None:
    # Turn 1 as TURN_1 (seat 0 first); turn 2 seat 1 first (the first-player token passes
    # clockwise, rule 5): seat 1 declares the Well, seats 0 and 2 go to fire.
    record = fire_record([TURN_1, ["well to 0", "fire to 2", "fire"]])
    turns = review_game(record).to_json()["turns"]
    assert [t["turn"] for t in turns] == [1, 2]
    one, two = turns
    assert one["destinations"] == ["fire", "earth", "fire"]
    assert [(d["seat"], d["played"]) for d in one["decisions"]] == [
        (0, "fire"),
        (1, "earth"),
        (2, "fire"),
    ]
    # turn 1 gains worked in test_turn_one_worked_by_hand: 4 fire, none, 4 fire (of 16)
    assert [d["gain"] for d in one["decisions"]] == ["1/4", "0", "1/4"]
    assert two["destinations"] == ["fire", "well", "fire"]
    assert [(d["seat"], d["played"]) for d in two["decisions"]] == [
        (1, "well"),
        (0, "fire"),
        (2, "fire"),
    ]


def test_hindsight_gains_leaves_out_the_taken_well_wherever_it_is_listed() -> None:
    # Seat 2 went to the Well, seat 1 to fire. Seat 0's options listed with the Well first:
    # the Well is skipped (taken by another seat), the rest still weighed. Earth gives no
    # fire (0); fire with seat 1 is a crowd of 2: 4 fire, 4/16.
    start = fire_record([TURN_1]).start
    gains = hindsight_gains(start, [FIRE, FIRE, WELL], 0, [WELL, EARTH, FIRE])
    assert gains == {EARTH: 0, FIRE: Fraction(4, 16)}


def test_a_best_response_to_what_was_told_can_lose_in_hindsight() -> None:
    # Objectives of 8 water and 8 fire: progress (water + fire) / 32. Seat 0 goes to fire,
    # seat 1 to water, seat 2 to water.
    both = tuple(Objective(f"B{k}", (0, 8, 0, 8)) for k in range(3))
    start: dict[str, Any] = {
        "format": "asterion.akelarre-state/1",
        "players": 3,
        "seats": [{"private": f"B{k}"} for k in range(3)],
        "objective_deck": [],
        "power_deck": [],
    }
    record = record_from_data(
        {"start": start, "turns": [["fire to 1", "water to 2", "water"]]},
        "game.json",
        build_rules(3, objectives=both),
    )
    zero, one, _ = review_game(record).decisions
    # Seat 0, told nothing: fire and water alike, so fire is a best response ...
    assert zero.expected[FIRE] == zero.expected[WATER] and zero.expected_loss == 0
    # ... but alone at fire it took 2, where water (a crowd of 3) paid 3.
    assert zero.gain == Fraction(2, 32) and zero.hindsight_loss == Fraction(1, 32)
    assert zero.best_hindsight == (WATER,)
    # Seat 1, told seat 0 fire: water pays 4 with seat 2 (1/5), else 2; fire 3 with seat 2
    # (1/5), else 4. So fire was the best response, but as it fell out water paid 4 like fire.
    assert one.expected[WATER] == Fraction(12, 5 * 32) and one.expected[FIRE] == Fraction(
        19, 5 * 32
    )
    assert one.expected_loss == Fraction(7, 5 * 32) and one.hindsight_loss == 0
    summary = review_game(record).seats
    assert [s.off_best for s in summary] == [0, 1, 0]


def random_record(players: int, seed: int, turns: int) -> GameRecord:
    start, chains = random_game(players, seed, turns)
    return record_from_data(record_data(start, chains), "game.json")


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(1, 6))
def test_hindsight_gains_agree_with_the_game_replayed(players: int, seed: int, turns: int) -> None:
    record = random_record(players, seed, turns)
    review = review_game(record)
    sorginak = sum(1 for t in record.turns for s in t.states if not s.is_virtual(s.holder))
    assert len(review.decisions) == sorginak
    by_turn = {t.report.turn: t for t in record.turns}
    for decision in review.decisions:
        played = by_turn[decision.turn]
        index = next(i for i, s in enumerate(played.states) if s.holder == decision.seat)
        before = objective_progress(played.start, decision.seat)
        # what the turn really gave, read from the replay
        assert decision.gain == objective_progress(played.after, decision.seat) - before
        assert decision.expected_loss >= 0 and decision.hindsight_loss >= 0
        assert decision.played in decision.expected
        for option, gain in decision.hindsight.items():
            # the same chain with this seat's destination changed, through the rules engine
            state = played.start
            for i, message in enumerate(played.messages):
                if i == index:
                    message = Message(option, message.to)
                state = apply(state, message)
            assert gain == objective_progress(state, decision.seat) - before
