"""Akelarre: equilibria, plans and self-play speed, against peers on the same instances.

    python benchmarks/bench_akelarre.py [--deals N] [--games N] [--plans N]

1. *All pure equilibria of a 5-player turn* (3125 profiles): building the exact payoff table
   with the rules engine and checking every profile, on N deals (turn 1 of seeded games and
   turn 6 of seeded random playouts). Reported: median and worst seconds, equilibria found.
2. *Two-player mixed equilibria*: our exact support enumeration
   (``mixed_equilibria_2p``, fractions) against nashpy's ``support_enumeration`` (numpy
   floats) on the same payoff matrices (every turn of seeded random games, deals/3 of them);
   the two sets of equilibria must
   agree (to 1e-9) before any time is printed. Times exclude building the table.
3. *Fewest-turn plans*: CP-SAT (``plan_cp_sat``) against breadth-first search over the rules
   engine (``plan_search``) on seeded random instances with 2–4 objectives (6-turn games);
   the optima must agree.
4. *Games simulated per second*, each policy in every seat, 2–5 players.

Ratios and counts, not asserts (DESIGN.md, principle 7).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

from asterion.models.akelarre import (
    LOCATIONS,
    WELL,
    AkelarreState,
    apply,
    legal_actions,
)
from asterion.models.akelarre_files import build_rules, default_objectives
from asterion.solver.akelarre_balance import selfplay
from asterion.solver.akelarre_equilibria import mixed_equilibria_2p, pure_equilibria, turn_game
from asterion.solver.akelarre_plan import PlanInstance, plan_cp_sat, plan_search
from asterion.solver.result import Status
from machine import machine_lines


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    """The value and the wall seconds of ``function()``, after a garbage collection."""
    value, wall, _ = timed_cpu(function)
    return value, wall


def timed_cpu(function: Callable[[], Any]) -> tuple[Any, float, float]:
    """The value, wall seconds and CPU seconds of ``function()``: both clocks span exactly
    the call (the garbage collection before it is outside both)."""
    gc.collect()
    cpu = time.process_time()
    started = time.perf_counter()
    value = function()
    wall = time.perf_counter() - started
    return value, wall, time.process_time() - cpu


def position(players: int, seed: int, turn: int) -> AkelarreState:
    state = AkelarreState.new_game(build_rules(players), seed=seed)
    rng = random.Random(seed)
    while state.turn < turn and not state.is_over:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


def bench_pure(deals: int) -> list[str]:
    times, cpu, counts = [], [], []
    for seed in range(deals):
        state = position(5, seed, 1 if seed % 2 == 0 else 6)
        found, seconds, cpu_seconds = timed_cpu(
            lambda state=state: pure_equilibria(turn_game(state))
        )
        cpu.append(cpu_seconds)
        times.append(seconds)
        counts.append(len(found))
    return [
        f"5-player pure equilibria, {deals} turns: median {statistics.median(times):.3f} s, "
        f"worst {max(times):.3f} s (CPU median {statistics.median(cpu):.3f} s); equilibria "
        f"per turn {min(counts)}-{max(counts)} (median {statistics.median(counts)})"
    ]


NASHPY_INSTALL = "it comes with the test extra: pip install -e '.[test]', or pip install nashpy"


def bench_mixed(deals: int) -> list[str]:
    try:
        import nashpy
        import numpy as np
    except ModuleNotFoundError as missing:
        return [
            f"2-player mixed: skipped, {missing.name or 'nashpy'} is not installed "
            f"({NASHPY_INSTALL})"
        ]

    ours_times, theirs_times, mixed = [], [], 0
    warnings.filterwarnings("ignore", message=r"(?s).*degenerate", category=RuntimeWarning)
    games = [turn_game(position(2, seed, turn)) for seed in range(deals) for turn in range(1, 14)]
    for seed, game in enumerate(games):
        rows = range(5)
        a = np.array([[float(game.utility((r, c), 0)) for c in rows] for r in rows])
        b = np.array([[float(game.utility((r, c), 1)) for c in rows] for r in rows])
        ours, ours_s = timed(lambda game=game: mixed_equilibria_2p(game))
        theirs, theirs_s = timed(
            lambda a=a, b=b: list(nashpy.Game(a, b).support_enumeration(tol=1e-12))
        )
        mine = {tuple(round(float(p), 9) for s in e.strategies for p in s) for e in ours}
        other = {tuple(np.round(np.concatenate([x, y]), 9)) for x, y in theirs}
        if mine != other:
            sys.exit(f"seed {seed}: equilibria differ: ours {mine}, nashpy {other}")
        mixed += sum(not e.is_pure for e in ours)
        ours_times.append(ours_s)
        theirs_times.append(theirs_s)
    ratio = statistics.median(theirs_times) / statistics.median(ours_times)
    return [
        f"2-player mixed, {len(games)} positions (every turn of {deals} random games), "
        f"{mixed} non-pure equilibria, all agreeing: "
        f"ours median {statistics.median(ours_times) * 1000:.1f} ms (exact), nashpy "
        f"{statistics.median(theirs_times) * 1000:.1f} ms (floats); nashpy/ours {ratio:.2f}"
    ]


def plan_instance(seed: int) -> PlanInstance:
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4, 5))
    rules = build_rules(players, turns=6)
    seat = rng.randrange(players)
    objectives = tuple(o.id for o in rng.sample(default_objectives(), rng.choice((2, 3, 4))))
    well_taker = rng.choice([s for s in range(players) if s != seat] + [None])
    others = []
    for other in range(rules.seats):
        if other != seat:
            options = (*LOCATIONS, WELL) if other == well_taker else LOCATIONS
            others.append(tuple(rng.choice(options) for _ in range(rng.choice((1, 2, 3)))))
    return PlanInstance.start(rules, seat=seat, objectives=objectives, others=tuple(others))


def bench_plans(count: int) -> list[str]:
    cp_times, bfs_times, settled = [], [], 0
    for seed in range(count):
        instance = plan_instance(seed)
        exact, bfs_s = timed(lambda instance=instance: plan_search(instance))
        model, cp_s = timed(lambda instance=instance: plan_cp_sat(instance, time_limit=60))
        if exact.status is not Status.UNKNOWN and (
            exact.status is not model.status or exact.turns != model.turns
        ):
            sys.exit(f"seed {seed}: search {exact.turns} vs CP-SAT {model.turns}")
        settled += exact.status is not Status.UNKNOWN
        cp_times.append(cp_s)
        bfs_times.append(bfs_s)
    return [
        f"plans, {count} instances (6-turn games, 2-4 objectives), {settled} settled by both, "
        f"all agreeing: CP-SAT median {statistics.median(cp_times):.3f} s (worst "
        f"{max(cp_times):.2f}), breadth-first median {statistics.median(bfs_times):.3f} s "
        f"(worst {max(bfs_times):.2f})"
    ]


def bench_games(games: int) -> list[str]:
    lines = ["| players | random | greedy | equilibrium |", "|---|---|---|---|"]
    for players in (2, 3, 4, 5):
        cells = []
        for policy in ("random", "greedy", "equilibrium"):
            count = games if policy == "random" else max(2, games // 4)
            _, seconds, cpu = timed_cpu(
                lambda p=policy, n=players, c=count: selfplay(build_rules(n), [p] * n, c, seed=0)
            )
            cells.append(f"{count / cpu:.0f} ({count / seconds:.0f})")
        lines.append(f"| {players} | " + " | ".join(cells) + " |")
    return [
        "games simulated per CPU second (per wall second), whole games, every message checked:",
        *lines,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--plans", type=int, default=20)
    args = parser.parse_args()
    for line in [*machine_lines("ortools", "nashpy"), "CP-SAT: 1 worker"]:
        print(line)
    for lines in (
        bench_pure(args.deals),
        bench_mixed(max(1, args.deals // 3)),
        bench_plans(args.plans),
        bench_games(args.games),
    ):
        for line in lines:
            print(line, flush=True)


if __name__ == "__main__":
    main()
