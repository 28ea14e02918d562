"""The verifier: sets cut from woven charts are consistent and unique, and each defect of
issue 4's list is reported as what it is (rules/nacht.md, "What a consistent tile set means").

The woven charts (tests/models/nacht_charts.py) give every inner side a signature of its own,
so their cut is the only arrangement; each test below breaks one thing by hand and names the
finding that thing must produce.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1] / "models"))
from nacht_charts import (
    WovenPlan,
    chart_of_plan,
    sparse_chart,
    unit_viewport,
    woven_chart,
    woven_plan,
)

from asterion.models.edges import Arrangement, Placement, check_arrangement
from asterion.models.nacht import (
    CORNERS,
    Constellation,
    Segment,
    Star,
    Tile,
    TileSet,
    derived_chamfers,
    edge_problem,
)
from asterion.models.nacht_cut import Chart, ChartConstellation, cut
from asterion.solver.nacht_verify import Report, verify

ENGINE = "cp-sat"


def woven(width: int, height: int, seed: int, **options: object) -> TileSet:
    chart = woven_chart(width, height, seed)
    return cut(chart, width, height, unit_viewport(width, height), **options)  # type: ignore[arg-type]


SAFE = (0.26, 0.40, 0.47)
"""Crossings t (a subset of nacht_charts.CROSSINGS) with 1 - (1 - t) == t in floating point,
also after a shift by 0.1 rounded to 9 decimals. A side that a defect leaves without its
partner then does not trip the KeyError of nacht._SignatureColors (shown by
test_a_lone_fragment_at_a_decimal_offset_is_reported), so each defect test below tests the
finding it is about."""


def safe_plan(width: int, height: int, seed: int) -> WovenPlan:
    rng = random.Random(seed)
    rows = tuple(tuple(rng.sample(SAFE, width - 1)) for _ in range(height))
    columns = tuple(tuple(rng.sample(SAFE, height - 1)) for _ in range(width))
    return WovenPlan(width, height, rows, columns)


def safe_woven(width: int, height: int, seed: int) -> TileSet:
    chart = chart_of_plan(safe_plan(width, height, seed))
    return cut(chart, width, height, unit_viewport(width, height))


def codes(report: Report) -> list[str]:
    return [finding.code for finding in report.problems]


def messages(report: Report, code: str) -> list[str]:
    return [finding.message for finding in report.problems if finding.code == code]


def with_tile(tileset: TileSet, index: int, tile: Tile) -> TileSet:
    tiles = list(tileset.tiles)
    tiles[index] = tile
    return replace(tileset, tiles=tuple(tiles))


def content(tile: Tile) -> object:
    """A tile without its id, rounded (turned points are not exact in floating point)."""

    def point(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0], 6) + 0.0, round(p[1], 6) + 0.0)

    return (
        tile.chamfers,
        sorted((point((s.x, s.y)), s.mag, s.constellation or "") for s in tile.stars),
        sorted((point(s.a), point(s.b), s.constellation) for s in tile.segments),
    )


# -- consistent sets ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "height", "seed"), [(2, 2, 0), (3, 3, 1), (5, 5, 2), (4, 3, 3), (3, 6, 4)]
)
def test_woven_sets_are_consistent_and_unique(width: int, height: int, seed: int) -> None:
    plain = woven(width, height, seed)
    shuffled = woven(width, height, seed, shuffle_seed=seed)
    report = verify(shuffled, engine=ENGINE)
    assert report.consistent is True
    assert (report.solutions, report.solutions_exact, report.problems) == (1, True, ())
    # Row lines span their row, column lines their column, each in one piece.
    spans = {span.abbr: (len(span.tiles), span.parts) for span in report.constellations}
    expected = {f"R{r}": (width, 1) for r in range(height)}
    expected |= {f"C{c}": (height, 1) for c in range(width)}
    assert spans == expected
    (arrangement,) = report.placements
    for r, row in enumerate(arrangement):
        for c, placed in enumerate(row):
            assert placed.turns == 0
            tile = shuffled.tiles[placed.piece]
            assert content(tile) == content(plain.tiles[r * width + c])
            assert report.arrangements[0][r][c] == tile.id
    data = report.to_json()
    assert data["consistent"] is True and data["solutions"] == 1 and data["problems"] == []
    assert {c["abbr"]: c["tiles"] for c in data["constellations"]} == {
        abbr: n for abbr, (n, _) in expected.items()
    }


def test_the_default_engine_agrees_on_a_woven_set() -> None:
    report = verify(woven(5, 5, 9, shuffle_seed=1))
    assert (report.consistent, report.solutions, report.problems) == (True, 1, ())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_cut_sets_of_random_charts_fit_side_by_side(seed: int) -> None:
    # Random polylines anywhere inside the viewport: as cut, every side meets the side that
    # continues its lines, so no fragment dangles, none is on the border, and the cut order
    # is an arrangement (there may be others: blank tiles swap).
    rng = random.Random(seed)
    width, height = rng.randint(2, 4), rng.randint(2, 4)
    constellations = []
    for k in range(rng.randint(1, 3)):
        n = rng.randint(2, 5)
        stars = tuple(
            (rng.uniform(0.01, width - 0.01), rng.uniform(0.01, height - 0.01), 1.0)
            for _ in range(n)
        )
        lines = tuple((i, i + 1) for i in range(n - 1))
        constellations.append(ChartConstellation(f"K{k}", "", stars, lines))
    tileset = cut(Chart("r", tuple(constellations)), width, height, unit_viewport(width, height))
    laid = tuple(tuple(Placement(r * width + c) for c in range(width)) for r in range(height))
    assert check_arrangement(edge_problem(tileset).problem, laid) == []
    report = verify(tileset, engine=ENGINE)
    assert report.solutions >= 1
    assert not {"dangling-fragment", "border-fragment", "no-arrangement"} & set(codes(report))


def chained_offsets_set() -> TileSet:
    """2 x 2 by hand, one line per row: row 0 crosses at heights 0.3125 (NW tile's E end) and
    0.34375 (NE tile's W end), 0.03125 apart, more than N1's 0.02: those sides do not fit.
    Row 1 crosses at 0.328125 on both sides (it fits, and lies within 0.02 of both)."""

    def tile(name: str, corner: str, y: float) -> Tile:
        xs = (0.5, 1.0) if corner in ("SE", "NE") else (0.0, 0.5)
        return Tile(name, frozenset({corner}), segments=(Segment("R", (xs[0], y), (xs[1], y)),))

    tiles = (
        tile("A", "SE", 0.3125),
        tile("B", "SW", 0.34375),
        tile("D", "NE", 0.328125),
        tile("E", "NW", 0.328125),
    )
    return TileSet("chain", 2, 2, tiles, constellations=(Constellation("R", ""),))


def test_sides_further_apart_than_the_tolerance_do_not_fit() -> None:
    report = verify(chained_offsets_set(), engine=ENGINE)
    assert report.solutions == 0
    assert "no-arrangement" in codes(report)


# -- a moved fragment -----------------------------------------------------------------------------


def moved(tileset: TileSet, index: int, side: str, shift: float) -> TileSet:
    """Tile ``index`` with the segment end on ``side`` shifted along that side."""
    tile = tileset.tiles[index]
    on_side = {"N": lambda p: p[1] == 1, "S": lambda p: p[1] == 0}
    on_side |= {"E": lambda p: p[0] == 1, "W": lambda p: p[0] == 0}

    def shifted(p: tuple[float, float]) -> tuple[float, float]:
        if not on_side[side](p):
            return p
        if side in "EW":
            return (p[0], round(p[1] + shift, 9))
        return (round(p[0] + shift, 9), p[1])

    segments = tuple(replace(s, a=shifted(s.a), b=shifted(s.b)) for s in tile.segments)
    assert segments != tile.segments
    return with_tile(tileset, index, replace(tile, segments=segments))


# An interior tile of a 4 x 4 (index 5 = row 1, column 1) and its neighbour across the side.
NEIGHBOUR = {"E": (6, "W"), "W": (4, "E"), "N": (1, "S"), "S": (9, "N")}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("side", ["E", "W", "N", "S"])
def test_a_moved_fragment_dangles(seed: int, side: str) -> None:
    tileset = safe_woven(4, 4, seed)
    assert verify(tileset, engine=ENGINE).consistent is True
    broken = moved(tileset, 5, side, 0.1)
    report = verify(broken, engine=ENGINE)
    assert report.consistent is False
    dangling = messages(report, "dangling-fragment")
    other, facing = NEIGHBOUR[side]
    # The moved end continues nowhere, and neither does the end it used to meet.
    assert any(m.startswith(f"tile T06 side {side}:") for m in dangling), dangling
    assert any(m.startswith(f"tile {tileset.tiles[other].id} side {facing}:") for m in dangling), (
        dangling
    )
    assert len(dangling) == 2
    assert set(codes(report)) == {"dangling-fragment", "no-arrangement"}
    assert report.solutions == 0


def test_a_lone_fragment_at_a_decimal_offset_is_reported() -> None:
    # 3 x 2: row 0's line crosses x = 1 at 0.05 and x = 2 at 0.12; move the E end of the
    # western tile: its E side (0.85 now) and the middle tile's W side (0.05) have no partner.
    plan = WovenPlan(3, 2, rows=((0.05, 0.12), (0.26, 0.40)), columns=((0.26,), (0.40,), (0.47,)))
    tileset = cut(chart_of_plan(plan), 3, 2, unit_viewport(3, 2))
    report = verify(moved(tileset, 0, "E", 0.1), engine=ENGINE)
    assert set(codes(report)) == {"dangling-fragment", "no-arrangement"}


# -- a swapped chamfer ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "chamfers", "expected"),
    [
        # Top border tile {SW, SE}: one chamfer moved to the diagonal corner.
        (1, {"SW", "NE"}, {"chamfer-pattern", "chamfer-count"}),
        # ... or to the other corner of an edge: a west-border pattern in the top row.
        (1, {"NE", "SE"}, {"chamfer-count"}),
        # An interior tile losing a chamfer.
        (5, {"NE", "NW", "SW"}, {"chamfer-pattern", "chamfer-count"}),
        # The NW corner {SE} chamfered at NE instead.
        (0, {"NE"}, {"chamfer-count"}),
    ],
)
def test_a_swapped_chamfer(index: int, chamfers: set[str], expected: set[str]) -> None:
    tileset = safe_woven(4, 4, 5)
    tile = tileset.tiles[index]
    report = verify(with_tile(tileset, index, replace(tile, chamfers=frozenset(chamfers))))
    assert report.consistent is False
    found = set(codes(report))
    assert expected <= found, report.problems
    # What else may follow: the tile no longer fits where its lines say.
    assert found <= expected | {"no-arrangement", "border-fragment"}, report.problems
    if "chamfer-pattern" in expected:
        (message,) = messages(report, "chamfer-pattern")
        assert message.startswith(f"tile {tile.id}:")


def test_chamfer_counts_name_both_patterns() -> None:
    tileset = woven(4, 4, 5)
    report = verify(
        with_tile(tileset, 1, replace(tileset.tiles[1], chamfers=frozenset({"NE", "SE"})))
    )
    counts = messages(report, "chamfer-count")
    # 4 x 4: two top border tiles {SW, SE} and two west border tiles {NE, SE}; now 1 and 3.
    assert len(counts) == 2
    assert any(m.startswith("1 tiles") and "needs 2" in m for m in counts), counts
    assert any(m.startswith("3 tiles") and "needs 2" in m for m in counts), counts


# -- a duplicated tile ----------------------------------------------------------------------------


def test_a_duplicated_tile() -> None:
    tileset = safe_woven(3, 3, 6)
    copy = replace(tileset.tiles[0], id="X")
    report = verify(with_tile(tileset, 4, copy), engine=ENGINE)
    assert report.consistent is False
    (duplicate,) = messages(report, "duplicate-tile")
    assert "T1" in duplicate and "X" in duplicate
    assert {"duplicate-tile", "no-arrangement"} <= set(codes(report))


def test_alike_tiles_are_one_finding_naming_them_all() -> None:
    tileset = safe_woven(3, 3, 6)
    copies = [replace(tileset.tiles[0], id=name) for name in ("X", "Y")]
    report = verify(with_tile(with_tile(tileset, 4, copies[0]), 8, copies[1]), engine=ENGINE)
    (duplicate,) = messages(report, "duplicate-tile")
    assert "T1, X and Y" in duplicate and "3 tiles" in duplicate


def test_blank_tiles_alike_are_duplicates_and_not_unique() -> None:
    # 5 x 4, one short line: at least the interior tiles away from the line are blank.
    report = verify(cut(sparse_chart(5, 4, 2), 5, 4, unit_viewport(5, 4)), engine=ENGINE)
    assert report.consistent is False
    assert set(codes(report)) == {"duplicate-tile", "not-unique"}
    assert report.solutions >= 2
    first, second = report.placements
    assert first != second


# -- a line leaving the sky -----------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "seed"), [(4, 3, 0), (3, 3, 1), (5, 2, 2)])
def test_a_line_leaving_the_sky_through_the_east(width: int, height: int, seed: int) -> None:
    # The woven chart is one column wider than the viewport: every row's line runs on east.
    chart = woven_chart(width + 1, height, seed)
    tileset = cut(chart, width, height, unit_viewport(width, height))
    report = verify(tileset, engine=ENGINE)
    assert report.consistent is False
    assert set(codes(report)) == {"border-fragment"}
    east = [tileset.tiles[r * width + width - 1].id for r in range(height)]
    assert sorted(messages(report, "border-fragment")) == sorted(
        f"tile {tile} side E: a line of R{r} leaves the sky (on the outer border)"
        for r, tile in enumerate(east)
    )
    # Otherwise the set is whole: one arrangement.
    assert report.solutions == 1
    allowed = verify(replace(tileset, allow_border_fragments=True), engine=ENGINE)
    assert (allowed.consistent, allowed.problems, allowed.solutions) == (True, (), 1)


def test_a_line_leaving_the_sky_through_the_north() -> None:
    # The chart's northern row is left out: every column's line runs on north.
    width, height = 3, 2
    tileset = cut(woven_chart(width, height + 1, 4), width, height, unit_viewport(width, height))
    report = verify(tileset, engine=ENGINE)
    found = messages(report, "border-fragment")
    assert set(codes(report)) == {"border-fragment"}
    assert sorted(found) == sorted(
        f"tile {tileset.tiles[c].id} side N: a line of C{c} leaves the sky (on the outer border)"
        for c in range(width)
    )


# -- a symmetric set ------------------------------------------------------------------------------


def two_columns_chart() -> Chart:
    """4 x 2: one line down column 1 (A) and one down column 2 (B), nothing else. Columns 1
    and 2 may swap as wholes (their vertical sides are all blank): exactly 2 arrangements."""

    def column(abbr: str, x: float) -> ChartConstellation:
        return ChartConstellation(abbr, "", ((x, 1.6, 1.0), (x + 0.1, 0.4, 2.0)), ((0, 1),))

    return Chart("twins", (column("A", 1.3), column("B", 2.6)))


def test_a_symmetric_set_has_two_arrangements() -> None:
    tileset = cut(two_columns_chart(), 4, 2, unit_viewport(4, 2), shuffle_seed=3)
    report = verify(tileset, engine=ENGINE)
    assert report.consistent is False
    assert codes(report) == ["not-unique"]
    assert (report.solutions, report.solutions_exact) == (2, True)
    (message,) = messages(report, "not-unique")
    assert message.startswith("2 arrangements; the first two differ at 4 cells")
    first, second = report.arrangements
    assert first != second
    # The same picture with the middle columns swapped.
    assert [[row[0], row[2], row[1], row[3]] for row in first] == second
    problem = edge_problem(tileset).problem
    for placements in report.placements:
        assert check_arrangement(problem, placements) == []
    # Which tile holds which line: each column keeps its own.
    by_id = {tile.id: tile for tile in tileset.tiles}
    for grid in report.arrangements:
        for c in (1, 2):
            names = {s.constellation for r in (0, 1) for s in by_id[grid[r][c]].segments}
            assert len(names) == 1


# -- constellations, markers, existence -----------------------------------------------------------


@pytest.mark.parametrize(
    "far",
    [
        ((2.6, 0.6, 1.0), (2.9, 0.9, 1.0)),  # the opposite corner tile
        ((0.6, 0.6, 1.0), (0.9, 0.9, 1.0)),  # the same x, two tiles down: still apart
    ],
)
def test_a_constellation_in_two_parts(far: tuple[tuple[float, float, float], ...]) -> None:
    plan = woven_plan(3, 3, 7)
    chart = chart_of_plan(plan)
    split = ChartConstellation(
        "Spl", "Split", ((0.6, 2.6, 1.0), (0.9, 2.9, 1.0), *far), ((0, 1), (2, 3))
    )
    tileset = cut(Chart("split", (*chart.constellations, split)), 3, 3, unit_viewport(3, 3))
    report = verify(tileset, engine=ENGINE)
    assert codes(report) == ["constellation-split"]
    assert messages(report, "constellation-split") == ["Spl: its lines fall into 2 separate parts"]
    (span,) = [s for s in report.constellations if s.abbr == "Spl"]
    assert (len(span.tiles), span.parts) == (2, 1 + 1)
    assert report.consistent is False


def test_constellations_listed_and_counted() -> None:
    tileset = woven(3, 2, 8)
    listed = replace(tileset, constellations=(*tileset.constellations, Constellation("Zzz", "")))
    report = verify(listed, engine=ENGINE)
    assert codes(report) == ["constellation-missing"]
    assert "Zzz" in report.problems[0].message
    # 2 rows and 3 columns: 5 constellations.
    assert verify(replace(tileset, expected_constellations=5), engine=ENGINE).consistent is True
    wrong = verify(replace(tileset, expected_constellations=14), engine=ENGINE)
    assert messages(wrong, "constellation-count") == ["5 constellations in the sky; 14 expected"]


@pytest.mark.parametrize(("width", "height"), [(3, 3), (5, 2)])
def test_the_marker_count(width: int, height: int) -> None:
    tileset = woven(width, height, 3)
    holes = (width - 1) * (height - 1)
    assert tileset.markers == holes
    assert verify(tileset, engine=ENGINE).consistent is True
    assert verify(replace(tileset, markers=None), engine=ENGINE).consistent is True
    report = verify(replace(tileset, markers=holes + 1), engine=ENGINE)
    assert codes(report) == ["marker-count"]
    assert str(holes) in report.problems[0].message
    assert report.consistent is False


def generic(
    edges: Sequence[Sequence[str]], width: int = 2, height: int = 2, **options: object
) -> TileSet:
    tiles = tuple(
        Tile(str(i), derived_chamfers(tuple(e)), edges=tuple(e))  # type: ignore[arg-type]
        for i, e in enumerate(edges)
    )
    return TileSet("g", width, height, tiles, generic=True, **options)  # type: ignore[arg-type]


def test_no_arrangement() -> None:
    # Every label goes on, on the opposite side of another tile, but the chamfers hold each
    # tile in its corner, where NW's S side (c) meets SW's N side (b).
    report = verify(generic(["0ac0", "00ba", "bd00", "c00d"]), engine=ENGINE)
    assert codes(report) == ["no-arrangement"]
    assert (report.consistent, report.solutions, report.solutions_exact) == (False, 0, True)
    assert report.constellations == ()
    fine = verify(generic(["0ab0", "00ca", "bd00", "c00d"]), engine=ENGINE)
    assert (fine.consistent, fine.solutions, fine.problems) == (True, 1, ())


def test_a_label_on_no_other_tile_dangles() -> None:
    # SW's E side is w and SE's W side is v: each is a line that continues nowhere.
    report = verify(generic(["0xy0", "00zx", "yw00", "z00v"]), engine=ENGINE)
    assert codes(report) == ["dangling-fragment", "dangling-fragment", "no-arrangement"]
    assert [m.split(":")[0] for m in messages(report, "dangling-fragment")] == [
        "tile 2 side E",
        "tile 3 side W",
    ]


def test_labels_that_cannot_pair_up_dangle() -> None:
    # Tiles fixed: a faces south twice, north once (and b faces north alone).
    fixed = verify(generic(["0xa0", "00ax", "ay00", "b00y"]), engine=ENGINE)
    assert messages(fixed, "dangling-fragment") == [
        "tile 3 side N: label 'b' continues on no other tile",
        "label 'a' is on 1 N sides but 2 S sides: some of them are left without a partner",
    ]
    # Turning: a and b on three sides each, each with a partner, but one of three is left.
    turning = verify(generic(["0aa0", "00ba", "bc00", "b00c"], rotations=True), engine=ENGINE)
    assert messages(turning, "dangling-fragment") == [
        f"label {label!r} is on 3 sides: one of them is left without a partner" for label in "ab"
    ]
    assert turning.solutions == 0


def test_generic_symmetric_set_with_rotations() -> None:
    # Every inner side one color: turned, every piece fits every corner: 4! / 4 = 6 pictures.
    report = verify(generic(["0aa0", "00aa", "a00a", "aa00"], rotations=True), engine=ENGINE)
    assert set(codes(report)) == {"duplicate-tile", "not-unique"}
    assert report.solutions == 6 and report.solutions_exact
    assert "6 arrangements (counted up to turning the whole picture)" in "".join(
        messages(report, "not-unique")
    )


def test_the_count_stops_at_the_limit() -> None:
    # 6 pictures (the previous test); asked to count up to 3, the verifier says "at least 3".
    tileset = generic(["0aa0", "00aa", "a00a", "aa00"], rotations=True)
    report = verify(tileset, engine=ENGINE, count_limit=3)
    assert report.solutions == 3 and not report.solutions_exact
    (message,) = messages(report, "not-unique")
    assert message.startswith("at least 3 arrangements")
    assert len(report.arrangements) == 2 and report.arrangements[0] != report.arrangements[1]


def test_time_limit_leaves_the_answer_undecided() -> None:
    # 6 x 6 from a solved grid with 30 colors: no two pieces alike, one picture.
    rng = random.Random(1)
    size = 6
    colors = {}
    for r in range(size):
        for c in range(size):
            colors[r, c, "E"] = str(rng.randrange(1, 30)) if c + 1 < size else "0"
            colors[r, c, "S"] = str(rng.randrange(1, 30)) if r + 1 < size else "0"
    edges = [
        (
            colors.get((r - 1, c, "S"), "0"),
            colors[r, c, "E"],
            colors[r, c, "S"],
            colors.get((r, c - 1, "E"), "0"),
        )
        for r in range(size)
        for c in range(size)
    ]
    rng.shuffle(edges)
    tileset = generic(edges, size, size, rotations=True)
    full = verify(tileset, engine=ENGINE)
    assert (full.consistent, full.solutions, full.problems) == (True, 1, ())
    report = verify(tileset, engine=ENGINE, time_limit=0.001)
    # Stopped by time, the answer is "don't know" (exit status not 1), never "inconsistent".
    assert set(codes(report)) <= {"undecided"}
    if codes(report):
        assert report.consistent is None and report.to_json()["consistent"] is None
        assert not report.solutions_exact
    else:
        assert report.consistent is True


def unique_generic(size: int) -> list[tuple[str, str, str, str]]:
    """A size x size generic set in reading order, every inner edge its own label."""
    east = {(r, c): f"e{r}{c}" if c + 1 < size else "0" for r in range(size) for c in range(size)}
    south = {(r, c): f"s{r}{c}" if r + 1 < size else "0" for r in range(size) for c in range(size)}
    return [
        (south.get((r - 1, c), "0"), east[r, c], south[r, c], east.get((r, c - 1), "0"))
        for r in range(size)
        for c in range(size)
    ]


def test_generic_tiles_sit_where_their_given_chamfers_say() -> None:
    tileset = generic(unique_generic(3), 3, 3)
    assert verify(tileset, engine=ENGINE).consistent is True
    # The NW corner tile claims to be interior and the centre tile the NW corner: the
    # chamfer counts still add up, but neither can sit where its chamfers say.
    tiles = list(tileset.tiles)
    tiles[0], tiles[4] = (
        replace(tiles[0], chamfers=tiles[4].chamfers),
        replace(tiles[4], chamfers=tiles[0].chamfers),
    )
    report = verify(replace(tileset, tiles=tuple(tiles)), engine=ENGINE)
    assert report.consistent is False
    assert "no-arrangement" in codes(report)


# -- rotations ------------------------------------------------------------------------------------

CLOCKWISE_CORNERS = ("NE", "SE", "SW", "NW")


def turned_tile(tile: Tile, k: int) -> Tile:
    """The tile turned k quarter turns clockwise: (x, y) -> (y, 1 - x), NE -> SE."""

    def point(p: tuple[float, float]) -> tuple[float, float]:
        x, y = p
        for _ in range(k % 4):
            x, y = y, 1 - x
        return (x, y)

    chamfers = frozenset(
        CLOCKWISE_CORNERS[(CLOCKWISE_CORNERS.index(c) + k) % 4] for c in tile.chamfers
    )
    stars = tuple(Star(*point((s.x, s.y)), s.mag, s.constellation) for s in tile.stars)
    segments = tuple(Segment(s.constellation, point(s.a), point(s.b)) for s in tile.segments)
    return replace(tile, chamfers=chamfers, stars=stars, segments=segments)


def turned_picture(grid: list[list[Tile]]) -> list[list[Tile]]:
    """The picture turned a quarter clockwise: cell (r, c) goes to (c, H - 1 - r)."""
    h, w = len(grid), len(grid[0])
    return [[turned_tile(grid[h - 1 - c][r], 1) for c in range(h)] for r in range(w)]


@pytest.mark.parametrize(("width", "height", "seed"), [(3, 3, 0), (4, 4, 1), (4, 3, 2), (2, 5, 3)])
def test_turned_tiles_are_still_unique_up_to_turning_the_picture(
    width: int, height: int, seed: int
) -> None:
    plain = woven(width, height, seed)
    rng = random.Random(seed)
    turns = [rng.randrange(4) for _ in plain.tiles]
    assert len(set(turns)) > 1
    tiles = tuple(turned_tile(t, k) for t, k in zip(plain.tiles, turns, strict=True))
    tileset = replace(plain, tiles=tiles, rotations=True)
    report = verify(tileset, engine=ENGINE)
    assert (report.consistent, report.solutions, report.problems) == (True, 1, ())
    assert {s.abbr: s.parts for s in report.constellations} == {
        c.abbr: 1 for c in plain.constellations
    }
    # Laid as reported (each tile turned back), the picture is the cut one, turned as a whole.
    (arrangement,) = report.placements
    laid = [[turned_tile(tiles[p.piece], p.turns) for p in row] for row in arrangement]
    picture = [[plain.tiles[r * width + c] for c in range(width)] for r in range(height)]
    pictures = []
    for _ in range(4):
        pictures.append([[content(t) for t in row] for row in picture])
        picture = turned_picture(picture)
    assert [[content(t) for t in row] for row in laid] in pictures
    # Without rotations the turned tiles do not fit.
    assert verify(replace(tileset, rotations=False), engine=ENGINE).consistent is False


def test_a_turned_copy_is_a_duplicate_when_tiles_turn() -> None:
    plain = safe_woven(3, 3, 2)
    copy = replace(turned_tile(plain.tiles[4], 1), id="X")
    tileset = replace(with_tile(plain, 8, copy), rotations=True)
    (message,) = messages(verify(tileset, engine=ENGINE), "duplicate-tile")
    assert "T5" in message and "X" in message
    # Without rotations a turned copy is another tile: its lines are elsewhere.
    assert not messages(verify(replace(tileset, rotations=False), engine=ENGINE), "duplicate-tile")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=20))
def test_constellation_parts_are_the_connected_components(edges: list[tuple[int, int]]) -> None:
    # The verifier counts a constellation's parts with a small union-find (start-up time);
    # networkx is the reference.
    from asterion.solver.nacht_verify import _Parts

    parts = _Parts()
    graph: nx.Graph = nx.Graph()
    for a, b in edges:
        parts.join(a, b)
        graph.add_edge(a, b)
    assert parts.count() == nx.number_connected_components(graph)


# -- fragment partners and the constellation count (a mutation audit found them unguarded) ------


def _strip(*segments_by_cell: tuple[tuple[int, int], Segment]) -> TileSet:
    """A 3 x 2 set with the given segments on the given cells' tiles, chamfered as laid."""
    from asterion.models.nacht import chamfers_for

    tiles = []
    for r in range(2):
        for c in range(3):
            segments = tuple(s for cell, s in segments_by_cell if cell == (r, c))
            tiles.append(Tile(f"T{r}{c}", chamfers_for(3, 2, r, c), (), segments))
    return TileSet("strip", 3, 2, tuple(tiles))


def test_a_tile_does_not_partner_its_own_fragments() -> None:
    from asterion.solver.nacht_verify import fragment_findings

    # T01's line runs straight through it, W side to E side; no neighbour continues it.
    tileset = _strip(((0, 1), Segment("A", (0.0, 0.3), (1.0, 0.3))))
    assert [f.code for f in fragment_findings(tileset)] == ["dangling-fragment"] * 2


def test_fixed_tiles_partner_only_the_opposite_side() -> None:
    from asterion.solver.nacht_verify import fragment_findings

    # T01's W fragment (0.3) has its mirror (0.7) only on T11's N side: a tile that keeps its
    # up can only meet it with an E side, so it dangles; turned tiles may meet it.
    tileset = _strip(
        ((0, 1), Segment("A", (0.0, 0.3), (0.5, 0.5))),
        ((1, 1), Segment("A", (0.7, 1.0), (0.5, 0.5))),
    )
    assert [f.code for f in fragment_findings(tileset)] == ["dangling-fragment"] * 2
    assert fragment_findings(replace(tileset, rotations=True)) == []


def test_more_constellations_than_expected_is_a_finding() -> None:
    charted = len(woven_chart(3, 2, 8).constellations)  # each whole in the cut sky
    fewer = replace(woven(3, 2, 8), expected_constellations=charted - 1)
    assert messages(verify(fewer, engine=ENGINE), "constellation-count") == [
        f"{charted} constellations in the sky; {charted - 1} expected"
    ]


# -- a second mutation audit: the report's words, spans, duplicates and counts ----------------


def test_chamfer_messages_name_the_corners() -> None:
    # Check 1: an interior tile of a 4 x 4 that lost its SE chamfer has corners NE, NW, SW:
    # three corners, a pattern no cell has; and the grid now has 3 interior tiles of the
    # (4 - 2) x (4 - 2) = 4 it needs.
    tileset = safe_woven(4, 4, 5)
    broken = with_tile(
        tileset, 5, replace(tileset.tiles[5], chamfers=frozenset({"NE", "NW", "SW"}))
    )
    report = verify(broken, engine=ENGINE)
    assert messages(report, "chamfer-pattern") == [
        "tile T06: chamfered corners NE, NW, SW: no cell of a grid has that pattern "
        "(1 corner, 2 adjacent, or 4)"
    ]
    assert messages(report, "chamfer-count") == [
        "3 tiles with chamfers NE, NW, SW, SE (interior); a 4x4 grid needs 4"
    ]


def test_a_pattern_the_grid_has_no_cell_for_is_counted_too() -> None:
    # Check 1, "their counts match W x H": a 3 x 2 grid has (3 - 2)(2 - 2) = 0 interior tiles.
    # The top middle tile {SW, SE} chamfered on all four corners: one interior tile too many
    # and one top border tile too few; both counts are reported.
    tileset = safe_woven(3, 2, 0)
    broken = with_tile(tileset, 1, replace(tileset.tiles[1], chamfers=frozenset(CORNERS)))
    assert set(messages(verify(broken, engine=ENGINE), "chamfer-count")) == {
        "1 tiles with chamfers NE, NW, SW, SE (interior); a 3x2 grid needs 0",
        "0 tiles with chamfers SW, SE (border); a 3x2 grid needs 1",
    }


def test_chamfer_counts_with_rotations_count_each_turned_pattern_once() -> None:
    # With rotations the four border patterns are one: a 4 x 4 has 2(4 - 2) + 2(4 - 2) = 8
    # border tiles and 4 interior ones. An interior tile chamfered {NE, NW} makes 9 and 3.
    tileset = replace(safe_woven(4, 4, 5), rotations=True)
    broken = with_tile(tileset, 5, replace(tileset.tiles[5], chamfers=frozenset({"NE", "NW"})))
    counts = messages(verify(broken, engine=ENGINE), "chamfer-count")
    assert len(counts) == 2
    assert any(
        m.startswith("9 tiles") and m.endswith("(border); a 4x4 grid needs 8") for m in counts
    )
    assert any(
        m.startswith("3 tiles") and m.endswith("(interior); a 4x4 grid needs 4") for m in counts
    )


def test_two_alike_tiles_are_named_as_a_pair() -> None:
    tileset = safe_woven(3, 3, 6)
    report = verify(with_tile(tileset, 4, replace(tileset.tiles[0], id="X")), engine=ENGINE)
    assert messages(report, "duplicate-tile") == [
        "tiles T1 and X are alike, so they can swap places"
    ]


def test_tiles_are_alike_only_when_their_pictures_are() -> None:
    from asterion.solver.nacht_verify import duplicate_findings

    # A tile, its exact copy, and three tiles that differ from it in one thing each: a line
    # end moved east, a line end moved north, the star given to another constellation.
    base = Tile(
        "A",
        frozenset(CORNERS),
        (Star(0.5, 0.5, 1.0, "P"),),
        (Segment("P", (0.2, 0.3), (0.4, 0.3)),),
    )
    tiles = (
        base,
        replace(base, id="B"),
        replace(base, id="C", segments=(Segment("P", (0.2, 0.3), (0.6, 0.3)),)),
        replace(base, id="D", segments=(Segment("P", (0.2, 0.3), (0.4, 0.5)),)),
        replace(base, id="E", stars=(Star(0.5, 0.5, 1.0, "Q"),)),
    )
    findings = duplicate_findings(TileSet("alike", 5, 1, tiles))
    assert [f.message for f in findings] == ["tiles A and B are alike, so they can swap places"]


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_copy_turned_any_number_of_quarters_is_a_duplicate(turns: int) -> None:
    from asterion.solver.nacht_verify import duplicate_findings

    # Tiles that turn: a copy of the centre tile turned by 1, 2 or 3 quarters is the same tile.
    plain = safe_woven(3, 3, 2)
    copy = replace(turned_tile(plain.tiles[4], turns), id="X")
    tileset = replace(with_tile(plain, 8, copy), rotations=True)
    assert [f.message for f in duplicate_findings(tileset)] == [
        "tiles T5 and X are alike, so they can swap places"
    ]
    # The same for side labels: the centre's labels turned clockwise (W comes north).
    labels = unique_generic(3)
    centre = labels[4]
    labels[8] = (*centre[4 - turns :], *centre[: 4 - turns])  # type: ignore[assignment]
    assert labels[8] != centre
    by_labels = generic(labels, 3, 3, rotations=True)
    assert [f.message for f in duplicate_findings(by_labels)] == [
        "tiles 4 and 8 are alike, so they can swap places"
    ]


def test_a_constellation_spans_the_tiles_its_lines_cross_without_a_star() -> None:
    # "A constellation spans the tiles its stars and lines lie on": Lon's two stars lie in the
    # west and east tiles of the middle row, its line crosses the middle tile, which holds no
    # star of it: 3 tiles. One is a single star with no line: 1 tile.
    chart = chart_of_plan(woven_plan(3, 3, 7))
    lon = ChartConstellation("Lon", "", ((0.3, 1.45, 1.0), (2.7, 1.45, 1.0)), ((0, 1),))
    one = ChartConstellation("One", "", ((1.5, 0.6, 3.0),), ())
    tileset = cut(Chart("x", (*chart.constellations, lon, one)), 3, 3, unit_viewport(3, 3))
    report = verify(tileset, engine=ENGINE)
    assert (report.consistent, report.problems) == (True, ())
    spans = {span.abbr: span.tiles for span in report.constellations}
    assert spans["Lon"] == ("T4", "T5", "T6")  # row 1, reading order
    assert spans["One"] == ("T8",)  # row 2, column 1
    assert {"abbr": "Lon", "tiles": 3} in report.to_json()["constellations"]


def test_lines_joined_by_a_later_line_are_one_figure() -> None:
    # Check 5: Zig's lines A-B, C-D, then B-C make the path A-B-C-D: one figure, however the
    # lines are listed (all in the north-west tile).
    chart = chart_of_plan(woven_plan(3, 3, 7))
    stars = ((0.1, 2.1, 1.0), (0.15, 2.3, 1.0), (0.3, 2.1, 1.0), (0.35, 2.3, 1.0))
    zig = ChartConstellation("Zig", "", stars, ((0, 1), (2, 3), (1, 2)))
    tileset = cut(Chart("x", (*chart.constellations, zig)), 3, 3, unit_viewport(3, 3))
    report = verify(tileset, engine=ENGINE)
    assert (report.consistent, report.problems) == (True, ())
    (span,) = [s for s in report.constellations if s.abbr == "Zig"]
    assert (span.tiles, span.parts) == (("T1",), 1)


def meeting_set(
    first: float, second: float, tolerance: float = 0.02, *, south: bool = False
) -> TileSet:
    """2 x 2 by hand: line A from the star in the NW tile to its E side at height ``first``,
    going on from the NE tile's W side at height ``second``; with ``south``, to NW's S side at
    ``first`` east of its west side, going on from the SW tile's N side at ``second``."""
    nw_end, ne_segments, sw_segments = (1.0, first), (Segment("A", (0.0, second), (0.5, 0.5)),), ()
    if south:
        nw_end, ne_segments = (first, 0.0), ()
        sw_segments = (Segment("A", (second, 1.0), (0.5, 0.5)),)
    tiles = (
        Tile(
            "NW",
            frozenset({"SE"}),
            (Star(0.5, 0.5, 1.0, "A"),),
            (Segment("A", (0.5, 0.5), nw_end),),
        ),
        Tile("NE", frozenset({"SW"}), (), ne_segments),
        Tile("SW", frozenset({"NE"}), (), sw_segments),
        Tile("SE", frozenset({"NW"})),
    )
    return TileSet("meet", 2, 2, tiles, (Constellation("A", ""),), tolerance=tolerance)


@pytest.mark.parametrize("south", [False, True])
def test_line_ends_exactly_a_tolerance_apart_meet(south: bool) -> None:
    # N1: sides fit when offsets are equal within the tolerance; 0.3125 and 0.34375 are
    # 0.03125 apart, exactly a tolerance of 0.03125 (all exact in binary): the sides fit, and
    # the line goes on across them (east, or south), one figure.
    tileset = meeting_set(0.3125, 0.34375, tolerance=0.03125, south=south)
    report = verify(tileset, engine=ENGINE)
    assert (report.consistent, report.solutions, report.problems) == (True, 1, ())
    assert [(s.abbr, s.parts) for s in report.constellations] == [("A", 1)]


def test_line_ends_n1_apart_at_decimal_offsets_meet() -> None:
    # N1: 0.3 and 0.32 are equal within 0.02; check 3 lets the sides fit (one arrangement),
    # so the line continues across them and is one figure (check 5).
    report = verify(meeting_set(0.3, 0.32), engine=ENGINE)
    assert report.solutions == 1
    assert (report.consistent, report.problems) == (True, ())


def test_an_unlisted_constellation_still_gets_its_span() -> None:
    # Lines of constellations the file does not list are still spanned (check 5 lists each
    # constellation's span); only listed ones can be "missing".
    tileset = woven(3, 2, 8)
    listed = tuple(c for c in tileset.constellations if c.abbr != "C1")
    report = verify(replace(tileset, constellations=listed), engine=ENGINE)
    assert report.problems == ()
    # 2 rows of 3 tiles, 3 columns of 2 tiles.
    assert {s.abbr: len(s.tiles) for s in report.constellations} == {
        "R0": 3,
        "R1": 3,
        "C0": 2,
        "C1": 2,
        "C2": 2,
    }


def test_uniqueness_is_checked_even_with_a_count_limit_of_one() -> None:
    # Rule 4 needs a second arrangement to tell "unique" from "not": asked to count up to 1,
    # the verifier still finds two of the six pictures and stops.
    tileset = generic(["0aa0", "00aa", "a00a", "aa00"], rotations=True)
    report = verify(tileset, engine=ENGINE, count_limit=1)
    assert report.consistent is False
    (message,) = messages(report, "not-unique")
    assert message.startswith("at least 2 arrangements")


def test_the_default_count_limit_is_ten() -> None:
    # docs/nacht.md: "nacht verify [--count-limit 10]". A 5 x 2 labelled set whose inner sides
    # are all one label: corners fixed by their chamfers, the 3 top middle tiles alike and the
    # 3 bottom ones alike: 3! x 3! = 36 arrangements, so the count stops at 10.
    top, bottom = ("0", "a", "a", "a"), ("a", "a", "0", "a")
    edges = [("0", "a", "a", "0"), top, top, top, ("0", "0", "a", "a")]
    edges += [("a", "a", "0", "0"), bottom, bottom, bottom, ("a", "0", "0", "a")]
    report = verify(generic(edges, 5, 2), engine=ENGINE)
    assert (report.solutions, report.solutions_exact) == (10, False)
    (message,) = messages(report, "not-unique")
    assert message.startswith("at least 10 arrangements;")


def test_a_count_stopped_by_the_time_limit_is_a_lower_bound() -> None:
    from asterion.solver.edge_result import EdgeSearchResult
    from asterion.solver.nacht_verify import arrangement_findings
    from asterion.solver.result import Status

    # Rule 4: "report the count up to a limit". Stopped by time after 2 of the 6 pictures, the
    # search knows only that there are at least 2 (the result says: not complete).
    tileset = generic(["0aa0", "00aa", "a00a", "aa00"], rotations=True)
    two = verify(tileset, engine=ENGINE).placements
    stopped = EdgeSearchResult(Status.FEASIBLE, 2, False, two)
    (finding,) = arrangement_findings(tileset, stopped, 10)
    assert finding.message.startswith("at least 2 arrangements")


def test_where_two_arrangements_differ_is_listed_cell_by_cell() -> None:
    from asterion.solver.nacht_verify import _differences

    # Rule 4: "two differing arrangements side by side": the cells that differ, row, column,
    # the first's tile / the second's (+k: turned k quarters); six at most, then how many more.
    tileset = generic(unique_generic(3), 3, 3)  # tile ids "0".."8"

    def grid(pieces: list[int], turns: dict[int, int] | None = None) -> Arrangement:
        turns = turns or {}
        return tuple(
            tuple(Placement(pieces[3 * r + c], turns.get(3 * r + c, 0)) for c in range(3))
            for r in range(3)
        )

    laid = grid(list(range(9)))
    assert _differences(tileset, laid, grid([1, 0, 2, 3, 4, 5, 6, 7, 8])) == (
        "2 cells [row,col first/second]: (0,0) 0/1; (0,1) 1/0"
    )
    assert _differences(tileset, laid, grid(list(range(9)), {4: 1})) == (
        "1 cells [row,col first/second]: (1,1) 4/4+1"
    )
    seven = grid([3, 4, 5, 0, 1, 2, 6, 7, 8], {6: 1})  # and (2,0) turned
    assert _differences(tileset, laid, seven).endswith("(1,2) 5/2; 1 more cells")
    rows_swapped = grid([3, 4, 5, 0, 1, 2, 6, 7, 8])
    assert _differences(tileset, laid, rows_swapped) == (
        "6 cells [row,col first/second]: (0,0) 0/3; (0,1) 1/4; (0,2) 2/5; (1,0) 3/0; (1,1) 4/1; "
        "(1,2) 5/2"
    )
    shifted = grid([(k + 1) % 9 for k in range(9)])
    assert _differences(tileset, laid, shifted) == (
        "9 cells [row,col first/second]: (0,0) 0/1; (0,1) 1/2; (0,2) 2/3; (1,0) 3/4; (1,1) 4/5; "
        "(1,2) 5/6; 3 more cells"
    )
