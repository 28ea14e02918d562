"""The compiled loop of the edge-matching search (:mod:`asterion.solver.edge_search`).

One depth-first search over the cells in a fixed order, as an explicit stack, resumable: it
runs for a budget of steps and leaves everything it needs to go on in arrays. At each position
the fitting oriented pieces are looked up by the colors of its two keyed sides (the tables of
``edge_search``), and the first unused one is placed.

Two modes, chosen by the number of pieces:

* *small* (at most 64 pieces, every grid up to 8 x 8): the used pieces are one 64-bit word kept
  in a register, and the symmetry breaking (a pinned or banned corner piece) is folded into a
  per-position word of forbidden pieces, so the inner loop tests one bit. Measured 1.45 times
  faster than a flag per piece (6 x 6 3/5 seed 0, every arrangement: 1.50 s -> 1.04 s of CPU
  for the same 31.9 million placements). Only this mode has the memo.
* *wide* (more pieces): a flag per piece, the pin and ban tested in the loop.

The memo (counting): at chosen positions (the start of each row of a row scan) the rest of the
search depends only on which pieces are used and on the colors facing the empty cells (the
*frontier*), so the number of arrangements below is stored under that key when the position is
left, and a later visit with the same key adds it without searching. Only a cache: a missing
entry is searched again, so counts stay exact whatever is kept; a stored positive count is used
only once the caller has all the arrangements it keeps, and a zero always. A table row holds
the used word, the key, the count and a stamp; rows stamped otherwise count as empty.

``state`` = [depth, count, nodes, outcome, used word, floor]: the search never backs up above
``floor`` (a subtree below a fixed prefix, for splitting the work), and a ``leaf`` depth below
the grid's size counts partial placements instead of arrangements (to list the prefixes).

:func:`estimate_nodes` estimates the size of the same search's tree by random probes (Knuth),
to choose the variant that counts fastest.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from asterion.solver.numba_loops import compiled as _compiled

IntArray = npt.NDArray[np.int32]
LongArray = npt.NDArray[np.int64]
LoopTables = tuple[Any, ...]
Words = tuple[LongArray, LongArray, LongArray, IntArray, IntArray]
"""Candidates as words (small mode): key_row, first, second, first_o, second_o; see
``edge_search.candidate_words``."""
"""The tables both loops read, in this order: colors, piece, facing, candidates, cand_piece,
seg_start, seg_len (by oriented piece or key); cell, base, keyed, stride, extra, pin, ban (by
position). See ``edge_search.Tables``."""

RUNNING, EXHAUSTED, LIMIT = 0, 1, 2
DEPTH, COUNT, NODES, OUTCOME, USED, FLOOR = range(6)
STATE_SIZE = 6
SMALL_PIECES = 64
"""Up to this many pieces the used set is one 64-bit word (and the memo can key on it)."""
PROBES = 4
"""Memo slots tried per key (open addressing) before the first one is overwritten."""


@_compiled
def memo_key(depth: int, colors: IntArray, placed: IntArray, front: IntArray, bits: int) -> int:
    """The frontier colors at ``depth``, packed with the depth (never 0)."""
    key = depth + 1
    for j in range(front.shape[1]):
        where = front[depth, j]
        if where < 0:
            break
        key = (key << bits) | colors[placed[where >> 2], where & 3]
    return key


@_compiled
def memo_slot(memo: LongArray, used: int, key: int, stamp: int) -> int:
    """The slot holding (used, key), else an empty slot of its probe run, else -1 - first.

    Entries stamped otherwise are empty: one table serves task after task as if fresh."""
    size: int = memo.shape[0]
    mixed = used ^ (used >> 23) ^ key ^ (key >> 11)  # shifts right only: no overflow
    first: int = (mixed ^ (mixed >> 31) ^ (mixed >> 47)) & (size - 1)
    for probe in range(PROBES):
        slot: int = (first + probe) & (size - 1)
        if memo[slot, 3] != stamp or (memo[slot, 1] == key and memo[slot, 0] == used):
            return slot
    return -1 - first


@_compiled
def memo_usable(memo: LongArray, used: int, key: int, stamp: int, kept_all: bool) -> int:
    """The count stored under (used, key), if it may stand for the subtree now, else -1: a
    zero always, a positive count once the caller keeps no more arrangements."""
    slot = memo_slot(memo, used, key, stamp)
    if slot < 0 or memo[slot, 3] != stamp or memo[slot, 1] != key:
        return -1
    stored: int = memo[slot, 2]
    return stored if stored == 0 or kept_all else -1


@_compiled
def search_slice(
    tables: LoopTables,
    forbid: LongArray,
    small: bool,
    memo_at: IntArray,
    front: IntArray,
    bits: int,
    memo: LongArray,
    stamp: int,
    entry: LongArray,
    placed: IntArray,
    used: IntArray,
    cursor: IntArray,
    seg_end: IntArray,
    state: LongArray,
    kept: IntArray,
    count_limit: int,
    leaf: int,
    budget: int,
) -> None:
    """Run the depth-first search for up to ``budget`` steps, resuming from ``state``.

    ``placed[cell]`` is the oriented piece there (-1 empty); ``cursor[position]`` the candidate
    now tried there (-1 = not entered yet). ``keyed[position, j]`` and ``extra[position, j]``
    are neighbour sides as ``cell * 4 + side to read`` (-1 = border or none): two keyed, up to
    three more checked in the loop, each against this piece's side ``(side to read + 2) % 4``.
    """
    (colors, piece, facing, candidates, cand_piece, seg_start, seg_len) = tables[:7]
    (cell, base, keyed, stride, extra, pin, ban) = tables[7:]
    keep = kept.shape[0]
    depth = state[DEPTH]
    count = state[COUNT]
    nodes = state[NODES]
    mask = state[USED]
    floor = state[FLOOR]
    steps = 0
    while steps < budget:
        if depth == leaf:  # a full arrangement (or a prefix, when listing them)
            if count < keep:
                for i in range(placed.shape[0]):
                    kept[count, i] = placed[i]
            count += 1
            depth -= 1
            if count >= count_limit:
                state[OUTCOME] = LIMIT
                break
            continue
        here = cell[depth]
        if cursor[depth] < 0:  # entering: first the memo, then look the fitting pieces up
            if memo_at[depth]:
                front_key = memo_key(depth, colors, placed, front, bits)
                below = memo_usable(memo, mask, front_key, stamp, count >= keep)
                if below >= 0:
                    count = min(count + below, count_limit)
                    steps += 1
                    depth -= 1
                    if count >= count_limit:
                        state[OUTCOME] = LIMIT
                        break
                    if depth < floor:
                        state[OUTCOME] = EXHAUSTED
                        break
                    continue
                entry[depth] = count
            # _segment() written out: as a call (even inlined by numba) the loop ran 25 % slower
            c1 = 0
            where = keyed[depth, 0]
            if where >= 0:
                c1 = facing[placed[where >> 2], where & 3]
            c2 = 0
            where = keyed[depth, 1]
            if stride > 1 and where >= 0:
                c2 = facing[placed[where >> 2], where & 3]
            key = base[depth] + c1 * stride + c2
            i = seg_start[key]
            end = i + seg_len[key]
        else:  # backtracking into this position: take the piece off, try the next one
            p = piece[placed[here]]
            if small:
                mask ^= np.int64(1) << p
            else:
                used[p] = 0
            placed[here] = -1
            i = cursor[depth] + 1
            end = seg_end[depth]
        blocked = mask | forbid[depth]
        banned = ban[depth]
        pinned = pin[depth]
        found = -1
        while i < end:
            p = cand_piece[i]
            if small:
                free = (blocked >> p) & 1 == 0
            else:
                free = used[p] == 0 and p != banned and (pinned < 0 or p == pinned)
            if free and _fits(candidates[i], colors, facing, placed, extra, depth):
                found = i
                break
            i += 1
        steps += 1
        if found >= 0:
            o = candidates[found]
            cursor[depth] = found
            seg_end[depth] = end
            placed[here] = o
            if small:
                mask ^= np.int64(1) << piece[o]
            else:
                used[piece[o]] = 1
            nodes += 1
            depth += 1
            if depth < cell.shape[0]:
                cursor[depth] = -1
        else:  # every candidate tried: remember the subtree's count, back up
            cursor[depth] = -1
            if memo_at[depth]:
                front_key = memo_key(depth, colors, placed, front, bits)
                _remember(memo, mask, front_key, stamp, count - entry[depth])
            depth -= 1
            if depth < floor:
                state[OUTCOME] = EXHAUSTED
                break
    state[DEPTH] = depth
    state[COUNT] = count
    state[NODES] = nodes
    state[USED] = mask


@_compiled
def _segment(
    depth: int, keyed: IntArray, facing: IntArray, placed: IntArray, base: IntArray, stride: int
) -> int:
    """The candidate list of a position: its kind's, under the colors its keyed sides need."""
    c1 = 0
    where = keyed[depth, 0]
    if where >= 0:
        c1 = facing[placed[where >> 2], where & 3]
    c2 = 0
    where = keyed[depth, 1]
    if stride > 1 and where >= 0:
        c2 = facing[placed[where >> 2], where & 3]
    return int(base[depth] + c1 * stride + c2)


@_compiled
def _fits(
    o: int, colors: IntArray, facing: IntArray, placed: IntArray, extra: IntArray, depth: int
) -> bool:
    """Whether oriented piece ``o`` fits the placed neighbours beyond the two keyed ones."""
    for j in range(extra.shape[1]):
        where = extra[depth, j]
        if where < 0:
            return True
        if colors[o, ((where & 3) + 2) % 4] != facing[placed[where >> 2], where & 3]:
            return False
    return True


@_compiled
def _remember(memo: LongArray, used: int, key: int, stamp: int, count: int) -> None:
    slot = memo_slot(memo, used, key, stamp)
    if slot < 0:  # the probe run is full: overwrite its first slot
        slot = -1 - slot
    memo[slot, 0] = used
    memo[slot, 1] = key
    memo[slot, 2] = count
    memo[slot, 3] = stamp


@_compiled
def estimate_nodes(
    tables: LoopTables,
    probes: int,
    seed: int,
    work: int,
) -> float:
    """Knuth's estimate of the search tree's size (placements): the mean over random probes of
    the sum, down one random path, of the products of the choices met at each position.

    A probe walks from the root taking one fitting unused piece at random (a xorshift
    generator seeded with ``seed``: the same estimate every time) until it is stuck or full.
    No probe starts once ``work`` candidates have been looked at: on a large grid of many
    alike pieces a probe is long (the same for every machine, as the probes are counted).
    """
    (colors, piece, facing, candidates, cand_piece, seg_start, seg_len) = tables[:7]
    (cell, base, keyed, stride, extra, pin, ban) = tables[7:]
    n = cell.shape[0]
    placed = np.full(n, -1, dtype=np.int32)
    used = np.zeros(piece.max() + 1, dtype=np.int32)
    free = np.zeros(candidates.shape[0], dtype=np.int32)
    state = seed * 2654435761 + 1
    total = 0.0
    looked = 0
    done = 0
    for _ in range(probes):
        if looked >= work:
            break
        done += 1
        placed[:] = -1
        used[:] = 0
        weight = 1.0
        for depth in range(n):
            key = _segment(depth, keyed, facing, placed, base, stride)
            m = 0
            looked += seg_len[key]
            for i in range(seg_start[key], seg_start[key] + seg_len[key]):
                p = cand_piece[i]
                allowed = p != ban[depth] and (pin[depth] < 0 or p == pin[depth])
                if (
                    used[p] == 0
                    and allowed
                    and _fits(candidates[i], colors, facing, placed, extra, depth)
                ):
                    free[m] = candidates[i]
                    m += 1
            if m == 0:
                break
            weight *= m
            total += weight
            state ^= (state << 13) & 0x7FFFFFFFFFFFFFFF
            state ^= state >> 7
            state ^= (state << 17) & 0x7FFFFFFFFFFFFFFF
            o = free[(state & 0x7FFFFFFF) % m]
            placed[cell[depth]] = o
            used[piece[o]] = 1
    return total / done


# ---------------------------------------------------------------------------------------------
# Small mode with candidate sets as words

ENTER = -2
"""``chosen[position]`` before the position is entered (its candidates not looked up yet)."""
_DE_BRUIJN = np.uint64(0x03F79D71B4CA8B09)
_LOWEST_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):  # a word's only set bit, times the de Bruijn number: its index, on top
    _LOWEST_BIT_INDEX[((1 << _i) * 0x03F79D71B4CA8B09 % (1 << 64)) >> 58] = _i


@_compiled
def search_words(
    tables: LoopTables,
    words: Words,
    forbid: LongArray,
    memo_at: IntArray,
    front: IntArray,
    bits: int,
    memo: LongArray,
    stamp: int,
    entry: LongArray,
    placed: IntArray,
    rest: LongArray,
    chosen: IntArray,
    state: LongArray,
    kept: IntArray,
    count_limit: int,
    leaf: int,
    budget: int,
) -> None:
    """:func:`search_slice` for at most 64 pieces, with each key's candidates as words.

    ``words`` = (key_row, first, second, first_o, second_o): a key's row (0 = no candidate),
    and per row the pieces (as bits) with a first and with a second orientation under that
    key, and those oriented pieces by bit. At each position the candidates left are two words,
    ``rest[position, 0 | 1]``, from which the lowest bit is taken: no scan over used pieces,
    few branches. Pieces are tried in bit order, a piece's first orientation before its
    second, which is :func:`search_slice`'s order when bit = piece (the tables' ``bit``).
    Each step takes the next candidate at ``depth`` and, when one fits, enters the next
    position at once (its memo entry, its candidate words), so a step is one placement or one
    back-up. ``chosen[position]`` is the bit placed there, -1 none, :data:`ENTER` not
    entered yet (only the first position of a fresh search).
    """
    colors, facing = tables[0], tables[2]
    (cell, base, keyed, stride, extra) = tables[7:12]
    (key_row, first, second, first_o, second_o) = words
    keep = kept.shape[0]
    depth = state[DEPTH]
    count = state[COUNT]
    nodes = state[NODES]
    mask = np.uint64(state[USED])
    floor = state[FLOOR]
    # Function calls with array arguments cost more than the work here (numba does not
    # inline them), so the lookups are written out.
    entering = chosen[depth] == ENTER
    if entering:
        entry[depth] = count
    steps = 0
    while steps < budget:
        steps += 1
        here = cell[depth]
        if entering:  # look the position's candidates up: its key's words, less the used
            key = base[depth]
            where = keyed[depth, 0]
            if where >= 0:
                key += facing[placed[where >> 2], where & 3] * stride
            where = keyed[depth, 1]
            if stride > 1 and where >= 0:
                key += facing[placed[where >> 2], where & 3]
            row = key_row[key]
            free = ~(mask | np.uint64(forbid[depth]))
            one = np.uint64(first[row]) & free
            two = np.uint64(second[row]) & free
            rest[depth, 2] = row
            entering = False
        else:
            if chosen[depth] >= 0:  # take the piece placed here off
                mask ^= np.uint64(1) << np.uint64(chosen[depth])
                placed[here] = -1
            row = rest[depth, 2]
            one = np.uint64(rest[depth, 0])
            two = np.uint64(rest[depth, 1])
        found, bit, lowest = -1, -1, np.uint64(0)
        plain = extra[depth, 0] < 0
        while one | two:
            either = one | two
            lowest = either & (~either + np.uint64(1))
            bit = _LOWEST_BIT_INDEX[(lowest * _DE_BRUIJN) >> np.uint64(58)]
            if one & lowest:
                one ^= lowest
                o = first_o[row, bit]
            else:
                two ^= lowest
                o = second_o[row, bit]
            if plain or _fits(o, colors, facing, placed, extra, depth):
                found = o
                break
        if found < 0:  # every candidate tried: remember the subtree's count, back up
            chosen[depth] = -1
            if memo_at[depth]:
                front_key = memo_key(depth, colors, placed, front, bits)
                _remember(memo, int(np.int64(mask)), front_key, stamp, count - entry[depth])
            depth -= 1
            if depth < floor:
                state[OUTCOME] = EXHAUSTED
                break
            continue
        rest[depth, 0] = np.int64(one)
        rest[depth, 1] = np.int64(two)
        chosen[depth] = bit
        placed[here] = found
        mask |= lowest
        nodes += 1
        after = depth + 1
        if after == leaf:  # a full arrangement (or a prefix, when listing them)
            if count < keep:
                for i in range(placed.shape[0]):
                    kept[count, i] = placed[i]
            count += 1
            if count >= count_limit:
                state[OUTCOME] = LIMIT
                break
            continue
        if memo_at[after]:
            front_key = memo_key(after, colors, placed, front, bits)
            below = memo_usable(memo, int(np.int64(mask)), front_key, stamp, count >= keep)
            if below >= 0:
                count = min(count + below, count_limit)
                if count >= count_limit:
                    state[OUTCOME] = LIMIT
                    break
                continue
            entry[after] = count
        depth = after
        entering = True
    if entering:  # stopped before looking the position up: it is entered next time
        chosen[depth] = ENTER
    state[DEPTH] = depth
    state[COUNT] = count
    state[NODES] = nodes
    state[USED] = np.int64(mask)
