"""Star charts built for the Nacht der Sterne tests, with cut sets whose answer is known.

Chart coordinates are chosen so that the viewport ``(0, 0, W, H)`` makes every tile one unit:
tile (row r, column c), row 0 = north, covers x in [c, c + 1] and y in [H - 1 - r, H - r].

A *woven* chart has one constellation per row (``R<r>``) and one per column (``C<c>``):

- row r's line runs west to east through every tile of the row, crossing the vertical boundary
  x = b (b = 1 .. W - 1) horizontally at height ``rows[r][b - 1]`` above the row's southern
  side; its stars sit at x = c + 0.25 and c + 0.75, so the line never leaves the row and ends
  inside the two border tiles;
- column c's line runs north to south through every tile of the column, crossing the
  horizontal boundary between rows b - 1 and b (b = 1 .. H - 1) vertically at offset
  ``columns[c][b - 1]`` east of the column's western side, never leaving the column.

Every crossing value is taken from :data:`CROSSINGS`, all in (0, 0.5) and at least 0.07 apart,
and within one line no value repeats. So a side's signature names the row or column of its
line, and the offset (t on one side, 1 - t on the facing side, both read clockwise) tells the
boundary within that line: values and their mirrors never come within the tolerance N1 (0.02)
of another. Every inner side therefore fits exactly one other side, the tiles can only be laid
as cut (up to turning the whole picture when tiles may turn), and the set is unique.

A *sparse* chart has a single constellation with one short line: most tiles are blank and
tiles with the same chamfers are interchangeable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from asterion.models.nacht_cut import Chart, ChartConstellation, Viewport

CROSSINGS = (0.05, 0.12, 0.19, 0.26, 0.33, 0.40, 0.47)
"""Crossing heights/offsets within a tile side: pairwise >= 0.07 apart, and every value at
least 0.06 from every mirror 1 - t, so no two differ by 0.02 or less (N1) and a shift by 0.1
lands at least 0.03 from any of them."""

MAX_WOVEN = len(CROSSINGS) + 1
"""The longest row or column a woven chart supports (one distinct value per boundary)."""


@dataclass(frozen=True)
class WovenPlan:
    """The crossings of a woven chart: ``rows[r][b - 1]`` is where row r's line crosses the
    boundary x = b, as a height above the row's southern side; ``columns[c][b - 1]`` where
    column c's line crosses the boundary under row b - 1, as an offset east of x = c."""

    width: int
    height: int
    rows: tuple[tuple[float, ...], ...]
    columns: tuple[tuple[float, ...], ...]


def woven_plan(width: int, height: int, seed: int) -> WovenPlan:
    if not (2 <= width <= MAX_WOVEN and 2 <= height <= MAX_WOVEN):
        raise ValueError(f"woven charts run from 2x2 to {MAX_WOVEN}x{MAX_WOVEN}")
    rng = random.Random(seed)
    rows = tuple(tuple(rng.sample(CROSSINGS, width - 1)) for _ in range(height))
    columns = tuple(tuple(rng.sample(CROSSINGS, height - 1)) for _ in range(width))
    return WovenPlan(width, height, rows, columns)


def chart_of_plan(plan: WovenPlan, *, name: str = "woven") -> Chart:
    """The chart drawing a plan: magnitudes vary so that stars are not all alike."""
    w, h = plan.width, plan.height
    constellations = []
    for r, heights in enumerate(plan.rows):
        base = h - 1 - r
        # Stars at c + 0.25 and c + 0.75: the pair around boundary b shares its height, so
        # the line crosses it horizontally at exactly that height.
        levels = [heights[0], *(y for y in heights for _ in range(2)), heights[-1]]
        stars = tuple(
            (c + dx, base + levels[2 * c + i], 1.0 + (c % 3) * 0.5)
            for c in range(w)
            for i, dx in enumerate((0.25, 0.75))
        )
        lines = tuple((i, i + 1) for i in range(len(stars) - 1))
        constellations.append(ChartConstellation(f"R{r}", f"Row {r}", stars, lines))
    for c, offsets in enumerate(plan.columns):
        # Row r's tile spans y in [h - 1 - r, h - r]; stars at 0.75 then 0.25 of it (north
        # first), the pair around the boundary under row b - 1 at that boundary's offset.
        levels = [offsets[0], *(x for x in offsets for _ in range(2)), offsets[-1]]
        stars = tuple(
            (c + levels[2 * r + i], h - 1 - r + dy, 2.0 + (r % 2) * 0.5)
            for r in range(h)
            for i, dy in enumerate((0.75, 0.25))
        )
        lines = tuple((i, i + 1) for i in range(len(stars) - 1))
        constellations.append(ChartConstellation(f"C{c}", f"Column {c}", stars, lines))
    return Chart(name, tuple(constellations))


def woven_chart(width: int, height: int, seed: int) -> Chart:
    """A chart whose W x H cut (viewport :func:`unit_viewport`) is provably unique."""
    return chart_of_plan(woven_plan(width, height, seed))


def unit_viewport(width: int, height: int) -> Viewport:
    """The viewport that makes every tile one chart unit."""
    return (0.0, 0.0, float(width), float(height))


def sparse_chart(width: int, height: int, seed: int) -> Chart:
    """One constellation with one short line across one vertical inner boundary; every other
    tile side is blank, so tiles with equal chamfers and no stars can swap places."""
    rng = random.Random(seed)
    r = rng.randrange(height)
    b = rng.randrange(1, width)
    y = height - 1 - r + rng.choice(CROSSINGS)
    stars = ((b - 0.3, y, 1.0), (b + 0.3, y, 2.0))
    return Chart("sparse", (ChartConstellation("Spa", "Sparse", stars, ((0, 1),)),))
