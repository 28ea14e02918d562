"""``asterion sky``: show one constellation (table, JSON, picture), list them, bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

from clirun import run

SVG = "{http://www.w3.org/2000/svg}"


def _count(root: ET.Element, tag: str, cls: str) -> int:
    return sum(1 for e in root.iter(f"{SVG}{tag}") if e.get("class") == cls)


def test_show_orion_names_its_brightest_stars() -> None:
    code, out, _ = run("sky", "show", "Ori")
    assert code == 0
    assert "Rigel" in out and "Betelgeuse" in out and "24436" in out


def test_show_json_has_stars_and_spanning_lines() -> None:
    code, out, _ = run("sky", "show", "Cnc", "--json")
    document = json.loads(out)
    assert code == 0
    assert document["abbr"] == "Cnc" and document["obsolete"] is False
    assert len(document["lines"]) == len(document["stars"]) - 1
    assert {"hip", "ra", "dec", "mag", "iau", "names"} <= set(document["stars"][0])


def test_show_picture_gives_the_stars_the_nacht_sky_draws() -> None:
    _, plain, _ = run("sky", "show", "Ori", "--json")
    code, out, _ = run("sky", "show", "Ori", "--picture", "--json")
    chosen, picture = json.loads(plain)["stars"], json.loads(out)
    assert code == 0
    assert picture["stars"][: len(chosen)] == chosen
    assert all(s["mag"] <= 4.5 for s in picture["stars"][len(chosen) :])
    assert len(picture["lines"]) == len(picture["stars"]) - 1
    # the shipped Nacht der Sterne chart draws Orion with exactly these stars
    chart = resources.files("asterion.data").joinpath("nacht_chart.json").read_text("utf-8")
    orion = next(c for c in json.loads(chart)["constellations"] if c["abbr"] == "Ori")
    assert sorted(s["mag"] for s in orion["stars"]) == sorted(s["mag"] for s in picture["stars"])


def test_show_obsolete_constellation_states_its_rule() -> None:
    code, out, _ = run("sky", "show", "Arg", "--json")
    assert code == 0
    assert "Carina" in json.loads(out)["rule"]


def test_show_svg_draws_one_disc_per_star(tmp_path: Path) -> None:
    picture = tmp_path / "ori.svg"
    code, out, _ = run("sky", "show", "Ori", "--svg", str(picture))
    assert code == 0 and "picture:" in out
    root = ET.fromstring(picture.read_text())
    assert _count(root, "circle", "star") == 8
    assert _count(root, "line", "figure") == 7


def test_unknown_abbreviation_is_one_line_and_status_2() -> None:
    code, out, err = run("sky", "show", "Xyz")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown constellation 'Xyz'" in err


def test_list_counts_88_and_5() -> None:
    code, out, _ = run("sky", "list", "--json")
    constellations = json.loads(out)["constellations"]
    assert code == 0
    assert sum(not c["obsolete"] for c in constellations) == 88
    assert sum(c["obsolete"] for c in constellations) == 5
