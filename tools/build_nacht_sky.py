"""Writes the default Nacht der Sterne sky from real star positions:
``src/asterion/data/nacht_chart.json`` (the chart) and ``nacht_sky.json`` (its 5 x 5 tiles).

The seed's facts: one picture of 5 x 5 tiles showing 14 constellations, Orion spanning 5 tiles
and Cancer 2. This script searches the real sky for a viewport that gives them, every
constellation in it whole.

* Stars: the *picture stars* of the 88 IAU constellations in ``sky.json`` (tools/build_sky.py:
  every star of Hp <= 4.5, at least the 3 brightest). A card has room for 8 stars at most; a
  picture 5 tiles wide has room for the whole figure, and a figure of the brightest 8 stars is
  too small for Orion to cover 5 tiles where 14 whole constellations fit (docs/data.md).
* Projection: gnomonic around the viewport's centre (RA0, Dec0), x west (east on the left, as
  the sky is seen), y north, in degrees of the tangent plane, then turned by ``angle``
  counter-clockwise. The viewport is the square of side ``side`` degrees centred on (0, 0).
* Constellations: the picture draws a constellation when it is *whole*, all its picture stars
  inside the viewport (by at least :data:`EDGE_MARGIN` of a tile); one the edge cuts is left
  out, since a printed line cannot leave the sky (N3) and the seed's sky shows whole
  constellations. Lines: the minimum spanning tree of the stars in the chart plane (the
  packages give no stick figures).
* Search: centre RA0 over :data:`RA_GRID`, Dec0 over :data:`DEC_GRID`, ``side`` over
  :data:`SIDE_GRID`, ``angle`` over :data:`ANGLE_GRID`. Checks, cheapest first: exactly 14
  whole constellations, Orion and Cancer among them; cut into 5 x 5 tiles, Orion on 5 tiles
  and Cancer on 2; no two tiles with the same chamfers and side fragments (they could swap);
  then ``verify``: consistent and unique. The candidates passing the cheap checks are verified
  in order of nearest the midpoint of Orion and Cancer, then smaller side, smaller turn; the
  first consistent one is written (deterministic).
* The chart is written in tile units (the viewport is 0,0,5,5), so
  ``asterion nacht cut nacht_chart.json --viewport 0,0,5,5 --shuffle 1`` reproduces the set
  (up to its name).

Run: ``python tools/build_nacht_sky.py [DATA_FOLDER]`` (the same files every time, in about a
minute).
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from asterion.models.nacht import SIDES, TileSet
from asterion.models.nacht_cut import chart_from_data, cut
from asterion.models.nacht_files import tileset_to_data
from asterion.models.sky import SkyConstellation, default_sky, spanning_lines
from asterion.solver.nacht_verify import verify

DATA = Path(__file__).resolve().parent.parent / "src" / "asterion" / "data"
GRID = 5
WHOLE = 14
SPANS = {"Ori": 5, "Cnc": 2}
SHUFFLE_SEED = 1
EDGE_MARGIN = 0.03
"""A whole constellation's stars stay this far (in tiles) inside the picture's edge."""
RA_GRID = np.arange(60.0, 150.01, 5.0)
DEC_GRID = np.arange(-30.0, 40.01, 5.0)
SIDE_GRID = np.arange(70.0, 150.01, 5.0)
ANGLE_GRID = np.arange(-45.0, 45.01, 7.5)
VERIFY_LIMIT = 200
"""At most this many candidates are verified (the slow check) before giving up."""


@dataclass(frozen=True)
class Candidate:
    ra0: float
    dec0: float
    side: float
    angle: float

    def describe(self) -> str:
        return (
            f"centre RA {self.ra0:g} deg, Dec {self.dec0:+g} deg, side {self.side:g} deg, "
            f"turned {self.angle:+g} deg"
        )


def unit_vectors(constellations: tuple[SkyConstellation, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors of every star (rows) and the index of its constellation."""
    rows, owner = [], []
    for k, con in enumerate(constellations):
        for s in con.stars:
            a, d = math.radians(s.ra), math.radians(s.dec)
            rows.append((math.cos(d) * math.cos(a), math.cos(d) * math.sin(a), math.sin(d)))
            owner.append(k)
    return np.array(rows), np.array(owner)


def project(vectors: np.ndarray, ra0: float, dec0: float, angle: float) -> np.ndarray:
    """Gnomonic projection around (ra0, dec0), x west, y north, degrees, turned by ``angle``;
    points 80 degrees or more from the centre become NaN."""
    a0, d0 = math.radians(ra0), math.radians(dec0)
    centre = np.array([math.cos(d0) * math.cos(a0), math.cos(d0) * math.sin(a0), math.sin(d0)])
    east = np.array([-math.sin(a0), math.cos(a0), 0.0])
    north = np.cross(centre, east)
    cos_c = vectors @ centre
    with np.errstate(divide="ignore", invalid="ignore"):
        x = -(vectors @ east) / cos_c
        y = (vectors @ north) / cos_c
    far = cos_c < math.cos(math.radians(80))
    x[far], y[far] = np.nan, np.nan
    t = math.radians(angle)
    turned_x = x * math.cos(t) - y * math.sin(t)
    turned_y = x * math.sin(t) + y * math.cos(t)
    return np.asarray(np.degrees(np.stack([turned_x, turned_y], axis=1)), dtype=float)


def inside(plane: np.ndarray, side: float) -> np.ndarray:
    """Which stars lie inside the square of ``side`` around (0, 0), clear of its edge."""
    limit = side / 2 - EDGE_MARGIN * side / GRID
    return np.asarray(np.all(np.abs(plane) < limit, axis=1), dtype=bool)  # NaN compares False


def whole(mask: np.ndarray, owner: np.ndarray, count: int) -> list[int]:
    """The constellations with every star inside."""
    inside_per = np.bincount(owner, weights=mask, minlength=count)
    total_per = np.bincount(owner, minlength=count)
    return [k for k in range(count) if inside_per[k] == total_per[k]]


def chart_data(
    candidate: Candidate, constellations: tuple[SkyConstellation, ...], chosen: list[int]
) -> dict[str, Any]:
    """The chart in tile units (the viewport becomes [0, 5] x [0, 5]): the ``chosen``
    constellations with their stars inside."""
    vectors, owner = unit_vectors(constellations)
    plane = project(vectors, candidate.ra0, candidate.dec0, candidate.angle)
    mask = inside(plane, candidate.side)
    tile = candidate.side / GRID
    entries = []
    for k in chosen:
        con = constellations[k]
        stars = [
            (
                s,
                (
                    round((x + candidate.side / 2) / tile, 6),
                    round((y + candidate.side / 2) / tile, 6),
                ),
            )
            for s, (x, y), keep in zip(con.stars, plane[owner == k], mask[owner == k], strict=True)
            if keep
        ]
        points = [xy for _, xy in stars]
        entries.append(
            {
                "abbr": con.abbr,
                "name": con.name,
                "stars": [{"x": x, "y": y, "mag": s.mag, "name": s.label} for s, (x, y) in stars],
                "lines": [list(line) for line in spanning_lines(points)],
            }
        )
    return {
        "format": "asterion.chart/1",
        "name": (
            f"Real sky (tools/build_nacht_sky.py), gnomonic, {candidate.describe()}; "
            "x west, y north, in tiles"
        ),
        "constellations": entries,
    }


def spans(tileset: TileSet) -> dict[str, int]:
    found: dict[str, int] = {}
    for tile in tileset.tiles:
        names = {s.constellation for s in tile.stars} | {s.constellation for s in tile.segments}
        for name in names:
            if name:
                found[name] = found.get(name, 0) + 1
    return found


def has_twins(tileset: TileSet) -> bool:
    """Two tiles with the same chamfers and side fragments could swap places."""
    keys = set()
    for tile in tileset.tiles:
        key = (
            tuple(sorted(tile.chamfers)),
            tuple(tuple((round(t, 2), name) for t, name in tile.fragments(side)) for side in SIDES),
        )
        if key in keys:
            return True
        keys.add(key)
    return False


def picture_figures() -> tuple[SkyConstellation, ...]:
    """The 88 IAU constellations with their picture stars."""
    return tuple(replace(c, stars=c.picture_stars, more=()) for c in default_sky().iau)


def ranked_candidates(
    constellations: tuple[SkyConstellation, ...],
) -> list[tuple[Candidate, list[int]]]:
    """Every grid candidate with exactly 14 whole constellations, Orion and Cancer among them:
    (candidate, whole ones), best first (see the module docstring)."""
    vectors, owner = unit_vectors(constellations)
    index = {c.abbr: k for k, c in enumerate(constellations)}
    needed = [index[abbr] for abbr in SPANS]
    sky = default_sky()
    mid_ra = (sky["Ori"].centre[0] + sky["Cnc"].centre[0]) / 2
    mid_dec = (sky["Ori"].centre[1] + sky["Cnc"].centre[1]) / 2
    found = []
    for ra in RA_GRID:
        for dec in DEC_GRID:
            for angle in ANGLE_GRID:
                plane = project(vectors, float(ra), float(dec), float(angle))
                for side in SIDE_GRID:
                    chosen = whole(inside(plane, float(side)), owner, len(constellations))
                    if len(chosen) == WHOLE and all(k in chosen for k in needed):
                        found.append(
                            (Candidate(float(ra), float(dec), float(side), float(angle)), chosen)
                        )
    return sorted(
        found,
        key=lambda item: (
            round(math.hypot(item[0].ra0 - mid_ra, item[0].dec0 - mid_dec), 6),
            item[0].side,
            abs(item[0].angle),
            item[0].angle,
            item[0].ra0,
            item[0].dec0,
        ),
    )


def main(data: Path = DATA) -> None:
    constellations = picture_figures()
    ranked = ranked_candidates(constellations)
    print(f"{len(ranked)} candidates show 14 whole constellations, Orion and Cancer among them")
    viewport = (0.0, 0.0, float(GRID), float(GRID))
    verified = 0
    rejected = Counter[str]()
    for candidate, chosen in ranked:
        data_chart = chart_data(candidate, constellations, chosen)
        chart = chart_from_data(data_chart, "<generated>")
        tileset = cut(chart, GRID, GRID, viewport)
        found = spans(tileset)
        if any(found.get(abbr) != n for abbr, n in SPANS.items()):
            rejected["spans"] += 1
            continue
        if has_twins(tileset):
            rejected["twins"] += 1
            continue
        shuffled = cut(
            chart,
            GRID,
            GRID,
            viewport,
            shuffle_seed=SHUFFLE_SEED,
            name=f"Real sky, centre RA {candidate.ra0:g}°, Dec {candidate.dec0:+g}°",
        )
        shuffled = replace(shuffled, expected_constellations=WHOLE)
        report = verify(shuffled, count_limit=2, time_limit=60)
        verified += 1
        print(f"{candidate.describe()}: consistent={report.consistent}")
        if report.consistent:
            (data / "nacht_chart.json").write_text(json.dumps(data_chart, indent=1) + "\n")
            (data / "nacht_sky.json").write_text(
                json.dumps(tileset_to_data(shuffled), indent=1) + "\n"
            )
            names = [constellations[k].abbr for k in chosen]
            print(f"written to {data}: {' '.join(names)}, all whole")
            return
        if verified >= VERIFY_LIMIT:
            break
    raise SystemExit(f"no viewport passed every check; rejected: {dict(rejected)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)
