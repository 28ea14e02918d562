"""The reach portfolio (``engine="auto"``): a budgeted plain search first, CP-SAT after.

What must hold whatever engine answers: the answer is exact (the search's optimum or
"unreachable" equals the unbounded search's), "unknown" is never turned into "no", the plan
is certified by the rules engine, and the ``--json`` document keeps its shape.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asterion.models.aster_board import Board
from asterion.models.aster_files import parse_state
from asterion.solver import aster_reach_portfolio
from asterion.solver.aster_reach import ReachAnswer, ReachQuestion, certify, search_reach
from asterion.solver.aster_reach_portfolio import reach
from asterion.solver.result import Status

PAIR = [(0, 0), (1, 0)]
"""Two stars one unit apart (any orientation under the default transforms)."""
ANSWER_KEYS = {"reachable", "status", "min_actions", "plan", "placement", "certified"}


def _question(pattern: Any = PAIR, turns: int = 1, own: bool = False, **fields: Any) -> Any:
    document: dict[str, Any] = {"player": "red", "players": ["red", "blue"], **fields}
    state = parse_state(json.dumps(document))
    return ReachQuestion.build(state, pattern, turns=turns, own_stars_only=own)


def _check(question: ReachQuestion, answer: ReachAnswer) -> None:
    document = answer.to_json()
    assert set(document) == ANSWER_KEYS
    if answer.certificate is not None:
        assert len(certify(question, answer.certificate.steps).steps) == answer.min_actions


def test_a_short_plan_over_many_slots_goes_to_the_search() -> None:
    # Red 4E = (1, 0) alone; generating on the empty C = (0, 0) makes the pair in one action.
    # Three turns of five symbols are 15 slots, which used to go straight to CP-SAT.
    question = _question(
        stars={"4E": "red"},
        actions=["nudge", "move_ring", "move_line", "generate", "nudge"],
        turns=3,
    )
    answer = reach(question)
    assert answer.engine == "search"
    assert answer.status is Status.OPTIMAL and answer.min_actions == 1
    _check(question, answer)


def test_cp_sat_takes_over_when_the_budget_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    question = _question(stars={"4E": "red"}, actions=["nudge", "generate"], turns=2)
    monkeypatch.setattr(aster_reach_portfolio, "SEARCH_BUDGET", 1)
    answer = reach(question)
    assert answer.engine == "cp-sat"
    assert answer.min_actions == search_reach(question).min_actions == 1
    _check(question, answer)


def test_an_unfinished_search_says_unknown_and_cp_sat_proves_no(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Own stars only, no red star on the board and an empty reserve: red can never own a
    # star, so the pair is unreachable; the search needs more than one state to see it.
    question = _question(
        stars={"4E": "blue", "C": "blue"},
        reserve={"red": 0},
        actions=["nudge", "generate", "move_line"],
        own=True,
    )
    assert search_reach(question, max_states=1).status is Status.UNKNOWN
    monkeypatch.setattr(aster_reach_portfolio, "SEARCH_BUDGET", 1)
    answer = reach(question)
    assert answer.engine == "cp-sat"
    assert answer.status is Status.INFEASIBLE and answer.reachable is False


@pytest.mark.parametrize("engine", ["auto", "cp-sat", "search"])
def test_every_engine_gives_the_documented_json(engine: Any) -> None:
    question = _question(stars={"4E": "red"}, actions=["generate"])
    answer = reach(question, engine=engine)
    assert answer.to_json()["min_actions"] == 1
    _check(question, answer)


# -- random small positions: the portfolio, at any budget, agrees with the unbounded search ----

POINTS = Board().points
KINDS = ["generate", "generate_targeted", "move_line", "move_ring", "nudge", "supernova"]
PATTERNS = [PAIR, [(0, 0), (1, 1)], [(0, 0), (1, 0), (2, 0)]]


@st.composite
def questions(draw: st.DrawFn) -> ReachQuestion:
    chosen = draw(st.lists(st.sampled_from(POINTS), min_size=1, max_size=5, unique=True))
    colors = draw(st.lists(st.sampled_from(["red", "blue"]), min_size=len(chosen)))
    stars = dict(zip(chosen, colors, strict=False))
    reds = sum(1 for c in stars.values() if c == "red")
    reserve = draw(st.integers(0, 10 - reds))
    actions = draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=3))
    return _question(  # type: ignore[no-any-return]
        draw(st.sampled_from(PATTERNS)),
        turns=draw(st.integers(1, 2)),
        own=draw(st.booleans()),
        stars=stars,
        reserve={"red": reserve},
        actions=actions,
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions(), st.sampled_from([1, 20, aster_reach_portfolio.SEARCH_BUDGET]))
def test_portfolio_agrees_with_the_unbounded_search(question: ReachQuestion, budget: int) -> None:
    expected = search_reach(question)
    assert expected.status in (Status.OPTIMAL, Status.INFEASIBLE)
    saved = aster_reach_portfolio.SEARCH_BUDGET
    aster_reach_portfolio.SEARCH_BUDGET = budget
    try:
        answer = reach(question, time_limit=30.0)
    finally:
        aster_reach_portfolio.SEARCH_BUDGET = saved
    assert answer.status is expected.status
    assert answer.min_actions == expected.min_actions
    _check(question, answer)
