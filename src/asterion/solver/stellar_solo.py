"""Solo Stellar, proven optimal: the maximum final score of a known deal, and a plan.

rules/stellar.md, question 3. With the deck order known there is no chance left: a solo puzzle
(:mod:`asterion.models.stellar_solo`) is a one-player optimization over ``turns`` compound turns
(take a display card, play a hand card to one area, the forced second card to the other) and
the final note. Three exact engines answer it, and a portfolio runs one on two cores:

* **search** (:func:`search_solo`): depth-first branch and bound over the turns on a compact
  copy of the rules (cards as small integers, the telescope as bitmasks), with a transposition
  table on a canonical position, a quick admissible upper bound on the final score, near the
  root the exact optimum of the *set relaxation* (:mod:`.stellar_solo_relax`: the cards to
  come split freely between the areas), and the last turn solved in closed form;
* **cp-sat** (:func:`cp_sat_solo`): one CP-SAT model of all the turns, the display and deck
  flow included (since the deck order is known, each display position at each turn can only
  hold a few cards: its start card or one of the deck cards drawn so far);
* **split** (:mod:`.stellar_solo_split`): an optimal split of the set relaxation at the start
  names the telescope's cards; CP-SAT, restricted to plans with that telescope set, finds a
  plan reaching the relaxation's value (proven optimal) or settles the set, which is then cut
  off the relaxation (a logic-based Benders decomposition); from 8 turns a compiled check of
  the card flow (:mod:`.stellar_solo_flow`) judges each set before CP-SAT;
* **portfolio** (:mod:`.stellar_solo_portfolio`): two ``split`` loops on two processes that
  tell each other the telescope sets they take and settle, the best score shared.

Either way the plan is replayed move by move through the rules engine
(:func:`asterion.models.stellar.apply`) and scored by :func:`asterion.models.stellar.score`;
an optimum is returned only if that score equals the value the solver claims (a plan found
before the time limit must score at least the solver's objective).

What is proven within a time limit (docs/benchmarks.md, "Stellar solo", 8 seeded deals per
horizon, 10 s, one core): by ``auto`` every 3-, 5- and 7-turn deal, and 6 of 8 at 11 turns (a
whole game; there the set relaxation at the start is the optimum on 6 deals, and ``split``
finds a plan reaching it in a few seconds); on the other two, the best plan found with the
proven bound, 2 % and 7 % above it.

Conventions: turn ``k`` counts from 0; display positions are 0–4 internally (1–5 in
:class:`~asterion.models.stellar.Turn`); slots are indices into the layout's sorted slot list;
a card's *kind* is its type's index in :data:`~asterion.models.stellar_cards.TYPES`, or 5 for
a satellite. Every turn draws exactly two deck cards (the puzzle file guarantees enough), so
the deck pointer at turn ``k`` is ``2k`` and the display is always full.

>>> from asterion.models.stellar_solo import deal_solo_puzzle
>>> answer = solve_solo(deal_solo_puzzle(seed=1, turns=2), method="search")
>>> answer.status.value, answer.best_score
('optimal', 23)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, NamedTuple, TypeAlias

from ortools.sat.python import cp_model

from asterion.errors import IllegalActionError
from asterion.models.stellar import (
    DIVERSITY_BONUS,
    SECTION_BONUS,
    FinalNote,
    Move,
    StellarState,
    Turn,
    apply,
    score,
)
from asterion.models.stellar_cards import FACE_DOWN_NUMBER, TYPES, ZERO_SIX
from asterion.models.stellar_solo import DRAWS_PER_TURN, SoloPuzzle
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status, cp_status, make_solver
from asterion.solver.stellar_solo_relax import Card, Position, add_readings, relaxed_bound

Method = Literal["auto", "search", "cp-sat", "split", "portfolio"]
Expr: TypeAlias = "cp_model.LinearExpr | int"
"""A 0/1 or integer CP-SAT expression (a variable, a linear expression or a constant)."""
METHODS: tuple[Method, ...] = ("auto", "search", "cp-sat", "split", "portfolio")

SATELLITE = len(TYPES)
"""The kind index of a satellite (no type)."""
TELESCOPE, NOTEBOOK = 0, 1
"""Where the played card goes (the second card goes to the other area)."""
KINDS = range(len(TYPES))
LINEARIZATION_LEVEL = 0
"""CP-SAT without its linear relaxation: on these models propagation alone proves the optimum
several times faster (measured in docs/benchmarks.md)."""
AUTO_SEARCH_TURNS = 3
"""Up to this many turns ``auto`` uses the search alone."""
AUTO_SEARCH_NODES = 300
"""Beyond, the search's share in ``auto``: a node budget (not a time slice), so the plan
``split`` starts from is the same on every machine."""
AUTO_PRESEARCH_TURNS = 7
"""Up to this many turns the node budget is spent before ``split``: it proves some 5- and
7-turn benchmark deals in 0.2-1.2 s; at 11 turns it cost 0.5-1.8 s, proved none of the 8 and
found plans (62-106) below split's first."""
RELAX_FROM_TURNS_LEFT = 3
"""The search asks the set relaxation (:mod:`.stellar_solo_relax`) for a node's bound when at
least this many turns are left (closer to the end, enumerating is cheaper: on 3-turn deals
this threshold takes 0.96 s CPU for the 8 benchmark deals, 2 takes 1.47 s)."""
RELAX_WORK_LIMIT = 5.0
"""CP-SAT's deterministic time (about seconds, but the same on every machine, so the search
stays deterministic) one relaxation may take; past it, CP-SAT's proven bound on it is used."""
INTERRUPT_POLL = 0.02
"""Seconds between two looks at a CP-SAT solve's ``interrupt`` (:func:`cp_sat_solo`)."""
CHECK_EVERY = 256
"""Search nodes between two looks for plans found elsewhere (the clock is read at each node)."""


@dataclass(frozen=True)
class SoloAnswer:
    """A bounded solve of a solo puzzle.

    ``best_score`` is the final score of ``plan`` (replayed and scored by the rules engine,
    whose finished position is ``final``); ``bound`` is a proven upper bound on the optimum
    (equal to ``best_score`` when the status is optimal). With status unknown there is no
    plan. ``nodes`` counts search nodes (the search), branches (CP-SAT) or rounds of the
    relaxation (``split``).
    """

    status: Status
    best_score: int | None
    plan: list[Move]
    bound: int | None
    wall_time: float
    method: str
    nodes: int = 0
    final: StellarState | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary: status, scores, the plan move by move, the final score's
        parts."""
        document: dict[str, object] = {
            "status": self.status.value,
            "method": self.method,
            "best_score": self.best_score,
            "bound": self.bound,
            "wall_time": round(self.wall_time, 3),
            "plan": [move_to_data(move) for move in self.plan],
        }
        if self.final is not None:
            parts = score(self.final)[0]
            document["score"] = {
                "total": parts.total,
                "types": {kind.value: points for kind, points in parts.types.items()},
                "sections": dict(parts.sections),
                "diversity": parts.diversity,
            }
        return document


def move_to_data(move: Move) -> dict[str, object]:
    """A plan step as JSON: a turn's fields, or ``{"final_note": card}``."""
    if isinstance(move, Turn):
        return {
            "take": move.take,
            "play": move.play,
            "to": move.to,
            "slot": move.slot,
            "second_slot": move.second_slot,
        }
    if isinstance(move, FinalNote):
        return {"final_note": move.card}
    return {"move": type(move).__name__}


def solve_solo(
    puzzle: SoloPuzzle,
    *,
    method: Method = "auto",
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> SoloAnswer:
    """The maximum final score of ``puzzle`` and a plan reaching it.

    ``method``: ``"search"`` (exact branch and bound, deterministic, ``seed`` unused),
    ``"cp-sat"`` (one worker, ``seed`` is its random seed), ``"split"`` (the set
    relaxation's optimal splits realized by CP-SAT one after the other,
    :mod:`.stellar_solo_split`), ``"auto"``: the search alone up to
    :data:`AUTO_SEARCH_TURNS` turns (where it is the faster prover); beyond, the search runs
    for :data:`AUTO_SEARCH_NODES` nodes up to :data:`AUTO_PRESEARCH_TURNS` turns (it may
    already prove the optimum) and ``split``, starting from the search's best plan and capped
    by its proven bound, gets the rest of the time. Or ``"portfolio"``: the same, with the
    splits shared between two processes (:mod:`.stellar_solo_portfolio`; the optimum is the
    same, but which optimal plan comes back may depend on the race). Within ``time_limit``
    seconds the answer is optimal; past it, the best plan found (feasible) or none
    (unknown), with a proven upper bound.

    :raises ValueError: for an unknown method.
    """
    # Imported here: these modules build on this one.
    from asterion.solver.stellar_solo_portfolio import portfolio_solo
    from asterion.solver.stellar_solo_split import split_solo

    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    if method == "search":
        return search_solo(puzzle, time_limit=time_limit)
    if method == "cp-sat":
        return cp_sat_solo(puzzle, time_limit=time_limit, seed=seed)
    if method == "split":
        return split_solo(puzzle, time_limit=time_limit, seed=seed)
    if method == "portfolio":
        return portfolio_solo(puzzle, time_limit=time_limit, seed=seed)
    started = time.perf_counter()
    first = presearch(puzzle, time_limit)
    if first is None or not settled_by_search(puzzle, first):
        rest = max(0.0, time_limit - (time.perf_counter() - started))
        ceiling = None if first is None else first.bound
        first = split_solo(puzzle, time_limit=rest, seed=seed, incumbent=first, ceiling=ceiling)
    return replace(first, method="auto", wall_time=time.perf_counter() - started)


def settled_by_search(puzzle: SoloPuzzle, first: SoloAnswer) -> bool:
    """Whether the search's answer (from :func:`presearch`) is the final one: optimal, or
    the search was the whole solve."""
    return first.status is Status.OPTIMAL or puzzle.turns <= AUTO_SEARCH_TURNS


def presearch(puzzle: SoloPuzzle, time_limit: float) -> SoloAnswer | None:
    """The search's part in ``auto`` and the portfolio, before ``split``: the whole search up
    to :data:`AUTO_SEARCH_TURNS` turns, :data:`AUTO_SEARCH_NODES` nodes up to
    :data:`AUTO_PRESEARCH_TURNS`, none beyond."""
    if puzzle.turns <= AUTO_SEARCH_TURNS:
        return search_solo(puzzle, time_limit=time_limit)
    if puzzle.turns <= AUTO_PRESEARCH_TURNS:
        return search_solo(puzzle, time_limit=time_limit, max_nodes=AUTO_SEARCH_NODES)
    return None


# -- certification -------------------------------------------------------------------------------


def replay(puzzle: SoloPuzzle, plan: list[Move]) -> tuple[StellarState, int]:
    """Apply ``plan`` from the start through the rules engine; the final state and its score.

    :raises IllegalActionError: if a move is illegal or the plan does not end the game.
    """
    state = puzzle.start_state()
    for move in plan:
        state = apply(state, move)
    if not state.is_over:
        raise IllegalActionError(f"the plan stops before the end of the game ({state.phase})")
    return state, score(state)[0].total


def certified(
    puzzle: SoloPuzzle, plan: list[Move], claimed: int, method: str
) -> tuple[StellarState, int]:
    """The plan's final position and engine score, which must equal what ``method`` claimed."""
    final, total = replay(puzzle, plan)
    if total != claimed:
        raise AssertionError(f"{method}: the plan scores {total} by the rules, not {claimed}")
    return final, total


# -- the compiled puzzle ------------------------------------------------------------------------


class Node(NamedTuple):
    """A position at the start of turn ``k`` (``k == turns``: only the final note is left).

    The telescope is ``filled`` (a slot bitmask) and ``typed`` (per type, the slots of its
    face-up cards), ``stars`` per type and section ``sums`` (capped at the winning sum). The
    notebook is, per type, a bitmask of its numbers 1–5 plus 256 × its 0/6 cards (at most
    2), and ``satellites`` counts its satellites by number (index 0 for 0/6).
    """

    k: int
    display: tuple[int, ...]
    hand: tuple[int, ...]
    filled: int
    typed: tuple[int, ...]
    stars: tuple[int, ...]
    sums: tuple[int, ...]
    notebook: tuple[int, ...]
    satellites: tuple[int, ...]


Step = tuple[int, int, int, int, int]
"""An internal turn: (display position 0–4 taken, card played, area of the played card, slot
of the telescope card, second card)."""

ZERO_SIX_UNIT = 256


def _longest_runs() -> tuple[int, ...]:
    runs = []
    for mask in range(128):
        best = current = 0
        for n in range(7):
            current = current + 1 if mask >> n & 1 else 0
            best = max(best, current)
        runs.append(best)
    return tuple(runs)


LONGEST_RUN = _longest_runs()
"""Longest run of consecutive set bits of a 7-bit mask (numbers 0–6)."""


def best_run(numbers: int) -> int:
    """Longest run of a notebook group: bits 1–5 are numbers, 256 × the count of 0/6 cards
    (each reads 0 or 6).

    >>> best_run(0b111100), best_run(0b111100 + 256), best_run(0b111110 + 512)
    (4, 5, 7)
    """
    mask, zero_six = numbers & 0xFF, numbers >> 8
    if zero_six == 0:
        return LONGEST_RUN[mask]
    if zero_six == 1:
        return max(LONGEST_RUN[mask | 1], LONGEST_RUN[mask | 64])
    return LONGEST_RUN[mask | 65]


def _add_number(numbers: int, number: int) -> int:
    if number == ZERO_SIX:
        return (numbers & 0xFF) | min(2, (numbers >> 8) + 1) * ZERO_SIX_UNIT
    return numbers | 1 << number


@lru_cache(maxsize=1 << 18)
def type_score(
    stars: tuple[int, ...], notebook: tuple[int, ...], satellites: tuple[int, ...]
) -> int:
    """Σ stars × longest run over the types, each satellite joining its best type."""
    scoring = [kind for kind in KINDS if stars[kind]]
    numbers = [n for n, count in enumerate(satellites) for _ in range(count)]
    best = 0
    groups = list(notebook)

    def assign(i: int) -> None:
        nonlocal best
        if i == len(numbers):
            best = max(best, sum(stars[kind] * best_run(groups[kind]) for kind in scoring))
            return
        for kind in scoring:
            saved = groups[kind]
            groups[kind] = _add_number(saved, numbers[i])
            assign(i + 1)
            groups[kind] = saved
        if not scoring:
            assign(i + 1)

    assign(0)
    return best


class Compiled:
    """The puzzle as small integers: the tables every engine here shares."""

    def __init__(self, puzzle: SoloPuzzle):
        self.puzzle = puzzle
        deck = puzzle.deck
        self.turns = puzzle.turns
        usable = DRAWS_PER_TURN * puzzle.turns
        self.ids = puzzle.placed_cards()[: 2 + 2 + 5 + usable]
        index = {card_id: i for i, card_id in enumerate(self.ids)}
        cards = [deck[card_id] for card_id in self.ids]
        self.kind = tuple(SATELLITE if c.kind is None else TYPES.index(c.kind) for c in cards)
        self.number = tuple(c.number for c in cards)
        self.telescope_number = tuple(c.telescope_number for c in cards)
        self.card_stars = tuple(0 if c.kind is None else c.stars for c in cards)
        self.deck = tuple(index[card_id] for card_id in puzzle.deck_order[:usable])
        self.kind_cards = tuple(
            sum(1 << i for i, kind in enumerate(self.kind) if kind == k) for k in range(6)
        )

        layout = puzzle.rules.layout
        self.slot_ids = layout.slots
        slot_index = {slot: i for i, slot in enumerate(self.slot_ids)}
        self.all_slots = (1 << len(self.slot_ids)) - 1
        self.neighbors = tuple(
            sum(1 << slot_index[n] for n in layout.neighbors(slot)) for slot in self.slot_ids
        )
        self.section_names = tuple(name for name, _ in layout.sections)
        self.section_of = [-1] * len(self.slot_ids)
        self.section_slots = []
        for j, (_, slots) in enumerate(layout.sections):
            mask = 0
            for slot in slots:
                self.section_of[slot_index[slot]] = j
                mask |= 1 << slot_index[slot]
            self.section_slots.append(mask)
        targets = dict(puzzle.targets)
        tie = 0 if puzzle.rules.section_tie_bonus else 1
        self.need = tuple(targets[name] + tie for name in self.section_names)

        # The start: slot 1 and the notebook starter; hand and display.
        start_slot = slot_index[1]
        start = index[puzzle.telescope_start]
        self.start_slot = start_slot
        typed = [0] * len(TYPES)
        stars = [0] * len(TYPES)
        if self.kind[start] != SATELLITE:
            typed[self.kind[start]] = 1 << start_slot
            stars[self.kind[start]] = self.card_stars[start]
        sums = [0] * len(self.section_names)
        if self.section_of[start_slot] >= 0:
            j = self.section_of[start_slot]
            sums[j] = min(self.need[j], self.telescope_number[start])
        notebook, satellites = self.noted((0,) * len(TYPES), (0,) * 6, index[puzzle.notebook_start])
        self.root = Node(
            0,
            tuple(index[c] for c in puzzle.display),
            tuple(sorted(index[c] for c in puzzle.hand)),
            1 << start_slot,
            tuple(typed),
            tuple(stars),
            tuple(sums),
            notebook,
            satellites,
        )

    # -- the rules, on integers ------------------------------------------------------------------

    def noted(
        self, notebook: tuple[int, ...], satellites: tuple[int, ...], card: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The notebook with ``card`` added."""
        kind, number = self.kind[card], self.number[card]
        if kind == SATELLITE:
            counts = list(satellites)
            counts[number] += 1
            return notebook, tuple(counts)
        groups = list(notebook)
        groups[kind] = _add_number(groups[kind], number)
        return tuple(groups), satellites

    def adjacent(self, slots: int) -> int:
        """The slots next to any of ``slots``."""
        result = 0
        while slots:
            low = slots & -slots
            slots ^= low
            result |= self.neighbors[low.bit_length() - 1]
        return result

    def placements(self, filled: int, typed: tuple[int, ...], card: int) -> tuple[int, bool]:
        """Where ``card`` may go in the telescope (a slot mask) and whether face down: a
        satellite or a new type anywhere empty, a present type next to its cards, else face
        down anywhere empty (rules/stellar.md, "Placement")."""
        empty = self.all_slots & ~filled
        kind = self.kind[card]
        if kind == SATELLITE or not typed[kind]:
            return empty, False
        legal = self.adjacent(typed[kind]) & empty
        return (legal, False) if legal else (empty, True)

    def flows(self, node: Node) -> Iterator[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]]:
        """Steps 1 and 3 of a turn: (position taken, card played, second card, display after
        the refill, hand after the turn), for every take and play."""
        display, hand = node.display, node.hand
        top, next_top = self.deck[2 * node.k], self.deck[2 * node.k + 1]
        for t in range(5):
            taken = display[t]
            for played in (*hand, taken):
                kept = tuple(sorted(c for c in (*hand, taken) if c != played))
                source = self.number[played] - 1
                if 0 <= source < 5 and source != t:
                    second = display[source]
                    low, high = min(t, source), max(t, source)
                    after = list(display)
                    after[low], after[high] = top, next_top
                else:
                    second = top
                    after = list(display)
                    after[t] = next_top
                yield t, played, second, tuple(after), kept

    def place(
        self, node: Node, card: int, slot: int, face_down: bool
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(typed, stars, sums) after ``card`` goes to ``slot``."""
        typed, stars, sums = node.typed, node.stars, node.sums
        kind = self.kind[card]
        if not face_down and kind != SATELLITE:
            typed_list, stars_list = list(typed), list(stars)
            typed_list[kind] |= 1 << slot
            stars_list[kind] += self.card_stars[card]
            typed, stars = tuple(typed_list), tuple(stars_list)
        j = self.section_of[slot]
        if j >= 0:
            number = FACE_DOWN_NUMBER if face_down else self.telescope_number[card]
            sums_list = list(sums)
            sums_list[j] = min(self.need[j], sums[j] + number)
            sums = tuple(sums_list)
        return typed, stars, sums

    def children(self, node: Node) -> Iterator[tuple[Step, Node]]:
        """Every turn from ``node`` (``k < turns``) and the node it leads to."""
        for t, played, second, display, hand in self.flows(node):
            for area in (TELESCOPE, NOTEBOOK):
                scope, note = (played, second) if area == TELESCOPE else (second, played)
                notebook, satellites = self.noted(node.notebook, node.satellites, note)
                slots, face_down = self.placements(node.filled, node.typed, scope)
                while slots:
                    low = slots & -slots
                    slots ^= low
                    slot = low.bit_length() - 1
                    typed, stars, sums = self.place(node, scope, slot, face_down)
                    yield (
                        (t, played, area, slot, second),
                        Node(
                            node.k + 1,
                            display,
                            hand,
                            node.filled | low,
                            typed,
                            stars,
                            sums,
                            notebook,
                            satellites,
                        ),
                    )

    # -- scoring -----------------------------------------------------------------------------

    def fixed_points(self, node: Node) -> int:
        """Sections won and diversity: the points that do not depend on the notebook."""
        sections = sum(SECTION_BONUS for s, n in zip(node.sums, self.need, strict=True) if s >= n)
        return sections + (DIVERSITY_BONUS if all(node.typed) else 0)

    def final_note(self, node: Node) -> tuple[int, int]:
        """The best final note from a node after the last turn: (score, card)."""
        best = (-1, -1)
        for card in node.hand:
            notebook, satellites = self.noted(node.notebook, node.satellites, card)
            best = max(best, (type_score(node.stars, notebook, satellites), -card))
        return best[0] + self.fixed_points(node), -best[1]

    # -- back to the rules engine ------------------------------------------------------------

    def to_steps(self, moves: list[Move]) -> tuple[list[Step], int]:
        """The internal steps of a plan of :class:`Turn` moves and a :class:`FinalNote`
        (second cards left as -1: the hint does not need them)."""
        index = {card_id: i for i, card_id in enumerate(self.ids)}
        slot_index = {slot: i for i, slot in enumerate(self.slot_ids)}
        steps: list[Step] = []
        final = -1
        for move in moves:
            if isinstance(move, Turn):
                area = TELESCOPE if move.to == "telescope" else NOTEBOOK
                slot = move.slot if area == TELESCOPE else move.second_slot
                steps.append(
                    (
                        move.take - 1,
                        index[move.play],
                        area,
                        slot_index[slot] if slot is not None else -1,
                        -1,
                    )
                )
            elif isinstance(move, FinalNote):
                final = index[move.card]
        return steps, final

    def to_moves(self, steps: list[Step], final: int) -> list[Move]:
        moves: list[Move] = []
        for t, played, area, slot, _ in steps:
            slot_id = self.slot_ids[slot]
            if area == TELESCOPE:
                moves.append(Turn(t + 1, self.ids[played], "telescope", slot_id, None))
            else:
                moves.append(Turn(t + 1, self.ids[played], "notebook", None, slot_id))
        moves.append(FinalNote(self.ids[final]))
        return moves


# -- exact search --------------------------------------------------------------------------------


class BranchAndBound:
    """Depth-first branch and bound over the turns, on :class:`Compiled` nodes.

    * **Transposition table**: a node's canonical key (:meth:`key`) maps to a proven upper
      bound on the best final score below it; a revisit is cut when that is no better than
      the incumbent.
    * **Upper bound** (:meth:`bound`): the remaining turns place ``m`` cards in the telescope
      and ``m + 1`` in the notebook, all from the *pool* (hand, display and the deck cards
      still to be drawn in time). Per type, for every run interval of the notebook, the
      cheapest way to complete it (own notebook cards and satellites free, then pool
      satellites, then the type's cards with the fewest stars) leaves the best star cards for
      the telescope, at most as many as the empty slots the type can still reach; a knapsack
      over the types shares the two budgets. Sections: the subsets of open sections that the
      pool's highest numbers can still beat at once; diversity: every missing type still in
      the pool, and few enough.
    * **Set relaxation** (:meth:`relaxed`): while at least :data:`RELAX_FROM_TURNS_LEFT`
      turns are left, a node the quick bound cannot cut gets the exact optimum of the cards
      to come split freely between the areas (:mod:`.stellar_solo_relax`), cached by
      position; the quick bound is its ceiling (each is admissible, so the lower holds).
    * **The last turn** is solved in closed form (:meth:`last_turn`): the telescope card's
      slot only matters through its section, so one slot per section is tried.
    * **Ordering**: children by their quick bound (capped by the parent's: the bound is not
      monotone), best first; a child whose bound does not beat the incumbent is never
      entered. Plans found elsewhere come in through :meth:`offer`.
    """

    def __init__(
        self, compiled: Compiled, deadline: float | None = None, max_nodes: int | None = None
    ):
        self.c = compiled
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.stopped = False
        self.best = -1
        self.best_steps: list[Step] = []
        self.best_final = -1
        self.table: dict[tuple[object, ...], int] = {}
        self._path: list[Step] = []
        self._reach: dict[tuple[int, int], int] = {}
        self._type_tables: dict[tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]] = {}
        self._knapsacks: dict[tuple[object, ...], tuple[int, int | None]] = {}
        self._sections: dict[tuple[object, ...], int] = {}
        self._relaxed: dict[Position, int] = {}
        self.inbox: Callable[[BranchAndBound], bool] | None = None
        """Polled while searching: offers outside plans, returns whether to stop."""
        # The first turn each deck card can be placed: deck[2k] as turn k's forced second
        # card, deck[2k + 1] from the display after turn k.
        self._comes_out = {card: (d + 1) // 2 for d, card in enumerate(compiled.deck)}
        self.relaxations = 0
        turns = compiled.turns
        self._drawable = tuple(
            sum(1 << card for card in compiled.deck[2 * k : 2 * turns - 1])
            for k in range(turns + 1)
        )

    # -- canonical positions -------------------------------------------------------------------

    def key(self, node: Node) -> tuple[object, ...]:
        """What the rest of the game depends on: the turn, display and hand (and so the pool),
        the filled slots, per type whether it is present and, while the pool still holds
        that type, its *frontier* (the empty slots next to it: all that later placements of
        the type look at), stars, capped section sums, the notebook."""
        pool = self.pool(node)
        empty = self.c.all_slots & ~node.filled
        typed = tuple(
            (bool(slots), self.c.adjacent(slots) & empty)
            if pool & self.c.kind_cards[kind]
            else bool(slots)
            for kind, slots in enumerate(node.typed)
        )
        return (
            node.k,
            node.display,
            node.hand,
            node.filled,
            typed,
            node.stars,
            node.sums,
            node.notebook,
            node.satellites,
        )

    def pool_cards(self, node: Node) -> tuple[int, ...]:
        """The pool's cards in the order of :meth:`position`'s ``pool``."""
        return tuple(_bits(self.pool(node)))

    def pool(self, node: Node) -> int:
        """The cards the remaining turns can still place (a card bitmask)."""
        mask = self._drawable[node.k]
        for card in node.hand:
            mask |= 1 << card
        if node.k < self.c.turns:
            for card in node.display:
                mask |= 1 << card
        return mask

    # -- the upper bound -----------------------------------------------------------------------

    def reach(self, filled: int, slots: int) -> int:
        """How many more face-up cards a type with face-up ``slots`` can ever get: the empty
        slots connected to them through empty slots (for an absent type: the largest empty
        region)."""
        key = (filled, slots)
        cached = self._reach.get(key)
        if cached is not None:
            return cached
        empty = self.c.all_slots & ~filled
        if slots:
            result = self._region(empty, self.c.adjacent(slots) & empty)
        else:
            result, rest = 0, empty
            while rest:
                region = self._region(empty, rest & -rest)
                result = max(result, region.bit_count())
                rest &= ~region
            self._reach[key] = result
            return result
        self._reach[key] = result.bit_count()
        return self._reach[key]

    def _region(self, empty: int, start: int) -> int:
        seen = front = start
        while front:
            front = self.c.adjacent(front) & empty & ~seen
            seen |= front
        return seen

    def type_table(
        self, kind: int, pool: int, numbers: int, satellites: tuple[int, ...]
    ) -> list[tuple[int, int, tuple[int, ...]]]:
        """For each run interval a type can still complete: (notebook cards it costs, its
        length, the type's pool star values left for the telescope, best first)."""
        c = self.c
        own = pool & c.kind_cards[kind]
        spare = pool & c.kind_cards[SATELLITE]
        key = (kind, own, spare, numbers, *satellites)
        cached = self._type_tables.get(key)
        if cached is not None:
            return cached
        by_number: list[list[int]] = [[] for _ in range(6)]
        for card in _bits(own):
            by_number[c.number[card]].append(c.card_stars[card])
        for group in by_number:
            group.sort()
        pool_satellites = [0] * 6
        for card in _bits(spare):
            pool_satellites[c.number[card]] += 1
        star_cards = sorted((s for group in by_number for s in group), reverse=True)
        mask, zero_six = numbers & 0xFF, numbers >> 8
        table: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, tuple(star_cards))]
        for low in range(7):
            for high in range(low, 7):
                cost, feasible = 0, True
                used: list[int] = []
                for n in range(max(low, 1), min(high, 5) + 1):
                    if mask >> n & 1 or satellites[n]:
                        continue
                    if pool_satellites[n]:
                        cost += 1
                    elif by_number[n]:
                        cost += 1
                        used.append(by_number[n][0])
                    else:
                        feasible = False
                        break
                if not feasible:
                    continue
                ends = (low == 0) + (high == 6) - zero_six - satellites[ZERO_SIX]
                if ends > 0:
                    from_satellites = min(ends, pool_satellites[ZERO_SIX])
                    cost += from_satellites
                    ends -= from_satellites
                    if ends > len(by_number[ZERO_SIX]):
                        continue
                    cost += ends
                    used.extend(by_number[ZERO_SIX][:ends])
                rest = list(star_cards)
                for stars in used:
                    rest.remove(stars)
                table.append((cost, high - low + 1, tuple(rest)))
        self._type_tables[key] = table
        return table

    def bound(self, node: Node) -> int:
        """An upper bound on the final score of any game through ``node`` (``k < turns``)."""
        c = self.c
        left = c.turns - node.k
        pool = self.pool(node)
        caps = tuple(min(left, self.reach(node.filled, node.typed[kind])) for kind in KINDS)
        missing = tuple(kind for kind in KINDS if not node.typed[kind])
        diverse = len(missing) <= left and all(pool & c.kind_cards[kind] for kind in missing)
        key = (left, pool, node.stars, node.notebook, node.satellites, caps, missing, diverse)
        known = self._knapsacks.get(key)
        if known is None:
            known = self._type_bound(node, pool, left, caps, missing, diverse)
            self._knapsacks[key] = known
        plain, with_diversity = known
        best = plain + self._section_bound(node, pool, left, ())
        if with_diversity is not None:
            best = max(best, with_diversity + self._section_bound(node, pool, left, missing))
        return best

    def _type_bound(
        self,
        node: Node,
        pool: int,
        left: int,
        caps: tuple[int, ...],
        missing: tuple[int, ...],
        diverse: bool,
    ) -> tuple[int, int | None]:
        """The type points by a knapsack over the types sharing ``left`` telescope and
        ``left + 1`` notebook cards: without diversity, and with it (its bonus included, or
        ``None`` when it is out of reach), where every missing type gets a telescope card."""
        notes = left + 1
        plain: dict[tuple[int, int], int] = {(0, 0): 0}
        full: dict[tuple[int, int], int] | None = {(0, 0): 0} if diverse else None
        for kind in KINDS:
            stars = node.stars[kind]
            options: dict[tuple[int, int], int] = {}
            for cost, length, left_stars in self.type_table(
                kind, pool, node.notebook[kind], node.satellites
            ):
                if cost > notes:
                    continue
                total = stars
                if options.get((0, cost), -1) < total * length:
                    options[0, cost] = total * length
                for a, extra in enumerate(left_stars[: caps[kind]], start=1):
                    total += extra
                    if options.get((a, cost), -1) < total * length:
                        options[a, cost] = total * length
            useful = {
                cell: value
                for cell, value in options.items()
                if value and (cell[0] == 0 or value > options.get((cell[0] - 1, cell[1]), -1))
            }
            plain = _combine(plain, useful, left, notes)
            if full is not None:
                if kind in missing:
                    required = {cell: v for cell, v in options.items() if cell[0] >= 1}
                    full = _combine(full, required, left, notes, keep_old=False)
                else:
                    full = _combine(full, useful, left, notes)
        return max(plain.values()), (max(full.values()) + DIVERSITY_BONUS if full else None)

    def _section_bound(self, node: Node, pool: int, left: int, missing: tuple[int, ...]) -> int:
        """Section points: those won, plus the open sections the telescope's remaining cards
        can still beat at once. Those cards are at best the pool's highest numbers (a typed
        card may end face down and count 3); when every ``missing`` type must get one face-up
        card, at best each one's highest number plus the highest numbers for the others."""
        c = self.c
        won = 0
        open_sections = []
        for j, (total, need) in enumerate(zip(node.sums, c.need, strict=True)):
            if total >= need:
                won += 1
            else:
                room = min(left, (c.section_slots[j] & ~node.filled).bit_count())
                if room:
                    open_sections.append((need - total, room))
        if not open_sections:
            return SECTION_BONUS * won
        key = (pool, left, missing, *open_sections)
        winnable = self._sections.get(key)
        if winnable is None:
            winnable = self.winnable(self._best_numbers(pool, left, missing), left, open_sections)
            self._sections[key] = winnable
        return SECTION_BONUS * (won + winnable)

    def _best_numbers(self, pool: int, left: int, missing: tuple[int, ...]) -> list[int]:
        c = self.c
        anything = sorted(
            (
                c.telescope_number[card]
                if c.kind[card] == SATELLITE
                else max(c.telescope_number[card], FACE_DOWN_NUMBER)
                for card in _bits(pool)
            ),
            reverse=True,
        )
        forced = [
            max(c.telescope_number[card] for card in _bits(pool & c.kind_cards[kind]))
            for kind in missing
        ]
        return sorted(forced + anything[: left - len(forced)], reverse=True)

    def winnable(self, numbers: list[int], left: int, open_sections: list[tuple[int, int]]) -> int:
        """How many open sections (deficit, room) the telescope ``numbers`` (best first) can
        beat at once."""
        prefix = [0]
        for number in numbers:
            prefix.append(prefix[-1] + number)
        # The fewest cards each section needs (the highest numbers), if it can be beaten.
        fewest = []
        for deficit, room in open_sections:
            needed = next(
                (q for q in range(1, min(room, len(numbers)) + 1) if prefix[q] >= deficit), None
            )
            fewest.append(needed)
        best = 0
        for subset in range(1, 1 << len(open_sections)):
            chosen = [i for i in range(len(open_sections)) if subset >> i & 1]
            if len(chosen) <= best:
                continue
            counts = [fewest[i] for i in chosen]
            if any(q is None for q in counts) or sum(q or 0 for q in counts) > left:
                continue
            cards = min(left, sum(open_sections[i][1] for i in chosen), len(numbers))
            if prefix[cards] >= sum(open_sections[i][0] for i in chosen):
                best = len(chosen)
        return best

    def position(self, node: Node) -> Position:
        """``node`` as the set relaxation (:mod:`.stellar_solo_relax`) sees it."""
        c = self.c
        pool = self.pool(node)
        empty = c.all_slots & ~node.filled
        left = c.turns - node.k
        won, open_sections, spare = 0, [], 0
        for j, (total, need) in enumerate(zip(node.sums, c.need, strict=True)):
            room = (c.section_slots[j] & empty).bit_count()
            if total >= need:
                won += 1
                spare += room
            else:
                open_sections.append((need - total, room))
        return Position(
            left=left,
            pool=tuple(
                Card(
                    c.kind[i],
                    c.number[i],
                    c.telescope_number[i],
                    c.card_stars[i],
                    max(0, self._comes_out.get(i, 0) - node.k),
                )
                for i in _bits(pool)
            ),
            stars=node.stars,
            present=tuple(bool(slots) for slots in node.typed),
            notebook=node.notebook,
            satellites=node.satellites,
            caps=tuple(min(left, self.reach(node.filled, node.typed[kind])) for kind in KINDS),
            won=won,
            open_sections=tuple(open_sections),
            spare_room=spare,
        )

    # -- the last turn -------------------------------------------------------------------------

    def last_turn(self, node: Node, ceiling: int) -> tuple[int, Step, int]:
        """The best last turn and final note: (score, turn, final card), stopping early at
        ``ceiling`` (a known upper bound). Nothing is placed after the telescope card, so its
        slot matters only through its section: a section it makes beaten if there is one."""
        c = self.c
        best: tuple[int, Step, int] = (-1, (0, 0, 0, 0, 0), -1)
        won = [total >= need for total, need in zip(node.sums, c.need, strict=True)]
        already = SECTION_BONUS * sum(won)
        for t, played, second, _, hand in c.flows(node):
            for area in (TELESCOPE, NOTEBOOK):
                scope, note = (played, second) if area == TELESCOPE else (second, played)
                notebook, satellites = c.noted(node.notebook, node.satellites, note)
                slots, face_down = c.placements(node.filled, node.typed, scope)
                kind = c.kind[scope]
                stars, present = node.stars, node.typed
                if not face_down and kind != SATELLITE:
                    stars = _plus(stars, kind, c.card_stars[scope])
                    present = _plus(present, kind, 1)
                number = FACE_DOWN_NUMBER if face_down else c.telescope_number[scope]
                slot = (slots & -slots).bit_length() - 1
                fixed = already + (DIVERSITY_BONUS if all(present) else 0)
                for j, section in enumerate(c.section_slots):
                    if not won[j] and slots & section and node.sums[j] + number >= c.need[j]:
                        slot = ((slots & section) & -(slots & section)).bit_length() - 1
                        fixed += SECTION_BONUS
                        break
                for final in hand:
                    final_notebook, final_satellites = c.noted(notebook, satellites, final)
                    value = fixed + type_score(stars, final_notebook, final_satellites)
                    if value > best[0]:
                        best = (value, (t, played, area, slot, second), final)
                        if value >= ceiling:
                            return best
        return best

    # -- the search ----------------------------------------------------------------------------

    def run(self) -> int:
        """Search from the root; the proven upper bound (the optimum unless timed out)."""
        root = self.c.root
        if root.k == self.c.turns:
            value, final = self.c.final_note(root)
            self._improve(value, [], final)
            return value
        return self._visit(root, self.bound(root))

    def _out_of_time(self) -> bool:
        """Whether to stop: past the deadline, or told so by :attr:`inbox` (which also hands
        over plans found elsewhere). Asked every :data:`CHECK_EVERY` nodes and before each
        relaxation (one costs as much as many nodes)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.stopped = True
        if self.inbox is not None and self.inbox(self):
            self.stopped = True
        return self.stopped

    def relaxed(self, node: Node, ceiling: int) -> int:
        """The set relaxation's bound at ``node`` (cached by position), at most ``ceiling``."""
        position = self.position(node)
        known = self._relaxed.get(position)
        if known is None:
            wall = None
            if self.deadline is not None:  # (before any plan, half: the rest is for finding one)
                wall = max(
                    0.01, (self.deadline - time.perf_counter()) / (2 if self.best < 0 else 1)
                )
            known = relaxed_bound(position, ceiling, work=RELAX_WORK_LIMIT, wall=wall)
            self.relaxations += 1
            self._relaxed[position] = known
        return min(known, ceiling)

    def _improve(self, value: int, steps: list[Step], final: int) -> None:
        if value > self.best:
            self.best, self.best_steps, self.best_final = value, list(steps), final

    def offer(self, value: int, steps: list[Step], final: int) -> None:
        """A plan found elsewhere (scoring ``value``): the incumbent if better."""
        self._improve(value, steps, final)

    def _visit(self, node: Node, node_bound: int) -> int:
        """An upper bound on the best final score below ``node`` (exact if it beats the
        incumbent it found)."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.stopped = True
        if self.nodes % CHECK_EVERY == 0:
            self._out_of_time()
        elif self.deadline is not None and time.perf_counter() > self.deadline:
            self.stopped = True  # (a node bounds all its children, milliseconds: look each time)
        if self.stopped:
            return node_bound
        c = self.c
        if node.k == c.turns - 1:
            value, step, final = self.last_turn(node, node_bound)
            self._path.append(step)
            self._improve(value, self._path, final)
            self._path.pop()
            return value
        key = self.key(node)
        known = self.table.get(key)
        if known is not None and known <= self.best:
            return known
        # The relaxation only cuts against an incumbent: before the first plan it is asked
        # at the root alone (for the bound the answer reports).
        if (
            c.turns - node.k >= RELAX_FROM_TURNS_LEFT
            and node_bound > self.best
            and (self.best >= 0 or node.k == 0)
            and not self._out_of_time()
        ):
            node_bound = min(node_bound, self.relaxed(node, node_bound))
            if node_bound <= self.best:
                self.table[key] = node_bound
                return node_bound
        # A child's bound may exceed its parent's (the bound is admissible, not monotone):
        # the parent's caps it. Among children capped alike, the higher own bound first.
        children = sorted(
            (
                (min(node_bound, own), -own, i, step, child)
                for i, (step, child) in enumerate(c.children(node))
                for own in (self.bound(child),)
            ),
            key=lambda entry: (-entry[0], entry[1], entry[2]),
        )
        result = 0
        for child_bound, _, _, step, child in children:
            if child_bound <= self.best or self.stopped:
                result = max(result, child_bound)
                continue
            self._path.append(step)
            result = max(result, self._visit(child, child_bound))
            self._path.pop()
        result = min(result, node_bound)
        if not self.stopped:
            self.table[key] = result
        return result


def _plus(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + amount, *values[index + 1 :])


def _combine(
    best: dict[tuple[int, int], int],
    options: dict[tuple[int, int], int],
    left: int,
    notes: int,
    *,
    keep_old: bool = True,
) -> dict[tuple[int, int], int]:
    """One knapsack step: add a type's options (telescope cards, notebook cards) → points to
    the best points per budget used so far; ``keep_old`` allows taking no option."""
    merged = dict(best) if keep_old else {}
    for (a0, b0), v0 in best.items():
        for (a, b), v in options.items():
            if a0 + a <= left and b0 + b <= notes:
                cell = (a0 + a, b0 + b)
                if merged.get(cell, -1) < v0 + v:
                    merged[cell] = v0 + v
    return merged


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def search_solo(
    puzzle: SoloPuzzle,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_nodes: int | None = None,
) -> SoloAnswer:
    """The optimum by exact branch and bound (:class:`BranchAndBound`), certified; stopped
    after ``time_limit`` seconds or ``max_nodes`` nodes with the best plan so far."""
    started = time.perf_counter()
    search = BranchAndBound(Compiled(puzzle), deadline=started + time_limit, max_nodes=max_nodes)
    bound = search.run()
    if search.best < 0:
        return SoloAnswer(
            Status.UNKNOWN, None, [], bound, time.perf_counter() - started, "search", search.nodes
        )
    plan = search.c.to_moves(search.best_steps, search.best_final)
    final, total = certified(puzzle, plan, search.best, "search")
    # Stopped early, the search may still have proven its plan best (bound reached).
    status = Status.OPTIMAL if not search.stopped or bound <= total else Status.FEASIBLE
    bound = total if status is Status.OPTIMAL else bound
    elapsed = time.perf_counter() - started
    return SoloAnswer(status, total, plan, bound, elapsed, "search", search.nodes, final)


# -- CP-SAT ----------------------------------------------------------------------------------------


def _and(model: cp_model.CpModel, name: str, *terms: Expr) -> cp_model.IntVar:
    """A Boolean equal to the conjunction of 0/1 ``terms`` (variables or expressions)."""
    var = model.new_bool_var(name)
    for term in terms:
        model.add(var <= term)
    model.add(var >= sum(terms) - (len(terms) - 1))
    return var


def _or(model: cp_model.CpModel, name: str, terms: list[Expr]) -> cp_model.IntVar:
    """A Boolean equal to the disjunction of 0/1 ``terms``."""
    var = model.new_bool_var(name)
    for term in terms:
        model.add(var >= term)
    model.add(var <= sum(terms))
    return var


class SoloModel:
    """All the turns of a solo puzzle as one CP-SAT model (rules/stellar.md, "Turn").

    Data: the compiled puzzle. Variables, by turn ``k``: ``display[k, p, i]`` (position ``p``
    holds card ``i``: its start card or a deck card drawn before turn ``k``), ``hand[k, i]``,
    ``take[k, p]``, ``play[k, i]``, ``to_scope[k]`` (the played card goes to the telescope),
    ``slot[k, s]`` (the telescope card's slot), ``face_down[k]``; at the end ``final[i]``.
    Constraints, one family per helper: the display and deck flow (:meth:`_add_flow`), the
    telescope's placement rule (:meth:`_add_telescope`), the notebook's runs
    (:meth:`_add_notebook`); the objective is the final score (:meth:`_add_objective`).
    """

    def __init__(self, compiled: Compiled):
        self.c = compiled
        self.model = cp_model.CpModel()
        self.turns = compiled.turns
        self.cards = range(len(compiled.ids))
        self.slots = range(len(compiled.slot_ids))
        self._add_flow()
        self._add_telescope()
        self._add_notebook()
        self._add_objective()

    # -- the display and deck flow -------------------------------------------------------------

    def _add_flow(self) -> None:
        c, model, turns = self.c, self.model, self.turns
        root = c.root
        self.display: dict[tuple[int, int, int], cp_model.IntVar] = {}
        self.hand: dict[tuple[int, int], cp_model.IntVar] = {}
        self.take: dict[tuple[int, int], cp_model.IntVar] = {}
        self.play: dict[tuple[int, int], cp_model.IntVar] = {}
        self.to_scope: dict[int, cp_model.IntVar] = {}
        self.scope_card: dict[tuple[int, int], Expr] = {}
        self.note_card: dict[tuple[int, int], Expr] = {}
        self.second: dict[tuple[int, int], Expr] = {}

        # Which cards each display position and the hand can hold at each turn.
        could_show = [{p: [root.display[p]] for p in range(5)}]
        could_hold = [list(root.hand)]
        for k in range(turns):
            drawn_cards = [c.deck[2 * k], c.deck[2 * k + 1]]
            could_show.append({p: could_show[k][p] + drawn_cards for p in range(5)})
            seen = [i for p in range(5) for i in could_show[k][p]]
            could_hold.append(list(dict.fromkeys(could_hold[k] + seen)))

        for p in range(5):
            for i in could_show[0][p]:
                self.display[0, p, i] = model.new_constant(1)
        for i in could_hold[0]:
            self.hand[0, i] = model.new_constant(1)

        for k in range(turns):
            # Step 1: take one display card.
            for p in range(5):
                self.take[k, p] = model.new_bool_var(f"take_{k}_{p}")
            model.add_exactly_one(self.take[k, p] for p in range(5))
            took = {
                (p, i): _and(model, f"took_{k}_{p}_{i}", self.take[k, p], self.display[k, p, i])
                for p in range(5)
                for i in could_show[k][p]
            }
            taken: dict[int, Expr] = {}
            for (_, i), var in took.items():
                taken[i] = taken.get(i, 0) + var

            # Step 2: play one card of the hand (the taken card included).
            playable = list(dict.fromkeys(could_hold[k] + list(taken)))
            for i in playable:
                var = model.new_bool_var(f"play_{k}_{i}")
                model.add(var <= self.hand.get((k, i), 0) + taken.get(i, 0))
                self.play[k, i] = var
            model.add_exactly_one(self.play[k, i] for i in playable)
            for i in could_hold[k + 1]:
                held = self.hand.get((k, i), 0) + taken.get(i, 0) - self.play.get((k, i), 0)
                var = model.new_bool_var(f"hand_{k + 1}_{i}")
                model.add(var == held)
                self.hand[k + 1, i] = var
            model.add(sum(self.hand[k + 1, i] for i in could_hold[k + 1]) == 2)

            # Step 3: the second card, from the display position of the played number
            # unless that position was just taken (or the number is 0/6): then the deck's top.
            source: dict[int, cp_model.IntVar] = {}
            for p in range(5):
                number = sum(self.play[k, i] for i in playable if c.number[i] == p + 1)
                source[p] = _and(model, f"source_{k}_{p}", number, 1 - self.take[k, p])
            from_deck = 1 - sum(source.values())
            pulled = {
                (p, i): _and(model, f"pulled_{k}_{p}_{i}", source[p], self.display[k, p, i])
                for p in range(5)
                for i in could_show[k][p]
            }
            second: dict[int, Expr] = {c.deck[2 * k]: from_deck}
            for (_, i), var in pulled.items():
                second[i] = second.get(i, 0) + var
            for i, expr in second.items():
                self.second[k, i] = expr

            # Areas: the played card to one, the second card to the other.
            scope = model.new_bool_var(f"to_scope_{k}")
            self.to_scope[k] = scope
            for i in dict.fromkeys(playable + list(second)):
                played = self.play.get((k, i), 0)
                drawn = second.get(i, 0)
                played_up = (
                    _and(model, f"played_up_{k}_{i}", played, scope) if (k, i) in self.play else 0
                )
                drawn_up = _and(model, f"drawn_up_{k}_{i}", drawn, scope) if i in second else 0
                self.scope_card[k, i] = played_up + drawn - drawn_up
                self.note_card[k, i] = played - played_up + drawn_up

            # Step 4: refill. A position keeps its card unless taken or pulled; the lower gap
            # gets the deck's top, the higher the next (the top went as the second card when
            # only one gap is left).
            if k + 1 == turns:
                continue
            top, next_top = c.deck[2 * k], c.deck[2 * k + 1]
            for p in range(5):
                for i in could_show[k][p]:
                    kept = self.display[k, p, i] - took[p, i] - pulled[p, i]
                    var = model.new_bool_var(f"display_{k + 1}_{p}_{i}")
                    model.add(var == kept)
                    self.display[k + 1, p, i] = var
                self.display[k + 1, p, top] = model.new_bool_var(f"display_{k + 1}_{p}_{top}")
                self.display[k + 1, p, next_top] = model.new_bool_var(
                    f"display_{k + 1}_{p}_{next_top}"
                )
                model.add(
                    self.display[k + 1, p, top] + self.display[k + 1, p, next_top]
                    == self.take[k, p] + source[p]
                )
            model.add(sum(self.display[k + 1, p, top] for p in range(5)) == 1 - from_deck)
            model.add(sum(self.display[k + 1, p, next_top] for p in range(5)) == 1)
            for p in range(5):
                later = [self.display[k + 1, q, next_top] for q in range(p + 1, 5)]
                model.add(self.display[k + 1, p, top] <= sum(later))

        # The final note: one of the two cards left in hand.
        self.final: dict[int, cp_model.IntVar] = {}
        for i in could_hold[turns]:
            self.final[i] = model.new_bool_var(f"final_{i}")
            model.add(self.final[i] <= self.hand[turns, i])
        model.add_exactly_one(self.final.values())

    # -- the telescope -------------------------------------------------------------------------

    def _add_telescope(self) -> None:
        c, model, turns = self.c, self.model, self.turns
        start = c.root
        self.slot: dict[tuple[int, int], cp_model.IntVar] = {}
        self.face_down: dict[int, cp_model.IntVar] = {}
        open_slots = [s for s in self.slots if not start.filled >> s & 1]
        # typed[k, s, kind]: a face-up card of that kind lies on s before turn k.
        typed: dict[tuple[int, int, int], Expr] = {
            (0, s, kind): int(start.typed[kind] >> s & 1) for s in self.slots for kind in KINDS
        }
        self.stars: dict[int, Expr] = {kind: start.stars[kind] for kind in KINDS}
        sums: list[Expr] = list(start.sums)
        for k in range(turns):
            for s in open_slots:
                self.slot[k, s] = model.new_bool_var(f"slot_{k}_{s}")
            model.add_exactly_one(self.slot[k, s] for s in open_slots)
            occupied = {s: sum(self.slot[j, s] for j in range(k)) for s in open_slots}
            for s in open_slots:
                model.add(occupied[s] + self.slot[k, s] <= 1)
            card_kind = {
                kind: sum(
                    expr
                    for (turn, i), expr in self.scope_card.items()
                    if turn == k and c.kind[i] == kind
                )
                for kind in KINDS
            }

            # The placement rule: a card of a present type goes next to that type, and face
            # down (anywhere) only when no empty slot is next to it.
            present, next_to, blocked = {}, {}, []
            for kind in KINDS:
                present[kind] = _or(
                    model, f"present_{k}_{kind}", [typed[k, s, kind] for s in self.slots]
                )
                for s in open_slots:
                    next_to[s, kind] = _or(
                        model,
                        f"next_to_{k}_{s}_{kind}",
                        [typed[k, n, kind] for n in _bits(c.neighbors[s])],
                    )
                room = _or(
                    model,
                    f"room_{k}_{kind}",
                    [
                        _and(
                            model, f"free_next_to_{k}_{s}_{kind}", next_to[s, kind], 1 - occupied[s]
                        )
                        for s in open_slots
                    ],
                )
                blocked.append(
                    _and(model, f"blocked_{k}_{kind}", card_kind[kind], present[kind], 1 - room)
                )
            face_down = model.new_bool_var(f"face_down_{k}")
            model.add(face_down == sum(blocked))
            self.face_down[k] = face_down
            for kind in KINDS:
                for s in open_slots:
                    # face up on s, type present ⇒ s is next to the type
                    model.add(
                        next_to[s, kind]
                        >= self.slot[k, s] + card_kind[kind] + present[kind] - face_down - 2
                    )

            # The telescope after the turn: the card's type on its slot when face up.
            for s in self.slots:
                for kind in KINDS:
                    typed[k + 1, s, kind] = typed[k, s, kind]
            for s in open_slots:
                for kind in KINDS:
                    up = _and(
                        model, f"up_{k}_{s}_{kind}", self.slot[k, s], card_kind[kind], 1 - face_down
                    )
                    typed[k + 1, s, kind] += up

            # Stars of face-up cards.
            for (turn, i), expr in self.scope_card.items():
                if turn == k and c.kind[i] != SATELLITE and c.card_stars[i]:
                    up = _and(model, f"stars_up_{k}_{i}", expr, 1 - face_down)
                    self.stars[c.kind[i]] += c.card_stars[i] * up

            # Section sums: the card's telescope number (0/6 is 6), 3 face down.
            number = model.new_int_var(1, 6, f"number_{k}")
            shown = sum(
                c.telescope_number[i] * expr
                for (turn, i), expr in self.scope_card.items()
                if turn == k
            )
            model.add(number == shown).only_enforce_if(face_down.Not())
            model.add(number == FACE_DOWN_NUMBER).only_enforce_if(face_down)
            for j, section in enumerate(c.section_slots):
                inside = model.new_bool_var(f"in_section_{k}_{j}")
                model.add(inside == sum(self.slot[k, s] for s in open_slots if section >> s & 1))
                value = model.new_int_var(0, 6, f"section_value_{k}_{j}")
                model.add(value == number).only_enforce_if(inside)
                model.add(value == 0).only_enforce_if(inside.Not())
                sums[j] += value
        self.section_sums = sums
        self.typed_at_end = {kind: [typed[turns, s, kind] for s in self.slots] for kind in KINDS}

    # -- the notebook --------------------------------------------------------------------------

    def _add_notebook(self) -> None:
        c, model, turns = self.c, self.model, self.turns
        in_notebook: dict[int, Expr] = {}
        for (_, i), expr in self.note_card.items():
            in_notebook[i] = in_notebook.get(i, 0) + expr
        for i, var in self.final.items():
            in_notebook[i] = in_notebook.get(i, 0) + var
        start = c.ids.index(c.puzzle.notebook_start)
        in_notebook[start] = in_notebook.get(start, 0) + 1
        # Readings: a 0/6 card reads 0 or 6, a satellite joins any type's group.
        holds: dict[tuple[int, int], list[Expr]] = {}
        for i, expr in in_notebook.items():
            add_readings(model, holds, i, c.kind[i], c.number[i], expr)
        del turns
        # One run per type (or none), every number in it present.
        self.run: dict[tuple[int, int, int], cp_model.IntVar] = {}
        for kind in KINDS:
            present = {}
            for n in range(7):
                terms = holds.get((kind, n), [])
                present[n] = model.new_bool_var(f"number_{kind}_{n}")
                model.add(present[n] <= sum(terms))
            runs = []
            for low in range(7):
                for high in range(low, 7):
                    var = model.new_bool_var(f"run_{kind}_{low}_{high}")
                    for n in range(low, high + 1):
                        model.add_implication(var, present[n])
                    self.run[kind, low, high] = var
                    runs.append(var)
            model.add(sum(runs) <= 1)

    # -- the objective -------------------------------------------------------------------------

    def _add_objective(self) -> None:
        c, model = self.c, self.model
        terms: list[Expr] = []
        # Per type: stars × run length, with the stars carried by the chosen run.
        for kind in KINDS:
            most = c.root.stars[kind] + sum(
                c.card_stars[i] for i in self.cards if c.kind[i] == kind and i != 0
            )
            carried_all = []
            for (k, low, high), run in self.run.items():
                if k != kind:
                    continue
                carried = model.new_int_var(0, most, f"carried_{kind}_{low}_{high}")
                model.add(carried <= self.stars[kind])
                model.add(carried <= most * run)
                terms.append((high - low + 1) * carried)
                carried_all.append(carried)
            # At most one run carries the stars (tightens the linear relaxation).
            model.add(sum(carried_all) <= self.stars[kind])
        # Sections beaten.
        self.won = []
        for j, total in enumerate(self.section_sums):
            won = model.new_bool_var(f"won_{j}")
            model.add(total >= c.need[j]).only_enforce_if(won)
            self.won.append(won)
            terms.append(SECTION_BONUS * won)
        # Diversity: every type face up in the telescope.
        self.diverse = model.new_bool_var("diverse")
        for kind in KINDS:
            model.add(sum(self.typed_at_end[kind]) >= 1).only_enforce_if(self.diverse)
        terms.append(DIVERSITY_BONUS * self.diverse)
        self.objective: Expr = sum(terms)
        model.maximize(self.objective)

    # -- restrictions, hints and extraction -----------------------------------------------------

    def fix_telescope(self, cards: frozenset[int], among: tuple[int, ...]) -> None:
        """Only the plans that put, of the cards ``among``, exactly ``cards`` in the telescope
        (:mod:`.stellar_solo_split` realizes a split of the set relaxation this way)."""
        model = self.model
        placed: dict[int, Expr] = {}
        for (_, i), expr in self.scope_card.items():
            placed[i] = placed.get(i, 0) + expr
        for i in among:
            model.add(placed.get(i, 0) == int(i in cards))
        # Redundant, each implied by the lines above; they let CP-SAT see the restriction
        # turn by turn (measured on the 11-turn deals' first splits: 1.5-6 times less
        # deterministic time to settle a set, docs/benchmarks.md).
        others = frozenset(among) - cards
        for (_, i), expr in self.scope_card.items():
            if i in others:
                model.add(expr == 0)
        for (_, i), expr in self.note_card.items():
            if i in cards:
                model.add(expr == 0)
        for (k, i), var in self.play.items():
            if i in cards:
                model.add_implication(var, self.to_scope[k])
            elif i in others:
                model.add_implication(var, ~self.to_scope[k])
        for (k, i), expr in self.second.items():
            if i in cards:
                model.add(expr + self.to_scope[k] <= 1)
            elif i in others:
                model.add(expr <= self.to_scope[k])
        for i, var in self.final.items():
            if i in cards:
                model.add(var == 0)
        self._conserve(cards)

    def fix_flow(self, turns: list[tuple[int, int, bool]], final: int) -> None:
        """Only the plans that, turn by turn, take the display position, play the card and
        send it to the telescope or not as ``turns`` say, and note ``final`` last: what is
        left to choose is where the telescope cards go."""
        for literal in self.flow_literals(turns, final):
            self.model.add_bool_and([literal])

    def flow_literals(
        self, turns: list[tuple[int, int, bool]], final: int
    ) -> list[cp_model.LiteralT]:
        """The literals :meth:`fix_flow` makes true (as assumptions, one model serves every
        flow)."""
        literals: list[cp_model.LiteralT] = []
        for k, (taken, played, to_telescope) in enumerate(turns):
            literals += [self.take[k, taken], self.play[k, played]]
            literals.append(self.to_scope[k] if to_telescope else self.to_scope[k].negated())
        return [*literals, self.final[final]]

    def _conserve(self, cards: frozenset[int]) -> None:
        """Each turn places one of ``cards`` (the telescope's, all still to come): before
        turn ``k`` exactly ``turns - k`` of them are in the hand, the display or the deck
        still to be drawn (one left behind could never be placed)."""
        deck = self.c.deck
        for k in range(self.turns):
            held = [var for (turn, i), var in self.hand.items() if turn == k and i in cards]
            shown = [var for (turn, _, i), var in self.display.items() if turn == k and i in cards]
            coming = sum(1 for d in range(2 * k, 2 * self.turns - 1) if deck[d] in cards)
            self.model.add(sum(held) + sum(shown) + coming == self.turns - k)

    def add_hint(self, hint: tuple[list[Step], int]) -> None:
        """Suggest a plan's decisions (CP-SAT completes the rest of the assignment)."""
        steps, final = hint
        for k, (t, played, area, slot, _) in enumerate(steps):
            for p in range(5):
                self.model.add_hint(self.take[k, p], p == t)
            for (turn, i), var in self.play.items():
                if turn == k:
                    self.model.add_hint(var, i == played)
            self.model.add_hint(self.to_scope[k], area == TELESCOPE)
            for (turn, s), var in self.slot.items():
                if turn == k:
                    self.model.add_hint(var, s == slot)
        for i, var in self.final.items():
            self.model.add_hint(var, i == final)

    def steps(
        self, solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback
    ) -> tuple[list[Step], int]:
        c = self.c
        steps: list[Step] = []
        for k in range(self.turns):
            (t,) = [p for p in range(5) if solver.boolean_value(self.take[k, p])]
            (played,) = [
                i for (turn, i), v in self.play.items() if turn == k and solver.boolean_value(v)
            ]
            (slot,) = [
                s for (turn, s), v in self.slot.items() if turn == k and solver.boolean_value(v)
            ]
            (second,) = [i for (turn, i), e in self.second.items() if turn == k and solver.value(e)]
            area = TELESCOPE if solver.boolean_value(self.to_scope[k]) else NOTEBOOK
            steps.append((t, played, area, slot, second))
        (final,) = [i for i, v in self.final.items() if solver.boolean_value(v)]
        del c
        return steps, final


class _StopAtCeiling(cp_model.CpSolverSolutionCallback):
    """Stops CP-SAT at a plan that reaches ``ceiling`` (a proven bound, or ``None``): CP-SAT
    does not always read the cap as a bound on its objective (measured on 11-turn deal 12,
    restricted to a telescope set: it found a plan at the cap and still ran on to its limit
    of 12 deterministic seconds)."""

    def __init__(self, ceiling: int | None):
        super().__init__()
        self.ceiling = ceiling
        self.reached = False

    def on_solution_callback(self) -> None:
        if self.ceiling is not None and round(self.objective_value) >= self.ceiling:
            self.reached = True
            self.stop_search()


@contextmanager
def _watching(solver: cp_model.CpSolver, interrupt: Callable[[], bool] | None) -> Iterator[None]:
    """Stops ``solver``'s search, from a thread, once ``interrupt`` says so."""
    if interrupt is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(INTERRUPT_POLL):
            if interrupt():
                solver.stop_search()
                return

    watcher = threading.Thread(target=watch, name="cp-sat-interrupt", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def _quick_bound(compiled: Compiled) -> int:
    """The search's quick upper bound at the start (the final score when no turn is left)."""
    root = compiled.root
    if root.k == compiled.turns:
        return compiled.final_note(root)[0]
    return BranchAndBound(compiled).bound(root)


def cp_sat_solo(
    puzzle: SoloPuzzle,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    hint: list[Move] | None = None,
    ceiling: int | None = None,
    restrict: Callable[[SoloModel], None] | None = None,
    work: float | None = None,
    interrupt: Callable[[], bool] | None = None,
) -> SoloAnswer:
    """The optimum by CP-SAT over all the turns (:class:`SoloModel`), certified; ``hint`` is
    a plan (legal, from the start) to start from; ``ceiling`` a proven upper bound on the
    optimum (from the search): a plan that reaches it is optimal, so CP-SAT stops there.
    ``restrict`` adds constraints to the model: the answer is then about the plans it
    allows (optimal among them, or infeasible when there are none). ``work`` caps CP-SAT's
    deterministic time (the same on every machine) besides the wall-clock ``time_limit``;
    ``interrupt``, asked every :data:`INTERRUPT_POLL` seconds, stops it early (news from
    another process: the answer is then as if time had run out)."""
    started = time.perf_counter()
    compiled = Compiled(puzzle)
    built = SoloModel(compiled)
    if restrict is not None:
        restrict(built)
    if hint:
        built.add_hint(compiled.to_steps(hint))
    if ceiling is not None:
        built.model.add(built.objective <= ceiling)
    return solve_built(
        built, started, time_limit, seed, ceiling=ceiling, work=work, interrupt=interrupt
    )


def solve_built(
    built: SoloModel,
    started: float,
    time_limit: float,
    seed: int,
    *,
    ceiling: int | None = None,
    work: float | None = None,
    interrupt: Callable[[], bool] | None = None,
) -> SoloAnswer:
    """:func:`cp_sat_solo` once its model is built (with any assumptions set): solve, then
    replay and score the plan by the rules engine."""
    compiled, puzzle = built.c, built.c.puzzle
    solver = make_solver(time_limit, seed)
    solver.parameters.linearization_level = LINEARIZATION_LEVEL
    if work is not None:
        solver.parameters.max_deterministic_time = work
    stopper = _StopAtCeiling(ceiling)
    with _watching(solver, interrupt):
        status = cp_status(solver.solve(built.model, stopper))
    if status is Status.FEASIBLE and stopper.reached:
        status = Status.OPTIMAL  # a plan at a proven bound
    elapsed = time.perf_counter() - started
    # CP-SAT's bound means something only once it has a solution: stopped before one, it can
    # read 0 (measured on an 11-turn deal with a tiny limit); the search's quick bound holds.
    if status.has_value:
        bound: int | None = int(solver.best_objective_bound + 1e-6)
    else:
        bound = None if status is Status.INFEASIBLE else _quick_bound(compiled)
    if not status.has_value:
        return SoloAnswer(status, None, [], bound, elapsed, "cp-sat", solver.num_branches)
    steps, last_note = built.steps(solver)
    plan = compiled.to_moves(steps, last_note)
    claimed = round(solver.objective_value)
    final, total = replay(puzzle, plan)
    if status is Status.OPTIMAL and total != claimed:
        raise AssertionError(f"cp-sat: the plan scores {total} by the rules, not {claimed}")
    if total < claimed:
        raise AssertionError(f"cp-sat: the plan scores {total} by the rules, below {claimed}")
    bound = total if status is Status.OPTIMAL else bound
    elapsed = time.perf_counter() - started
    return SoloAnswer(status, total, plan, bound, elapsed, "cp-sat", solver.num_branches, final)
