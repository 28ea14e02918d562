"""Solo Stellar on two cores: the exact search and CP-SAT side by side, sharing plans.

CP-SAT (:class:`~asterion.solver.stellar_solo.SoloModel`, one worker) runs in a thread (it
releases the interpreter lock while it searches) and is good at *finding* plans; the branch
and bound (:class:`~asterion.solver.stellar_solo.BranchAndBound`, with the set relaxation's
bound) runs in the calling thread and is good at *proving* them. Every plan CP-SAT finds is
handed to the search as its incumbent, so the search prunes against it at once; whichever
side proves the optimum first stops the other. The plan returned is replayed and scored by
the rules engine like any other.

The optimum's value does not depend on the race, but which of several optimal plans is
returned, and the best plan when time runs out, may: ``method="portfolio"`` trades the
determinism of the other methods for using both cores.
"""

from __future__ import annotations

import threading
import time

from ortools.sat.python import cp_model

from asterion.models.stellar_solo import SoloPuzzle
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status, make_solver
from asterion.solver.stellar_solo import (
    LINEARIZATION_LEVEL,
    BranchAndBound,
    Compiled,
    SoloAnswer,
    SoloModel,
    certified,
)


class _PlanFeed(cp_model.CpSolverSolutionCallback):
    """Hands each CP-SAT plan to the search as an incumbent."""

    def __init__(self, built: SoloModel, search: BranchAndBound):
        super().__init__()
        self.built = built
        self.search = search

    def on_solution_callback(self) -> None:
        steps, final = self.built.steps(self)
        self.search.offer(round(self.objective_value), steps, final)


def portfolio_solo(
    puzzle: SoloPuzzle, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> SoloAnswer:
    """The optimum by the search and CP-SAT racing on two threads (module docstring)."""
    started = time.perf_counter()
    compiled = Compiled(puzzle)
    search = BranchAndBound(compiled, deadline=started + time_limit)
    built = SoloModel(compiled)
    # The relaxation's bound at the start, given to CP-SAT too: a plan that reaches it is
    # optimal, so CP-SAT stops there instead of searching on.
    root = compiled.root
    if root.k < compiled.turns:
        ceiling = search.relaxed(root, search.bound(root))
        built.model.add(built.objective <= ceiling)
    solver = make_solver(time_limit, seed)
    solver.parameters.linearization_level = LINEARIZATION_LEVEL
    feed = _PlanFeed(built, search)
    outcome: list[cp_model.CpSolverStatus] = []

    def run_cp_sat() -> None:
        outcome.append(solver.solve(built.model, feed))
        if outcome[0] == cp_model.OPTIMAL:
            search.stopped = True  # CP-SAT proved the plan it handed over

    thread = threading.Thread(target=run_cp_sat, name="stellar-solo-cp-sat", daemon=True)
    thread.start()
    bound = search.run()
    if not search.stopped:
        solver.stop_search()
    thread.join()
    cp_sat_proved = bool(outcome) and outcome[0] == cp_model.OPTIMAL
    if outcome and outcome[0] in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = min(bound, int(solver.best_objective_bound + 1e-6))
    nodes = search.nodes + solver.num_branches
    if search.best < 0:
        elapsed = time.perf_counter() - started
        return SoloAnswer(Status.UNKNOWN, None, [], bound, elapsed, "portfolio", nodes)
    plan = compiled.to_moves(search.best_steps, search.best_final)
    final, total = certified(puzzle, plan, search.best, "portfolio")
    proven = cp_sat_proved or not search.stopped or bound <= total
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    bound = total if proven else max(bound, total)
    elapsed = time.perf_counter() - started
    return SoloAnswer(status, total, plan, bound, elapsed, "portfolio", nodes, final)
