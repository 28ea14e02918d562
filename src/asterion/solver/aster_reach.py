"""Reachability in Aster: can the active player form a constellation, and in how few actions?

A :class:`ReachQuestion` fixes a position, the target placements (a pattern under the
``transforms`` parameter), a number of turns ``K`` and the own-stars-only option. In the solo
view the other players pass, so ``K`` turns are one long list of *slots*: the rest of this
turn's action list, then the whole list again ``K − 1`` times. Each slot is used or skipped,
in order; a plan is the used slots with their details.

Every plan, however found, is replayed by the rules engine (:func:`certify`) before it is
reported: the engine applies each action (raising on an illegal one), passes the turn to the
other players and back between turns, and checks the target in the final position.

This module holds the question, the plan, the certificate, and the exact baseline: a
breadth-first search over the rules engine's own moves (:func:`search_reach`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from asterion.errors import InputError
from asterion.models.aster import (
    Action,
    AsterState,
    EndTurn,
    apply,
    apply_unchecked,
    slot_actions,
)
from asterion.models.aster_board import Vector
from asterion.models.aster_cards import BOARD_ACTIONS, ActionKind
from asterion.models.aster_patterns import Placement, Transforms, check_pattern, placements
from asterion.solver.result import SolveResult, Status

MAX_TURNS = 3
"""Turns a reach question may span: 3 turns of a 6-card row are 36 slots, past any real game."""
MAX_SLOTS = 40
"""Slots (actions in all turns) a reach question may span."""
DEFAULT_MAX_STATES = 200_000
"""Search states the plain search visits before it gives up (status unknown)."""


@dataclass(frozen=True)
class Slot:
    """One symbol of the flattened list: turn number (from 1), index in that turn's list."""

    turn: int
    index: int
    kind: ActionKind


@dataclass(frozen=True)
class ReachQuestion:
    """From ``state``, can the active player make one of ``targets`` present within ``turns``?"""

    state: AsterState
    targets: tuple[Placement, ...]
    turns: int = 1
    own_stars_only: bool = False

    @classmethod
    def build(
        cls,
        state: AsterState,
        pattern: Sequence[Vector],
        *,
        transforms: Transforms | None = None,
        turns: int = 1,
        own_stars_only: bool = False,
    ) -> ReachQuestion:
        """Check the inputs and enumerate the target placements.

        :raises InputError: for a pattern that cannot fit, a number of turns out of range, a
            game over, or more action slots than :data:`MAX_SLOTS`.
        """
        board = state.board
        shape = check_pattern(pattern, board)
        if not 1 <= turns <= MAX_TURNS:
            raise InputError(f"turns must be from 1 to {MAX_TURNS}, not {turns}", field="turns")
        if state.is_over:
            raise InputError("the game is over: no action can be played", field="over")
        if turns > 1 and state.final_turns_left is not None:
            raise InputError(
                "the game is in its final turns: only turns 1 can be asked", field="turns"
            )
        question = cls(
            state,
            tuple(placements(board, shape, transforms or state.rules.transforms)),
            turns,
            own_stars_only,
        )
        this_turn = len(state.remaining_slots())
        if this_turn > MAX_SLOTS:  # the position's own list is too long for any question
            raise InputError(
                f"{this_turn} action slots left this turn; the limit is {MAX_SLOTS}",
                field="actions",
            )
        if len(question.slots) > MAX_SLOTS:
            raise InputError(
                f"{len(question.slots)} action slots in {turns} turns; the limit is {MAX_SLOTS}",
                field="turns",
            )
        return question

    @property
    def slots(self) -> tuple[Slot, ...]:
        """The flattened list: this turn's remaining slots (none after a claim), then the full
        list for each later turn."""
        actions = self.state.actions
        first = [Slot(1, i, actions[i]) for i in self.state.remaining_slots()]
        later = [
            Slot(t, i, kind) for t in range(2, self.turns + 1) for i, kind in enumerate(actions)
        ]
        return tuple(first + later)

    def is_goal(self, state: AsterState) -> Placement | None:
        """A target placement present in ``state`` (with the most own stars), or ``None``."""
        best: Placement | None = None
        best_own = -1
        for placement in self.targets:
            colors = [state.star_at(p) for p in placement]
            if self.own_stars_only:
                ok = all(c is state.player for c in colors)
            else:
                ok = None not in colors
            own = sum(1 for c in colors if c is state.player)
            if ok and own > best_own:
                best, best_own = placement, own
        return best


@dataclass(frozen=True)
class PlanStep:
    turn: int
    action: Action

    def to_json(self, before: AsterState) -> dict[str, object]:
        """The documented plan item; ``before`` is the state the action is applied to."""
        action = self.action
        item: dict[str, object] = {"turn": self.turn, "action": action.kind.value}
        if action.point is not None:
            item["point"] = action.point
            destroyed = before.star_at(action.point)
            if action.kind is ActionKind.GENERATE:
                item["destroyed"] = None if destroyed is None else destroyed.value
        if action.origin is not None:
            item["from"] = action.origin
            item["to"] = action.target
        return item


@dataclass(frozen=True)
class Certificate:
    """What the rules engine saw when it replayed a plan."""

    steps: tuple[PlanStep, ...]
    states: tuple[AsterState, ...]
    """The state before each step, then the final state."""
    placement: Placement

    @property
    def final(self) -> AsterState:
        return self.states[-1]

    def plan_json(self) -> list[dict[str, object]]:
        return [step.to_json(before) for step, before in zip(self.steps, self.states, strict=False)]


class PlanError(AssertionError):
    """A plan that the rules engine rejects: a bug in the solver that produced it."""


def next_turn(question: ReachQuestion, state: AsterState) -> AsterState:
    """End the turn, let every other player pass, and start the player's next turn with the
    question's action list (the solo view)."""
    player = state.player
    state = apply(state, EndTurn())
    while state.player is not player:
        if state.is_over:
            raise PlanError("the game ended before the plan's last turn")
        state = apply(state, EndTurn())
    return replace(state, actions=question.state.actions, next_slot=0)


def certify(question: ReachQuestion, steps: Sequence[PlanStep]) -> Certificate:
    """Replay ``steps`` with the rules engine and check the target at the end.

    :raises PlanError: if an action is illegal, turns go backwards, or the target is not
        present at the end.
    """
    state, turn = question.state, 1
    states = []
    for step in steps:
        if step.turn < turn or step.turn > question.turns:
            raise PlanError(f"step in turn {step.turn} is out of order")
        while turn < step.turn:
            state, turn = next_turn(question, state), turn + 1
        states.append(state)
        try:
            state = apply(state, step.action)
        except ValueError as error:
            raise PlanError(f"the rules engine rejects the plan: {error}") from error
    states.append(state)
    placement = question.is_goal(state)
    if placement is None:
        raise PlanError("the plan does not form the target")
    return Certificate(tuple(steps), tuple(states), placement)


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReachAnswer:
    """A certified answer: ``certificate`` is set iff the status says a plan was found."""

    status: Status
    certificate: Certificate | None
    engine: str
    wall_time: float
    states_visited: int = 0

    @property
    def reachable(self) -> bool | None:
        if self.status.has_value:
            return True
        return False if self.status is Status.INFEASIBLE else None

    @property
    def min_actions(self) -> int | None:
        if self.status is Status.OPTIMAL and self.certificate is not None:
            return len(self.certificate.steps)
        return None

    def to_json(self) -> dict[str, object]:
        """The documented ``reach --json`` document."""
        cert = self.certificate
        return {
            "reachable": self.reachable,
            "status": self.status.value,
            "min_actions": self.min_actions,
            "plan": [] if cert is None else cert.plan_json(),
            "placement": [] if cert is None else sorted(cert.placement),
            "certified": cert is not None,
        }


def as_solve_result(answer: ReachAnswer) -> SolveResult[Certificate]:
    steps = None if answer.min_actions is None else float(answer.min_actions)
    return SolveResult(answer.status, answer.certificate, steps, steps, answer.wall_time)


# -- the exact baseline: breadth-first search over the rules engine --------------------------


@dataclass
class Node:
    state: AsterState
    turn: int
    parent: Node | None
    step: PlanStep | None


def _flat_position(question: ReachQuestion, node: Node) -> int:
    """Index in :attr:`ReachQuestion.slots` of the node's first usable slot."""
    first_turn = len(question.state.remaining_slots())
    if node.turn == 1:
        return node.state.next_slot - question.state.next_slot
    return first_turn + (node.turn - 2) * len(question.state.actions) + node.state.next_slot


def _successors(question: ReachQuestion, node: Node) -> Iterator[Node]:
    """One more action: for each kind, from its earliest remaining slot only (a later slot of
    the same kind reaches nothing more). Actions that cannot change the board are skipped:
    they never shorten a plan."""
    slots = question.slots[_flat_position(question, node) :]
    seen: set[ActionKind] = set()
    for slot in slots:
        if slot.kind in seen or slot.kind not in BOARD_ACTIONS:
            continue
        seen.add(slot.kind)
        state = node.state
        for _ in range(node.turn, slot.turn):
            state = next_turn(question, state)
        for action in slot_actions(state, slot.index):
            after = apply_unchecked(state, action)
            yield Node(after, slot.turn, node, PlanStep(slot.turn, action))


def steps_to(node: Node) -> list[PlanStep]:
    steps = []
    while node.step is not None and node.parent is not None:
        steps.append(node.step)
        node = node.parent
    return steps[::-1]


class BreadthFirst:
    """Every board the question's slots reach, in order of the number of actions used.

    A search state is the board plus the first usable flattened slot; a state is expanded
    only if its board was not reached before with a slot as early (in as few actions).
    Iterating yields ``(node, actions_used)`` for the start and each new state; it stops
    early, with :attr:`complete` false, when ``max_states`` or ``time_limit`` runs out.
    """

    def __init__(
        self,
        question: ReachQuestion,
        *,
        max_states: int = DEFAULT_MAX_STATES,
        time_limit: float | None = None,
    ) -> None:
        self.question = question
        self.max_states = max_states
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.visited = 0
        self.complete = False

    def _out_of_budget(self) -> bool:
        over_time = self.deadline is not None and time.perf_counter() > self.deadline
        return self.visited > self.max_states or over_time

    def __iter__(self) -> Iterator[tuple[Node, int]]:
        question = self.question
        root = Node(question.state, 1, None, None)
        best: dict[tuple[object, ...], int] = {root.state.board_key(): 0}
        self.visited = 1
        yield root, 0
        layer = [root]
        for used in range(1, len(question.slots) + 1):
            following = []
            for node in layer:
                for child in _successors(question, node):
                    position = _flat_position(question, child)
                    key = child.state.board_key()
                    if best.get(key, len(question.slots) + 1) <= position:
                        continue
                    best[key] = position
                    self.visited += 1
                    yield child, used
                    if self._out_of_budget():
                        return
                    following.append(child)
            if not following:
                break
            layer = following
        self.complete = True


def search_reach(
    question: ReachQuestion,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> ReachAnswer:
    """Breadth-first search by number of actions: the first goal found is a shortest plan.
    Returns ``UNKNOWN`` when ``max_states`` or ``time_limit`` runs out first."""
    started = time.perf_counter()
    search = BreadthFirst(question, max_states=max_states, time_limit=time_limit)
    for node, _ in search:
        if question.is_goal(node.state) is not None:
            certificate = certify(question, steps_to(node))
            elapsed = time.perf_counter() - started
            return ReachAnswer(Status.OPTIMAL, certificate, "search", elapsed, search.visited)
    status = Status.INFEASIBLE if search.complete else Status.UNKNOWN
    return ReachAnswer(status, None, "search", time.perf_counter() - started, search.visited)
