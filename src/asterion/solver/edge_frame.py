"""Counting edge-matching arrangements by the frame: the inside first, the ring counted.

In a puzzle of the Eternity II family the pieces fall into three kinds that never share a
cell: corner pieces (two border sides) go to the corners, edge pieces (one) along the frame,
inner pieces (none) inside. The inside and the ring of border cells meet only through the
colors on the sides between them. So the arrangements are the pairs of an inside (every inner
piece placed, inner sides matching) and a ring whose inward colors are the inside's outward
ones, and their number is, summed over the insides, the number of rings that fit each.

:mod:`.edge_frame_kernel` searches the insides row by row, with no constraint on their outer
sides but three: the inward colors asked of the ring never exceed what the edge pieces carry
(counted by color), after each of the first rows some ring pieces can run along the stretch
of the frame fixed so far (a short search, cached by those colors), and at a full inside the
rings that fit are counted by a short search around the frame. The ring's choices, which the
row scan of :mod:`.edge_search` multiplies into its tree (the frame's few colors leave many),
are never branched on. Measured on 7x7 3/6 (benchmarks): a tree some ten times smaller.

The stretch's search also says which pairs of inward colors the next row's two end cells may
turn to the ring (unused edge pieces that extend some walk of the stretch at both ends), and
those cells are held to them as they are placed, before the cells between them: to 7x7 3/6
seed 6's first arrangement, 28 % fewer placements and 30 % less time; over ten slow seeds
14-34 % fewer placements and 19 % less time (benchmarks, fourteenth round).

Whole-picture turns: a quarter turn of the picture moves the pieces of four inner cells round
one another (an *orbit*, :func:`turn_orbit`); of the four turns of an arrangement exactly one
has the lowest numbered of those four pieces in the orbit's first cell searched, and only that
one is searched (the pieces are distinct, so no arrangement is its own turn; identical pieces
placed in order are the exception, below). The later orbit cells take only pieces numbered
above it, a mask on their candidate words. An odd inside has a centre cell, which every turn
keeps: a piece there whose four turns differ is held at turn 0 (a copy at its set's picture),
which decides earlier than the orbit's last cell, and the orbit rule is left to the centre
pieces like their turns (:func:`_turn_rule`). Holding one given piece at turn 0 instead
spares only the part of the tree where that piece is placed (about half of it in the 7x7 rows
that cost most); these rules spare three quarters of everything below the cell that decides
(benchmarks).

Identical inner pieces (the same up to a turn, :func:`_copies`): swapping two of them gives
another arrangement of the same picture, so the search places them in the order of their bits
only, and counts each inside it finds once for every order (:func:`whole_arrangements` builds
the other orders back). The centre piece is held at its set's picture, not at turn 0, so that
whichever copy sits there the same turn of the inside is kept; where the orbit rule decides,
an inside holding copies in its orbit cells is kept in several turns, and each counts for
that many times fewer orders (:func:`kernel.inside_times`).

The sieve (:class:`Sieve`): most tops of an inside (its first rows filled) have no way to
fill the rest with the pieces left, and the search learns it only by trying. The ways to fill
the last rows (*bottoms*) are fewer than the tops, and they are tops too: turned a half turn,
a bottom is the first rows of a turned inside, of the same puzzle. So they are listed by the
same loop, without the turn rule, into a table of bits keyed by their pieces and the colors
their first row shows north; a top is searched below only if the pieces it leaves and the
colors it shows south make a key whose bit is set (:mod:`.edge_search_parallel` decides when).

Rectangles: the inside is searched in rows along its short side (a wide puzzle is searched
turned a quarter turn, and its arrangements turned back), and the picture turns onto itself
only a half turn, so orbits have two cells and a centre piece keeps two turns (:func:`_turn_rule`).
The sieve and the written loops stay with squares (7x7). To 6x8 3/7 seeds 5-9's first
arrangement: 0.1-1.1 s against 1-44 s with the scans alone; 5x7 2/5 seed 2 counted in 1.3 s
against 65 s (benchmarks, twentieth round).

It applies to puzzles of at least 4 cells a side, pieces turning, whose pieces are exactly 4
corner, 2(w + h - 4) edge (at most 32) and (w - 2)(h - 2) inner pieces (at most 64):
:func:`frame_tables` says None otherwise.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from asterion.models.edges import BORDER, EdgeProblem, orientations, turn
from asterion.solver import edge_frame_kernel as kernel
from asterion.solver import edge_frame_nested as nested
from asterion.solver.edge_search import Counters, Tables, signed_word
from asterion.solver.edge_search_kernel import SMALL_PIECES

IntArray = npt.NDArray[np.int32]
LongArray = npt.NDArray[np.int64]
WordArray = npt.NDArray[np.uint64]

CHECK_ROWS = 2
"""The stretch of frame fixed by the inside is checked after each of its first rows up to this
many. After row 2 as well it spared placements (some 10 % to a first arrangement) but took
more time than it spared: 7x7 3/6 seeds 0-79, 2 threads, mean 0.14 s to a first
arrangement against 0.17 s; seed 0 counted in 88 s against 96 s, seed 3 in 11 s against
14 s (docs/benchmarks.md, seventeenth round)."""
FEW_RINGS = 1e-6
"""A rectangle where fewer rings than this fit an inside (:func:`expected_rings`: 10^-11 to
10^-6 with four frame colors, 10^-5 to 10^-3 with three) learns late whether a ring fits,
as the stretch checked after its first rows is a small part of its ring. So its stretch
is checked after :data:`FEW_RINGS_CHECK_ROWS` rows, and first arrangements are left to the
scans (``edge_search_parallel.first_frame``). Squares, measured with their frame either
way, keep it (benchmarks, twentieth round)."""
FEW_RINGS_CHECK_ROWS = 4
"""Counting such rectangles, 30 s: 5x10 4/6 seed 1 done in 19 s (unknown, 816 found with 2
rows), 5x10 4/6 seed 0, 6x10 4/6 seed 1 and 10x6 4/7 seed 0 finding 3 to 6 times as many;
three frame colors lost 20-50 % (6x8 3/7 seed 0, 8x6 3/7 seed 1) with 4 rows."""
CACHE_SIZE_LOG = 22
"""Cached stretch answers per run (16 bytes each)."""
NESTED_SIDES = range(5, 6)
"""Insides whose long counts (sieved, after a first try) run the loops written for them
(:mod:`.edge_frame_nested`): the 5 x 5 of 7x7 puzzles, where counts take minutes. Those loops
compile once per machine and kind of puzzle, some 30 s; smaller insides count in under a
second, larger ones are out of reach either way."""
SIEVE_LOG = 32
"""Bits in a sieve (512 MiB): 7x7 3/6 seed 9 has some 5 x 10^8 bottoms, which set 31 % of
them at three a key (:func:`kernel.sieve_mask`), so that some 3 % of the tops whose bottoms
are not there pass all the same (12 % at one bit a key)."""
MAX_EXPECTED_RINGS = 10**4
"""Puzzles whose insides each take more rings than this (:func:`expected_rings`: few colors
for many edge pieces) are left to the row scan. The loop counts an inside's rings one by
one, in a walk it cannot stop for the clock: a 10 x 10 with 3 colors in all (some 10^6
rings an inside, and a walk many times longer through its dead ends) ran past its time
limit. 7x7 3/6 seed 0: 10^-3; 5x5 2/3 at most 44; 10x10 4/10 10^-10."""
MAX_TIMES = 1 << 31
"""Identical inner pieces are placed in order only while the arrangements one inside stands
for (the orders of all its sets together) are at most this (:func:`_copies`): the count
multiplies by it in 64 bits, with room for the rings."""
MAX_COLORS = 32
MAX_EDGE_PIECES = 32


@dataclass(frozen=True)
class FrameTables:
    """Everything the loop reads, and how to turn its placements back into cells."""

    problem: Tables  # the row scan's tables (their oriented pieces number the kept cells)
    inner: kernel.Inner
    ring: kernel.Ring
    side: int  # the inside's cells a row (the grid's short side less 2)
    height: int  # the inside's rows (the long side less 2)
    inner_pieces: tuple[tuple[int, int], ...]  # (piece, turns) of each oriented inner piece
    edge_pieces: tuple[int, ...]
    corner_pieces: tuple[int, ...]
    bits: int  # per color in a cache key
    copies: tuple[tuple[int, ...], ...] = ()  # bits of identical inner pieces placed in order
    turned: bool = False  # a wide puzzle, searched turned a quarter turn (:func:`frame_tables`)
    rings: float = 0.0  # about how many rings fit an inside (:func:`expected_rings`)

    def key_bits(self, rows: int) -> int:
        """Bits per color in the cache keys of stretches checked after up to ``rows`` rows:
        0 (no cache) where the longest one's key would not fit in 62 bits."""
        longest = self.side + 2 * min(rows, self.height - 1)  # its edge positions
        return self.bits if 3 + longest * self.bits <= 62 else 0

    @property
    def positions(self) -> int:
        return 2 * (self.side + self.height) + 4

    @property
    def cells(self) -> int:
        return self.side * self.height

    @property
    def square(self) -> bool:
        """Square insides turn a quarter turn onto themselves; the others a half turn."""
        return self.side == self.height

    @property
    def few_rings(self) -> bool:
        """A rectangle with fewer than :data:`FEW_RINGS` rings an inside."""
        return not self.square and self.rings < FEW_RINGS

    @property
    def check_rows(self) -> int:
        """The rows after each of which the stretch is checked, unless told otherwise."""
        return FEW_RINGS_CHECK_ROWS if self.few_rings else CHECK_ROWS


@dataclass(frozen=True)
class Sieve:
    """The bottoms of a puzzle's insides: three bits of one word set for the key
    (:func:`kernel.sieve_key`: its pieces and the colors its top row shows north) of every way
    of filling the last ``rows`` rows of the inside that the inward colors the ring can take do
    not rule out.

    An inside's search goes below its top rows only if the bits of their key (the pieces left
    and the colors the top asks for) are set: no false "no" (every bottom set its bits), and a
    false "yes" (other keys' bits) costs only the search it would have spared. The bottoms
    are listed as tops (turned a half turn they are the first rows of a turned inside, the
    same puzzle), so by the very loop that searches tops."""

    bits: npt.NDArray[np.uint64]
    log: int
    rows: int

    def probing(self, side: int) -> kernel.Sieve:
        """The loop's sieve to test the bits below the top rows."""
        return (self.bits, self.log, (side - self.rows) * side, False)

    def filling(self) -> kernel.Sieve:
        """The loop's sieve to set the bits of the bottoms listed."""
        return (self.bits, self.log, -1, True)


NO_SIEVE: kernel.Sieve = (np.zeros(1, dtype=np.uint64), 0, -1, False)


def bottom_rows(side: int) -> int:
    """The rows of a sieve's bottoms: half the inside's, rounded down."""
    return side // 2


def new_sieve(side: int, log: int = SIEVE_LOG) -> Sieve:
    """An empty sieve (``2**log`` bits) for the bottoms of an inside of this side."""
    return Sieve(np.zeros(1 << (log - 6), dtype=np.uint64), log, bottom_rows(side))


def _kinds(problem: EdgeProblem) -> tuple[list[int], list[int], list[int]] | None:
    """Corner, edge and inner pieces, if every piece is one of the three."""
    corners, edges, inner = [], [], []
    for index, piece in enumerate(problem.pieces):
        zeros = [k for k in range(4) if piece[k] == BORDER]
        if not zeros:
            inner.append(index)
        elif len(zeros) == 1:
            edges.append(index)
        elif len(zeros) == 2 and (zeros[1] - zeros[0]) in (1, 3):
            corners.append(index)
        else:
            return None
    return corners, edges, inner


def _intrinsic(piece: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """A frame piece's (in, inward, out) colors going clockwise round the frame: after its
    border side(s) clockwise come the side facing the next ring cell, the inward one, the side
    facing the previous one (a corner has no inward side: -1)."""
    zeros = [k for k in range(4) if piece[k] == BORDER]
    if len(zeros) == 1:
        b = zeros[0]
        return piece[(b + 3) % 4], piece[(b + 2) % 4], piece[(b + 1) % 4]
    b = next(k for k in range(4) if piece[k] == BORDER and piece[(k + 1) % 4] == BORDER)
    return piece[(b + 3) % 4], -1, piece[(b + 2) % 4]


def expected_rings(problem: EdgeProblem, edges: Sequence[int], corners: Sequence[int]) -> float:
    """About how many rings fit an inside: the edge pieces with each inward color in every
    order, times the corners in every order, each of the ring's joints matching with chance
    one in the number of frame colors."""
    sides = [_intrinsic(problem.pieces[i]) for i in [*edges, *corners]]
    by_inward = Counter(inward for _, inward, _ in sides[: len(edges)])
    orders = math.prod(math.factorial(n) for n in by_inward.values()) * math.factorial(4)
    frame_colors = len({c for come_in, _, out in sides for c in (come_in, out)})
    joints = frame_colors ** len(sides)
    return float(orders / joints)


def frame_tables(
    problem: EdgeProblem, tables: Tables, order: Sequence[int] | None = None
) -> FrameTables | None:
    """The loop's tables, or None when the puzzle is not of the shape this method needs.

    ``order``: the inner pieces' order of trial (a permutation of 0 .. (n-2)^2 - 1 over the
    inner pieces as the problem lists them; by default that order, but for identical pieces,
    brought together: :func:`_copies`): the bits of the candidate words, and the numbering of
    :func:`turn_orbit`'s rule."""
    width, height = sorted((problem.width, problem.height))
    kinds = _kinds(problem)
    if not problem.rotations or width < 4 or kinds is None:
        return None
    corners, edges, inner = kinds
    side, rows = width - 2, height - 2
    if (len(corners), len(edges), len(inner)) != (4, 2 * (side + rows), side * rows):
        return None
    if order is not None:
        inner = [inner[i] for i in order]
    inner, groups = _copies(problem, inner)
    mate = tables.mate
    ncolors = len(mate)
    if len(inner) > SMALL_PIECES or len(edges) > MAX_EDGE_PIECES or ncolors > MAX_COLORS:
        return None
    rings = expected_rings(problem, edges, corners)
    if rings > MAX_EXPECTED_RINGS:
        return None
    oriented = [(i, k) for i in inner for k in orientations(problem.pieces[i], True)]
    colors = np.array([turn(problem.pieces[i], k) for i, k in oriented], dtype=np.int64)
    bit_of = np.array([inner.index(i) for i, _ in oriented], dtype=np.int64)
    asymmetric = [len(orientations(problem.pieces[i], True)) == 4 for i in inner]
    held = _held_turns(problem, groups, inner)
    turns_kept = 1 if rows == side else 2  # of a piece unlike its turns, at the centre
    at_centre = np.array(
        [(k - held[i]) % 4 < turns_kept or not asymmetric[inner.index(i)] for i, k in oriented]
    )
    words, by_bit = _inner_words(colors, bit_of, ncolors, at_centre)
    frame = np.array([_intrinsic(problem.pieces[i]) for i in edges + corners], dtype=np.int64)
    ring = _ring_tables(frame[: len(edges)], frame[len(edges) :, ::2], mate, side, rows)
    promises, balance = _balance_tables(problem, inner, colors, mate, ring[6])
    inner_tables = (
        colors,
        mate.astype(np.int64),
        bit_of,
        words,
        by_bit,
        _side_positions(side, rows),
        ncolors,
        side,
        *_turn_rule(side, rows),
        signed_word(sum(1 << bit for bit, alike in enumerate(asymmetric) if not alike)),
        signed_word(sum(1 << bit for group in groups for bit in group[1:])),
        math.prod(math.factorial(len(group)) for group in groups),
        _set_numbers(groups, len(inner)),
        np.array(turn_orbit(side, rows), dtype=np.int64),
        promises,
        balance,
        rows,
    )
    return FrameTables(
        problem=tables,
        inner=inner_tables,
        ring=ring,
        side=side,
        height=rows,
        inner_pieces=tuple(oriented),
        edge_pieces=tuple(edges),
        corner_pieces=tuple(corners),
        bits=max(1, (ncolors - 1).bit_length()),
        copies=groups,
        turned=problem.width > problem.height,
        rings=rings,
    )


BALANCE_LANES = 8
"""Colors of inner sides whose balance is kept: a byte each in one word (kernel.BIASES)."""


def _balance_tables(
    problem: EdgeProblem, inner: list[int], colors: LongArray, mate: IntArray, available: LongArray
) -> tuple[LongArray, int]:
    """The colors' *balance* (checked by :func:`kernel.frame_slice`): what each oriented inner
    piece promises of each color when placed with its east and south sides (``kind`` bits 1
    and 2) turned to cells not filled yet, and how much of each the whole inside has, a byte
    each, every byte biased by ``kernel.BIASES``.

    An inner side of color x lies against a ring position (one for each edge piece whose
    inward color is x's mate) or against an inner side of color mate(x); so, in every
    arrangement, as many inner sides of x face the inside as the inner pieces have sides of x
    less those ring positions. A side turned to an empty cell takes one of them and promises a
    mate(x) side of a piece still to come; a side turned to a placed piece was promised by it.
    When a color's sides taken and promised pass its number, the pieces left cannot fill the
    holes. An inside with more colors than :data:`BALANCE_LANES` or too many sides of one,
    or a set whose counts already fail, gets a check that never fails."""
    sides = np.zeros(len(mate), dtype=np.int64)
    for i in inner:
        for x in problem.pieces[i]:
            sides[x] += 1
    budget = sides - available[mate]
    lanes = np.flatnonzero(sides + sides[mate])  # the colors of inner sides, and their mates
    promised = np.zeros((len(colors), 4), dtype=np.int64)
    full = int(kernel.BIASES)
    top = 127 - (int(kernel.BIASES) & 0xFF)  # (a byte's top bit is its guard)
    if len(lanes) > BALANCE_LANES or np.any(budget[lanes] < 0) or np.any(budget[lanes] > top):
        return promised, full
    lane = np.full(len(mate), -1, dtype=np.int64)
    lane[lanes] = np.arange(len(lanes))
    for o, row in enumerate(colors.tolist()):
        for kind in range(4):
            for k in (1, 2):  # the east side, the south side
                if kind >> (k - 1) & 1:
                    for x in (row[k], int(mate[row[k]])):
                        promised[o, kind] += 1 << 8 * int(lane[x])
    for x in lanes.tolist():
        full += int(budget[x]) << 8 * int(lane[x])
    return promised, signed_word(full)


def _copies(
    problem: EdgeProblem, inner: list[int]
) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
    """The inner pieces with each set of identical ones (the same up to a turn) together, and
    those sets (of two or more, as bits) if the search is to take their pieces in order (unless
    the count an inside stands for would reach ``MAX_TIMES``).

    Swapping identical pieces gives another arrangement of the same picture, so the search
    places them in the order of their bits only and counts each inside found once for every
    order (the product of the sets' factorials): 7x7 3/6 seed 2, whose 25 inner pieces hold
    four identical ones, searched 18 times fewer placements (benchmarks, fifteenth round).
    The orbit rule (even sides, and centre pieces like their turns) compares the numbers of the
    pieces in its cells, and copies in order number themselves by the order of the cells: it
    keeps the turns of an inside that put a copy of its lowest set first, as many as the orbit
    cells holding one, so such an inside counts that many times fewer
    (:func:`kernel.inside_times`)."""
    sets: dict[tuple[int, ...], list[int]] = {}
    for i in inner:
        sets.setdefault(_shape(problem.pieces[i]), []).append(i)
    times = math.prod(math.factorial(len(group)) for group in sets.values())
    if times == 1 or times > MAX_TIMES:
        return inner, ()
    together = [i for group in sets.values() for i in group]  # at each set's first place
    groups: list[tuple[int, ...]] = []
    for group in sets.values():
        if len(group) > 1:
            first = together.index(group[0])
            groups.append(tuple(range(first, first + len(group))))
    return together, tuple(groups)


def _set_numbers(groups: tuple[tuple[int, ...], ...], pieces: int) -> LongArray:
    """Per piece bit, the number of its set of identical pieces (-1: a piece without copies)."""
    sets = np.full(pieces, -1, dtype=np.int64)
    for number, group in enumerate(groups):
        sets[list(group)] = number
    return sets


def _shape(piece: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The piece's least turn: identical pieces share it."""
    return min(turn(piece, k) for k in range(4))


def _held_turns(
    problem: EdgeProblem, groups: tuple[tuple[int, ...], ...], inner: list[int]
) -> dict[int, int]:
    """The turn each inner piece is held at in the centre cell: 0, but identical pieces all at
    their set's first one's picture (so that the turn rule picks the same turn of an inside
    whichever copy is at the centre)."""
    held = dict.fromkeys(inner, 0)
    for group in groups:
        first = problem.pieces[inner[group[0]]]
        for bit in group[1:]:
            piece = problem.pieces[inner[bit]]
            held[inner[bit]] = next(k for k in range(4) if turn(piece, k) == first)
    return held


def _inner_words(
    colors: LongArray, bit_of: LongArray, ncolors: int, at_centre: npt.NDArray[np.bool_]
) -> tuple[LongArray, IntArray]:
    """Candidate words of the inner pieces by key (what is known of the cell: nothing, its
    west color, its north color, or both; kind 4: both, at the centre cell, where only the
    oriented pieces ``at_centre`` go), up to four oriented pieces per piece and key."""
    nkeys = 5 * ncolors * ncolors
    words = np.zeros((4, nkeys), dtype=np.uint64)
    by_bit = np.full((4, nkeys, SMALL_PIECES), -1, dtype=np.int32)
    slots: Counter[tuple[int, int]] = Counter()  # oriented pieces filed so far by (key, bit)
    for o, (north, _, _, west) in enumerate(colors.tolist()):
        bit = int(bit_of[o])
        for kind in range(5):
            if kind == 4 and not at_centre[o]:
                continue
            known = 3 if kind == 4 else kind  # the centre knows both
            key = (kind * ncolors + (north if known & 2 else 0)) * ncolors + (
                west if known & 1 else 0
            )
            slot = slots[key, bit]
            slots[key, bit] += 1
            by_bit[slot, key, bit] = o
            words[slot, key] |= np.uint64(1) << np.uint64(bit)
    return words.view(np.int64), by_bit


def turn_orbit(side: int, height: int | None = None) -> list[int]:
    """The inner cells (row-major numbers, in the order searched) that the turns of the
    picture onto itself move round one another (quarter turns of a square inside, ``side``
    cells a row and ``height`` rows, by default as many; half turns of another), chosen to
    be whole as early in the search as can be: the orbit whose cells, sorted, come first (last
    cell first, then the one before...).

    >>> turn_orbit(5)  # (1, 2), (2, 1), (2, 3), (3, 2)
    [7, 11, 13, 17]
    >>> turn_orbit(2)
    [0, 1, 2, 3]
    >>> turn_orbit(3, 5)  # (2, 0), (2, 2): the centre (2, 1) has no other
    [6, 8]
    """
    rows = side if height is None else height
    orbits: set[tuple[int, ...]] = set()
    for r in range(rows):
        for c in range(side):
            cells = [(r, c), (rows - 1 - r, side - 1 - c)]
            if rows == side:
                cells += [(c, side - 1 - r), (side - 1 - c, r)]
            if len(set(cells)) == len(cells):
                orbits.add(tuple(sorted((i * side + j for i, j in cells), reverse=True)))
    return sorted(min(orbits))  # the latest cell first, then the one before it...


def _turn_rule(side: int, height: int | None = None) -> tuple[int, LongArray, LongArray]:
    """How the loop keeps one turn of each arrangement: the centre cell (-1: an even side has
    none), per inner cell the orbit cell whose piece it must be numbered above (-1: none), and
    the orbit cells searched before the centre, its first one first.

    An even side: the orbit rule alone. An odd one: a centre piece unlike its turns is held at
    one turn (:func:`_held_turns`; decided at the centre, before the orbit's last cell), and
    the orbit rule holds only when the centre piece is like one of its turns: the orbit cells
    after the centre are masked then, and those before it are checked at the centre (a piece
    like its turns goes there only if they are in order). Either way one turn of each class,
    as the centre cell, and so its piece, is the same in all four (with identical pieces in
    the orbit cells, several: :func:`kernel.inside_times`). An inside that is not square
    turns onto itself only a half turn: the same with orbits of two cells, and a centre piece
    unlike its turns held at two turns that are not a half turn apart.
    """
    rows = side if height is None else height
    orbit = turn_orbit(side, rows)
    centre = (side * rows) // 2 if side % 2 and rows % 2 else -1
    anchors = np.full(side * rows, -1, dtype=np.int64)
    later = [cell for cell in orbit[1:] if cell > centre]
    anchors[later] = orbit[0]
    early = [cell for cell in orbit if cell < centre] if centre >= 0 else []
    return centre, anchors, np.array(early, dtype=np.int64)


def without_turn_rule(frame: FrameTables) -> FrameTables:
    """The same tables searching every turn of every arrangement, and identical pieces in any
    order (to list bottoms: the turn rule keeps only some of the ways to fill an inside's
    first rows, and a top leaves the copies its order leaves)."""
    cells = frame.cells
    free = (-1, np.full(cells, -1, dtype=np.int64), np.zeros(0, dtype=np.int64), 0, 0, 1)
    no_sets = np.full(cells, -1, dtype=np.int64)
    return replace(frame, inner=(*frame.inner[:8], *free, no_sets, *frame.inner[15:]), copies=())


def _side_positions(side: int, rows: int) -> LongArray:
    """For each inner cell (row by row, ``side`` cells a row, ``rows`` rows) and side (N, E,
    S, W), the ring position it faces, -1 for none. Ring positions run clockwise from the
    north-west corner (0)."""
    corners = _ring_corners(side, rows)
    facing = np.full((side * rows, 4), -1, dtype=np.int64)
    for i in range(rows):
        for j in range(side):
            d = i * side + j
            if i == 0:
                facing[d, 0] = corners[0] + 1 + j
            if j == side - 1:
                facing[d, 1] = corners[1] + 1 + i
            if i == rows - 1:
                facing[d, 2] = corners[2] + (side - j)
            if j == 0:
                facing[d, 3] = corners[3] + (rows - i)
    return facing


def _ring_corners(side: int, rows: int) -> tuple[int, int, int, int]:
    """The ring positions of the north-west, north-east, south-east and south-west corners."""
    return 0, side + 1, side + rows + 2, 2 * side + rows + 3


def _ring_tables(
    edges: LongArray, corners: LongArray, mate: IntArray, side: int, rows: int
) -> kernel.Ring:
    """The ring's words. Chained sides must mate, so an edge piece is filed under the mate of
    its in color: the color the previous piece's out side has."""
    ncolors = len(mate)
    edge_words = np.zeros((ncolors, ncolors), dtype=np.uint64)
    any_edge = np.zeros(ncolors, dtype=np.uint64)
    available = np.zeros(ncolors, dtype=np.int64)
    for bit, (come_in, inward, _) in enumerate(edges.tolist()):
        edge_words[inward, mate[come_in]] |= np.uint64(1) << np.uint64(bit)
        any_edge[inward] |= np.uint64(1) << np.uint64(bit)
        available[inward] += 1
    corner_words = np.zeros(ncolors, dtype=np.uint64)
    for bit, (come_in, _) in enumerate(corners.tolist()):
        corner_words[mate[come_in]] |= np.uint64(1) << np.uint64(bit + kernel.CORNER_SHIFT)
    is_corner = np.zeros(2 * (side + rows) + 4, dtype=np.bool_)
    is_corner[list(_ring_corners(side, rows))] = True
    # The loop compares a piece's out color with the next one's in color, so ins are stored
    # mated (the closing piece's out against the first one's in, too).
    mated_edges, mated_corners = edges.copy(), corners.copy()
    mated_edges[:, 0] = mate[edges[:, 0]]
    mated_corners[:, 0] = mate[corners[:, 0]]
    in_words = np.zeros(ncolors, dtype=np.uint64)
    out_words = np.zeros(ncolors, dtype=np.uint64)
    for bit, (come_in, _, out) in enumerate(mated_edges.tolist()):
        in_words[come_in] |= np.uint64(1) << np.uint64(bit)
        out_words[out] |= np.uint64(1) << np.uint64(bit)
    pair_index, pair_colors = _pair_numbers(available)
    return (
        mated_edges,
        mated_corners,
        edge_words.view(np.int64),
        any_edge.view(np.int64),
        corner_words.view(np.int64),
        is_corner,
        available,
        in_words.view(np.int64),
        out_words.view(np.int64),
        pair_index,
        pair_colors,
    )


def _pair_numbers(available: LongArray) -> tuple[LongArray, int]:
    """The inward colors of the edge pieces numbered 0, 1, ... (-1 the others), and how many
    numbers: pairs of them index the bits of a word (:func:`kernel.stretch_pairs`), so with
    more than 8 colors they all get one number (the pairs then say only whether there is one)."""
    carried = np.flatnonzero(available)
    index = np.full(len(available), -1, dtype=np.int64)
    if len(carried) > 8:
        index[carried] = 0
        return index, 1
    index[carried] = np.arange(len(carried))
    return index, len(carried)


@dataclass
class FrameRun(Counters):
    """One inner search, resumable slice by slice, with the interface of
    :class:`~asterion.solver.edge_search.Run` that the split counter reads (``advance``,
    ``outcome``, ``count``, ``nodes``, ``kept``: arrangements as the row scan's placed pieces
    by cell). ``prefix``: the oriented inner pieces of the first ``depth`` inner cells, to
    search only below them; ``leaf``: list the partial insides of that depth instead (or set
    their bits in a filling ``sieve``); a probing ``sieve`` prunes tops without bottoms."""

    frame: FrameTables
    count_limit: int
    keep: int
    prefix: tuple[IntArray, int] | None = None
    leaf: int | None = None
    cache: tuple[LongArray, WordArray] | None = None
    sieve: kernel.Sieve = NO_SIEVE
    rows: int = -1
    """The stretch of frame is checked after each of the inside's first rows up to this many
    (0: never; -1: the frame's :attr:`~FrameTables.check_rows`)."""
    nested: bool = False
    """Run the loops written for this inside (:mod:`.edge_frame_nested`: faster, but compiled
    once per machine and kind of puzzle, some 30 s for a 7x7): for long counts and listings
    of bottoms; not for prefixes (``leaf`` without a filling sieve)."""
    state: LongArray = field(init=False)

    def __post_init__(self) -> None:
        height, positions = self.frame.height, self.frame.positions
        cells = self.frame.cells
        self.rows = self.frame.check_rows if self.rows < 0 else self.rows
        self.count_limit = min(self.count_limit, 1 << 62)
        self.rest = np.zeros((cells, 4), dtype=np.int64)
        self.chosen = np.full(cells, -1, dtype=np.int32)
        self.keyed = np.zeros(cells, dtype=np.int64)
        self.need = np.zeros(len(self.frame.problem.mate), dtype=np.int64)
        self.s = np.zeros(positions, dtype=np.int64)
        self.state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self.state[kernel.ENTERING] = 1
        self.state[kernel.SLACK] = self.frame.inner[17]
        filling = self.sieve[3]
        rows = self.count_limit if self.leaf is not None and not filling else self.keep
        self.leaves = np.full((max(min(rows, 1 << 20), 1), cells), -1, dtype=np.int32)
        self.leaf_rings = np.zeros(len(self.leaves), dtype=np.int64)
        cache = self.cache if self.cache is not None else new_cache()
        self.check = (
            min(self.rows, height - 1),
            self.frame.key_bits(self.rows),
            cache[0],
            cache[1],
            np.arange(positions, dtype=np.int64),
            np.zeros(positions, dtype=np.int64),
            kernel.new_walk(positions),
            np.zeros((kernel.FOUND_ROWS, 3), dtype=np.int64),
            np.zeros(height + 1, dtype=np.uint64),
        )
        self.nested = self.nested and (self.leaf is None or filling)
        if self.nested:
            self._nested_setup(cache)
        if self.prefix is not None:
            self._start_below(*self.prefix)

    def _nested_setup(self, cache: tuple[LongArray, WordArray]) -> None:
        """The written loops' arrays: their tables, buffers, parameters and state."""
        side, positions = self.frame.side, self.frame.positions
        colors, mate, bit_of, words, by_bit = self.frame.inner[:5]
        self.stack = np.zeros((side * side, 2), dtype=np.uint64)
        self.state = np.zeros(nested.STATE_SIZE, dtype=np.int64)
        self.tables = (
            mate[colors],
            colors,
            bit_of,
            words,
            by_bit,
            self.frame.ring[6],
            *self.frame.inner[14:17],
        )
        rows = min(self.rows, side - 1)
        runs = np.zeros((max(rows, 1), positions), dtype=np.int64)  # each checked stretch
        for row in range(rows):
            stretch = nested.stretch_positions(side, row)
            runs[row, : len(stretch)] = stretch
        whole, _, *ring_buffers = self.check[4:]
        self.buffers = (
            whole,
            *ring_buffers,
            runs,
            *cache,
            self.sieve[0],
            self.leaves,
            self.leaf_rings,
        )
        self.params = np.zeros(nested.PARAMS_SIZE, dtype=np.int64)
        self.params[nested.ALIKE] = self.frame.inner[11]
        self.params[nested.COPY_MASK], self.params[nested.TIMES] = self.frame.inner[12:14]
        self.params[nested.LIMIT_AT] = self.count_limit
        self.params[nested.BALANCE] = self.frame.inner[17]
        cells, centre, anchors = side * side, self.frame.inner[8], self.frame.inner[9]
        self.search = _nested_search(
            side,
            cells if self.leaf is None else self.leaf,
            len(mate),
            self.check[1],  # the cache key's bits a color, as the generic loop's
            len(cache[0]),
            self.sieve[1],
            self.sieve[2] >= 0,
            centre >= 0 or bool(np.any(anchors >= 0)),
            bool(self.frame.copies),
            self.rows,
        )

    def _start_below(self, chosen: IntArray, depth: int) -> None:
        colors, mate, bit_of, _, by_bit, side_pos = self.frame.inner[:6]
        self.chosen[:depth] = chosen[:depth]
        if self.nested:  # each cell of the prefix a loop with its one piece to try
            for d in range(depth):
                o, key = int(chosen[d]), self._key(d)
                slot = next(k for k in range(4) if by_bit[k, key, bit_of[o]] == o)
                self.stack[d] = (slot, 1 << int(bit_of[o]))
            self.state[nested.RESUME] = self.params[nested.FLOOR] = depth
            self.state[nested.NODES] = -depth  # tried again on the way in: not new placements
            return
        used = 0
        side, height, promises = self.frame.side, self.frame.height, self.frame.inner[16]
        for d in range(depth):
            o = int(chosen[d])
            used |= 1 << int(bit_of[o])
            self.state[kernel.SLACK] -= promises[o, kernel.cell_kind(d, side, height)]
            for k in range(4):
                if side_pos[d, k] >= 0:
                    self.need[mate[colors[o, k]]] += 1
                    self.s[side_pos[d, k]] = mate[colors[o, k]]
        self.state[kernel.USED] = signed_word(used)
        self.state[kernel.DEPTH] = self.state[kernel.FLOOR] = depth
        self._pairs_above(depth)

    def _pairs_above(self, depth: int) -> None:
        """What the stretches of the prefix's whole rows leave the rows below them (the loop
        works them out at the rows' ends, which a prefix skips)."""
        side, height, row_pairs = self.frame.side, self.frame.height, self.check[8]
        for row in range(min(self.check[0], depth // side, height - 1)):
            run = np.array(nested.stretch_positions(side, row, height), dtype=np.int64)
            walk, walks = self.check[6:8]
            listed = len(walks) if kernel.pairs_pay(row, height) else 0  # (as the loop)
            row_pairs[row + 1] = kernel.stretch_pairs(
                self.s, run, len(run), self.frame.ring, walk, walks[:listed]
            )

    def _key(self, cell: int) -> int:
        """The loop's key of the candidates at ``cell`` of the prefix (what its placed
        neighbours ask of it, the centre under the turn rule apart)."""
        colors, mate = self.frame.inner[:2]
        side, ncolors, centre = self.frame.side, len(mate), self.frame.inner[8]
        row, column = divmod(cell, side)
        north = mate[colors[self.chosen[cell - side], 2]] if row else 0
        west = mate[colors[self.chosen[cell - 1], 1]] if column else 0
        kind = 4 if cell == centre else (2 if row else 0) | (1 if column else 0)
        return int((kind * ncolors + north) * ncolors + west)

    def advance(self, budget: int) -> None:
        cells = self.frame.cells
        if self.nested:
            # (at least a path's length: a run coming back in tries that many pieces again)
            self.params[nested.STOP_AT] = self.state[nested.NODES] + max(budget, 2 * cells)
            self.search(
                self.tables,
                self.frame.ring,
                self.buffers,
                self.params,
                self.chosen,
                self.need,
                self.s,
                self.stack,
                self.state,
            )
            return
        kernel.frame_slice(
            self.frame.inner,
            self.frame.ring,
            self.check,
            self.rest,
            self.chosen,
            self.keyed,
            self.need,
            self.s,
            self.state,
            self.leaves,
            self.leaf_rings,
            self.count_limit,
            cells if self.leaf is None else self.leaf,
            budget,
            self.sieve,
        )

    @property
    def nodes(self) -> int:
        """Placements made (a prefix's own, tried again on the way in, not among them)."""
        return max(int(self.state[kernel.NODES]), 0)

    @property
    def prefixes(self) -> IntArray:
        """The partial insides listed (with ``leaf``)."""
        return self.leaves[: min(self.count, len(self.leaves))]

    @cached_property
    def kept(self) -> IntArray:
        """The first ``keep`` arrangements found, as the row scan's placed pieces by cell (no
        more than were counted: an inside found last may stand for more than the limit left)."""
        found: list[IntArray] = []
        for row in range(int(self.state[kernel.STORED])):
            found += whole_arrangements(self.frame, self.leaves[row], self.keep - len(found))
        if not found:
            return np.zeros((0, (self.frame.side + 2) * (self.frame.height + 2)), dtype=np.int32)
        return np.array(found[: min(self.keep, self.count)], dtype=np.int32)


@cache
def _nested_search(
    side: int,
    leaf: int,
    ncolors: int,
    bits: int,
    cache_size: int,
    sieve_log: int,
    probing: bool,
    rule: bool,
    copies: bool,
    rows: int,
) -> Callable[..., None]:
    """The compiled loops of a ``side`` x ``side`` inside, down to depth ``leaf``: the whole
    inside (a count), or its bottoms' depth (listed into a sieve)."""
    cells = side * side
    centre, anchors, early = _turn_rule(side)
    facing = _side_positions(side, side)
    geometry = nested.Geometry(
        side=side,
        facing=tuple(
            tuple((k, int(facing[d, k])) for k in range(4) if facing[d, k] >= 0)
            for d in range(cells)
        ),
        corners=tuple(p % (side + 1) == 0 for p in range(4 * (side + 1))),
        centre=centre,
        anchors=tuple(int(a) for a in anchors),
        early=tuple(int(e) for e in early),
        rows=min(rows, side - 1),
        probe_at=(side - bottom_rows(side)) * side,
        leaf=leaf,
        ncolors=ncolors,
        bits=bits,
        mask=cache_size - 1,
        sieve_log=sieve_log,
        probing=probing,
        rule=rule,
        copies=copies,
    )
    return nested.load(nested.kernel_source(geometry))


def new_cache(size_log: int = CACHE_SIZE_LOG) -> tuple[LongArray, WordArray]:
    """An empty cache of stretch answers (:func:`kernel.stretch_pairs`; keys never 0): keys and
    values side by side in one table, so that a lookup reads one line of memory, not two."""
    table = np.zeros((1 << size_log, 2), dtype=np.int64)
    return table[:, 0], table[:, 1].view(np.uint64)


def whole_arrangements(frame: FrameTables, inside: IntArray, most: int) -> list[IntArray]:
    """Up to ``most`` arrangements with this inside: each ring that fits it, in the order of
    the loop's ring search, then the same with identical inner pieces swapped round (the
    search placed them in order only), as the row scan's placed pieces by cell."""
    rings = _rings(frame, _inward_colors(frame, inside), most)
    found: list[IntArray] = []
    for same in _relabelings(frame, inside):
        if len(found) >= most or not rings:
            break
        found += _with_rings(frame, same, rings[: most - len(found)])
    return found


def _relabelings(frame: FrameTables, inside: IntArray) -> Iterator[IntArray]:
    """The inside, then the same picture with its identical pieces swapped round, every way
    but those the orbit rule would not keep (where it decides: the search kept the other
    turns of this picture that hold them)."""
    yield inside
    if not frame.copies:
        return
    colors, bit_of, centre, alike, orbit = (frame.inner[i] for i in (0, 2, 8, 11, 15))
    by_orbit = centre < 0 or (alike >> int(bit_of[inside[centre]])) & 1
    showing = {(int(bit_of[o]), tuple(colors[o])): o for o in range(len(colors))}
    bits = [bit for group in frame.copies for bit in group]
    orders = itertools.product(*(itertools.permutations(group) for group in frame.copies))
    next(orders)  # (the order found)
    for order in orders:
        moved = dict(zip(bits, itertools.chain(*order), strict=True))
        same = [moved.get(int(bit_of[o]), int(bit_of[o])) for o in inside]
        if by_orbit and same[orbit[0]] > min(same[cell] for cell in orbit):
            continue
        yield np.array(
            [showing[bit, tuple(colors[o])] for bit, o in zip(same, inside, strict=True)],
            dtype=inside.dtype,
        )


def _inward_colors(frame: FrameTables, inside: IntArray) -> LongArray:
    """The colors the inside asks of each ring position."""
    colors, mate, _, _, _, side_pos = frame.inner[:6]
    want = np.zeros(frame.positions, dtype=np.int64)
    for d in range(frame.cells):
        for k in range(4):
            if side_pos[d, k] >= 0:
                want[side_pos[d, k]] = mate[colors[inside[d], k]]
    return want


def _with_rings(frame: FrameTables, inside: IntArray, rings: list[list[int]]) -> list[IntArray]:
    """The arrangements of this inside with each of these rings."""
    side, width, height = frame.side, frame.side + 2, frame.height + 2
    number = {  # (a piece like some of its turns is listed at the first of them)
        (int(p), tuple(frame.problem.colors[o].tolist())): o
        for o, p in enumerate(frame.problem.piece)
    }
    pieces = {  # each piece as given (an oriented piece is its own turns of it)
        int(p): turn(tuple(frame.problem.colors[o].tolist()), -int(frame.problem.turns[o]))
        for o, p in enumerate(frame.problem.piece)
    }
    placed = np.full(width * height, -1, dtype=np.int32)

    def place(r: int, c: int, piece: int, turns: int) -> None:
        if frame.turned:  # turned back a quarter turn clockwise: (r, c) goes to (c, h - 1 - r)
            r, c, turns = c, height - 1 - r, turns + 1
        at = r * (height if frame.turned else width) + c
        placed[at] = number[piece, turn(pieces[piece], turns % 4)]

    for d in range(frame.cells):
        place(1 + d // side, 1 + d % side, *frame.inner_pieces[inside[d]])
    found: list[IntArray] = []
    for ring in rings:
        for position, piece in enumerate(ring):
            r, c = ring_cell(position, width, height)
            place(r, c, piece, _outward_turns(frame, piece, r, c))
        found.append(placed.copy())
    return found


def _rings(frame: FrameTables, want: LongArray, most: int) -> list[list[int]]:
    """Up to ``most`` rings (pieces by position) with inward colors ``want``.

    The compiled loop only learnt that some ring fits; this walk lists them, and prunes as the
    loop does not need to: a walk whose out color cannot lead round to the first corner (by
    any pieces, used or not: :func:`_closing_colors`) stops, and a position, out color and
    count of each kind of piece used (pieces alike in the walk are interchangeable) that led
    nowhere before is not walked again. Without them, the clue puzzle 2 of Eternity II
    (6 x 12, four frame colors) spent 8 s here on the one inside that a ring fits."""
    options, kinds = _ring_options(frame, want)
    found: list[list[int]] = []
    chain: list[int] = []
    dead: set[tuple[int, int, int, tuple[int, ...]]] = set()

    def walk(
        position: int, out: int, used: frozenset[int], counts: tuple[int, ...], first_in: int
    ) -> None:
        """On from ``position``, the piece before it showing ``out``, the first corner asking
        ``first_in`` of the last piece."""
        if position == len(options):
            if out == first_in:
                found.append(list(chain))
            return
        key = (position, out, first_in, counts)
        if out not in closing[first_in][position] or key in dead:
            return
        before = len(found)
        for piece, kind, come_in, goes_out in options[position]:
            if piece in used or come_in != out:
                continue
            chain.append(piece)
            walk(position + 1, goes_out, used | {piece}, _one_more(counts, kind), first_in)
            chain.pop()
            if len(found) >= most:
                return
        if len(found) == before:
            dead.add(key)

    closing = {come_in: _closing_colors(options, come_in) for _, _, come_in, _ in options[0]}
    for piece, kind, come_in, out in options[0]:  # the north-west corner: any corner piece
        chain.append(piece)
        walk(1, out, frozenset({piece}), _one_more((0,) * kinds, kind), come_in)
        chain.pop()
        if len(found) >= most:
            break
    return found


def _one_more(counts: tuple[int, ...], kind: int) -> tuple[int, ...]:
    return (*counts[:kind], counts[kind] + 1, *counts[kind + 1 :])


RingOption = tuple[int, int, int, int]
"""A piece that may stand at a ring position: (piece, kind, in color mated, out color)."""


def _ring_options(frame: FrameTables, want: LongArray) -> tuple[list[list[RingOption]], int]:
    """The pieces that may stand at each ring position (corners at corners, edge pieces of
    the inward color wanted elsewhere), and how many kinds of them: pieces of one kind have
    the same colors, so one stands wherever another does."""
    edges, corners, is_corner = frame.ring[0], frame.ring[1], frame.ring[5]
    kinds: dict[tuple[int, ...], int] = {}
    options: list[list[RingOption]] = []
    for position in range(frame.positions):
        corner = bool(is_corner[position])
        table, pieces = (corners, frame.corner_pieces) if corner else (edges, frame.edge_pieces)
        here: list[RingOption] = []
        for b, piece in enumerate(pieces):
            if corner or edges[b, 1] == want[position]:
                kind = kinds.setdefault((corner, *table[b].tolist()), len(kinds))
                here.append((piece, kind, int(table[b, 0]), int(table[b, -1])))
        options.append(here)
    return options, len(kinds)


def _closing_colors(options: list[list[RingOption]], target: int) -> list[set[int]]:
    """For each ring position, the out colors of the piece before it from which some pieces
    (each position's options, distinct or not) lead round to an out color of ``target``."""
    closing: list[set[int]] = [set() for _ in range(len(options))] + [{target}]
    for position in range(len(options) - 1, -1, -1):
        onward = closing[position + 1]
        closing[position] = {come_in for _, _, come_in, out in options[position] if out in onward}
    return closing


def ring_cell(position: int, width: int, height: int | None = None) -> tuple[int, int]:
    """The (row, column) of a ring position (clockwise from the north-west corner) on a grid
    of ``width`` columns and ``height`` rows (by default as many).

    >>> [ring_cell(p, 4, 3) for p in (0, 3, 5, 8, 9)]
    [(0, 0), (0, 3), (2, 3), (2, 0), (1, 0)]
    """
    east, south = width - 1, (width if height is None else height) - 1
    if position <= east:
        return 0, position
    if position <= east + south:
        return position - east, east
    if position <= 2 * east + south:
        return south, east - (position - east - south)
    return south - (position - 2 * east - south), 0


def _outward_turns(frame: FrameTables, piece: int, r: int, c: int) -> int:
    """The turns that put the piece's border sides on the grid's border at (r, c)."""
    east, south = frame.side + 1, frame.height + 1
    outward = {k for k, on in enumerate((r == 0, c == east, r == south, c == 0)) if on}
    colors = frame.problem.colors
    for o in np.flatnonzero(frame.problem.piece == piece):
        if {k for k in range(4) if colors[o, k] == BORDER} == outward:
            return int(frame.problem.turns[o])
    raise AssertionError(f"piece {piece} has no turn with its border outward at {(r, c)}")
