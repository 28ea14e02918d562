"""Aster placements: our enumeration against networkx VF2, on every catalog card.

    python benchmarks/bench_aster_place.py [--repeat N] [--edges pairs|star]

For each card of the shipped catalog that has a pattern, on the default board under the default
transforms (translate+rotate+reflect), times

* ours: ``asterion.models.aster_patterns.placements`` (anchor each symmetry image at every
  board point, look the image points up);
* VF2: ``asterion.solver.aster_vf2.vf2_placements`` (one networkx ``DiGraphMatcher`` subgraph
  monomorphism search per symmetry, displacement vectors on the edges);

alternating the two, ``--repeat`` times each, and reports the median per card (and the best
totals). Both answers are checked to be the same list before any time is printed.

Setup is built once for both and excluded from the per-card times: the board's coordinate
table (``Board.at``, used by ours) and the board's displacement digraph (cached per board, used
by VF2). Their one-off build times are printed apart.

Ratios, not asserts (DESIGN.md, principle 7): the goal is ours at least 20 times faster.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, get_args

from asterion.models.aster_board import Board
from asterion.models.aster_cards import Card, default_catalog
from asterion.models.aster_patterns import DEFAULT_TRANSFORMS, Placement, placements
from asterion.solver.aster_vf2 import PatternEdges, displacement_digraph, vf2_placements
from machine import machine_lines

GOAL_RATIO = 20.0
T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    card: Card
    placements: int
    ours: list[float]  # seconds, one per repeat
    vf2: list[float]

    @property
    def ratio(self) -> float:
        return statistics.median(self.vf2) / statistics.median(self.ours)


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """``call()`` and its wall time in seconds, garbage collection off (as ``timeit`` does)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = call()
        return result, time.perf_counter() - start
    finally:
        gc.enable()


def setup_times(board_rings: int) -> tuple[float, float]:
    """One-off build times on a fresh board: ours (``Board.at``) and VF2 (the digraph)."""
    fresh = Board(rings=board_rings)
    _, ours = timed(lambda: fresh.at)
    displacement_digraph.cache_clear()
    _, vf2 = timed(lambda: displacement_digraph(fresh))
    return ours, vf2


def measure(board: Board, card: Card, repeat: int, edges: PatternEdges) -> Row:
    ours_times: list[float] = []
    vf2_times: list[float] = []
    expected: list[Placement] | None = None
    for _ in range(repeat):
        ours, ours_time = timed(lambda: placements(board, card.pattern, DEFAULT_TRANSFORMS))
        theirs, vf2_time = timed(
            lambda: vf2_placements(board, card.pattern, DEFAULT_TRANSFORMS, edges=edges)
        )
        if ours != theirs or (expected is not None and ours != expected):
            sys.exit(f"{card.abbr}: ours found {len(ours)} placements, VF2 {len(theirs)}")
        expected = ours
        ours_times.append(ours_time)
        vf2_times.append(vf2_time)
    return Row(card, len(expected or []), ours_times, vf2_times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per card (default 7)")
    parser.add_argument(
        "--edges",
        choices=get_args(PatternEdges),
        default="pairs",
        help="VF2 pattern edges: every ordered pair (default) or a star from the first point",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    # -- setup, built once for both and excluded from the per-card times --------------------
    board = Board()
    ours_setup, vf2_setup = setup_times(board.rings)
    board.at  # noqa: B018  (build ours' coordinate table)
    displacement_digraph(board)  # build VF2's digraph (cached per board)

    cards = [card for card in default_catalog().cards if card.pattern]
    rows = [measure(board, card, args.repeat, args.edges) for card in cards]

    # -- report -----------------------------------------------------------------------------
    print("# Aster placements: enumeration vs networkx VF2")
    print()
    for line in machine_lines("networkx", "ortools"):
        print(f"- {line}")
    print(
        f"- board: default ({board.rings} rings, {len(board.points)} points); transforms: "
        f"{DEFAULT_TRANSFORMS.value}; VF2 pattern edges: {args.edges}"
    )
    print(
        f"- times: median of {args.repeat} alternating runs per card, garbage collection off; "
        "all placement lists checked equal"
    )
    print(
        "- setup built once for both, excluded from the per-card times: "
        f"ours Board.at {ms(ours_setup)} ms, VF2 board digraph "
        f"({displacement_digraph(board).number_of_edges()} edges) {ms(vf2_setup)} ms"
    )
    print()
    print("| card | stars | placements | ours ms | VF2 ms | ratio |")
    print("|---|--:|--:|--:|--:|--:|")
    for row in rows:
        print(
            f"| {row.card.abbr} | {row.card.stars} | {row.placements} | "
            f"{ms(statistics.median(row.ours))} | {ms(statistics.median(row.vf2))} | "
            f"{row.ratio:.0f}x |"
        )
    ours_total = sum(statistics.median(row.ours) for row in rows)
    vf2_total = sum(statistics.median(row.vf2) for row in rows)
    overall = vf2_total / ours_total
    print(
        f"| **total** ({len(rows)} cards) | | {sum(row.placements for row in rows)} | "
        f"{ms(ours_total)} | {ms(vf2_total)} | **{overall:.0f}x** |"
    )
    print()
    best_ours = sum(min(row.ours) for row in rows)
    best_vf2 = sum(min(row.vf2) for row in rows)
    ratios = [row.ratio for row in rows]
    print(
        f"best-of-{args.repeat} totals: ours {ms(best_ours)} ms, VF2 {ms(best_vf2)} ms, "
        f"ratio {best_vf2 / best_ours:.0f}x; per-card ratios {min(ratios):.0f}x to "
        f"{max(ratios):.0f}x"
    )
    verdict = "met" if overall >= GOAL_RATIO else "NOT met"
    print(f"goal: ours at least {GOAL_RATIO:.0f}x faster than VF2: {verdict} ({overall:.0f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
