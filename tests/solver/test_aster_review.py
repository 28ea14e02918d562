"""The post-mortem of a played Aster game: each turn against the best turn from its start.
The best values are checked against the exact baseline (every board the turn reaches)."""

from __future__ import annotations

from typing import Any

import pytest

from asterion.models.aster import Color
from asterion.models.aster_record import demo_record, record_from_data
from asterion.solver import aster_review
from asterion.solver.aster_best_turn import BestTurnAnswer, best_turn_by_search
from asterion.solver.aster_review import review_game, turn_value
from asterion.solver.result import Status


def test_the_shipped_game_against_the_exact_baseline() -> None:
    record = demo_record()
    review = review_game(record)
    assert review.decided
    for turn in review.turns:
        exact = best_turn_by_search(turn.played.before)
        expected = 0 if exact.best is None else exact.best.value
        assert turn.best_value == expected
        assert turn.lost is not None and turn.lost >= 0  # the played turn is one the solver weighs
    # Worked from the record: red's first turn claims nothing, blue's claims Triangulum
    # (3 card points) with three blue stars, red's Corvus (4 points) with four red stars.
    assert [t.value for t in review.turns] == [0, 6, 8, 0]
    assert [t.claim and t.claim.abbr for t in review.turns] == [None, "Tri", "Crv", None]
    red_lost, red_open = review.lost_by(Color.RED)
    assert red_open == 0 and red_lost == sum(t.lost or 0 for t in review.turns[::2])


def test_a_turn_that_plays_the_best_turn_loses_nothing() -> None:
    # Blue's turn 2 of the shipped game is the plan best-turn gives from its start.
    review = review_game(demo_record())
    second = review.turns[1]
    assert second.best is not None and second.best.best is not None
    assert second.best.best.abbr == "Tri" and second.lost == 0


def test_an_unproven_best_leaves_the_loss_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def out_of_time(*args: Any, **kwargs: Any) -> BestTurnAnswer:
        return BestTurnAnswer(Status.UNKNOWN, None, "cp-sat", 0.0)

    monkeypatch.setattr(aster_review, "best_turn", out_of_time)
    review = review_game(demo_record())
    assert not review.decided
    assert all(t.lost is None for t in review.turns)
    assert review.lost_by(Color.RED) == (0, 2)
    assert review.to_json()["players"] == {
        "red": {"lost": 0, "unknown": 2},
        "blue": {"lost": 0, "unknown": 2},
    }


def test_no_face_up_card_means_nothing_to_lose() -> None:
    # A position with an empty offer: nothing can be claimed, no solve is run.
    record = record_from_data({"start": {"player": "red"}, "turns": [["generate C"]]}, "g")
    (turn,) = review_game(record).turns
    assert turn.best is None and turn.best_value == 0 and turn.lost == 0
    assert turn_value(turn.played) == 0


def test_a_turn_that_can_claim_nothing_loses_nothing() -> None:
    # Triangulum face up on an empty board, and only a victory point to play: no claim can
    # be made (best-turn: infeasible), so the pass loses nothing, a known 0, not unknown.
    start = {"player": "red", "actions": ["victory_point"], "offer": ["Tri"]}
    record = record_from_data({"start": start, "turns": [["victory_point"]]}, "g")
    (turn,) = review_game(record).turns
    assert turn.best is not None and turn.best.status is Status.INFEASIBLE
    assert turn.best_value == 0 and turn.lost == 0
