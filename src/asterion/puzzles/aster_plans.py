"""Counting the distinct shortest plans of an Aster reach question, exactly.

A puzzle is fair when its shortest plan is unique. "Unique" needs a precise meaning, since the
rules engine can make the same board change in several ways (``move_line`` and ``nudge`` both
move a star one step along a spoke; the same symbol may sit in two slots of the list):

**Two plans are the same plan when they pass through the same boards in the same order.**
A plan is the sequence of boards ``b0 → b1 → … → bL`` (``b0`` the start, each step one use of
a slot of the action list, slots used left to right, the target present in ``bL`` and in no
earlier board). Which symbol or slot made a step does not matter, as the player sees the same
boards; a different point, a different star, or the same moves in another order (different
intermediate boards) makes another plan. A board is the stars by point; reserves follow from
it, since stars are conserved. A step that leaves the board as it was (``generate`` on one's
own star, ``supernova`` with no star out) is not a step: it never shortens a plan.

The counter walks the plans layer by layer, one action per layer. Its search state is a board
plus the first slot still usable: for a given board sequence the earliest slot assignment is
found greedily and leaves every later choice open, so ``(board, first usable slot)`` states
partition the plans, and the number of plans reaching a state is summed over its predecessors.
Admissible pruning keeps it small: one action fills at most one point of a placement, so a
board that still lacks ``m`` stars of every target placement after ``k`` actions cannot finish
within ``k + m``. Iterative deepening on that bound finds the minimum ``L``; one more layer
counts the plans of length ``L + 1`` (the near misses a solver must rule out).

The result is exact whenever ``complete`` is true: the walk is deterministic, bounded by a
number of states (the same on every machine) and, as a safety net, by a time limit.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from asterion.models.aster import Action, AsterState, Color
from asterion.models.aster_board import Board
from asterion.models.aster_cards import BOARD_ACTIONS, ActionKind
from asterion.solver.aster_reach import Certificate, PlanStep, ReachQuestion, certify

DEFAULT_MAX_STATES = 400_000
"""States the counter may expand before it gives up (``complete`` false)."""

Stars = tuple[Color | None, ...]


@dataclass(frozen=True)
class PlanCount:
    """How many distinct plans of the shortest length (and one more) a question has.

    ``min_actions`` is ``None`` when no plan exists within the slots (or the walk stopped);
    ``plans`` counts plans of length ``min_actions``, ``near_misses`` those of length
    ``min_actions + 1``; ``effort`` is the number of search states expanded, summed over the
    deepening rounds; ``certificate`` is the rules engine's replay of the plan when
    ``plans == 1``.
    """

    min_actions: int | None
    plans: int
    near_misses: int
    effort: int
    complete: bool
    certificate: Certificate | None = None

    @property
    def is_unique(self) -> bool:
        return self.complete and self.plans == 1


Masks = tuple[int, int, int, int]
"""The board as one bit mask of points per color (bit ``i`` = point ``i`` of the board)."""


@dataclass(frozen=True)
class _Geometry:
    """The board as bit masks, for the fast successor walk."""

    lines: tuple[tuple[tuple[int, int], ...], ...]
    """Per point: (target, mask of the points between) along a straight line."""
    line_mask: tuple[int, ...]
    ring_mask: tuple[int, ...]
    neighbors: tuple[tuple[int, ...], ...]
    generation: tuple[int, ...]
    blocking: bool

    @staticmethod
    @cache
    def of(board: Board) -> _Geometry:
        """The tables of ``board`` (computed once per board parameters)."""
        index = board.index
        lines = []
        for p in board.points:
            targets = []
            for line in board.lines_through(p):
                for t in line:
                    if t != p:
                        between = _mask(index[x] for x in board.between(line, p, t))
                        targets.append((index[t], between))
            lines.append(tuple(targets))
        line_mask = tuple(_mask(t for t, _ in targets) for targets in lines)
        ring_mask = tuple(
            _mask(index[t] for t in board.ring_points(p) if t != p) for p in board.points
        )
        neighbors = tuple(tuple(index[t] for t in board.neighbors(p)) for p in board.points)
        generation = tuple(index[g] for g in board.generation_points)
        return _Geometry(
            tuple(lines), line_mask, ring_mask, neighbors, generation, board.line_blocking
        )


def _mask(indices: Iterable[int]) -> int:
    result = 0
    for i in indices:
        result |= 1 << i
    return result


def _bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def to_masks(stars: Stars) -> Masks:
    masks = [0, 0, 0, 0]
    for i, color in enumerate(stars):
        if color is not None:
            masks[color.number] |= 1 << i
    return (masks[0], masks[1], masks[2], masks[3])


_Move = tuple[ActionKind, int, int | None, int | None, int | None]
"""(kind, flat slot, point, origin, target) of one step, by point index."""


class _Walker:
    def __init__(self, question: ReachQuestion) -> None:
        state = question.state
        self.question = question
        self.board = state.board
        self.geometry = _Geometry.of(state.board)
        self.player = state.player.number
        self.total = state.reserve_of(state.player) + sum(
            1 for c in state.stars if c is state.player
        )
        self.full = (1 << len(self.board.points)) - 1
        self.slots = question.slots
        self.targets = [_mask(self.board.index[p] for p in pl) for pl in question.targets]
        # For each flat position, the earliest slot of each board-changing kind at or after it.
        self.next_of_kind: list[list[tuple[int, ActionKind]]] = []
        for start in range(len(self.slots) + 1):
            first: dict[ActionKind, int] = {}
            for j in range(start, len(self.slots)):
                kind = self.slots[j].kind
                if kind in BOARD_ACTIONS and kind not in first:
                    first[kind] = j
            self.next_of_kind.append(sorted((j, k) for k, j in first.items()))
        self.usable_after = [
            sum(1 for s in self.slots[p:] if s.kind in BOARD_ACTIONS)
            for p in range(len(self.slots) + 1)
        ]

    def missing(self, masks: Masks) -> int:
        """Stars the closest target placement lacks (0: the target is present)."""
        empty = ~(masks[0] | masks[1] | masks[2] | masks[3])
        return min((placement & empty).bit_count() for placement in self.targets)

    def successors(self, masks: Masks, position: int) -> Iterator[tuple[Masks, int, _Move]]:
        """Every board one step away, with the position after the step and the step; a board
        may repeat (the caller keeps its earliest position, which comes first)."""
        for j, kind in self.next_of_kind[position]:
            for after, move in self._moves(masks, kind, j):
                yield after, j + 1, move

    def _moves(self, masks: Masks, kind: ActionKind, j: int) -> Iterator[tuple[Masks, _Move]]:
        g, player = self.geometry, self.player
        occupied = masks[0] | masks[1] | masks[2] | masks[3]
        empty = self.full & ~occupied
        own = masks[player]
        if kind in (ActionKind.GENERATE, ActionKind.GENERATE_TARGETED):
            if own.bit_count() >= self.total:
                return
            points = g.generation if kind is ActionKind.GENERATE else _bits(empty)
            for i in points:
                bit = 1 << i
                if own & bit:
                    continue  # generating over one's own star leaves the board as it was
                after = [m & ~bit for m in masks]
                after[player] |= bit
                yield _four(after), (kind, j, i, None, None)
        elif kind is ActionKind.SUPERNOVA:
            if own:
                after = list(masks)
                after[player] = 0
                yield _four(after), (kind, j, None, None, None)
        elif kind is ActionKind.NUDGE:
            for color, mask in enumerate(masks):
                for o in _bits(mask):
                    for t in g.neighbors[o]:
                        if empty >> t & 1:
                            yield _moved(masks, color, o, t), (kind, j, None, o, t)
        else:
            for o in _bits(own):
                if kind is ActionKind.MOVE_RING:
                    targets = list(_bits(g.ring_mask[o] & empty))
                elif g.blocking:
                    targets = [
                        t for t, between in g.lines[o] if empty >> t & 1 and not between & occupied
                    ]
                else:
                    targets = list(_bits(g.line_mask[o] & empty))
                for t in targets:
                    yield _moved(masks, player, o, t), (kind, j, None, o, t)


def _four(values: list[int]) -> Masks:
    return (values[0], values[1], values[2], values[3])


def _moved(masks: Masks, color: int, origin: int, target: int) -> Masks:
    after = list(masks)
    after[color] = after[color] & ~(1 << origin) | (1 << target)
    return _four(after)


MoveCode = int
"""One board change, as a plan's identity sees it: ``i`` = a star generated on point ``i``;
``SUPERNOVA_CODE``; ``MOVE_BASE * (1 + origin) + target`` = a star from origin to target
(point indices stay below ``MOVE_BASE``: 73 points on the largest board)."""
MOVE_BASE = 1 << 8
SUPERNOVA_CODE = -1

_Key = tuple[Masks, tuple[MoveCode, ...]]
"""A plan class so far: the board, and its moves as a sorted tuple (a multiset)."""


def move_code(move: _Move) -> MoveCode:
    _, _, point, origin, target = move
    if point is not None:
        return point
    if origin is not None and target is not None:
        return MOVE_BASE * (1 + origin) + target
    return SUPERNOVA_CODE


@dataclass
class _Round:
    """One bounded walk: plan classes per length up to ``bound``."""

    plans: dict[int, int]
    goals: dict[int, list[_Key]]
    parents: dict[tuple[int, _Key], tuple[_Key, _Move]]
    effort: int
    complete: bool
    exact: bool = True
    """False when the walk stopped at a second shortest plan: counts are lower bounds."""


def _walk(
    walker: _Walker, bound: int, budget: int, deadline: float, *, stop_at_second: bool = False
) -> _Round:
    """Every plan class of at most ``bound`` actions; with ``stop_at_second``, stop as soon as
    a second shortest one is found (the answer is then "not unique", ``complete`` true)."""
    root_masks = to_masks(walker.question.state.stars)
    # A placement lacking more than ``bound`` stars now cannot be completed in time: one
    # action fills at most one of its points.
    empty = ~(root_masks[0] | root_masks[1] | root_masks[2] | root_masks[3])
    targets = [pl for pl in walker.targets if (pl & empty).bit_count() <= bound]

    def missing(masks: Masks) -> int:
        holes = ~(masks[0] | masks[1] | masks[2] | masks[3])
        return min([(pl & holes).bit_count() for pl in targets], default=bound + 1)

    root: _Key = (root_masks, ())
    # Per plan class: the earliest usable slot (it leaves every later choice open) and the gap.
    layer: dict[_Key, list[int]] = {root: [0, missing(root_masks)]}
    plans: dict[int, int] = {}
    goals: dict[int, list[_Key]] = {}
    parents: dict[tuple[int, _Key], tuple[_Key, _Move]] = {}
    effort = 0
    for used in range(bound + 1):
        following: dict[_Key, list[int]] = {}
        for key in layer:
            position, gap = layer[key]
            if gap == 0:
                plans[used] = plans.get(used, 0) + 1
                goals.setdefault(used, []).append(key)
                if stop_at_second and plans[used] >= 2 and len(plans) == 1:
                    return _Round(plans, goals, parents, effort, True, exact=False)
                continue
            if used == bound:
                continue
            effort += 1
            if effort > budget or (effort % 256 == 0 and time.perf_counter() > deadline):
                return _Round(plans, goals, parents, effort, False)
            masks, moves = key
            for after, after_position, move in walker.successors(masks, position):
                child = (after, tuple(sorted((*moves, move_code(move)))))
                entry = following.get(child)
                if entry is not None:
                    # Reached already: keep the earliest slot, which leaves the most open.
                    if after_position < entry[0]:
                        entry[0] = after_position
                        parents[used + 1, child] = (key, move)
                    continue
                after_gap = missing(after)
                if used + 1 + after_gap > bound or after_gap > walker.usable_after[after_position]:
                    continue
                parents[used + 1, child] = (key, move)
                following[child] = [after_position, after_gap]
        layer = following
        if not layer:
            break
    return _Round(plans, goals, parents, effort, True)


def count_plans(
    question: ReachQuestion,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float = 60.0,
    stop_when_ambiguous: bool = False,
    actions_wanted: tuple[int, int | None] = (0, None),
) -> PlanCount:
    """Count the distinct shortest plans of ``question`` and the plans one action longer.

    For generators, two shortcuts that leave a rejected candidate's counts incomplete: with
    ``stop_when_ambiguous`` the walk stops at the second shortest plan (``plans`` is then 2, a
    lower bound, and ``near_misses`` is not counted); with ``actions_wanted = (low, high)`` it
    stops (``complete`` false) once no plan of at most ``high`` actions exists, and skips the
    near misses and the certificate when the shortest plan has fewer than ``low``.
    Own-stars-only questions are not supported (puzzles use any color).

    >>> from asterion.models.aster_files import parse_state
    >>> state = parse_state(
    ...     '{"stars": {"4N": "red", "4S": "blue"}, "player": "red",'
    ...     ' "actions": ["nudge", "move_line"]}')
    >>> count = count_plans(ReachQuestion.build(state, [[0, 0], [0, 1]]))
    >>> count.min_actions, count.plans, count.is_unique
    (1, 3, False)
    """
    if question.own_stars_only:
        raise ValueError("count_plans counts plans of any color; own_stars_only is not supported")
    deadline = time.perf_counter() + time_limit
    walker = _Walker(question)
    if not walker.targets:
        return PlanCount(None, 0, 0, 0, True)
    effort = 0
    bound = walker.missing(to_masks(question.state.stars))
    low, high = actions_wanted
    # Iterative deepening: the first bound with a plan is the minimum.
    while True:
        if high is not None and bound > high:
            return PlanCount(None, 0, 0, effort, False)
        walk = _walk(
            walker, bound, max_states - effort, deadline, stop_at_second=stop_when_ambiguous
        )
        effort += walk.effort
        if not walk.complete:
            return PlanCount(None, 0, 0, effort, False)
        if walk.plans:
            break
        if bound >= walker.usable_after[0]:
            return PlanCount(None, 0, 0, effort, True)
        bound += 1
    shortest = min(walk.plans)
    plans = walk.plans[shortest]
    if not walk.exact or shortest < low:
        return PlanCount(shortest, plans, 0, effort, walk.exact)
    certificate = None
    if plans == 1:
        certificate = certify(question, _steps(walker, walk, shortest))
    near = 0
    if shortest + 1 <= walker.usable_after[0]:
        longer = _walk(walker, shortest + 1, max_states - effort, deadline)
        effort += longer.effort
        if not longer.complete:
            return PlanCount(None, 0, 0, effort, False)
        near = longer.plans.get(shortest + 1, 0)
    return PlanCount(shortest, plans, near, effort, True, certificate)


def _steps(walker: _Walker, walk: _Round, length: int) -> list[PlanStep]:
    """The plan to the one goal of ``length`` actions, read back through the parents."""
    (key,) = walk.goals[length]
    moves = []
    for used in range(length, 0, -1):
        key, move = walk.parents[used, key]
        moves.append(move)
    points = walker.board.points
    steps = []
    for kind, j, point, origin, target in reversed(moves):
        slot = walker.slots[j]
        action = Action(
            kind,
            slot.index,
            point=None if point is None else points[point],
            origin=None if origin is None else points[origin],
            target=None if target is None else points[target],
        )
        steps.append(PlanStep(slot.turn, action))
    return steps


def board_sequence(certificate: Certificate) -> list[Stars]:
    """The boards a certified plan passes through (what makes two plans the same)."""
    return [state.stars for state in certificate.states]


def initial_state(question: ReachQuestion) -> AsterState:
    return question.state
