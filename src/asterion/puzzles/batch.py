"""Generating many puzzles: one job per puzzle index, on a process pool, in a fixed order.

Each puzzle index draws its candidates from its own random stream (``seed`` and index), so a
puzzle does not depend on which worker made it or when: the batch for a seed is the same,
byte for byte, with 1 worker or 8. A job returns the finished files as text, so the parent
writes them in index order.

An index whose candidates all fail (:data:`asterion.puzzles.aster.MAX_ATTEMPTS`) is skipped,
and the batch goes on with the next indices until ``count`` puzzles are made: the puzzles of a
batch are the first ``count`` indices that succeed, again the same for any worker count.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["aster", "nacht"]
Backend = Literal["process", "ray"]
BACKENDS: tuple[Backend, ...] = ("process", "ray")

MAX_INDEX_FACTOR = 3
"""A batch of ``count`` tries at most ``3 * count`` indices before giving up."""


@dataclass(frozen=True)
class Job:
    kind: Kind
    seed: int
    index: int
    difficulty: str
    source: str = "edge"
    chart: str | None = None


@dataclass(frozen=True)
class Made:
    """A finished puzzle as files (name, text), or ``puzzle_id`` None when the index failed."""

    index: int
    puzzle_id: str | None
    files: tuple[tuple[str, str], ...]
    summary: dict[str, Any]
    attempts: int
    effort: int


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def make(job: Job) -> Made:
    """Run one job (in whichever process): generate, prove, grade, and render the files."""
    if job.kind == "aster":
        return _make_aster(job)
    return _make_nacht(job)


def _make_aster(job: Job) -> Made:
    from asterion.puzzles import aster
    from asterion.render.aster_plan import plan_frames
    from asterion.render.aster_svg import plan_svg

    made = aster.generate_puzzle(job.seed, job.index, aster.Difficulty(job.difficulty))
    puzzle, solution = made.puzzle, made.solution
    if puzzle is None or solution is None or puzzle.grade is None:
        return Made(job.index, None, (), {}, made.attempts, made.states)
    pid = puzzle.id
    files = (
        (f"{pid}.json", _text(aster.puzzle_to_data(puzzle))),
        (f"{pid}.solution.json", _text(aster.solution_to_data(puzzle, solution))),
        (f"{pid}.svg", aster.puzzle_svg(puzzle)),
        (
            f"{pid}.solution.svg",
            plan_svg(puzzle.state.board, plan_frames(solution), title=f"{pid}: solution"),
        ),
    )
    summary = {"id": pid, "difficulty": job.difficulty, "grade": puzzle.grade.to_json()}
    return Made(job.index, pid, files, summary, made.attempts, made.states)


def _make_nacht(job: Job) -> Made:
    from asterion.puzzles import nacht
    from asterion.puzzles.aster import Difficulty

    source: nacht.Source = "sky" if job.source == "sky" else "edge"
    made = nacht.generate_puzzle(
        job.seed, job.index, Difficulty(job.difficulty), source=source, chart=job.chart
    )
    puzzle, solution = made.puzzle, made.solution
    if puzzle is None or solution is None:
        return Made(job.index, None, (), {}, made.attempts, made.states)
    pid = puzzle.id
    files = (
        (f"{pid}.json", _text(nacht.puzzle_to_data(puzzle))),
        (f"{pid}.solution.json", _text(nacht.solution_to_data(puzzle, solution))),
        (f"{pid}.svg", nacht.puzzle_svg(puzzle)),
        (f"{pid}.solution.svg", nacht.solution_svg(puzzle, solution)),
    )
    summary = {
        "id": pid,
        "difficulty": job.difficulty,
        "grade": {"nodes": puzzle.nodes, "cells": len(puzzle.tileset.tiles)},
    }
    return Made(job.index, pid, files, summary, made.attempts, made.states)


@dataclass
class Batch:
    """The puzzles made, in index order, and the indices that failed."""

    made: list[Made] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    attempts: int = 0
    effort: int = 0


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def run_batch(
    kind: Kind,
    count: int,
    difficulty: str,
    seed: int,
    *,
    workers: int | None = None,
    backend: Backend = "process",
    source: str = "edge",
    chart: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Batch:
    """Make ``count`` puzzles: the first ``count`` indices (from 0) that succeed.

    ``workers`` processes (default: one per core; 1 runs in this process); ``backend="ray"``
    sends the jobs to a Ray cluster instead (``ray.init()`` must find or start one).
    ``progress(done, total)`` is called after each finished job. Nacht sky puzzles are cut
    from the chart file ``chart`` (default: the shipped chart).
    """
    workers = workers or default_workers()
    results: dict[int, Made] = {}
    next_index = 0
    limit = max(count * MAX_INDEX_FACTOR, count)

    def successes() -> int:
        return sum(1 for m in results.values() if m.puzzle_id is not None)

    if progress is not None:
        progress(0, count)
    with _runner(backend, workers) as submit:
        while successes() < count and next_index < limit:
            wave = range(next_index, min(limit, next_index + count - successes()))
            next_index = wave.stop
            jobs = [Job(kind, seed, i, difficulty, source, chart) for i in wave]
            for made in submit(jobs):
                results[made.index] = made
                if progress is not None:
                    progress(min(successes(), count), count)
    batch = Batch()
    for index in sorted(results):
        made = results[index]
        batch.attempts += made.attempts
        batch.effort += made.effort
        if made.puzzle_id is None:
            batch.failed.append(index)
        elif len(batch.made) < count:
            batch.made.append(made)
    return batch


Submit = Callable[[list[Job]], Iterator[Made]]


class _runner:
    """A context giving ``submit(jobs)``: an iterator of results as they finish."""

    def __init__(self, backend: Backend, workers: int) -> None:
        self.backend = backend
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Submit:
        if self.backend == "ray":
            return _ray_submit()
        if self.workers == 1:
            return lambda jobs: (make(job) for job in jobs)
        self.pool = ProcessPoolExecutor(max_workers=self.workers)
        pool = self.pool

        def submit(jobs: list[Job]) -> Iterator[Made]:
            pending: set[Future[Made]] = {pool.submit(make, job) for job in jobs}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()

        return submit

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


def _ray_submit() -> Submit:
    """Jobs as Ray tasks (the optional extra ``ray``); results as they finish."""
    from asterion.errors import InputError

    try:
        import ray  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise InputError(
            "--backend ray needs Ray: pip install 'asterion[ray]'", source="--backend"
        ) from None
    if not ray.is_initialized():
        try:
            ray.init(ignore_reinit_error=True, log_to_driver=False)
        except Exception as error:  # Ray's own kinds (a node's start timed out, ...): any
            reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise InputError(f"Ray did not start: {reason}", source="--backend") from None
    remote = ray.remote(make)

    def submit(jobs: list[Job]) -> Iterator[Made]:
        pending = [remote.remote(job) for job in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                made: Made = ray.get(ref)
                yield made

    return submit
