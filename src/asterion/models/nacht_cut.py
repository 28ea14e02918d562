"""The sky cutter: a star chart cut into W x H chamfered tiles.

A chart (``asterion.chart/1``) is a plane picture: constellations with stars at plane
coordinates (x east, y north, any unit), magnitudes, and lines between stars given as pairs of
star indices::

    {"format": "asterion.chart/1", "name": "Winter sky",
     "constellations": [{"abbr": "Ori", "name": "Orion",
                         "stars": [{"x": 5.9, "y": 7.4, "mag": 0.5, "name": "Betelgeuse"}, ...],
                         "lines": [[0, 1], [1, 2]]}]}

The viewport (x0, y0, x1, y1) is the part of the plane the picture shows; its width over its
height must be W over H, since tiles are square. Star coordinates and given viewport edges lie
within +-:data:`MAX_COORDINATE` and tiles are at least :data:`MIN_TILE_SIDE` wide, so that the cut
keeps its precision and never overflows. Stars outside are dropped; lines are clipped
to each tile (Liang-Barsky), so every piece that ends on a tile side leaves a fragment the
neighbour continues. A line that leaves the viewport leaves a fragment on the outer border,
which the verifier reports unless ``allow_border_fragments`` (N3) is set.

Where a line passes exactly through a tile corner it crosses into the diagonal tile, which no
side can show; such crossings are dropped from the signatures (nacht.ON_SIDE).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.edges import MAX_SIDE, MIN_SIDE
from asterion.models.files import read_json_file, read_json_text, validate
from asterion.models.nacht import (
    Constellation,
    Point,
    Segment,
    Star,
    Tile,
    TileSet,
    chamfers_for,
)

CHART_FORMAT = "asterion.chart/1"
MAX_STARS = 20_000
MAX_COORDINATE = 1e6
"""Largest |x| or |y| of a star or a given viewport edge. Doubles carry about 16 digits: within this
bound and with tiles at least :data:`MIN_TILE_SIDE` wide, a coordinate in tile units keeps about
7 digits, beyond :data:`MIN_PIECE`, and no difference or quotient overflows."""
MIN_TILE_SIDE = 1e-3
"""Narrowest tile (chart units): a zero, denormal or tiny viewport has no room for precision."""
MIN_PIECE = 1e-6
"""Clipped line pieces shorter than this (in tile units) are dropped: a corner touch."""
NUDGE = 1e-4
"""How far (in tiles) a star on a seam moves into its own tile (see ``_off_the_seams``)."""


class _ChartStar(BaseModel):
    model_config = ConfigDict(extra="forbid")
    x: float = Field(allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    y: float = Field(allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    mag: float = Field(ge=-30, le=30)
    name: str = Field(default="", max_length=100)


class _ChartConstellation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    abbr: str = Field(min_length=1, max_length=16)
    name: str = Field(default="", max_length=100)
    stars: list[_ChartStar] = Field(max_length=MAX_STARS)
    lines: list[tuple[int, int]] = Field(default_factory=list, max_length=MAX_STARS)


class ChartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.chart/1"] = "asterion.chart/1"
    name: str = Field(default="", max_length=200)
    constellations: list[_ChartConstellation] = Field(min_length=1, max_length=MAX_STARS)


@dataclass(frozen=True)
class ChartConstellation:
    abbr: str
    name: str
    stars: tuple[tuple[float, float, float], ...]
    """(x, y, magnitude) in chart coordinates."""
    lines: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Chart:
    name: str
    constellations: tuple[ChartConstellation, ...]

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [s[0] for c in self.constellations for s in c.stars]
        ys = [s[1] for c in self.constellations for s in c.stars]
        return min(xs), min(ys), max(xs), max(ys)


SHIPPED_CHART = "nacht_chart.json"
"""The shipped chart's name in the package's data."""

Viewport = tuple[float, float, float, float]
"""(x0, y0, x1, y1): west, south, east, north edges in chart coordinates."""


def load_chart(path: Path | str) -> Chart:
    return chart_from_data(read_json_file(path), str(path))


@cache
def shipped_chart() -> Chart:
    """The chart the shipped sky is cut from (``data/nacht_chart.json``)."""
    text = resources.files("asterion.data").joinpath(SHIPPED_CHART).read_text("utf-8")
    return chart_from_data(read_json_text(text, SHIPPED_CHART), SHIPPED_CHART)


def chart_from_data(data: Any, source: str) -> Chart:
    spec = validate(ChartSpec, data, source)
    constellations = []
    seen: set[str] = set()
    for i, c in enumerate(spec.constellations):
        if c.abbr in seen:
            raise InputError(
                f"duplicate constellation {c.abbr!r}",
                source=source,
                field=f"constellations.{i}.abbr",
            )
        seen.add(c.abbr)
        for j, (a, b) in enumerate(c.lines):
            if not (0 <= a < len(c.stars) and 0 <= b < len(c.stars)) or a == b:
                raise InputError(
                    f"line [{a}, {b}] must join two different stars 0..{len(c.stars) - 1}",
                    source=source,
                    field=f"constellations.{i}.lines.{j}",
                )
        stars = tuple((s.x, s.y, s.mag) for s in c.stars)
        constellations.append(ChartConstellation(c.abbr, c.name, stars, tuple(c.lines)))
    if not any(c.stars for c in constellations):
        raise InputError("the chart has no stars", source=source, field="constellations")
    return Chart(spec.name, tuple(constellations))


def default_viewport(chart: Chart, width: int, height: int, margin: float = 0.05) -> Viewport:
    """The chart's bounding box, widened by ``margin`` and to the grid's aspect, centred;
    tiles at least :data:`MIN_TILE_SIDE` wide (a one-star chart has no extent), with a factor
    of 2 to spare so that rounding at the edges cannot take them below it."""
    x0, y0, x1, y1 = chart.bounds()
    span_x = (x1 - x0) * (1 + 2 * margin)
    span_y = (y1 - y0) * (1 + 2 * margin)
    side = max(span_x / width, span_y / height, 2 * MIN_TILE_SIDE)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (
        cx - side * width / 2,
        cy - side * height / 2,
        cx + side * width / 2,
        cy + side * height / 2,
    )


def cut(
    chart: Chart,
    width: int = 5,
    height: int = 5,
    viewport: Viewport | None = None,
    *,
    allow_border_fragments: bool = False,
    shuffle_seed: int | None = None,
    name: str | None = None,
) -> TileSet:
    """Cut the chart into tiles, in reading order (row 0 = north), ids ``T01``...

    With ``shuffle_seed`` the tiles are listed in a shuffled order and numbered in that order,
    so the file does not give the solution away.
    """
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise InputError(
            f"grid {width}x{height}: each side must lie in {MIN_SIDE}..{MAX_SIDE}", field="grid"
        )
    _check_extent(chart)
    if viewport is not None:  # the default one is made from checked stars
        _check_edges(viewport)
    view = viewport or default_viewport(chart, width, height)
    side = _tile_side(view, width, height)
    chart = _off_the_seams(chart, view, side, width, height)
    cells = [(r, c) for r in range(height) for c in range(width)]
    contents = {cell: _cut_tile(chart, view, side, cell) for cell in cells}
    order = list(cells)
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(order)
    digits = len(str(len(order)))
    tiles = []
    for number, (r, c) in enumerate(order, 1):
        stars, segments = contents[r, c]
        tiles.append(
            Tile(f"T{number:0{digits}d}", chamfers_for(width, height, r, c), stars, segments)
        )
    present = {s.constellation for t in tiles for s in t.stars}
    present |= {s.constellation for t in tiles for s in t.segments}
    constellations = tuple(
        Constellation(c.abbr, c.name) for c in chart.constellations if c.abbr in present
    )
    return TileSet(
        name=name if name is not None else chart.name,
        width=width,
        height=height,
        tiles=tuple(tiles),
        constellations=constellations,
        allow_border_fragments=allow_border_fragments,
        markers=(width - 1) * (height - 1),
    )


def _off_the_seams(chart: Chart, view: Viewport, side: float, width: int, height: int) -> Chart:
    """Stars lying exactly on a seam between tiles, moved a hair (:data:`NUDGE` of a tile)
    into the tile that owns them (east, north), so that a line ending at such a star enters
    that tile and both facing sides show its fragment."""

    def shifted(value: float, origin: float, cells: int) -> float:
        position = (value - origin) / side
        seam = round(position)
        on_seam = 0 < seam < cells and abs(position - seam) <= 1e-9
        return origin + (seam + NUDGE) * side if on_seam else value

    return replace(
        chart,
        constellations=tuple(
            replace(
                con,
                stars=tuple(
                    (shifted(x, view[0], width), shifted(y, view[1], height), mag)
                    for x, y, mag in con.stars
                ),
            )
            for con in chart.constellations
        ),
    )


def _check_extent(chart: Chart) -> None:
    """Charts built in code skip the file's bounds; the cut's arithmetic needs them too."""
    coordinates = (v for con in chart.constellations for star in con.stars for v in star[:2])
    if not all(abs(v) <= MAX_COORDINATE for v in coordinates):  # also False for NaN
        raise InputError(
            f"star coordinates must be finite and within +-{MAX_COORDINATE:g}",
            field="constellations",
        )


def _check_edges(view: Viewport) -> None:
    for edge, value in zip(("x0", "y0", "x1", "y1"), view, strict=True):
        if not abs(value) <= MAX_COORDINATE:  # written so that NaN fails too
            raise InputError(
                f"{edge} is {value}; edges must be finite and within +-{MAX_COORDINATE:g}",
                field="viewport",
            )


def _tile_side(view: Viewport, width: int, height: int) -> float:
    x0, y0, x1, y1 = view
    if x1 <= x0 or y1 <= y0:
        raise InputError("the viewport must have x0 < x1 and y0 < y1", field="viewport")
    side_x, side_y = (x1 - x0) / width, (y1 - y0) / height
    if min(side_x, side_y) < MIN_TILE_SIDE:
        raise InputError(
            f"tiles would be {min(side_x, side_y):.3g} chart units wide; "
            f"the least is {MIN_TILE_SIDE:g}",
            field="viewport",
        )
    if abs(side_x - side_y) > 1e-6 * max(side_x, side_y):
        raise InputError(
            f"the viewport's width/height is {(x1 - x0) / (y1 - y0):.4g}; "
            f"square tiles need {width}/{height}",
            field="viewport",
        )
    return side_x


def _cut_tile(
    chart: Chart, view: Viewport, side: float, cell: tuple[int, int]
) -> tuple[tuple[Star, ...], tuple[Segment, ...]]:
    r, c = cell
    west, north = view[0] + c * side, view[3] - r * side

    def local(x: float, y: float) -> Point:
        return ((x - west) / side, (y - (north - side)) / side)

    stars: list[Star] = []
    segments: list[Segment] = []
    for con in chart.constellations:
        for x, y, mag in con.stars:
            u, v = local(x, y)
            if _owns(u, v, cell, view, side):
                stars.append(Star(_snap(u), _snap(v), mag, con.abbr))
        for a, b in con.lines:
            piece = clip(local(*con.stars[a][:2]), local(*con.stars[b][:2]))
            if piece is not None:
                segments.append(Segment(con.abbr, piece[0], piece[1]))
    return tuple(stars), tuple(segments)


def _owns(u: float, v: float, cell: tuple[int, int], view: Viewport, side: float) -> bool:
    """Half-open cells (west and south sides included) so a star on a line lies on one tile;
    the picture's east and north edges belong to the last column and the first row."""
    r, c = cell
    columns = round((view[2] - view[0]) / side)
    east_ok = u < 1 or (c == columns - 1 and u <= 1 + 1e-12)
    north_ok = v < 1 or (r == 0 and v <= 1 + 1e-12)
    return u >= 0 and east_ok and v >= 0 and north_ok


def clip(a: Point, b: Point) -> tuple[Point, Point] | None:
    """The part of segment ab inside the unit square (Liang-Barsky), ends snapped to the sides;
    None when nothing longer than :data:`MIN_PIECE` is inside.

    >>> clip((-1.0, 0.5), (0.5, 0.5))
    ((0.0, 0.5), (0.5, 0.5))
    """
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0), (dx, 1 - x0), (-dy, y0), (dy, 1 - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    start = (_snap(x0 + t0 * dx), _snap(y0 + t0 * dy))
    end = (_snap(x0 + t1 * dx), _snap(y0 + t1 * dy))
    if (end[0] - start[0]) ** 2 + (end[1] - start[1]) ** 2 < MIN_PIECE**2:
        return None
    return start, end


def _snap(value: float) -> float:
    """Round away float noise: exact 0 and 1 on the sides, 9 decimals elsewhere."""
    return round(min(max(value, 0.0), 1.0), 9)
