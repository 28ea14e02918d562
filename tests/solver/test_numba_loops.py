"""The compiled loops' helpers: a prefetch changes no value, compiled or not."""

from __future__ import annotations

import numpy as np

from asterion.solver import numba_loops
from asterion.solver.numba_loops import compiled, prefetch


@compiled
def _gather(table: np.ndarray, where: np.ndarray, ahead: int) -> int:
    """Sum ``table`` at ``where``, each place prefetched ``ahead`` steps before it is read."""
    total = 0
    for i in range(where.shape[0]):
        if i + ahead < where.shape[0]:
            prefetch(table, where[i + ahead])
        total += table[where[i]]
    return total


def test_prefetch_changes_no_value() -> None:
    rng = np.random.default_rng(7)
    table = rng.integers(0, 1000, size=1 << 16).astype(np.uint64)
    where = rng.integers(0, len(table), size=5000).astype(np.uint64)
    expected = int(table[where].sum())
    assert _gather(table, where, 8) == _gather(table, where, 0) == expected
    assert np.array_equal(table, np.random.default_rng(7).integers(0, 1000, size=1 << 16))


def test_plain_python_prefetch_does_nothing() -> None:
    table = np.arange(4, dtype=np.uint64)
    assert numba_loops._nothing(table, 2) is None
    assert np.array_equal(table, np.arange(4))
