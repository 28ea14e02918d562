"""Nacht der Sterne tile sets: tiles, chamfers, fragments, and their edge-matching colors.

A tile set (rules/nacht.md) is W x H square tiles that assemble into one sky. Each tile carries
its chamfered corners, its stars and the pieces of constellation lines clipped to it; where a
line piece ends on a side, it leaves a *fragment* that the neighbouring tile must continue.
Generic edge-matching sets give a label per side instead.

Tile-local coordinates: x east, y north, the tile is [0, 1]^2 (N side y = 1, E side x = 1).

A side's fragments, read clockwise around the tile (N west to east, E north to south, S east to
west, W south to north), form its *signature*; the facing side of the neighbour reads the same
points the other way round, so two sides fit when one signature is the other's mirror
(offsets ``t -> 1 - t``) within the tolerance N1. :func:`edge_problem` turns a tile set into
the colored pieces of :mod:`asterion.models.edges`, where that mirror is the ``mate`` of a
color.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from asterion.models.edges import (
    BORDER,
    EAST,
    SOUTH,
    Arrangement,
    EdgeProblem,
    Piece,
    Placement,
    turn,
)

TOLERANCE = 0.02
"""N1: fragment offsets on facing sides agree within this fraction of a side."""

ON_SIDE = 1e-9
"""A segment end this close to a side lies on it (the cutter writes exact 0 and 1)."""

SIDES = ("N", "E", "S", "W")
CORNERS = ("NE", "NW", "SW", "SE")
SIDE_CORNERS = {"N": ("NW", "NE"), "E": ("NE", "SE"), "S": ("SE", "SW"), "W": ("SW", "NW")}
"""Each side's two corners, clockwise."""

Point = tuple[float, float]


class Role(StrEnum):
    """Where a chamfer pattern puts a tile in the finished picture."""

    CORNER = "corner"
    BORDER = "border"
    INTERIOR = "interior"
    INVALID = "invalid"


@dataclass(frozen=True)
class Star:
    x: float
    y: float
    mag: float
    constellation: str | None = None


@dataclass(frozen=True)
class Segment:
    constellation: str
    a: Point
    b: Point


Fragment = tuple[float, str]
"""(offset read clockwise along the side, constellation)."""


@dataclass(frozen=True)
class Tile:
    """One tile as printed (rotation 0)."""

    id: str
    chamfers: frozenset[str]
    stars: tuple[Star, ...] = ()
    segments: tuple[Segment, ...] = ()
    edges: tuple[str, str, str, str] | None = None
    labels: tuple[str, ...] = ()

    def border_sides(self) -> tuple[str, ...]:
        """The sides the chamfers put on the outer border: both corners straight."""
        return tuple(
            side
            for side in SIDES
            if not any(corner in self.chamfers for corner in SIDE_CORNERS[side])
        )

    def role(self) -> Role:
        """Corner (1 chamfer), border (2 adjacent), interior (4), or a pattern no grid has."""
        count = len(self.chamfers)
        if count == 4:
            return Role.INTERIOR
        if count == 1:
            return Role.CORNER
        if count == 2 and len(self.border_sides()) == 1:
            return Role.BORDER
        return Role.INVALID

    def fragments(self, side: str) -> tuple[Fragment, ...]:
        """The side's signature: where line pieces end on it, read clockwise, sorted.

        Ends at a corner are left out: the line goes on in the diagonal tile, which no side
        shows (the cutter's note)."""
        points: list[Fragment] = []
        for segment in self.segments:
            for end in (segment.a, segment.b):
                offset = clockwise_offset(side, end)
                if offset is not None and ON_SIDE < offset < 1 - ON_SIDE:
                    points.append((round(offset, DIGITS), segment.constellation))
        return tuple(sorted(points))


def clockwise_offset(side: str, point: Point) -> float | None:
    """Where ``point`` lies along ``side``, read clockwise, or None if it is not on it."""
    x, y = point
    if side == "N" and abs(y - 1) <= ON_SIDE:
        return x
    if side == "E" and abs(x - 1) <= ON_SIDE:
        return 1 - y
    if side == "S" and abs(y) <= ON_SIDE:
        return 1 - x
    if side == "W" and abs(x) <= ON_SIDE:
        return y
    return None


DIGITS = 9
"""Offsets are kept to this many decimals, so that mirroring twice gives the same signature."""


def mirror(signature: Sequence[Fragment]) -> tuple[Fragment, ...]:
    """The signature as the facing side reads it."""
    return tuple(sorted((round(1 - offset, DIGITS), name) for offset, name in signature))


def within(t: float, u: float, tolerance: float = TOLERANCE) -> bool:
    """N1's "the same offset": ``t`` and ``u`` differ by at most ``tolerance``, with room for
    the rounding of offsets to ``DIGITS`` places (0.3 and 0.32 are 0.02 apart)."""
    return abs(t - u) <= tolerance + 10.0**-DIGITS


def close(a: Sequence[Fragment], b: Sequence[Fragment], tolerance: float = TOLERANCE) -> bool:
    """The same fragments within ``tolerance``: per constellation the same number, and offsets
    that pair up in order. (Compared per constellation, so two lines crossing a side close
    together may come in either order.)"""
    if len(a) != len(b):
        return False
    by_name_a, by_name_b = _by_name(a), _by_name(b)
    return by_name_a.keys() == by_name_b.keys() and all(
        len(ts) == len(by_name_b[name])
        and all(within(t, u, tolerance) for t, u in zip(ts, by_name_b[name], strict=True))
        for name, ts in by_name_a.items()
    )


def shape(signature: Sequence[Fragment]) -> tuple[tuple[str, int], ...]:
    """How many fragments of each constellation: :func:`close` signatures have the same
    shape, so only signatures of one shape need comparing (a 32 x 32 set has thousands of
    sides, and comparing every pair took some 20 s)."""
    counts: dict[str, int] = {}
    for _, name in signature:
        counts[name] = counts.get(name, 0) + 1
    return tuple(sorted(counts.items()))


def _by_name(signature: Sequence[Fragment]) -> dict[str, list[float]]:
    grouped: dict[str, list[float]] = {}
    for offset, name in signature:
        grouped.setdefault(name, []).append(offset)
    return {name: sorted(offsets) for name, offsets in grouped.items()}


@dataclass(frozen=True)
class Constellation:
    abbr: str
    name: str


@dataclass(frozen=True)
class TileSet:
    """A whole set: the grid, the tiles in file order, and the parameters that judge it."""

    name: str
    width: int
    height: int
    tiles: tuple[Tile, ...]
    constellations: tuple[Constellation, ...] = ()
    rotations: bool = False
    """N2: tiles have a printed "up"; rotations off by default."""
    tolerance: float = TOLERANCE
    """N1."""
    allow_border_fragments: bool = False
    """N3: a line may not leave the sky unless the chart allows clipping."""
    expected_constellations: int | None = None
    markers: int | None = None
    generic: bool = field(default=False)
    """True when the tiles carry side labels (``edges``) rather than stars and lines."""

    def tile_index(self, tile_id: str) -> int:
        return next(i for i, tile in enumerate(self.tiles) if tile.id == tile_id)

    def interior_vertices(self) -> int:
        return (self.width - 1) * (self.height - 1)


@dataclass(frozen=True)
class Encoding:
    """A tile set as colored pieces, with what each color stands for."""

    problem: EdgeProblem
    meanings: tuple[tuple[Fragment, ...] | str, ...]
    """Per color: the clockwise signature, or the side label (generic sets)."""
    turns_in_place: tuple[tuple[int, ...], ...] = ()
    """Per tile, with rotations on: the quarter turns that keep its side colors but change
    its picture (a star or line off the sides, turned), each distinct picture once. Turned
    so, wherever it lies, the tile makes another arrangement (rule 4), which the engines,
    seeing only sides, do not tell apart: see :func:`picture_turns`."""
    chains: tuple[tuple[tuple[Fragment, ...], ...], ...] = ()
    """Signatures that a chain of near misses holds together (a within N1 of b, b of c, not
    a of c): their sides are matched through :attr:`EdgeProblem.near` (engines that match by
    mates alone cannot take such a set)."""


BLANK = 1
"""The color of an inner side with no fragment (it meets another blank side)."""


def edge_problem(tileset: TileSet, *, border_fragments_fit: bool | None = None) -> Encoding:
    """The tile set as an edge-matching problem.

    A side the chamfers put on the border gets color 0; if it carries fragments and border
    fragments are not allowed (N3, or ``border_fragments_fit=False``) it gets a color of its own
    that nothing mates, so no arrangement uses it. Inner sides get colors exact to N1
    (:class:`_SignatureColors`): a signature's mate is its mirror's color, and beside a chain
    of near misses some colors are near (:attr:`EdgeProblem.near`).
    """
    if tileset.generic:
        return _generic_problem(tileset)
    fits = tileset.allow_border_fragments if border_fragments_fit is None else border_fragments_fit
    signatures = [[tile.fragments(side) for side in SIDES] for tile in tileset.tiles]
    inner = [
        signature
        for tile, sides in zip(tileset.tiles, signatures, strict=True)
        for side, signature in zip(SIDES, sides, strict=True)
        if signature and side not in tile.border_sides()
    ]
    colors = _SignatureColors(inner, tileset.tolerance)
    pieces: list[Piece] = []
    for tile, sides in zip(tileset.tiles, signatures, strict=True):
        border = tile.border_sides()
        piece = []
        for side, signature in zip(SIDES, sides, strict=True):
            if side in border:
                piece.append(BORDER if fits or not signature else colors.orphan(signature))
            else:
                piece.append(colors.color(signature) if signature else BLANK)
        pieces.append((piece[0], piece[1], piece[2], piece[3]))
    problem = EdgeProblem(
        tuple(pieces),
        tileset.width,
        tileset.height,
        tileset.rotations,
        tuple(colors.mate),
        colors.near_table(),
    )
    in_place = tuple(
        picture_turns(tile, piece) for tile, piece in zip(tileset.tiles, pieces, strict=True)
    )
    return Encoding(
        problem,
        tuple(colors.meanings),
        in_place if tileset.rotations else (),
        tuple(colors.chains),
    )


def misfits(
    tileset: TileSet, arrangement: Arrangement, *, border_fragments_fit: bool | None = None
) -> list[str]:
    """Every way an arrangement breaks the rules (rules/nacht.md, check 3), read off the tiles
    rather than their colors, so that it re-checks the encoding as well: each tile once, turned
    only with rotations on; the sides its chamfers put on the border on the outer border, and
    only those, without fragments there unless lines may leave the sky (N3, or
    ``border_fragments_fit``); facing sides whose fragments coincide within N1, or whose
    labels agree. Empty: the arrangement is one of the set's."""
    w, h = tileset.width, tileset.height
    used = sorted(p.piece for row in arrangement for p in row)
    if len(arrangement) != h or any(len(row) != w for row in arrangement):
        return [f"not a {w}x{h} grid"]
    if used != list(range(len(tileset.tiles))):
        return ["tiles not used exactly once each"]
    fits = tileset.allow_border_fragments if border_fragments_fit is None else border_fragments_fit
    found = []
    for r, row in enumerate(arrangement):
        for c, placed in enumerate(row):
            tile = tileset.tiles[placed.piece]
            where = f"tile {tile.id} at row {r}, column {c}"
            if placed.turns and not tileset.rotations:
                found.append(f"{where}: turned although rotations are off")
            outside = (r == 0, c == w - 1, r == h - 1, c == 0)
            for direction, side in enumerate(_facing(placed)):
                if outside[direction] != (side in tile.border_sides()):
                    found.append(f"{where}: side {side} {_against_chamfers(outside[direction])}")
                elif outside[direction] and not _may_face_out(tile, side, fits):
                    found.append(f"{where}: side {side}: a line leaves the sky")
            if c + 1 < w and not _sides_fit(tileset, placed, row[c + 1], EAST):
                found.append(f"{where}: its east side does not fit its neighbour's")
            if r + 1 < h and not _sides_fit(tileset, placed, arrangement[r + 1][c], SOUTH):
                found.append(f"{where}: its south side does not fit its neighbour's")
    return found


def _facing(placed: Placement) -> tuple[str, ...]:
    """The printed sides that face north, east, south and west once the tile is turned (a
    quarter turn clockwise brings its west side north)."""
    return tuple(SIDES[(direction - placed.turns) % 4] for direction in range(4))


def _against_chamfers(outside: bool) -> str:
    if outside:
        return "lies on the outer border, where its chamfers put it inside"
    return "lies inside, where its chamfers put it on the outer border"


def _may_face_out(tile: Tile, side: str, fits: bool) -> bool:
    """A border side: a label must say border; fragments only where lines may leave the sky."""
    if tile.edges is not None:
        return tile.edges[SIDES.index(side)] == "0"
    return fits or not tile.fragments(side)


def _sides_fit(tileset: TileSet, a: Placement, b: Placement, direction: int) -> bool:
    """Whether ``a``'s side facing ``direction`` fits ``b``'s side facing back."""
    tile_a, tile_b = tileset.tiles[a.piece], tileset.tiles[b.piece]
    side_a, side_b = _facing(a)[direction], _facing(b)[(direction + 2) % 4]
    if tile_a.edges is not None and tile_b.edges is not None:
        label = tile_a.edges[SIDES.index(side_a)]
        return label != "0" and label == tile_b.edges[SIDES.index(side_b)]
    return close(tile_a.fragments(side_a), mirror(tile_b.fragments(side_b)), tileset.tolerance)


def picture_turns(tile: Tile, piece: Piece) -> tuple[int, ...]:
    """The quarter turns (1-3) that leave ``piece``'s side colors as they are yet show another
    picture, one per picture (a tile whose sides look alike every quarter turn and holds an
    off-centre star has three)."""
    seen = {_picture(tile, 0)}
    turns = []
    for k in (1, 2, 3):
        picture = _picture(tile, k)
        if turn(piece, k) == piece and picture not in seen:
            seen.add(picture)
            turns.append(k)
    return tuple(turns)


def _picture(tile: Tile, turns: int) -> frozenset[tuple[object, ...]]:
    """The tile's stars and lines after ``turns`` quarter turns, as a set to compare."""

    def at(point: Point) -> tuple[float, float]:
        x, y = turn_point(point, turns)
        return (round(x, DIGITS - 3), round(y, DIGITS - 3))

    stars = {("star", at((s.x, s.y)), s.mag, s.constellation) for s in tile.stars}
    lines = {("line", frozenset({at(s.a), at(s.b)}), s.constellation) for s in tile.segments}
    return frozenset(stars | lines)


class _SignatureColors:
    """Colors for signatures, exact to N1. Signatures are grouped by "within the tolerance"
    (connected groups, closed under mirroring). In a group whose members are all within N1 of
    one another (the usual case) every member fits what any other fits, so the group is one
    color, and its mate is the mirror group's. A group that only a chain of near misses holds
    together (a within N1 of b, b of c, but not a of c) gets a color per class of members
    that are within N1 of the same members (:func:`_fit_classes`); a color is then *near*
    the mates of the other classes within N1 of its own: sides of those colors fit, though
    they are not mates (:attr:`EdgeProblem.near`)."""

    def __init__(self, signatures: Iterable[tuple[Fragment, ...]], tolerance: float):
        self.meanings: list[tuple[Fragment, ...] | str] = ["border", "blank"]
        self.mate: list[int] = [BORDER, BLANK]
        distinct: list[tuple[Fragment, ...]] = []
        for signature in signatures:
            for variant in (signature, mirror(signature)):
                if variant not in distinct:
                    distinct.append(variant)
        self._color_of: dict[tuple[Fragment, ...], int] = {}
        self.chains: list[tuple[tuple[Fragment, ...], ...]] = []
        self._near: dict[int, list[int]] = {}
        classes_of_chains: list[list[list[tuple[Fragment, ...]]]] = []
        for group in _groups(distinct, tolerance):
            if all(close(a, b, tolerance) for a in group for b in group):
                self._new_color(group)
                continue
            classes = _fit_classes(group, tolerance)
            for members in classes:
                self._new_color(members)
            classes_of_chains.append(classes)
            if not any(mirror(group[0]) in other for other in self.chains):
                self.chains.append(tuple(group))  # (its mirror image is the same chain)
        for signature, color in self._color_of.items():
            self.mate[color] = self._color_of[mirror(signature)]
        for classes in classes_of_chains:
            for k in classes:
                self._near[self.color(k[0])] = sorted(
                    self.mate[self.color(j[0])]
                    for j in classes
                    if j is not k and close(k[0], j[0], tolerance)
                )

    def _new_color(self, members: list[tuple[Fragment, ...]]) -> None:
        color = len(self.meanings)
        self.meanings.append(members[0])
        self.mate.append(-1)
        for member in members:
            self._color_of[member] = color

    def color(self, signature: tuple[Fragment, ...]) -> int:
        return self._color_of[signature]

    def orphan(self, signature: tuple[Fragment, ...]) -> int:
        """A color no other side has and that mates with nothing placeable."""
        color = len(self.meanings)
        self.meanings.append(signature)
        self.mate.append(color)
        return color

    def near_table(self) -> tuple[tuple[int, ...], ...] | None:
        """Per color, the colors near it (:attr:`EdgeProblem.near`); None without a chain."""
        if not any(self._near.values()):
            return None
        return tuple(tuple(self._near.get(color, ())) for color in range(len(self.meanings)))


def _fit_classes(
    group: list[tuple[Fragment, ...]], tolerance: float
) -> list[list[tuple[Fragment, ...]]]:
    """The members of ``group`` classed by the members they are within ``tolerance`` of: a
    side of one member fits exactly what a side of another member of its class fits."""
    classes: dict[frozenset[tuple[Fragment, ...]], list[tuple[Fragment, ...]]] = {}
    for a in group:
        within = frozenset(b for b in group if close(a, b, tolerance))
        classes.setdefault(within, []).append(a)
    return list(classes.values())


def _groups(
    signatures: list[tuple[Fragment, ...]], tolerance: float
) -> list[list[tuple[Fragment, ...]]]:
    """Connected groups of the relation "within the tolerance" (union-find)."""
    parent = list(range(len(signatures)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    alike: dict[tuple[tuple[str, int], ...], list[int]] = {}
    for i, a in enumerate(signatures):
        earlier = alike.setdefault(shape(a), [])
        for j in earlier:
            if close(a, signatures[j], tolerance):
                parent[root(i)] = root(j)
        earlier.append(i)
    groups: dict[int, list[tuple[Fragment, ...]]] = {}
    for i, signature in enumerate(signatures):
        groups.setdefault(root(i), []).append(signature)
    return list(groups.values())


def _generic_problem(tileset: TileSet) -> Encoding:
    """Labels as colors (identity mate). A side whose label says border but whose chamfers say
    inside, or the other way round, gets a color of its own that fits nothing: the tile cannot
    sit where both say."""
    labels = sorted({label for tile in tileset.tiles for label in tile.edges or () if label != "0"})
    color = {label: i + 1 for i, label in enumerate(labels)}
    color["0"] = BORDER
    meanings: list[str] = ["0", *labels]
    pieces: list[Piece] = []
    for tile in tileset.tiles:
        assert tile.edges is not None
        outside = tile.border_sides()
        piece = []
        for side, label in zip(SIDES, tile.edges, strict=True):
            if (label == "0") == (side in outside):
                piece.append(color[label])
            else:
                piece.append(len(meanings))
                meanings.append(f"{label} (against the chamfers)")
        pieces.append((piece[0], piece[1], piece[2], piece[3]))
    problem = EdgeProblem(tuple(pieces), tileset.width, tileset.height, tileset.rotations)
    return Encoding(problem, tuple(meanings))


def chamfers_for(width: int, height: int, row: int, col: int) -> frozenset[str]:
    """The chamfered corners of the tile at (row, col), row 0 = north: the interior vertices.

    >>> sorted(chamfers_for(5, 5, 0, 0))
    ['SE']
    """
    corners = {
        "NE": row > 0 and col < width - 1,
        "NW": row > 0 and col > 0,
        "SW": row < height - 1 and col > 0,
        "SE": row < height - 1 and col < width - 1,
    }
    return frozenset(name for name, inner in corners.items() if inner)


def turn_chamfers(chamfers: frozenset[str], turns: int) -> frozenset[str]:
    """Chamfers after ``turns`` quarter turns clockwise (NE goes to SE)."""
    order = ("NE", "SE", "SW", "NW")
    return frozenset(order[(order.index(c) + turns) % 4] for c in chamfers)


def derived_chamfers(edges: Sequence[str]) -> frozenset[str]:
    """For a labelled tile: a corner is chamfered unless one of its sides is the border."""
    border = {side for side, label in zip(SIDES, edges, strict=True) if label == "0"}
    return frozenset(
        corner
        for corner in CORNERS
        if not any(side in border for side, ends in SIDE_CORNERS.items() if corner in ends)
    )


def turn_point(point: tuple[float, float], turns: int) -> tuple[float, float]:
    """A tile-local point after ``turns`` quarter turns clockwise about the tile's centre."""
    x, y = point
    for _ in range(turns % 4):
        x, y = y, 1 - x
    return (x, y)


def global_point(
    point: tuple[float, float], cell: tuple[int, int], turns: int, height: int
) -> tuple[float, float]:
    """A tile-local point in picture coordinates (x east, y north, one unit per tile)."""
    x, y = turn_point(point, turns)
    r, c = cell
    return (c + x, height - 1 - r + y)
