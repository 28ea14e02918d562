"""Puzzle generation throughput: hard and expert puzzles per minute, with 1 and 2 workers.

    python benchmarks/bench_puzzles.py [--count N] [--seed S] [--kinds aster,nacht]

For each kind (Aster solo puzzles; Nacht tile puzzles of the edge family) and difficulty
(hard, expert), the same seeded batch of ``--count`` puzzles is made with 1 worker and with
2 worker processes (:func:`asterion.puzzles.batch.run_batch`), timed by the wall clock. Every
puzzle kept is proven unique by the exact counter (Aster) or the exact search (Nacht); the
two batches must be byte-identical (determinism across worker counts), else the run exits 1.

Both timed batches start from the same state: an untimed warm-up batch (one puzzle of another
seed) runs first, then each timed batch runs in its own process forked from that warmed one,
so neither inherits what the other computed; the order of the two alternates between
difficulties. A batch that takes under 1 s is marked: too short for its rate to mean much.

There is no peer generator to run side by side; the figures are rates, with the candidates
tried per puzzle kept (what the uniqueness filter costs). The issue's goal: at least 30 hard
Aster puzzles per minute on 2 cores. Ratios and rates, not asserts (DESIGN.md, principle 7).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import platform
import sys
import time
from multiprocessing.connection import Connection
from typing import get_args

from asterion.puzzles.batch import Kind, run_batch

KINDS: tuple[str, ...] = get_args(Kind)
SHORT = 1.0
"""Batches faster than this (wall seconds) are marked as too short to time."""


def measure(kind: Kind, difficulty: str, count: int, seed: int, workers: int) -> dict[str, float]:
    cpu = time.process_time()
    started = time.perf_counter()
    batch = run_batch(kind, count, difficulty, seed, workers=workers)
    wall = time.perf_counter() - started
    files = hashlib.sha256(repr([m.files for m in batch.made]).encode()).hexdigest()
    return {
        "made": len(batch.made),
        "wall": wall,
        "parent_cpu": time.process_time() - cpu,
        "per_minute": 60 * len(batch.made) / wall,
        "candidates_per_puzzle": batch.attempts / max(1, len(batch.made)),
        "files": int(files[:15], 16),
    }


def _measure_child(
    connection: Connection, kind: Kind, difficulty: str, count: int, seed: int, workers: int
) -> None:
    connection.send(measure(kind, difficulty, count, seed, workers))
    connection.close()


def measure_apart(
    kind: Kind, difficulty: str, count: int, seed: int, workers: int
) -> dict[str, float]:
    """:func:`measure` in a process forked from this one (where fork exists), so that what
    the batch leaves in memory does not speed up the next one."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return measure(kind, difficulty, count, seed, workers)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_measure_child, args=(sender, kind, difficulty, count, seed, workers)
    )
    process.start()
    sender.close()
    try:
        result: dict[str, float] = receiver.recv()
    except EOFError:
        process.join()
        sys.exit(f"{kind} {difficulty}, {workers} workers: the batch failed")
    process.join()
    return result


def parse_kinds(text: str, parser: argparse.ArgumentParser) -> list[Kind]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        given = f"unknown {', '.join(map(repr, unknown))}" if unknown else "empty"
        parser.error(f"--kinds: {given}; allowed: {', '.join(KINDS)} (comma-separated)")
    return kinds  # type: ignore[return-value]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=8, help="puzzles per batch")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--kinds", default="aster,nacht", help="comma-separated: aster, nacht")
    args = parser.parse_args()
    if args.count < 1:
        parser.error(f"--count must be at least 1 (got {args.count})")
    kinds = parse_kinds(args.kinds, parser)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print("| kind | difficulty | workers | puzzles | wall s | per minute | candidates/puzzle |")
    print("|---|---|---|---|---|---|---|")
    failures = 0
    short = False
    for kind in kinds:
        for turn, difficulty in enumerate(("hard", "expert")):
            run_batch(kind, 1, difficulty, args.seed + 1, workers=1)  # warm-up, untimed
            order = (1, 2) if turn % 2 == 0 else (2, 1)
            rates = {w: measure_apart(kind, difficulty, args.count, args.seed, w) for w in order}
            for workers in (1, 2):
                r = rates[workers]
                mark = " *" if r["wall"] < SHORT else ""
                short = short or bool(mark)
                print(
                    f"| {kind} | {difficulty} | {workers} | {r['made']:.0f} | {r['wall']:.1f} | "
                    f"{r['per_minute']:.1f}{mark} | {r['candidates_per_puzzle']:.0f} |",
                    flush=True,
                )
            if rates[1]["files"] != rates[2]["files"]:
                print(f"MISMATCH: {kind} {difficulty} differs between 1 and 2 workers")
                failures += 1
    if short:
        print(
            f"* the batch took under {SHORT:.0f} s: too short for the rate to mean much "
            "(raise --count)"
        )
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
