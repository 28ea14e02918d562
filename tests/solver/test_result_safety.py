"""Each CP-SAT status maps to its own, and the solver made for a solve carries the time limit
it was given (tests a mutation audit found missing)."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from asterion.solver.result import Status, cp_status, make_solver


@pytest.mark.parametrize(
    ("code", "status"),
    [
        (cp_model.OPTIMAL, Status.OPTIMAL),
        (cp_model.FEASIBLE, Status.FEASIBLE),  # a plan without proof is not "optimal"
        (cp_model.INFEASIBLE, Status.INFEASIBLE),
        (cp_model.UNKNOWN, Status.UNKNOWN),  # unknown is never "no"
    ],
)
def test_each_cp_sat_status_maps_to_its_own(code: int, status: Status) -> None:
    assert cp_status(code) is status


def test_an_invalid_model_is_a_bug() -> None:
    with pytest.raises(RuntimeError):
        cp_status(cp_model.MODEL_INVALID)


def test_the_solver_keeps_the_time_limit_seed_and_one_worker() -> None:
    solver = make_solver(2.5, 7)
    assert solver.parameters.max_time_in_seconds == 2.5
    assert solver.parameters.random_seed == 7
    assert solver.parameters.num_workers == 1


def test_a_solve_stopped_by_its_limit_says_unknown_not_infeasible() -> None:
    # End to end: a model CP-SAT cannot settle in 1 ms of deterministic time (pigeonhole,
    # 12 pigeons in 11 holes, infeasible but hard for clause learning): unknown, never "no".
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{p}{h}") for h in range(11)] for p in range(12)]
    for row in x:
        model.add_exactly_one(row)
    for h in range(11):
        model.add_at_most_one(row[h] for row in x)
    solver = make_solver(10.0, 0)
    solver.parameters.max_deterministic_time = 0.001
    solver.parameters.cp_model_presolve = False
    solver.parameters.symmetry_level = 0
    assert cp_status(solver.solve(model)) is Status.UNKNOWN
