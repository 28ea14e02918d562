"""What the telescope's own points can be when its cards are fixed: the layouts of a set.

With the telescope's cards fixed (a set ``T``, as :mod:`.stellar_solo_split` fixes them),
the placement rule decides the sections and diversity, and which cards end face down (their
stars lost to the notebook's products). Whatever order the cards come in, the face-up cards
of one type end as one connected group of slots together with the type's cards already there
(each joins a card of its type; the type's first card may go anywhere); face-down cards and
satellites may take any slot. So the best sections and diversity over such final layouts,
for the cards face down, bound every real game with ``T``: the order the cards arrive in can
only take more away.

:func:`layout_frontier` lists the choices that matter: for each score its layouts can reach
(sections and diversity), the least stars lost, as a Pareto frontier over the types (a game
with at least as many stars face up in every type never scores less in its notebook). The
flow check (:mod:`.stellar_solo_flow`) then bounds the notebook once per entry. A small
CP-SAT model finds the entries: the most points with no stars lost, then, level by level
above it, the fewest stars lost among the vectors no entry found so far dominates.

Why it matters (11-turn deal 7, docs/benchmarks.md): its best sets have a single layout of
their type groups, with three cards of one type in the middle section that cannot beat it;
all three sections are only won with a two-star card face down.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ortools.sat.python import cp_model

from asterion.models.stellar import DIVERSITY_BONUS, SECTION_BONUS
from asterion.models.stellar_cards import FACE_DOWN_NUMBER
from asterion.solver.result import make_solver
from asterion.solver.stellar_solo import KINDS, SATELLITE, Compiled

LAYOUT_WORK = 2.0
"""CP-SAT's deterministic time for one question of the frontier (measured: 0.02-0.2 s of
wall time each on the 11-turn deals)."""
MAX_ENTRIES = 12
"""Entries the frontier lists per level before it stops asking: the level then gets one
entry with no stars lost (sound, only looser)."""


@dataclass(frozen=True)
class LayoutOutcome:
    """Sections and diversity some final layout scores (``points``: an upper bound on what
    a game reaches with at least these stars lost) and the stars per type its face-down
    cards take away (``lost``)."""

    points: int
    lost: tuple[int, ...]


class LayoutModel:
    """The final layouts of the telescope set ``telescope`` (compiled card indices) from the
    puzzle's start, as a CP-SAT model: each card on one empty slot, face up or (a typed
    card) face down; the face-up slots of each type one connected group with its cards
    already placed (a table of the groups allowed); a section won when its sum reaches what
    wins; diversity when every type is face up somewhere."""

    def __init__(self, compiled: Compiled, telescope: frozenset[int]):
        c, root = compiled, compiled.root
        self.c = compiled
        model = cp_model.CpModel()
        self.model = model
        self.free = [s for s in range(len(c.slot_ids)) if not root.filled >> s & 1]
        self.cards = sorted(telescope)
        # up[card, s]: the card lies face up on slot s; down[card, s]: face down.
        self.up = {(card, s): model.new_bool_var("") for card in self.cards for s in self.free}
        self.down = {
            (card, s): model.new_bool_var("")
            for card in self.cards
            if c.kind[card] != SATELLITE
            for s in self.free
        }
        self._one_card_per_slot()
        present = [self._connected(kind) for kind in KINDS]
        diverse = model.new_bool_var("diverse")
        model.add_bool_and(present).only_enforce_if(diverse)
        won = [self._section(j) for j in range(len(c.need))]
        self.points = SECTION_BONUS * sum(won) + DIVERSITY_BONUS * diverse
        self.lost = [
            sum(
                c.card_stars[card] * (1 - sum(self.up[card, s] for s in self.free))
                for card in self.cards
                if c.kind[card] == kind
            )
            for kind in KINDS
        ]

    def _on(self, card: int, s: int) -> list[cp_model.IntVar]:
        """The literals that put ``card`` on slot ``s``."""
        return [self.up[card, s]] + ([self.down[card, s]] if (card, s) in self.down else [])

    def _one_card_per_slot(self) -> None:
        model, free = self.model, self.free
        for card in self.cards:
            model.add_exactly_one(lit for s in free for lit in self._on(card, s))
        for s in free:
            held = [lit for card in self.cards for lit in self._on(card, s)]
            if len(self.cards) == len(free):
                model.add_exactly_one(held)
            else:
                model.add_at_most_one(held)

    def _connected(self, kind: int) -> cp_model.IntVar:
        """Keeps the face-up slots of ``kind`` one connected group with its cards already in
        the telescope: a table of the groups allowed (every such group of at most as many
        slots as the set has cards of that type; a few hundred); the literal: the type is
        face up somewhere."""
        c, model = self.c, self.model
        existing = c.root.typed[kind]
        typed: list[cp_model.IntVar] = []
        for s in self.free:
            here = model.new_bool_var("")
            model.add(here == sum(self.up[card, s] for card in self.cards if c.kind[card] == kind))
            typed.append(here)
        most = sum(c.kind[card] == kind for card in self.cards)
        groups = []
        for size in range(most + 1):
            for chosen in combinations(range(len(self.free)), size):
                region = sum(1 << self.free[i] for i in chosen)
                if not region or _connected(c.neighbors, region | existing):
                    groups.append([int(i in chosen) for i in range(len(self.free))])
        model.add_allowed_assignments(typed, groups)
        present = model.new_bool_var("")
        if not existing:
            model.add_bool_or(typed).only_enforce_if(present)
        return present

    def _section(self, j: int) -> cp_model.IntVar:
        """The literal: section ``j`` is won (its sum reaches what wins)."""
        c = self.c
        won = self.model.new_bool_var("")
        total, need = c.root.sums[j], c.need[j]
        if total < need:
            here = [s for s in self.free if c.section_of[s] == j]
            numbers = sum(
                c.telescope_number[card] * self.up[card, s] for card in self.cards for s in here
            ) + sum(
                FACE_DOWN_NUMBER * self.down[card, s]
                for card in self.cards
                for s in here
                if (card, s) in self.down
            )
            self.model.add(numbers >= need - total).only_enforce_if(won)
        return won

    def frontier(self, most: int, time_limit: float) -> list[LayoutOutcome]:
        """The Pareto frontier of (points, stars lost), best points first; ``most``: an
        upper bound on the points known before (when a layout with no stars lost reaches
        it, that is the whole frontier, after a single question)."""
        model = self.model
        model.add(self.points <= most)
        nothing = tuple(0 for _ in KINDS)
        zero = model.new_bool_var("")
        for stars in self.lost:
            model.add(stars == 0).only_enforce_if(zero)
        base = self._best(self.points, maximize=True, assume=[zero], time_limit=time_limit)
        if base == most:
            return [LayoutOutcome(most, nothing)]
        top = self._best(self.points, maximize=True, assume=[], time_limit=time_limit)
        if top is None:
            return []  # no layout at all: no game has these cards in the telescope
        entries: list[LayoutOutcome] = []
        level = top
        while level > (-1 if base is None else base):
            at_level = model.new_bool_var("")
            model.add(self.points >= level).only_enforce_if(at_level)
            for _ in range(MAX_ENTRIES):
                total = sum(self.lost)
                if (
                    self._best(total, maximize=False, assume=[at_level], time_limit=time_limit)
                    is None
                ):
                    break
                lost = tuple(self.solver.value(x) for x in self.lost)
                entries.append(LayoutOutcome(level, lost))
                if not self._exclude_dominated(lost):
                    break
            else:
                entries.append(LayoutOutcome(level, nothing))  # too many: sound, looser
            level -= SECTION_BONUS
        if base is not None:
            entries.append(LayoutOutcome(base, nothing))
        return entries

    def _best(
        self,
        objective: cp_model.LinearExprT,
        maximize: bool,
        assume: list[cp_model.IntVar],
        time_limit: float,
    ) -> int | None:
        """The optimum of ``objective`` under the assumptions; ``None`` when there is no
        layout; :class:`Unsettled` when CP-SAT ran out of time first."""
        model = self.model
        model.clear_assumptions()
        model.add_assumptions(assume)
        if maximize:
            model.maximize(objective)
        else:
            model.minimize(objective)
        self.solver = make_solver(time_limit)
        self.solver.parameters.max_deterministic_time = LAYOUT_WORK
        self.solver.parameters.linearization_level = 0  # 30 % faster here (11-turn deal 40)
        status = self.solver.solve(model)
        if status == cp_model.OPTIMAL:
            return round(self.solver.objective_value)
        if status == cp_model.INFEASIBLE:
            return None
        raise Unsettled

    def _exclude_dominated(self, lost: tuple[int, ...]) -> bool:
        """Asks later questions for stars lost that ``lost`` does not dominate (less in some
        type); false when nothing is left."""
        smaller = []
        for kind, most in zip(KINDS, lost, strict=True):
            if most > 0:
                less = self.model.new_bool_var("")
                self.model.add(self.lost[kind] <= most - 1).only_enforce_if(less)
                smaller.append(less)
        if not smaller:
            return False
        self.model.add_bool_or(smaller)
        return True


def _connected(neighbors: tuple[int, ...], region: int) -> bool:
    """Whether the slots of ``region`` (a bitmask) form one group of side neighbors."""
    seen = frontier = region & -region
    while frontier:
        grown = 0
        slots = frontier
        while slots:
            grown |= neighbors[(slots & -slots).bit_length() - 1]
            slots &= slots - 1
        frontier = grown & region & ~seen
        seen |= frontier
    return seen == region


class Unsettled(Exception):
    """A question of the frontier CP-SAT did not settle in its time."""


def layout_frontier(
    compiled: Compiled, telescope: frozenset[int], most: int, time_limit: float = 5.0
) -> list[LayoutOutcome]:
    """The frontier of ``telescope``'s final layouts (:class:`LayoutModel`), given ``most``,
    an upper bound on their points; the single entry (``most``, no stars lost) (sound, only
    loose) when CP-SAT does not settle a question in time."""
    try:
        return LayoutModel(compiled, telescope).frontier(most, time_limit)
    except Unsettled:
        return [LayoutOutcome(most, tuple(0 for _ in KINDS))]
