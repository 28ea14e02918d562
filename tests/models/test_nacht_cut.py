"""The sky cutter: chamfers per cell, clipping worked by hand, fragments as the woven charts
plan them, stars kept once, shuffling, and the solved order re-checked side by side."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest
from nacht_charts import (
    chart_of_plan,
    sparse_chart,
    unit_viewport,
    woven_chart,
    woven_plan,
)

from asterion.errors import InputError
from asterion.models.edges import check_arrangement
from asterion.models.nacht import Role, Tile, TileSet, edge_problem, mirror
from asterion.models.nacht_cut import (
    MAX_COORDINATE,
    NUDGE,
    Chart,
    ChartConstellation,
    chart_from_data,
    clip,
    cut,
    default_viewport,
)
from asterion.solver.nacht_solve import solve_tileset

# -- chamfers -------------------------------------------------------------------------------------

# A 4 x 3 grid by hand (rules/nacht.md: a corner is chamfered when it is an interior vertex).
CHAMFERS_4X3 = (
    ({"SE"}, {"SW", "SE"}, {"SW", "SE"}, {"SW"}),
    ({"NE", "SE"}, {"NE", "NW", "SW", "SE"}, {"NE", "NW", "SW", "SE"}, {"NW", "SW"}),
    ({"NE"}, {"NW", "NE"}, {"NW", "NE"}, {"NW"}),
)


def test_cut_chamfers_cell_by_cell() -> None:
    tileset = cut(woven_chart(4, 3, 0), 4, 3, unit_viewport(4, 3))
    for i, tile in enumerate(tileset.tiles):
        assert tile.chamfers == CHAMFERS_4X3[i // 4][i % 4], tile.id
    # A border tile's two chamfers are on its inner side, away from the picture's edge.
    assert tileset.tiles[1].border_sides() == ("N",)
    assert tileset.tiles[4].border_sides() == ("W",)
    assert tileset.tiles[7].border_sides() == ("E",)
    assert tileset.tiles[9].border_sides() == ("S",)


@pytest.mark.parametrize(("width", "height"), [(2, 2), (5, 5), (6, 3), (2, 7)])
def test_chamfer_counts(width: int, height: int) -> None:
    tileset = cut(sparse_chart(width, height, 1), width, height, unit_viewport(width, height))
    roles = Counter(tile.role() for tile in tileset.tiles)
    assert roles[Role.CORNER] == 4
    assert roles[Role.BORDER] == 2 * (width - 2) + 2 * (height - 2)
    assert roles[Role.INTERIOR] == (width - 2) * (height - 2)
    assert roles[Role.INVALID] == 0
    assert tileset.markers == (width - 1) * (height - 1)


# -- clipping -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # From the west into the middle.
        ((-1.0, 0.5), (0.5, 0.5), ((0.0, 0.5), (0.5, 0.5))),
        # The direction is kept.
        ((0.5, 0.5), (-1.0, 0.5), ((0.5, 0.5), (0.0, 0.5))),
        # Wholly inside: unchanged.
        ((0.2, 0.3), (0.7, 0.9), ((0.2, 0.3), (0.7, 0.9))),
        # Corner to corner, from outside to outside.
        ((-0.5, -0.5), (1.5, 1.5), ((0.0, 0.0), (1.0, 1.0))),
        # Vertical through: x = 0.2 from y = -1 to 2.
        ((0.2, -1.0), (0.2, 2.0), ((0.2, 0.0), (0.2, 1.0))),
        # Steep: y = -1 + 12 (x - 0.5); y = 0 at x = 7/12, y = 1 at x = 2/3.
        ((0.5, -1.0), (0.75, 2.0), ((0.583333333, 0.0), (0.666666667, 1.0))),
        # Enters through W (y = 0.75 at x = 0), leaves through N (x = 0.5 at y = 1).
        ((-0.5, 0.5), (1.0, 1.25), ((0.0, 0.75), (0.5, 1.0))),
        # Wholly outside, beside the square and beyond a corner.
        ((1.5, 0.0), (1.5, 1.0), None),
        ((1.5, 0.8), (0.8, 1.5), None),
        # Cutting the NE corner off: x + y = 1.7.
        ((1.2, 0.5), (0.5, 1.2), ((1.0, 0.7), (0.7, 1.0))),
        # Touching a corner only: nothing of length is inside.
        ((-0.5, 0.5), (0.5, 1.5), None),
        # Ending exactly on a side from outside: a point.
        ((-1.0, 0.5), (0.0, 0.5), None),
    ],
)
def test_clip_cases_by_hand(a: tuple[float, float], b: tuple[float, float], expected: Any) -> None:
    got = clip(a, b)
    if expected is None:
        assert got is None
    else:
        assert got is not None
        for point, want in zip(got, expected, strict=True):
            assert point == pytest.approx(want, abs=1e-9)


def test_a_line_through_a_tile_corner_leaves_no_fragment() -> None:
    # 2 x 2: from the middle of the SW tile to the middle of the NE tile, through the
    # centre vertex. The NW and SE tiles are only touched at a point.
    chart = Chart(
        "d", (ChartConstellation("D", "", ((0.5, 0.5, 1.0), (1.5, 1.5, 1.0)), ((0, 1),)),)
    )
    tileset = cut(chart, 2, 2, unit_viewport(2, 2))
    nw, ne, sw, se = tileset.tiles
    assert nw.segments == se.segments == ()
    assert len(ne.segments) == len(sw.segments) == 1
    assert all(tile.fragments(side) == () for tile in tileset.tiles for side in "NESW")


def test_a_line_ending_on_a_tile_side_is_continued_or_not_marked() -> None:
    # 2 x 2: a line from the middle of the SW tile east to a star on the boundary x = 1.
    stars = ((0.5, 0.5, 1.0), (1.0, 0.5, 2.0))
    chart = Chart("edge", (ChartConstellation("A", "", stars, ((0, 1),)),))
    tileset = cut(chart, 2, 2, unit_viewport(2, 2))
    sw, se = tileset.tiles[2], tileset.tiles[3]
    # The neighbour continues what a side shows (nacht_cut's docstring): facing sides read
    # the same points, each clockwise.
    assert mirror(sw.fragments("E")) == se.fragments("W")


# -- woven charts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "seed"), [(2, 2, 0), (4, 3, 1), (3, 5, 2), (6, 6, 3)])
def test_woven_fragments_are_as_planned(width: int, height: int, seed: int) -> None:
    plan = woven_plan(width, height, seed)
    tileset = cut(chart_of_plan(plan), width, height, unit_viewport(width, height))
    for i, tile in enumerate(tileset.tiles):
        r, c = divmod(i, width)
        row, col = f"R{r}", f"C{c}"
        # Read clockwise: E north to south (1 - height), W south to north (height),
        # N west to east (offset), S east to west (1 - offset).
        expected = {
            "E": ((1 - plan.rows[r][c], row),) if c < width - 1 else (),
            "W": ((plan.rows[r][c - 1], row),) if c > 0 else (),
            "N": ((plan.columns[c][r - 1], col),) if r > 0 else (),
            "S": ((1 - plan.columns[c][r], col),) if r < height - 1 else (),
        }
        for side, want in expected.items():
            got = tile.fragments(side)
            assert [name for _, name in got] == [name for _, name in want], (tile.id, side)
            assert [t for t, _ in got] == pytest.approx([t for t, _ in want], abs=1e-9)


def length(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def test_cut_pieces_lie_on_the_chart_lines_and_add_up_to_them() -> None:
    width, height = 5, 4
    chart = woven_chart(width, height, 7)
    tileset = cut(chart, width, height, unit_viewport(width, height))
    pieces: dict[str, float] = Counter()
    for i, tile in enumerate(tileset.tiles):
        r, c = divmod(i, width)
        for segment in tile.segments:
            a, b = ((c + x, height - 1 - r + y) for x, y in (segment.a, segment.b))
            assert min(segment.a + segment.b) >= 0 and max(segment.a + segment.b) <= 1
            con = next(k for k in chart.constellations if k.abbr == segment.constellation)
            # Collinear with, and within, one of the constellation's lines.
            on_line = [
                (p, q)
                for p, q in ((con.stars[i][:2], con.stars[j][:2]) for i, j in con.lines)
                if abs(length(p, a) + length(a, q) - length(p, q)) < 1e-7
                and abs(length(p, b) + length(b, q) - length(p, q)) < 1e-7
            ]
            assert on_line, (tile.id, segment)
            pieces[segment.constellation] += length(a, b)
    for con in chart.constellations:
        total = sum(length(con.stars[i][:2], con.stars[j][:2]) for i, j in con.lines)
        assert pieces[con.abbr] == pytest.approx(total, abs=1e-6)


def content(tile: Tile) -> object:
    """A tile without its id."""
    return (tile.chamfers, tile.stars, tile.segments)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shuffle_keeps_the_tiles_and_solving_puts_them_back(seed: int) -> None:
    width, height = 4, 4
    chart = woven_chart(width, height, seed)
    plain = cut(chart, width, height, unit_viewport(width, height))
    shuffled = cut(chart, width, height, unit_viewport(width, height), shuffle_seed=seed)
    assert Counter(map(content, plain.tiles)) == Counter(map(content, shuffled.tiles))
    assert [t.id for t in shuffled.tiles] == [f"T{n:02d}" for n in range(1, 17)]
    assert [content(t) for t in shuffled.tiles] != [content(t) for t in plain.tiles]
    solved = solve_tileset(shuffled, engine="cp-sat", count_limit=2)
    assert solved.result.count == 1 and solved.result.complete
    (arrangement,) = solved.result.solutions
    assert check_arrangement(edge_problem(shuffled).problem, arrangement) == []
    for r, row in enumerate(arrangement):
        for c, placed in enumerate(row):
            assert content(shuffled.tiles[placed.piece]) == content(plain.tiles[r * width + c])


def test_constellations_present_and_names() -> None:
    chart = woven_chart(3, 2, 0)
    tileset = cut(chart, 3, 2, unit_viewport(3, 2), name="mine")
    assert tileset.name == "mine"
    assert [c.abbr for c in tileset.constellations] == ["R0", "R1", "C0", "C1", "C2"]
    # Cut a single column: only its own line and the two row lines are on it.
    left = cut(chart, 2, 2, (0.0, 0.0, 1.0, 1.0))
    assert {c.abbr for c in left.constellations} <= {"R0", "R1", "C0"}
    assert cut(chart, 3, 2, unit_viewport(3, 2)).name == chart.name


# -- stars ----------------------------------------------------------------------------------------


def test_each_star_is_kept_once() -> None:
    # 3 x 2, viewport (0, 0, 3, 2): row 0 is y in [1, 2], row 1 is y in [0, 1].
    stars = (
        (1.0, 0.5, 1.0),  # on the boundary x = 1: the eastern tile (1, 1), local (0, 0.5)
        (3.0, 2.0, 2.0),  # the picture's NE corner: tile (0, 2), local (1, 1)
        (0.0, 0.0, 3.0),  # the SW corner: tile (1, 0), local (0, 0)
        (1.5, 1.0, 4.0),  # on the boundary y = 1: the northern tile (0, 1), local (0.5, 0)
        (2.0, 1.0, 5.0),  # on an inner vertex: tile (0, 2), local (0, 0)
        (3.5, 1.0, 6.0),  # outside
        (-0.01, 1.0, 7.0),  # outside
        (1.5, 2.5, 8.0),  # outside
    )
    chart = Chart("s", (ChartConstellation("S", "", stars, ()),))
    tileset = cut(chart, 3, 2, unit_viewport(3, 2))
    where = {
        star.mag: (i, star.x, star.y) for i, tile in enumerate(tileset.tiles) for star in tile.stars
    }
    total = sum(len(tile.stars) for tile in tileset.tiles)
    assert total == len(where) == 5
    # Stars on an inner seam move NUDGE of a tile into their own tile (nacht_cut docstring).
    assert where == {
        1.0: (4, NUDGE, 0.5),
        2.0: (2, 1.0, 1.0),
        3.0: (3, 0.0, 0.0),
        4.0: (1, 0.5, NUDGE),
        5.0: (2, NUDGE, NUDGE),
    }
    assert all(star.constellation == "S" for tile in tileset.tiles for star in tile.stars)


@pytest.mark.parametrize(("width", "height"), [(3, 3), (5, 2), (2, 6)])
def test_the_default_viewport_keeps_every_star(width: int, height: int) -> None:
    chart = woven_chart(4, 4, 5)
    x0, y0, x1, y1 = default_viewport(chart, width, height)
    assert (x1 - x0) / (y1 - y0) == pytest.approx(width / height)
    bx0, by0, bx1, by1 = chart.bounds()
    assert x0 < bx0 and y0 < by0 and bx1 < x1 and by1 < y1
    tileset = cut(chart, width, height)
    kept = Counter(s.mag for tile in tileset.tiles for s in tile.stars)
    assert kept == Counter(s[2] for c in chart.constellations for s in c.stars)


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("viewport", "grid"),
    [
        ((0.0, 0.0, 4.0, 4.0), (4, 3)),  # square viewport, 4/3 grid
        ((0.0, 0.0, 3.0, 4.0), (4, 3)),  # turned
        ((0.0, 0.0, 5.0, 5.01), (5, 5)),
        ((1.0, 0.0, 1.0, 1.0), (2, 2)),  # empty
        ((0.0, 1.0, 1.0, 0.0), (2, 2)),  # upside down
    ],
)
def test_a_viewport_of_the_wrong_shape_is_bad_input(
    viewport: tuple[float, float, float, float], grid: tuple[int, int]
) -> None:
    with pytest.raises(InputError) as caught:
        cut(woven_chart(4, 3, 0), *grid, viewport)
    assert caught.value.field == "viewport"
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("grid", [(1, 5), (5, 1), (33, 2), (2, 33)])
def test_a_grid_out_of_range_is_bad_input(grid: tuple[int, int]) -> None:
    with pytest.raises(InputError) as caught:
        cut(woven_chart(2, 2, 0), *grid)
    assert caught.value.field == "grid"


GOOD_CHART: dict[str, Any] = {
    "format": "asterion.chart/1",
    "name": "two",
    "constellations": [
        {
            "abbr": "A",
            "stars": [{"x": 0.2, "y": 0.2, "mag": 1}, {"x": 1.7, "y": 0.4, "mag": 2}],
            "lines": [[0, 1]],
        },
        {"abbr": "B", "name": "Bee", "stars": [{"x": 1.2, "y": 1.8, "mag": 3, "name": "b"}]},
    ],
}


def test_chart_from_data() -> None:
    chart = chart_from_data(GOOD_CHART, "c.json")
    assert [c.abbr for c in chart.constellations] == ["A", "B"]
    assert chart.constellations[0].lines == ((0, 1),)
    assert chart.constellations[1].stars == ((1.2, 1.8, 3.0),)
    tileset = cut(chart, 2, 2, unit_viewport(2, 2))
    assert isinstance(tileset, TileSet)
    # A crosses x = 1 at y = 0.2 + 0.2 * (0.8 / 1.5) in the southern row: W of tile (1, 1).
    assert tileset.tiles[3].fragments("W") == ((pytest.approx(0.2 + 0.16 / 1.5), "A"),)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["constellations"][0].update(lines=[[0, 2]]), "constellations.0.lines.0"),
        (lambda d: d["constellations"][0].update(lines=[[1, 1]]), "constellations.0.lines.0"),
        (lambda d: d["constellations"][0].update(lines=[[-1, 1]]), "constellations.0.lines.0"),
        (lambda d: d["constellations"][0].update(lines=[[0, -1]]), "constellations.0.lines.0"),
        (lambda d: d["constellations"][1].update(abbr="A"), "constellations.1.abbr"),
        (lambda d: d["constellations"][0]["stars"][0].update(x=float("nan")), "constellations.0"),
        (lambda d: d.update(constellations=[]), "constellations"),
        (lambda d: d.update(extra=1), "extra"),
    ],
)
def test_bad_charts(change: Any, field: str) -> None:
    data = {**GOOD_CHART, "constellations": [dict(c) for c in GOOD_CHART["constellations"]]}
    data["constellations"][0]["stars"] = [dict(s) for s in data["constellations"][0]["stars"]]
    change(data)
    with pytest.raises(InputError) as caught:
        chart_from_data(data, "c.json")
    assert caught.value.field is not None and caught.value.field.startswith(field)
    assert str(caught.value).startswith("c.json: ")


# -- a mutation audit: the default viewport by hand, the chart format's bounds ------------------


@pytest.mark.parametrize(
    ("grid", "expected"),
    [
        # Stars span 10 x 5 from (2, 1); widened by 5 % each side: 11 x 5.5, centred on
        # (7, 3.5). A 4 x 2 grid: tiles max(11 / 4, 5.5 / 2) = 2.75 wide, 11 x 5.5 in all.
        ((4, 2), (1.5, 0.75, 12.5, 6.25)),
        # A 2 x 2 grid: tiles max(11 / 2, 5.5 / 2) = 5.5 wide, 11 x 11 in all.
        ((2, 2), (1.5, -2.0, 12.5, 9.0)),
        # An 8 x 2 grid: tiles max(11 / 8, 5.5 / 2) = 2.75 wide, 22 x 5.5 in all.
        ((8, 2), (-4.0, 0.75, 18.0, 6.25)),
    ],
)
def test_the_default_viewport_by_hand(
    grid: tuple[int, int], expected: tuple[float, float, float, float]
) -> None:
    chart = Chart("two", (ChartConstellation("A", "", ((2.0, 1.0, 1.0), (12.0, 6.0, 1.0)), ()),))
    assert default_viewport(chart, *grid) == pytest.approx(expected)


def test_a_chart_of_one_constellation_is_good() -> None:
    data = {**GOOD_CHART, "constellations": GOOD_CHART["constellations"][:1]}
    assert [c.abbr for c in chart_from_data(data, "c.json").constellations] == ["A"]


def test_a_constellation_needs_an_abbreviation() -> None:
    data = {**GOOD_CHART, "constellations": [{**GOOD_CHART["constellations"][0], "abbr": ""}]}
    with pytest.raises(InputError) as caught:
        chart_from_data(data, "c.json")
    assert caught.value.field is not None and caught.value.field.startswith("constellations.0.abbr")


def test_a_shifted_viewport_cuts_the_same_tiles() -> None:
    # The stars of test_each_star_is_kept_once and their viewport moved 10 east and 20 north
    # together: every star lands on the same tile at the same local place (seams, the picture's
    # NE corner, the stars outside), and a line keeps its fragments.
    stars = ((1.0, 0.5, 1.0), (3.0, 2.0, 2.0), (0.0, 0.0, 3.0), (1.5, 1.0, 4.0), (2.0, 1.0, 5.0))
    stars += ((3.5, 1.0, 6.0), (-0.01, 1.0, 7.0), (1.5, 2.5, 8.0))
    lines = ((0, 3),)

    def where(dx: float, dy: float) -> tuple[object, ...]:
        moved = tuple((x + dx, y + dy, mag) for x, y, mag in stars)
        chart = Chart("s", (ChartConstellation("S", "", moved, lines),))
        tileset = cut(chart, 3, 2, (dx, dy, dx + 3.0, dy + 2.0))
        placed = sorted(
            (star.mag, i, round(star.x, 6), round(star.y, 6))
            for i, tile in enumerate(tileset.tiles)
            for star in tile.stars
        )
        fragments = [[tile.fragments(side) for side in "NESW"] for tile in tileset.tiles]
        return placed, fragments

    assert len(where(0.0, 0.0)[0]) == 5
    assert where(10.0, 20.0) == where(0.0, 0.0)


def test_viewport_edges_at_the_coordinate_bound_are_good() -> None:
    # "given viewport edges lie within +-MAX_COORDINATE": the bound itself is within.
    m = MAX_COORDINATE
    tileset = cut(woven_chart(2, 2, 0), 2, 2, (m - 2.0, -m, m, -m + 2.0))
    assert len(tileset.tiles) == 4


def test_a_chart_built_in_code_with_an_infinite_star_is_bad_input() -> None:
    for star in ((0.5, math.inf, 1.0), (math.inf, 0.5, 1.0)):
        chart = Chart("c", (ChartConstellation("A", "", (star,), ()),))
        with pytest.raises(InputError) as caught:
            cut(chart, 2, 2, unit_viewport(2, 2))
        assert caught.value.field == "constellations"


def alone_and_bridge() -> Chart:
    """A: one star at (0.5, 1.5), no line; B: stars at (-1, 0.5) and (3, 0.5), one line."""
    return Chart(
        "two",
        (
            ChartConstellation("A", "Alone", ((0.5, 1.5, 2.0),), ()),
            ChartConstellation("B", "Bridge", ((-1.0, 0.5, 2.0), (3.0, 0.5, 2.0)), ((0, 1),)),
        ),
    )


def test_a_constellation_is_present_by_a_star_or_by_a_line_alone() -> None:
    # "A constellation spans the tiles its stars and lines lie on": in the viewport
    # (0, 0)-(2, 2), A has one star and no line; B's two stars lie outside, but its line
    # along y = 0.5 crosses the bottom row. Both are on the tiles.
    tileset = cut(alone_and_bridge(), 2, 2, (0.0, 0.0, 2.0, 2.0))
    assert [c.abbr for c in tileset.constellations] == ["A", "B"]


def test_a_cut_is_5x5_without_lines_leaving_the_sky_by_default() -> None:
    # "Every tool takes W and H; 5 × 5 is the default"; N3: allow_border_fragments = False.
    tileset = cut(alone_and_bridge())
    assert (tileset.width, tileset.height, len(tileset.tiles)) == (5, 5, 25)
    assert not tileset.allow_border_fragments


def test_a_scaled_chart_and_viewport_cut_the_same_tiles() -> None:
    # The stars of test_a_shifted_viewport_cuts_the_same_tiles and their viewport scaled by 2
    # together (tiles 2 chart units wide): tile-local places do not change.
    stars = ((1.0, 0.5, 1.0), (3.0, 2.0, 2.0), (0.0, 0.0, 3.0), (1.5, 1.0, 4.0), (2.0, 1.0, 5.0))
    stars += ((3.5, 1.0, 6.0), (-0.01, 1.0, 7.0), (1.5, 2.5, 8.0))

    def tiles(k: float) -> list[object]:
        scaled = tuple((x * k, y * k, mag) for x, y, mag in stars)
        chart = Chart("s", (ChartConstellation("S", "", scaled, ((0, 3),)),))
        tileset = cut(chart, 3, 2, (0.0, 0.0, 3.0 * k, 2.0 * k))
        return [
            (tile.chamfers, sorted((s.mag, round(s.x, 6), round(s.y, 6)) for s in tile.stars))
            for tile in tileset.tiles
        ] + [[tile.fragments(side) for side in "NESW"] for tile in tileset.tiles]

    assert tiles(2.0) == tiles(1.0)


@pytest.mark.parametrize("grid", [(2, 32), (32, 2)])
def test_a_grid_side_of_32_is_the_largest_accepted(grid: tuple[int, int]) -> None:
    # The issue: "a grid over 32x32" is refused, so a side of 32 itself is good.
    width, height = grid
    tileset = cut(woven_chart(2, 2, 0), width, height)
    assert (tileset.width, tileset.height, len(tileset.tiles)) == (width, height, 64)
