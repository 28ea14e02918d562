"""The compiled loops of counting by the frame (:mod:`asterion.solver.edge_frame`).

One depth-first search over the inner cells, row by row, as an explicit stack, resumable like
:mod:`.edge_search_kernel`'s: the fitting unused inner pieces are words of piece bits, looked up
by the colors the cell's placed neighbours need (none, west, north, or both: the inner part's
outer sides are free). Each side an inner piece turns to the frame fixes the inward color of one
ring position; the inner search keeps those colors within what the edge pieces carry, checks at
the ends of its first rows that some ring pieces can run along the fixed stretch (and which
pairs of colors that leaves the next row's end cells, :func:`stretch_pairs`), and at a full
inside adds the number of whole rings with exactly those inward colors.

Each color's *balance* (``edge_frame._balance_tables``) is kept in the bytes of one word: the
sides of that color inner pieces turn to each other in any arrangement, less those placed
against a piece or promised to a cell still empty. A placement that takes a byte below zero
is taken back at once: the pieces left cannot fill those cells (the inner search on 6x6 and
7x7 sets: 13-20 % fewer placements, 8-12 % less time; sieved whole counts, whose sieve
already holds the last rows to what fits, 4-5 % less; benchmarks, eighteenth round).

A *sieve* (:func:`sieve_key`) prunes the insides' top rows whose bottom rows cannot be had:
listing bottoms (``fill``) sets the bits of each one's key, and with ``probe_at`` the search of
an inside goes below that depth only if the bits of the key its top asks for are set. The table
is far larger than the processor's caches, so each test waits for memory; the cell before that
depth prefetches the bits of all its candidates as it is entered, so the waits overlap.

``state`` = [depth, count, nodes, outcome, floor, entering, used word, leaves stored, balance
word].
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from asterion.solver.edge_search_kernel import (
    _DE_BRUIJN,
    _LOWEST_BIT_INDEX,
    COUNT,
    DEPTH,
    EXHAUSTED,
    LIMIT,
    NODES,
    OUTCOME,
)
from asterion.solver.numba_loops import compiled as _compiled
from asterion.solver.numba_loops import prefetch

IntArray = npt.NDArray[np.int32]
LongArray = npt.NDArray[np.int64]
Inner = tuple[Any, ...]
"""(colors, mate, bit, words, by_bit, side_pos, ncolors, side, centre, anchors, early, alike,
copy_mask, times, sets, orbit, promises, balance, height): the inner pieces' oriented colors
and piece bits, their candidate words and oriented pieces by (slot, key, bit), the ring
position each inner cell's side faces (-1 none), the colors, the inner grid's row length, the turn
rule's cells and pieces like their turns (``edge_frame._turn_rule``), and the identical
pieces (``edge_frame._copies``): the bits of those that go only where the piece one bit
below is placed already, how many arrangements an inside found stands for, each piece's set
(-1 none), and the turn orbit's cells; what each oriented piece promises of each color by
the kind of its cell, each color's balance (``edge_frame._balance_tables``), and the inner
grid's rows."""
Ring = tuple[Any, ...]
"""(edges, corners, edge_words, any_edge, corner_words, is_corner, available, in_words,
out_words, pair_index, pair_colors): edge pieces as (in, inward, out) and corners as (in,
out), words of edge bits by (inward, in) and by inward, corner words by in, which ring
positions are corners, edge pieces per inward color, words of edge bits by in and by out, and
the inward colors numbered for :func:`stretch_pairs` (-1 none) and how many."""
Walk = tuple[Any, ...]
"""(rest, chosen, need_in, found_before, can, memo): :func:`_ring_walk`'s buffers, by
position: the pieces still to try, the piece tried, the color it asks of the next, the ways
found before it, the out colors that can still close the ring (:func:`_closing_sets`); and
its memo of dead ends, whose row 0 tallies the walks (a generation number)
and the last walk's steps, each other row a state's key and the generation that found it."""
Sieve = tuple[Any, int, int, bool]
"""(bits, log2 of their number, probe depth or -1, fill): the sieve's words of bits, and
whether a listing sets bits (fill) or an inside's search tests them at ``probe depth``."""
Check = tuple[Any, ...]
"""(rows, bits, cache_keys, cache_values, whole, run, walk, found, row_pairs): the rows after
which the stretch is checked, bits per color in a cache key (0: no cache), the cache, every
ring position in order, buffers (:data:`Walk`), and each row's pairs (:func:`stretch_pairs`)."""

__all__ = ["COUNT", "DEPTH", "NODES", "OUTCOME", "frame_slice", "sieve_key"]

FLOOR, ENTERING, USED, STORED, SLACK = range(4, 9)  # after DEPTH, COUNT, NODES, OUTCOME (shared)
STATE_SIZE = 9
GUARDS = np.uint64(0x8080808080808080)
BIASES = np.uint64(0x0808080808080808)
"""A balance word's bytes (:func:`frame_slice`): the top bit of each, clear while the color
has what is asked of it, and what each holds when nothing more may be asked (a placement
asks at most 4 of a color, so a byte that went below it stays above zero)."""
CORNER_SHIFT = 32
"""Corner pieces' bits in a ring's used word sit above the (at most 32) edge pieces' bits."""
MEMO_LOG = 14
"""Rows in a walk's memo of dead ends (16 bytes each, 256 KiB): one state a row, the last
one met there kept."""
SHORT_WALK = 256
"""Steps a ring walk takes before it remembers its dead ends and, if closed, prunes by
:func:`_closing_sets`: most walks round a 7x7's or 8x8's inside end within some tens of
steps, where that work would triple their cost (0.7 against 1.8 us on random insides'
colors)."""
WALK_STEP_SHIFT = 1
"""A ring walk's steps count this many halvings to a slice's budget, which is in placements:
a step took 12-24 ns where an inner placement takes 35-45 ns (clue puzzles, 7x7 3/6)."""
FOUND_ROWS = 256
"""Stretch walks kept for :func:`stretch_pairs`; a stretch with more rules no pair out."""


def cell_kind(cell: int, side: int, height: int | None = None) -> int:
    """Which of an inner cell's east (1) and south (2) sides face cells filled after it, in
    the row scan of ``height`` rows (by default ``side``) of ``side`` cells: the column of a
    piece's promises (``edge_frame._balance_tables``)."""
    rows = side if height is None else height
    return int(cell % side < side - 1) | int(cell // side < rows - 1) << 1


@_compiled
def _dead_end_key(d: int, used: np.uint64, out: int, first_in: int) -> np.uint64:
    """A walk's state after its ``d``-th piece: the pieces used (edge bits below 32, corners'
    at :data:`CORNER_SHIFT`, so 36 bits), the position (below 64), its out color and the first
    piece's in color (below 32 each, ``edge_frame.MAX_COLORS``): exact, in 52 bits.

    The pieces and the out color alone would do: each ring piece goes from a fixed in color to
    a fixed out color, so the pieces used are the steps of a trail, and a trail's steps and
    its end fix its start (the one color it leaves once more than it enters, or its end). So
    no two states of a walk differ only in ``d`` or ``first_in``; they are in the key so that
    it reads as the state, at no cost."""
    return (
        used
        | (np.uint64(d) << np.uint64(36))
        | (np.uint64(out) << np.uint64(42))
        | (np.uint64(first_in) << np.uint64(47))
    )


@_compiled
def _dead_end_slot(key: np.uint64, memo: LongArray) -> int:
    """Where a state's key is kept in the walk's memo (rows 1 ..; row 0 is the tally)."""
    return 1 + int((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - MEMO_LOG))


@_compiled
def _closing_sets(
    s: LongArray, run: LongArray, m: int, ring: Ring, first_in: int, can: LongArray
) -> None:
    """``can[d]``, for ``d`` from ``m`` down to 1: the colors (bits) that the piece at position
    ``run[d - 1]`` may turn out for the ring still to close round to ``first_in``, were every
    piece free: some piece fits at ``run[d]`` with that in color and an out color in
    ``can[d + 1]`` (``can[m]``: ``first_in`` alone)."""
    edges, corners, any_edge, is_corner = ring[0], ring[1], ring[3], ring[5]
    all_corners = ((np.uint64(1) << np.uint64(corners.shape[0])) - np.uint64(1)) << np.uint64(
        CORNER_SHIFT
    )
    can[m] = np.int64(1) << np.int64(first_in)
    for d in range(m - 1, 0, -1):
        at = run[d]
        word = all_corners if is_corner[at] else np.uint64(any_edge[s[at]])
        ok = np.int64(0)
        while word != 0:
            lowest = word & (~word + np.uint64(1))
            word ^= lowest
            bit = _LOWEST_BIT_INDEX[(lowest * _DE_BRUIJN) >> np.uint64(58)]
            piece = corners[bit - CORNER_SHIFT] if bit >= CORNER_SHIFT else edges[bit, 0::2]
            if (can[d + 1] >> np.int64(piece[-1])) & 1:
                ok |= np.int64(1) << np.int64(piece[0])
        can[d] = ok


@_compiled
def _ring_walk(
    s: LongArray,
    run: LongArray,
    m: int,
    closed: bool,
    ring: Ring,
    walk: Walk,
    limit: int,
    found: LongArray,
) -> int:
    """Ring pieces along positions ``run[0..m-1]`` (clockwise), distinct, each edge piece with
    inward color ``s[position]``, each piece's out side fitting the next one's in side; when
    ``closed`` the last fits the first. How many ways, up to ``limit`` (1: is there one?).
    The first ways found, as many as ``found`` has rows, are kept there: the pieces used (a
    word), the first piece's in color and the last one's out color.

    Counted one by one, so the limit is what bounds the walk: puzzles whose edge pieces share
    few colors have astronomically many rings per inside (a 10 x 10 with 3 colors never
    finished counting them for a first arrangement). Past :data:`SHORT_WALK` steps its dead
    ends are remembered (the walk's memo, :data:`Walk`): a state (:func:`_dead_end_key`)
    below which no way was found is not entered again, as different orders of the same
    pieces come to it (the clue puzzles' 6 x 12 rings, 4 frame colors: the whole walk of an
    inside took some 4 ms without); and a closed walk skips out colors that cannot lead
    round to its first piece. The steps taken are left in the memo's tally for the caller's
    budget."""
    edges, corners, edge_words, any_edge, corner_words, is_corner = ring[:6]
    rest, chosen, need_in, found_before, can, memo = walk
    memo[0, 0] += 1  # this walk's generation: rows of earlier walks do not count
    generation = memo[0, 0]
    all_corners = np.uint64(0)
    for k in range(corners.shape[0]):
        all_corners |= np.uint64(1) << np.uint64(k + CORNER_SHIFT)
    for k in range(m):
        chosen[k] = -1
    first = run[0]
    rest[0] = all_corners if is_corner[first] else np.uint64(any_edge[s[first]])
    used = np.uint64(0)
    total = 0
    first_in = 0
    can_for = -1  # the first in color that can was worked out for
    long_walk = False  # past SHORT_WALK steps: remember dead ends (and prune, closed)
    steps = 0
    d = 0
    while d >= 0:
        steps += 1
        if chosen[d] >= 0:
            used ^= np.uint64(1) << np.uint64(chosen[d])
            chosen[d] = -1
        r = np.uint64(rest[d])
        if r == 0:
            d -= 1
            if long_walk and d >= 0 and total == found_before[d]:  # nothing below d's piece
                key = _dead_end_key(d, used, need_in[d], first_in)
                slot = _dead_end_slot(key, memo)
                memo[slot, 0] = np.int64(key)
                memo[slot, 1] = generation
            continue
        lowest = r & (~r + np.uint64(1))
        rest[d] = r ^ lowest
        bit = _LOWEST_BIT_INDEX[(lowest * _DE_BRUIJN) >> np.uint64(58)]
        chosen[d] = bit
        used |= lowest
        if bit >= CORNER_SHIFT:
            need_in[d] = corners[bit - CORNER_SHIFT, 1]
            if d == 0:
                first_in = corners[bit - CORNER_SHIFT, 0]
        else:
            need_in[d] = edges[bit, 2]
            if d == 0:
                first_in = edges[bit, 0]
        if d == m - 1:
            if not closed or need_in[d] == first_in:
                if total < found.shape[0]:
                    found[total, 0] = np.int64(used)
                    found[total, 1] = first_in
                    found[total, 2] = need_in[d]
                total += 1
                if total >= limit:
                    memo[0, 1] = steps
                    return total
            continue
        if not long_walk and steps > SHORT_WALK:
            long_walk = True
        if long_walk:
            if closed and can_for != first_in:
                _closing_sets(s, run, m, ring, first_in, can)
                can_for = first_in
            if closed and (can[d + 1] >> need_in[d]) & 1 == 0:  # cannot close at all
                continue
            key = _dead_end_key(d, used, need_in[d], first_in)
            slot = _dead_end_slot(key, memo)
            if memo[slot, 1] == generation and memo[slot, 0] == np.int64(key):
                continue
        found_before[d] = total
        d += 1
        at = run[d]
        if is_corner[at]:
            rest[d] = np.uint64(corner_words[need_in[d - 1]]) & ~used
        else:
            rest[d] = np.uint64(edge_words[s[at], need_in[d - 1]]) & ~used
    memo[0, 1] = steps
    return total


def new_walk(positions: int) -> Walk:
    """Empty buffers for :func:`_ring_walk` round a frame of ``positions``."""
    return (
        np.zeros(positions, dtype=np.uint64),
        np.zeros(positions, dtype=np.int64),
        np.zeros(positions, dtype=np.int64),
        np.zeros(positions, dtype=np.int64),
        np.zeros(positions + 1, dtype=np.int64),
        np.zeros((1 + (1 << MEMO_LOG), 2), dtype=np.int64),
    )


@_compiled
def copies_allowed(used: np.uint64, copy_mask: np.uint64) -> np.uint64:
    """The pieces not ruled out by ``used``: unused, and no copy whose copy one bit below is
    unused (identical pieces are placed in the order of their bits; ``copy_mask``: the bits
    of every copy but each set's first)."""
    return ~used & ~(copy_mask & (~used << np.uint64(1)))


@_compiled
def inside_times(
    chosen: IntArray,
    bit_of: LongArray,
    sets: LongArray,
    orbit: LongArray,
    centre: int,
    alike: int,
    times: int,
) -> int:
    """How many arrangements each ring of a full inside stands for: one for every order of
    its identical pieces (``times``), over the turns of it that the orbit rule keeps too.

    The orbit rule keeps a turn of the inside if its first orbit cell holds a piece numbered
    below the other orbit cells'; copies placed in order number themselves by the order of
    the cells, so every turn that brings a copy of the lowest set there is kept: as many as
    the orbit cells holding one (the same count when the inside is its own turn: its kept
    turns then repeat as often as its turns do). Not where the centre piece, unlike its
    turns, decides alone."""
    if times == 1:
        return 1
    if centre >= 0 and (np.uint64(alike) >> np.uint64(bit_of[chosen[centre]])) & np.uint64(1) == 0:
        return times
    first = sets[bit_of[chosen[orbit[0]]]]
    if first < 0:
        return times
    kept = 0
    for cell in orbit:
        kept += sets[bit_of[chosen[cell]]] == first
    return times // kept


@_compiled
def rings_wanted(count: int, times: int, limit: int) -> int:
    """How many rings of an inside that stands for ``times`` arrangements reach ``limit``."""
    return (limit - count + times - 1) // times


@_compiled
def add_rings(count: int, rings: int, times: int, limit: int) -> int:
    """``count`` and ``rings`` found ``times`` over, at most ``limit`` (never overflowing)."""
    if rings > (limit - count) // times:
        return limit
    return count + rings * times


@_compiled
def pairs_pay(row: int, rows: int) -> bool:
    """Are the pairs worth listing every walk of the stretch after ``row``? Not where the next
    row is the last: there they spare little (its cells have few candidates by then), and
    6x6 3/5 seed 3's count took a quarter longer with them, for 0.7 % fewer placements
    (benchmarks, fourteenth round). Elsewhere :func:`stretch_pairs` only asks whether there
    is a walk (and rules no pair out)."""
    return row + 2 < rows


@_compiled
def stretch_pairs(
    s: LongArray,
    run: LongArray,
    m: int,
    ring: Ring,
    walk: Walk,
    found: LongArray,
) -> np.uint64:
    """Which inward colors the next row's two end cells may turn to the ring, once the
    stretch ``run[0..m-1]`` is fixed: bit ``pair_index[west] * pair_colors + pair_index[east]``
    is set if some ring pieces run along the stretch with an unused edge piece of inward color
    ``west`` before them and another of ``east`` after them. 0: none (no walk of the stretch).
    A stretch with more walks than ``found`` holds rules nothing out."""
    edges = ring[0]
    in_words, out_words, pair_index, k = ring[7:11]
    walks = _ring_walk(s, run, m, False, ring, walk, found.shape[0] + 1, found)
    if walks > found.shape[0]:
        return ~np.uint64(0) >> np.uint64(64 - k * k)
    every_edge = (np.uint64(1) << np.uint64(edges.shape[0])) - np.uint64(1)
    pairs = np.uint64(0)
    for i in range(walks):
        free = every_edge & ~np.uint64(found[i, 0])
        west_pieces = np.uint64(out_words[found[i, 1]]) & free  # out fits the walk's first in
        while west_pieces != 0:
            west = west_pieces & (~west_pieces + np.uint64(1))
            west_pieces ^= west
            w = _LOWEST_BIT_INDEX[(west * _DE_BRUIJN) >> np.uint64(58)]
            row_of_west = pair_index[edges[w, 1]] * k
            east_pieces = np.uint64(in_words[found[i, 2]]) & free & ~west
            while east_pieces != 0:  # in fits the walk's last out
                east = east_pieces & (~east_pieces + np.uint64(1))
                east_pieces ^= east
                e = _LOWEST_BIT_INDEX[(east * _DE_BRUIJN) >> np.uint64(58)]
                pairs |= np.uint64(1) << np.uint64(row_of_west + pair_index[edges[e, 1]])
    return pairs


@_compiled
def sieve_key(
    pieces: np.uint64, chosen: IntArray, table: LongArray, cell: int, step: int, side: int
) -> np.uint64:
    """The sieve's key (a 64-bit hash, :func:`sieve_word` and :func:`sieve_mask`) of a set of
    inner pieces and a row of colors: side S (``table[o, 2]``) of the pieces in cells
    ``cell``, ``cell + step``, ... (``side`` cells).

    A top asks, of the row below it, for its pieces' mated south colors left to right
    (``mated``, step 1); a bottom, listed turned a half turn as a top, offers the same
    colors as its pieces' own south colors right to left (``colors``, step -1)."""
    first = _first_colors_hash(chosen, table, cell, step, side - 1)
    return _sieve_hash(first, table[chosen[cell + step * (side - 1)], 2], pieces)


@_compiled
def _first_colors_hash(
    chosen: IntArray, table: LongArray, cell: int, step: int, count: int
) -> np.uint64:
    """:func:`sieve_key`'s hash of all but the last color (shared by a cell's candidates)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for _ in range(count):
        h = (h ^ np.uint64(table[chosen[cell], 2] + 1)) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
        cell += step
    return h


@_compiled
def _sieve_hash(first: np.uint64, last: int, pieces: np.uint64) -> np.uint64:
    """:func:`sieve_key` from the hash of the first colors, the last one and the pieces."""
    h = (first ^ np.uint64(last + 1)) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    h = (h ^ (np.uint64(pieces) * np.uint64(0x9E3779B97F4A7C15))) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(31)
    return h * np.uint64(0x94D049BB133111EB)


@_compiled
def sieve_word(key: np.uint64, log: int) -> np.uint64:
    """The word of a sieve of ``2**log`` bits that holds a key's bits (its top bits)."""
    return key >> np.uint64(70 - log)


@_compiled
def sieve_mask(key: np.uint64) -> np.uint64:
    """A key's three bits in its word (from bits the word's number does not use). Three bits a
    key set more of them, but a key not listed passes only if all three are set: with some
    5 x 10^8 bottoms in 2^32 bits (7x7 3/6 seed 9) 31 % are set, and some 3 % of such tops
    pass, where one bit a key let 12 % through (benchmarks, sixteenth round)."""
    one = np.uint64(1)
    return (
        (one << ((key >> np.uint64(8)) & np.uint64(63)))
        | (one << ((key >> np.uint64(14)) & np.uint64(63)))
        | (one << ((key >> np.uint64(20)) & np.uint64(63)))
    )


@_compiled
def sieve_has(bits: npt.NDArray[np.uint64], key: np.uint64, log: int) -> bool:
    """Whether a key's bits are set (it was listed, or others set them)."""
    mask = sieve_mask(key)
    return bool(bits[sieve_word(key, log)] & mask == mask)


@_compiled
def sieve_add(bits: npt.NDArray[np.uint64], key: np.uint64, log: int) -> None:
    """Set a key's bits."""
    bits[sieve_word(key, log)] |= sieve_mask(key)


@_compiled
def frame_slice(
    inner: Inner,
    ring: Ring,
    check: Check,
    rest: LongArray,
    chosen: IntArray,
    keyed: LongArray,
    need: LongArray,
    s: LongArray,
    state: LongArray,
    leaves: IntArray,
    leaf_rings: LongArray,
    count_limit: int,
    leaf: int,
    budget: int,
    sieve: Sieve,
) -> None:
    """Run the inner search for up to ``budget`` steps, resuming from ``state``.

    ``chosen[cell]`` is the oriented inner piece there (-1 none). With ``leaf`` below the number
    of inner cells, the partial insides of that depth are listed (in ``leaves``) and counted
    instead (the prefixes of a split), or with the sieve's fill on, their bits set in it.
    ``leaves`` keeps the first full insides with a ring, and ``leaf_rings`` their numbers of
    rings, until those add up to ``leaves``' rows.
    """
    (colors, mate, bit_of, words, by_bit, side_pos, ncolors, side) = inner[:8]
    (centre, anchors, early, alike, copy_mask, times, sets, orbit) = inner[8:16]
    promises, height = inner[16], inner[18]
    available = ring[6]
    pair_index, pair_colors = ring[9], ring[10]
    (rows, bits, cache_keys, cache_values, whole, run, walk, walks, row_pairs) = check
    walk_tally = walk[5]
    is_corner = ring[5]
    (sieve_bits, sieve_log, probe_at, fill) = sieve
    every_piece = np.uint64(0)
    for o in range(colors.shape[0]):
        every_piece |= np.uint64(1) << np.uint64(bit_of[o])
    mask = np.int64(cache_keys.shape[0] - 1)
    cells = side * height
    positions = s.shape[0]
    width = side + 2
    depth = state[DEPTH]
    count = state[COUNT]
    nodes = state[NODES]
    floor = state[FLOOR]
    entering = state[ENTERING] != 0
    used = np.uint64(state[USED])
    stored = state[STORED]
    slack = np.uint64(state[SLACK])
    steps = 0
    mated = np.empty_like(colors)  # each side's mate (one lookup where two would be)
    for o in range(colors.shape[0]):
        for k in range(4):
            mated[o, k] = mate[colors[o, k]]
    row_of = np.arange(cells) // side  # (a division per placement costs more than a lookup)
    column = np.arange(cells) % side
    kinds = (column < side - 1) + 2 * (row_of < height - 1)  # cell_kind, for every cell
    while steps < budget:
        steps += 1
        if entering:
            kind, north, west = 0, 0, 0
            if depth >= side:
                kind |= 2
                north = mated[chosen[depth - side], 2]
            if column[depth] > 0:
                kind |= 1
                west = mated[chosen[depth - 1], 1]
            key = (kind * ncolors + north) * ncolors + west
            allowed = copies_allowed(used, np.uint64(copy_mask))
            if depth == centre:  # pieces unlike their turns at their held turn only (kind 4)
                key += ncolors * ncolors
                for e in range(1, early.shape[0]):  # the others only if the orbit is in order
                    if bit_of[chosen[early[e]]] < bit_of[chosen[early[0]]]:
                        allowed &= ~np.uint64(alike)
            elif anchors[depth] >= 0 and (centre < 0 or (alike >> bit_of[chosen[centre]]) & 1):
                # an orbit cell under the orbit rule: only pieces numbered above its first
                allowed &= ~(
                    (np.uint64(2) << np.uint64(bit_of[chosen[anchors[depth]]])) - np.uint64(1)
                )
            keyed[depth] = key
            for slot in range(4):
                rest[depth, slot] = np.int64(np.uint64(words[slot, key]) & allowed)
            if depth == probe_at - 1:  # the sieve bits that this cell's candidates will test,
                # fetched together: the waits for memory overlap (8 % less time, benchmarks)
                first = _first_colors_hash(chosen, mated, depth + 1 - side, 1, side - 1)
                left = every_piece ^ used
                for slot in range(4):
                    r = np.uint64(rest[depth, slot])
                    while r != 0:
                        lowest = r & (~r + np.uint64(1))
                        r ^= lowest
                        index = _LOWEST_BIT_INDEX[(lowest * _DE_BRUIJN) >> np.uint64(58)]
                        o = by_bit[slot, key, index]
                        h = _sieve_hash(first, mated[o, 2], left ^ lowest)
                        prefetch(sieve_bits, sieve_word(h, sieve_log))
            entering = False
        elif chosen[depth] >= 0:  # take the piece placed here off
            o = chosen[depth]
            used ^= np.uint64(1) << np.uint64(bit_of[o])
            slack += np.uint64(promises[o, kinds[depth]])
            for k in range(4):
                if side_pos[depth, k] >= 0:
                    need[mated[o, k]] -= 1
            chosen[depth] = -1
        found = -1
        slot = 0
        while slot < 4:
            r = np.uint64(rest[depth, slot])
            if r == 0:
                slot += 1
                continue
            lowest = r & (~r + np.uint64(1))
            rest[depth, slot] = np.int64(r ^ lowest)
            o = by_bit[
                slot, keyed[depth], _LOWEST_BIT_INDEX[(lowest * _DE_BRUIJN) >> np.uint64(58)]
            ]
            fits = True
            for k in range(4):  # the inward colors asked of the ring stay within its pieces
                if side_pos[depth, k] >= 0:
                    c = mated[o, k]
                    need[c] += 1
                    fits = fits and need[c] <= available[c]
            if fits:
                found = o
                break
            for k in range(4):
                if side_pos[depth, k] >= 0:
                    need[mated[o, k]] -= 1
        if found < 0:
            depth -= 1
            if depth < floor:
                state[OUTCOME] = EXHAUSTED
                break
            continue
        chosen[depth] = found
        used |= np.uint64(1) << np.uint64(bit_of[found])
        slack -= np.uint64(promises[found, kinds[depth]])
        nodes += 1
        if ((slack | GUARDS) - BIASES) & GUARDS != GUARDS:  # a color owes more than it has
            continue
        for k in range(4):
            if side_pos[depth, k] >= 0:
                s[side_pos[depth, k]] = mated[found, k]
        after = depth + 1
        row = row_of[depth]
        if 0 < row <= rows and (column[depth] == 0 or column[depth] == side - 1):
            # the colors this row's end cells turn to the ring, against what the stretch
            # above leaves them (stretch_pairs)
            at = pair_index[s[positions - 1 - row]] * pair_colors
            if column[depth] == 0:
                want = (np.uint64(1) << np.uint64(pair_colors)) - np.uint64(1)
            else:
                want = np.uint64(1)
                at += pair_index[s[width + row]]
            if (row_pairs[row] >> np.uint64(at)) & want == 0:
                continue
        if after == probe_at:  # the rows below need the pieces left, with these colors
            # (tested first: the stretch's answer is often not cached, and the bit is rarely set)
            h = sieve_key(every_piece ^ used, chosen, mated, after - side, 1, side)
            if not sieve_has(sieve_bits, h, sieve_log):
                continue
        if column[depth] == side - 1 and after < cells and row < rows:
            # The stretch fixed so far: up the west side, the north-west corner, the north
            # side, the north-east corner, down the east side. Its answer is cached by its
            # inward colors (written out: a call with these arrays costs more than a lookup).
            m = 0
            for p in range(positions - (row + 1), positions):
                run[m] = p
                m += 1
            for p in range(width + row + 1):
                run[m] = p
                m += 1
            spec = np.int64(row + 1)
            place = np.int64(-1)
            known = False
            answer = np.uint64(0)
            if bits > 0:
                for q in range(m):
                    if not is_corner[run[q]]:
                        spec = (spec << np.int64(bits)) | np.int64(s[run[q]])
                place = ((spec * np.int64(-7046029254386353131)) >> np.int64(20)) & mask
                for _ in range(8):
                    if cache_keys[place] == spec:
                        answer = cache_values[place]
                        known = True
                        break
                    if cache_keys[place] == 0:
                        break
                    place = (place + 1) & mask
            if not known:
                listed = walks.shape[0] if pairs_pay(row, height) else 0
                answer = stretch_pairs(s, run, m, ring, walk, walks[:listed])
                steps += walk_tally[0, 1] >> WALK_STEP_SHIFT
                if place >= 0:  # an empty slot, or the last of a full probe run
                    cache_keys[place] = spec
                    cache_values[place] = answer
            if answer == 0:
                continue
            row_pairs[row + 1] = answer
        if after == leaf and fill:  # a bottom (turned): its pieces and its row's colors
            sieve_add(sieve_bits, sieve_key(used, chosen, colors, after - 1, -1, side), sieve_log)
            count += 1
            continue
        if after == leaf and leaf < cells:  # a prefix of the split
            if count < leaves.shape[0]:
                for i in range(cells):
                    leaves[count, i] = chosen[i]
            count += 1
            if count >= count_limit:
                state[OUTCOME] = LIMIT
                break
            continue
        if after == cells:
            weight = inside_times(chosen, bit_of, sets, orbit, centre, alike, times)
            rings = _ring_walk(  # (more than the limit leaves cannot count)
                s,
                whole,
                positions,
                True,
                ring,
                walk,
                rings_wanted(count, weight, count_limit),
                walks[:0],
            )
            steps += walk_tally[0, 1] >> WALK_STEP_SHIFT  # (bounds a slice's time)
            if rings > 0:
                if stored < leaves.shape[0] and count < leaves.shape[0]:
                    for i in range(cells):
                        leaves[stored, i] = chosen[i]
                    leaf_rings[stored] = rings
                    stored += 1
                count = add_rings(count, rings, weight, count_limit)
                if count >= count_limit:
                    state[OUTCOME] = LIMIT
                    break
            continue
        depth = after
        entering = True
    state[DEPTH] = depth
    state[COUNT] = count
    state[NODES] = nodes
    state[ENTERING] = 1 if entering else 0
    state[USED] = np.int64(used)
    state[STORED] = stored
    state[SLACK] = np.int64(slack)
