"""The frame's inner search as nested loops, one per inner cell, written out for each inside.

:mod:`.edge_frame_kernel`'s loop is one explicit stack for every cell: at each step it asks
which cell it is at, which of its sides face the ring, whether a check is due there. Those
answers depend only on the inside and the kind of puzzle (its number of colors, the sieve's
size), so this module writes the search out for them as Python source, a loop per cell with
its own constants, and has numba compile it: the same tree, so the same count, placements
and arrangements in the same order, in fewer instructions a placement. Measured on 7x7 3/6
(benchmarks, eleventh round): 41-43 ns a placement against 55-56 on a sample of seed 2's
sieved subtrees; seed 0 counted whole in 122-128 s against 157 s. The price is compiling:
some 30 s for a 7x7's loops, once per machine and kind of puzzle, so only long counts use
them (:data:`.edge_frame.NESTED_SIDES`).

The loops nest one per cell, but CPython allows at most 20 nested blocks in a function, so
the cells are cut into runs of :data:`NEST`, each a function calling the next; the cut comes
at the shallow cells, where a call is seldom made.

A run stops after a budget of placements (checked at the ends of rows) and resumes where it
stopped: on the way out each loop saves its remaining candidates with the one it was trying
put back, and gives back what that one had claimed; on the way back in the loops restore
them and try that candidate again. A subtree's prefix is started the same way, each of its
cells with its one piece to try, none after it (``floor``). So slices and prefixes share one
mechanism and a loop keeps no flag of its own. The source is written to a cache directory
and imported from there, so numba caches its compiled code on disk like any module's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from asterion.solver import edge_frame_kernel, edge_search_kernel, numba_loops
from asterion.solver.edge_frame_kernel import cell_kind, pairs_pay

NEST = 19
"""Cells whose loops nest in one generated function (CPython's limit is 20 nested blocks)."""

# The generated search's ``state`` and ``params`` (both int64 arrays).
COUNT, NODES, OUTCOME, RESUME, USED, STORED, SLACK = 1, 2, 3, 4, 6, 7, 8
STATE_SIZE = 9
ALIKE, LIMIT_AT, STOP_AT, FLOOR, COPY_MASK, TIMES, BALANCE = range(7)
PARAMS_SIZE = 7


@dataclass(frozen=True)
class Geometry:
    """What the loops of one inside take as constants."""

    side: int
    facing: tuple[tuple[tuple[int, int], ...], ...]  # per cell: (side, ring position) pairs
    corners: tuple[bool, ...]  # per ring position
    centre: int  # the turn rule's (edge_frame._turn_rule)
    anchors: tuple[int, ...]
    early: tuple[int, ...]
    rows: int  # the stretch is checked after rows 0 .. rows - 1
    probe_at: int  # the sieve's depth
    leaf: int  # the search's depth: the whole inside (a count), or its bottoms' (a fill)
    ncolors: int
    bits: int  # per color in a stretch's cache key (0: no cache)
    mask: int  # the stretch cache's size less one
    sieve_log: int
    probing: bool  # the sieve prunes tops (a count)
    rule: bool  # one turn of each arrangement (a count; not a fill)
    copies: bool = False  # identical pieces placed in order (edge_frame._copies)


def stretch_positions(side: int, row: int, height: int | None = None) -> list[int]:
    """The ring positions of the stretch fixed by an inside's rows 0..``row`` (``side`` cells
    a row, ``height`` rows, by default ``side``): up the west side, the north-west corner, the
    north side, the north-east corner, down the east side."""
    positions = 2 * (side + (side if height is None else height)) + 4
    return list(range(positions - (row + 1), positions)) + list(range(side + 2 + row + 1))


class _Writer:
    """Lines of source, each written at an indentation."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, indent: int, *lines: str) -> None:
        self.lines.extend("    " * indent + line for line in lines)


_HEADER = """\
mated, colors, bit_of, words, by_bit, available, sets, orbit, promises = T
whole, walk, walks, row_pairs, runs, cache_keys, cache_values, sieve_bits, leaves, \
leaf_rings = B
pair_index = RING[9]
PC = RING[10]
PC_WORD = (np.uint64(1) << np.uint64(PC)) - np.uint64(1)
ALIKE_ = np.uint64(P[0])
limit_at = P[1]
stop_at = P[2]
floor = P[3]
COPY_MASK = np.uint64(P[4])
times = P[5]
count = state[1]
nodes = state[2]
resume = state[4]
stored = state[7]"""


def _function(w: _Writer, g: Geometry, start: int, stop: int, last: int) -> None:
    """The loops of cells ``start`` .. ``stop - 1``, calling the next run's function there."""
    name = "search" if start == 0 else f"cells_from_{start}"
    w(0, "@compiled")
    w(0, f"def {name}(T, RING, B, P, chosen, need, s, stack, state):")
    w(1, *_HEADER.splitlines())
    w(1, f"used{start} = np.uint64(state[6])" if start else "used0 = np.uint64(0)")
    w(1, f"slack{start} = np.uint64(state[8])" if start else "slack0 = np.uint64(P[6])")
    at = 1
    follow: list[list[str]] = []
    for d in range(start, stop):
        at, after = _cell(w, at, d, g, last, tail=d == stop - 1 and stop < last)
        follow.append(after)
    for after in reversed(follow):
        w.lines.extend(after)
    w(1, "state[1] = count", "state[2] = nodes", "state[4] = resume", "state[7] = stored")
    if start == 0:
        w(1, "if resume == 0:", "    state[3] = 1")


def _cell(w: _Writer, at: int, d: int, g: Geometry, last: int, tail: bool) -> tuple[int, list[str]]:
    """Write cell ``d``'s loop at indentation ``at``. Return the indentation of the next cell's
    loop (-1: none) and the lines that follow that loop inside this one."""
    side, cells = g.side, g.side * g.side
    row, col = divmod(d, side)
    facing = g.facing[d]
    _candidates(w, at, d, g)
    b = at + 1  # inside the loop
    w(b, f"chosen[{d}] = o", "nodes += 1")
    w(b, *(f"s[{position}] = c{d}_{i}" for i, (_, position) in enumerate(facing)))
    give_back = [f"need[c{d}_{i}] -= 1" for i in range(len(facing))]
    w(
        b,
        f"slack{d + 1} = slack{d} - np.uint64(promises[o, {cell_kind(d, side)}])",
        f"if ((slack{d + 1} | GUARDS) - BIASES) & GUARDS != GUARDS:  # a color owes too much",
        *("    " + line for line in give_back),
        "    continue",
    )
    if 0 < row <= g.rows and col in (0, side - 1):
        _pairs_check(w, b, d, g, give_back)
    if col == side - 1:  # the budget, checked once a row
        w(
            b,
            "if nodes >= stop_at:  # stop; come back in here, to try this piece again",
            f"    stack[{d}, 0] = slot{d}",
            f"    stack[{d}, 1] = r{d} | lowest{d}",
            *("    " + line for line in give_back),
            "    nodes -= 1",
            f"    resume = {d + 1}",
            "    break",
        )
    w(b, f"used{d + 1} = used{d} | lowest{d}")
    if g.probing and d + 1 == g.probe_at:  # the rows below need the pieces left, these colors
        w(
            b,
            f"h = sieve_key(EVERY_ ^ used{d + 1}, chosen, mated, {d + 1 - side}, 1, {side})",
            "if not sieve_has(sieve_bits, h, SLOG):",
            *("    " + line for line in give_back),
            "    continue",
        )
    if col == side - 1 and d + 1 < cells and row < g.rows:
        _stretch_check(w, b, d, g, give_back)
    if d + 1 == g.leaf < cells:
        _bottom(w, b, d, g)
    if d + 1 == last:
        if last == cells:
            _whole(w, b, give_back, g.centre)
        return -1, []
    leave = [
        "if resume != 0:  # stopped below: save the way back in",
        f"    stack[{d}, 0] = slot{d}",
        f"    stack[{d}, 1] = r{d} | lowest{d}",
        *("    " + line for line in give_back),
        "    if resume > 0:",
        "        nodes -= 1",
        "    break",
        *give_back,
    ]
    if tail:
        w(
            b,
            "state[1] = count",
            "state[2] = nodes",
            "state[4] = resume",
            "state[7] = stored",
            f"state[6] = np.int64(used{d + 1})",
            f"state[8] = np.int64(slack{d + 1})",
            f"cells_from_{d + 1}(T, RING, B, P, chosen, need, s, stack, state)",
            "count = state[1]",
            "nodes = state[2]",
            "resume = state[4]",
            "stored = state[7]",
            *leave,
        )
        return -1, []
    return b, ["    " * b + line for line in leave]


def _candidates(w: _Writer, at: int, d: int, g: Geometry) -> None:
    """The loop's head: the candidates' words, the turn rule's masks, the sieve's prefetch,
    the way back in, and each candidate taken with its inward colors counted."""
    side = g.side
    row, col = divmod(d, side)
    north = f"mated[chosen[{d - side}], 2]" if row > 0 else "0"
    west = f"mated[chosen[{d - 1}], 1]" if col > 0 else "0"
    kind = (2 if row > 0 else 0) | (1 if col > 0 else 0)
    w(at, f"# cell {d}: row {row}, column {col}")
    if d == g.centre and g.rule:  # pieces unlike their turns at their held turn only (kind 4)
        kind = 4
    w(at, f"key{d} = ({kind} * NC + {north}) * NC + {west}")
    w(at, f"allowed{d} = " + (f"copies_allowed(used{d}, COPY_MASK)" if g.copies else f"~used{d}"))
    if g.rule and d == g.centre and len(g.early) > 1:
        first = g.early[0]
        order = " or ".join(f"bit_of[chosen[{e}]] < bit_of[chosen[{first}]]" for e in g.early[1:])
        w(at, f"if {order}:", f"    allowed{d} &= ~ALIKE_")
    elif g.rule and g.anchors[d] >= 0:  # an orbit cell: pieces numbered above the orbit's first
        like = f"(ALIKE_ >> np.uint64(bit_of[chosen[{g.centre}]])) & np.uint64(1)"
        w(
            at,
            f"if {like if g.centre >= 0 else 'True'}:",
            f"    allowed{d} &= ~((np.uint64(2) << np.uint64(bit_of[chosen[{g.anchors[d]}]]))"
            " - np.uint64(1))",
        )
    if g.probing and d == g.probe_at - 1:  # fetch the sieve words its candidates will test
        w(
            at,
            f"first = _first_colors_hash(chosen, mated, {d + 1 - side}, 1, {side - 1})",
            f"left = EVERY_ ^ used{d}",
            "for k in range(4):",
            f"    word = np.uint64(words[k, key{d}]) & allowed{d}",
            "    while word != 0:",
            "        low = word & (~word + np.uint64(1))",
            "        word ^= low",
            f"        o = by_bit[k, key{d}, _LOWEST_BIT_INDEX[(low * _DE_BRUIJN) >> SHIFT]]",
            "        h = _sieve_hash(first, mated[o, 2], left ^ low)",
            "        prefetch(sieve_bits, sieve_word(h, SLOG))",
        )
    w(
        at,
        f"if resume > {d}:  # back in: what was left to try here",
        f"    slot{d} = np.int64(stack[{d}, 0])",
        f"    r{d} = stack[{d}, 1]",
        f"    if resume == {d + 1}:",
        "        resume = 0",
        "else:",
        f"    slot{d} = 0",
        f"    r{d} = np.uint64(words[0, key{d}]) & allowed{d}",
        "while True:",
        f"    if r{d} == 0:",
        f"        if {d} < floor:  # a cell of the prefix: its one piece only",
        f"            if resume > {d}:  # it failed a check here: nothing below to go back to",
        "                resume = 0",
        "            break",
        f"        slot{d} += 1",
        f"        if slot{d} == 4:",
        "            break",
        f"        r{d} = np.uint64(words[slot{d}, key{d}]) & allowed{d}",
        "        continue",
        f"    lowest{d} = r{d} & (~r{d} + np.uint64(1))",
        f"    r{d} ^= lowest{d}",
        f"    o = by_bit[slot{d}, key{d}, _LOWEST_BIT_INDEX[(lowest{d} * _DE_BRUIJN) >> SHIFT]]",
    )
    facing = g.facing[d]
    for i, (k, _) in enumerate(facing):  # the inward colors asked of the ring stay within it
        w(at + 1, f"c{d}_{i} = mated[o, {k}]", f"need[c{d}_{i}] += 1")
    if facing:
        fits = " and ".join(f"need[c{d}_{i}] <= available[c{d}_{i}]" for i in range(len(facing)))
        w(at + 1, f"if not ({fits}):")
        w(at + 2, *(f"need[c{d}_{i}] -= 1" for i in range(len(facing))), "continue")


def _pairs_check(w: _Writer, at: int, d: int, g: Geometry, give_back: list[str]) -> None:
    """The colors a row's end cells turn to the ring, against what the stretch above leaves
    them (:func:`.edge_frame_kernel.stretch_pairs`)."""
    row, col = divmod(d, g.side)
    west = f"pair_index[s[{4 * (g.side + 1) - 1 - row}]] * PC"
    if col == 0:
        test = f"(row_pairs[{row}] >> np.uint64({west})) & PC_WORD == 0"
    else:
        east = f"pair_index[s[{g.side + 2 + row}]]"
        test = f"(row_pairs[{row}] >> np.uint64({west} + {east})) & np.uint64(1) == 0"
    w(at, f"if {test}:", *("    " + line for line in give_back), "    continue")


def _stretch_check(w: _Writer, at: int, d: int, g: Geometry, give_back: list[str]) -> None:
    """Some ring pieces run along the stretch fixed so far (and which pairs of colors they
    leave the next row's ends): the answer cached by the stretch's colors."""
    row = d // g.side
    run = stretch_positions(g.side, row)
    listed = "walks.shape[0]" if pairs_pay(row, g.side) else "0"  # (as the kernel's loop)
    w(at, "answer = np.uint64(0)", "known = False", "place = np.int64(-1)")
    w(at, "spec = np.int64(0)", "if BITS > 0:")
    w(at + 1, f"spec = np.int64({row + 1})")
    w(at + 1, *(f"spec = (spec << BITS) | s[{p}]" for p in run if not g.corners[p]))
    w(
        at + 1,
        "place = ((spec * np.int64(-7046029254386353131)) >> np.int64(20)) & MASK",
        "for _ in range(8):",
        "    if cache_keys[place] == spec:",
        "        answer = cache_values[place]",
        "        known = True",
        "        break",
        "    if cache_keys[place] == 0:",
        "        break",
        "    place = (place + 1) & MASK",
    )
    w(
        at,
        "if not known:",
        f"    answer = stretch_pairs(s, runs[{row}], {len(run)}, RING, walk, walks[:{listed}])",
        "    if place >= 0:  # an empty slot, or the last of a full probe run",
        "        cache_keys[place] = spec",
        "        cache_values[place] = answer",
        "if answer == 0:",
        *("    " + line for line in give_back),
        "    continue",
        f"row_pairs[{row + 1}] = answer",
    )


def _bottom(w: _Writer, at: int, d: int, g: Geometry) -> None:
    """A bottom (listed turned, as a top): the bits of its pieces and its row's colors set."""
    w(
        at,
        f"sieve_add(sieve_bits, sieve_key(used{d + 1}, chosen, colors, {d}, -1, {g.side}), SLOG)",
        "count += 1",
        *(f"need[c{d}_{i}] -= 1" for i in range(len(g.facing[d]))),
    )


def _whole(w: _Writer, at: int, give_back: list[str], centre: int) -> None:
    """A full inside: the rings that fit it counted (each standing for the arrangements the
    inside does, :func:`~asterion.solver.edge_frame_kernel.inside_times`), the first kept."""
    w(
        at,
        f"weight = inside_times(chosen, bit_of, sets, orbit, {centre}, ALIKE_, times)",
        "rings = _ring_walk(s, whole, whole.shape[0], True, RING, walk, "
        "rings_wanted(count, weight, limit_at), walks[:0])",
        "if rings > 0:",
        "    if stored < leaves.shape[0] and count < leaves.shape[0]:",
        "        leaves[stored, :] = chosen",
        "        leaf_rings[stored] = rings",
        "        stored += 1",
        "    count = add_rings(count, rings, weight, limit_at)",
        "    if count >= limit_at:",
        "        state[3] = 2",
        "        resume = -1",
        *("        " + line for line in give_back),
        "        break",
        *give_back,
    )


def kernel_source(g: Geometry) -> str:
    """The search of the inside ``g`` describes, as Python source."""
    w = _Writer()
    w(
        0,
        '"""Written by asterion.solver.edge_frame_nested: the frame\'s inner search for an inside',
        f'of side {g.side}, down to depth {g.leaf}."""',
        f"# the compiled functions it calls: {_callees_fingerprint()}",
        "import numpy as np",
        "",
        "from asterion.solver.edge_frame_kernel import (",
        "    BIASES,",
        "    GUARDS,",
        "    _first_colors_hash,",
        "    _ring_walk,",
        "    _sieve_hash,",
        "    add_rings,",
        "    copies_allowed,",
        "    inside_times,",
        "    rings_wanted,",
        "    sieve_add,",
        "    sieve_has,",
        "    sieve_key,",
        "    sieve_word,",
        "    stretch_pairs,",
        ")",
        "from asterion.solver.edge_search_kernel import _DE_BRUIJN, _LOWEST_BIT_INDEX",
        "from asterion.solver.numba_loops import compiled, prefetch",
        "",
        "SHIFT = np.uint64(58)",
        f"NC = {g.ncolors}",
        f"BITS = np.int64({g.bits})",
        f"MASK = np.int64({g.mask})",
        f"SLOG = {g.sieve_log}",
        f"EVERY_ = np.uint64({(1 << len(g.facing)) - 1})",
        "",
    )
    last = g.leaf
    # cut from the last cell back, so that the calls come at the shallow cells, seldom placed
    starts = sorted({max(end - NEST, 0) for end in range(last, 0, -NEST)})
    for start, stop in reversed(list(zip(starts, [*starts[1:], last], strict=True))):
        _function(w, g, start, stop, last)  # (each function after the ones it calls)
        w(0, "", "")
    return "\n".join(w.lines).rstrip() + "\n"


@cache
def _callees_fingerprint() -> str:
    """A hash of the modules whose compiled functions the loops call. numba's cache of a
    module does not notice when a function it calls has changed; written into the loops'
    text, this gives them a new name, hence a new compile, whenever one of those has."""
    digest = hashlib.sha256()
    for module in (edge_frame_kernel, edge_search_kernel, numba_loops):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Where the generated loops are written (``ASTERION_CACHE``, else the user's cache)."""
    root = os.environ.get("ASTERION_CACHE") or os.environ.get("XDG_CACHE_HOME")
    return (Path(root) if root else Path.home() / ".cache") / "asterion" / "kernels"


_LOADING = threading.Lock()  # the threads of a count ask for the same loops at once


def load(source: str) -> Callable[..., None]:
    """The compiled ``search`` of a generated source, written once under the hash of its text
    (another version of this module writes other files)."""
    with _LOADING:
        return _load(source)


@cache
def _load(source: str) -> Callable[..., None]:
    """:func:`load` once per source."""
    name = "asterion_frame_" + hashlib.sha256(source.encode()).hexdigest()[:20]
    path = _written(name, source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.search  # type: ignore[no-any-return]


def _written(name: str, source: str) -> Path:
    """The source's file, written if missing, in the first folder that takes it."""
    for folder in (cache_dir(), Path(tempfile.gettempdir()) / "asterion-kernels"):
        path = folder / f"{name}.py"
        try:
            if path.exists() and path.read_text() == source:
                os.utime(path)  # used: kept by forget_unused
                return path
            folder.mkdir(parents=True, exist_ok=True)
            forget_unused(folder)
            scratch = path.with_suffix(f".{os.getpid()}.tmp")
            scratch.write_text(source)
            scratch.replace(path)  # atomic: another process may be writing it too
            return path
        except OSError:
            continue
    raise OSError(f"no folder to write the search loops to (tried {cache_dir()})")


UNUSED_DAYS = 90
"""Written loops not loaded for this long are deleted, with numba's compiled code of them,
when new ones are written (a kind of puzzle no longer met, or an older asterion's)."""


def forget_unused(folder: Path, days: float = UNUSED_DAYS) -> list[str]:
    """Delete the loops in ``folder`` unused for ``days`` (and their compiled code); their
    names."""
    before = time.time() - days * 86400
    gone = []
    for path in folder.glob("asterion_frame_*.py"):
        try:
            if path.stat().st_mtime >= before:
                continue
            for compiled in (folder / "__pycache__").glob(f"{path.stem}.*"):
                compiled.unlink(missing_ok=True)
            path.unlink(missing_ok=True)
            gone.append(path.stem)
        except OSError:  # another process got there first, or the folder is read-only
            continue
    return sorted(gone)
