"""A terminal diagram of an Aster board, one character per lattice position.

The diagram is the board's lattice: ``2R + 1`` columns by ``2R + 1`` rows, north at the top,
a space (or a ring's ``-``) between columns. Each position shows:

``.``
    an empty point; ``*`` if it is highlighted;
``r`` ``b`` ``g`` ``y``
    a star of that color; uppercase if its point is highlighted;
``-`` ``|``
    the side of a ring passing between points (drawn from the graph's ``ring`` edges);
`` ``
    nothing.

>>> from asterion.models.aster_board import Board
>>> from asterion.models.aster import Color
>>> print(board_text(Board(rings=2), {"1NE": Color.RED, "C": Color.GREEN}, highlight=["C"]))
.---.---r
| .-.-. |
. . G . .
| .-.-. |
.---.---.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from asterion.models.aster import Color, parse_color
from asterion.models.aster_board import Board, Vector

STAR_CHARS: dict[Color, str] = {
    Color.RED: "r",
    Color.BLUE: "b",
    Color.GREEN: "g",
    Color.YELLOW: "y",
}
"""The character of each color's star (uppercase when highlighted)."""

EMPTY = "."
HIGHLIGHTED_EMPTY = "*"
NOTHING = " "
HORIZONTAL_SIDE = "-"
VERTICAL_SIDE = "|"


def board_text(
    board: Board,
    stars: Mapping[str, Color] | None = None,
    highlight: Iterable[str] = (),
    *,
    ring_lines: bool = True,
) -> str:
    """The board as lines of text, north at the top (no trailing newline).

    Parameters
    ----------
    board:
        The board; its points sit at their lattice coordinates.
    stars:
        Stars by point, shown as ``r`` ``b`` ``g`` ``y``.
    highlight:
        Points to point out: their stars are uppercase, empty ones ``*``.
    ring_lines:
        Whether to draw the sides of the rings between points.

    :raises InputError: if a point is not on the board.
    """
    colors = {point: parse_color(color) for point, color in (stars or {}).items()}
    highlighted = set(highlight)
    for point in sorted({*colors, *highlighted}):
        board.parse(point)  # raises InputError for a point not on this board

    cells: dict[Vector, str] = {}
    gaps: dict[Vector, str] = {}  # (x, y): what stands between columns x and x + 1 of row y
    if ring_lines:
        _draw_ring_sides(board, cells, gaps)
    for point in board.points:
        if point in colors:
            char = STAR_CHARS[colors[point]]
            char = char.upper() if point in highlighted else char
        else:
            char = HIGHLIGHTED_EMPTY if point in highlighted else EMPTY
        cells[board.coords[point]] = char

    extent = board.extent
    lines = []
    for y in range(extent, -extent - 1, -1):
        row = [cells.get((-extent, y), NOTHING)]
        for x in range(-extent, extent):
            row.append(gaps.get((x, y), NOTHING))
            row.append(cells.get((x + 1, y), NOTHING))
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def _draw_ring_sides(board: Board, cells: dict[Vector, str], gaps: dict[Vector, str]) -> None:
    """Marks the lattice positions and column gaps that the graph's ``ring`` edges pass through.

    Only axis-parallel edges are drawn (every ring edge is one: a half side of a square).
    """
    for a, b, kind in board.graph.edges(data="kind"):
        if kind != "ring":
            continue
        (ax, ay), (bx, by) = board.coords[a], board.coords[b]
        if ay == by:
            low, high = sorted((ax, bx))
            for x in range(low, high):
                gaps[(x, ay)] = HORIZONTAL_SIDE
                if x > low:
                    cells[(x, ay)] = HORIZONTAL_SIDE
        elif ax == bx:
            low, high = sorted((ay, by))
            for y in range(low + 1, high):
                cells[(ax, y)] = VERTICAL_SIDE
