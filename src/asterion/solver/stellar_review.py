"""A post-mortem of a played two-player Stellar game, move by move, as the mover saw it.

Stellar hides the opponent's hand and the deck, so a move is weighed as :func:`advise`
weighs one: by the mover's expected final score over sampled deals of the cards it could not
see, each rolled out to the end by the greedy policy in both seats. For every move with a
choice, the played move and the ``width`` moves the greedy valuation rates highest are
sampled on the same deals (common random numbers).

The loss is *cross-fitted*: the deals are split in two halves, each half picks the candidate
with the highest mean on its own deals (the played move when it has it), and each deal
measures the pick of the *other* half: the move's loss is the mean over all the deals of
that pick's value less the played move's, with the 95% confidence interval of those paired
differences. Picking and measuring on the same deals would favour whichever candidate was
lucky, so that even a perfect player would seem to lose; measured on other deals the pick
is not favoured, but it is not always the truly best candidate either, so the loss is, on
average, a little below the loss against the truly best (an outside audit measured both
biases at about half a point a move at 32 samples). A loss whose interval lies above 0 is
*clear*; a move with a single distinct option is *forced* and loses nothing. The *best* move
suggested is the candidate with the highest mean over all the deals.

These are estimates against the best of the candidates only, with greedy play after the
move; more samples narrow them. The whole review runs within one time limit; moves not
reached are unknown, never guessed.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asterion.errors import InputError
from asterion.models.stellar import Move, StellarState, score
from asterion.solver.stats import confidence_interval
from asterion.solver.stellar_play import (
    Objective,
    PlayedComparison,
    compare_played,
    distinct_moves,
    mover,
)

DEFAULT_REVIEW_SAMPLES = 32
"""Sampled deals per move reviewed."""
DEFAULT_REVIEW_WIDTH = 6
"""Moves the played one is compared with: those the greedy valuation rates highest."""
DEFAULT_REVIEW_TIME_LIMIT = 120.0
MIN_REVIEW_SAMPLES = 4
"""Each half of the deals needs two for an interval."""


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
    def best_index(self) -> int | None:
        """The candidate with the highest mean over all the deals: the move to suggest."""
        c = self.comparison
        return None if c is None else _pick(c, range(len(c.values[0])))

    @property
    def differences(self) -> tuple[int, ...]:
        """Deal by deal, the value of the candidate the *other* half of the deals picks less
        the played move's (cross-fitting: each deal measures once, never its own pick)."""
        c = self.comparison
        if c is None:
            return ()
        n = len(c.values[0])
        first, second = range(n // 2), range(n // 2, n)
        pick_first, pick_second = _pick(c, first), _pick(c, second)
        chosen = [pick_second] * len(first) + [pick_first] * len(second)
        return tuple(c.values[k][j] - c.values[c.played][j] for j, k in enumerate(chosen))

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
        c, best = self.comparison, self.best_index
        return None if c is None or best is None else c.candidates[best].describe()

    def _mean(self, index: int | None) -> float | None:
        if self.comparison is None or index is None:
            return None
        return round(self.comparison.candidates[index].mean, 4)

    def to_json(self) -> dict[str, object]:
        c = self.comparison
        interval = self.loss_interval
        return {
            "move": self.index,
            "player": self.player,
            "played": self.played,
            "forced": self.forced,
            "best": self.best,
            "played_mean": None if c is None else self._mean(c.played),
            "best_mean": self._mean(self.best_index),
            "loss": None if self.loss is None else round(self.loss, 4),
            "loss_ci95": None if interval is None else [round(x, 4) for x in interval],
            "clear": self.clear,
            "candidates": None if c is None else len(c.candidates),
        }


def _half_width(review: MoveReview) -> float:
    interval = review.loss_interval
    return 0.0 if interval is None else (interval[1] - interval[0]) / 2


def _pick(comparison: PlayedComparison, deals: range) -> int:
    """The candidate with the highest mean over ``deals``: the played move when it has it,
    else the first in engine order."""
    means = [statistics.fmean(values[j] for j in deals) for values in comparison.values]
    top = max(means)
    return comparison.played if means[comparison.played] == top else means.index(top)


@dataclass(frozen=True)
class PlayerSummary:
    player: int
    moves: int
    loss: float
    loss_interval: tuple[float, float]
    clear: int
    unknown: int

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "moves": self.moves,
            "loss": round(self.loss, 4),
            "loss_ci95": [round(x, 4) for x in self.loss_interval],
            "clear": self.clear,
            "unknown": self.unknown,
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

    def player_summary(self, player: int) -> PlayerSummary:
        """The player's known losses added up, with a 95% interval: the moves' deals are
        drawn independently, so the half-widths add in quadrature."""
        own = [m for m in self.moves if m.player == player]
        total = sum(m.loss or 0.0 for m in own)
        half = math.sqrt(sum(_half_width(m) ** 2 for m in own))
        return PlayerSummary(
            player,
            len(own),
            total,
            (total - half, total + half),
            sum(1 for m in own if m.clear),
            sum(1 for m in own if not m.known),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "samples": self.samples,
            "width": self.width,
            "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "players": [self.player_summary(p).to_json() for p in (0, 1)],
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
    shared ``time_limit``. :raises InputError: for fewer than 4 samples."""
    if samples < MIN_REVIEW_SAMPLES:
        raise InputError(
            f"samples must be at least {MIN_REVIEW_SAMPLES} (two halves of two)", field="samples"
        )
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
