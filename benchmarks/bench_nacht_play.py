"""Nacht der Sterne play: simulation speed, exact two-player solve times, heuristic shortfalls.

    python benchmarks/bench_nacht_play.py [--games N] [--grids 3x4,4x4,4x5,4x6] [--deals K]
                                          [--time-limit S] [--tiny 2x3,2x4,3x3]

1. *Simulation*: ``simulate`` on the shipped 5x5 sky, 3 players, the same seeded deals for
   each line-up; games per second (every move checked by the rules engine) and the mean
   coins and win rates per strategy.
2. *Exact value, by grid size*: for each grid, practice skies ``practice_tileset(W, H, k)``
   (cut by the sky cutter, solved by the verifier) and the seeded deal ``k`` for k = 0 … K-1;
   ``solve_known_order`` (alpha-beta + transposition table, MTD(f)) with the time limit.
   Median and worst time; a deal not settled counts as the limit.
3. *The baseline*: on tiny grids, plain minimax without pruning or table on the same deals;
   values must agree before any time is printed; the ratio of times.
4. *Shortfalls*: on the settled deals of the smallest grid, each heuristic in each seat
   against a perfect opponent: mean and worst shortfall in coins of margin.

Ratios and counts, not asserts (DESIGN.md, principle 7); the machine is shared, so times
move with its load (printed at the start).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections import defaultdict

from asterion.models.nacht_files import default_tileset
from asterion.models.nacht_game import NachtState, Sky
from asterion.models.nacht_game_files import practice_tileset
from asterion.solver.nacht_play import (
    MAX_EXACT_CELLS,
    MAX_GAMES,
    heuristic_shortfall,
    make_policy,
    minimax_value,
    simulate,
    solve_known_order,
    solved_sky,
)
from asterion.solver.nacht_play_defaults import STRATEGY_NAMES
from asterion.solver.result import Status

LINEUPS = (
    ("always", "always", "always"),
    ("greedy", "greedy", "greedy"),
    ("denial", "denial", "denial"),
    ("lookahead", "lookahead", "lookahead"),
    ("always", "greedy", "denial"),
    ("greedy", "denial", "lookahead"),
)


def grids(text: str) -> list[tuple[int, int]]:
    """``"3x4,4x4"`` as [(3, 4), (4, 4)].

    :raises ValueError: for a part that is not ``WxH`` with positive integers.
    """
    sizes = []
    for part in text.split(","):
        if not part.strip():
            continue
        width, _, height = part.strip().partition("x")
        size = (int(width), int(height))
        if min(size) < 1:
            raise ValueError(part)
        sizes.append(size)
    return sizes


def checked_grids(text: str, option: str, parser: argparse.ArgumentParser) -> list[tuple[int, int]]:
    """:func:`grids`, or a one-line usage error naming ``option`` and what it takes."""
    try:
        sizes = grids(text)
    except ValueError:
        parser.error(f"{option}: {text!r} is not a comma-separated list of WxH grids, e.g. 3x4")
    large = [f"{w}x{h}" for w, h in sizes if w * h > MAX_EXACT_CELLS]
    if large:
        parser.error(
            f"{option}: {', '.join(large)} {'is' if len(large) == 1 else 'are'} too large; "
            f"the exact search takes at most {MAX_EXACT_CELLS} tiles (4x6)"
        )
    return sizes


def machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, {os.cpu_count()} logical cores, load average at start {load:.2f}"
    )


def seconds(value: float) -> str:
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 10 else f"{value:.1f}"


def bench_simulation(games: int) -> None:
    sky = solved_sky(default_tileset())
    print("## Simulation (shipped 5x5 sky, 3 players, seats rotated over the same deals)")
    print()
    print("| line-up | games | games/s | mean coins (sd) | win rate | win rate by seat |")
    print("|---|--:|--:|---|---|---|")
    for lineup in LINEUPS:
        gc.collect()
        names = list(dict.fromkeys(lineup))
        report = simulate(sky, names if len(names) == 1 else list(lineup), games, 3, seed=0)
        rows = report.summary()
        means = ", ".join(f"{r['strategy']} {r['mean']:.1f} ({r['stdev']:.1f})" for r in rows)
        wins = ", ".join(f"{r['strategy']} {r['win_rate']:.0%}" for r in rows)
        seats = ", ".join(f"{rate:.0%}" for rate in report.seat_win_rates())
        rate = report.games / report.seconds
        if len(names) == 1:
            means = f"{statistics.fmean(report.strategy_coins(0)):.1f}"
            means += f" ({statistics.pstdev(report.strategy_coins(0)):.1f})"
            wins = "-"
        print(
            f"| {', '.join(lineup)} | {report.games} | {rate:.0f} | {means} | {wins} | {seats} |",
            flush=True,
        )
    print()


def deal(width: int, height: int, k: int) -> NachtState:
    sky: Sky = solved_sky(practice_tileset(width, height, k))
    return NachtState.new_game(sky, players=2, seed=k)


def bench_exact(sizes: list[tuple[int, int]], deals: int, limit: float) -> dict[str, list[int]]:
    print(f"## Exact two-player value, known order (time limit {limit:g} s per deal)")
    print()
    print("| grid | deals | settled | median s | worst s | median nodes | values |")
    print("|---|--:|--:|--:|--:|--:|---|")
    settled: dict[str, list[int]] = defaultdict(list)
    for width, height in sizes:
        times, nodes, values = [], [], []
        for k in range(deals):
            state = deal(width, height, k)
            gc.collect()
            started = time.perf_counter()
            answer = solve_known_order(state, time_limit=limit)
            took = time.perf_counter() - started
            ok = answer.status is Status.OPTIMAL
            times.append(took if ok else limit)
            nodes.append(answer.nodes)
            values.append(f"{answer.value:+d}" if answer.value is not None else "?")
            if ok and answer.value is not None:
                settled[f"{width}x{height}"].append(k)
        print(
            f"| {width}x{height} | {deals} | {len(settled[f'{width}x{height}'])} | "
            f"{seconds(statistics.median(times))} | {seconds(max(times))} | "
            f"{statistics.median(nodes):.0f} | {' '.join(values)} |",
            flush=True,
        )
    print()
    return settled


def bench_baseline(sizes: list[tuple[int, int]], deals: int) -> None:
    print("## Against plain minimax (no pruning, no table), tiny grids")
    print()
    print("| grid | deals | alpha-beta median s | plain minimax median s | ratio |")
    print("|---|--:|--:|--:|--:|")
    for width, height in sizes:
        ours, theirs = [], []
        for k in range(deals):
            state = deal(width, height, k)
            started = time.perf_counter()
            answer = solve_known_order(state)
            ours.append(time.perf_counter() - started)
            started = time.perf_counter()
            plain = minimax_value(state)
            theirs.append(time.perf_counter() - started)
            if answer.value != plain:
                sys.exit(f"{width}x{height} deal {k}: alpha-beta {answer.value} != minimax {plain}")
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"| {width}x{height} | {deals} | {seconds(a)} | {seconds(b)} | {b / a:.0f}x |")
    print()


def bench_shortfalls(size: str, settled: list[int], limit: float) -> None:
    width, height = grids(size)[0]
    print(f"## Heuristic shortfall against a perfect opponent ({size}, {len(settled)} deals)")
    print()
    print("| strategy | seat 1 mean | seat 1 worst | seat 2 mean | seat 2 worst |")
    print("|---|--:|--:|--:|--:|")
    for name in STRATEGY_NAMES:
        cells = []
        for seat in (0, 1):
            found = []
            for k in settled:
                result = heuristic_shortfall(
                    deal(width, height, k), make_policy(name), seat, time_limit=limit
                )
                if result is not None:
                    found.append(result.shortfall)
            cells += [f"{statistics.fmean(found):.1f}", f"{max(found)}"] if found else ["?", "?"]
        print(f"| {name} | {' | '.join(cells)} |", flush=True)
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per line-up (300; 0 skips)")
    parser.add_argument("--grids", default="3x4,4x4,4x5,4x6", help="exact-search grids ('' skips)")
    parser.add_argument("--deals", type=int, default=5, help="deals per grid (5)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--tiny", default="2x3,2x4,3x3", help="grids for plain minimax")
    args = parser.parse_args(argv)
    if not 0 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be from 0 (skip) to {MAX_GAMES:,} (got {args.games})")
    if args.deals < 1:
        parser.error(f"--deals must be at least 1 (got {args.deals})")
    if not args.time_limit > 0:
        parser.error(f"--time-limit must be positive seconds (got {args.time_limit:g})")
    exact = checked_grids(args.grids, "--grids", parser)
    tiny = checked_grids(args.tiny, "--tiny", parser)
    print("# Nacht der Sterne: play")
    print()
    print(f"- {machine()}")
    print()
    if args.games:
        bench_simulation(args.games)
    if exact:
        settled = bench_exact(exact, args.deals, args.time_limit)
        key = f"{exact[0][0]}x{exact[0][1]}"
        if settled[key]:
            bench_shortfalls(key, settled[key], args.time_limit)
    if tiny:
        bench_baseline(tiny, min(args.deals, 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
