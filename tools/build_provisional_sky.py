"""Build the provisional Nacht der Sterne sky (the shipped set until the real one replaced it).

REPLACED: the shipped ``src/asterion/data/nacht_sky.json`` now comes from real star positions
(tools/build_nacht_sky.py); this script writes its synthetic set into a folder of your choice,
for comparisons with older figures. The set is cut from a synthetic chart: 14 made-up figures
("P01" ... "P14") drawn as random walks on a 10 x 10 chart, cut into 5 x 5 tiles. Seeds are
tried in order until the cut set is consistent and unique (``asterion nacht verify``) with all
14 figures whole. The chart is written beside it (``nacht_chart.json``) so ``asterion nacht
cut`` can reproduce the set.

Run: ``python tools/build_provisional_sky.py OUT_FOLDER`` (deterministic: the same files every
time).
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path
from typing import Any

from asterion.models.nacht_cut import chart_from_data, cut
from asterion.models.nacht_files import tileset_to_data
from asterion.solver.nacht_verify import verify

FIGURES = 14
SIZE = 10.0


def figure(rng: random.Random, number: int) -> dict[str, Any]:
    """A random-walk figure of 4-7 stars, each step 1-2.2 chart units, inside the chart."""
    count = rng.randint(4, 7)
    x, y = rng.uniform(1, SIZE - 1), rng.uniform(1, SIZE - 1)
    stars = [(x, y)]
    while len(stars) < count:
        step, heading = rng.uniform(1.0, 2.2), rng.uniform(0, 6.283)
        nx_, ny_ = x + step * math.cos(heading), y + step * math.sin(heading)
        if 0.2 < nx_ < SIZE - 0.2 and 0.2 < ny_ < SIZE - 0.2:
            x, y = nx_, ny_
            stars.append((x, y))
    lines = [[i, i + 1] for i in range(count - 1)]
    return {
        "abbr": f"P{number:02d}",
        "name": f"Provisional {number}",
        "stars": [
            {"x": round(sx, 3), "y": round(sy, 3), "mag": round(rng.uniform(0.5, 4.5), 1)}
            for sx, sy in stars
        ],
        "lines": lines,
    }


def chart_data(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "format": "asterion.chart/1",
        "name": f"Provisional sky (synthetic, seed {seed})",
        "constellations": [figure(rng, n) for n in range(1, FIGURES + 1)],
    }


def main(out: Path) -> None:
    for seed in range(1, 10_000):
        data = chart_data(seed)
        chart = chart_from_data(data, "<generated>")
        tileset = cut(chart, 5, 5, (0.0, 0.0, SIZE, SIZE), shuffle_seed=seed)
        report = verify(tileset, count_limit=2, time_limit=30)
        whole = len(report.constellations) == FIGURES
        if report.consistent and whole:
            sky = tileset_to_data(tileset)
            sky["expected_constellations"] = FIGURES
            (out / "nacht_chart.json").write_text(json.dumps(data, indent=1) + "\n")
            (out / "nacht_sky.json").write_text(json.dumps(sky, indent=1) + "\n")
            print(f"seed {seed}: consistent and unique; written to {out}")
            return
    raise SystemExit("no seed gave a consistent sky")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python tools/build_provisional_sky.py OUT_FOLDER")
    main(Path(sys.argv[1]))
