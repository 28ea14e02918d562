"""Solo Stellar on two cores: the exact search and CP-SAT side by side, sharing plans.

CP-SAT (:class:`~asterion.solver.stellar_solo.SoloModel`, one worker) runs in a child
process and is good at *finding* plans; the branch and bound
(:class:`~asterion.solver.stellar_solo.BranchAndBound`, with the set relaxation's bound) runs
in the calling process and is good at *proving* them. Every plan CP-SAT finds goes through a
queue to the search as its incumbent, so the search prunes against it at once; whichever side
proves the optimum first ends the race (the child is stopped by its handle). A process, not a
thread: measured, CP-SAT in a thread beside a busy Python search got a quarter of its work
done (its Python wrapper keeps taking the interpreter lock). CP-SAT's model is capped by the
set relaxation's bound at the start, so a plan that reaches it ends the solve at once. The
plan returned is replayed and scored by the rules engine like any other.

The optimum's value does not depend on the race, but which of several optimal plans is
returned, and the best plan when time runs out, may: ``method="portfolio"`` trades the
determinism of the other methods for using both cores.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from multiprocessing.context import ForkContext, SpawnContext
from typing import Any

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
    replay,
)

JOIN_SECONDS = 2.0
"""How long to wait for the child to end before stopping it."""


class _PlanFeed(cp_model.CpSolverSolutionCallback):
    """Sends each CP-SAT plan to the search: ``("plan", score, steps, final)``, the score by
    the rules engine (before CP-SAT's last word, its objective may count less than the plan
    scores: a section beaten but not claimed)."""

    def __init__(self, built: SoloModel, outbox: Any):
        super().__init__()
        self.built = built
        self.outbox = outbox

    def on_solution_callback(self) -> None:
        steps, final = self.built.steps(self)
        compiled = self.built.c
        total = replay(compiled.puzzle, compiled.to_moves(steps, final))[1]
        self.outbox.put(("plan", total, steps, final))


def _cp_sat_side(
    puzzle: SoloPuzzle, ceiling: int | None, time_limit: float, seed: int, outbox: Any
) -> None:
    """The child: CP-SAT on the whole puzzle, then ``("done", proved, bound, branches)``."""
    built = SoloModel(Compiled(puzzle))
    if ceiling is not None:
        built.model.add(built.objective <= ceiling)
    solver = make_solver(time_limit, seed)
    solver.parameters.linearization_level = LINEARIZATION_LEVEL
    status = solver.solve(built.model, _PlanFeed(built, outbox))
    has_bound = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    bound = int(solver.best_objective_bound + 1e-6) if has_bound else None
    outbox.put(("done", status == cp_model.OPTIMAL, bound, solver.num_branches))


class _Race:
    """The parent's end of the queue: plans to the search, and how CP-SAT ended."""

    def __init__(self, inbox: Any):
        self.inbox = inbox
        self.done = False
        self.proved = False
        self.bound: int | None = None
        self.branches = 0

    def __call__(self, search: BranchAndBound) -> bool:
        """Offer what arrived; whether CP-SAT has proved its plan optimal."""
        while True:
            try:
                message = self.inbox.get_nowait()
            except queue.Empty:
                return self.proved
            self._read(message, search)

    def _read(self, message: tuple[Any, ...], search: BranchAndBound) -> None:
        if message[0] == "plan":
            _, value, steps, final = message
            search.offer(value, steps, final)
        else:
            _, self.proved, self.bound, self.branches = message
            self.done = True

    def finish(self, search: BranchAndBound, child: Any) -> None:
        """Collect CP-SAT's last plans and its report (it ends at its own time limit, so
        wait briefly), then end the child. Nothing is read after stopping it: a message cut
        in the middle would block the queue."""
        waited_until = time.perf_counter() + JOIN_SECONDS
        while not self.done and time.perf_counter() < waited_until:
            try:
                self._read(self.inbox.get(timeout=0.05), search)
            except queue.Empty:
                if not child.is_alive():
                    break
        if not child.is_alive():
            self(search)
        _stop(child)


def _stop(child: Any) -> None:
    if child.is_alive():
        child.terminate()
    child.join()


def _context() -> ForkContext | SpawnContext:
    """Fork where there is fork (the child starts at once, nothing to re-import)."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def portfolio_solo(
    puzzle: SoloPuzzle, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> SoloAnswer:
    """The optimum by the search and CP-SAT racing on two processes (module docstring)."""
    started = time.perf_counter()
    compiled = Compiled(puzzle)
    search = BranchAndBound(compiled, deadline=started + time_limit)
    root = compiled.root
    ceiling = search.relaxed(root, search.bound(root)) if root.k < compiled.turns else None
    context = _context()
    messages = context.Queue()
    child = context.Process(
        target=_cp_sat_side,
        args=(puzzle, ceiling, time_limit, seed, messages),
        name="stellar-solo-cp-sat",
        daemon=True,
    )
    child.start()
    race = _Race(messages)
    search.inbox = race
    bound = search.run()
    if search.stopped:
        race.finish(search, child)
    else:
        _stop(child)  # the search has proved the optimum: CP-SAT's work is moot
    if race.bound is not None:
        bound = min(bound, race.bound)
    nodes = search.nodes + race.branches
    if search.best < 0:
        elapsed = time.perf_counter() - started
        return SoloAnswer(Status.UNKNOWN, None, [], bound, elapsed, "portfolio", nodes)
    plan = compiled.to_moves(search.best_steps, search.best_final)
    final, total = certified(puzzle, plan, search.best, "portfolio")
    proven = race.proved or not search.stopped or bound <= total
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    bound = total if proven else max(bound, total)
    elapsed = time.perf_counter() - started
    return SoloAnswer(status, total, plan, bound, elapsed, "portfolio", nodes, final)
