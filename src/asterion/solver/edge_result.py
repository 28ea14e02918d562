"""What every engine that arranges edge-matching pieces answers (models/edges.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from asterion.models.edges import Arrangement
from asterion.solver.result import Status

Progress = Callable[[int, int, str], None]
"""``progress(done, total, stage)``: a long count's progress, called as the subtrees of a
split count (or the tasks of a stage before it, such as listing a sieve's bottoms) finish,
from whichever thread finished one."""


@dataclass(frozen=True)
class EdgeSearchResult:
    """What an arranging engine answers.

    ``count`` arrangements were found (classes under whole-picture turns when rotations are
    on); ``complete`` says the search space was exhausted, so ``count`` is exact (when it is
    below the count limit). ``solutions`` keeps the first few, each already re-checked.
    ``status``: OPTIMAL when complete or when the count limit was reached (the question
    "at least n?" is answered), FEASIBLE when stopped by time after finding some, INFEASIBLE
    when complete with none, UNKNOWN when stopped by time with none.
    """

    status: Status
    count: int
    complete: bool
    solutions: tuple[Arrangement, ...] = ()
    nodes: int = 0
    wall_time: float = 0.0
    engine: str = ""
    notes: tuple[str, ...] = ()


def edge_status(count: int, *, reached: bool, exhausted: bool) -> Status:
    """The status every engine reports (see :class:`EdgeSearchResult`): the count limit
    ``reached`` or the space ``exhausted`` answers the question; a clock or budget stop never
    says "no"."""
    if reached or (exhausted and count):
        return Status.OPTIMAL
    if exhausted:
        return Status.INFEASIBLE
    return Status.FEASIBLE if count else Status.UNKNOWN
