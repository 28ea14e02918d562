"""Nacht's solve and verify, given broken engines and stopped counts (tests a mutation audit
found missing)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "models"))
from nacht_charts import unit_viewport

from asterion.models.edges import Placement
from asterion.models.nacht import Tile, TileSet, derived_chamfers, edge_problem
from asterion.models.nacht_cut import Chart, ChartConstellation, cut
from asterion.solver import nacht_solve
from asterion.solver.edge_result import EdgeSearchResult
from asterion.solver.nacht_verify import arrangement_findings, verify
from asterion.solver.result import Status


def generic(edges: list[str], width: int = 2, height: int = 2, **options: Any) -> TileSet:
    tiles = tuple(
        Tile(str(i), derived_chamfers(tuple(e)), edges=tuple(e)) for i, e in enumerate(edges)
    )
    return TileSet("g", width, height, tiles, generic=True, **options)


# Hand-worked (test_no_arrangement's "fine" set): NW 0ab0, NE 00ca, SW bd00, SE c00d. The
# chamfers hold each tile in its corner; NW's E "a" meets NE's W "a", NW's S "b" meets SW's
# N "b", NE's S "c" meets SE's N "c", SW's E "d" meets SE's W "d": one arrangement.
FINE = ["0ab0", "00ca", "bd00", "c00d"]
AS_LAID = ((Placement(0, 0), Placement(1, 0)), (Placement(2, 0), Placement(3, 0)))


def test_an_engine_arrangement_that_breaks_the_tiles_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # NW and NE swapped: their chamfers no longer match their corners. arrange re-checks
    # every kept arrangement against the tiles (not only the engine's colors): it must raise.
    tileset = generic(FINE)
    swapped = ((Placement(1, 0), Placement(0, 0)), (Placement(2, 0), Placement(3, 0)))
    wrong = EdgeSearchResult(Status.OPTIMAL, 1, True, (swapped,), engine="fake")
    monkeypatch.setattr(nacht_solve, "run_engine", lambda *a, **k: wrong)
    with pytest.raises(RuntimeError, match="breaks the rules"):
        nacht_solve.arrange(tileset, edge_problem(tileset), "cp-sat")


def test_turns_in_place_that_reach_the_count_limit_answer_the_question() -> None:
    # 3 x 3 sky whose only line lies inside the centre tile (test_a_tile_that_turns_in_place):
    # each arrangement of sides is 4 pictures. An engine stopped by its clock after one
    # arrangement (feasible) has, by rule 4, 4 >= the limit of 4: "at least 4" is answered.
    line = ChartConstellation("C", "C", ((1.3, 1.4, 1.0), (1.6, 1.7, 1.0)), ((0, 1),))
    tileset = replace(cut(Chart("x", (line,)), 3, 3, unit_viewport(3, 3)), rotations=True)
    encoding = edge_problem(tileset)
    one = nacht_solve.run_engine(encoding.problem, "cp-sat", count_limit=1, keep=1)
    stopped = replace(one, status=Status.FEASIBLE, complete=False, count=1)
    counted = nacht_solve.with_turns_in_place(stopped, encoding, count_limit=4, keep=1)
    assert counted.count == 4
    assert counted.status is Status.OPTIMAL


def test_a_search_stopped_by_the_clock_is_undecided(fast_clock: Any) -> None:
    # The clock runs one second a reading: the engine stops before it finds anything, so
    # existence is not decided: consistent is None (never True, never False).
    tileset = generic(FINE)
    assert verify(tileset, engine="cp-sat").consistent is True
    fast_clock()
    report = verify(tileset, engine="cp-sat", time_limit=0.5)
    assert report.consistent is None
    assert {f.code for f in report.problems} == {"undecided"}


def test_arrangements_differing_only_by_a_turn_differ_at_that_cell() -> None:
    # Two arrangements with the same tiles in the same cells, NW turned once in the second:
    # they differ at exactly one cell, (0,0).
    tileset = generic(FINE, rotations=True)
    turned = ((Placement(0, 1), Placement(1, 0)), (Placement(2, 0), Placement(3, 0)))
    result = EdgeSearchResult(Status.OPTIMAL, 2, True, (AS_LAID, turned))
    (finding,) = arrangement_findings(tileset, result, count_limit=10)
    assert finding.code == "not-unique"
    assert "differ at 1 cells" in finding.message and "(0,0) 0/0+1" in finding.message
