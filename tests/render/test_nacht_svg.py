"""The Nacht der Sterne pictures: one mark per star, line piece, chamfer, hole and side, in
picture coordinates; differing cells outlined exactly; byte-stable."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from svgxml import SVG, parse, with_class

from asterion.errors import InputError
from asterion.models.edges import Arrangement, Placement
from asterion.models.nacht import (
    Constellation,
    Star,
    Tile,
    TileSet,
    derived_chamfers,
    turn_chamfers,
    turn_point,
)
from asterion.models.nacht_cut import Chart, ChartConstellation, cut
from asterion.render.nacht_svg import (
    DEFAULT_COLORS,
    EDGE_PALETTE,
    PADDING,
    arrangements_svg,
    differing_cells,
    sky_svg,
    tiles_svg,
    write_svg,
)

CELL = 100
PAD = PADDING * CELL

# Two constellations on a 3 x 3 sky, no line through a tile corner.
ORION = ChartConstellation(
    "Ori",
    "Orion",
    ((0.3, 2.6, 0.4), (1.4, 1.3, 1.6), (2.6, 0.4, 2.1), (0.6, 0.7, 3.3)),
    ((0, 1), (1, 2), (1, 3)),
)
CANCER = ChartConstellation("Cnc", "Cancer", ((2.2, 2.7, 3.9), (2.7, 2.2, 4.6)), ((0, 1),))
CHART = Chart("test sky", (ORION, CANCER))

GENERIC_2X2 = [
    ("0", "a", "b", "0"),
    ("0", "0", "c", "a"),
    ("b", "d", "0", "0"),
    ("c", "0", "0", "d"),
]
"""Side labels of a solved 2 x 2 edge-matching set, in reading order."""


def sky3() -> TileSet:
    return cut(CHART, 3, 3, (0, 0, 3, 3))


def reading_order(width: int, height: int, turns: int = 0) -> Arrangement:
    return tuple(
        tuple(Placement(r * width + c, turns) for c in range(width)) for r in range(height)
    )


def tile_polygon(root: ET.Element, tile_id: str) -> list[tuple[float, float]]:
    """The outline of the tile whose title starts with ``tile_id``, as (x, y) pairs."""
    for polygon in with_class(root, "polygon", "tile"):
        if polygon.findtext(f"{SVG}title", "").split(",")[0] == tile_id:
            return points(polygon)
    raise AssertionError(f"no polygon for {tile_id}")


def points(polygon: ET.Element) -> list[tuple[float, float]]:
    pairs = (pair.split(",") for pair in polygon.get("points", "").split())
    return [(float(x), float(y)) for x, y in pairs]


def circles(root: ET.Element, cls: str) -> list[tuple[float, float, float]]:
    return sorted(
        (float(c.get("cx", "")), float(c.get("cy", "")), float(c.get("r", "")))
        for c in with_class(root, "circle", cls)
    )


def lines(root: ET.Element) -> list[frozenset[tuple[float, float]]]:
    found = []
    for line in with_class(root, "line", "segment"):
        a = (float(line.get("x1", "")), float(line.get("y1", "")))
        b = (float(line.get("x2", "")), float(line.get("y2", "")))
        found.append(frozenset((a, b)))
    return sorted(found, key=sorted)


# -- the assembled sky ----------------------------------------------------------------------------


def test_one_circle_per_star_and_one_line_per_segment() -> None:
    tileset = sky3()
    root = parse(sky_svg(tileset, reading_order(3, 3), cell=CELL))
    assert len(with_class(root, "circle", "star")) == sum(len(t.stars) for t in tileset.tiles)
    assert len(with_class(root, "circle", "star")) == 6
    assert len(with_class(root, "line", "segment")) == sum(len(t.segments) for t in tileset.tiles)


def test_picture_coordinates_put_north_at_the_top() -> None:
    # Chart point (0.3, 2.6) lies on the north-west tile at (0.3, 0.6); north is up in SVG.
    root = parse(sky_svg(sky3(), reading_order(3, 3), cell=CELL))
    centres = {(x, y) for x, y, _ in circles(root, "star")}
    assert (PAD + 0.3 * CELL, PAD + (3 - 2.6) * CELL) in centres
    assert (PAD + 2.6 * CELL, PAD + (3 - 0.4) * CELL) in centres


def test_brighter_stars_are_bigger() -> None:
    root = parse(sky_svg(sky3(), reading_order(3, 3), cell=CELL))
    by_mag = sorted(
        (float(c.findtext(f"{SVG}title", "").split("magnitude ")[1]), float(c.get("r", "")))
        for c in with_class(root, "circle", "star")
    )
    radii = [r for _, r in by_mag]
    assert radii == sorted(radii, reverse=True)
    assert len(set(radii)) == len(radii)


@pytest.mark.parametrize(
    ("tile_id", "vertices"),
    [("T1", 5), ("T2", 6), ("T3", 5), ("T4", 6), ("T5", 8), ("T9", 5)],
    ids=["corner", "border", "corner NE", "border W", "interior", "corner SE"],
)
def test_chamfered_corners_are_cut_off(tile_id: str, vertices: int) -> None:
    root = parse(sky_svg(sky3(), reading_order(3, 3), cell=CELL))
    assert len(tile_polygon(root, tile_id)) == vertices


def test_the_interior_tile_is_cut_at_45_degrees_by_a_small_chamfer() -> None:
    root = parse(sky_svg(sky3(), reading_order(3, 3), cell=CELL))
    outline = tile_polygon(root, "T5")
    xs, ys = {x for x, _ in outline}, {y for _, y in outline}
    left, top = PAD + CELL, PAD + CELL
    assert xs == {left, left + 10, left + 90, left + 100}
    assert ys == {top, top + 10, top + 90, top + 100}


def test_four_chamfers_meeting_leave_a_hole_with_a_marker() -> None:
    root = parse(sky_svg(sky3(), reading_order(3, 3), cell=CELL))
    markers = {(x, y) for x, y, _ in circles(root, "marker")}
    assert markers == {(PAD + c * CELL, PAD + r * CELL) for r in (1, 2) for c in (1, 2)}
    holes = with_class(root, "polygon", "hole")
    assert len(holes) == 4
    for hole in holes:
        assert len(points(hole)) == 4


def test_a_wrong_arrangement_leaves_notches_not_holes() -> None:
    # The corner tile T1 and the interior tile T5 swapped: only T1's SE chamfer, on the
    # centre cell, meets three others; its straight corners leave notches round the rest.
    arrangement = reading_order(3, 3)
    wrong = swapped(arrangement, (0, 0), (1, 1))
    root = parse(sky_svg(sky3(), wrong, cell=CELL))
    markers = {(x, y) for x, y, _ in circles(root, "marker")}
    assert markers == {(PAD + 2 * CELL, PAD + 2 * CELL)}
    assert len(tile_polygon(root, "T1")) == 5
    assert len(tile_polygon(root, "T5")) == 8


def test_turned_tiles_land_as_the_picture_says() -> None:
    """Each tile stored a turn back and placed a turn forward: the same picture."""
    tileset = sky3()
    back = tuple(
        Tile(
            t.id,
            turn_chamfers(t.chamfers, -(i % 4)),
            tuple(
                replace(
                    s, x=turn_point((s.x, s.y), -(i % 4))[0], y=turn_point((s.x, s.y), -(i % 4))[1]
                )
                for s in t.stars
            ),
            tuple(
                replace(s, a=turn_point(s.a, -(i % 4)), b=turn_point(s.b, -(i % 4)))
                for s in t.segments
            ),
        )
        for i, t in enumerate(tileset.tiles)
    )
    turned = replace(tileset, tiles=back, rotations=True)
    arrangement = tuple(
        tuple(Placement(r * 3 + c, (r * 3 + c) % 4) for c in range(3)) for r in range(3)
    )
    plain = parse(sky_svg(tileset, reading_order(3, 3), cell=CELL))
    root = parse(sky_svg(turned, arrangement, cell=CELL))
    assert circles(root, "star") == circles(plain, "star")
    assert circles(root, "marker") == circles(plain, "marker")
    assert lines(root) == lines(plain)
    for tile in tileset.tiles:
        assert tile_polygon(root, tile.id) == tile_polygon(plain, tile.id)
    ids = [t.text for t in with_class(root, "text", "tile-id")]
    assert ids[:3] == ["T1", "T2 ↻90°", "T3 ↻180°"]


def test_each_constellation_is_named_once_near_its_stars() -> None:
    root = parse(sky_svg(sky3(), reading_order(3, 3), cell=CELL))
    names = with_class(root, "text", "constellation")
    assert [n.text for n in names] == ["Orion", "Cancer"]
    for name in names:
        abbr = name.get("data-constellation")
        stars = [
            (float(c.get("cx", "")), float(c.get("cy", "")))
            for c in with_class(root, "circle", "star")
            if c.get("data-constellation") == abbr
        ]
        cx = sum(x for x, _ in stars) / len(stars)
        cy = sum(y for _, y in stars) / len(stars)
        assert float(name.get("x", "")) == pytest.approx(cx, abs=0.01)
        assert 0 < float(name.get("y", "")) - cy < 0.3 * CELL


def test_a_constellation_without_a_name_shows_its_abbreviation() -> None:
    tileset = replace(sky3(), constellations=(Constellation("Ori", "Orion"),))
    root = parse(sky_svg(tileset, reading_order(3, 3), cell=CELL))
    assert [n.text for n in with_class(root, "text", "constellation")] == ["Orion", "Cnc"]


def test_field_stars_are_drawn_but_not_named() -> None:
    tiles = tuple(
        Tile(f"F{i}", derived_chamfers(e), (Star(0.5, 0.5, 2.0),))
        for i, e in enumerate(GENERIC_2X2)
    )
    root = parse(sky_svg(TileSet("field", 2, 2, tiles), reading_order(2, 2)))
    assert len(with_class(root, "circle", "field")) == 4
    assert with_class(root, "text", "constellation") == []


def test_title_and_tile_ids() -> None:
    root = parse(sky_svg(sky3(), reading_order(3, 3), title="Test sky"))
    assert root.findtext(f"{SVG}title") == "Test sky"
    assert [t.text for t in with_class(root, "text", "title")] == ["Test sky"]
    assert [t.text for t in with_class(root, "text", "tile-id")] == [f"T{i}" for i in range(1, 10)]


# -- generic edge-matching sets -------------------------------------------------------------------


def generic_set(width: int, height: int) -> TileSet:
    """A solved W x H edge-matching set: inner sides labelled 1..5 in a fixed pattern."""

    def south(r: int, c: int) -> str:
        return "0" if r == height - 1 else str(1 + (r * 7 + c * 3) % 5)

    def east(r: int, c: int) -> str:
        return "0" if c == width - 1 else str(1 + (r * 2 + c * 5 + 1) % 5)

    tiles = []
    for r in range(height):
        for c in range(width):
            edges = (
                "0" if r == 0 else south(r - 1, c),
                east(r, c),
                south(r, c),
                "0" if c == 0 else east(r, c - 1),
            )
            tiles.append(Tile(f"P{r * width + c}", derived_chamfers(edges), edges=edges))
    return TileSet("generic", width, height, tuple(tiles), rotations=True, generic=True)


def test_generic_sets_draw_four_triangles_per_tile() -> None:
    tileset = generic_set(4, 3)
    root = parse(sky_svg(tileset, reading_order(4, 3), cell=CELL))
    pieces = with_class(root, "g", "piece")
    assert len(pieces) == 12
    for piece in pieces:
        assert len(with_class(piece, "polygon", "side")) == 4
    assert with_class(root, "circle", "star") == []
    assert with_class(root, "polygon", "hole") == []


def test_generic_side_colors_follow_the_labels() -> None:
    tileset = generic_set(4, 3)
    root = parse(sky_svg(tileset, reading_order(4, 3), cell=CELL))
    sides = with_class(root, "polygon", "side")
    border = with_class(root, "polygon", "border")
    assert len(border) == 2 * (4 + 3)
    assert {p.get("fill") for p in border} == {DEFAULT_COLORS["border side"]}
    fills: dict[str, set[str | None]] = {}
    for side in sides:
        fills.setdefault(side.get("data-label", ""), set()).add(side.get("fill"))
    assert all(len(f) == 1 for f in fills.values())
    inner = {label: f.pop() for label, f in fills.items() if label != "0"}
    assert inner == {str(i): EDGE_PALETTE[i - 1] for i in range(1, 6)}


def test_labels_that_only_look_like_numbers_are_drawn() -> None:
    # "²" passes str.isdigit() but not int(): it is drawn as a label like any other
    tiles = tuple(
        Tile(t.id, t.chamfers, edges=tuple("²" if e == "3" else e for e in t.edges or ()))
        for t in generic_set(4, 3).tiles
    )
    tileset = TileSet("generic", 4, 3, tiles, rotations=True, generic=True)
    root = parse(sky_svg(tileset, reading_order(4, 3), cell=CELL))
    labels = {side.get("data-label") for side in with_class(root, "polygon", "side")}
    assert "²" in labels and "3" not in labels


def test_generic_labels_turn_with_the_piece() -> None:
    tileset = TileSet(
        "2x2",
        2,
        2,
        tuple(Tile(f"P{i}", frozenset(), edges=e) for i, e in enumerate(GENERIC_2X2)),
        rotations=True,
        generic=True,
    )
    arrangement = ((Placement(0), Placement(1)), (Placement(2), Placement(3, 1)))
    root = parse(sky_svg(tileset, arrangement, cell=CELL))
    turned = with_class(root, "g", "piece")[3]
    labels = [p.get("data-label") for p in with_class(turned, "polygon", "side")]
    assert labels == ["d", "c", "0", "0"]  # (c, 0, 0, d) a quarter turn clockwise
    north = points(with_class(turned, "polygon", "side")[0])
    assert north[:2] == [(PAD + CELL, PAD + CELL), (PAD + 2 * CELL, PAD + CELL)]


# -- arrangements side by side --------------------------------------------------------------------


def swapped(arrangement: Arrangement, a: tuple[int, int], b: tuple[int, int]) -> Arrangement:
    grid = [list(row) for row in arrangement]
    grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]
    return tuple(tuple(row) for row in grid)


def test_differing_cells_are_outlined_exactly() -> None:
    first = reading_order(3, 3)
    second = swapped(first, (0, 1), (2, 2))
    root = parse(arrangements_svg(sky3(), [first, second], titles=["A", "B"], cell=CELL))
    panels = with_class(root, "g", "panel")
    assert len(panels) == 2
    gap = 3 * CELL + 0.5 * CELL
    band = 0.3 * CELL
    for i, panel in enumerate(panels):
        assert [t.text for t in with_class(panel, "text", "title")] == ["AB"[i]]
        outlined = {
            (float(rect.get("x", "")), float(rect.get("y", "")))
            for rect in with_class(panel, "rect", "differs")
        }
        left, top = PAD + i * gap, band + PAD
        assert outlined == {(left + CELL, top), (left + 2 * CELL, top + 2 * CELL)}
        assert len(with_class(panel, "circle", "star")) == 6


def test_a_turn_alone_makes_a_cell_differ() -> None:
    first = reading_order(2, 2)
    second = ((Placement(0), Placement(1)), (Placement(2), Placement(3, 2)))
    same = ((Placement(0), Placement(1)), (Placement(2), Placement(3, 4)))
    assert differing_cells([first, second]) == [(1, 1)]
    assert differing_cells([first, same]) == []
    assert differing_cells([first, first, second]) == [(1, 1)]
    tileset = generic_set(2, 2)
    root = parse(arrangements_svg(tileset, [first, same], titles=["a", "b"]))
    assert with_class(root, "rect", "differs") == []


def test_arrangements_need_one_title_each() -> None:
    with pytest.raises(InputError, match="titles"):
        arrangements_svg(sky3(), [reading_order(3, 3)], titles=["a", "b"])
    with pytest.raises(InputError, match="at least one"):
        arrangements_svg(sky3(), [], titles=[])


@pytest.mark.parametrize(
    "arrangement",
    [
        reading_order(3, 2),
        reading_order(2, 3),
        ((Placement(0), Placement(1), Placement(9)), *reading_order(3, 3)[1:]),
    ],
    ids=["too few rows", "too few columns", "no such tile"],
)
def test_an_arrangement_that_does_not_fit_is_rejected(arrangement: Arrangement) -> None:
    with pytest.raises(InputError, match="arrangement"):
        sky_svg(sky3(), arrangement)


def test_cell_must_be_positive() -> None:
    with pytest.raises(InputError, match="cell"):
        sky_svg(sky3(), reading_order(3, 3), cell=0)


# -- the unassembled tiles ------------------------------------------------------------------------


def test_tiles_as_given_in_file_order() -> None:
    tileset = cut(CHART, 3, 3, (0, 0, 3, 3), shuffle_seed=5)
    root = parse(tiles_svg(tileset, cell=CELL))
    ids = [t.text for t in with_class(root, "text", "tile-id")]
    assert ids == [t.id for t in tileset.tiles]
    for tile in tileset.tiles:
        assert len(tile_polygon(root, tile.id)) == 4 + len(tile.chamfers)
    assert len(with_class(root, "circle", "star")) == 6
    assert len(with_class(root, "line", "segment")) == sum(len(t.segments) for t in tileset.tiles)
    assert with_class(root, "text", "constellation") == []
    assert with_class(root, "circle", "marker") == []


def test_tiles_fill_rows_of_the_given_columns() -> None:
    tileset = sky3()
    wide = parse(tiles_svg(tileset, columns=9, cell=CELL))
    square = parse(tiles_svg(tileset, cell=CELL))
    assert float(wide.get("width", "")) > float(square.get("width", ""))
    assert float(wide.get("height", "")) < float(square.get("height", ""))
    generic = parse(tiles_svg(generic_set(3, 2)))
    assert len(with_class(generic, "polygon", "side")) == 4 * 6
    with pytest.raises(InputError, match="columns"):
        tiles_svg(tileset, columns=0)


# -- byte-stable output ---------------------------------------------------------------------------


def test_the_same_input_gives_the_same_bytes() -> None:
    first = sky_svg(sky3(), reading_order(3, 3), title="x")
    assert first == sky_svg(sky3(), reading_order(3, 3), title="x")
    pair = [reading_order(3, 3), swapped(reading_order(3, 3), (0, 0), (1, 1))]
    assert arrangements_svg(sky3(), pair, titles=["a", "b"]) == arrangements_svg(
        sky3(), pair, titles=["a", "b"]
    )
    assert tiles_svg(sky3()) == tiles_svg(sky3())


SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from test_nacht_svg import generic_set, reading_order, sky3
from asterion.render.nacht_svg import sky_svg, tiles_svg
sys.stdout.write(sky_svg(sky3(), reading_order(3, 3)) + sky_svg(generic_set(3, 3),
    reading_order(3, 3)) + tiles_svg(generic_set(3, 2)))
"""


def test_output_does_not_depend_on_hash_seeds() -> None:
    script = SCRIPT.format(tests=str(Path(__file__).parent))
    elsewhere = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    here = (
        sky_svg(sky3(), reading_order(3, 3))
        + sky_svg(generic_set(3, 3), reading_order(3, 3))
        + tiles_svg(generic_set(3, 2))
    )
    assert elsewhere == here


def test_write_svg_writes_the_picture(tmp_path: Path) -> None:
    svg = sky_svg(sky3(), reading_order(3, 3))
    write_svg(tmp_path / "sky.svg", svg)
    assert (tmp_path / "sky.svg").read_text(encoding="utf-8") == svg
