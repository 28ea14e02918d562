"""The shipped Nacht der Sterne sky, cut from real star positions (tools/build_nacht_sky.py)."""

from __future__ import annotations

import json
from importlib import resources

from asterion.models.nacht_files import default_tileset
from asterion.models.sky import default_sky
from asterion.solver.nacht_verify import verify


def test_shipped_sky_is_consistent_unique_with_the_seeds_spans() -> None:
    sky = default_tileset()
    assert sky.expected_constellations == 14 and (sky.width, sky.height) == (5, 5)
    report = verify(sky)
    assert report.consistent is True and report.solutions == 1
    spans = {span.abbr: len(span.tiles) for span in report.constellations}
    assert len(spans) == 14
    assert spans["Ori"] == 5 and spans["Cnc"] == 2


def test_chart_stars_are_real_stars_of_their_constellations() -> None:
    text = resources.files("asterion.data").joinpath("nacht_chart.json").read_text("utf-8")
    chart = json.loads(text)
    real = default_sky()
    for con in chart["constellations"]:
        stars = {s.label: s.mag for s in real[con["abbr"]].stars}
        assert con["name"] == real[con["abbr"]].name
        for star in con["stars"]:
            assert stars[star["name"]] == star["mag"]
            assert 0 <= star["x"] <= 5 and 0 <= star["y"] <= 5
        assert len(con["lines"]) == len(con["stars"]) - 1  # a spanning tree
    whole = [
        c["abbr"] for c in chart["constellations"] if len(c["stars"]) == len(real[c["abbr"]].stars)
    ]
    assert {"Ori", "Cnc"} <= set(whole)
