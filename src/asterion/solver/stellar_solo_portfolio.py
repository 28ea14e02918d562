"""Solo Stellar on two cores: two loops of ``split`` on the same relaxation, sharing news.

``split`` (:mod:`.stellar_solo_split`) takes the set relaxation's optimal splits one after the
other, settles each telescope set (a proven cap) and cuts it off. Here a child process runs a
second loop beside this one. Each loop tells the other when it takes a set (cut off there too,
held at its relaxation value while it is worked on) and when it has settled it (its cap), so
the two take different sets, and both relaxations lose every set either has taken: each
loop's bound covers every plan. The child starts from the second split (the first is this
process's); the best score found is shared (a shared integer), and every plan the child finds
is sent here, replayed and scored by the rules engine again. A process, not a thread: CP-SAT's
Python wrapper keeps the interpreter lock busy (measured on an earlier portfolio: a thread got
a quarter of its work done). Short deals are the search's, as in ``auto``
(:func:`~asterion.solver.stellar_solo.presearch`).

The optimum's value does not depend on the race, but which of several optimal plans is
returned, and the best plan when time runs out, may: ``method="portfolio"`` trades the
determinism of ``auto`` for using both cores.
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
from asterion.solver.stellar_solo_split import SetNews, SplitLoop

JOIN_SECONDS = 2.0
"""How long past the end to wait for the child's best plan before stopping it."""
CLAIMS = 4096
"""Sets the two loops can claim (far more than either takes in a solve)."""


def portfolio_solo(
    puzzle: SoloPuzzle, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> SoloAnswer:
    """The optimum by the search, then two loops of splits on two processes."""
    started = time.perf_counter()
    deadline = started + time_limit
    first = presearch(puzzle, time_limit)
    if first is not None and settled_by_search(puzzle, first):
        return replace(first, method="portfolio", wall_time=time.perf_counter() - started)
    compiled = Compiled(puzzle)
    ceiling = None if first is None else first.bound
    loop = SplitLoop(compiled, deadline, seed, incumbent=first, ceiling=ceiling)
    taken = loop.first_split()
    if taken is None:
        loop.run()
        return _as_portfolio(loop.answer(time.perf_counter() - started))
    context = _context()
    shared = context.Value("i", _score(loop.best))
    to_child, from_child = context.Queue(), context.Queue()
    claims = _Claims(context)
    child = context.Process(
        target=_second_loop,
        args=(puzzle, deadline, seed, loop.bound, taken, shared, claims, to_child, from_child),
        name="stellar-solo-second-loop",
        daemon=True,
    )
    child.start()
    _share(loop, shared)
    other = _Child(from_child)
    loop.inbox = other.news
    loop.on_set = to_child.put
    loop.claim = claims.claim
    loop.run()
    missing = int(shared.value) if int(shared.value) > _score(loop.best) else -1
    other.wait_for_plan(missing, child, time.perf_counter() + JOIN_SECONDS)
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
    loop.interrupted = lambda cap: int(shared.value) >= cap
    loop.on_plan = publish


def _second_loop(
    puzzle: SoloPuzzle,
    deadline: float,
    seed: int,
    ceiling: int,
    taken: SetNews,
    shared: Any,
    claims: _Claims,
    inbox: Any,
    outbox: Any,
) -> None:
    """The child: a loop that has heard of the parent's first set; it sends its sets' news
    and ``("plan", score, plan)`` for every better plan (before sharing the score, so that
    the parent, once it sees the score, finds the plan in the queue)."""
    loop = SplitLoop(Compiled(puzzle), deadline, seed, ceiling=ceiling)
    loop.hear(taken)
    _share(loop, shared)
    publish = loop.on_plan

    def send_plan(answer: SoloAnswer) -> None:
        outbox.put(("plan", answer.best_score, answer.plan))
        publish(answer)

    loop.on_plan = send_plan
    loop.on_set = outbox.put
    loop.inbox = lambda: _drain(inbox)
    loop.claim = claims.claim
    loop.run()


class _Claims:
    """The sets either loop has taken, in shared memory under a lock: a loop takes a new
    set only if the other has not (each set's tuple hash; ints hash alike in every
    process)."""

    def __init__(self, context: ForkContext | SpawnContext):
        self.lock = context.Lock()
        self.keys = context.Array("q", CLAIMS, lock=False)
        self.count = context.Value("i", 0, lock=False)

    def claim(self, telescope: tuple[int, ...]) -> bool:
        key = hash(telescope)
        with self.lock:
            count = self.count.value
            if key in self.keys[:count]:
                return False
            if count < CLAIMS:
                self.keys[count] = key
                self.count.value = count + 1
            return True


def _drain(messages: Any) -> list[Any]:
    """Every message waiting in ``messages`` (none blocks)."""
    found = []
    while True:
        try:
            found.append(messages.get_nowait())
        except queue.Empty:
            return found


class _Child:
    """What the parent hears from the child: news of sets (handed to the parent's loop) and
    the child's best plan."""

    def __init__(self, messages: Any):
        self.messages = messages
        self.score: int | None = None
        self.plan: list[Move] = []

    def news(self) -> list[SetNews]:
        found = []
        for message in _drain(self.messages):
            if message[0] == "plan":
                _, self.score, self.plan = message
            else:
                found.append(message)
        return found

    def wait_for_plan(self, best: int, child: Any, give_up: float) -> None:
        """Read until the child's plan scoring ``best`` is here (the best score shared was
        the child's: it sends the plan before sharing the score), then end the child.
        Nothing is read after stopping it: a message cut in the middle would block the
        queue."""
        while (self.score or -1) < best and time.perf_counter() < give_up:
            self.news()
            if (self.score or -1) < best:
                time.sleep(0.01)
        if child.is_alive():
            child.terminate()
        child.join()


def _combine(puzzle: SoloPuzzle, mine: SoloAnswer, other: _Child, elapsed: float) -> SoloAnswer:
    """One answer: the better plan (the child's replayed here); the parent's bound, which
    covers every plan (its relaxation lost every set either loop took)."""
    bound = mine.bound
    best = mine
    if other.score is not None and other.score > _score(mine):
        final, total = replay(puzzle, other.plan)
        best = replace(mine, best_score=total, plan=other.plan, final=final)
    if best.best_score is None:
        return SoloAnswer(Status.UNKNOWN, None, [], bound, elapsed, "portfolio", mine.nodes)
    proven = bound is not None and best.best_score >= bound
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
