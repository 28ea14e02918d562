"""The Aster board: concentric squares around a center, as a ``networkx`` graph.

Conventions (rules/aster.md, "Board"):

* ``R`` rings, ring 1 outermost, ring ``R`` innermost; ring ``r`` has half-size
  ``h = R + 1 - r``. Its 8 points are ``h`` times the 8 compass unit vectors, so corners are
  ``(±h, ±h)`` and side midpoints ``(0, ±h)``, ``(±h, 0)``. The center ``C`` is ``(0, 0)``.
* Integer lattice coordinates, ``y`` pointing north.
* Point names: ring number then direction (``2NE``, ``4S``, ``1W``), and ``C``.
* Edges carry ``kind``: ``ring`` joins consecutive points of a square, ``line`` joins the
  points of a spoke ``d1 – d2 – … – dR – C``.

Straight lines (for ``move_line``) and rings (for ``move_ring``) are *derived* from the graph:
a straight line is a maximal chain of collinear edges, a ring a connected component of the
``ring`` edges.

>>> board = Board()
>>> len(board.points), board.graph.number_of_edges()
(33, 64)
>>> board.coords["2NE"]
(3, 3)
>>> sorted(board.lines_through("2NE")[0])
['1NE', '1SW', '2NE', '2SW', '3NE', '3SW', '4NE', '4SW', 'C']
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

import networkx as nx

from asterion.errors import InputError

Point = str
"""A point name: ``"2NE"``, ``"4S"``, ``"C"``."""

Vector = tuple[int, int]
"""A lattice vector ``(x, y)``, ``y`` pointing north."""

CENTER: Point = "C"
MIN_RINGS = 2
MAX_RINGS = 9
DEFAULT_RINGS = 4


class Direction(Enum):
    """The 8 compass directions, in clockwise order from north; values are unit vectors."""

    N = (0, 1)
    NE = (1, 1)
    E = (1, 0)
    SE = (1, -1)
    S = (0, -1)
    SW = (-1, -1)
    W = (-1, 0)
    NW = (-1, 1)

    @property
    def vector(self) -> Vector:
        x, y = self.value
        return (x, y)

    @property
    def is_corner(self) -> bool:
        x, y = self.value
        return x != 0 and y != 0


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

DEFAULT_GENERATION_POINTS: tuple[Point, ...] = ("1NE", "1SE", "1SW", "1NW", CENTER)
"""A2: the 4 corners of ring 1 and the center ("un angolo o al centro della mappa")."""

_POINT_NAME = re.compile(r"^([1-9])(NE|NW|SE|SW|N|E|S|W)$")


def point_name(ring: int, direction: Direction) -> Point:
    """The name of the point of ``ring`` in ``direction``.

    >>> point_name(2, Direction.NE)
    '2NE'
    """
    return f"{ring}{direction.name}"


def parse_point(name: str) -> tuple[int, Direction] | None:
    """``(ring, direction)`` for a ring point name, ``None`` for the center.

    :raises InputError: if ``name`` is not a point name at all.
    """
    if name == CENTER:
        return None
    match = _POINT_NAME.match(name)
    if match is None:
        raise InputError(f"unknown point {name!r} (expected a name like '2NE', '4S' or 'C')")
    return int(match.group(1)), Direction[match.group(2)]


def _scaled(vector: Vector, factor: int) -> Vector:
    return (vector[0] * factor, vector[1] * factor)


def _direction_between(a: Vector, b: Vector) -> Vector:
    """The primitive direction of the segment a→b, with a canonical sign (so a→b and b→a agree)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    step = max(abs(dx), abs(dy))
    ux, uy = dx // step, dy // step
    if ux < 0 or (ux == 0 and uy < 0):
        ux, uy = -ux, -uy
    return (ux, uy)


@dataclass(frozen=True)
class Board:
    """An Aster board of ``rings`` concentric squares, with the rule parameters of its geometry.

    Parameters
    ----------
    rings:
        Number of concentric squares ``R``, from 2 to 9 (default 4: 33 points).
    sides_are_lines:
        A1. Whether the sides of the squares count as straight lines for ``move_line``
        (default ``False``: ring movement covers them).
    generation_points:
        A2. The points where ``generate`` may place a star (default: the 4 corners of ring 1
        and the center).
    line_blocking:
        A4. Whether stars standing between block ``move_line`` (default ``False``).

    Boards compare and hash by these parameters; the derived geometry is cached.
    """

    rings: int = DEFAULT_RINGS
    sides_are_lines: bool = False
    generation_points: tuple[Point, ...] = DEFAULT_GENERATION_POINTS
    line_blocking: bool = False

    def __post_init__(self) -> None:
        if not MIN_RINGS <= self.rings <= MAX_RINGS:
            raise InputError(
                f"rings must be from {MIN_RINGS} to {MAX_RINGS}, not {self.rings}", field="rings"
            )
        object.__setattr__(self, "generation_points", tuple(self.generation_points))
        for name in self.generation_points:
            if name not in self.index:
                raise InputError(
                    f"generation point {name!r} is not a point of a {self.rings}-ring board",
                    field="generation_points",
                )

    # -- points -----------------------------------------------------------------------------

    @cached_property
    def points(self) -> tuple[Point, ...]:
        """All points: ring 1 clockwise from N, then ring 2, …, then ``C``."""
        ring_points = [point_name(r, d) for r in range(1, self.rings + 1) for d in DIRECTIONS]
        return (*ring_points, CENTER)

    @cached_property
    def index(self) -> dict[Point, int]:
        """Position of each point in :attr:`points`."""
        return {name: i for i, name in enumerate(self.points)}

    @cached_property
    def coords(self) -> dict[Point, Vector]:
        """Lattice coordinates of each point."""
        result: dict[Point, Vector] = {CENTER: (0, 0)}
        for r in range(1, self.rings + 1):
            for d in DIRECTIONS:
                result[point_name(r, d)] = _scaled(d.vector, self.half_size(r))
        return result

    @cached_property
    def at(self) -> dict[Vector, Point]:
        """The point at each occupied lattice position."""
        return {xy: name for name, xy in self.coords.items()}

    def half_size(self, ring: int) -> int:
        """Half the side of square ``ring``: ``R + 1 - ring``."""
        return self.rings + 1 - ring

    @property
    def extent(self) -> int:
        """The largest ``|x|`` or ``|y|`` of a point: the half-size of ring 1, which is ``R``."""
        return self.rings

    def ring_of(self, point: Point) -> int | None:
        """The ring number of ``point``, ``None`` for the center."""
        parsed = self.parse(point)
        return None if parsed is None else parsed[0]

    def parse(self, point: Point) -> tuple[int, Direction] | None:
        """Like :func:`parse_point`, and also checks that the point is on this board."""
        if point not in self.index:
            parse_point(point)  # raises for names that are not point names at all
            raise InputError(
                f"unknown point {point!r}: a {self.rings}-ring board has rings 1-{self.rings}"
            )
        return parse_point(point)

    def kind_of(self, point: Point) -> str:
        """``"center"``, ``"corner"`` or ``"midpoint"``."""
        parsed = self.parse(point)
        if parsed is None:
            return "center"
        return "corner" if parsed[1].is_corner else "midpoint"

    # -- the graph --------------------------------------------------------------------------

    @cached_property
    def graph(self) -> nx.Graph:
        """The board as an undirected graph; see the module docstring for attributes."""
        graph = nx.Graph(name=f"aster-{self.rings}")
        for name in self.points:
            parsed = parse_point(name)
            x, y = self.coords[name]
            graph.add_node(
                name,
                ring=None if parsed is None else parsed[0],
                direction=None if parsed is None else parsed[1].name,
                x=x,
                y=y,
                kind=self.kind_of(name),
            )
        for r in range(1, self.rings + 1):
            for i, d in enumerate(DIRECTIONS):
                following = DIRECTIONS[(i + 1) % len(DIRECTIONS)]
                graph.add_edge(point_name(r, d), point_name(r, following), kind="ring")
        for d in DIRECTIONS:
            spoke = [point_name(r, d) for r in range(1, self.rings + 1)] + [CENTER]
            for a, b in itertools.pairwise(spoke):
                graph.add_edge(a, b, kind="line")
        return graph

    def neighbors(self, point: Point) -> tuple[Point, ...]:
        """Points one ``line`` or ``ring`` edge away, in :attr:`points` order."""
        return self._neighbors[point]

    @cached_property
    def _neighbors(self) -> dict[Point, tuple[Point, ...]]:
        return {
            p: tuple(sorted(self.graph.neighbors(p), key=self.index.__getitem__))
            for p in self.points
        }

    # -- derived structures -----------------------------------------------------------------

    @cached_property
    def rings_cycles(self) -> tuple[tuple[Point, ...], ...]:
        """Each ring's points in cyclic order from N, ring 1 first, derived from ``ring`` edges."""
        ring_edges = [(a, b) for a, b, kind in self.graph.edges(data="kind") if kind == "ring"]
        ring_graph = nx.Graph(ring_edges)
        cycles = []
        for component in nx.connected_components(ring_graph):
            start = min(component, key=self.index.__getitem__)  # the ring's N point
            cycle = [start]
            previous: Point | None = None
            while len(cycle) < len(component):
                here = cycle[-1]
                options = sorted(
                    (n for n in ring_graph.neighbors(here) if n != previous and n not in cycle),
                    key=lambda n: self._clockwise_angle(here, n),
                )
                previous = here
                cycle.append(options[0])
            cycles.append(tuple(cycle))
        return tuple(sorted(cycles, key=lambda c: self.index[c[0]]))

    def _clockwise_angle(self, here: Point, there: Point) -> int:
        """Orders the two ring neighbours so that the cycle runs clockwise (N → NE → E …)."""
        direction = DIRECTIONS.index(Direction[there[1:]]) - DIRECTIONS.index(Direction[here[1:]])
        return direction % len(DIRECTIONS)

    def ring_points(self, point: Point) -> tuple[Point, ...]:
        """The points of the ring through ``point`` (empty for the center)."""
        return self._ring_by_point.get(point, ())

    @cached_property
    def _ring_by_point(self) -> dict[Point, tuple[Point, ...]]:
        return {p: cycle for cycle in self.rings_cycles for p in cycle}

    @cached_property
    def lines(self) -> tuple[tuple[Point, ...], ...]:
        """Straight lines for movement, each ordered along its direction.

        A straight line is a maximal chain of collinear edges of the movement kinds: ``line``
        edges, plus ``ring`` edges when ``sides_are_lines`` (A1).
        """
        kinds = {"line", "ring"} if self.sides_are_lines else {"line"}
        edges = [(a, b) for a, b, kind in self.graph.edges(data="kind") if kind in kinds]
        chains = _merge_collinear(edges, self.coords)
        ordered = []
        for chain_points in chains:
            a, b = chain_points[0], chain_points[1]
            ux, uy = _direction_between(self.coords[a], self.coords[b])
            ordered.append(
                tuple(
                    sorted(
                        chain_points,
                        key=lambda p: self.coords[p][0] * ux + self.coords[p][1] * uy,
                    )
                )
            )
        return tuple(sorted(ordered, key=lambda line: [self.index[p] for p in line]))

    def lines_through(self, point: Point) -> tuple[tuple[Point, ...], ...]:
        """The straight lines containing ``point``."""
        return self._lines_by_point.get(point, ())

    @cached_property
    def _lines_by_point(self) -> dict[Point, tuple[tuple[Point, ...], ...]]:
        result: dict[Point, list[tuple[Point, ...]]] = {}
        for line in self.lines:
            for p in line:
                result.setdefault(p, []).append(line)
        return {p: tuple(lines) for p, lines in result.items()}

    @cached_property
    def spokes(self) -> tuple[tuple[Point, ...], ...]:
        """The 8 spokes ``d1 … dR`` (center excluded), derived from the ``line`` edges."""
        line_graph = nx.Graph(
            (a, b) for a, b, kind in self.graph.edges(data="kind") if kind == "line"
        )
        line_graph.remove_node(CENTER)
        return tuple(
            sorted(
                (
                    tuple(sorted(c, key=self.index.__getitem__))
                    for c in nx.connected_components(line_graph)
                ),
                key=lambda s: self.index[s[0]],
            )
        )

    def starting_points(self, direction: Direction) -> tuple[Point, Point]:
        """A3: the two starting stars of the color at ``direction``: ``2D`` and ``3D``.

        :raises InputError: on a board with fewer than 3 rings.
        """
        if self.rings < 3:
            raise InputError(
                f"the starting stars stand on rings 2 and 3; "
                f"a {self.rings}-ring board has no ring 3",
                field="rings",
            )
        return (point_name(2, direction), point_name(3, direction))

    def between(self, line: tuple[Point, ...], a: Point, b: Point) -> tuple[Point, ...]:
        """The points of ``line`` strictly between ``a`` and ``b``."""
        i, j = sorted((line.index(a), line.index(b)))
        return line[i + 1 : j]


def _merge_collinear(
    edges: Iterable[tuple[Point, Point]], coords: dict[Point, Vector]
) -> list[list[Point]]:
    """Groups edges into maximal collinear chains: two edges join when they share a point and a
    direction. Returns each chain's points."""
    by_point_and_direction: dict[tuple[Point, Vector], list[int]] = {}
    edge_list = list(edges)
    for i, (a, b) in enumerate(edge_list):
        direction = _direction_between(coords[a], coords[b])
        for p in (a, b):
            by_point_and_direction.setdefault((p, direction), []).append(i)
    joined = nx.Graph()
    joined.add_nodes_from(range(len(edge_list)))
    for group in by_point_and_direction.values():
        for i, j in itertools.pairwise(group):
            joined.add_edge(i, j)
    chains = []
    for component in nx.connected_components(joined):
        points = {p for i in component for p in edge_list[i]}
        chains.append(sorted(points))
    return chains
