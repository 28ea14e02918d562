"""The peers of benchmarks/bench_nacht.py answer the question our engines answer.

A peer that compared side colors as equal got a tile set's colors wrong (they mate their
mirror images, not themselves): the plain search, exact cover, z3 and CaDiCaL said "no
arrangement" for cut skies that have one.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from asterion.models.edge_puzzles import generate
from asterion.models.edges import check_arrangement
from asterion.models.nacht import edge_problem
from asterion.models.nacht_files import default_tileset

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_nacht.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_nacht", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def test_the_plain_peer_arranges_the_shipped_sky_once(bench: ModuleType) -> None:
    # The shipped sky is consistent and unique (`asterion nacht verify`, the rules page's
    # designed set): its colors have a mate table that is not the identity.
    problem = edge_problem(default_tileset()).problem
    assert problem.mate is not None and list(problem.mate) != list(range(len(problem.mate)))
    answer = bench.plain_search(problem, 2, time.perf_counter() + 60)
    assert (answer.status, answer.count) == ("found", 1)
    assert check_arrangement(problem, answer.first) == []


def test_the_plain_peer_counts_a_generated_puzzle_as_before(bench: ModuleType) -> None:
    # 4x4 2/3 seed 0: 16 classes, what every peer and our engines counted (docs/benchmarks.md).
    answer = bench.plain_search(generate(4, 4, 2, 3, seed=0), 100, time.perf_counter() + 60)
    assert (answer.status, answer.count) == ("found", 16)
