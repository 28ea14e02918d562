"""End to end: ``asterion nacht verify`` on the shipped sky, as a user runs it (issue 4's goal:
verified, uniqueness proof included, in under 0.5 s).

    python benchmarks/bench_startup.py [--runs 7]

Each run starts a fresh ``asterion`` process (the installed console script beside this Python)
and waits for it; the figures are its wall time and its CPU time (user + system, from the
operating system's child accounting), the median over the runs. Engines compared on the same
command: ``auto`` (ours: ``propagate`` first), and the two engines it could otherwise use on
this set, ``cp-sat`` (OR-Tools) and ``search`` (numba). A last row times ``python -c pass`` and
a row the bare imports of typer, rich and pydantic, the floor no engine can go under.
Every run must answer "consistent, 1 arrangement"; the script stops otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import machine_lines

SCRIPT = Path(sys.executable).with_name("asterion")


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one child process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def verify_command(engine: str) -> list[str]:
    return [str(SCRIPT), "nacht", "verify", "--json", "--engine", engine]


def check_answer(out: str) -> None:
    answer = json.loads(out)
    if (answer["consistent"], answer["solutions"]) != (True, 1):
        raise SystemExit(f"unexpected answer: {answer}")


def median_times(command: list[str], runs: int, checked: bool) -> tuple[float, float]:
    walls, cpus = [], []
    timed(command)  # once untimed: files into the page cache, numba's cache compiled
    for _ in range(runs):
        wall, cpu, out = timed(command)
        if checked:
            check_answer(out)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per row (median shown)")
    args = parser.parse_args()
    for line in machine_lines("ortools", "numba", "typer", "pydantic", "networkx"):
        print(line)
    rows = [
        ("auto (ours: propagate)", verify_command("auto"), True),
        ("cp-sat", verify_command("cp-sat"), True),
        ("search (numba)", verify_command("search"), True),
        (
            "imports only: typer, rich, pydantic",
            [sys.executable, "-c", "import typer, rich.console, pydantic"],
            False,
        ),
        ("python -c pass", [sys.executable, "-c", "pass"], False),
    ]
    print(f"\n{'command':<42} {'wall s':>8} {'cpu s':>8}")
    ours = None
    for name, command, checked in rows:
        wall, cpu = median_times(command, args.runs, checked)
        ours = ours if ours is not None else cpu
        ratio = f"{cpu / ours:5.1f}x" if checked else ""
        print(f"{name:<42} {wall:8.3f} {cpu:8.3f} {ratio}")
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
