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
* a flow that reaches it is the plan to try: CP-SAT then places its telescope cards
  (:meth:`~asterion.solver.stellar_solo.SoloModel.fix_flow`, a small model), and the plan is
  replayed and scored by the rules engine like every other.
"""

from __future__ import annotations

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
    cp_sat_solo,
)

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
    """The flows of one telescope set ``T`` (compiled card indices) from the puzzle's start."""

    def __init__(self, compiled: Compiled, telescope: frozenset[int], memo: FlowMemo):
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
        self.stars = np.array(stars, dtype=np.int64)
        self.fixed = self._telescope_points()
        self.memo = memo
        self.stamp = memo.next_stamp()
        self.counters = np.zeros(4, dtype=np.int64)
        """Positions visited, games ended, memo answers, bound cuts (all questions so far)."""

    @property
    def nodes(self) -> int:
        """Positions the flow search has visited for this set."""
        return int(self.counters[0])

    def _telescope_points(self) -> int:
        """A bound on the sections and diversity any game with ``T`` scores: the sections
        ``T``'s highest numbers can beat at once (a typed card counted 3 if that is more: it
        might end face down), diversity if ``T`` and the start bring every type."""
        c, root = self.c, self.c.root
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
                for card in self.telescope
            ),
            reverse=True,
        )
        beaten = won
        if open_sections:
            search = BranchAndBound(c)
            beaten += search.winnable(numbers, c.turns - root.k, open_sections)
        kinds = {kind for kind in KINDS if root.typed[kind]}
        kinds.update(c.kind[card] for card in self.telescope if c.kind[card] != SATELLITE)
        diverse = DIVERSITY_BONUS if len(kinds) == len(KINDS) else 0
        return SECTION_BONUS * beaten + diverse

    def reach(self, floor: int, max_nodes: int) -> Flow | int | None:
        """A flow whose bound is at least ``floor``; else a proven upper bound (below
        ``floor``) on the score of every game with ``T``; ``None`` when ``max_nodes``
        positions did not settle it."""
        c, root = self.c, self.c.root
        path = np.zeros((c.turns + 1, 3), dtype=np.int64)
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
            floor - self.fixed,
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
        if result < floor - self.fixed:
            return self.fixed + result
        turns = tuple((int(t), int(p), int(s)) for t, p, s in path[: c.turns - root.k])
        return Flow(turns, int(path[c.turns - root.k, 1]), self.fixed + int(result))

    def play(self, flow: Flow, floor: int, time_limit: float, seed: int) -> SoloAnswer:
        """The best game that follows ``flow`` and scores ``floor`` or more (CP-SAT places
        the telescope cards; the plan is replayed by the rules engine)."""

        def restrict(built: SoloModel) -> None:
            turns = [(t, played, played in self.telescope) for t, played, _ in flow.turns]
            built.fix_flow(turns, flow.final)
            built.model.add(built.objective >= floor)

        return cp_sat_solo(
            self.c.puzzle, time_limit=time_limit, seed=seed, ceiling=flow.bound, restrict=restrict
        )
