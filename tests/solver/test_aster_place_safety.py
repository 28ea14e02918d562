"""Aster's placements: the certification of a CP-SAT placement against the enumeration is what
stands between a wrong model and a wrong answer, so a wrong model must be caught by it."""

from __future__ import annotations

import json

import pytest
from ortools.sat.python import cp_model

from asterion.models.aster_files import parse_state
from asterion.solver import aster_place


def _no_geometry(model: cp_model.CpModel, board, pattern, transforms):  # type: ignore[no-untyped-def]
    """A broken encoding: each pattern point on some board point, no shape kept."""
    cell = [{v: model.new_bool_var(f"p{i}{v}") for v in board.points} for i in range(len(pattern))]
    for choices in cell:
        model.add_exactly_one(choices.values())
    return aster_place._PlacementVars(
        [], (model.new_int_var(0, 0, "x"), model.new_int_var(0, 0, "y")), cell
    )


def test_a_non_placement_from_cp_sat_is_never_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    # Red 1N = (0, 4) and 1E = (4, 0) are not one unit apart, so no pair placement holds both.
    # The broken model puts the pair on them (0 missing, 2 own): certification must refuse.
    state = parse_state(json.dumps({"player": "red", "stars": {"1N": "red", "1E": "red"}}))
    monkeypatch.setattr(aster_place, "add_placement", _no_geometry)
    with pytest.raises(AssertionError, match="not a placement"):
        aster_place.best_placement(state, [(0, 0), (1, 0)], time_limit=10.0)


def test_bound_of_an_optimal_placement_is_its_objective() -> None:
    # Red 4E alone, the pair: some placement holds 4E and lacks one star (C next to it),
    # objective (n + 1) * 1 - 1 = 2 for n = 2; proven optimal, so the bound is that too.
    state = parse_state(json.dumps({"player": "red", "stars": {"4E": "red"}}))
    result = aster_place.best_placement(state, [(0, 0), (1, 0)], time_limit=10.0)
    assert result.status.value == "optimal"
    assert result.objective == 2.0
    assert result.bound == 2.0
