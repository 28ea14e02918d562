"""Pick the engine per instance: plain search for very short lists, CP-SAT otherwise.

Measured in ``benchmarks/bench_aster_reach.py``: breadth-first search answers 1–2 slots in a
few milliseconds, before CP-SAT has built its model; from 3 slots on CP-SAT is faster, and
the gap grows with every slot. The answer is certified by the rules engine either way.
"""

from __future__ import annotations

import time
from typing import Literal

from asterion.solver.aster_plan import cp_reach
from asterion.solver.aster_reach import ReachAnswer, ReachQuestion, search_reach
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status

Engine = Literal["auto", "cp-sat", "search"]

SEARCH_MAX_SLOTS = 2
"""Lists up to this many slots go to plain search first."""
SEARCH_BUDGET = 5_000
"""States plain search may visit in ``auto`` mode before CP-SAT takes over."""


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
    if len(question.slots) <= SEARCH_MAX_SLOTS:
        answer = search_reach(question, max_states=SEARCH_BUDGET, time_limit=time_limit)
        if answer.status is not Status.UNKNOWN:
            return answer
    remaining = max(0.01, time_limit - (time.perf_counter() - started))
    return cp_reach(question, time_limit=remaining, seed=seed)
