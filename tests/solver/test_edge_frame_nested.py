"""The frame's inner search written out as nested loops (edge_frame_nested) against the one
loop of edge_frame_kernel, which test_edge_frame checks against exhaustive enumerations and the
row scan: the same tree, so the same counts, placements, kept arrangements and sieve bits, on
subtrees, stopped and resumed at any budget."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_edge_frame import ALL, ALWAYS, frame_of, row_scan_count, unsieved

import asterion.solver.edge_search as edge_search
from asterion.models.edge_puzzles import generate
from asterion.solver import edge_frame
from asterion.solver import edge_frame_nested as nested
from asterion.solver import edge_search_parallel as parallel
from asterion.solver.edge_frame import (
    FrameRun,
    FrameTables,
    Sieve,
    bottom_rows,
    new_sieve,
    without_turn_rule,
)
from asterion.solver.edge_frame_nested import NEST, Geometry, kernel_source


def subtrees(frame: FrameTables, depth: int, most: int, seed: int = 0) -> list[np.ndarray]:
    """Up to ``most`` partial insides of ``depth`` cells (prefixes), chosen at random."""
    listing = FrameRun(frame, 1 << 40, 0, leaf=depth)
    edge_search.run_alone(listing, float("inf"))
    prefixes = list(listing.prefixes)
    return random.Random(seed).sample(prefixes, min(most, len(prefixes)))


def searched(
    frame: FrameTables,
    prefix: np.ndarray | None,
    depth: int,
    written: bool,
    budget: int,
    sieve: edge_frame.kernel.Sieve = edge_frame.NO_SIEVE,
) -> tuple[int, int, int, bytes]:
    """One search, sliced by ``budget``: (count, placements, outcome, kept arrangements)."""
    start = None if prefix is None else (prefix, depth)
    run = FrameRun(frame, ALL, 3, start, sieve=sieve, nested=written)
    assert run.nested == written
    while run.outcome == edge_search.RUNNING:
        run.advance(budget)
    return run.count, run.nodes, run.outcome, run.kept.tobytes()


PUZZLES = {
    "5x5 2/3 s1": generate(5, 5, 2, 3, seed=1),
    "5x5 3/4 s2": generate(5, 5, 3, 4, seed=2),
    "5x5 3/4 s5": generate(5, 5, 3, 4, seed=5),  # identical pieces, placed in order
    "6x6 3/5 s3": generate(6, 6, 3, 5, seed=3),
    "4x4 2/3 s0": generate(4, 4, 2, 3, seed=0),
}


@pytest.mark.parametrize("name", sorted(PUZZLES))
@pytest.mark.parametrize("budget", [1 << 30, 97])
def test_written_loops_search_the_same_tree(name: str, budget: int) -> None:
    # A budget of 97 placements stops and resumes the search hundreds of times, at every row.
    frame = frame_of(PUZZLES[name])
    whole = searched(frame, None, 0, True, budget)
    assert whole == searched(frame, None, 0, False, 1 << 30)
    assert whole[0] == row_scan_count(PUZZLES[name]) and whole[2] == edge_search.EXHAUSTED
    depth = min(3, frame.side**2 - 1)
    for prefix in subtrees(frame, depth, 12):
        assert searched(frame, prefix, depth, True, budget) == searched(
            frame, prefix, depth, False, 1 << 30
        )


def test_written_loops_prune_by_the_sieve_as_the_one_loop() -> None:
    # Any sieve will do to compare: both loops test the same key's bit. Half the bits set at
    # random keeps some tops and drops others.
    frame = frame_of(generate(6, 6, 3, 5, seed=3))
    rows = bottom_rows(frame.side)
    bits = np.random.default_rng(5).integers(0, 1 << 63, size=1 << 14, dtype=np.int64)
    sieve = Sieve(bits.view(np.uint64), 20, rows).probing(frame.side)
    pruned = whole = 0
    for prefix in subtrees(frame, 3, 20, seed=1):
        written = searched(frame, prefix, 3, True, 211, sieve)
        assert written == searched(frame, prefix, 3, False, 1 << 30, sieve)
        pruned += written[1]
        whole += searched(frame, prefix, 3, True, 1 << 30)[1]
    assert 0 < pruned < whole  # the sieve cut some subtrees short


def test_a_prefix_the_sieve_drops_ends_its_task() -> None:
    # Prefixes past the sieve's depth: the written loops place a prefix's pieces again on the
    # way in, so the sieve may drop the prefix itself. The task must then end with nothing
    # found below it, not come back to the same prefix for ever.
    frame = frame_of(generate(6, 6, 3, 5, seed=3))
    bits = np.random.default_rng(7).integers(0, 1 << 63, size=1 << 14, dtype=np.int64)
    sieve = Sieve(bits.view(np.uint64), 20, bottom_rows(frame.side)).probing(frame.side)
    depth = sieve[2] + 2
    dropped = 0
    for prefix in subtrees(frame, depth, 40, seed=3):
        run = FrameRun(frame, ALL, 3, (prefix, depth), sieve=sieve, nested=True)
        for _ in range(1000):
            if run.outcome != edge_search.RUNNING:
                break
            run.advance(1 << 30)
        assert run.outcome == edge_search.EXHAUSTED
        unsieved = searched(frame, prefix, depth, False, 1 << 30)
        assert run.count == unsieved[0]
        dropped += run.nodes == 0 < unsieved[1]
    assert dropped > 0


def test_a_count_limit_stops_the_written_loops_where_it_stops_the_one_loop() -> None:
    frame = frame_of(generate(5, 5, 3, 4, seed=2))  # 256 classes
    for limit in (1, 7, 255, 256, 257):
        runs = [FrameRun(frame, limit, 3, nested=written) for written in (True, False)]
        for run in runs:
            edge_search.run_alone(run, float("inf"))
        (a, b) = runs
        assert (a.count, a.nodes, a.outcome) == (b.count, b.nodes, b.outcome)
        assert np.array_equal(a.kept, b.kept)


def test_written_loops_list_the_same_bottoms_into_a_sieve() -> None:
    frame = without_turn_rule(frame_of(generate(6, 6, 3, 5, seed=3)))
    leaf = bottom_rows(frame.side) * frame.side
    sieves = []
    for written in (True, False):
        sieve = new_sieve(frame.side, 20)
        run = FrameRun(frame, 1 << 62, 0, None, leaf, sieve=sieve.filling(), nested=written)
        while run.outcome == edge_search.RUNNING:
            run.advance(1000)
        sieves.append((sieve.bits, run.count, run.nodes))
    (a_bits, a_count, a_nodes), (b_bits, b_count, b_nodes) = sieves
    assert np.array_equal(a_bits, b_bits) and (a_count, a_nodes) == (b_count, b_nodes)
    assert np.count_nonzero(a_bits) > 0


def test_a_sieved_count_by_the_written_loops_equals_the_row_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The whole path of a long count: bottoms listed and subtrees counted by the written loops.
    monkeypatch.setattr(parallel, "NESTED_SIDES", range(2, 9))
    problem = generate(6, 6, 3, 5, seed=3)
    frame = frame_of(problem)
    tally = parallel.count_by_frame(frame, ALL, 3, float("inf"), 2, 0, ALWAYS)
    plain = unsieved(frame)
    assert tally.count == plain.count == row_scan_count(problem) > 0
    assert np.array_equal(tally.kept, plain.kept)


def test_prefixes_are_listed_by_the_one_loop() -> None:
    frame = frame_of(generate(5, 5, 3, 4, seed=2))
    assert not FrameRun(frame, 10, 0, leaf=2, nested=True).nested


def bare_geometry(side: int, **given: Any) -> Geometry:
    """An inside of ``side`` with no cell facing the ring (enough to write its loops)."""
    cells = side * side
    plain = dict(rows=1, probe_at=-1, ncolors=4, bits=0, mask=0, sieve_log=20, probing=False)
    fields = plain | given
    return Geometry(
        side=side,
        facing=((),) * cells,
        corners=(False,) * (4 * (side + 1)),
        centre=cells // 2,
        anchors=(-1,) * cells,
        early=(),
        leaf=cells,
        rule=True,
        **fields,
    )


def test_a_7x7_inside_is_cut_into_functions_within_the_nesting_limit() -> None:
    # CPython refuses more than 20 nested blocks: the source must compile as Python.
    geometry = bare_geometry(5, rows=3, probe_at=15, ncolors=10, bits=4, mask=255, probing=True)
    source = kernel_source(geometry)
    compile(source, "written", "exec")
    assert source.count("\ndef ") == -(-25 // NEST)


def test_the_loops_are_written_anew_when_a_function_they_call_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # numba's cache of the written module would keep a compiled callee's old code: the
    # module's text, hence its file, must change with the callees' modules.
    geometry = bare_geometry(3)
    before = kernel_source(geometry)
    changed = tmp_path / "edge_frame_kernel.py"
    changed.write_bytes(Path(edge_frame.kernel.__file__).read_bytes() + b"# changed\n")
    monkeypatch.setattr(edge_frame.kernel, "__file__", str(changed))
    nested._callees_fingerprint.cache_clear()
    try:
        assert kernel_source(geometry) != before
    finally:
        monkeypatch.undo()
        nested._callees_fingerprint.cache_clear()
    assert kernel_source(geometry) == before


@pytest.mark.parametrize("name", ["5x5 3/4 s2", "6x6 3/5 s3"])
def test_loops_cut_into_several_functions_search_the_same_tree(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 7x7 inside needs two functions; cutting smaller ones into runs of 4 cells tests the
    # calls, and stopping and resuming across them, at a small compile's cost.
    monkeypatch.setattr(nested, "NEST", 4)
    edge_frame._nested_search.cache_clear()
    try:
        frame = frame_of(PUZZLES[name])
        assert searched(frame, None, 0, True, 97) == searched(frame, None, 0, False, 1 << 30)
        for prefix in subtrees(frame, 2, 6, seed=3):
            assert searched(frame, prefix, 2, True, 53) == searched(
                frame, prefix, 2, False, 1 << 30
            )
    finally:
        edge_frame._nested_search.cache_clear()


def test_loops_unused_for_long_are_forgotten_with_their_compiled_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASTERION_CACHE", str(tmp_path))
    folder = nested.cache_dir()
    (folder / "__pycache__").mkdir(parents=True)
    stale, recent = folder / "asterion_frame_old.py", folder / "asterion_frame_new.py"
    for path in (stale, recent):
        path.write_text("search = None\n")
        (folder / "__pycache__" / f"{path.stem}.search-1.py311.nbi").write_bytes(b"")
    long_ago = time.time() - (nested.UNUSED_DAYS + 1) * 86400
    os.utime(stale, (long_ago, long_ago))
    other = folder / "notes.txt"  # not ours: left alone, however old
    other.write_text("")
    os.utime(other, (long_ago, long_ago))
    written = nested._written("asterion_frame_written", "search = None\n")
    assert written.parent == folder and written.exists()
    assert not stale.exists() and recent.exists() and other.exists()
    assert [p.name for p in (folder / "__pycache__").iterdir()] == [
        "asterion_frame_new.search-1.py311.nbi"
    ]
    # A source found again is marked used, so it is not forgotten in its turn.
    os.utime(written, (long_ago, long_ago))
    assert nested._written("asterion_frame_written", "search = None\n") == written
    assert nested.forget_unused(folder) == []
