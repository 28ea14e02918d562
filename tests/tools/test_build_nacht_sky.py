"""tools/build_nacht_sky.py: the shipped viewport shows exactly 14 whole constellations (the
seed's count), and the shipped chart is the one the tool writes for it."""

from __future__ import annotations

import json
from importlib import resources
from types import ModuleType

from asterion.models.sky import default_sky

TOOL = "build_nacht_sky"
SHIPPED = (120.0, -10.0, 135.0, 30.0)
"""The viewport docs/data.md names: centre RA, Dec, side, turn (degrees)."""


def shipped_chart() -> dict[str, object]:
    text = resources.files("asterion.data").joinpath("nacht_chart.json").read_text("utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def test_the_viewport_holds_exactly_the_charts_constellations_whole(tool: ModuleType) -> None:
    figures = tool.picture_figures()
    vectors, owner = tool.unit_vectors(figures)
    ra, dec, side, angle = SHIPPED
    mask = tool.inside(tool.project(vectors, ra, dec, angle), side)
    whole = {figures[k].abbr for k in tool.whole(mask, owner, len(figures))}
    charted = {c["abbr"] for c in shipped_chart()["constellations"]}  # type: ignore[attr-defined]
    assert len(whole) == 14 and whole == charted
    assert {"Ori", "Cnc"} <= whole


def test_a_figure_with_one_star_outside_is_not_whole(tool: ModuleType) -> None:
    figures = tool.picture_figures()
    vectors, owner = tool.unit_vectors(figures)
    mask = tool.inside(tool.project(vectors, *SHIPPED[:2], SHIPPED[3]), SHIPPED[2])
    orion = next(k for k, c in enumerate(figures) if c.abbr == "Ori")
    first = int((owner == orion).argmax())
    mask[first] = False
    assert orion not in tool.whole(mask, owner, len(figures))


def test_the_shipped_chart_is_what_the_tool_writes(tool: ModuleType) -> None:
    figures = tool.picture_figures()
    chosen = [k for k, c in enumerate(figures) if c.abbr in {"Ori", "Cnc"}]
    candidate = tool.Candidate(*SHIPPED)
    written = tool.chart_data(candidate, figures, chosen)
    shipped = {c["abbr"]: c for c in shipped_chart()["constellations"]}  # type: ignore[attr-defined]
    for con in written["constellations"]:
        assert con == shipped[con["abbr"]]
    assert len(default_sky()["Ori"].picture_stars) == len(shipped["Ori"]["stars"])
