"""A post-mortem of a played two-player Nacht der Sterne game, with the draw order known.

Once a game is over its draw order is known, and the exact search of ``best-play``
(:func:`~asterion.solver.nacht_play.solve_known_order`) gives each position's value: seat 1's
final coins minus seat 2's when both play perfectly from there. A move's *loss*, for the
player who made it, is the value before it (what the best move keeps) less the value after
it, both seen from that player's side; the best move is the first of the search's optimal
line. A perfect game loses nothing at any move, and the losses of a seat add up to how far
it ended below what perfect play would have kept. This is hindsight: during the game the
players did not know the order, so a move that loses here may have been a fine bet.

Every position is searched under one deadline shared by the whole review; positions left
when it strikes are unknown, never guessed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asterion.models.nacht_game import Move, NachtState
from asterion.models.nacht_record import move_words
from asterion.solver.nacht_play import GameValue, solve_known_order
from asterion.solver.nacht_play_defaults import DEFAULT_EXACT_TIME_LIMIT
from asterion.solver.result import Status

OVER_SECONDS = 1.0
"""Time granted to a finished game's "search" (it only reads the coins) past the deadline."""


@dataclass(frozen=True)
class MoveReview:
    index: int
    """The move's place in the record, from 0."""
    player: int
    """Who made it (the decider: the knocker in a knock window), from 0."""
    played: str
    best: str | None
    """An optimal move there, in words (None when unknown or the game was over)."""
    value_before: int | None
    """The position's value before the move, seat 1 minus seat 2."""
    value_after: int | None

    @property
    def lost(self) -> int | None:
        """What the move gave away against perfect play, for the player who made it."""
        if self.value_before is None or self.value_after is None:
            return None
        sign = 1 if self.player == 0 else -1
        return sign * (self.value_before - self.value_after)

    def to_json(self) -> dict[str, object]:
        return {
            "move": self.index,
            "player": self.player,
            "played": self.played,
            "best": self.best,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "lost": self.lost,
        }


@dataclass(frozen=True)
class NachtReview:
    moves: tuple[MoveReview, ...]
    final_coins: tuple[int, ...]
    """The coins when the record stops."""

    @property
    def decided(self) -> bool:
        return all(m.lost is not None for m in self.moves)

    def lost_by(self, player: int) -> tuple[int, int]:
        """The player's known losses added up, and the moves whose loss is unknown."""
        own = [m for m in self.moves if m.player == player]
        return sum(m.lost or 0 for m in own), sum(1 for m in own if m.lost is None)

    def to_json(self) -> dict[str, object]:
        return {
            "moves": [m.to_json() for m in self.moves],
            "players": [
                {"lost": self.lost_by(p)[0], "unknown": self.lost_by(p)[1]} for p in (0, 1)
            ],
            "final_coins": list(self.final_coins),
        }


def review_known_order(
    states: Sequence[NachtState],
    moves: Sequence[Move],
    *,
    time_limit: float = DEFAULT_EXACT_TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> NachtReview:
    """Each of ``moves`` (made from ``states[i]`` to ``states[i + 1]``) against perfect play,
    every position searched within one shared ``time_limit``.

    :raises InputError: for other than 2 players, or a sky over the exact search's limit.
    """
    deadline = time.perf_counter() + time_limit
    values = []
    for i, state in enumerate(states):
        values.append(_value(state, deadline))
        if progress is not None:
            progress(i + 1, len(states))
    reviews = []
    for i, move in enumerate(moves):
        before, after = values[i], values[i + 1]
        best = None
        if before is not None and before.line:
            best = move_words(before.line[0][1], states[i])
        reviews.append(
            MoveReview(
                i,
                states[i].decider,
                move_words(move, states[i]),
                best,
                None if before is None else before.value,
                None if after is None else after.value,
            )
        )
    return NachtReview(tuple(reviews), states[-1].coins)


def _value(state: NachtState, deadline: float) -> GameValue | None:
    """The position's value within what is left of the time (None when none is left or the
    search did not finish); a finished game's value is its coin difference."""
    left = deadline - time.perf_counter()
    if state.is_over:  # (nothing to search: known even when the time is up)
        left = max(left, OVER_SECONDS)
    if left <= 0:
        return None
    answer = solve_known_order(state, time_limit=left)
    return answer if answer.status is Status.OPTIMAL else None
