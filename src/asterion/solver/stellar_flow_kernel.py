"""The compiled loop of the flow search (:mod:`.stellar_solo_flow`).

A depth-first search over the turns of a solo deal whose telescope cards are fixed (the set
``in_set``): each turn takes a display card, plays a card of the hand (the taken one included)
and pulls the second card, and exactly one of the played and the second card must be of the
set (it goes to the telescope, the other to the notebook). Where the telescope card lies is not
searched: the value is the notebook's part of the score, Σ stars × longest run per type, with
every card of the set counted face up. So the search bounds what any real game with that set
can score (the caller adds the telescope's points, bounded the same way).

The search answers whether some flow reaches ``need``: it stops at the first that does (its
turns left in ``path``), else it returns an upper bound below ``need``. A memo maps a position
(turn, display, hand, notebook) to an upper bound proven for it below some earlier ``need``: a
bound holds whatever is asked later, so one table serves a rising series of questions. The
table is a cache with open addressing; a full neighborhood is simply not stored. Its rows
carry a stamp (one per telescope set): a row stamped otherwise counts as empty, so one table
serves every set without clearing it.

Numbers: a notebook group is bits 1-5 for its numbers plus 256 × its 0/6 cards (at most 2);
satellites are counted by number (index 0 for 0/6), and each joins one type at the end.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from asterion.solver.numba_loops import compiled as _compiled

IntArray = npt.NDArray[np.int64]

KINDS = 5
SATELLITE = 5
UNIT = 256
PROBES = 16
"""Slots of the memo looked at from a key's home slot."""
OUT_OF_NODES = -2
"""What :func:`flow_search` returns when it stopped at ``max_nodes`` without an answer."""
MAX_WILDS = 8
"""Satellites :func:`_shared_bound` tracks (the shipped deck has 5, numbered 1-5)."""
NO_BOUND = 1 << 40
"""What :func:`_shared_bound` answers when it gives up."""
MISSING = -3
"""What the memo answers for a position it does not hold (a stored bound is -1 or more)."""


@_compiled
def best_run(group: int) -> int:
    """Longest run of consecutive numbers 0-6 of a notebook group (a 0/6 card reads 0 or 6)."""
    mask = group & 0xFF
    zero_six = group >> 8
    if zero_six >= 2:
        return _longest(mask | 65)
    if zero_six == 1:
        return max(_longest(mask | 1), _longest(mask | 64))
    return _longest(mask)


@_compiled
def _longest(mask: int) -> int:
    best = 0
    current = 0
    for n in range(7):
        if mask >> n & 1:
            current += 1
            best = max(best, current)
        else:
            current = 0
    return best


@_compiled
def add_number(group: int, number: int) -> int:
    """The group with one more card of ``number`` (0 = a 0/6 card)."""
    if number == 0:
        return (group & 0xFF) | min(2, (group >> 8) + 1) * UNIT
    return group | 1 << number


@_compiled
def type_points(stars: IntArray, groups: IntArray, satellites: IntArray) -> int:
    """Σ stars × longest run over the types, each noted satellite joining its best type."""
    count = int(satellites.sum())
    scratch = np.empty((4, max(1 << count, count)), dtype=np.int64)
    return _type_points(stars, groups, satellites, scratch)


@_compiled
def _type_points(stars: IntArray, groups: IntArray, satellites: IntArray, scratch: IntArray) -> int:
    """:func:`type_points` in ``scratch`` (4 rows of at least 2^q, q satellites): a dynamic
    program over the types and the subsets of the satellites each one takes (3^q steps per
    type, instead of trying all 5^q assignments)."""
    count = int(satellites.sum())
    numbers = scratch[0]
    j = 0
    for number in range(6):
        for _ in range(satellites[number]):
            numbers[j] = number
            j += 1
    subsets = 1 << count
    best = scratch[1, :subsets]  # satellites used so far -> points
    best[:] = -1
    best[0] = 0
    alone = scratch[2, :subsets]
    merged = scratch[3, :subsets]
    for kind in range(KINDS):
        if stars[kind] == 0:
            continue
        for subset in range(subsets):
            group = groups[kind]
            for j in range(count):
                if subset >> j & 1:
                    group = add_number(group, numbers[j])
            alone[subset] = stars[kind] * best_run(group)
        merged[:] = best
        for used in range(subsets):
            if best[used] < 0:
                continue
            rest = (subsets - 1) & ~used
            subset = rest
            while subset:  # every non-empty subset of the satellites not used yet
                merged[used | subset] = max(merged[used | subset], best[used] + alone[subset])
                subset = (subset - 1) & rest
            merged[used] = max(merged[used], best[used] + alone[0])
        best[:] = merged
    result: int = best.max()
    return result


@_compiled
def notebook_bound(
    stars: IntArray,
    groups: IntArray,
    satellites: IntArray,
    kind: IntArray,
    number: IntArray,
    spare: IntArray,
    spare_count: int,
    budget: int,
    need: int,
    scratch: IntArray,
) -> int:
    """An upper bound on :func:`type_points` after at most ``budget`` more notebook cards
    from the ``spare`` cards: per type, the best run interval whose missing numbers the
    spare cards of that type or satellites can fill (a satellite counted for every type,
    noted satellites free), one interval per type, the costs shared in a knapsack. When
    that bound reaches ``need``, the dearer :func:`_shared_bound` is asked too (the lower
    of the two is returned). ``scratch``: 6 rows of at least ``budget + 1`` (and 6)."""
    has = scratch[0, :KINDS]
    zero_six = scratch[1, :KINDS]
    wild = scratch[2, :6]
    has[:] = 0
    zero_six[:] = 0
    wild[:] = 0
    for j in range(spare_count):
        card = spare[j]
        if kind[card] == SATELLITE:
            wild[number[card]] += 1
        elif number[card] == 0:
            zero_six[kind[card]] += 1
        else:
            has[kind[card]] |= 1 << number[card]
    table = scratch[3, : budget + 1]
    table[:] = -1
    table[0] = 0
    options = scratch[4, : budget + 1]
    merged = scratch[5, : budget + 1]
    for k in range(KINDS):
        if stars[k] == 0:
            continue
        options[:] = -1
        options[0] = 0  # no run at all
        mask = groups[k] & 0xFF
        own_ends = groups[k] >> 8
        for low in range(7):
            for high in range(low, 7):
                cost = 0
                feasible = True
                for n in range(max(low, 1), min(high, 5) + 1):
                    if mask >> n & 1 or satellites[n]:
                        continue
                    if wild[n] or has[k] >> n & 1:
                        cost += 1
                    else:
                        feasible = False
                        break
                if not feasible:
                    continue
                ends = (low == 0) + (high == 6) - own_ends - satellites[0]
                if ends > 0:
                    if ends > wild[0] + zero_six[k]:
                        continue
                    cost += ends
                if cost <= budget:
                    options[cost] = max(options[cost], stars[k] * (high - low + 1))
        merged[:] = -1
        for used in range(budget + 1):
            if table[used] < 0:
                continue
            for cost in range(budget + 1 - used):
                if options[cost] >= 0:
                    merged[used + cost] = max(merged[used + cost], table[used] + options[cost])
        table[:] = merged
    cheap = int(np.max(table))
    if cheap < need:
        return cheap
    return min(cheap, _shared_bound(stars, groups, satellites, has, zero_six, wild, budget))


@_compiled
def _shared_bound(
    stars: IntArray,
    groups: IntArray,
    satellites: IntArray,
    has: IntArray,
    zero_six: IntArray,
    spare_satellites: IntArray,
    budget: int,
) -> int:
    """:func:`notebook_bound`'s knapsack with each satellite (noted or spare, counted by
    number) serving one type only: it also tracks which satellites are used. A number a
    type lacks is filled by its own card (one notebook card) or a noted satellite (free, but
    then gone for the other types): both are tried; else by a spare satellite (one card).
    Noted 0/6 satellites stay free for every type. Tighter (measured on 11-turn deal 10's
    first split: its cap proven in 14 thousand positions instead of more than 50 million)
    and dearer: so each type's runs are first reduced to the best value per (cards,
    satellites used), and merged only with the table's reached cells (11-turn deal 4's first
    8 sets: the same positions in 2.3 s instead of 3.0 s). It gives up (returns
    :data:`NO_BOUND`) beyond :data:`MAX_WILDS` satellites or with two of one number (then
    which one a type takes would matter)."""
    wild_of = np.full(6, -1, dtype=np.int64)  # number -> its satellite's index
    free = np.zeros(MAX_WILDS, dtype=np.int64)  # 1 for a noted satellite
    wilds = 0
    for n in range(6):
        for count, cost_free in ((satellites[n] if n else 0, 1), (spare_satellites[n], 0)):
            for _ in range(count):
                if wilds == MAX_WILDS or wild_of[n] >= 0:
                    return NO_BOUND
                wild_of[n] = wilds
                free[wilds] = cost_free
                wilds += 1
    masks = 1 << wilds
    table = np.full((budget + 1, masks), -1, dtype=np.int64)
    table[0, 0] = 0
    option = np.empty((budget + 1, masks), dtype=np.int64)
    cells = np.empty(((budget + 1) * masks, 3), dtype=np.int64)
    for k in range(KINDS):
        if stars[k] == 0:
            continue
        # The type's runs first, the best value per (cards, satellites used): many runs
        # cost the same, and each distinct option is merged into the table once.
        option[:, :] = -1
        mask = groups[k] & 0xFF
        for low in range(7):
            for high in range(low, 7):
                # The numbers to fill, and those that could take a noted satellite instead
                # of the type's own card (each way is tried).
                missing = 0
                either = 0
                feasible = True
                for n in range(max(low, 1), min(high, 5) + 1):
                    if mask >> n & 1:
                        continue
                    if not (has[k] >> n & 1) and wild_of[n] < 0:
                        feasible = False
                        break
                    missing |= 1 << n
                    if has[k] >> n & 1 and wild_of[n] >= 0 and free[wild_of[n]]:
                        either |= 1 << n
                if not feasible:
                    continue
                ends = (low == 0) + (high == 6) - (groups[k] >> 8) - satellites[0]
                end_cost = max(ends, 0)
                end_use = 0
                if ends > zero_six[k]:
                    if ends - zero_six[k] > 1 or wild_of[0] < 0:
                        continue
                    end_use = 1 << wild_of[0]
                value = stars[k] * (high - low + 1)
                choice = either
                while True:  # every subset of ``either`` that takes the noted satellite
                    cost = end_cost
                    used = end_use
                    for n in range(1, 6):
                        if not missing >> n & 1:
                            continue
                        if has[k] >> n & 1 and not choice >> n & 1:
                            cost += 1
                        else:
                            used |= 1 << wild_of[n]
                            cost += 1 - free[wild_of[n]]
                    if cost <= budget and value > option[cost, used]:
                        option[cost, used] = value
                    if choice == 0:
                        break
                    choice = (choice - 1) & either
        # The table's reached cells, listed once: far fewer than its size.
        reached = 0
        for spent in range(budget + 1):
            for taken in range(masks):
                if table[spent, taken] >= 0:
                    cells[reached, 0] = spent
                    cells[reached, 1] = taken
                    cells[reached, 2] = table[spent, taken]
                    reached += 1
        merged = table.copy()
        for cost in range(budget + 1):
            for used in range(masks):
                value = option[cost, used]
                if value < 0:
                    continue
                for i in range(reached):
                    spent, taken = cells[i, 0] + cost, cells[i, 1]
                    if spent > budget or taken & used:
                        continue
                    cell = cells[i, 2] + value
                    if cell > merged[spent, taken | used]:
                        merged[spent, taken | used] = cell
        table = merged
    best: int = table.max()
    return best


@_compiled
def _key(
    turn: int, display: IntArray, hand: IntArray, groups: IntArray, satellites: IntArray
) -> tuple[int, int]:
    """The memo's two words for the position before ``turn`` (rows ``turn`` of the
    arrays): turn, display and hand, 5 bits a card; each notebook group in 7 bits and the
    satellites' counts."""
    first = turn
    for p in range(5):
        first = first << 5 | display[turn, p]
    first = first << 5 | hand[turn, 0]
    first = first << 5 | hand[turn, 1]
    second = 0
    for k in range(KINDS):
        group = groups[turn, k]
        second = second << 8 | ((group & 0x3E) >> 1 | (group >> 8) << 5)
    for n in range(6):
        second = second << 2 | min(satellites[turn, n], 3)
    return first, second


@_compiled
def _recall(keys: IntArray, values: IntArray, stamp: int, first: int, second: int) -> int:
    size = len(values)
    home = (first * 0x1E3779B97F4A7C15 ^ second * 0x12B2AE3D27D4EB4F) & (size - 1)
    for probe in range(PROBES):
        slot = (home + probe) & (size - 1)
        if keys[slot, 2] != stamp:
            return MISSING
        if keys[slot, 0] == first and keys[slot, 1] == second:
            return int(values[slot])
    return MISSING


@_compiled
def _remember(
    keys: IntArray, values: IntArray, stamp: int, first: int, second: int, value: int
) -> None:
    size = len(values)
    home = (first * 0x1E3779B97F4A7C15 ^ second * 0x12B2AE3D27D4EB4F) & (size - 1)
    for probe in range(PROBES):
        slot = (home + probe) & (size - 1)
        if keys[slot, 2] != stamp or (keys[slot, 0] == first and keys[slot, 1] == second):
            keys[slot, 0] = first
            keys[slot, 1] = second
            keys[slot, 2] = stamp
            values[slot] = value
            return


@_compiled
def flow_search(
    kind: IntArray,
    number: IntArray,
    in_set: IntArray,
    deck: IntArray,
    turns: int,
    stars: IntArray,
    display0: IntArray,
    hand0: IntArray,
    groups0: IntArray,
    satellites0: IntArray,
    need: int,
    max_nodes: int,
    keys: IntArray,
    values: IntArray,
    stamp: int,
    path: IntArray,
    counters: IntArray,
) -> int:
    """A flow whose notebook points reach ``need`` (its value; turn ``k`` taken position,
    played card and second card in ``path[k]``, the final note in ``path[turns, 1]``), or an
    upper bound below ``need`` when there is none, or :data:`OUT_OF_NODES`. ``counters``
    adds the positions visited, the games ended (leaves), the positions the memo answered and
    those the bound cut."""
    # Every flow's notebook scores 0 or more, so a question below 0 asks for any flow; the
    # searches below read -1 as "no flow", which must stay below ``need``.
    need = max(need, 0)
    display = np.zeros((turns + 1, 5), dtype=np.int64)
    hand = np.zeros((turns + 1, 2), dtype=np.int64)
    groups = np.zeros((turns + 1, KINDS), dtype=np.int64)
    satellites = np.zeros((turns + 1, 6), dtype=np.int64)
    best = np.zeros(turns + 1, dtype=np.int64)
    child = np.zeros(turns + 1, dtype=np.int64)
    spare = np.zeros(len(kind), dtype=np.int64)
    satellite_count = 0
    for card in range(len(kind)):
        satellite_count += kind[card] == SATELLITE
    scratch = np.empty((6, max(1 << satellite_count, turns + 2, 6)), dtype=np.int64)
    display[0] = display0
    hand[0] = hand0
    groups[0] = groups0
    satellites[0] = satellites0
    last_deck = 2 * turns - 1  # deck[2 * turns - 1] comes out after the last turn
    depth = 0
    entering = True
    result = 0
    nodes = 0
    while depth >= 0:
        if entering:
            nodes += 1
            if nodes > max_nodes:
                counters[0] += nodes
                return OUT_OF_NODES
            if depth == turns:
                counters[1] += 1
                result = -1
                for j in range(2):
                    card = hand[depth, j]
                    if in_set[card]:
                        continue
                    if kind[card] == SATELLITE:
                        satellites[depth, number[card]] += 1
                        value = _type_points(stars, groups[depth], satellites[depth], scratch)
                        satellites[depth, number[card]] -= 1
                    else:
                        saved = groups[depth, kind[card]]
                        groups[depth, kind[card]] = add_number(saved, number[card])
                        value = _type_points(stars, groups[depth], satellites[depth], scratch)
                        groups[depth, kind[card]] = saved
                    if value > result:
                        result = value
                        path[depth, 1] = card
                depth -= 1
                entering = False
                if result >= need:
                    break
                continue
            first, second = _key(depth, display, hand, groups, satellites)
            known = _recall(keys, values, stamp, first, second)
            if known != MISSING and known < need:
                counters[2] += 1
                result = known
                depth -= 1
                entering = False
                continue
            if need > 0:  # (from 0 on, every flow qualifies: nothing to cut)
                count = 0
                for j in range(2):
                    if not in_set[hand[depth, j]]:
                        spare[count] = hand[depth, j]
                        count += 1
                for p in range(5):
                    if not in_set[display[depth, p]]:
                        spare[count] = display[depth, p]
                        count += 1
                for d in range(2 * depth, last_deck):
                    if not in_set[deck[d]]:
                        spare[count] = deck[d]
                        count += 1
                bound = notebook_bound(
                    stars,
                    groups[depth],
                    satellites[depth],
                    kind,
                    number,
                    spare,
                    count,
                    turns - depth + 1,
                    need,
                    scratch,
                )
                if bound < need:
                    counters[3] += 1
                    _remember(keys, values, stamp, first, second, bound)
                    result = bound
                    depth -= 1
                    entering = False
                    continue
            best[depth] = -1
            child[depth] = -1
        else:
            # Back from the child of ``depth`` with ``result``.
            if result >= need:
                break
            best[depth] = max(best[depth], result)
        # The next child of ``depth``: 5 positions taken x 3 cards played.
        moved = False
        while child[depth] < 14 and not moved:
            child[depth] += 1
            t = child[depth] // 3
            which = child[depth] % 3
            taken = display[depth, t]
            played = hand[depth, which] if which < 2 else taken
            source = number[played] - 1
            top = deck[2 * depth]
            nxt = display[depth + 1]
            nxt[:] = display[depth]
            if 0 <= source < 5 and source != t:
                pulled = display[depth, source]
                nxt[min(t, source)] = top
                nxt[max(t, source)] = deck[2 * depth + 1]
            else:
                pulled = top
                nxt[t] = deck[2 * depth + 1]
            if in_set[played] == in_set[pulled]:
                continue
            noted = pulled if in_set[played] else played
            kept = 0
            for card in (hand[depth, 0], hand[depth, 1], taken):
                if card != played:
                    hand[depth + 1, kept] = card
                    kept += 1
            if hand[depth + 1, 0] > hand[depth + 1, 1]:
                hand[depth + 1, 0], hand[depth + 1, 1] = hand[depth + 1, 1], hand[depth + 1, 0]
            groups[depth + 1] = groups[depth]
            satellites[depth + 1] = satellites[depth]
            if kind[noted] == SATELLITE:
                satellites[depth + 1, number[noted]] += 1
            elif stars[kind[noted]]:  # a type without stars scores nothing: not kept
                groups[depth + 1, kind[noted]] = add_number(
                    groups[depth, kind[noted]], number[noted]
                )
            path[depth, 0] = t
            path[depth, 1] = played
            path[depth, 2] = pulled
            moved = True
        if moved:
            depth += 1
            entering = True
            continue
        # Every child tried: the best below ``need`` is a bound for this position.
        result = best[depth]
        first, second = _key(depth, display, hand, groups, satellites)
        _remember(keys, values, stamp, first, second, result)
        depth -= 1
    counters[0] += nodes
    return result
