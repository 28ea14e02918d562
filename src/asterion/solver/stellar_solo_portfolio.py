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
    other = _OtherHalf(loop.bound)
    child.start()
    _share(loop, shared)
    loop.require(pivot, True)
    loop.run()
    other.collect(messages, child, deadline, _score(loop.best))
    mine = loop.answer(time.perf_counter() - started)
    return _combine(puzzle, mine, other, time.perf_counter() - started)


def _score(answer: SoloAnswer | None) -> int:
    return -1 if answer is None or answer.best_score is None else answer.best_score


def _share(loop: SplitLoop, shared: Any) -> None:
    """Hook ``loop`` to the shared best score."""

    def publish(answer: SoloAnswer) -> None:
        with shared.get_lock():
            shared.value = max(shared.value, _score(answer))

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
    """The child: the splits that keep the pivot out of the telescope. It sends
    ``("plan", score, plan)`` for every better plan, ``("bound", bound)`` after every round,
    and ``("done", bound)`` at the end."""
    loop = SplitLoop(Compiled(puzzle), time.perf_counter() + time_limit, seed, ceiling=ceiling)
    _share(loop, shared)
    publish = loop.on_plan

    def send_plan(answer: SoloAnswer) -> None:
        publish(answer)
        outbox.put(("plan", answer.best_score, answer.plan))

    loop.on_plan = send_plan
    loop.on_bound = lambda bound: outbox.put(("bound", bound))
    loop.require(pivot, False)
    loop.run()
    outbox.put(("done", loop.bound))


class _OtherHalf:
    """What the parent knows of the child's half: its latest sound bound, its best plan."""

    def __init__(self, bound: int):
        self.bound = bound
        self.score: int | None = None
        self.plan: list[Move] = []
        self.done = False

    def read(self, message: tuple[Any, ...]) -> None:
        if message[0] == "plan":
            _, self.score, self.plan = message
        else:
            self.bound = message[1]
            self.done = message[0] == "done"

    def collect(self, messages: Any, child: Any, deadline: float, mine: int) -> None:
        """Read the child's messages until its half is done or settled (no plan there can
        beat the best found, ``mine`` or its own) or the deadline has passed; then end the
        child. Nothing is read after stopping it: a message cut in the middle would block
        the queue."""
        give_up = deadline + JOIN_SECONDS
        while not self.done and time.perf_counter() < give_up:
            if max(mine, self.score or -1) >= self.bound:
                break
            try:
                self.read(messages.get(timeout=0.05))
            except queue.Empty:
                if not child.is_alive():
                    break
        if child.is_alive():
            child.terminate()
        child.join()


def _combine(puzzle: SoloPuzzle, mine: SoloAnswer, other: _OtherHalf, elapsed: float) -> SoloAnswer:
    """One answer from the two halves: the better plan (the child's replayed here), the larger
    bound (every plan lies in one half)."""
    bound = max(mine.bound if mine.bound is not None else other.bound, other.bound)
    best = mine
    if other.score is not None and other.score > _score(mine):
        final, total = replay(puzzle, other.plan)
        best = replace(mine, best_score=total, plan=other.plan, final=final)
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
