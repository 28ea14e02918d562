"""Stellar solo puzzles: exact search, CP-SAT and the two-core portfolio, over seeded deals.

    python benchmarks/bench_stellar_solo.py [--deals N] [--first SEED] [--turns 3,4,5,11]
        [--time-limit S] [--methods search,cp-sat,split,portfolio,auto]

For each horizon (number of turns) the suite is ``deal_solo_puzzle(seed, turns)`` for seeds
0 … N−1 (the shipped deck, targets drawn around typical sums). Each deal is solved by

* search: ``asterion.solver.stellar_solo.search_solo`` (depth-first branch and bound over the
  turns, transposition table, a quick admissible bound and the set relaxation's exact bound
  (``stellar_solo_relax``) near the root, last turn in closed form);
* CP-SAT: ``asterion.solver.stellar_solo.cp_sat_solo`` (one model of all the turns, display
  and deck flow included; one worker);
* split: ``asterion.solver.stellar_solo_split.split_solo`` (the set relaxation's optimal
  splits realized one after the other by CP-SAT restricted to their telescope cards, with
  sound no-good cuts: a logic-based Benders decomposition; from 8 turns each set first gets
  the compiled flow check of ``stellar_solo_flow``; one core);
* portfolio: ``asterion.solver.stellar_solo_portfolio.portfolio_solo`` (the search first on
  short deals, then two split loops, one in a child process, telling each other the telescope
  sets they take and settle, the best score shared: two cores);
* auto: ``solve_solo(method="auto")``, what the CLI runs by default (one core: the search
  alone up to 3 turns; up to 7 turns the search for a few hundred nodes, then split);

one after the other per deal, each with the same time limit. Every plan is replayed by the
rules engine inside the solvers; here, whenever two methods prove an optimum, the optima must
be equal, and no plan may beat another method's proven bound, before any time is printed.

Reported per horizon: deals proven optimal by each method, median and worst wall time (a
deal not proven counts as the time limit, so a median at the limit means most deals were not
proven), the ratio of the search's and CP-SAT's medians, each method's median CPU time (the
portfolio's with its CP-SAT process; the machine is shared, so wall time moves with the load),
and for deals not proven the best score found and the proven bound. The issue's goal: every
11-turn deal proven optimal in under 10 s on 2 cores. Ratios and counts, not asserts
(DESIGN.md, principle 7).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from asterion.models.stellar_solo import SoloPuzzle, deal_solo_puzzle
from asterion.solver.result import Status
from asterion.solver.stellar_solo import SoloAnswer, cp_sat_solo, search_solo, solve_solo
from asterion.solver.stellar_solo_portfolio import portfolio_solo
from asterion.solver.stellar_solo_split import split_solo
from machine import machine_lines

GOAL_TURNS = 11
GOAL_SECONDS = 10.0
Solver = Callable[[SoloPuzzle, float], SoloAnswer]
SOLVERS: dict[str, Solver] = {
    "search": lambda puzzle, limit: search_solo(puzzle, time_limit=limit),
    "cp-sat": lambda puzzle, limit: cp_sat_solo(puzzle, time_limit=limit, seed=0),
    "split": lambda puzzle, limit: split_solo(puzzle, time_limit=limit, seed=0),
    "portfolio": lambda puzzle, limit: portfolio_solo(puzzle, time_limit=limit, seed=0),
    "auto": lambda puzzle, limit: solve_solo(puzzle, method="auto", time_limit=limit, seed=0),
}


@dataclass(frozen=True)
class Run:
    answer: SoloAnswer
    seconds: float
    cpu: float

    @property
    def proven(self) -> bool:
        return self.answer.status is Status.OPTIMAL


def timed(solver: Solver, puzzle: SoloPuzzle, limit: float) -> Run:
    gc.collect()
    started, cpu = time.perf_counter(), cpu_seconds()
    answer = solver(puzzle, limit)
    return Run(answer, time.perf_counter() - started, cpu_seconds() - cpu)


def cpu_seconds() -> float:
    """CPU time of this process and its ended children (the portfolio's CP-SAT side)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def check(turns: int, seed: int, runs: dict[str, Run]) -> None:
    """All optima equal; no plan above another method's proven bound."""
    answers = {name: run.answer for name, run in runs.items()}
    proven = {name: a.best_score for name, a in answers.items() if a.status is Status.OPTIMAL}
    if len(set(proven.values())) > 1:
        sys.exit(f"turns {turns}, seed {seed}: the optima differ: {proven}")
    for name, answer in answers.items():
        for other, theirs in answers.items():
            score, bound = answer.best_score, theirs.bound
            if score is not None and bound is not None and score > bound:
                sys.exit(f"turns {turns}, seed {seed}: {name} {score} > {other} bound {bound}")


def seconds(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def summary(turns: int, rows: list[dict[str, Run]], limit: float) -> list[str]:
    lines = []
    cells = [f"| {turns} | {len(rows)} |"]
    medians = {}
    names = list(rows[0])
    for name in names:
        runs = [row[name] for row in rows]
        times = [run.seconds if run.proven else limit for run in runs]
        solved = sum(run.proven for run in runs)
        medians[name] = statistics.median(times)
        cells.append(f" {solved}/{len(runs)} | {seconds(medians[name])} | {seconds(max(times))} |")
    both = "search" in medians and "cp-sat" in medians
    ratio = f"{medians['search'] / medians['cp-sat']:.1f}x" if both else "-"
    cpu = [seconds(statistics.median(row[name].cpu for row in rows)) for name in names]
    cells.append(f" {ratio} | {' / '.join(cpu)} |")
    lines.append("".join(cells))
    return lines


def gaps(turns: int, rows: list[dict[str, Run]]) -> str | None:
    """For deals no method proved: the best plan found by any against the lowest proven
    bound."""
    open_gaps = []
    for row in rows:
        if any(run.proven for run in row.values()):
            continue
        best = max(run.answer.best_score or 0 for run in row.values())
        bound = min(run.answer.bound for run in row.values() if run.answer.bound is not None)
        open_gaps.append((bound - best) / bound)
    if not open_gaps:
        return None
    return (
        f"turns {turns}: {len(open_gaps)}/{len(rows)} deals proven by no method; best plan "
        f"found vs lowest proven bound: median gap {statistics.median(open_gaps):.0%}, "
        f"worst {max(open_gaps):.0%}"
    )


def unsolved(turns: int, rows: list[dict[str, Run]], first: int) -> list[str]:
    """Best score and bound per deal where some method did not prove the optimum."""
    lines = []
    for seed, row in enumerate(rows, start=first):
        if all(run.proven for run in row.values()):
            continue
        parts = []
        for name, run in row.items():
            a = run.answer
            parts.append(f"{name} {a.status.value} {a.best_score} (bound {a.bound})")
        lines.append(f"  turns {turns} seed {seed}: " + "; ".join(parts))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per horizon (default 20)")
    parser.add_argument(
        "--turns", default="3,4,5,6,11", help="horizons, comma-separated (default 3,4,5,6,11)"
    )
    parser.add_argument(
        "--time-limit", type=float, default=GOAL_SECONDS, help="seconds per solve (default 10)"
    )
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--methods",
        default=",".join(SOLVERS),
        help=f"methods, comma-separated (default {','.join(SOLVERS)})",
    )
    args = parser.parse_args(argv)
    solvers = {name: SOLVERS[name] for name in args.methods.split(",") if name in SOLVERS}
    if len(solvers) != len(args.methods.split(",")):
        parser.error(f"--methods: choose among {', '.join(SOLVERS)}")
    horizons = [int(part) for part in args.turns.split(",") if part]
    if args.deals < 1 or not horizons or any(not 1 <= t <= GOAL_TURNS for t in horizons):
        parser.error("--deals must be positive and --turns from 1 to 11")

    print("# Stellar solo: exact search, CP-SAT and the portfolio")
    print()
    workers = "CP-SAT: 1 worker per process (the portfolio: 2 processes)"
    for line in [*machine_lines("ortools"), workers]:
        print(f"- {line}")
    print(
        f"- suite: deal_solo_puzzle(seed, turns), seeds {args.first}-"
        f"{args.first + args.deals - 1}, shipped deck; "
        f"time limit {args.time_limit:g} s per solve; the methods take turns per deal"
    )
    print()
    names = " / ".join(solvers)
    print(
        "| turns | deals | "
        + "".join(f"{name} proven | median s | worst s | " for name in solvers)
        + f"search/CP-SAT | median CPU s ({names}) |"
    )
    print("|" + "--:|" * (4 + 3 * len(solvers)))
    details: list[str] = []
    loads = ["start: " + ", ".join(f"{load:.2f}" for load in os.getloadavg())]
    notes: list[str] = []
    for turns in horizons:
        rows = []
        for seed in range(args.first, args.first + args.deals):
            puzzle = deal_solo_puzzle(seed, turns)
            row = {name: timed(solver, puzzle, args.time_limit) for name, solver in solvers.items()}
            check(turns, seed, row)
            rows.append(row)
        for line in summary(turns, rows, args.time_limit):
            print(line, flush=True)
        loads.append(f"turns {turns}: " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))
        details.extend(unsolved(turns, rows, args.first))
        note = gaps(turns, rows)
        if note:
            notes.append(note)
    print()
    print(f"load average (1, 5, 15 min) at the {'; after '.join(loads)}")
    print()
    for note in notes:
        print(note)
    print()
    if details:
        print("not proven by some method (status, best score found, proven bound):")
        for line in details:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
