"""The edge-matching search on several threads (:mod:`asterion.solver.edge_search`).

The compiled loop releases the GIL, so threads run it side by side. Two uses, both with answers
that do not depend on how the threads were scheduled:

* *Counting* (:func:`count_split`): the first few positions of the order are filled in every
  way (the *prefixes*, listed by the same search stopped at that depth, in its order); each
  prefix's subtree is a task, taken by the next free thread. The count is the sum; the kept
  arrangements are each task's first ones, in prefix order: the serial search's first ones.
  Each task has a memo of its own, so the number of placements is the same on any number
  of threads too (the puzzle grades of :mod:`asterion.puzzles.nacht` are placements).
  Whole counts of 7x7 puzzles by the frame first list the insides' bottoms into a sieve
  (:func:`fill_sieve`, one table per thread, merged: the same bits on any number).
* *Randomized restarts* (:class:`Restarts`): restart k is one fixed computation (its variant,
  its shuffle seed, its step budget), whichever thread runs it. The threads take restarts
  1, 2, ... in turn; the answer is the lowest-numbered restart that finishes, settled once
  every lower one has run to its cutoff, so it is the serial answer, found sooner.

Every ``deadline`` here is a reading of :func:`asterion.solver.compile_clock.search_clock`,
which stands still while numba compiles (a machine's first run), not of ``time.perf_counter``.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np

from asterion.models.edges import BORDER, EdgeProblem
from asterion.solver import edge_search as search
from asterion.solver.compile_clock import search_clock
from asterion.solver.edge_frame import (
    NESTED_SIDES,
    NO_SIEVE,
    SIEVE_LOG,
    FrameRun,
    FrameTables,
    Sieve,
    bottom_rows,
    frame_tables,
    new_cache,
    new_sieve,
    without_turn_rule,
)
from asterion.solver.edge_result import Progress
from asterion.solver.edge_search_kernel import EXHAUSTED, LIMIT, RUNNING

COUNTING = "counting subtrees"
LISTING = "listing bottoms"
"""The stages :data:`~asterion.solver.edge_result.Progress` is told of."""

MAX_THREADS = 8
TASKS = 32
"""Prefixes are listed to at least this many (whatever the threads: the tasks, hence the
placements made, are the same on any number), so that no thread idles long at the end
(subtrees differ in size by orders of magnitude)."""
QUICK_STEPS = 1 << 18
"""A count is first tried whole on one thread for this many steps (some 10 ms): small
searches (uniqueness proofs of puzzles) are not worth a split."""
MAX_PREFIXES = 4096
"""A depth with more placements than this is not listed (the shallower one is split).
"""


@dataclass(frozen=True)
class Sieving:
    """When a count by the frame is sieved (:class:`~.edge_frame.Sieve`), and how."""

    sides: range = range(5, 6)
    """Insides sieved: the 5 x 5 of 7 x 7 puzzles. 7x7 3/6 seed 1, a random 2,000 of its
    344,511 subtrees below depth 4, one thread: 1.61 x 10^8 placements and 8.0 s unsieved,
    6.1 x 10^7 and 3.9 s sieved. Smaller insides count in well under a second unsieved; the
    two-row bottoms of a 6 x 6 inside are too many (some 10^10 for 8x8 3/8)."""
    min_limit: int = 1 << 16
    """Counts stopped below this many arrangements are not sieved: listing the bottoms takes
    17, 35 and 100 s on 7x7 3/6 seeds 0-2 (2 threads), and counting to 1,000 unsieved 14, 25
    and 7 s."""
    after: int = 1 << 26
    """Placements of the whole count tried on one thread before the bottoms are listed (some
    3 s): a count that ends soon does not pay for the listing."""
    log: int = SIEVE_LOG
    """The sieve's size (``2**log`` bits)."""


SIEVING = Sieving()

FILL_THREADS = 2
"""Threads listing bottoms at most (each fills a sieve of its own, 512 MiB)."""


def default_threads() -> int:
    """The cores this process may use, at most :data:`MAX_THREADS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


def _on_threads(threads: int, work: Callable[[], None], alone: float = 0.0) -> tuple[float, ...]:
    """Run ``work`` on ``threads`` threads, the calling thread one of them; each one's CPU
    seconds. The others start ``alone`` seconds later, and not at all once the calling
    thread's ``work`` has returned by then (so ``work`` must return on every thread once it
    has on one: it finished, or its clock ran out)."""
    returned = threading.Event()

    def timed() -> float:
        began = time.thread_time()
        work()
        return time.thread_time() - began

    def later() -> float:
        return 0.0 if returned.wait(alone) else timed()

    if threads == 1:
        return (timed(),)
    with ThreadPoolExecutor(max_workers=threads - 1) as pool:
        futures = [pool.submit(later if alone > 0 else timed) for _ in range(threads - 1)]
        try:
            own = timed()
        finally:
            returned.set()
        return (own, *(future.result() for future in futures))


@dataclass
class Tally:
    """A finished (or stopped) search, as the driver reads it: like a run of one variant."""

    variant: search.Variant
    tables: search.Tables
    count: int = 0
    outcome: int = RUNNING
    nodes: int = 0
    kept: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int32))
    thread_cpu: tuple[float, ...] = ()  # CPU seconds of each thread
    tasks: int = 0  # subtrees searched
    method: str = "scan"  # "frame": counted by the frame (edge_frame)
    first_try: bool = False  # the clock stopped the split: its first try's finds (at_least)


# ---------------------------------------------------------------------------------------------
# Counting by subtrees


def list_prefixes(
    problem: EdgeProblem, tables: search.Tables, variant: search.Variant, want: int
) -> tuple[np.ndarray, int, int]:
    """The placements of the first ``depth`` positions (rows of ``placed`` by cell) for the
    shallowest depth giving at least ``want`` of them (at most the grid's size less one), with
    that depth and the placements made listing them (the search's own above that depth)."""
    n = problem.width * problem.height
    listed, depth, nodes = np.zeros((0, n), dtype=np.int32), 0, 0
    for leaf in range(1, n):
        run = search.Run(problem, variant, MAX_PREFIXES + 1, MAX_PREFIXES, tables, leaf=leaf)
        while run.outcome == RUNNING:
            run.advance(1 << 20)
        if run.count > MAX_PREFIXES:
            break
        listed, depth, nodes = run.kept[: run.count].copy(), leaf, run.nodes
        if run.count >= want or run.count == 0:
            break
    return listed, depth, nodes


def count_split(
    problem: EdgeProblem,
    variant: search.Variant | None,
    count_limit: int,
    keep: int,
    deadline: float,
    threads: int,
    progress: Progress | None = None,
) -> Tally:
    """Count (up to ``count_limit``) on ``threads`` threads, one prefix's subtree per task.

    The tasks are the same on any number of threads, each with a memo of its own (one table
    per thread, stamped per task), so the placements made, and not only the count, are
    the same on one thread or many: every task searches to the whole limit, and the limit is
    applied in task order (the task that reaches it is not searched again to what was left
    of the limit: that could double the time, to spare placements only).

    First the whole search is tried on one thread for :data:`QUICK_STEPS` (``variant`` None:
    the default one), and only if that does not finish is it split (``variant`` None: counted
    by the frame, :func:`count_by_frame`, where that applies, else the
    :func:`~asterion.solver.edge_search.counting_variant`'s search, chosen then).
    """
    tried = search.Variant() if variant is None else variant
    whole = search.Run(problem, tried, count_limit, keep, memo=search.new_memo())
    whole.advance(QUICK_STEPS)
    kept = whole.kept[: min(whole.count, keep)]
    first_try = Tally(tried, whole.tables, whole.count, whole.outcome, whole.nodes, kept, tasks=1)
    if whole.outcome != RUNNING:  # small enough for one thread: no split
        return first_try
    if variant is None:  # the fastest way to count: by the frame where it applies
        frame = frame_tables(problem, whole.tables)
        if frame is not None:
            return count_by_frame(
                frame,
                count_limit,
                keep,
                deadline,
                threads,
                whole.nodes,
                progress=progress,
                earlier=first_try,
            )
    variant = search.counting_variant(problem) if variant is None else variant
    cells = search.cell_order(problem.width, problem.height, variant.order, variant.start)
    tables = search.build_tables(problem, cells, variant.pinned)
    prefixes, depth, nodes = list_prefixes(problem, tables, variant, TASKS)
    nodes += whole.nodes  # the first try's, given up (the same on any number of threads)
    if len(prefixes) == 0:
        return Tally(variant, tables, outcome=EXHAUSTED, nodes=nodes)

    def task_run(task: int, limit: int, memo: np.ndarray) -> search.Run:
        prefix = (prefixes[task], depth)
        return search.Run(problem, variant, limit, keep, tables, memo, prefix, stamp=task + 1)

    board, thread_cpu = _run_tasks(
        len(prefixes), task_run, search.new_memo, count_limit, deadline, threads, progress
    )
    tally = board.tally(variant, tables, keep, nodes)
    return at_least(replace(tally, thread_cpu=thread_cpu, tasks=len(prefixes)), first_try)


def at_least(tally: Tally, earlier: Tally | None) -> Tally:
    """``tally``, or, if the clock stopped it with fewer found than an earlier try of the whole
    search (given up for a split), that try's count and arrangements with ``tally``'s work.

    Both counts are arrangements found and checked, so each is a lower bound; a count stopped
    before its split's tasks ran must not answer 0 (unknown) when the first try found some."""
    if earlier is None or tally.outcome != RUNNING or earlier.count <= tally.count:
        return tally
    return replace(
        earlier,
        outcome=RUNNING,
        first_try=True,
        nodes=tally.nodes,  # the work is all the tries'
        thread_cpu=tally.thread_cpu,
        tasks=tally.tasks,
    )


def count_by_frame(
    frame: FrameTables,
    count_limit: int,
    keep: int,
    deadline: float,
    threads: int,
    nodes: int,
    sieving: Sieving = SIEVING,
    progress: Progress | None = None,
    earlier: Tally | None = None,
) -> Tally:
    """:func:`count_split` by the frame (:mod:`.edge_frame`): the tasks are partial insides.

    Where ``sieving`` says so, the count is first tried whole on one thread for a while; if
    that does not finish, the bottoms are listed into a sieve (:func:`fill_sieve`) and the
    tasks' tops are pruned by it. The sieve changes what is searched, not what is found: the
    same count and kept arrangements, in the same order, fewer placements. Stopped by the
    clock, the count answers with the most that any try found (:func:`at_least`): ``earlier``
    (the caller's first try), the whole try here or the tasks."""
    variant = search.Variant()
    sieve = NO_SIEVE
    long_count = False  # worth the written loops' compiling (edge_frame.NESTED_SIDES)
    if frame.square and frame.side in sieving.sides and count_limit >= sieving.min_limit:
        whole = FrameRun(frame, count_limit, keep)
        while whole.outcome == RUNNING and whole.nodes < sieving.after:
            if search_clock() >= deadline:
                break
            whole.advance(min(1 << 22, sieving.after))
        kept = whole.kept[: min(whole.count, keep)]
        tried = Tally(variant, frame.problem, whole.count, whole.outcome, 0, kept, method="frame")
        if whole.outcome != RUNNING:
            return replace(tried, nodes=nodes + whole.nodes)
        earlier = at_least(tried, earlier)
        filled, fill_nodes = fill_sieve(frame, threads, deadline, sieving.log, progress)
        nodes += whole.nodes + fill_nodes
        if filled is not None:
            sieve = filled.probing(frame.side)
        long_count = frame.side in NESTED_SIDES and _nested_affordable(deadline)
    prefixes, depth, listed = list_frame_prefixes(frame, TASKS)
    nodes += listed
    if len(prefixes) == 0:
        return Tally(variant, frame.problem, outcome=EXHAUSTED, nodes=nodes, method="frame")

    def task_run(task: int, limit: int, cache: tuple[np.ndarray, np.ndarray]) -> FrameRun:
        prefix = (prefixes[task], depth)
        return FrameRun(frame, limit, keep, prefix, cache=cache, sieve=sieve, nested=long_count)

    board, thread_cpu = _run_tasks(
        len(prefixes), task_run, new_cache, count_limit, deadline, threads, progress
    )
    tally = board.tally(variant, frame.problem, keep, nodes)
    return at_least(
        replace(tally, thread_cpu=thread_cpu, tasks=len(prefixes), method="frame"), earlier
    )


def fill_sieve(
    frame: FrameTables,
    threads: int,
    deadline: float,
    log: int = SIEVE_LOG,
    progress: Progress | None = None,
) -> tuple[Sieve | None, int]:
    """The sieve of every bottom of the puzzle's insides (None if the deadline came first: a
    sieve missing some would prune tops that have some), and the placements made listing
    them. Up to :data:`FILL_THREADS` threads fill a sieve each, merged after: the same bits
    and placements on any number."""
    unturned = without_turn_rule(frame)
    leaf = bottom_rows(frame.side) * frame.side
    written = frame.side in NESTED_SIDES and _nested_affordable(deadline)
    prefixes, depth, nodes = list_frame_prefixes(unturned, TASKS, deepest=leaf)
    sieves: list[Sieve] = []
    done = [0, nodes]  # subtrees listed whole, placements
    started = [0]  # subtrees listed, whole or not (for ``progress``)
    lock = threading.Lock()
    tasks = iter(range(len(prefixes)))

    def work() -> None:
        mine = new_sieve(frame.side, log)
        cache = new_cache()  # (the stretch's answers hold for every subtree: one a thread)
        listed = [0, 0]
        while search_clock() < deadline:
            with lock:
                task = next(tasks, None)
            if task is None:
                break
            prefix = (prefixes[task], depth)
            listing = FrameRun(
                unturned,
                1 << 62,
                0,
                prefix,
                leaf,
                cache=cache,
                sieve=mine.filling(),
                nested=written,
            )
            run = search.run_alone(listing, deadline)
            listed[0] += run.outcome == EXHAUSTED
            listed[1] += run.nodes
            if progress is not None:
                with lock:
                    started[0] += 1
                    progress(started[0], len(prefixes), LISTING)
        with lock:
            sieves.append(mine)
            done[0] += listed[0]
            done[1] += listed[1]

    try:
        _on_threads(min(threads, FILL_THREADS), work)
    except MemoryError:  # no room for the sieves: counted unsieved
        return None, done[1]
    if done[0] < len(prefixes):
        return None, done[1]
    merged = sieves[0]
    for other in sieves[1:]:
        np.bitwise_or(merged.bits, other.bits, out=merged.bits)
    return merged, done[1]


def list_frame_prefixes(
    frame: FrameTables, want: int, deepest: int | None = None
) -> tuple[np.ndarray, int, int]:
    """:func:`list_prefixes` of the inner search (not deeper than ``deepest`` less one)."""
    listed, depth, nodes = np.zeros((0, frame.cells), dtype=np.int32), 0, 0
    for leaf in range(1, frame.cells if deepest is None else deepest):
        run = FrameRun(frame, MAX_PREFIXES + 1, 0, leaf=leaf)
        while run.outcome == RUNNING:
            run.advance(1 << 20)
        if run.count > MAX_PREFIXES:
            break
        listed, depth, nodes = run.prefixes.copy(), leaf, run.nodes
        if run.count >= want or run.count == 0:
            break
    return listed, depth, nodes


Memo = TypeVar("Memo")


def _run_tasks(
    tasks: int,
    task_run: Callable[[int, int, Memo], search.Slices],
    new_memo: Callable[[], Memo],
    count_limit: int,
    deadline: float,
    threads: int,
    progress: Progress | None = None,
) -> tuple[_Board, tuple[float, ...]]:
    """Search the tasks on ``threads`` threads (a memo each), stopping at the count limit in
    task order."""
    board = _Board(tasks, count_limit, progress)

    def work() -> None:
        memo = new_memo()
        first = True  # each thread gets at least one slice, as one run alone would
        while (first or search_clock() < deadline) and (task := board.take()) is not None:
            first = False
            run = search.run_alone(task_run(task, count_limit, memo), deadline, board.stopped)
            board.finish(task, run)

    return board, _on_threads(threads, work)


class _Board:
    """The tasks' results, and the running total in task order (to stop at the count limit
    at the same task whatever the threads' timing)."""

    def __init__(self, tasks: int, count_limit: int, progress: Progress | None = None):
        self.lock = threading.Lock()
        self.runs: list[search.Slices | None] = [None] * tasks
        self.progress = progress
        self.finished = 0  # tasks finished, in any order (for ``progress``)
        self.next_task = 0
        self.settled = 0  # tasks 0 .. settled-1 are finished
        self.total = 0  # their count
        self.count_limit = count_limit
        self.reached = False

    def take(self) -> int | None:
        with self.lock:
            if self.reached or self.next_task == len(self.runs):
                return None
            self.next_task += 1
            return self.next_task - 1

    def stopped(self) -> bool:
        return self.reached

    def finish(self, task: int, run: search.Slices) -> None:
        with self.lock:
            self.runs[task] = run
            self.finished += 1
            if self.progress is not None:
                self.progress(self.finished, len(self.runs), COUNTING)
            while self.settled < len(self.runs) and not self.reached:
                done = self.runs[self.settled]
                if done is None or done.outcome == RUNNING:
                    break
                self.total += done.count
                self.settled += 1
                self.reached = self.total >= self.count_limit

    def tally(self, variant: search.Variant, tables: search.Tables, keep: int, nodes: int) -> Tally:
        """The answer: the settled tasks' when the limit was reached, else every task's."""
        in_order = self.runs[: self.settled] if self.reached else self.runs
        runs = [run for run in in_order if run is not None]
        kept = [run.kept[: min(run.count, keep)] for run in runs]
        first = np.concatenate(kept)[:keep] if kept else np.zeros((0, 0), dtype=np.int32)
        count = sum(run.count for run in runs)
        nodes += sum(run.nodes for run in runs)
        # Stopped by the clock, the tasks finished out of order can hold the limit between
        # them without settling it: the limit is reached all the same, never exceeded.
        if self.reached or count >= self.count_limit:
            return Tally(variant, tables, self.count_limit, LIMIT, nodes, first)
        finished = len(runs) == len(self.runs) and all(r.outcome == EXHAUSTED for r in runs)
        return Tally(variant, tables, count, EXHAUSTED if finished else RUNNING, nodes, first)


# ---------------------------------------------------------------------------------------------
# The race


def race(runs: list[search.Run], deadline: float, threads: int = 1) -> search.Run:
    """Run the variants round-robin in equal slices of :data:`~.edge_search.RACE_SLICE` steps,
    shared out over the threads; the first to finish wins, else the one with most found.

    Rounds, not clocks, decide: each round every run takes one slice, and after it the
    lowest-numbered run that finished answers, which is the run a single thread going round
    them in order would have stopped at. So the answer is the same on any number of threads
    (only the placements counted past it may differ), and a machine's speed does not pick it.
    """
    lanes = max(1, min(threads, len(runs)))
    over = False

    def settle() -> None:  # run by one thread once every thread has ended its round
        nonlocal over
        over = search_clock() >= deadline or any(r.outcome != RUNNING for r in runs)

    settle()
    rounds = threading.Barrier(lanes, action=settle)
    lane_numbers = iter(range(lanes))

    def work() -> None:
        mine = runs[next(lane_numbers) :: lanes]
        while not over:
            for run in mine:
                run.advance(search.RACE_SLICE)
            rounds.wait()

    _on_threads(lanes, work)
    finished = [run for run in runs if run.outcome != RUNNING]
    return finished[0] if finished else max(runs, key=lambda r: r.count)


# ---------------------------------------------------------------------------------------------
# Randomized restarts


FRAME_RESTART_BASE = 1 << 21
"""Inner placements of a frame restart at Luby value 1 (7x7 3/6 seeds 0-19, one thread:
2^20, 2^21 and 2^22 gave medians of 0.19, 0.13 and 0.23 s to a first arrangement)."""
FRAME_RESTART_BIAS = 3.0
"""The frame restarts' bias towards inner pieces of rare colors (as :data:`RESTART_BIAS`;
7x7 3/6 seeds 0-19 at 2^21: 16 of 20 under 0.5 s at 3.0, 12 unbiased)."""
FRAME_PLACEMENT_COST = 1.6
"""The time of an inner placement of the frame search, in steps of the row scan (7x7 3/6:
some 18 and 28 million a second on one thread)."""
FRAME_SHARE = 0.5
"""The share of the restarts' work given to the frame's where it applies (the rest to the
row scan's): each method has puzzles that the other takes ten times longer on."""
ORDERED_SHARE = 2 / 3
"""Where the frame method applies, the share of all the work given to its searches in fixed
orders (:data:`ORDERS`), never restarted, in equal parts (the rest to the restarts). They are
slow on other puzzles than the restarts and than one another: 7x7 3/6 seeds 0-79, 2
threads, 62 under 0.5 s with restarts only (worst 4.3-5.1 s), 67 with a third of the work
in the given order (worst 1.6-1.9 s), 74 with two thirds in two orders (worst 1.5-1.8 s);
docs/benchmarks.md."""
ORDERS = ("given", "rarest first")
"""The orders of the inner pieces of the ordered searches: as the puzzle gives them, and by
:func:`~asterion.solver.edge_search.rarity` (pieces of rare colors first)."""
ORDERED_SLICE = FRAME_RESTART_BASE
"""Inner placements of an ordered search per turn it is given."""
SCAN_ORDERED_SHARE = 1 / 2
"""Where the frame's searches do not seek a first arrangement (:func:`first_frame`: pieces
that do not turn, rectangles with few rings an inside), the share of the work given to the
raced scans themselves, unshuffled and never restarted, each resumed turn after turn where
it stopped (in equal parts; the rest to the shuffled restarts). So a puzzle the restarts do
not crack gets its exhaustive searches from the start, not after half the time limit:
6x12 4/10 seed 0, found only by a raced scan (5 x 10^8 placements), took 113 s with a 150 s
limit and was unknown with 60 s; now 58 s with either (benchmarks, nineteenth round)."""
SCAN_ORDERED_SLICE = 1 << 22
"""Steps of a raced scan per turn it is given (some 0.2 s)."""

ALONE_SECONDS = 0.005
"""Seconds that :class:`Restarts` runs on the calling thread alone before the others join
in: small puzzles answer by then, where a second thread only added its set-up to the CPU
time and its share of the interpreter's lock to the wall time. The turns are planned from
budgets, so the answer is the same either way."""

SCAN, FRAME = 0, 1

FIRST_CACHE_LOG = 18
"""Entries (log 2), at most, of the stretch cache of each frame search that seeks a first
arrangement (:class:`Restarts`; :func:`first_cache_log`): 4 MiB, where
:data:`.edge_frame.CACHE_SIZE_LOG`'s 64 MiB serve the long counts. Every restart and ordered
search has a cache of its own, and a large new table's pages, met at random by its lookups,
cost more than the search itself on most 7x7 sets. With this size, seeds 80-239 of 7x7 3/6
took 0.15 s on average instead of 0.17 s (median 0.05 s instead of 0.06 s; seeds 80-139
each in a fresh process, 0.13 s instead of 0.16 s), and an ordered search of 2 x 10^8
placements (8x8 3/8) ran as fast. Long counts keep the large table: 7x7 3/6 seed 0 took 209
s with this one, 103 s with theirs (benchmarks, twenty-ninth round)."""


def first_cache_log(cells: int) -> int:
    """Entries (log 2) of a first-arrangement search's stretch cache for an inside of
    ``cells`` cells: two fewer than its cells, from 2^10 up to :data:`FIRST_CACHE_LOG`. A
    4 x 4 inside meets few stretches: 6x6 3/5 seeds 0-199 took 13 ms on average with 2^14
    entries, 14-15 ms with 2^18, whose pages cost some 5 ms when first met; a 5 x 5 inside's
    slow seeds needed 2^18 (benchmarks, twenty-ninth round)."""
    return max(10, min(FIRST_CACHE_LOG, cells - 2))


def first_cache(frame: FrameTables) -> tuple[np.ndarray, np.ndarray]:
    """A new stretch cache for a first-arrangement search of ``frame``'s inside."""
    return new_cache(first_cache_log(frame.cells))


NESTED_TIME_LEFT = 120.0
"""Seconds a count must have left to run the written loops (:data:`.edge_frame.NESTED_SIDES`):
compiling them for a kind of puzzle not met before took 23-27 s on 7x7 sets, which a count
with a short limit spent past its deadline (benchmarks, twenty-second round)."""


def _nested_affordable(deadline: float) -> bool:
    return deadline - search_clock() >= NESTED_TIME_LEFT


def first_frame(problem: EdgeProblem, tables: search.Tables) -> FrameTables | None:
    """The frame's tables where its searches seek a first arrangement (:class:`Restarts`):
    where the frame method applies, but not on a rectangle with few rings an inside
    (:data:`.edge_frame.FEW_RINGS`). Rectangles of 4 frame colors with fewer took the
    frame's searches 1.3 to 4.6 times as long as the scans (6x10 4/6 seeds 1, 3, 4, 5x10
    4/6 seeds 0-2, 10x6 4/7 seed 0) or found none where the scans did (6x12 4/8 and 4/10
    seed 0). Squares keep them: 7x7 4/6 seeds 0-9 (10^-7 to 10^-5 rings) took 7.5 s in all
    with them, 14 s without (benchmarks, twentieth round)."""
    frame = frame_tables(problem, tables)
    return None if frame is not None and frame.few_rings else frame


"""The kinds of restart; kind ``2 + i`` is the ordered search in ``ORDERS[i]`` (without the
frame, the i-th raced scan)."""


def trial(kind: int) -> str:
    """How a turn of this kind tries the pieces (for the answer's notes)."""
    if kind >= 2:
        return f"inner pieces in a fixed order ({ORDERS[kind - 2]})"
    return ("candidates shuffled", "inner pieces shuffled")[kind]


class Restarts:
    """Randomized restarts for a first arrangement (Gomes, Selman and Kautz): restart k runs
    the raced variants in turn with shuffled candidate lists for ``luby(k) * RESTART_BASE``
    steps. Times to a first arrangement are heavy-tailed; short shuffled runs cut the tail.
    The shuffles favour pieces of rare colors (:func:`~asterion.solver.edge_search.rarity`).

    Where the frame method (:mod:`.edge_frame`) applies, some restarts are its inner search
    instead (its inner pieces in a shuffled order, stopped at the first inside that a ring
    fits), and some turns go to that search in fixed orders (:data:`ORDERS`), each resumed
    where it stopped, never restarted (so also a proof when it ends without one). Each kind
    gets its share of the work (:data:`FRAME_SHARE`, :data:`ORDERED_SHARE`): their slow
    puzzles are not the same ones (benchmarks). Elsewhere the searches in fixed orders are
    the raced scans themselves, unshuffled (:data:`SCAN_ORDERED_SHARE`).

    The turns are numbered and planned from budgets, not clocks, and an ordered search's
    turns run one after another in their order, so turn k is one fixed computation: the
    answer is the lowest-numbered turn that finishes, the same on any number of threads.
    """

    def __init__(self, threads: int = 1) -> None:
        self.threads = threads
        self.done = 0  # turns up to the answer (or begun, when none finished)
        self.nodes = 0  # placements made by those
        self.trial = trial(SCAN)  # how the answering turn tried the pieces
        self._lock = threading.Lock()
        self._next = 0
        self._finished: dict[int, search.Slices] = {}
        self._nodes: dict[int, int] = {}
        self.thread_cpu: tuple[float, ...] = ()  # CPU seconds of each thread
        self._rarity = np.zeros(0)  # the pieces' rarity, set by run()
        self._frame: FrameTables | None = None  # set by run() where the frame method applies
        self._plan: list[tuple[int, int]] = []  # turn k is (its kind, its number j in kind)
        kinds = 2 + len(ORDERS)  # (run() sizes these for the puzzle's searches in fixed orders)
        self._work = [0.0] * kinds  # the planned budgets so far by kind, in scan steps
        self._planned = [0] * kinds  # the turns planned so far by kind
        self._ordered: list[search.Slices | None] = []  # the searches in fixed orders, made
        # by their first turns (a frame's tables take a millisecond or two: on small puzzles,
        # as long as the search) from these, set by run()
        self._make_ordered: list[Callable[[], search.Slices]] = []
        self._making = threading.Lock()
        self._ordered_turns = threading.Condition(self._lock)
        self._ordered_done = [0] * len(ORDERS)  # each one's turns 1 .. this one have run

    def run(
        self,
        problem: EdgeProblem,
        runs: list[search.Run],
        keep: int,
        until: float,
        deadline: float | None = None,
    ) -> search.Run | Tally | None:
        """The run that finished (found one, or searched its whole space: each run is
        complete, only its order of trial differs), or None when the clock passes ``until``
        (the caller then races ``runs`` without cutoff). Where the searches in fixed orders
        run (:attr:`exhaustive`: always, unless their shares are 0), the turns go on to
        ``deadline`` instead: those searches are exhaustive, so no race is needed after them.
        A frame restart's answer is a :class:`Tally` of method "frame"."""
        self._rarity = search.rarity(problem)
        self._frame = first_frame(problem, runs[0].tables)
        frame = self._frame
        if frame is not None and ORDERED_SHARE > 0:
            self._make_ordered = [
                functools.partial(self._ordered_frame, problem, frame, order, keep)
                for order in ORDERS
            ]
        elif frame is None and SCAN_ORDERED_SHARE > 0:
            self._make_ordered = [
                functools.partial(search.Run, problem, r.variant, 1, keep, r.tables) for r in runs
            ]
        self._ordered = [None] * len(self._make_ordered)
        kinds = 2 + len(self._ordered)
        self._work, self._planned = [0.0] * kinds, [0] * kinds
        self._ordered_done = [0] * len(self._ordered)
        if self.exhaustive and deadline is not None:
            until = deadline

        def work() -> None:
            while search_clock() < until and (k := self._take()) is not None:
                run, made = self._turn(problem, runs, keep, k, until)
                with self._lock:
                    self._nodes[k] = made
                    if run.outcome != RUNNING:
                        self._finished[k] = run

        self.thread_cpu = _on_threads(self.threads, work, ALONE_SECONDS)
        winner = min(self._finished, default=None)
        self.done = self._next if winner is None else winner
        self.nodes = sum(nodes for k, nodes in self._nodes.items() if k <= self.done)
        if winner is None:
            return None
        self.trial = self._trial(self._plan[winner - 1][0])
        found = self._finished[winner]
        if isinstance(found, FrameRun):  # its arrangements are numbered by the scan's tables
            answer = (found.count, found.outcome, found.nodes, found.kept)
            return Tally(search.Variant(), found.frame.problem, *answer, method="frame")
        assert isinstance(found, search.Run)
        return found

    @property
    def exhaustive(self) -> bool:
        """Do the turns include an exhaustive search (one in a fixed order)?"""
        return bool(self._ordered)

    def _take(self) -> int | None:
        """The next turn's number, or None once a lower one has finished."""
        with self._lock:
            if self._finished:  # every turn below it was handed out already
                return None
            self._next += 1
            self._plan_turn()
            return self._next

    def _plan_turn(self) -> None:
        """Decide what the next turn is: the kind whose planned work is the furthest below
        its share (by budgets, not clocks: the same plan on any machine)."""
        ordered = len(self._work) - 2  # (none where their share is 0)
        share = ORDERED_SHARE if self._frame is not None else SCAN_ORDERED_SHARE
        restarts = 1 - share if ordered else 1.0
        if self._frame is not None:  # scan and frame restarts, the frame's fixed orders
            shares = [restarts * (1 - FRAME_SHARE), restarts * FRAME_SHARE]
        else:  # scan restarts, the raced scans
            shares = [restarts, 0.0]
        shares += [share / ordered] * ordered if ordered else []
        behind = [
            work / share if share > 0 else np.inf
            for work, share in zip(self._work, shares, strict=True)
        ]
        kind = behind.index(min(behind))  # ties: the lower kind
        self._planned[kind] += 1
        j = self._planned[kind]
        self._plan.append((kind, j))
        if kind == SCAN:
            self._work[kind] += search.luby(j) * search.RESTART_BASE
        elif kind == FRAME:
            self._work[kind] += search.luby(j) * FRAME_RESTART_BASE * FRAME_PLACEMENT_COST
        else:
            self._work[kind] += self._ordered_slice() * self._ordered_cost()

    def _beaten(self, k: int) -> bool:
        with self._lock:
            return bool(self._finished) and min(self._finished) < k

    def _turn(
        self, problem: EdgeProblem, runs: list[search.Run], keep: int, k: int, until: float
    ) -> tuple[search.Slices, int]:
        """Run turn ``k``: the run, and the placements the turn made."""
        with self._lock:
            kind, j = self._plan[k - 1]
        if kind >= 2:
            return self._ordered_turn(kind - 2, k, j, until)
        run: search.Slices
        if kind == FRAME and self._frame is not None:
            run, left = self._frame_restart(problem, self._frame, keep, j)
        else:
            run, left = self._scan_restart(problem, runs, keep, j)
        self._advance(run, left, k, until)
        return run, run.nodes

    def _advance(self, run: search.Slices, left: int, k: int, until: float) -> None:
        while left > 0 and run.outcome == RUNNING and search_clock() < until:
            if self._beaten(k):  # a lower turn answered: this one cannot matter
                break
            run.advance(min(left, search.RACE_SLICE))
            left -= search.RACE_SLICE

    def _ordered_turn(self, i: int, k: int, j: int, until: float) -> tuple[search.Slices, int]:
        """Ordered search ``i``'s ``j``-th turn, once its turn ``j - 1`` has run (on any
        thread): its work is then the same whatever the threads' timing."""
        with self._ordered_turns:
            while self._ordered_done[i] < j - 1 and search_clock() < until:
                if self._finished and min(self._finished) < k:
                    break
                self._ordered_turns.wait(0.01)
        run = self._ordered_run(i)
        before = run.nodes
        try:
            if self._ordered_done[i] == j - 1:  # not given up waiting
                self._advance(run, self._ordered_slice(), k, until)
        finally:
            with self._ordered_turns:
                self._ordered_done[i] = max(self._ordered_done[i], j)
                self._ordered_turns.notify_all()
        return run, run.nodes - before

    def _ordered_run(self, i: int) -> search.Slices:
        """Ordered search ``i``, made by the first turn to ask for it."""
        with self._making:
            run = self._ordered[i]
            if run is None:
                run = self._ordered[i] = self._make_ordered[i]()
            return run

    def _ordered_slice(self) -> int:
        """The placements of an ordered search's turn: the frame's, else a raced scan's."""
        return ORDERED_SLICE if self._frame is not None else SCAN_ORDERED_SLICE

    def _ordered_cost(self) -> float:
        """An ordered search's placement, in steps of the row scan."""
        return FRAME_PLACEMENT_COST if self._frame is not None else 1.0

    def _trial(self, kind: int) -> str:
        """How a turn of this kind tries the pieces (for the answer's notes)."""
        if kind >= 2 and self._frame is None:
            scan = self._ordered[kind - 2]  # (it answered, so it was made)
            assert isinstance(scan, search.Run)
            return f"candidates in order, {scan.variant}"
        return trial(kind)

    def _ordered_frame(
        self, problem: EdgeProblem, frame: FrameTables, order: str, keep: int
    ) -> FrameRun:
        tables = self._ordered_tables(problem, frame, order)
        return FrameRun(tables, 1, keep, cache=first_cache(frame))

    def _ordered_tables(self, problem: EdgeProblem, frame: FrameTables, order: str) -> FrameTables:
        """The frame's tables with the inner pieces in ``order`` (one of :data:`ORDERS`)."""
        if order == "given":
            return frame
        return self._sorted_inside(problem, frame, -self._rarity[self._inner(problem)])

    @staticmethod
    def _inner(problem: EdgeProblem) -> list[int]:
        return [i for i, piece in enumerate(problem.pieces) if BORDER not in piece]

    @staticmethod
    def _sorted_inside(problem: EdgeProblem, frame: FrameTables, keys: np.ndarray) -> FrameTables:
        """The frame's tables with the inner pieces by their ``keys``, lowest first (ties:
        as given)."""
        order = [int(i) for i in np.argsort(keys, kind="stable")]
        tables = frame_tables(problem, frame.problem, order)
        assert tables is not None  # the same puzzle as the frame's
        return tables

    def _scan_restart(
        self, problem: EdgeProblem, runs: list[search.Run], keep: int, j: int
    ) -> tuple[search.Run, int]:
        base = runs[(j - 1) % len(runs)]
        tables = search.shuffled(base.tables, search.RESTART_SEED + j, self._rarity)
        run = search.Run(problem, base.variant, 1, keep, tables)
        return run, search.luby(j) * search.RESTART_BASE

    def _frame_restart(
        self, problem: EdgeProblem, frame: FrameTables, keep: int, j: int
    ) -> tuple[FrameRun, int]:
        inner = self._inner(problem)
        rng = np.random.default_rng(search.RESTART_SEED + j)
        draw = rng.random(len(inner)) - FRAME_RESTART_BIAS * self._rarity[inner]
        tables = self._sorted_inside(problem, frame, draw)
        run = FrameRun(tables, 1, keep, cache=first_cache(frame))
        return run, search.luby(j) * FRAME_RESTART_BASE
