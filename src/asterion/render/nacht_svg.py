"""SVG pictures of a Nacht der Sterne tile set: the assembled sky (:func:`sky_svg`), several
arrangements side by side with their differences outlined (:func:`arrangements_svg`), and the
tiles as given, unassembled (:func:`tiles_svg`).

Like ``asterion.render.aster_svg``: sizes and a role-keyed color table on top, CSS classes in a
``<style>`` block, keyword-only options, and byte-identical output for the same input (no
timestamps, no randomness; everything drawn in cell, tile-file and constellation order). The
pictures read models only: tile data, :func:`~asterion.models.nacht.turn_chamfers`, and the
model's :func:`~asterion.models.nacht.global_point` for where a tile-local point lands.

Conventions (rules/nacht.md): tile-local points are x east, y north in [0, 1]; the picture is
x east, y north, one unit per tile, row 0 of an arrangement the northern one; a placement turns
its tile by quarter turns clockwise, chamfers included. In the SVG, ``cell`` user units make a
tile and y runs down, so north is at the top.

What is drawn:

- a tile as a square with its chamfered corners cut off at 45° (:data:`CHAMFER` of a side);
  where four chamfered corners meet, the small square hole they leave, with its marker dot;
- a thin outline, and the tile id small in its north-west corner (with the turn, if any);
- stars as circles, brighter (smaller magnitude) bigger; constellation line pieces as lines;
  each constellation's name (or abbreviation) once, near the centroid of its stars;
- for generic edge-matching sets (``tileset.generic``): the tile as a plain square (the
  pieces of that family are not chamfered) split into four triangles from its centre, one per
  side, colored by the side's label from :data:`EDGE_PALETTE`; label ``"0"``, the border, grey.

>>> from asterion.models.edges import Placement
>>> from asterion.models.nacht_cut import Chart, ChartConstellation, cut
>>> ori = ChartConstellation("Ori", "Orion", ((0.5, 0.5, 0.4), (1.5, 1.5, 1.6)), ((0, 1),))
>>> tiles = cut(Chart("demo", (ori,)), 2, 2, (0, 0, 2, 2))
>>> svg = sky_svg(tiles, ((Placement(0), Placement(1)), (Placement(2), Placement(3))))
>>> svg.count('class="star"'), svg.count('class="segment"'), svg.count('class="marker"')
(2, 2, 1)
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from asterion.errors import InputError
from asterion.models.edges import Arrangement, Placement
from asterion.models.files import plain_digits
from asterion.models.nacht import SIDES, Point, Tile, TileSet, global_point, turn_chamfers
from asterion.render.svg import SVG_NAMESPACE, write_svg

__all__ = [
    "DEFAULT_COLORS",
    "EDGE_PALETTE",
    "arrangements_svg",
    "differing_cells",
    "sky_svg",
    "star_radius",
    "tiles_svg",
    "write_svg",
]

# -- sizes (fractions of a tile's side, unless said otherwise) ----------------------------------

DEFAULT_CELL = 120
"""User units (pixels) per tile."""

CHAMFER = 0.1
"""How far a chamfer cuts along each of the two sides of its corner."""
PADDING = 0.3
"""Space around a picture."""
PANEL_GAP = 0.5
"""Space between two arrangements side by side."""
TILE_GAP = 0.15
"""Space between two tiles of the unassembled picture."""

OUTLINE_WIDTH = 0.012
LINE_WIDTH = 0.014
HIGHLIGHT_WIDTH = 0.035
MARKER_RADIUS = 0.04

STAR_MIN = 0.008
STAR_RANGE = 0.05
STAR_MID_MAG = 2.0
STAR_MAG_SCALE = 1.5
"""A star's radius runs from ``STAR_MIN`` (faint) to ``STAR_MIN + STAR_RANGE`` (bright), a
logistic in the magnitude, half way at ``STAR_MID_MAG``: bounded for any magnitude, and always
bigger for a brighter star."""

ID_SIZE = 0.085
ID_HALO = 0.025
"""A dark rim round the letters of ids and names, so that they read over lines and colors."""
NAME_SIZE = 0.11
NAME_DROP = 0.09
"""A constellation's name sits this far south of its stars' centroid, so it hides none."""
SIDE_LABEL_SIZE = 0.1
TITLE_SIZE = 0.16
TITLE_BAND = 0.3
"""Height of the band holding a picture's title, or a panel's caption."""

DEFAULT_COLORS: dict[str, str] = {
    "backdrop": "#05081a",
    "tile": "#111b3f",
    "outline": "#4b5d94",
    "hole": "#020309",
    "marker": "#d2a25c",
    "star": "#fff3d1",
    "field star": "#9fb0d8",
    "line": "#6f8fd8",
    "name": "#c9d5ff",
    "id": "#7f8db8",
    "title": "#eef2ff",
    "highlight": "#ffc93c",
    "border side": "#7d7d85",
    "side label": "#10131f",
}
"""Colors by role. Override any of them with ``colors=``."""

EDGE_PALETTE: tuple[str, ...] = (
    "#e6194b",
    "#3cb44b",
    "#ffe119",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#bfef45",
    "#fabed4",
    "#469990",
    "#dcbeff",
    "#9a6324",
    "#fffac8",
    "#800000",
    "#aaffc3",
)
"""Side colors of a generic set: its labels other than ``"0"`` in natural order (numbers by
value) take these in turn, starting over after the last."""

_SIDE_TRIANGLES: dict[str, tuple[Point, Point]] = {
    "N": ((0.0, 1.0), (1.0, 1.0)),
    "E": ((1.0, 1.0), (1.0, 0.0)),
    "S": ((1.0, 0.0), (0.0, 0.0)),
    "W": ((0.0, 0.0), (0.0, 1.0)),
}
"""Each side's two corners, tile-local; with the centre they make the side's triangle."""

_OUTLINE_CORNERS: tuple[tuple[str, Point, Point, Point], ...] = (
    ("NW", (0.0, 1.0), (0.0, 1.0 - CHAMFER), (CHAMFER, 1.0)),
    ("NE", (1.0, 1.0), (1.0 - CHAMFER, 1.0), (1.0, 1.0 - CHAMFER)),
    ("SE", (1.0, 0.0), (1.0, CHAMFER), (1.0 - CHAMFER, 0.0)),
    ("SW", (0.0, 0.0), (CHAMFER, 0.0), (0.0, CHAMFER)),
)
"""Clockwise round a tile: each corner, and the two ends of its cut when chamfered."""

_CENTRE: Point = (0.5, 0.5)


def _style(c: Mapping[str, str], cell: float) -> str:
    return f"""
.backdrop {{ fill: {c["backdrop"]}; }}
.tile {{ fill: {c["tile"]}; stroke: {c["outline"]}; stroke-width: {_num(OUTLINE_WIDTH * cell)}; \
stroke-linejoin: round; }}
.side {{ stroke: {c["outline"]}; stroke-width: {_num(OUTLINE_WIDTH * cell / 2)}; }}
.piece-outline {{ fill: none; stroke: {c["outline"]}; \
stroke-width: {_num(OUTLINE_WIDTH * cell)}; }}
.hole {{ fill: {c["hole"]}; stroke: {c["outline"]}; stroke-width: {_num(OUTLINE_WIDTH * cell)}; }}
.marker {{ fill: {c["marker"]}; }}
.segment {{ stroke: {c["line"]}; stroke-width: {_num(LINE_WIDTH * cell)}; \
stroke-linecap: round; stroke-opacity: 0.85; }}
.star {{ fill: {c["star"]}; }}
.star.field {{ fill: {c["field star"]}; }}
.differs {{ fill: none; stroke: {c["highlight"]}; stroke-width: {_num(HIGHLIGHT_WIDTH * cell)}; }}
text {{ font-family: sans-serif; }}
.constellation {{ fill: {c["name"]}; font-size: {_num(NAME_SIZE * cell)}px; \
paint-order: stroke; stroke: {c["tile"]}; stroke-width: {_num(ID_HALO * cell)}; }}
.tile-id {{ fill: {c["id"]}; font-size: {_num(ID_SIZE * cell)}px; paint-order: stroke; \
stroke: {c["tile"]}; stroke-width: {_num(ID_HALO * cell)}; stroke-linejoin: round; }}
.side-label {{ fill: {c["side label"]}; font-size: {_num(SIDE_LABEL_SIZE * cell)}px; }}
.title {{ fill: {c["title"]}; font-size: {_num(TITLE_SIZE * cell)}px; font-weight: bold; }}
"""


# -- where things go ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Frame:
    """Where one picture (x east, y north, one unit per tile, ``height`` tiles tall) lands in
    the SVG: its north-west corner at ``(left, top)``, ``cell`` user units per tile."""

    left: float
    top: float
    height: int
    cell: float

    def xy(self, point: Point) -> tuple[float, float]:
        x, y = point
        return (self.left + x * self.cell, self.top + (self.height - y) * self.cell)


@dataclass(frozen=True)
class _Laid:
    """A tile on a cell of a frame, turned ``turns`` quarter turns clockwise."""

    tile: Tile
    cell: tuple[int, int]
    turns: int
    frame: _Frame

    def at(self, local: Point) -> tuple[float, float]:
        """A point of the tile as printed, in SVG coordinates."""
        return self.frame.xy(global_point(local, self.cell, self.turns, self.frame.height))

    def upright(self, local: Point) -> tuple[float, float]:
        """A point of the cell (picture orientation, whatever the turn), in SVG coordinates."""
        return self.frame.xy(global_point(local, self.cell, 0, self.frame.height))

    def chamfers(self) -> frozenset[str]:
        return turn_chamfers(self.tile.chamfers, self.turns)

    def edges(self) -> tuple[str, ...]:
        """The side labels clockwise from the picture's north, after the turn."""
        labels = self.tile.edges or ("0", "0", "0", "0")
        k = self.turns % 4
        return (labels[-k:] + labels[:-k]) if k else labels


# -- the assembled sky ------------------------------------------------------------------------


def sky_svg(
    tileset: TileSet,
    arrangement: Arrangement,
    *,
    title: str | None = None,
    cell: float = DEFAULT_CELL,
    colors: Mapping[str, str] | None = None,
) -> str:
    """A standalone SVG document picturing the tiles laid out as ``arrangement``.

    Parameters
    ----------
    tileset:
        The tiles; ``arrangement`` refers to them by index in file order.
    arrangement:
        Rows of placements, row 0 = north (``asterion.models.edges``), such as a solver's or
        the verifier's ``Report.placements[0]``. It need not be a valid one: a wrong one is
        drawn as it stands (its chamfers then leave notches rather than holes).
    title:
        A heading above the sky (the document's ``<title>`` is the set's name otherwise).
    cell:
        User units (pixels) per tile.
    colors:
        Overrides of :data:`DEFAULT_COLORS`, by role.

    Returns
    -------
    str
        The SVG document; the same arguments always give the same bytes.

    :raises InputError: if the arrangement is not ``height`` rows of ``width`` placements of
        tiles of the set, or ``cell`` is not positive.
    """
    _check_cell(cell)
    _check_arrangement(tileset, arrangement, "arrangement")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    band = TITLE_BAND * cell if title else 0.0
    pad = PADDING * cell
    width = 2 * pad + tileset.width * cell
    height = band + 2 * pad + tileset.height * cell
    svg = _document(width, height, title or tileset.name, palette, cell)
    if title:
        _text(svg, "title", width / 2, pad + band * 0.6, title, anchor="middle")
    frame = _Frame(pad, band + pad, tileset.height, cell)
    _draw_sky(svg, tileset, arrangement, frame, palette)
    return _finish(svg)


def arrangements_svg(
    tileset: TileSet,
    arrangements: Sequence[Arrangement],
    *,
    titles: Sequence[str],
    cell: float = DEFAULT_CELL,
    colors: Mapping[str, str] | None = None,
) -> str:
    """A standalone SVG document with several arrangements side by side, each under its
    caption, the cells where they differ (:func:`differing_cells`) outlined in every panel.

    Made for the verifier's answer "not unique": two differing arrangements (rules/nacht.md,
    check 4). Parameters as for :func:`sky_svg`; ``titles`` gives one caption per arrangement.

    :raises InputError: for no arrangements, a caption count other than the arrangement
        count, an arrangement that does not fit the set, or ``cell`` not positive.

    >>> from asterion.models.edges import Placement as P
    >>> from asterion.models.nacht import Tile, TileSet
    >>> edges = [("0", "a", "b", "0"), ("0", "0", "b", "a"), ("b", "a", "0", "0"),
    ...          ("b", "0", "0", "a")]
    >>> pieces = tuple(Tile(f"P{i}", frozenset(), edges=e) for i, e in enumerate(edges))
    >>> square = TileSet("2x2", 2, 2, pieces, generic=True)
    >>> one = ((P(0), P(1)), (P(2), P(3)))
    >>> two = ((P(0), P(1)), (P(3), P(2)))
    >>> svg = arrangements_svg(square, [one, two], titles=["first", "second"])
    >>> svg.count('class="differs"')
    4
    """
    _check_cell(cell)
    if not arrangements:
        raise InputError("a comparison needs at least one arrangement", field="arrangements")
    if len(titles) != len(arrangements):
        raise InputError(
            f"{len(titles)} titles for {len(arrangements)} arrangements", field="titles"
        )
    for i, arrangement in enumerate(arrangements):
        _check_arrangement(tileset, arrangement, f"arrangements[{i}]")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    differing = differing_cells(arrangements)

    # -- the panels, left to right ----------------------------------------------------------------
    pad, gap, band = PADDING * cell, PANEL_GAP * cell, TITLE_BAND * cell
    panel_width = tileset.width * cell
    width = 2 * pad + len(arrangements) * panel_width + (len(arrangements) - 1) * gap
    height = band + 2 * pad + tileset.height * cell
    svg = _document(width, height, " | ".join(titles) or tileset.name, palette, cell)
    for i, (arrangement, caption) in enumerate(zip(arrangements, titles, strict=True)):
        left = pad + i * (panel_width + gap)
        panel = ET.SubElement(svg, "g", {"class": "panel"})
        _text(panel, "title", left + panel_width / 2, pad + band * 0.6, caption, anchor="middle")
        frame = _Frame(left, band + pad, tileset.height, cell)
        _draw_sky(panel, tileset, arrangement, frame, palette)
        for r, c in differing:
            x, y = frame.xy((c, tileset.height - r))
            rect = {"class": "differs", "x": _num(x), "y": _num(y)}
            rect |= {"width": _num(cell), "height": _num(cell)}
            ET.SubElement(panel, "rect", rect)
    return _finish(svg)


def differing_cells(arrangements: Sequence[Arrangement]) -> list[tuple[int, int]]:
    """The cells ``(row, column)``, in reading order, whose tile or turn is not the same in
    every arrangement (turns compared modulo 4); the arrangements are all of one shape.

    >>> a = ((Placement(0), Placement(1)),)
    >>> differing_cells([a, ((Placement(0), Placement(1, 2)),)])
    [(0, 1)]
    """
    if not arrangements:
        return []
    first = arrangements[0]
    return [
        (r, c)
        for r, row in enumerate(first)
        for c in range(len(row))
        if len({_same(a[r][c]) for a in arrangements}) > 1
    ]


def _same(placement: Placement) -> tuple[int, int]:
    return (placement.piece, placement.turns % 4)


# -- the unassembled tiles ----------------------------------------------------------------------


def tiles_svg(
    tileset: TileSet,
    *,
    title: str | None = None,
    columns: int | None = None,
    cell: float = DEFAULT_CELL,
    colors: Mapping[str, str] | None = None,
) -> str:
    """A standalone SVG document with the tiles as given: unturned, in file order, left to
    right and then down, ``columns`` to a row (by default the set's width), apart.

    Useful when no arrangement exists. Each tile shows its chamfers, stars, line pieces (or
    side colors) and id; constellation names are left out, as a constellation is not whole
    on loose tiles. Other parameters as for :func:`sky_svg`.

    :raises InputError: if ``columns`` or ``cell`` is not positive.
    """
    _check_cell(cell)
    if columns is not None and columns <= 0:
        raise InputError(f"columns must be a positive number, not {columns}", field="columns")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    count = max(1, len(tileset.tiles))
    used = max(1, min(columns or tileset.width, count))
    rows = -(-count // used)
    pad, gap, band = PADDING * cell, TILE_GAP * cell, TITLE_BAND * cell if title else 0.0
    width = 2 * pad + used * cell + (used - 1) * gap
    height = band + 2 * pad + rows * cell + (rows - 1) * gap
    svg = _document(width, height, title or tileset.name, palette, cell)
    if title:
        _text(svg, "title", width / 2, pad + band * 0.6, title, anchor="middle")
    laid = []
    for i, tile in enumerate(tileset.tiles):
        r, c = divmod(i, used)
        frame = _Frame(pad + c * (cell + gap), band + pad + r * (cell + gap), 1, cell)
        laid.append(_Laid(tile, (0, 0), 0, frame))
    _draw_layers(svg, laid, tileset.generic, palette)
    return _finish(svg)


# -- drawing ------------------------------------------------------------------------------------


def _draw_sky(
    parent: ET.Element,
    tileset: TileSet,
    arrangement: Arrangement,
    frame: _Frame,
    palette: Mapping[str, str],
) -> None:
    """One assembled picture: tiles, holes, lines, stars, names, ids."""
    laid = [
        _Laid(tileset.tiles[placed.piece], (r, c), placed.turns, frame)
        for r, row in enumerate(arrangement)
        for c, placed in enumerate(row)
    ]
    _draw_layers(parent, laid, tileset.generic, palette, holes=not tileset.generic)
    if not tileset.generic:
        _draw_names(parent, tileset, laid)


def _draw_layers(
    parent: ET.Element,
    laid: Sequence[_Laid],
    generic: bool,
    palette: Mapping[str, str],
    *,
    holes: bool = False,
) -> None:
    """The tiles in layers, so that no tile hides another's lines: faces, holes, line
    pieces, stars, ids."""
    faces = ET.SubElement(parent, "g", {"class": "tiles"})
    labels = _edge_colors(laid, palette) if generic else {}
    for one in laid:
        if generic:
            _draw_sides(faces, one, labels)
        else:
            _draw_face(faces, one)
    if holes:
        _draw_holes(parent, laid)
    if not generic:
        _draw_lines(parent, laid)
        _draw_stars(parent, laid)
    ids = ET.SubElement(parent, "g", {"class": "ids"})
    for one in laid:
        x, y = one.upright((CHAMFER * 1.1, 1 - CHAMFER * 0.3))
        turned = f" ↻{90 * (one.turns % 4)}°" if one.turns % 4 else ""
        _text(ids, "tile-id", x, y + ID_SIZE * one.frame.cell, one.tile.id + turned)


def _draw_lines(parent: ET.Element, laid: Sequence[_Laid]) -> None:
    group = ET.SubElement(parent, "g", {"class": "lines"})
    for one in laid:
        for segment in one.tile.segments:
            (x1, y1), (x2, y2) = one.at(segment.a), one.at(segment.b)
            line = {"class": "segment", "x1": _num(x1), "y1": _num(y1), "x2": _num(x2)}
            line |= {"y2": _num(y2), "data-constellation": segment.constellation}
            ET.SubElement(group, "line", line)


def _draw_stars(parent: ET.Element, laid: Sequence[_Laid]) -> None:
    group = ET.SubElement(parent, "g", {"class": "stars"})
    for one in laid:
        for star in one.tile.stars:
            x, y = one.at((star.x, star.y))
            circle = _circle("star", x, y, star_radius(star.mag, one.frame.cell))
            if star.constellation:
                circle["data-constellation"] = star.constellation
            else:
                circle["class"] = "star field"
            caption = f"{star.constellation or 'field star'}, magnitude {_num(star.mag)}"
            ET.SubElement(ET.SubElement(group, "circle", circle), "title").text = caption


def star_radius(magnitude: float, cell: float = DEFAULT_CELL) -> float:
    """A star's radius in user units: bigger the brighter (the smaller the magnitude), between
    ``STAR_MIN`` and ``STAR_MIN + STAR_RANGE`` of a side.

    >>> star_radius(0.0) > star_radius(1.0) > star_radius(6.0) > STAR_MIN * DEFAULT_CELL
    True
    """
    bright = 1 / (1 + math.exp((magnitude - STAR_MID_MAG) / STAR_MAG_SCALE))
    return cell * (STAR_MIN + STAR_RANGE * bright)


def _draw_face(parent: ET.Element, one: _Laid) -> None:
    """The tile's square with its chamfered corners cut off, as it lies."""
    chamfers = one.chamfers()
    outline: list[Point] = []
    for name, corner, start, end in _OUTLINE_CORNERS:
        outline += [start, end] if name in chamfers else [corner]
    polygon = ET.SubElement(
        parent, "polygon", {"class": "tile", "points": _points(one.upright(p) for p in outline)}
    )
    ET.SubElement(polygon, "title").text = _tile_caption(one)


def _draw_sides(parent: ET.Element, one: _Laid, colors: Mapping[str, str]) -> None:
    """A generic piece: a triangle per side from the centre, in the color of its label."""
    group = ET.SubElement(parent, "g", {"class": "piece"})
    ET.SubElement(group, "title").text = _tile_caption(one)
    for side, label in zip(SIDES, one.edges(), strict=True):
        a, b = _SIDE_TRIANGLES[side]
        cls = "side border" if label == "0" else "side"
        points = _points(one.upright(p) for p in (a, b, _CENTRE))
        triangle = {"class": cls, "points": points, "fill": colors[label]}
        ET.SubElement(group, "polygon", triangle | {"data-label": label})
        if label != "0":
            middle = ((a[0] + b[0] + _CENTRE[0]) / 3, (a[1] + b[1] + _CENTRE[1]) / 3)
            x, y = one.upright(middle)
            size = SIDE_LABEL_SIZE * one.frame.cell
            _text(group, "side-label", x, y + 0.35 * size, label, anchor="middle")
    corners = [(0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)]
    square = {"class": "piece-outline", "points": _points(one.upright(p) for p in corners)}
    ET.SubElement(group, "polygon", square)


def _tile_caption(one: _Laid) -> str:
    turns = one.turns % 4
    return one.tile.id + (f", turned {turns} quarter turn{'s' * (turns > 1)}" if turns else "")


def _draw_holes(parent: ET.Element, laid: Sequence[_Laid]) -> None:
    """Where four chamfered corners meet: the square hole they leave, and its marker."""
    by_cell = {one.cell: one for one in laid}
    group = ET.SubElement(parent, "g", {"class": "holes"})
    for one in laid:
        r, c = one.cell
        around = {
            "SE": by_cell.get((r, c)),
            "SW": by_cell.get((r, c + 1)),
            "NE": by_cell.get((r + 1, c)),
            "NW": by_cell.get((r + 1, c + 1)),
        }
        if not all(
            tile is not None and corner in tile.chamfers() for corner, tile in around.items()
        ):
            continue
        diamond = [(1.0, -CHAMFER), (1 + CHAMFER, 0.0), (1.0, CHAMFER), (1 - CHAMFER, 0.0)]
        ET.SubElement(
            group, "polygon", {"class": "hole", "points": _points(map(one.upright, diamond))}
        )
        x, y = one.upright((1.0, 0.0))
        ET.SubElement(group, "circle", _circle("marker", x, y, MARKER_RADIUS * one.frame.cell))


def _draw_names(parent: ET.Element, tileset: TileSet, laid: Sequence[_Laid]) -> None:
    """Each constellation's name once, just south of the centroid of its stars (of its line
    ends if none of its stars is on the tiles); the set's constellations first, in order."""
    stars: dict[str, list[tuple[float, float]]] = {}
    ends: dict[str, list[tuple[float, float]]] = {}
    for one in laid:
        for star in one.tile.stars:
            if star.constellation:
                stars.setdefault(star.constellation, []).append(one.at((star.x, star.y)))
        for segment in one.tile.segments:
            ends.setdefault(segment.constellation, []).extend(map(one.at, (segment.a, segment.b)))
    points = {**ends, **stars}
    names = {c.abbr: c.name or c.abbr for c in tileset.constellations}
    order = [c.abbr for c in tileset.constellations if c.abbr in points]
    order += sorted(set(points) - set(order))
    group = ET.SubElement(parent, "g", {"class": "names"})
    drop = (NAME_DROP + NAME_SIZE) * laid[0].frame.cell if laid else 0.0
    for abbr in order:
        xs, ys = zip(*points[abbr], strict=True)
        x, y = sum(xs) / len(xs), sum(ys) / len(ys) + drop
        label = _text(group, "constellation", x, y, names.get(abbr, abbr), anchor="middle")
        label.set("data-constellation", abbr)


def _edge_colors(laid: Sequence[_Laid], palette: Mapping[str, str]) -> dict[str, str]:
    """A color per side label: the border grey, the others from :data:`EDGE_PALETTE`."""
    labels = sorted({label for one in laid for label in one.edges() if label != "0"}, key=_natural)
    colors = {label: EDGE_PALETTE[i % len(EDGE_PALETTE)] for i, label in enumerate(labels)}
    colors["0"] = palette["border side"]
    return colors


def _natural(label: str) -> tuple[int, int, str]:
    """Numbers by value before other labels: ``"2" < "10" < "a"``."""
    return (0, int(label), label) if plain_digits(label) else (1, 0, label)


# -- checks and helpers -------------------------------------------------------------------------


def _check_cell(cell: float) -> None:
    if not cell > 0:
        raise InputError(f"cell must be a positive size, not {cell}", field="cell")


def _check_arrangement(tileset: TileSet, arrangement: Arrangement, what: str) -> None:
    shape = [len(row) for row in arrangement]
    if shape != [tileset.width] * tileset.height:
        raise InputError(
            f"rows of {shape} placements; the set is {tileset.width}x{tileset.height}",
            field=what,
        )
    for r, row in enumerate(arrangement):
        for c, placed in enumerate(row):
            if not 0 <= placed.piece < len(tileset.tiles):
                raise InputError(
                    f"tile index {placed.piece}; the set has {len(tileset.tiles)} tiles",
                    field=f"{what}[{r}][{c}]",
                )


def _document(
    width: float, height: float, title: str, palette: Mapping[str, str], cell: float
) -> ET.Element:
    """The root: its size, title, style sheet and dark backdrop."""
    size = {"width": _num(width), "height": _num(height)}
    view = {"viewBox": f"0 0 {size['width']} {size['height']}"}
    svg = ET.Element("svg", {"xmlns": SVG_NAMESPACE, "version": "1.1"} | size | view)
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "style").text = _style(palette, cell)
    ET.SubElement(svg, "rect", {"class": "backdrop", "x": "0", "y": "0"} | size)
    return svg


def _finish(svg: ET.Element) -> str:
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


def _text(
    parent: ET.Element, cls: str, x: float, y: float, content: str, *, anchor: str = "start"
) -> ET.Element:
    position = {"class": cls, "x": _num(x), "y": _num(y), "text-anchor": anchor}
    text = ET.SubElement(parent, "text", position)
    text.text = content
    return text


def _circle(cls: str, x: float, y: float, r: float) -> dict[str, str]:
    return {"class": cls, "cx": _num(x), "cy": _num(y), "r": _num(r)}


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _num(value: float) -> str:
    """A short, stable decimal: ``12``, ``12.5``, ``-3.25``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
