"""Aster's best turn: its certification refuses a model that disagrees with the rules (tests a
mutation audit found missing)."""

from __future__ import annotations

import json

import pytest

from asterion.models.aster_cards import provisional_catalog
from asterion.models.aster_files import parse_state
from asterion.solver import aster_best_turn
from asterion.solver.result import Status

# tests/solver/test_aster_best_turn.py::test_hand_worked_prefers_value_over_fewer_actions:
# best is Sge (4 points + 3 red stars = 7) after one generate_targeted on 3N or 3S.
HAND = {
    "stars": {"4N": "red", "4S": "red", "C": "blue"},
    "player": "red",
    "actions": ["generate_targeted"],
    "offer": ["CMi", "Sge"],
}


def _state():  # type: ignore[no-untyped-def]
    return parse_state(json.dumps(HAND), catalog=provisional_catalog())


@pytest.mark.parametrize("engine", [aster_best_turn.best_turn, aster_best_turn.best_turn_by_search])
def test_the_claim_goes_through_the_rules_engine(engine, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # The answer's claim is applied by the rules engine before it is returned: a rules engine
    # that refuses the claim must stop the answer.
    seen = []

    def refuse(state, action):  # type: ignore[no-untyped-def]
        seen.append(action)
        raise ValueError("claim refused")

    monkeypatch.setattr(aster_best_turn, "apply", refuse)
    with pytest.raises(ValueError, match="claim refused"):
        engine(_state())
    assert seen and seen[0].abbr == "Sge"


def test_search_prefers_fewer_actions_at_equal_value() -> None:
    # Red 4N = (0, 1) alone, two generate_targeted, offer CMi (a diagonal pair, 2 points).
    # The best value is 2 + 2 red stars = 4 (a pair has two stars). One action reaches it: a
    # red star on 4E = (1, 0), diagonal to 4N. Two actions reach it too, on many other
    # boards (two new red stars on any diagonal pair): at equal value the shorter plan wins.
    state = parse_state(
        json.dumps(
            {
                "stars": {"4N": "red"},
                "player": "red",
                "actions": ["generate_targeted", "generate_targeted"],
                "offer": ["CMi"],
            }
        ),
        catalog=provisional_catalog(),
    )
    for answer in (aster_best_turn.best_turn(state), aster_best_turn.best_turn_by_search(state)):
        assert answer.status is Status.OPTIMAL and answer.best is not None
        assert answer.best.value == 4
        assert len(answer.best.certificate.steps) == 1, answer.engine


def test_search_out_of_states_is_unknown() -> None:
    answer = aster_best_turn.best_turn_by_search(_state(), max_states=1)
    assert answer.status is Status.UNKNOWN and answer.best is None


def test_a_cp_sat_value_that_disagrees_with_the_rules_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A broken action count in the model (one action too many) makes CP-SAT's objective
    # disagree with the replayed plan: the answer must be refused, not printed.
    from asterion.solver.aster_plan import PlannerModel

    original = PlannerModel.actions_used
    monkeypatch.setattr(PlannerModel, "actions_used", lambda self: original(self) + 1)
    with pytest.raises(AssertionError, match="disagrees"):
        aster_best_turn.best_turn(_state())
