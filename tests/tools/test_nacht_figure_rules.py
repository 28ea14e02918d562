"""tools/nacht_figure_rules.py: the figure rules, and the one wide-grid square docs/data.md
names (14 whole figures, Orion on 5 tiles, Cancer on 2, but twin tiles)."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from asterion.models.nacht_cut import chart_from_data, cut
from asterion.models.sky import default_sky

TOOL = "nacht_figure_rules"


def test_rules_take_the_brightest_chosen_stars(tool: ModuleType) -> None:
    orion = default_sky()["Ori"].stars
    cancer = default_sky()["Cnc"].stars
    assert tool.FigureRule(None, 3, 3).stars(orion) == orion[:3]
    assert tool.FigureRule(None, 8, 8).stars(orion) == orion
    assert tool.FigureRule(2.0, 2).stars(orion) == orion[:5]  # Hp 0.19 ... 1.68
    assert tool.FigureRule(2.0, 2).stars(cancer) == cancer[:2]  # none that bright: topped up


def test_the_closest_square_has_the_seeds_spans_but_twin_tiles(tool: ModuleType) -> None:
    rule = tool.FigureRule(2.0, 2)
    cons = tool.figures(rule)
    vectors, owner = tool.unit_vectors(cons)
    square = tool.Candidate(122.5, -2.5, 127.5, -35.0)
    plane = tool.project(vectors, square.ra0, square.dec0, square.angle)
    largest, _ = tool.per_figure(tool.star_radii(plane), owner, len(cons))
    whole = [
        int(k) for k in np.flatnonzero(largest < square.side * (0.5 - tool.EDGE_MARGIN / tool.GRID))
    ]
    assert len(whole) == 14
    chart = chart_from_data(tool.chart_data(square, cons, whole), "<test>")
    tileset = cut(chart, 5, 5, tool.VIEWPORT)
    spans = tool.spans(tileset)
    assert (spans["Ori"], spans["Cnc"]) == (5, 2)
    assert tool.has_twins(tileset)
