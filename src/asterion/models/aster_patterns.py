"""Constellation patterns and where they fit on a board (rules/aster.md, A8 "presence").

A pattern is a set of lattice points. A *placement* is the set of board points that a
transform of the pattern lands on; two transforms landing on the same points are the same
placement. The allowed transforms are a parameter (``transforms``):

``exact``
    the pattern's own coordinates, no move at all;
``translate``
    any translation;
``translate+rotate``
    translations combined with the 4 rotations of the square;
``translate+rotate+reflect`` (default)
    translations combined with all 8 symmetries of the square.

>>> from asterion.models.aster_board import Board
>>> len(placements(Board(), [(0, 0), (1, 0)]))
24
>>> len(placements(Board(), [(0, 0), (1, 0)], Transforms.TRANSLATE))
12
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from asterion.errors import InputError
from asterion.models.aster_board import Board, Point, Vector

Pattern = tuple[Vector, ...]
Placement = frozenset[Point]
Matrix = tuple[int, int, int, int]
"""A 2×2 integer matrix ``(a, b, c, d)`` mapping ``(x, y)`` to ``(a·x + b·y, c·x + d·y)``."""


class Transforms(StrEnum):
    """Which transforms of a pattern count as the same constellation (A8)."""

    EXACT = "exact"
    TRANSLATE = "translate"
    TRANSLATE_ROTATE = "translate+rotate"
    TRANSLATE_ROTATE_REFLECT = "translate+rotate+reflect"


DEFAULT_TRANSFORMS = Transforms.TRANSLATE_ROTATE_REFLECT
"""A8: translations combined with the 8 rotations and reflections of the square."""

IDENTITY: Matrix = (1, 0, 0, 1)
ROTATIONS: tuple[Matrix, ...] = (IDENTITY, (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0))
MIRROR: Matrix = (-1, 0, 0, 1)


def compose(first: Matrix, then: Matrix) -> Matrix:
    """The matrix of applying ``first`` and then ``then``."""
    a, b, c, d = then
    e, f, g, h = first
    return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)


def symmetries(transforms: Transforms) -> tuple[Matrix, ...]:
    """The linear parts of the allowed transforms, identity first."""
    if transforms in (Transforms.EXACT, Transforms.TRANSLATE):
        return (IDENTITY,)
    if transforms is Transforms.TRANSLATE_ROTATE:
        return ROTATIONS
    return ROTATIONS + tuple(compose(MIRROR, rotation) for rotation in ROTATIONS)


def transform(matrix: Matrix, point: Vector) -> Vector:
    a, b, c, d = matrix
    x, y = point
    return (a * x + b * y, c * x + d * y)


def parse_transforms(value: str) -> Transforms:
    """:raises InputError: naming the allowed values."""
    try:
        return Transforms(value)
    except ValueError:
        allowed = ", ".join(t.value for t in Transforms)
        raise InputError(f"unknown transforms {value!r} (expected one of: {allowed})") from None


def check_pattern(
    pattern: Iterable[Sequence[int]], board: Board, *, any_size: bool = False
) -> Pattern:
    """The pattern as a tuple of lattice points, after checking it can be asked about.
    ``any_size``: a pattern larger than the board is taken too (it has no placement), for
    the question whether it fits at all.

    :raises InputError: if it is empty, repeats a point, or (unless ``any_size``) has more
        points than the board or is wider than it.
    """
    points: list[Vector] = []
    for item in pattern:
        if len(item) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in item):
            raise InputError(f"pattern point {list(item)!r} is not an [x, y] pair of integers")
        points.append((item[0], item[1]))
    if not points:
        raise InputError("the pattern has no points")
    if len(set(points)) != len(points):
        raise InputError("the pattern repeats a point")
    if any_size:
        return tuple(points)
    if len(points) > len(board.points):
        raise InputError(
            f"the pattern has {len(points)} points; "
            f"a {board.rings}-ring board has {len(board.points)}"
        )
    width = max(x for x, _ in points) - min(x for x, _ in points)
    height = max(y for _, y in points) - min(y for _, y in points)
    span = 2 * board.extent
    if max(width, height) > span:
        raise InputError(
            f"the pattern is wider than the board: it spans {width}×{height} lattice units, "
            f"a {board.rings}-ring board spans {span}×{span}"
        )
    return tuple(points)


def placements(
    board: Board,
    pattern: Sequence[Vector],
    transforms: Transforms = DEFAULT_TRANSFORMS,
) -> list[Placement]:
    """Every distinct placement of ``pattern`` on ``board``, in a fixed order.

    Each transform image of the pattern is anchored at every board point by its first point;
    an anchoring is a placement when every image point is a board point.
    """
    transforms = Transforms(transforms)
    if not pattern or len(set(pattern)) != len(pattern):
        raise InputError("a pattern needs at least one point and no point twice")
    at = board.at
    if transforms is Transforms.EXACT:
        exact = [at.get(p) for p in pattern]
        return [frozenset(p for p in exact if p is not None)] if None not in exact else []
    found: set[Placement] = set()
    for matrix in symmetries(transforms):
        image = [transform(matrix, p) for p in pattern]
        ax, ay = image[0]
        offsets = [(x - ax, y - ay) for x, y in image]
        for bx, by in at:
            names = []
            for dx, dy in offsets:
                name = at.get((bx + dx, by + dy))
                if name is None:
                    break
                names.append(name)
            else:
                found.add(frozenset(names))
    return sort_placements(board, found)


def sort_placements(board: Board, found: Iterable[Placement]) -> list[Placement]:
    """Placements in board order of their points (deterministic, independent of set order)."""
    return sorted(found, key=lambda pl: sorted(board.index[p] for p in pl))


def missing_points(
    board: Board, placement: Placement, is_occupied: Callable[[Point], bool]
) -> list[Point]:
    """The placement's points that hold no star, in board order."""
    return [p for p in sorted(placement, key=board.index.__getitem__) if not is_occupied(p)]
