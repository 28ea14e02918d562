"""Pick the engine per instance: a short plain search first when the plan may be short,
CP-SAT otherwise or if the search gives up.

Measured in ``benchmarks/bench_aster_reach.py``: breadth-first search proves plans of one to
three actions in 1–160 ms, whatever the number of slots, while CP-SAT needs 0.07–0.64 s
to build, presolve and solve its model; from about four actions on the search explodes and
CP-SAT wins. Whether a plan can be short is read off the position: every action adds at most
one star to a placement (:func:`fewest_actions`), so a question whose every target placement
lacks three stars or more needs at least three actions and goes to CP-SAT at once. Otherwise
``auto`` runs the search with a small budget of states (:data:`SEARCH_BUDGET`) and hands the
question to CP-SAT with the time left if the search has not settled it.

Both engines are exact: the search answers only when it has proved its answer (its first goal
is a shortest plan, or it has exhausted every board the slots reach); when the budget runs
out it says ``unknown``, never "no", and CP-SAT takes over. The budget counts states, not
seconds, so the engine that answers, and hence the plan, does not depend on the machine's
speed or load (DESIGN.md, principle 5). The answer is certified by the rules engine either
way.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Literal

from asterion.models.aster_patterns import Placement
from asterion.solver.aster_plan import cp_reach
from asterion.solver.aster_reach import ReachAnswer, ReachQuestion, search_reach
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status

Engine = Literal["auto", "cp-sat", "search"]

SEARCH_MAX_BOUND = 2
"""Questions whose lower bound (:func:`fewest_actions`) is at most this go to the search first."""
SEARCH_BUDGET = 600
"""States plain search may visit in ``auto`` mode before CP-SAT takes over: about 0.1 s on
the benchmark machine, enough for every suite position with an optimum of one or two actions
(at most 382 states) and some of three."""


def fewest_actions(question: ReachQuestion) -> int | None:
    """A lower bound on the number of actions of any plan: the fewest stars a target placement
    lacks (stars of the player's color with own stars only); ``None`` without targets.

    Exact as a bound: ``generate`` and ``generate_targeted`` put one star on one point, a move
    or a nudge empties one point and fills one, and ``supernova`` only empties points, so no
    action adds more than one star to a placement.
    """
    state = question.state

    def lacking(placement: Placement) -> int:
        if question.own_stars_only:
            return sum(1 for v in placement if state.star_at(v) is not state.player)
        return sum(1 for v in placement if state.star_at(v) is None)

    return min((lacking(p) for p in question.targets), default=None)


def reach(
    question: ReachQuestion,
    *,
    engine: Engine = "auto",
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> ReachAnswer:
    """Answer a reach question with ``engine`` (``auto`` chooses); bounded by ``time_limit``."""
    if engine == "cp-sat":
        return cp_reach(question, time_limit=time_limit, seed=seed)
    if engine == "search":
        return search_reach(question, time_limit=time_limit)
    started = time.perf_counter()
    bound = fewest_actions(question)
    if bound is not None and bound <= SEARCH_MAX_BOUND:
        answer = search_reach(question, max_states=SEARCH_BUDGET, time_limit=time_limit)
        if answer.status is not Status.UNKNOWN:
            return answer
    remaining = max(0.01, time_limit - (time.perf_counter() - started))
    answer = cp_reach(question, time_limit=remaining, seed=seed)
    return replace(answer, wall_time=time.perf_counter() - started)
