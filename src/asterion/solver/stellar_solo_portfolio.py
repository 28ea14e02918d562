"""Solo Stellar on two cores: the splits of the set relaxation shared between two processes.

``split`` (:mod:`.stellar_solo_split`) realizes the set relaxation's optimal splits one after
the other. Here the splits are cut in two halves by one card, the *pivot* (the telescope card
of the first optimal split with the most stars): this process covers the splits that put the
pivot in the telescope, a child process those that keep it out. Each half's loop keeps its
own sound bound; the two share the best score found (a shared integer, so that a half is
settled as soon as a plan from either side reaches its bound) and the child sends its answer
back at the end. The optimum is proven when the best plan reaches the larger of the two
bounds (every plan lies in one half). A process, not a thread: CP-SAT's Python wrapper keeps
the interpreter lock busy (measured on the earlier search-and-CP-SAT portfolio: a thread got a
quarter of its work done). Short deals are the search's, as in ``auto``
(:func:`~asterion.solver.stellar_solo.presearch`).

The optimum's value does not depend on the race, but which of several optimal plans is
returned, and the best plan when time runs out, may: ``method="portfolio"`` trades the
determinism of ``auto`` for using both cores. The child's plan is replayed and scored by the
rules engine again here.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from dataclasses import replace
from multiprocessing.context import ForkContext, SpawnContext
from typing import Any

from asterion.models.stellar import Move
from asterion.models.stellar_solo import SoloPuzzle
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status
from asterion.solver.stellar_solo import (
    Compiled,
    SoloAnswer,
    presearch,
    replay,
    settled_by_search,
)
from asterion.solver.stellar_solo_split import SplitLoop

JOIN_SECONDS = 2.0
"""How long past the deadline to wait for the child's answer before stopping it."""


def portfolio_solo(
    puzzle: SoloPuzzle, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> SoloAnswer:
    """The optimum by the search, then the two halves of the splits on two processes."""
    started = time.perf_counter()
    deadline = started + time_limit
    first = presearch(puzzle, time_limit)
    if first is not None and settled_by_search(puzzle, first):
        return replace(first, method="portfolio", wall_time=time.perf_counter() - started)
    compiled = Compiled(puzzle)
    ceiling = None if first is None else first.bound
    loop = SplitLoop(compiled, deadline, seed, incumbent=first, ceiling=ceiling)
    split = loop.first_split()
    if split is None:
        loop.run()
        return _as_portfolio(loop.answer(time.perf_counter() - started))
    pivot = max(split, key=lambda card: (compiled.card_stars[card], -card))
    context = _context()
    shared = context.Value("i", -1 if loop.best is None else loop.best.best_score)
    messages = context.Queue()
    child = context.Process(
        target=_other_half,
        args=(puzzle, deadline - time.perf_counter(), seed, loop.bound, pivot, shared, messages),
        name="stellar-solo-split-half",
        daemon=True,
    )
    unsettled_bound = loop.bound
    child.start()
    _share(loop, shared)
    loop.require(pivot, True)
    loop.run()
    theirs = _collect(messages, child, deadline)
    mine = loop.answer(time.perf_counter() - started)
    return _combine(puzzle, mine, theirs, unsettled_bound, time.perf_counter() - started)


def _share(loop: SplitLoop, shared: Any) -> None:
    """Hook ``loop`` to the shared best score."""

    def publish(answer: SoloAnswer) -> None:
        with shared.get_lock():
            shared.value = max(shared.value, answer.best_score or 0)

    loop.outside_best = lambda: int(shared.value)
    loop.on_plan = publish


def _other_half(
    puzzle: SoloPuzzle,
    time_limit: float,
    seed: int,
    ceiling: int,
    pivot: int,
    shared: Any,
    outbox: Any,
) -> None:
    """The child: the splits that keep the pivot out of the telescope; then its sound bound
    and its best plan, ``(bound, score, plan)``."""
    loop = SplitLoop(Compiled(puzzle), time.perf_counter() + time_limit, seed, ceiling=ceiling)
    _share(loop, shared)
    loop.require(pivot, False)
    loop.run()
    best = loop.best
    outbox.put(
        (loop.bound, None if best is None else best.best_score, [] if best is None else best.plan)
    )


def _collect(
    messages: Any, child: Any, deadline: float
) -> tuple[int, int | None, list[Move]] | None:
    """The child's ``(bound, score, plan)``, or ``None`` if it did not report in time; then
    the child is ended."""
    try:
        report: tuple[int, int | None, list[Move]] | None = messages.get(
            timeout=max(0.0, deadline - time.perf_counter()) + JOIN_SECONDS
        )
    except queue.Empty:
        report = None
    if child.is_alive():
        child.terminate()
    child.join()
    return report


def _combine(
    puzzle: SoloPuzzle,
    mine: SoloAnswer,
    theirs: tuple[int, int | None, list[Move]] | None,
    unsettled_bound: int,
    elapsed: float,
) -> SoloAnswer:
    """One answer from the two halves: the better plan (the child's replayed here), the larger
    bound (a half that did not report keeps the bound from before the split)."""
    their_bound, their_score, their_plan = (
        theirs if theirs is not None else (unsettled_bound, None, [])
    )
    bound = max(mine.bound if mine.bound is not None else unsettled_bound, their_bound)
    best = mine
    if their_score is not None and their_score > (mine.best_score or -1):
        final, total = replay(puzzle, their_plan)
        best = replace(mine, best_score=total, plan=their_plan, final=final)
    if best.best_score is None:
        return SoloAnswer(Status.UNKNOWN, None, [], bound, elapsed, "portfolio", mine.nodes)
    proven = best.best_score >= bound
    return replace(
        best,
        status=Status.OPTIMAL if proven else Status.FEASIBLE,
        bound=best.best_score if proven else bound,
        wall_time=elapsed,
        method="portfolio",
    )


def _as_portfolio(answer: SoloAnswer) -> SoloAnswer:
    return replace(answer, method="portfolio")


def _context() -> ForkContext | SpawnContext:
    """Fork where there is fork (the child starts at once, nothing to re-import)."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")
