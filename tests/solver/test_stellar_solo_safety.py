"""Stellar's solo solver and exact score: plans replayed, bounds honest, models confirmed by
the rules (tests a mutation audit found missing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_stellar_solo import HAND_WORKED  # (the hand-worked one-turn deal)

from asterion.models.stellar import FinalNote, Turn
from asterion.models.stellar_solo import solo_puzzle_from_data
from asterion.solver import stellar_solo

# tests/solver/test_stellar_solo.py::test_hand_worked_one_turn reasons this plan to 12 points.
PLAN = [Turn(1, "M0a", "telescope", 3, None), FinalNote("M5b")]


def test_certified_refuses_a_claim_the_rules_do_not_give() -> None:
    puzzle = solo_puzzle_from_data(HAND_WORKED, "solo.json")
    assert stellar_solo.certified(puzzle, PLAN, 12, "hand")[1] == 12
    with pytest.raises(AssertionError, match="by the rules"):
        stellar_solo.certified(puzzle, PLAN, 13, "hand")


def test_a_search_that_overclaims_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search's own score of its best plan, one too high: the replay must refuse it.
    puzzle = solo_puzzle_from_data(HAND_WORKED, "solo.json")
    original = stellar_solo.BranchAndBound.run

    def overclaim(self):  # type: ignore[no-untyped-def]
        bound = original(self)
        self.best += 1
        return bound

    monkeypatch.setattr(stellar_solo.BranchAndBound, "run", overclaim)
    with pytest.raises(AssertionError, match="by the rules"):
        stellar_solo.search_solo(puzzle)


def test_cp_sat_stopped_early_with_a_plan_is_feasible_not_optimal() -> None:
    # A whole game takes CP-SAT minutes to prove (docs/benchmarks.md). Started from the
    # search's quick plan (a hint) and capped at a sliver of deterministic work, it has a plan
    # but no proof: the answer must be feasible, its plan certified, its bound at least it.
    from asterion.models.stellar_solo import deal_solo_puzzle
    from asterion.solver.result import Status

    puzzle = deal_solo_puzzle(3)
    hint = stellar_solo.search_solo(puzzle, max_nodes=20).plan
    answer = stellar_solo.cp_sat_solo(puzzle, hint=hint, time_limit=60, work=2.0)
    assert answer.status is Status.FEASIBLE
    assert answer.best_score is not None and answer.bound is not None
    assert answer.bound >= answer.best_score
    assert stellar_solo.replay(puzzle, answer.plan)[1] == answer.best_score


def _replay_off_by(monkeypatch: pytest.MonkeyPatch, delta: int) -> None:
    original = stellar_solo.replay

    def off(puzzle, plan):  # type: ignore[no-untyped-def]
        final, total = original(puzzle, plan)
        return final, total + delta

    monkeypatch.setattr(stellar_solo, "replay", off)


def test_an_optimal_claim_must_equal_the_rules_score(monkeypatch: pytest.MonkeyPatch) -> None:
    # CP-SAT proves 12 on the hand-worked puzzle; a rules score of 13 for its plan means the
    # model and the rules disagree (the model's optimum is then no optimum): refuse it.
    puzzle = solo_puzzle_from_data(HAND_WORKED, "solo.json")
    _replay_off_by(monkeypatch, +1)
    with pytest.raises(AssertionError, match="not 12"):
        stellar_solo.cp_sat_solo(puzzle)


def test_a_feasible_claim_above_the_rules_score_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from asterion.models.stellar_solo import deal_solo_puzzle

    puzzle = deal_solo_puzzle(3)
    hint = stellar_solo.search_solo(puzzle, max_nodes=20).plan
    # (CP-SAT's objective may read below the rules' score of its plan, never above: a rules
    # score far below any claim must be refused.)
    _replay_off_by(monkeypatch, -1000)
    with pytest.raises(AssertionError, match="below"):
        stellar_solo.cp_sat_solo(puzzle, hint=hint, time_limit=60, work=2.0)


def test_a_feasible_answer_keeps_a_true_upper_bound() -> None:
    # The bound of a feasible answer is a proven upper bound on the optimum: it can be no
    # lower than the score of any certified plan, e.g. one the search finds with more nodes.
    from asterion.models.stellar_solo import deal_solo_puzzle
    from asterion.solver.result import Status

    puzzle = deal_solo_puzzle(3)
    hint = stellar_solo.search_solo(puzzle, max_nodes=20).plan
    answer = stellar_solo.cp_sat_solo(puzzle, hint=hint, time_limit=60, work=2.0)
    better = stellar_solo.search_solo(puzzle, max_nodes=3000)
    assert better.best_score is not None and answer.best_score is not None
    assert better.best_score > answer.best_score  # (precondition: a better plan exists)
    assert answer.status is Status.FEASIBLE
    assert answer.bound is not None and answer.bound >= better.best_score


def test_auto_gives_split_only_the_time_the_search_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # auto: the presearch "takes" 7 of 10 seconds without proving anything; split may then
    # have at most 3 (the limit is the user's, for the whole solve).
    import time as time_module

    from asterion.models.stellar_solo import deal_solo_puzzle
    from asterion.solver import stellar_solo_split
    from asterion.solver.result import Status

    puzzle = deal_solo_puzzle(3, turns=5)  # beyond AUTO_SEARCH_TURNS: split runs after
    now = [100.0]
    monkeypatch.setattr(time_module, "perf_counter", lambda: now[0])

    def slow_presearch(p, limit):  # type: ignore[no-untyped-def]
        now[0] += 7.0
        return None

    given: list[float] = []

    def fake_split(p, *, time_limit, seed, incumbent, ceiling):  # type: ignore[no-untyped-def]
        given.append(time_limit)
        return stellar_solo.SoloAnswer(Status.UNKNOWN, None, [], None, 0.0, "split")

    monkeypatch.setattr(stellar_solo, "presearch", slow_presearch)
    monkeypatch.setattr(stellar_solo_split, "split_solo", fake_split)
    stellar_solo.solve_solo(puzzle, method="auto", time_limit=10.0)
    assert given and given[0] <= 3.0 + 1e-9


def test_type_scores_refuse_a_model_the_rules_do_not_confirm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The seed example of test_stellar_score (moons 5 stars, notebook moons 4, 5 and a 0/6
    # read as 6: 5 x 3 = 15). If the rules' re-score of CP-SAT's readings disagrees with
    # CP-SAT's objective (here: a re-score whose runs come out one longer), the answer must be
    # refused, not returned.
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_stellar_score import MOON, Z, position

    from asterion.solver import stellar_score

    state = position({MOON: 5}, [(MOON, 4), (MOON, 5), (MOON, Z)])
    assert stellar_score.type_scores(state, 0).value.total == 15
    original = stellar_score.longest_run
    monkeypatch.setattr(stellar_score, "longest_run", lambda numbers: original(numbers) + 1)
    with pytest.raises(AssertionError, match="disagrees"):
        stellar_score.type_scores(state, 0)
