"""Nacht der Sterne, edge matching: our search engine against peers on the same puzzles.

    python benchmarks/bench_nacht.py [--limit S] [--sizes 4x4:2/3,7x7:3/6] [--seeds 0,1]
                                     [--methods search,plain,...] [--tasks first,all]
                                     [--count-sizes 4,5,6] [--threads N]
                                     [--files puzzle.txt,other.json]

Instances are Eternity II-family puzzles from ``asterion.models.edge_puzzles.generate``
(rotations on, few frame and inner colors), the same for every method, and with ``--files``
tile sets read as ``asterion nacht solve`` reads them (text or JSON): public sets, such as the
Eternity II clue puzzles, are not shipped here, but can be run from their files. Two
questions:

* ``first``: find one arrangement;
* ``all``: count every arrangement up to turning the whole picture (every method is given the
  same symmetry breaking: the lowest-numbered corner piece held in the north-west corner).

Methods (each in its own subprocess, killed at the limit plus a grace period if it does not stop
by itself):

* ``search``: ours, ``asterion.solver.edge_search.search_arrangements`` (numba; a warm-up solve
  of a 6 x 6 loads the compiled loops before the clock starts), on ``--threads`` threads (default:
  every core the process may use), counting with the variant of smallest estimated tree; its
  cells add, in brackets, the CPU seconds of its busiest thread: the wall time an otherwise
  idle machine would show;
* ``cpsat``: ``asterion.solver.edge_cpsat.cp_arrangements`` (skipped if the module is missing);
* ``plain``: a plain Python row-by-row backtracking search (below), candidates looked up by
  (north, west) colors, the corner pinned: the same algorithm as ours, uncompiled;
* ``xcover``: exact cover with colors (Knuth's algorithm C): items = cells, pieces, and each
  inner edge as a colored secondary item;
* ``constraint``: python-constraint2, one variable per cell over its oriented pieces, a binary
  fit constraint per edge, and pairwise "different piece" constraints;
* ``z3``: one Boolean per (cell, oriented piece), exactly one per cell and per piece
  (pseudo-Boolean), and "this placement implies a fitting neighbour" per edge;
* ``cadical``: the same Boolean model as CNF (sequential-counter cardinality encoding) in
  CaDiCaL through python-sat; counting adds blocking clauses.

Every arrangement a method returns is re-checked edge by edge; counts of methods that finished
are compared. Times are seconds inside the worker, after imports and before the answer is
printed (model building included), shown as ``wall/cpu``: on a shared machine the process's
CPU time is the steadier figure (every method here computes in its own process, on one
thread, except ours, whose CPU time is the sum over its threads), so ratios are the peer's CPU
time over ours. Limits are wall time; a time-out counts
as the limit (the ratio is then a lower bound, shown with ">"). A method that times out on a
size is not run on larger sizes of the same question (shown as "skip").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asterion.models.edge_puzzles import generate
from asterion.models.edges import (
    BORDER,
    Arrangement,
    EdgeProblem,
    Placement,
    check_arrangement,
    orientations,
    turn,
)
from asterion.models.nacht import edge_problem
from asterion.models.nacht_files import load_tileset
from asterion.solver.edge_search import corner_pieces

DEFAULT_SIZES = "4x4:2/3,5x5:3/4,6x6:3/5,7x7:3/6,8x8:3/8,9x9:3/9,10x10:4/10"
METHODS = ("search", "cpsat", "plain", "xcover", "constraint", "z3", "cadical")
GRACE = 10.0
COUNT_ALL = 10**12

Oriented = tuple[int, int, tuple[int, int, int, int]]  # piece, turns, colors


# ---------------------------------------------------------------------------------------------
# Shared helpers for the peers


def cell_options(problem: EdgeProblem) -> dict[tuple[int, int], list[Oriented]]:
    """Each cell's oriented pieces with border colors exactly on its outside sides, with the
    lowest corner piece held in the north-west corner (the symmetry every method is given).

    The colors are given as the peers compare them: north and west sides read through the
    mate table, so that "the two sides fit" is plain equality of an east side with the next
    cell's west, a south side with the next row's north (a tile set's fragment colors mate
    their mirror images, not themselves; generated puzzles mate each color with itself)."""
    anchor = corner_pieces(problem)[0]
    table: dict[tuple[int, int], list[Oriented]] = {}
    for r in range(problem.height):
        for c in range(problem.width):
            outside = (r == 0, c == problem.width - 1, r == problem.height - 1, c == 0)
            options = []
            for index, piece in enumerate(problem.pieces):
                if problem.rotations and (index == anchor) != ((r, c) == (0, 0)):
                    continue
                for k in orientations(piece, problem.rotations):
                    n, e, south, w = turn(piece, k)
                    colors = (problem.mate_of(n), e, south, problem.mate_of(w))
                    if all((x == BORDER) == o for x, o in zip(colors, outside, strict=True)):
                        options.append((index, k, colors))
            table[r, c] = options
    return table


def to_arrangement(problem: EdgeProblem, chosen: dict[tuple[int, int], Oriented]) -> Arrangement:
    return tuple(
        tuple(Placement(chosen[r, c][0], chosen[r, c][1]) for c in range(problem.width))
        for r in range(problem.height)
    )


def edges(problem: EdgeProblem) -> Iterator[tuple[tuple[int, int], tuple[int, int], int, int]]:
    """Inner edges as (cell, neighbour, side of cell, side of neighbour): east and south."""
    for r in range(problem.height):
        for c in range(problem.width):
            if c + 1 < problem.width:
                yield (r, c), (r, c + 1), 1, 3
            if r + 1 < problem.height:
                yield (r, c), (r + 1, c), 2, 0


@dataclass
class Answer:
    status: str  # "found", "none", "timeout", "error"
    count: int
    first: Arrangement | None
    thread_cpu: float | None = None  # ours: the busiest thread's CPU seconds


# ---------------------------------------------------------------------------------------------
# The plain Python baseline


def plain_search(problem: EdgeProblem, limit: int, deadline: float) -> Answer:
    """Row-by-row backtracking in plain Python: candidates by (north, west) color per cell."""
    options = cell_options(problem)
    width, n = problem.width, problem.width * problem.height
    by_key: list[dict[tuple[int, int], list[Oriented]]] = []
    for r in range(problem.height):
        for c in range(width):
            table: dict[tuple[int, int], list[Oriented]] = {}
            for option in options[r, c]:
                table.setdefault((option[2][0], option[2][3]), []).append(option)
            by_key.append(table)
    placed: list[Oriented] = []
    used = [False] * n
    count = 0
    first: Arrangement | None = None
    ticks = 0

    def go(i: int) -> bool:  # True = stop
        nonlocal count, first, ticks
        if i == n:
            count += 1
            if first is None:
                grid = {(j // width, j % width): placed[j] for j in range(n)}
                first = to_arrangement(problem, grid)
            return count >= limit
        ticks += 1
        if ticks & 0xFFFF == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        north = placed[i - width][2][2] if i >= width else BORDER
        west = placed[i - 1][2][1] if i % width else BORDER
        for option in by_key[i].get((north, west), ()):
            if not used[option[0]]:
                used[option[0]] = True
                placed.append(option)
                stop = go(i + 1)
                placed.pop()
                used[option[0]] = False
                if stop:
                    return True
        return False

    sys.setrecursionlimit(10_000)
    try:
        go(0)
    except TimeoutError:
        return Answer("timeout", count, first)
    return Answer("found" if count else "none", count, first)


# ---------------------------------------------------------------------------------------------
# Peers


THREADS: int | None = None  # --threads, for ours


def run_search(problem: EdgeProblem, limit: int, seconds: float) -> Answer:
    from asterion.solver.edge_search import search_arrangements

    result = search_arrangements(
        problem, count_limit=limit, keep=1, time_limit=seconds, threads=THREADS, variant=None
    )
    answer = _from_result(result)
    marker = "threads' CPU seconds: "
    for note in result.notes:
        if note.startswith(marker):
            answer.thread_cpu = max(float(t) for t in note[len(marker) :].split("/"))
    return answer


def run_cpsat(problem: EdgeProblem, limit: int, seconds: float) -> Answer:
    from asterion.solver.edge_cpsat import cp_arrangements  # type: ignore[import-not-found,unused-ignore]

    result = cp_arrangements(problem, count_limit=limit, keep=1, time_limit=seconds, seed=0)
    return _from_result(result)


def _from_result(result: Any) -> Answer:
    first = result.solutions[0] if result.solutions else None
    if result.complete or (result.count >= 1 and result.status.value == "optimal"):
        return Answer("found" if result.count else "none", result.count, first)
    return Answer("timeout", result.count, first)


def run_xcover(problem: EdgeProblem, limit: int, seconds: float) -> Answer:
    from xcover import covers

    options = cell_options(problem)
    rows: list[list[str]] = []
    meaning: list[tuple[tuple[int, int], Oriented]] = []
    for (r, c), choices in options.items():
        for option in choices:
            items = [f"cell{r}_{c}", f"piece{option[0]}"]
            colors = option[2]
            if r > 0:
                items.append(f"h{r - 1}_{c}:{colors[0]}")
            if r + 1 < problem.height:
                items.append(f"h{r}_{c}:{colors[2]}")
            if c > 0:
                items.append(f"v{r}_{c - 1}:{colors[3]}")
            if c + 1 < problem.width:
                items.append(f"v{r}_{c}:{colors[1]}")
            rows.append(items)
            meaning.append(((r, c), option))
    primary = [f"cell{r}_{c}" for r, c in options] + [f"piece{i}" for i in range(len(options))]
    secondary = [f"h{r}_{c}" for r in range(problem.height - 1) for c in range(problem.width)]
    secondary += [f"v{r}_{c}" for r in range(problem.height) for c in range(problem.width - 1)]
    return _enumerate(
        problem,
        (
            {meaning[i][0]: meaning[i][1] for i in solution}
            for solution in covers(rows, primary=primary, secondary=secondary, colored=True)
        ),
        limit,
        seconds,
    )


def _enumerate(
    problem: EdgeProblem,
    solutions: Iterator[dict[tuple[int, int], Oriented]],
    limit: int,
    seconds: float,
) -> Answer:
    """Count a generator's solutions up to ``limit``; the caller's process is killed on time."""
    del seconds  # the parent kills the worker at the limit; partial counts are not reported
    count, first = 0, None
    for chosen in solutions:
        if first is None:
            first = to_arrangement(problem, chosen)
        count += 1
        if count >= limit:
            break
    return Answer("found" if count else "none", count, first)


def run_constraint(problem: EdgeProblem, limit: int, seconds: float) -> Answer:
    from constraint import FunctionConstraint, Problem

    options = cell_options(problem)
    csp = Problem()
    cells = list(options)
    for cell in cells:
        csp.addVariable(cell, list(range(len(options[cell]))))
    for a, b, side_a, side_b in edges(problem):
        oa, ob = options[a], options[b]
        csp.addConstraint(
            FunctionConstraint(
                lambda x, y, oa=oa, ob=ob, sa=side_a, sb=side_b: oa[x][2][sa] == ob[y][2][sb]
            ),
            (a, b),
        )
    pieces_of = {cell: {o[0] for o in options[cell]} for cell in cells}
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            if pieces_of[a] & pieces_of[b]:
                oa, ob = options[a], options[b]
                csp.addConstraint(
                    FunctionConstraint(lambda x, y, oa=oa, ob=ob: oa[x][0] != ob[y][0]), (a, b)
                )
    return _enumerate(
        problem,
        ({cell: options[cell][v] for cell, v in s.items()} for s in csp.getSolutionIter()),
        limit,
        seconds,
    )


def boolean_model(
    problem: EdgeProblem,
) -> tuple[
    list[tuple[tuple[int, int], Oriented]], list[list[int]], list[list[int]], list[list[int]]
]:
    """Variables (1-based) for each (cell, oriented piece); groups for "exactly one per cell"
    and "exactly one per piece"; and implication clauses for the edges."""
    options = cell_options(problem)
    var: dict[tuple[tuple[int, int], int], int] = {}
    meaning: list[tuple[tuple[int, int], Oriented]] = []
    for cell, choices in options.items():
        for j, option in enumerate(choices):
            meaning.append((cell, option))
            var[cell, j] = len(meaning)
    per_cell = [[var[cell, j] for j in range(len(options[cell]))] for cell in options]
    by_piece: dict[int, list[int]] = {}
    for index, (_, option) in enumerate(meaning):
        by_piece.setdefault(option[0], []).append(index + 1)
    per_piece = list(by_piece.values())
    clauses: list[list[int]] = []
    for a, b, side_a, side_b in edges(problem):
        for ja, oa in enumerate(options[a]):
            fit = [var[b, jb] for jb, ob in enumerate(options[b]) if ob[2][side_b] == oa[2][side_a]]
            clauses.append([-var[a, ja], *fit])
        for jb, ob in enumerate(options[b]):
            fit = [var[a, ja] for ja, oa in enumerate(options[a]) if oa[2][side_a] == ob[2][side_b]]
            clauses.append([-var[b, jb], *fit])
    return meaning, per_cell, per_piece, clauses


def run_z3(problem: EdgeProblem, limit: int, seconds: float) -> Answer:
    import z3

    meaning, per_cell, per_piece, clauses = boolean_model(problem)
    x = [z3.Bool(f"x{i}") for i in range(len(meaning) + 1)]
    solver = z3.Solver()
    solver.set("timeout", int(seconds * 1000))
    for group in per_cell + per_piece:
        solver.add(z3.PbEq([(x[v], 1) for v in group], 1))
    for clause in clauses:
        solver.add(z3.Or([x[v] if v > 0 else z3.Not(x[-v]) for v in clause]))
    count, first = 0, None
    deadline = time.perf_counter() + seconds
    while count < limit:
        outcome = solver.check()
        if outcome == z3.unknown or time.perf_counter() > deadline:
            return Answer("timeout", count, first)
        if outcome == z3.unsat:
            break
        model = solver.model()
        true = [v for v in range(1, len(meaning) + 1) if z3.is_true(model.eval(x[v]))]
        if first is None:
            first = to_arrangement(problem, {meaning[v - 1][0]: meaning[v - 1][1] for v in true})
        count += 1
        solver.add(z3.Or([z3.Not(x[v]) for v in true]))
    return Answer("found" if count else "none", count, first)


def run_cadical(problem: EdgeProblem, limit: int, seconds: float) -> Answer:
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF
    from pysat.solvers import Solver

    meaning, per_cell, per_piece, clauses = boolean_model(problem)
    cnf = CNF(from_clauses=clauses)
    top = len(meaning)
    for group in per_cell + per_piece:
        encoded = CardEnc.equals(lits=group, bound=1, top_id=top, encoding=EncType.seqcounter)
        top = max(top, encoded.nv)
        cnf.extend(encoded.clauses)
    count, first = 0, None
    deadline = time.perf_counter() + seconds
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        while count < limit:
            if time.perf_counter() > deadline:
                return Answer("timeout", count, first)
            if not solver.solve():
                break
            model = solver.get_model()
            true = [v for v in model if 0 < v <= len(meaning)]
            if first is None:
                first = to_arrangement(
                    problem, {meaning[v - 1][0]: meaning[v - 1][1] for v in true}
                )
            count += 1
            solver.add_clause([-v for v in true])
    return Answer("found" if count else "none", count, first)


RUNNERS: dict[str, Callable[[EdgeProblem, int, float], Answer]] = {
    "search": run_search,
    "cpsat": run_cpsat,
    "xcover": run_xcover,
    "constraint": run_constraint,
    "z3": run_z3,
    "cadical": run_cadical,
}


# ---------------------------------------------------------------------------------------------
# Instances, workers, the table


@dataclass(frozen=True)
class Instance:
    width: int
    height: int
    frame: int
    inner: int
    seed: int
    path: str | None = None
    """A tile set file instead of a generated puzzle (the other fields then only describe it)."""

    @property
    def name(self) -> str:
        if self.path is not None:
            return f"{Path(self.path).name} ({self.width}x{self.height})"
        return f"{self.width}x{self.height} {self.frame}/{self.inner} s{self.seed}"

    def problem(self) -> EdgeProblem:
        return problem_of(self.spec())

    def spec(self) -> str:
        if self.path is not None:
            return FILE + self.path
        return f"{self.width},{self.height},{self.frame},{self.inner},{self.seed}"


FILE = "file:"


def problem_of(spec: str) -> EdgeProblem:
    """The puzzle an instance's spec names: a file's tile set, or a generated puzzle."""
    if spec.startswith(FILE):
        return edge_problem(load_tileset(spec[len(FILE) :])).problem
    w, h, f, i, seed = (int(v) for v in spec.split(","))
    return generate(w, h, f, i, seed)


def file_instances(text: str) -> list[Instance]:
    out = []
    for path in filter(None, text.split(",")):
        problem = problem_of(FILE + path)
        out.append(Instance(problem.width, problem.height, 0, 0, 0, path))
    return out


def parse_sizes(text: str, seeds: list[int]) -> list[Instance]:
    out = []
    for item in text.split(","):
        grid, colors = item.split(":")
        w, h = (int(v) for v in grid.split("x"))
        f, i = (int(v) for v in colors.split("/"))
        out += [Instance(w, h, f, i, seed) for seed in seeds]
    return out


def worker(method: str, spec: str, task: str, seconds: float, threads: int | None) -> None:
    """Run one method on one instance; print one JSON line."""
    global THREADS
    THREADS = threads
    problem = problem_of(spec)
    if problem.near is not None and method != "cpsat":
        # Near colors (a chain of near misses in a tile set) fit without being equal: only
        # CP-SAT reads them; the others would answer another question.
        print(json.dumps({"status": "n/a", "count": 0, "seconds": 0.0, "cpu": 0.0}))
        return
    if method == "search":  # load the compiled loops before the clock starts (a 6x6 first
        # arrangement runs the scan's and the frame's: a 3x3 loaded only the scan's, and the
        # clue puzzles' times then held some 0.02 s of loading the frame's)
        run_search(generate(6, 6, 3, 5, 0), 1, 10.0)
    limit = 1 if task == "first" else COUNT_ALL
    start, cpu_start = time.perf_counter(), time.process_time()
    if method == "plain":
        answer = plain_search(problem, limit, start + seconds)
    else:
        answer = RUNNERS[method](problem, limit, seconds)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if answer.first is not None and check_arrangement(problem, answer.first):
        answer = Answer("error", answer.count, None)
    line = {"status": answer.status, "count": answer.count, "seconds": elapsed, "cpu": cpu}
    if answer.thread_cpu is not None:
        line["thread_cpu"] = answer.thread_cpu
    print(json.dumps(line))


def run_worker(
    method: str, instance: Instance, task: str, seconds: float, threads: int | None = None
) -> dict[str, Any]:
    command = [sys.executable, __file__, "--worker", method, instance.spec(), task, str(seconds)]
    command.append(str(threads or 0))
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=seconds + GRACE, check=False
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "count": 0, "seconds": seconds, "cpu": seconds}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        return {"status": "error", "count": 0, "seconds": 0.0, "cpu": 0.0, "message": tail[0]}
    answer: dict[str, Any] = json.loads(lines[-1])
    if answer["status"] == "timeout" or answer["seconds"] > seconds:
        answer["status"], answer["seconds"] = "timeout", max(answer["seconds"], seconds)
    return answer


PEERS = {"xcover", "constraint", "z3", "cadical"}
"""Methods whose library comes with the ``nacht-bench`` extra."""


def available(method: str) -> bool:
    modules = {
        "cpsat": "asterion.solver.edge_cpsat",
        "xcover": "xcover",
        "constraint": "constraint",
        "z3": "z3",
        "cadical": "pysat",
    }
    if method not in modules:
        return True
    try:
        __import__(modules[method])
    except ImportError:
        return False
    return True


def cell(answer: dict[str, Any] | None, ours: dict[str, Any] | None) -> str:
    """``wall/cpu`` seconds (ours: and the busiest thread's CPU seconds in brackets), and the
    ratio of CPU times to ours (``>`` when timed out)."""
    if answer is None:
        return "skip"
    if answer["status"] in ("error", "n/a"):
        return str(answer["status"])
    if answer["status"] == "timeout":
        text = f">{answer['seconds']:.0f}"
    else:
        text = f"{_seconds(answer['seconds'])}/{_seconds(answer['cpu'])}"
        if "thread_cpu" in answer:
            text += f" [{_seconds(answer['thread_cpu'])}]"
    if ours is not None and ours["status"] in ("found", "none"):
        ratio = answer["cpu"] / max(ours["cpu"], 1e-3)
        shown = f"{ratio:.1f}" if ratio < 10 else f"{ratio:.0f}"
        text += f" ({'>' if answer['status'] == 'timeout' else ''}{shown}x)"
    return text


def _seconds(value: float) -> str:
    """Seconds to two decimals, or to the millisecond under a tenth (the clue puzzles'
    first arrangements take some milliseconds)."""
    return f"{value:.3f}" if value < 0.1 else f"{value:.2f}"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), int(sys.argv[6]) or None)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run (60)")
    parser.add_argument("--sizes", default=DEFAULT_SIZES)
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--tasks", default="first,all")
    parser.add_argument("--count-sizes", default="4,5,6,7", help="grid sides counted in 'all'")
    parser.add_argument("--no-skip", action="store_true")
    parser.add_argument("--threads", type=int, default=0, help="ours: threads (0: every core)")
    parser.add_argument("--files", default="", help="tile set files to run as well")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    instances = parse_sizes(args.sizes, seeds) if args.sizes else []
    instances += file_instances(args.files)
    methods = [m for m in args.methods.split(",") if available(m)]
    missing = [m for m in args.methods.split(",") if m not in methods]
    count_sides = {int(s) for s in args.count_sizes.split(",")}
    with open("/proc/loadavg", encoding="utf-8") as f:
        load = f.read().split()[:3]
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
        f"python {platform.python_version()}, load {' '.join(load)}"
    )
    print(
        f"limit {args.limit:.0f} s per run; methods {', '.join(methods)}"
        + (f"; missing: {', '.join(missing)}" if missing else "")
        + (
            " (the peers come with the extra nacht-bench: pip install -e '.[nacht-bench]')"
            if set(missing) & PEERS
            else ""
        )
    )
    for task in args.tasks.split(","):
        print(f"\n## {task}: " + ("first arrangement" if task == "first" else "count all"))
        print("| instance | " + " | ".join(methods) + " | count |")
        print("|---" * (len(methods) + 2) + "|")
        timed_out: set[str] = set()
        for instance in instances:
            if task == "all" and instance.width not in count_sides:
                continue
            row: dict[str, dict[str, Any] | None] = {}
            for method in methods:
                if method in timed_out and not args.no_skip:
                    row[method] = None
                    continue
                row[method] = run_worker(method, instance, task, args.limit, args.threads)
                if row[method]["status"] == "timeout":  # type: ignore[index]
                    timed_out.add(method)
            ours = row.get("search")
            counts = {a["count"] for a in row.values() if a and a["status"] in ("found", "none")}
            count = "/".join(str(c) for c in sorted(counts)) or "?"
            if len(counts) > 1:
                count += " MISMATCH"
            cells = " | ".join(cell(row[m], ours) for m in methods)
            print(f"| {instance.name} | {cells} | {count} |", flush=True)
    with open("/proc/loadavg", encoding="utf-8") as f:
        print(f"\nload at the end: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
