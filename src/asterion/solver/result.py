"""What every solve returns: a status, the value found, objective, bound and time.

Solvers are bounded and honest (DESIGN.md, principle 2): every solve takes a time limit and a
seed, and "unknown" is never reported as "no".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Generic, TypeVar

from asterion.errors import InputError

if TYPE_CHECKING:  # OR-Tools takes half a second to load: only the solves that use it pay.
    from ortools.sat.python import cp_model

T = TypeVar("T")

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a single solve may take unless the caller says otherwise."""


class Status(StrEnum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"

    @property
    def has_value(self) -> bool:
        return self in (Status.OPTIMAL, Status.FEASIBLE)


@dataclass(frozen=True)
class Finding:
    """One problem (or warning) a designer's check reports: a stable code and a sentence."""

    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class SolveResult(Generic[T]):
    """The outcome of one bounded solve.

    ``value`` is set iff ``status.has_value``; ``objective`` and ``bound`` are the solver's
    (equal when optimal); ``wall_time`` is in seconds.
    """

    status: Status
    value: T | None
    objective: float | None
    bound: float | None
    wall_time: float


def cp_status(code: cp_model.CpSolverStatus) -> Status:
    """Our status for a CP-SAT status code (``MODEL_INVALID`` is a bug, so it raises)."""
    from ortools.sat.python import cp_model

    mapping = {
        cp_model.OPTIMAL: Status.OPTIMAL,
        cp_model.FEASIBLE: Status.FEASIBLE,
        cp_model.INFEASIBLE: Status.INFEASIBLE,
        cp_model.UNKNOWN: Status.UNKNOWN,
    }
    if code not in mapping:
        raise RuntimeError(f"CP-SAT rejected the model (status {code})")
    return mapping[code]


def make_solver(time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0) -> cp_model.CpSolver:
    """A CP-SAT solver with a time limit and a seed, on one worker so that the same input and
    seed give the same answer (DESIGN.md, principle 5)."""
    from ortools.sat.python import cp_model

    if not -(2**31) <= seed < 2**31:  # CP-SAT keeps its seed in a 32-bit integer
        raise InputError(f"seed must be from {-(2**31)} to {2**31 - 1}, not {seed}", field="seed")
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.random_seed = int(seed)
    solver.parameters.num_workers = 1
    return solver


class OutOfTime(Exception):
    """The deadline passed while a model was being built: building counts against the time
    limit (an Aster 200-action list took 6.8 s to build, a 32 x 32 edge set a minute)."""


def check_clock(deadline: float) -> None:
    """Raise :class:`OutOfTime` once ``deadline`` (a ``time.perf_counter`` reading) passed."""
    if time.perf_counter() > deadline:
        raise OutOfTime
