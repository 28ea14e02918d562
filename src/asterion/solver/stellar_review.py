"""A post-mortem of a played two-player Stellar game, move by move, as the mover saw it.

Stellar hides the opponent's hand and the deck, so a move is weighed as :func:`advise`
weighs one: by the mover's expected final score over sampled deals of the cards it could not
see, each rolled out to the end by the greedy policy in both seats. For every move with a
choice, the played move and the ``width`` moves the greedy valuation rates highest are
sampled on the same deals (common random numbers); the *best* is the candidate with the
highest mean, and the move's *loss* is the mean, over the deals, of the best's value less
the played move's, with the 95% confidence interval of that paired difference. A move whose
interval lies above 0 is a *clear* loss; one with a single distinct option is *forced* and
loses nothing.

These are estimates: the loss is against the best of the candidates only, with greedy play
after the move, and picking the highest of several noisy means favours the best a little
(more samples shrink both). The whole review runs within one time limit; moves not reached
are unknown, never guessed.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asterion.models.stellar import Move, StellarState, score
from asterion.solver.stats import confidence_interval
from asterion.solver.stellar_play import (
    Objective,
    PlayedComparison,
    compare_played,
    distinct_moves,
    mover,
)

DEFAULT_REVIEW_SAMPLES = 24
"""Sampled deals per move reviewed."""
DEFAULT_REVIEW_WIDTH = 6
"""Moves the played one is compared with: those the greedy valuation rates highest."""
DEFAULT_REVIEW_TIME_LIMIT = 120.0


@dataclass(frozen=True)
class MoveReview:
    index: int
    """The move's place in the record, from 0."""
    player: int
    played: str
    forced: bool
    """Only one distinct move was legal: nothing to weigh."""
    comparison: PlayedComparison | None
    """None when forced, or when the time ran out first."""

    @property
    def known(self) -> bool:
        return self.forced or self.comparison is not None

    @property
    def differences(self) -> tuple[int, ...]:
        """The best candidate's value less the played move's, deal by deal."""
        c = self.comparison
        if c is None:
            return ()
        best, played = c.values[c.best], c.values[c.played]
        return tuple(b - p for b, p in zip(best, played, strict=True))

    @property
    def loss(self) -> float | None:
        if self.forced:
            return 0.0
        return statistics.fmean(self.differences) if self.comparison is not None else None

    @property
    def loss_interval(self) -> tuple[float, float] | None:
        if self.forced:
            return (0.0, 0.0)
        return confidence_interval(self.differences) if self.comparison is not None else None

    @property
    def clear(self) -> bool:
        """The loss's interval lies above 0."""
        interval = self.loss_interval
        return interval is not None and interval[0] > 0

    @property
    def best(self) -> str | None:
        c = self.comparison
        return None if c is None else c.candidates[c.best].describe()

    def to_json(self) -> dict[str, object]:
        c = self.comparison
        interval = self.loss_interval
        return {
            "move": self.index,
            "player": self.player,
            "played": self.played,
            "forced": self.forced,
            "best": self.best,
            "played_mean": None if c is None else round(c.candidates[c.played].mean, 4),
            "best_mean": None if c is None else round(c.candidates[c.best].mean, 4),
            "loss": None if self.loss is None else round(self.loss, 4),
            "loss_ci95": None if interval is None else [round(x, 4) for x in interval],
            "clear": self.clear,
            "candidates": None if c is None else len(c.candidates),
        }


@dataclass(frozen=True)
class StellarReview:
    moves: tuple[MoveReview, ...]
    samples: int
    width: int
    seed: int
    final: tuple[int, int] | None
    """Both final scores, when the record reaches the end of the game."""

    @property
    def decided(self) -> bool:
        return all(m.known for m in self.moves)

    def player_summary(self, player: int) -> dict[str, object]:
        own = [m for m in self.moves if m.player == player]
        return {
            "player": player,
            "moves": len(own),
            "loss": round(sum(m.loss or 0.0 for m in own), 4),
            "clear": sum(1 for m in own if m.clear),
            "unknown": sum(1 for m in own if not m.known),
        }

    def to_json(self) -> dict[str, object]:
        return {
            "samples": self.samples,
            "width": self.width,
            "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "players": [self.player_summary(p) for p in (0, 1)],
            "final_scores": None if self.final is None else list(self.final),
        }


def review_game(
    states: Sequence[StellarState],
    moves: Sequence[Move],
    *,
    samples: int = DEFAULT_REVIEW_SAMPLES,
    width: int = DEFAULT_REVIEW_WIDTH,
    seed: int = 0,
    objective: Objective = "score",
    time_limit: float = DEFAULT_REVIEW_TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> StellarReview:
    """Each of ``moves`` (made from ``states[i]``) weighed as the mover saw it, within one
    shared ``time_limit``."""
    deadline = time.perf_counter() + time_limit
    reviews = []
    for i, move in enumerate(moves):
        state = states[i]
        forced = distinct_moves(state) == 1
        comparison = None
        if not forced:
            comparison = compare_played(
                state,
                move,
                width=width,
                samples=samples,
                seed=seed,
                objective=objective,
                deadline=deadline,
            )
        reviews.append(MoveReview(i, mover(state), str(move), forced, comparison))
        if progress is not None:
            progress(i + 1, len(moves))
    end = states[len(moves)]
    final = None
    if end.is_over:
        first, second = score(end)[:2]
        final = (first.total, second.total)
    return StellarReview(tuple(reviews), samples, width, seed, final)
