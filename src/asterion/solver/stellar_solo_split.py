"""Solo Stellar proven by realizing the set relaxation: split first, then play the split.

The set relaxation at the start (:mod:`.stellar_solo_relax`: the cards to come split freely
between telescope and notebook, scored exactly) is, on the benchmark deals, very often the
optimum itself; what is hard is *finding* a plan that reaches it among all the ways the cards
can flow. An optimal split names the telescope's cards. The full CP-SAT model
(:class:`~asterion.solver.stellar_solo.SoloModel`) restricted to the plans that put exactly
those cards in the telescope is far smaller work for CP-SAT (measured on the 11-turn benchmark
deals, docs/benchmarks.md: a few seconds, against minutes without the restriction), and a plan
that scores the relaxation's value is optimal: the value is a proven bound.

When the plan falls short, the telescope set is cut off the relaxation (a no-good) and the
next split is tried: a logic-based Benders decomposition. The cut is sound for the bound only
once CP-SAT has *proven* that no plan with that telescope set scores more than its best one
(the restricted model solved to optimality, or infeasible); then every plan either has a
telescope set still in the relaxation or scores at most the best plan found, so the larger of
the two is an upper bound. After a realization that timed out the cut still steers the
search for plans, but the bound stays the last sound one. Every plan is replayed and scored by
the rules engine (:func:`~asterion.solver.stellar_solo.cp_sat_solo` does it).

>>> from asterion.models.stellar_solo import deal_solo_puzzle
>>> answer = split_solo(deal_solo_puzzle(seed=1, turns=4), time_limit=30)
>>> answer.status.value, answer.best_score == answer.bound
('optimal', True)
"""

from __future__ import annotations

import time
from dataclasses import replace

from asterion.models.stellar_solo import SoloPuzzle
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status
from asterion.solver.stellar_solo import (
    RELAX_WORK_LIMIT,
    BranchAndBound,
    Compiled,
    SoloAnswer,
    SoloModel,
    cp_sat_solo,
    search_solo,
)
from asterion.solver.stellar_solo_relax import Relaxation

EXACT = (Status.OPTIMAL, Status.INFEASIBLE)
"""Realization outcomes that settle a telescope set (its cut is sound)."""


def split_solo(
    puzzle: SoloPuzzle,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    incumbent: SoloAnswer | None = None,
    ceiling: int | None = None,
) -> SoloAnswer:
    """The optimum by realizing optimal splits of the set relaxation (module docstring), one
    after the other until a plan reaches the sound bound or ``time_limit`` runs out.

    ``incumbent``: a certified answer found before (its plan is kept if nothing better comes);
    ``ceiling``: a proven upper bound known before (the relaxation is capped by it).
    """
    started = time.perf_counter()
    deadline = started + time_limit
    compiled = Compiled(puzzle)
    search = BranchAndBound(compiled)
    root = compiled.root
    if root.k == compiled.turns:
        return replace(search_solo(puzzle, time_limit=time_limit), method="split")
    quick = search.bound(root)
    relaxation = Relaxation(search.position(root), min(quick, ceiling or quick))
    cards = search.pool_cards(root)
    best = incumbent if incumbent is not None and incumbent.best_score is not None else None
    bound, sound, rounds = quick if ceiling is None else min(quick, ceiling), True, 0
    while time.perf_counter() < deadline:
        left = deadline - time.perf_counter()
        value, telescope = relaxation.solve(work=RELAX_WORK_LIMIT, wall=left)
        rounds += 1
        if sound:
            bound = min(bound, max(value, _score(best)))
        if telescope is None or _score(best) >= bound:
            break
        chosen = frozenset(cards[i] for i in telescope)
        answer = _realize(puzzle, chosen, cards, value, deadline, seed)
        if answer.best_score is not None and answer.best_score > _score(best):
            best = answer
        sound = sound and answer.status in EXACT
        relaxation.exclude_telescope(telescope)
    return _answer(best, bound, time.perf_counter() - started, rounds)


def _score(answer: SoloAnswer | None) -> int:
    return -1 if answer is None or answer.best_score is None else answer.best_score


def _realize(
    puzzle: SoloPuzzle,
    telescope: frozenset[int],
    pool: tuple[int, ...],
    value: int,
    deadline: float,
    seed: int,
) -> SoloAnswer:
    """The best plan that puts exactly ``telescope`` of the ``pool`` in the telescope,
    capped at the relaxation's ``value`` (reaching it ends the solve)."""

    def restrict(built: SoloModel) -> None:
        built.fix_telescope(telescope, pool)

    left = max(0.01, deadline - time.perf_counter())
    return cp_sat_solo(puzzle, time_limit=left, seed=seed, ceiling=value, restrict=restrict)


def _answer(best: SoloAnswer | None, bound: int, elapsed: float, rounds: int) -> SoloAnswer:
    """The final answer: optimal when the best plan reaches the sound bound."""
    if best is None:
        return SoloAnswer(Status.UNKNOWN, None, [], bound, elapsed, "split", rounds)
    total = _score(best)
    status = Status.OPTIMAL if total >= bound else Status.FEASIBLE
    return SoloAnswer(
        status,
        total,
        best.plan,
        total if status is Status.OPTIMAL else bound,
        elapsed,
        "split",
        rounds,
        best.final,
    )
