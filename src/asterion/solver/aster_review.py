"""A post-mortem of a played Aster game: each turn against the best turn from its start.

A turn's *value* is what rules/aster.md's question 3 weighs: the claimed card's points plus
the claimant's own stars in the claimed placement (0 without a claim). For each turn of a
record (:mod:`asterion.models.aster_record`) the best turn from the same position is found
(:func:`~asterion.solver.aster_best_turn.best_turn`, its plan replayed by the rules engine),
and the turn *lost* the difference. The played turn is one of the turns the solver weighs,
so a proven best is never below it; a best not proven within the time limit leaves the loss
unknown. Only the turn itself is weighed, not what it sets up for later turns or leaves to
the opponents: a turn that claims less now may still be the better move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from asterion.models.aster import Claim, Color
from asterion.models.aster_record import GameRecord, PlayedTurn
from asterion.solver.aster_best_turn import BestTurnAnswer, best_turn
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status


@dataclass(frozen=True)
class TurnReview:
    number: int
    """The turn of the game, from 1."""
    played: PlayedTurn
    words: tuple[str, ...]
    value: int
    best: BestTurnAnswer | None
    """None when no constellation is face up (nothing could be claimed)."""

    @property
    def player(self) -> Color:
        return self.played.before.player

    @property
    def claim(self) -> Claim | None:
        made = self.played.claim
        return None if made is None else made[0]

    @property
    def best_value(self) -> int | None:
        """The best turn's value, if proven: 0 when no claim can be made at all."""
        if self.best is None or self.best.status is Status.INFEASIBLE:
            return 0
        if self.best.status is Status.OPTIMAL and self.best.best is not None:
            return self.best.best.value
        return None

    @property
    def lost(self) -> int | None:
        best = self.best_value
        return None if best is None else best - self.value

    def to_json(self) -> dict[str, object]:
        return {
            "turn": self.number,
            "player": self.player.value,
            "moves": list(self.words),
            "claim": None if self.claim is None else self.claim.abbr,
            "value": self.value,
            "best": None if self.best is None else self.best.to_json(),
            "lost": self.lost,
        }


@dataclass(frozen=True)
class GameReview:
    turns: tuple[TurnReview, ...]

    @property
    def decided(self) -> bool:
        """Whether every turn's loss is known."""
        return all(turn.lost is not None for turn in self.turns)

    @property
    def costliest(self) -> TurnReview | None:
        """The first turn that lost the most, if any lost anything."""
        known = [turn for turn in self.turns if turn.lost]
        return max(known, key=lambda turn: turn.lost or 0, default=None)

    def lost_by(self, player: Color) -> tuple[int, int]:
        """The player's known losses added up, and the turns whose loss is unknown."""
        own = [turn for turn in self.turns if turn.player is player]
        return sum(t.lost or 0 for t in own), sum(1 for t in own if t.lost is None)

    def to_json(self) -> dict[str, object]:
        players = dict.fromkeys(turn.player for turn in self.turns)
        return {
            "turns": [turn.to_json() for turn in self.turns],
            "players": {
                p.value: {"lost": self.lost_by(p)[0], "unknown": self.lost_by(p)[1]}
                for p in players
            },
        }


def turn_value(played: PlayedTurn) -> int:
    """The played turn's claimed card points plus the claimant's own stars in the claim."""
    made = played.claim
    if made is None:
        return 0
    claim, state = made
    own = sum(1 for p in claim.points if state.star_at(p) is state.player)
    return state.rules.catalog[claim.abbr].points + own


def review_game(
    record: GameRecord,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Each turn of ``record`` against the best turn from its start, each solve bounded by
    ``time_limit``."""
    reviews = []
    for number, (played, words) in enumerate(zip(record.turns, record.words, strict=True), 1):
        start = played.before
        best = best_turn(start, time_limit=time_limit) if start.offer else None
        reviews.append(TurnReview(number, played, words, turn_value(played), best))
        if progress is not None:
            progress(number, len(record.turns))
    return GameReview(tuple(reviews))
