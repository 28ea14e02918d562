"""Perft for Aster: how many distinct boards the active player's action list can reach.

As python-chess checks its move generator against published node counts, this counts the
boards (stars by point and color) reachable with the active player's remaining action list,
each slot used or skipped, in order, and how many of them first appear after 0, 1, 2, …
actions (a board reached with different numbers of actions counts under the smallest).

The search is breadth-first over the rules engine's own moves, with two pruning rules that
keep the count exact:

* a search state is the board plus the first usable slot (reserves follow from the board,
  since stars are conserved); for one board, a smaller first slot can do everything a larger
  one can, so a state is expanded only if its board was not reached before with a slot as
  small, in as few actions;
* for each action kind, only its earliest remaining slot is tried: a later slot of the same
  kind reaches nothing more.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from asterion.errors import TooLargeError
from asterion.models.aster import AsterState, apply_unchecked, slot_actions
from asterion.solver.result import check_clock

DEFAULT_MAX_STATES = 2_000_000
"""Search states perft may visit before it refuses the position as too large."""
MAX_STATES = 10_000_000
"""The most ``--max-states`` may allow: 2,000,000 states took 156 s and 2 GB before the
refusal (a 9-ring board, 13 actions), so more would run for many minutes and tens of GB."""
DEFAULT_TIME_LIMIT = 60.0
"""Seconds perft counts before it gives up (some 800,000 states on the benchmark machine)."""


@dataclass(frozen=True)
class PerftResult:
    boards: int
    by_actions: dict[int, int]
    """Boards first reached with exactly ``k`` actions, for ``k = 0 … len(actions)``."""

    def to_json(self) -> dict[str, object]:
        return {
            "boards": self.boards,
            "by_actions": {str(k): n for k, n in self.by_actions.items()},
        }


def first_slots_by_kind(state: AsterState) -> list[int]:
    """The earliest remaining slot of each action kind, in slot order."""
    seen, result = set(), []
    for slot in state.remaining_slots():
        if state.actions[slot] not in seen:
            seen.add(state.actions[slot])
            result.append(slot)
    return result


def perft(
    state: AsterState,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float = DEFAULT_TIME_LIMIT,
    on_layer: Callable[[int, int], None] | None = None,
) -> PerftResult:
    """Count the distinct boards reachable by ``state``'s active player this turn.

    ``on_layer(actions_used, boards_so_far)`` is called after each layer (for progress).

    :raises TooLargeError: if more than ``max_states`` search states would be visited.
    :raises OutOfTime: if the count is not done within ``time_limit`` seconds.
    """
    deadline = time.perf_counter() + time_limit
    first_seen: dict[tuple[object, ...], int] = {state.board_key(): 0}
    best_slot: dict[tuple[object, ...], int] = {state.board_key(): state.next_slot}
    layer = [state]
    visited = 1
    for used in range(1, len(state.actions) - state.next_slot + 1):
        following: list[AsterState] = []
        for current in layer:
            check_clock(deadline)
            for slot in first_slots_by_kind(current):
                for action in slot_actions(current, slot):
                    after = apply_unchecked(current, action)
                    key = after.board_key()
                    if best_slot.get(key, len(after.actions) + 1) <= after.next_slot:
                        continue
                    best_slot[key] = after.next_slot
                    first_seen.setdefault(key, used)
                    following.append(after)
                    visited += 1
                    if visited > max_states:
                        raise TooLargeError(
                            f"perft would visit more than {max_states} search states "
                            f"(the limit); try a shorter action list",
                            field="actions",
                        )
        if on_layer is not None:
            on_layer(used, len(first_seen))
        if not following:
            break
        layer = following
    by_actions = {k: 0 for k in range(len(state.actions) - state.next_slot + 1)}
    for k in first_seen.values():
        by_actions[k] += 1
    return PerftResult(len(first_seen), by_actions)
