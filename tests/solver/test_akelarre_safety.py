"""Akelarre's planner and equilibria, given what they must refuse or bound (tests a mutation
audit found missing)."""

from __future__ import annotations

import sys
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
import sympy

sys.path.insert(0, str(Path(__file__).parent))
from test_akelarre_equilibria import handmade
from test_akelarre_plan import random_instance

from asterion.models.akelarre import DESTINATIONS, WELL
from asterion.models.akelarre_files import build_rules
from asterion.solver import akelarre_plan
from asterion.solver.akelarre_equilibria import (
    is_equilibrium,
    mixed_equilibria_2p,
    mixed_equilibria_3p,
)
from asterion.solver.akelarre_plan import PlanInstance, plan_cp_sat, plan_search
from asterion.solver.result import Status

EARTH, WATER = 0, 1


def o13(players: int = 3, **rules: object) -> PlanInstance:
    # test_three_elements_need_three_turns: O13 (2 earth, 2 water, 2 air), the others always
    # at earth and water: 2 turns cannot do it, 3 can.
    return PlanInstance.start(
        build_rules(players, **rules), seat=0, objectives=("O13",), others=((EARTH,), (WATER,))
    )


def test_a_plan_that_does_not_complete_when_replayed_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    instance = o13()
    monkeypatch.setattr(akelarre_plan, "replay", lambda inst, plan: inst.state)  # no progress
    with pytest.raises(AssertionError, match="does not complete"):
        plan_cp_sat(instance)


def test_a_search_cut_short_by_max_turns_is_unknown_not_infeasible() -> None:
    # The plan needs 3 turns; asked to look 2 turns deep (the game has more), the search has
    # not shown that none exists.
    answer = plan_search(o13(), max_turns=2)
    assert answer.status is Status.UNKNOWN
    assert plan_search(o13()).turns == 3


def test_the_search_gives_a_true_lower_bound_when_it_gives_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Out of states after the first level (no 1-turn plan there): every plan needs at least 2.
    monkeypatch.setattr(akelarre_plan, "MAX_SEARCH_STATES", 0)
    answer = plan_search(o13())
    assert answer.status is Status.UNKNOWN
    assert answer.bound == 2


def test_a_plan_past_the_horizon_is_infeasible() -> None:
    # Two turns in the whole game, 3 needed: no plan (both engines).
    instance = o13(turns=2)
    assert instance.horizon == 2
    assert plan_search(instance).status is Status.INFEASIBLE
    assert plan_cp_sat(instance).status is Status.INFEASIBLE


def test_cp_sat_feasible_bound_is_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # CP-SAT stopped at its first solution: the reported bound (fewest turns any plan may
    # need) must never exceed the exact optimum (breadth-first search).
    original = akelarre_plan.make_solver

    def first_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        solver = original(*args, **kwargs)
        solver.parameters.stop_after_first_solution = True
        solver.parameters.cp_model_presolve = False
        return solver

    monkeypatch.setattr(akelarre_plan, "make_solver", first_only)
    checked = 0
    for seed in range(30):
        instance = random_instance(seed)
        exact = plan_search(instance)
        answer = plan_cp_sat(instance)
        if answer.status is Status.FEASIBLE and exact.turns is not None:
            assert answer.bound is not None and answer.bound <= exact.turns
            if answer.turns > exact.turns:
                checked += 1
    assert checked  # (precondition: some first solution was not optimal)


def test_cp_sat_never_sends_the_planner_to_an_occupied_well() -> None:
    # Rules: one seat at the Well a turn (PlanInstance refuses two others there). On random
    # instances with a Well taker, CP-SAT's plans keep the planner away from it those turns.
    for seed in range(60):
        instance = random_instance(seed)
        answer = plan_cp_sat(instance)
        for t, mine in enumerate(answer.plan):
            others = [
                instance.other_destination(s, t)
                for s in range(instance.rules.seats)
                if s != instance.seat
            ]
            assert not (mine == WELL and WELL in others), (seed, t)


def test_five_way_pennies_has_only_the_uniform_equilibrium() -> None:
    # Row wins 1 when both pick the same destination, column wins 1 otherwise (a 5 x 5
    # matching game). Any equilibrium makes each indifferent: the only one is 1/5 each, on
    # the full support of 5 destinations; no pure one.
    utility = {(a, b): (1, 0) if a == b else (0, 1) for a in DESTINATIONS for b in DESTINATIONS}
    game = handmade(2, utility)
    found = mixed_equilibria_2p(game)
    fifth = sympy.Rational(1, 5)
    assert [e.strategies for e in found] == [((fifth,) * 5, (fifth,) * 5)]


def test_three_player_search_out_of_time_is_unknown() -> None:
    utility = {}
    for a, b, c in product((0, 1), (0, 1), DESTINATIONS):
        utility[(a, b, c)] = ((1, -1) if a == b else (-1, 1)) + (int(c == 0),)
    search = mixed_equilibria_3p(handmade(3, utility), time_limit=-1.0)
    assert search.supports_examined < search.supports_total
    assert search.status is Status.UNKNOWN


def test_is_equilibrium_refuses_vectors_that_are_not_probabilities() -> None:
    pennies = {(a, b): (1, -1) if a == b else (-1, 1) for a in (0, 1) for b in (0, 1)}
    game = handmade(2, pennies)
    half = (Fraction(1, 2), Fraction(1, 2), Fraction(0), Fraction(0), Fraction(0))
    assert is_equilibrium(game, (half, half))
    double = (Fraction(1), Fraction(1), Fraction(0), Fraction(0), Fraction(0))
    assert not is_equilibrium(game, (double, double))
