"""Aster's reach portfolio: the engines share one time limit (a test a mutation audit found
missing)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from asterion.models.aster_files import parse_state
from asterion.solver import aster_reach_portfolio as portfolio
from asterion.solver.aster_reach import ReachAnswer, ReachQuestion
from asterion.solver.result import Status


def test_cp_sat_gets_only_the_time_the_search_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # Red 4E alone, one generate: the pair lacks one star, so auto runs the search first.
    # The search is made to "take" 7 of the 10 seconds and give up: CP-SAT may have at most
    # the 3 seconds left (the total time limit is the user's, not per engine).
    state = parse_state(
        json.dumps({"player": "red", "stars": {"4E": "red"}, "actions": ["generate"]})
    )
    question = ReachQuestion.build(state, [(0, 0), (1, 0)])
    now = [100.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])

    def slow_search(q: ReachQuestion, **_: Any) -> ReachAnswer:
        now[0] += 7.0
        return ReachAnswer(Status.UNKNOWN, None, "search", 7.0)

    given: list[float] = []

    def fake_cp(q: ReachQuestion, *, time_limit: float, seed: int) -> ReachAnswer:
        given.append(time_limit)
        return ReachAnswer(Status.UNKNOWN, None, "cp-sat", time_limit)

    monkeypatch.setattr(portfolio, "search_reach", slow_search)
    monkeypatch.setattr(portfolio, "cp_reach", fake_cp)
    answer = portfolio.reach(question, engine="auto", time_limit=10.0)
    assert answer.status is Status.UNKNOWN
    assert given and given[0] <= 3.0 + 1e-9
