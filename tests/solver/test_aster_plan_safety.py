"""Aster's CP-SAT planner: its objective must equal the replayed plan's length (a test a
mutation audit found missing)."""

from __future__ import annotations

import json

import pytest

from asterion.models.aster_files import parse_state
from asterion.solver import aster_plan
from asterion.solver.aster_reach import ReachQuestion


def test_an_objective_that_disagrees_with_the_plan_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A broken objective (one action too many) must not slip through as a certified answer.
    original = aster_plan.build_planner

    def off_by_one(question):  # type: ignore[no-untyped-def]
        planner = original(question)
        planner.model.minimize(planner.actions_used() + 1)
        return planner

    monkeypatch.setattr(aster_plan, "build_planner", off_by_one)
    state = parse_state(
        json.dumps({"player": "red", "stars": {"4E": "red"}, "actions": ["generate"]})
    )
    question = ReachQuestion.build(state, [(0, 0), (1, 0)])
    with pytest.raises(AssertionError):
        aster_plan.cp_reach(question, time_limit=10.0)
