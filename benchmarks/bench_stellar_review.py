"""Stellar post-mortem: how far the review's loss estimate falls from the loss it estimates.

    python benchmarks/bench_stellar_review.py [--reviews R] [--truth N] [--samples S]

Positions: moves of ``selfplay --policies greedy,random`` games (seeds 1-3, game 0). For each,
the *true* loss is taken from N deals (``compare_played`` with its own seeds): the best
candidate's mean less the played move's. Then R reviews (seeds 0 … R−1, S deals each, as
``stellar review`` draws them) estimate it three ways from the same values:

- *naive*: the best picked and measured on all the deals (favours the lucky candidate);
- *split*: picked on the first half, measured on the second;
- *cross* (what ``stellar review`` reports): each half picks, the other half measures.

Printed per estimator: the mean error and root-mean-square error against the true loss, how
often the 95% interval holds it, how often a move whose true loss is under half a point is
called clear (interval above 0), and how often one of 1.5 points or more is. Figures, not
asserts (DESIGN.md, principle 7). With the defaults some 10 minutes on one core.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Callable

from asterion.models.stellar import Move, StellarRules, StellarState, apply
from asterion.solver.stats import confidence_interval
from asterion.solver.stellar_play import (
    GreedyPolicy,
    RandomPolicy,
    compare_played,
    distinct_moves,
    selfplay_game,
)

POSITIONS = ((1, (6, 7, 12, 18, 21)), (2, (5, 9, 13, 16, 21)), (3, (5, 10, 14, 17)))
"""(self-play seed, move indices): greedy's and random's turns and display answers."""
WIDTH = 6
Values = tuple[tuple[int, ...], ...]


def game(seed: int) -> tuple[list[StellarState], list[Move]]:
    moves: list[Move] = []
    record = selfplay_game(GreedyPolicy(), RandomPolicy(), seed, 0, StellarRules(), moves)
    states = [StellarState.new_game(StellarRules(), seed=record.deal)]
    for move in moves:
        states.append(apply(states[-1], move))
    return states, moves


def pick(values: Values, played: int, deals: range) -> int:
    means = [statistics.fmean(v[j] for j in deals) for v in values]
    top = max(means)
    return played if means[played] == top else means.index(top)


def naive(values: Values, played: int) -> list[int]:
    every = range(len(values[0]))
    best = pick(values, played, every)
    return [values[best][j] - values[played][j] for j in every]


def split(values: Values, played: int) -> list[int]:
    n = len(values[0])
    best = pick(values, played, range(n // 2))
    return [values[best][j] - values[played][j] for j in range(n // 2, n)]


def cross(values: Values, played: int) -> list[int]:
    n = len(values[0])
    first, second = range(n // 2), range(n // 2, n)
    by_first, by_second = pick(values, played, first), pick(values, played, second)
    chosen = [by_second] * len(first) + [by_first] * len(second)
    return [values[k][j] - values[played][j] for j, k in enumerate(chosen)]


ESTIMATORS: dict[str, Callable[[Values, int], list[int]]] = {
    "naive": naive,
    "split": split,
    "cross": cross,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=40)
    parser.add_argument("--truth", type=int, default=600)
    parser.add_argument("--samples", type=int, default=32)
    args = parser.parse_args()
    errors: dict[str, list[float]] = {name: [] for name in ESTIMATORS}
    held: dict[str, list[bool]] = {name: [] for name in ESTIMATORS}
    clear_small: dict[str, list[bool]] = {name: [] for name in ESTIMATORS}
    clear_large: dict[str, list[bool]] = {name: [] for name in ESTIMATORS}
    for seed, indices in POSITIONS:
        states, moves = game(seed)
        for i in indices:
            state, move = states[i], moves[i]
            if distinct_moves(state) == 1:
                continue
            truth = compare_played(
                state, move, width=WIDTH, samples=args.truth, seed=10**6 + 1000 * seed + i
            )
            means = [statistics.fmean(v) for v in truth.values]
            loss = max(means) - means[truth.played]
            row = [f"selfplay seed {seed} move {i:>2}: true loss {loss:5.2f}"]
            found: dict[str, list[float]] = {name: [] for name in ESTIMATORS}
            for k in range(args.reviews):
                c = compare_played(state, move, width=WIDTH, samples=args.samples, seed=k)
                for name, estimate in ESTIMATORS.items():
                    differences = estimate(c.values, c.played)
                    low, high = confidence_interval(differences)
                    found[name].append(statistics.fmean(differences))
                    errors[name].append(found[name][-1] - loss)
                    held[name].append(low - 1e-9 <= loss <= high + 1e-9)
                    if loss < 0.5:
                        clear_small[name].append(low > 0)
                    elif loss >= 1.5:
                        clear_large[name].append(low > 0)
            row += [f"{name} {statistics.fmean(v):+6.2f}" for name, v in found.items()]
            print("  ".join(row), flush=True)
    print()
    print("estimator  mean error  rms error  interval holds  clear if < 0.5  clear if >= 1.5")
    for name in ESTIMATORS:
        e = errors[name]
        rms = math.sqrt(statistics.fmean(x * x for x in e))
        print(
            f"{name:<9}  {statistics.fmean(e):+10.2f}  {rms:9.2f}  "
            f"{statistics.fmean(held[name]):14.3f}  {_rate(clear_small[name]):>14}  "
            f"{_rate(clear_large[name]):>15}"
        )


def _rate(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)}"


if __name__ == "__main__":
    main()
