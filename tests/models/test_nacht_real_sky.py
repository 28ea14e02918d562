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


def test_every_constellation_of_the_picture_is_whole() -> None:
    """The seed's "14 constellations", each drawn with every one of its picture stars (sky.json:
    the chosen stars and the rest of Hp <= 4.5), each star once, as a spanning tree."""
    text = resources.files("asterion.data").joinpath("nacht_chart.json").read_text("utf-8")
    chart = json.loads(text)
    real = default_sky()
    assert len(chart["constellations"]) == 14
    for con in chart["constellations"]:
        figure = real[con["abbr"]].picture_stars
        assert con["name"] == real[con["abbr"]].name
        assert sorted((s["name"], s["mag"]) for s in con["stars"]) == sorted(
            (s.label, s.mag) for s in figure
        )
        for star in con["stars"]:
            assert 0 < star["x"] < 5 and 0 < star["y"] < 5
        assert len(con["lines"]) == len(con["stars"]) - 1  # a spanning tree


def test_picture_stars_are_brightest_first_to_hp_4_5() -> None:
    for con in default_sky().iau:
        assert all(s.mag <= 4.5 for s in con.more)
        mags = [s.mag for s in con.picture_stars]
        assert mags == sorted(mags)
