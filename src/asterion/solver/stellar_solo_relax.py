"""The solo search's strong bound: the best final score if the cards still to come could be
split freely between the two areas (the *set relaxation*), solved exactly by CP-SAT.

From a search node (:class:`~asterion.solver.stellar_solo.Node`) the remaining ``m`` turns
place ``m`` cards in the telescope and ``m + 1`` in the notebook (the final note included),
all from the *pool*: the hand, the display and the deck cards still to be drawn in time. The
relaxation keeps exactly that, and the scoring, and forgets most of how the cards flow (which
card a turn can pair with which, the display positions):

* timing: a deck card comes out in its turn, and each turn places one card in each area, so
  the cards still ``t`` or more turns away fill at most the places of those turns;
* telescope: ``m`` pool cards; each typed card face up (its stars count, at most as many per
  type as the empty slots the type can still reach) or face down (no type, number 3); each
  card lies in one section, at most as many as the section's empty slots;
* notebook: ``m + 1`` other pool cards; each satellite (the ones already noted too) reads as
  one type, each 0/6 as 0 or 6; per type one run of consecutive numbers;
* score: per type stars × run length, 10 per section beaten, 10 for all five types face up.

Any real continuation is such a split, so its optimum bounds the real one; it is exact about
what the quick knapsack bound of :class:`~asterion.solver.stellar_solo.BranchAndBound` only
estimates piecewise (a satellite completes one run, not one per type; the cards that beat the
sections are the star cards or others; diversity takes telescope cards from the types).
Measured on 7-turn deals (docs/benchmarks.md) it is often the optimum itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeAlias

from ortools.sat.python import cp_model

from asterion.models.stellar import DIVERSITY_BONUS, SECTION_BONUS
from asterion.models.stellar_cards import FACE_DOWN_NUMBER, ZERO_SIX
from asterion.solver.result import DEFAULT_TIME_LIMIT, make_solver

Expr: TypeAlias = "cp_model.LinearExpr | int"
"""A 0/1 or integer CP-SAT expression (a variable, a linear expression or a constant)."""
KIND_COUNT = 5
SATELLITE = KIND_COUNT
LINEARIZATION_LEVEL = 2
"""The relaxation is small and its linear relaxation tight: CP-SAT's full LP pays (measured:
about 1.6 times faster than without it on 7-turn positions)."""
RUN_NUMBERS = range(7)
"""Notebook numbers 0-6 (0/6 cards read 0 or 6)."""


def add_readings(
    model: cp_model.CpModel,
    holds: dict[tuple[int, int], list[Expr]],
    label: int,
    kind: int,
    number: int,
    present: Expr,
) -> None:
    """A notebook card's readings, added to ``holds`` under (type, number): a 0/6 card reads 0
    or 6, a satellite joins any type's group; exactly one reading holds when ``present`` is 1.
    Shared by the set relaxation and the full solo model, which read the notebook alike."""
    numbers = (0, 6) if number == ZERO_SIX else (number,)
    kinds = range(KIND_COUNT) if kind == SATELLITE else (kind,)
    if len(numbers) * len(kinds) == 1:
        holds.setdefault((kinds[0], numbers[0]), []).append(present)
        return
    readings = []
    for k in kinds:
        for n in numbers:
            var = model.new_bool_var(f"reads_{label}_{k}_{n}")
            holds.setdefault((k, n), []).append(var)
            readings.append(var)
    model.add(sum(readings) == present)


@dataclass(frozen=True)
class Card:
    """What the relaxation needs of a pool card."""

    kind: int
    number: int
    telescope_number: int
    stars: int
    ready: int = 0
    """Turns from now before the card can be placed (a deck card comes out in its turn)."""


@dataclass(frozen=True)
class Position:
    """A search node as the relaxation sees it (the parts of the future that matter).

    ``notebook`` per type: bits 1–5 its numbers, 256 × its 0/6 cards; ``satellites``: noted
    satellites by number; ``caps``: per type, the face-up cards it can still get;
    ``won``: sections already beaten; ``open_sections``: (deficit, empty slots) of each
    section not yet beaten; ``spare_room``: the empty slots of the beaten sections (a card
    there counts for no section).
    """

    left: int
    pool: tuple[Card, ...]
    stars: tuple[int, ...]
    present: tuple[bool, ...]
    notebook: tuple[int, ...]
    satellites: tuple[int, ...]
    caps: tuple[int, ...]
    won: int
    open_sections: tuple[tuple[int, int], ...]
    spare_room: int


def relaxed_bound(
    position: Position, ceiling: int, *, work: float, wall: float | None = None
) -> int:
    """An upper bound on the final score from ``position``: the set relaxation's optimum, or
    CP-SAT's proven bound on it when ``work`` (CP-SAT's deterministic time) or ``wall``
    seconds run out; never above ``ceiling``, a bound already known."""
    return Relaxation(position, ceiling).solve(work=work, wall=wall)[0]


class Relaxation:
    """The CP-SAT model of :func:`relaxed_bound` (module docstring), capped at ``ceiling``.

    Besides the bound, :meth:`solve` names an optimal split's telescope cards, and
    :meth:`exclude_telescope` cuts one telescope set off (a no-good: sound for the bound once
    no real game places exactly those cards in the telescope and scores more than a plan
    already found; :mod:`.stellar_solo_split` proves that before cutting).
    """

    def __init__(self, position: Position, ceiling: int):
        self.p = position
        self.model = cp_model.CpModel()
        cards = position.pool
        model = self.model
        self.up: dict[int, cp_model.IntVar] = {}
        self.scope = [model.new_bool_var(f"scope_{i}") for i in range(len(cards))]
        self.note = [model.new_bool_var(f"note_{i}") for i in range(len(cards))]
        for i, card in enumerate(cards):
            model.add(self.scope[i] + self.note[i] <= 1)
            if card.kind != SATELLITE:
                self.up[i] = model.new_bool_var(f"up_{i}")
                model.add(self.up[i] <= self.scope[i])
        model.add(sum(self.scope) == position.left)
        model.add(sum(self.note) == position.left + 1)
        self._add_timing()
        terms = [*self._type_points(), *self._section_points(), self._diversity_points()]
        self.objective = sum(terms)
        model.add(self.objective <= ceiling)
        self.ceiling = ceiling
        self.exhausted = False
        """Set by :meth:`solve` when every split is cut off (or required away)."""
        model.maximize(self.objective)

    def solve(
        self, *, work: float, wall: float | None = None
    ) -> tuple[int, tuple[int, ...] | None]:
        """(bound, telescope): the optimum and the pool indices its split puts in the
        telescope, or, when ``work`` or ``wall`` runs out first, CP-SAT's proven bound (at
        most the ceiling) and ``None``. With every split cut off, the ceiling and ``None``."""
        solver = make_solver(DEFAULT_TIME_LIMIT if wall is None else wall)
        solver.parameters.max_deterministic_time = work
        solver.parameters.linearization_level = LINEARIZATION_LEVEL
        status = solver.solve(self.model)
        if status == cp_model.INFEASIBLE:
            # Every split is cut off (the objective may always stay under the ceiling:
            # nothing forces a point to be counted): the ceiling, and :attr:`exhausted`.
            self.exhausted = True
            return self.ceiling, None
        if status == cp_model.OPTIMAL:
            chosen = tuple(i for i, var in enumerate(self.scope) if solver.boolean_value(var))
            return round(solver.objective_value), chosen
        if status != cp_model.FEASIBLE:
            # Stopped before a first solution, CP-SAT's bound can read 0: no information.
            return self.ceiling, None
        bound = solver.best_objective_bound
        if not math.isfinite(bound):
            return self.ceiling, None
        return min(self.ceiling, int(bound + 1e-6)), None

    def exclude_telescope(self, chosen: tuple[int, ...]) -> None:
        """Cut off every split whose telescope cards are exactly the pool indices ``chosen``."""
        inside = set(chosen)
        self.model.add(
            sum(1 - var if i in inside else var for i, var in enumerate(self.scope)) >= 1
        )

    def _add_timing(self) -> None:
        """Each turn places one card in each area (the notebook one more at the end): the
        cards that come out ``t`` or more turns from now fill at most the areas' places in
        those turns."""
        p, model = self.p, self.model
        for t in range(1, p.left):
            late = [i for i, card in enumerate(p.pool) if card.ready >= t]
            if late:
                model.add(sum(self.scope[i] for i in late) <= p.left - t)
                model.add(sum(self.note[i] for i in late) <= p.left - t + 1)

    def _face_up_of(self, kind: int) -> list[tuple[int, cp_model.IntVar]]:
        return [(i, var) for i, var in self.up.items() if self.p.pool[i].kind == kind]

    def _type_points(self) -> list[Expr]:
        p, model = self.p, self.model
        holds = self._readings()
        points: list[Expr] = []
        for kind in range(KIND_COUNT):
            face_up = self._face_up_of(kind)
            model.add(sum(var for _, var in face_up) <= p.caps[kind])
            most = p.stars[kind] + sum(p.pool[i].stars for i, _ in face_up)
            if most == 0:
                continue
            # stars × run length, linear: per run length, the stars it carries (a tight
            # linear relaxation for CP-SAT's LP, unlike a product).
            lengths = self._run_lengths(kind, holds)
            for size, chosen in lengths.items():
                points.append(size * p.stars[kind] * chosen)
            for i, var in face_up:
                carried = []
                for size, chosen in lengths.items():
                    with_size = model.new_bool_var(f"carried_{i}_{size}")
                    model.add(with_size <= chosen)
                    carried.append(with_size)
                    points.append(size * p.pool[i].stars * with_size)
                model.add(sum(carried) <= var)
        return points

    def _readings(self) -> dict[tuple[int, int], list[Expr]]:
        """(type, number) → the notebook cards that may read so: the pool's noted cards, the
        satellites already noted (each joins one type)."""
        p, model = self.p, self.model
        holds: dict[tuple[int, int], list[Expr]] = {}
        entries: list[tuple[Card, Expr]] = [(card, self.note[i]) for i, card in enumerate(p.pool)]
        entries.extend(
            (Card(SATELLITE, number, number, 0), 1)
            for number, count in enumerate(p.satellites)
            for _ in range(count)
        )
        for j, (card, noted) in enumerate(entries):
            add_readings(model, holds, j, card.kind, card.number, noted)
        return holds

    def _run_lengths(self, kind: int, holds: dict[tuple[int, int], list[Expr]]) -> dict[int, Expr]:
        """Run length → whether the type's group has its one counted run of that length."""
        p, model = self.p, self.model
        mask, zero_six = p.notebook[kind] & 0xFF, p.notebook[kind] >> 8
        # Noted 0/6 cards: with two, both ends are there; with one, it reads one of them.
        ends: dict[int, Expr] = {0: 0, 6: 0}
        if zero_six >= 2:
            ends = {0: 1, 6: 1}
        elif zero_six == 1:
            reads_zero = model.new_bool_var(f"noted_zero_six_reads_0_{kind}")
            ends = {0: reads_zero, 6: 1 - reads_zero}
        present: list[Expr] = []
        for number in RUN_NUMBERS:
            if mask >> number & 1 or _is_one(ends.get(number, 0)):
                present.append(1)
                continue
            var = model.new_bool_var(f"has_{kind}_{number}")
            readings: list[Expr] = [*holds.get((kind, number), []), ends.get(number, 0)]
            model.add(var <= sum(readings))
            present.append(var)
        by_size: dict[int, list[cp_model.IntVar]] = {}
        for low in RUN_NUMBERS:
            for high in range(low, len(RUN_NUMBERS)):
                var = model.new_bool_var(f"run_{kind}_{low}_{high}")
                for number in range(low, high + 1):
                    if not _is_one(present[number]):
                        model.add(var <= present[number])
                by_size.setdefault(high - low + 1, []).append(var)
        model.add(sum(var for group in by_size.values() for var in group) <= 1)
        return {size: sum(group) for size, group in by_size.items()}

    def _section_points(self) -> list[Expr]:
        p, model = self.p, self.model
        points: list[Expr] = [SECTION_BONUS * p.won]
        # Each telescope card lies in an open section or in a beaten one (spare room).
        lies = {
            (i, j): model.new_bool_var(f"lies_{i}_{j}")
            for i in range(len(p.pool))
            for j in range(len(p.open_sections))
        }
        for i in range(len(p.pool)):
            model.add(sum(lies[i, j] for j in range(len(p.open_sections))) <= self.scope[i])
        outside = sum(self.scope) - sum(lies.values())
        model.add(outside <= p.spare_room)
        for j, (deficit, room) in enumerate(p.open_sections):
            model.add(sum(lies[i, j] for i in range(len(p.pool))) <= room)
            value = []
            for i, card in enumerate(p.pool):
                value.append(card.telescope_number * lies[i, j])
                if i in self.up and card.telescope_number != FACE_DOWN_NUMBER:
                    # Face down it counts 3 instead of its number.
                    down_here = model.new_bool_var(f"down_{i}_{j}")
                    model.add(down_here <= lies[i, j])
                    model.add(down_here <= 1 - self.up[i])
                    model.add(down_here >= lies[i, j] - self.up[i])
                    value.append((FACE_DOWN_NUMBER - card.telescope_number) * down_here)
            won = model.new_bool_var(f"won_{j}")
            model.add(sum(value) >= deficit).only_enforce_if(won)
            points.append(SECTION_BONUS * won)
        return points

    def _diversity_points(self) -> Expr:
        p, model = self.p, self.model
        missing = [kind for kind in range(KIND_COUNT) if not p.present[kind]]
        if not missing:
            return DIVERSITY_BONUS
        diverse = model.new_bool_var("diverse")
        for kind in missing:
            model.add(sum(var for _, var in self._face_up_of(kind)) >= 1).only_enforce_if(diverse)
        return DIVERSITY_BONUS * diverse


def _is_one(expr: Expr) -> bool:
    """Whether ``expr`` is the constant 1 (a number certainly present)."""
    return isinstance(expr, int) and expr == 1
