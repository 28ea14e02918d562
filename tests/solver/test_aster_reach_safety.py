"""Aster's reach answers: statuses, bounds and the exact search's limits (tests a mutation audit
found missing)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from asterion.models.aster_files import parse_state
from asterion.solver.aster_reach import ReachQuestion, search_reach
from asterion.solver.result import Status

PAIR = [(0, 0), (1, 0)]


def _state(**fields: Any):
    return parse_state(json.dumps({"player": "red", **fields}))


def _needs_two_moves() -> ReachQuestion:
    # Red 1N = (0, 4) and 1E = (4, 0): no single move_line brings them one unit apart
    # (test_two_line_moves_are_needed reasons it out), so the shortest plan has 2 actions
    # and the search must visit more than a handful of boards before it finds it.
    return ReachQuestion.build(
        _state(stars={"1N": "red", "1E": "red"}, actions=["move_line", "move_line"]), PAIR
    )


def test_a_search_out_of_states_says_unknown_not_no() -> None:
    # One state of budget: the start board lacks the pair, so the search cannot have proved
    # anything. "reachable" must be None (unknown), never False (rules: unknown is never "no").
    answer = search_reach(_needs_two_moves(), max_states=1)
    assert answer.status is Status.UNKNOWN
    assert answer.reachable is None
    assert answer.to_json()["reachable"] is None
    assert answer.to_json()["min_actions"] is None


def test_a_feasible_plan_is_not_reported_as_the_minimum() -> None:
    # A plan that is not proven shortest (status feasible) gives no min_actions: only an
    # optimal answer's plan length is the minimum.
    optimal = search_reach(_needs_two_moves())
    assert optimal.status is Status.OPTIMAL and optimal.min_actions == 2
    feasible = replace(optimal, status=Status.FEASIBLE)
    assert feasible.reachable is True
    assert feasible.min_actions is None
    assert feasible.to_json()["min_actions"] is None


def test_search_reads_its_clock(fast_clock: Any) -> None:
    # With a clock that runs one second a reading, a 3-second limit is over after a few
    # boards: the search must stop and say unknown, although its state budget is huge.
    question = _needs_two_moves()
    fast_clock()
    answer = search_reach(question, max_states=10**9, time_limit=3.0)
    assert answer.status is Status.UNKNOWN
    assert answer.reachable is None


@pytest.mark.parametrize(
    "stars",
    [
        {"4N": "red", "4NE": "blue", "C": "red"},  # 4N-C has 2 red stars, 4N-4NE one
        {"4N": "red", "4NE": "red", "C": "blue"},  # 4N-4NE has 2 red stars, 4N-C one
    ],
)
def test_goal_placement_has_the_most_own_stars_whatever_the_order(stars: dict[str, str]) -> None:
    # Rules A9: the reported placement is the one with the most of the player's stars.
    # Brute force: among the target placements present, the largest number of red stars.
    question = ReachQuestion.build(_state(stars=stars, actions=["nudge"]), PAIR)
    state = question.state
    present = [p for p in question.targets if all(state.star_at(v) is not None for v in p)]
    assert len(present) == 2
    best_own = max(sum(state.star_at(v) is state.player for v in p) for p in present)
    goal = question.is_goal(state)
    assert goal is not None
    assert sum(state.star_at(v) is state.player for v in goal) == best_own == 2
