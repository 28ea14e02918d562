"""Each engine's side-by-side re-check must refuse what a broken model or propagation
produces, and verify must look past the first arrangement (tests a mutation audit found
missing)."""

from __future__ import annotations

import pytest

from asterion.models.edges import EdgeProblem
from asterion.models.nacht import Tile, TileSet, derived_chamfers
from asterion.solver import edge_cpsat, edge_propagate
from asterion.solver.nacht_verify import verify

# The module doctest's 2 x 2 (edge_propagate): one arrangement. With rotations on, the three
# corner pieces other than the anchor can lie in the three other corners 3! = 6 ways (each
# turned to put its border sides outside); only the laid-out one fits side by side.
PIECES = ((0, 1, 2, 0), (0, 0, 3, 1), (2, 4, 0, 0), (3, 0, 0, 4))
TURNING = EdgeProblem(PIECES, 2, 2, rotations=True)


def test_cp_sat_arrangements_are_rechecked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert edge_cpsat.cp_arrangements(TURNING, count_limit=10, keep=10).count == 1
    monkeypatch.setattr(edge_cpsat._Model, "_add_edges", lambda self: None)  # a broken model
    with pytest.raises(RuntimeError, match="re-check"):
        edge_cpsat.cp_arrangements(TURNING, count_limit=10, keep=10)


def test_propagated_arrangements_are_rechecked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert edge_propagate.propagate_arrangements(TURNING, count_limit=10, keep=10).count == 1
    every = tuple(range(5))
    monkeypatch.setattr(EdgeProblem, "facing", lambda self, color: every)  # broken narrowing
    with pytest.raises(RuntimeError, match="re-check"):
        edge_propagate.propagate_arrangements(TURNING, count_limit=10, keep=10)


def test_verify_asked_for_one_still_proves_non_uniqueness() -> None:
    # Four alike corner tiles (labels "a" everywhere inside), tiles turn: 3!=6 pictures up to
    # turning the whole (test_the_count_stops_at_the_limit). Asked to count to 1, verify must
    # still look for a second arrangement: a uniqueness check needs two.
    edges = ["0aa0", "00aa", "a00a", "aa00"]
    tiles = tuple(
        Tile(str(i), derived_chamfers(tuple(e)), edges=tuple(e)) for i, e in enumerate(edges)
    )
    tileset = TileSet("g", 2, 2, tiles, generic=True, rotations=True)
    report = verify(tileset, engine="cp-sat", count_limit=1)
    assert report.consistent is False
    assert "not-unique" in {f.code for f in report.problems}
    assert report.solutions >= 2
