"""Edge matching: square pieces with one color per side, laid in a W x H grid.

This is the common core of a Nacht der Sterne tile set and of the generic puzzles of the
Eternity II family (rules/nacht.md): every engine that arranges tiles works on these types,
and every arrangement an engine reports is re-checked here, side by side.

Conventions (shared by every engine and by the exhaustive tests):

- A :data:`Piece` is ``(N, E, S, W)``: the colors of its sides, read clockwise from north.
  Color ``0`` is the outer border and is never a color of an inner side.
- Colors match through ``mate``, an involution on colors (``mate[mate[c]] == c``,
  ``mate[0] == 0``): a piece's east side ``e`` fits its eastern neighbour's west side ``w``
  when ``e == mate[w]``, and likewise south against north. ``mate=None`` is the identity, as
  in the Eternity II family; a Nacht side whose fragments read clockwise give one color reads
  reversed on the facing tile, which is its mate. Beside a chain of near misses a Nacht set's
  colors may also fit colors *near* them (``EdgeProblem.near``).
- A :class:`Placement` turns the piece as given by ``turns`` quarter turns clockwise. Of the
  turns that give the same colored square, only the smallest is an orientation of its own, so
  a symmetric piece is not counted twice. Pieces are told apart by index, even if two are
  colored alike (swapping them is another arrangement).
- An :data:`Arrangement` is a tuple of rows, row 0 the northern one.
- With rotations on, arrangements are counted up to turning the whole picture: by quarter turns
  for a square grid, by a half turn otherwise. For grids of at least 2 x 2 every class then has
  exactly 4 (square) or 2 members, since every piece changes cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Piece = tuple[int, int, int, int]
"""Side colors (N, E, S, W), clockwise from north; 0 = outer border."""

BORDER = 0
MIN_SIDE = 2
MAX_SIDE = 32
"""Grids run from 2 x 2 to 32 x 32 (the issue's limit)."""

NORTH, EAST, SOUTH, WEST = range(4)


@dataclass(frozen=True, order=True)
class Placement:
    """One cell's content: which piece, turned by how many quarter turns clockwise."""

    piece: int
    turns: int = 0


Arrangement = tuple[tuple[Placement, ...], ...]
"""Rows of placements, row 0 = north."""


def turn(piece: Piece, turns: int) -> Piece:
    """The piece's colors after ``turns`` quarter turns clockwise (its west side comes north).

    >>> turn((1, 2, 3, 4), 1)
    (4, 1, 2, 3)
    """
    k = turns % 4
    return (piece[-k:] + piece[:-k]) if k else piece  # type: ignore[return-value]


def orientations(piece: Piece, rotations: bool) -> tuple[int, ...]:
    """The distinct orientations of a piece, as turn counts (only 0 without rotations).

    >>> orientations((1, 2, 1, 2), True)
    (0, 1)
    """
    if not rotations:
        return (0,)
    seen: dict[Piece, int] = {}
    for k in range(4):
        seen.setdefault(turn(piece, k), k)
    return tuple(seen.values())


def identity_mate(pieces: Sequence[Piece]) -> list[int]:
    """The identity ``mate`` table over every color the pieces use."""
    top = max((max(p) for p in pieces), default=0)
    return list(range(top + 1))


@dataclass(frozen=True)
class EdgeProblem:
    """An edge-matching question: these pieces, this grid, rotations or not."""

    pieces: tuple[Piece, ...]
    width: int
    height: int
    rotations: bool = False
    mate: tuple[int, ...] | None = None
    near: tuple[tuple[int, ...], ...] | None = None
    """Per color, the colors other than its mate that a facing side may show and still fit
    (a Nacht set's chain of near misses, models/nacht.py); None: mates alone fit. Symmetric
    as fitting is: ``b in near[a]`` exactly when ``a in near[b]``. Only the engines that
    read it (``propagate``, CP-SAT, and every re-check) take such a problem."""

    def mate_of(self, color: int) -> int:
        return color if self.mate is None else self.mate[color]

    def facing(self, color: int) -> tuple[int, ...]:
        """The colors a facing side may show to fit a side of ``color``: its mate first."""
        near = () if self.near is None else self.near[color]
        return (self.mate_of(color), *near)

    def fits(self, color: int, facing: int) -> bool:
        """Whether a side of ``color`` fits a facing side of color ``facing``."""
        return facing == self.mate_of(color) or (
            self.near is not None and facing in self.near[color]
        )

    def cells(self) -> list[tuple[int, int]]:
        """Cells as (row, column), row 0 = north, in reading order."""
        return [(r, c) for r in range(self.height) for c in range(self.width)]

    def whole_turns(self) -> int:
        """How many turns of the whole picture identify arrangements (1 = none)."""
        if not self.rotations:
            return 1
        return 4 if self.width == self.height else 2


@dataclass(frozen=True)
class Mismatch:
    """One way an arrangement breaks the rules, for the edge-by-edge re-check."""

    cell: tuple[int, int]
    side: str
    problem: str


def check_arrangement(problem: EdgeProblem, arrangement: Arrangement) -> list[Mismatch]:
    """Every broken rule of an arrangement, checked side by side (empty = it is valid).

    Each piece used once; turns allowed; border sides on the border, and only there; each pair
    of facing sides mates.
    """
    issues: list[Mismatch] = []
    shape_ok = len(arrangement) == problem.height and all(
        len(row) == problem.width for row in arrangement
    )
    if not shape_ok:
        return [Mismatch((0, 0), "-", f"not a {problem.width}x{problem.height} grid")]
    used = sorted(p.piece for row in arrangement for p in row)
    if used != list(range(len(problem.pieces))):
        issues.append(Mismatch((0, 0), "-", "pieces not used exactly once each"))
        return issues
    colors = {}
    for r, c in problem.cells():
        placed = arrangement[r][c]
        if not problem.rotations and placed.turns != 0:
            issues.append(Mismatch((r, c), "-", "turned although rotations are off"))
        colors[r, c] = turn(problem.pieces[placed.piece], placed.turns)
    for (r, c), sides in colors.items():
        outside = {
            "N": r == 0,
            "E": c == problem.width - 1,
            "S": r == problem.height - 1,
            "W": c == 0,
        }
        for name, color in zip("NESW", sides, strict=True):
            if outside[name] != (color == BORDER):
                where = "on the border" if outside[name] else "inside"
                issues.append(Mismatch((r, c), name, f"color {color} {where}"))
        if c + 1 < problem.width and not problem.fits(sides[EAST], colors[r, c + 1][WEST]):
            issues.append(Mismatch((r, c), "E", "does not fit its eastern neighbour"))
        if r + 1 < problem.height and not problem.fits(sides[SOUTH], colors[r + 1, c][NORTH]):
            issues.append(Mismatch((r, c), "S", "does not fit its southern neighbour"))
    return issues


def turn_arrangement(arrangement: Arrangement, quarter_turns: int) -> Arrangement:
    """The same arrangement with the whole picture turned clockwise (pieces turn with it)."""
    grid = arrangement
    for _ in range(quarter_turns % 4):
        rows, cols = len(grid), len(grid[0])
        grid = tuple(
            tuple(
                Placement(grid[rows - 1 - i][j].piece, (grid[rows - 1 - i][j].turns + 1) % 4)
                for i in range(rows)
            )
            for j in range(cols)
        )
    return grid


def normalize_turns(problem: EdgeProblem, arrangement: Arrangement) -> Arrangement:
    """Each placement's turn count replaced by the smallest giving the same colored square."""
    return tuple(
        tuple(Placement(p.piece, _smallest_turn(problem.pieces[p.piece], p.turns)) for p in row)
        for row in arrangement
    )


def _smallest_turn(piece: Piece, turns: int) -> int:
    target = turn(piece, turns)
    return next(k for k in range(4) if turn(piece, k) == target)


def canonical(problem: EdgeProblem, arrangement: Arrangement) -> Arrangement:
    """The representative of an arrangement's class under whole-picture turns (the least)."""
    step = 4 // problem.whole_turns()
    members = [
        normalize_turns(problem, turn_arrangement(arrangement, k)) for k in range(0, 4, step)
    ]
    return min(members)


Cell = tuple[int, int]
"""(row, column), row 0 = north."""


def outside_of(problem: EdgeProblem, cell: Cell) -> tuple[bool, bool, bool, bool]:
    """Which sides of ``cell`` lie on the picture's outside (N, E, S, W)."""
    r, c = cell
    return (r == 0, c == problem.width - 1, r == problem.height - 1, c == 0)


def fits_outside(colors: Piece, outside: tuple[bool, bool, bool, bool]) -> bool:
    """Border colors exactly on the outside sides."""
    return all((color == BORDER) == out for color, out in zip(colors, outside, strict=True))


def allowed(problem: EdgeProblem, cell: Cell) -> list[tuple[int, int]]:
    """The (piece, turns) that may sit in ``cell``: border colors exactly on its outside."""
    outside = outside_of(problem, cell)
    return [
        (index, k)
        for index, piece in enumerate(problem.pieces)
        for k in orientations(piece, problem.rotations)
        if fits_outside(turn(piece, k), outside)
    ]


def anchor_piece(problem: EdgeProblem) -> int | None:
    """The lowest-numbered piece with two adjacent border sides (a corner piece), if any."""
    for index, piece in enumerate(problem.pieces):
        if any(piece[i] == BORDER and piece[(i + 1) % 4] == BORDER for i in range(4)):
            return index
    return None


def anchor_cells(problem: EdgeProblem) -> list[Cell]:
    """Where the anchor may sit so that each class of whole-picture turns counts once."""
    if problem.whole_turns() == 4:
        return [(0, 0)]
    return [(0, 0), (0, problem.width - 1)]


def alike_pieces(problem: EdgeProblem) -> dict[int, tuple[int, ...]]:
    """The kinds: each kind's lowest-numbered piece, and the pieces that show its sides (in
    some turn, with rotations), itself first. With whole-picture turns counted once, the
    anchor's pieces stay one a kind.

    >>> alike_pieces(EdgeProblem(((0, 1, 1, 0), (0, 2, 2, 0), (0, 1, 1, 0)), 3, 1))
    {0: (0, 2), 1: (1,)}
    """
    turns_counted = problem.whole_turns() > 1
    anchor = anchor_piece(problem) if turns_counted else None
    groups: dict[Piece, list[int]] = {}
    for index, piece in enumerate(problem.pieces):
        key = min(turn(piece, k) for k in range(4)) if problem.rotations else piece
        groups.setdefault(key, []).append(index)
    kinds: dict[int, tuple[int, ...]] = {}
    for members in groups.values():
        if turns_counted and (anchor is None or anchor in members):
            kinds.update((index, (index,)) for index in members)
        else:
            kinds[members[0]] = tuple(members)
    return dict(sorted(kinds.items()))
