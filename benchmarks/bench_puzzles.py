"""Puzzle generation throughput: hard and expert puzzles per minute, with 1 and 2 workers.

    python benchmarks/bench_puzzles.py [--count N] [--seed S] [--kinds aster,nacht]

For each kind (Aster solo puzzles; Nacht tile puzzles of the edge family) and difficulty
(hard, expert), the same seeded batch of ``--count`` puzzles is made with 1 worker and with
2 worker processes (:func:`asterion.puzzles.batch.run_batch`), timed by the wall clock. Every
puzzle kept is proven unique by the exact counter (Aster) or the exact search (Nacht); the
two batches must be byte-identical (determinism across worker counts), else the run exits 1.

There is no peer generator to run side by side; the figures are rates, with the candidates
tried per puzzle kept (what the uniqueness filter costs). The issue's goal: at least 30 hard
Aster puzzles per minute on 2 cores. Ratios and rates, not asserts (DESIGN.md, principle 7).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from asterion.puzzles.batch import Kind, run_batch


def measure(kind: Kind, difficulty: str, count: int, seed: int, workers: int) -> dict[str, float]:
    started = time.perf_counter()
    cpu = time.process_time()
    batch = run_batch(kind, count, difficulty, seed, workers=workers)
    wall = time.perf_counter() - started
    return {
        "made": len(batch.made),
        "wall": wall,
        "parent_cpu": time.process_time() - cpu,
        "per_minute": 60 * len(batch.made) / wall,
        "candidates_per_puzzle": batch.attempts / max(1, len(batch.made)),
        "files": hash(tuple(m.files for m in batch.made)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=8, help="puzzles per batch")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--kinds", default="aster,nacht")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print("| kind | difficulty | workers | puzzles | wall s | per minute | candidates/puzzle |")
    print("|---|---|---|---|---|---|---|")
    failures = 0
    for kind in args.kinds.split(","):
        assert kind in ("aster", "nacht")
        for difficulty in ("hard", "expert"):
            rates = {}
            for workers in (1, 2):
                r = measure(kind, difficulty, args.count, args.seed, workers)  # type: ignore[arg-type]
                rates[workers] = r
                print(
                    f"| {kind} | {difficulty} | {workers} | {r['made']:.0f} | {r['wall']:.1f} | "
                    f"{r['per_minute']:.1f} | {r['candidates_per_puzzle']:.0f} |",
                    flush=True,
                )
            if rates[1]["files"] != rates[2]["files"]:
                print(f"MISMATCH: {kind} {difficulty} differs between 1 and 2 workers")
                failures += 1
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
