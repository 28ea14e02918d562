"""A telescope set judged by the flow of the cards alone: the fast first test of ``split``'s
realizations (:mod:`.stellar_solo_split`).

With the telescope's cards fixed (a set ``T``), every turn must put exactly one card of ``T``
in the telescope, and the other card of the turn goes to the notebook. The compiled search of
:mod:`.stellar_flow_kernel` walks the turns (take, play, the second card) without placing the
telescope cards on slots, and scores what the notebook can reach with the stars of ``T``
counted face up. Added to a bound on the telescope's own points (sections beaten with ``T``'s
highest numbers, a face-down card counting 3; diversity if ``T`` brings every type), that is
an upper bound on every real game with ``T``: the placement rule only takes points away. So

* no flow reaching a score proves that no game with ``T`` reaches it (a sound cap), and
* a flow that reaches it is the plan to try: CP-SAT then places its telescope cards (the
  full model with the flow fixed by assumptions,
  :meth:`~asterion.solver.stellar_solo.SoloModel.flow_literals`), and the plan is replayed
  and scored by the rules engine like every other.

The placement rule does take points away, and on some deals it decides the optimum (11-turn
deal 7). So once a flow is found, :class:`SetFlows` judges the set once per entry of its
layout frontier (:mod:`.stellar_solo_layout`): the telescope's points and the stars its
face-down cards lose over the final layouts, in place of the bound above.
"""

from __future__ import annotations

import atexit
import threading
import time
from dataclasses import dataclass

import numpy as np

from asterion.models.stellar import DIVERSITY_BONUS, SECTION_BONUS
from asterion.models.stellar_cards import FACE_DOWN_NUMBER
from asterion.solver.stellar_flow_kernel import OUT_OF_NODES, flow_search
from asterion.solver.stellar_solo import (
    KINDS,
    SATELLITE,
    BranchAndBound,
    Compiled,
    SoloAnswer,
    SoloModel,
    solve_built,
)
from asterion.solver.stellar_solo_layout import LayoutOutcome, layout_frontier

COMPILE_WAIT = 60.0
"""Seconds a solve waits for the compiled flow search at its first use in a process (loading
it from numba's cache takes about half a second; compiling it, once per machine, some 13 s),
and a process about to end waits for a compile still running (numba writes its cache at the
end: without it the next process would compile again)."""
MEMO_BITS = 22
"""The memo holds 2**20 positions (24 MB), plenty for the flows of one telescope set."""
MAX_CARDS = 32
"""Cards are packed 5 bits each in the memo's keys (an 11-turn deal has 31)."""


@dataclass(frozen=True)
class Flow:
    """A flow found: per turn (display position taken, card played, second card), the final
    note, and the upper bound its notebook and ``T`` give (the score if placement costs
    nothing)."""

    turns: tuple[tuple[int, int, int], ...]
    final: int
    bound: int


_compiling: threading.Thread | None = None
_ready = threading.Event()


def flow_search_ready(wait: float = COMPILE_WAIT) -> bool:
    """Whether the compiled flow search can run now. Its first use in a process starts
    numba (on a thread: loading from the cache, or compiling on a machine that never ran
    it) and waits up to ``wait`` seconds; a solve that gets false goes on without the flow
    check. A split solve waits for the compile without counting it in its time limit
    (:mod:`.stellar_solo_split`): going on without the check, a first run gave other answers
    than later runs (an 11-turn deal ended ``feasible`` instead of ``optimal``)."""
    global _compiling
    if _compiling is None:
        _compiling = threading.Thread(target=_warm_up, name="flow-search-compile", daemon=True)
        _compiling.start()
        atexit.register(_compiling.join, COMPILE_WAIT)  # so that numba caches it
    return _ready.wait(wait)


def _warm_up() -> None:
    """One call of the flow search on a game with no turn left (the types of a real call)."""
    one = np.zeros(1, dtype=np.int64)
    five = np.zeros(5, dtype=np.int64)
    flow_search(
        one, one, one, one, 0, five, five, np.zeros(2, dtype=np.int64), five,
        np.zeros(6, dtype=np.int64), 0, 1, np.full((2, 3), -1, dtype=np.int64),
        np.zeros(2, dtype=np.int64), 1, np.zeros((1, 3), dtype=np.int64),
        np.zeros(4, dtype=np.int64),
    )  # fmt: skip
    _ready.set()


class FlowMemo:
    """The flow check's memo table, shared by the sets of one solve (each set stamps its
    rows: :mod:`.stellar_flow_kernel`)."""

    def __init__(self, bits: int = MEMO_BITS):
        self.keys = np.full((1 << bits, 3), -1, dtype=np.int64)
        self.values = np.zeros(1 << bits, dtype=np.int64)
        self.stamps = 0

    def next_stamp(self) -> int:
        self.stamps += 1
        return self.stamps


class FlowCheck:
    """The flows of one telescope set ``T`` (compiled card indices) from the puzzle's start;
    with ``layout``, those of the games whose final layout scores at most its points and
    loses at least its stars (:mod:`.stellar_solo_layout`)."""

    def __init__(
        self,
        compiled: Compiled,
        telescope: frozenset[int],
        memo: FlowMemo,
        layout: LayoutOutcome | None = None,
    ):
        if len(compiled.ids) > MAX_CARDS:
            raise ValueError(f"the flow check takes at most {MAX_CARDS} cards")
        c, root = compiled, compiled.root
        self.c = compiled
        self.telescope = telescope
        self.kind = np.array(c.kind, dtype=np.int64)
        self.number = np.array(c.number, dtype=np.int64)
        self.in_set = np.array([i in telescope for i in range(len(c.ids))], dtype=np.int64)
        self.deck = np.array(c.deck, dtype=np.int64)
        stars = list(root.stars)
        for card in telescope:
            if c.kind[card] != SATELLITE:
                stars[c.kind[card]] += c.card_stars[card]
        if layout is None:
            self.fixed = telescope_points(compiled, telescope)
        else:
            stars = [have - lost for have, lost in zip(stars, layout.lost, strict=True)]
            self.fixed = layout.points
        self.stars = np.array(stars, dtype=np.int64)
        self.memo = memo
        self.stamp = memo.next_stamp()
        self.counters = np.zeros(4, dtype=np.int64)
        """Positions visited, games ended, memo answers, bound cuts (all questions so far)."""

    @property
    def nodes(self) -> int:
        """Positions the flow search has visited for this set."""
        return int(self.counters[0])

    def reach(self, floor: int, max_nodes: int) -> Flow | int | None:
        """A flow whose bound is at least ``floor``; else a proven upper bound (below
        ``floor``) on the score of every game with ``T``; ``None`` when ``max_nodes``
        positions did not settle it."""
        c, root = self.c, self.c.root
        path = np.zeros((c.turns + 1, 3), dtype=np.int64)
        need = max(floor - self.fixed, 0)  # (the kernel asks from 0 up)
        result = flow_search(
            self.kind,
            self.number,
            self.in_set,
            self.deck,
            c.turns - root.k,
            self.stars,
            np.array(root.display, dtype=np.int64),
            np.array(root.hand, dtype=np.int64),
            np.array(root.notebook, dtype=np.int64),
            np.array(root.satellites, dtype=np.int64),
            need,
            max_nodes,
            self.memo.keys,
            self.memo.values,
            self.stamp,
            path,
            self.counters,
        )
        if result == OUT_OF_NODES:
            return None
        if result < 0:
            return -1  # no flow at all puts exactly ``T`` in the telescope
        if result < need:
            return self.fixed + result
        turns = tuple((int(t), int(p), int(s)) for t, p, s in path[: c.turns - root.k])
        return Flow(turns, int(path[c.turns - root.k, 1]), self.fixed + int(result))

    def play(
        self, flow: Flow, time_limit: float, seed: int, built: SoloModel | None = None
    ) -> SoloAnswer:
        """The best game that follows ``flow``: CP-SAT places the telescope cards, the plan
        is replayed by the rules engine. ``built``: the puzzle's full model, built once and
        asked again for each flow under assumptions (building it is 40 % of a play)."""
        started = time.perf_counter()
        if built is None:
            built = SoloModel(self.c)
        turns = [(t, played, played in self.telescope) for t, played, _ in flow.turns]
        built.model.clear_assumptions()
        built.model.add_assumptions(built.flow_literals(turns, flow.final))
        try:
            return solve_built(built, started, time_limit, seed, ceiling=flow.bound)
        finally:
            built.model.clear_assumptions()


def telescope_points(compiled: Compiled, telescope: frozenset[int]) -> int:
    """A bound on the sections and diversity any game with the set ``telescope`` scores:
    the sections its highest numbers can beat at once (a typed card counted 3 if that is
    more: it might end face down), diversity if it and the start bring every type."""
    c, root = compiled, compiled.root
    won, open_sections = 0, []
    empty = c.all_slots & ~root.filled
    for j, (total, need) in enumerate(zip(root.sums, c.need, strict=True)):
        if total >= need:
            won += 1
        else:
            open_sections.append((need - total, (c.section_slots[j] & empty).bit_count()))
    numbers = sorted(
        (
            c.telescope_number[card]
            if c.kind[card] == SATELLITE
            else max(c.telescope_number[card], FACE_DOWN_NUMBER)
            for card in telescope
        ),
        reverse=True,
    )
    beaten = won
    if open_sections:
        search = BranchAndBound(c)
        beaten += search.winnable(numbers, c.turns - root.k, open_sections)
    kinds = {kind for kind in KINDS if root.typed[kind]}
    kinds.update(c.kind[card] for card in telescope if c.kind[card] != SATELLITE)
    diverse = DIVERSITY_BONUS if len(kinds) == len(KINDS) else 0
    return SECTION_BONUS * beaten + diverse


class SetFlows:
    """The flows of one telescope set. First judged with every card of the set face up and
    the telescope's points bounded by its numbers alone (:func:`telescope_points`): most
    sets are settled so. Once a flow reaches a question, the set's layout frontier
    (:func:`~asterion.solver.stellar_solo_layout.layout_frontier`, found within
    ``time_limit``) is asked for, and, unless its one entry is that same bound, the flows
    are judged once per entry from then on: every game with the set has a final layout
    that some entry bounds, so the largest of the entries' caps is the set's cap."""

    def __init__(
        self,
        compiled: Compiled,
        telescope: frozenset[int],
        memo: FlowMemo,
        time_limit: float,
    ):
        self.compiled = compiled
        self.telescope = telescope
        self.memo = memo
        self.time_limit = time_limit
        self.checks = [FlowCheck(compiled, telescope, memo)]
        self.caps: list[int | None] = [None]
        """Per check, the cap proven so far (``None`` before its first question)."""
        self.laid_out = False
        self._spent = 0  # positions visited by the first check, once replaced

    @property
    def nodes(self) -> int:
        """Positions visited for the set."""
        return self._spent + sum(check.nodes for check in self.checks)

    def reach(self, floor: int, max_nodes: int) -> tuple[FlowCheck, Flow] | int | None:
        """A flow reaching ``floor`` under some entry (with that entry's check), else the
        set's proven cap (below ``floor``; -1 when no layout or flow exists), ``None`` when
        ``max_nodes`` positions in all did not settle it."""
        limit = self.nodes + max_nodes
        i = 0
        while i < len(self.checks):
            check, cap = self.checks[i], self.caps[i]
            i += 1
            if cap is not None and cap < floor:
                continue
            found = check.reach(floor, limit - self.nodes)
            if found is None:
                return None
            if isinstance(found, int):
                self.caps[i - 1] = found
                continue
            if not self.laid_out and self._lay_out(check.fixed):
                i = 0  # ask again, entry by entry
                continue
            return check, found
        return max((cap for cap in self.caps if cap is not None), default=-1)

    def _lay_out(self, most: int) -> bool:
        """Replaces the first check by one per entry of the layout frontier; false when the
        frontier is that check's own bound (nothing to replace)."""
        self.laid_out = True
        layouts = layout_frontier(self.compiled, self.telescope, most, self.time_limit)
        if layouts == [LayoutOutcome(most, tuple(0 for _ in KINDS))]:
            return False
        self._spent += self.checks[0].nodes
        self.checks = [
            FlowCheck(self.compiled, self.telescope, self.memo, layout) for layout in layouts
        ]
        self.caps = [None] * len(self.checks)
        return True
