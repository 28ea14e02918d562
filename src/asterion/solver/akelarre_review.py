"""A post-mortem of a played Akelarre game: each Sorginak's destination weighed, turn by turn.

Every message a Sorginak gave is weighed twice, with the one-turn valuation of question 1
(:func:`~asterion.solver.akelarre_equilibria.objective_progress`: completed objectives plus
half the covered share of each objective in play), as exact rationals:

- **as told**: the expected gain of each destination it could choose, given what it had
  been told (the message handed to it, a public Well) and the others equally likely, which is
  :func:`~asterion.solver.akelarre_equilibria.advise` at that point of the chain. Its
  *expected loss* is the best expected gain less that of the destination it chose: zero when
  it chose a best response to what it knew.
- **in hindsight**: the gain of each destination with every other seat going where it
  actually went (the virtual player's draw included), the rules engine playing the turn. Its
  *hindsight loss* is the best of those less the gain it made. The Well is left out of the
  alternatives when another seat went there (had this seat declared it first, that seat
  would have chosen otherwise, and how is not known).

The gain of the destination chosen, in hindsight, is what the turn really gave: the replayed
progress after the turn less that before it. Both losses are for one turn only: a destination
that loses now may set up a later objective, which the one-turn valuation does not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from asterion.models.akelarre import (
    WELL,
    AkelarreState,
    Destination,
    Seat,
    destination_name,
    outcome,
)
from asterion.models.akelarre_record import GameRecord, PlayedTurn
from asterion.solver.akelarre_equilibria import (
    Valuation,
    advise,
    objective_progress,
    outcome_values,
)


@dataclass(frozen=True)
class DecisionReview:
    """One Sorginak's message in one turn, weighed as told and in hindsight."""

    turn: int
    seat: Seat
    told: dict[Seat, Destination]
    played: Destination
    expected: dict[Destination, Fraction]
    """Each destination it could choose: the expected gain given what it was told."""
    hindsight: dict[Destination, Fraction]
    """Each destination it could choose: the gain with the others where they went."""

    @property
    def gain(self) -> Fraction:
        """What the turn gave it."""
        return self.hindsight[self.played]

    @property
    def expected_loss(self) -> Fraction:
        return max(self.expected.values()) - self.expected[self.played]

    @property
    def hindsight_loss(self) -> Fraction:
        return max(self.hindsight.values()) - self.gain

    @property
    def best_expected(self) -> tuple[Destination, ...]:
        return _best(self.expected)

    @property
    def best_hindsight(self) -> tuple[Destination, ...]:
        return _best(self.hindsight)

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "told": {str(s): destination_name(d) for s, d in sorted(self.told.items())},
            "played": destination_name(self.played),
            "gain": str(self.gain),
            "expected": _named(self.expected),
            "best_expected": [destination_name(d) for d in self.best_expected],
            "expected_loss": str(self.expected_loss),
            "hindsight": _named(self.hindsight),
            "best_hindsight": [destination_name(d) for d in self.best_hindsight],
            "hindsight_loss": str(self.hindsight_loss),
        }


def _best(values: dict[Destination, Fraction]) -> tuple[Destination, ...]:
    top = max(values.values())
    return tuple(d for d, v in values.items() if v == top)


def _named(values: dict[Destination, Fraction]) -> dict[str, str]:
    return {destination_name(d): str(v) for d, v in values.items()}


@dataclass(frozen=True)
class SeatSummary:
    seat: Seat
    decisions: int
    expected_loss: Fraction
    hindsight_loss: Fraction
    off_best: int
    """Messages that were not a best response to what the seat knew."""

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "expected_loss": str(self.expected_loss),
            "hindsight_loss": str(self.hindsight_loss),
            "off_best": self.off_best,
        }


@dataclass(frozen=True)
class AkelarreReview:
    record: GameRecord
    decisions: tuple[DecisionReview, ...]

    @property
    def seats(self) -> tuple[SeatSummary, ...]:
        return tuple(self._summary(seat) for seat in self.record.start.players)

    def _summary(self, seat: Seat) -> SeatSummary:
        own = [d for d in self.decisions if d.seat == seat]
        return SeatSummary(
            seat,
            len(own),
            sum((d.expected_loss for d in own), Fraction(0)),
            sum((d.hindsight_loss for d in own), Fraction(0)),
            sum(1 for d in own if d.played not in d.best_expected),
        )

    def to_json(self) -> dict[str, object]:
        end = self.record.end
        document: dict[str, object] = {
            "players": end.rules.players,
            "turns": [
                {
                    "turn": played.report.turn,
                    "destinations": [destination_name(d) for d in played.report.destinations],
                    "decisions": [
                        d.to_json() for d in self.decisions if d.turn == played.report.turn
                    ],
                }
                for played in self.record.turns
            ],
            "seats": [s.to_json() for s in self.seats],
            "completed": [list(end.seats[s].completed) for s in end.players],
            "over": end.is_over,
        }
        if end.is_over:
            result = outcome(end)
            document |= {"winners": list(result.winners), "decided_by": result.decided_by.value}
        return document


def review_game(record: GameRecord, valuation: Valuation = objective_progress) -> AkelarreReview:
    """Every Sorginak message of ``record`` weighed as told and in hindsight."""
    decisions = [
        review_decision(played, i, valuation)
        for played in record.turns
        for i, state in enumerate(played.states)
        if not state.is_virtual(state.holder)
    ]
    return AkelarreReview(record, tuple(decisions))


def review_decision(played: PlayedTurn, index: int, valuation: Valuation) -> DecisionReview:
    """The ``index``-th message of the turn ``played``, given by a Sorginak."""
    state = played.states[index]
    seat = state.holder
    advice = advise(state, valuation)
    profile = played.report.destinations
    return DecisionReview(
        turn=state.turn,
        seat=seat,
        told=advice.known,
        played=played.messages[index].destination,
        expected=advice.values,
        hindsight=hindsight_gains(played.start, profile, seat, list(advice.values), valuation),
    )


def hindsight_gains(
    start: AkelarreState,
    profile: Sequence[Destination],
    seat: Seat,
    options: Sequence[Destination],
    valuation: Valuation = objective_progress,
) -> dict[Destination, Fraction]:
    """``seat``'s gain for each of ``options``, every other seat going where ``profile`` says
    (the Well left out when another seat is there)."""
    before = valuation(start, seat)
    taken = any(d == WELL for s, d in enumerate(profile) if s != seat)
    gains = {}
    for option in options:
        if option == WELL and taken:
            continue
        destinations = [option if s == seat else d for s, d in enumerate(profile)]
        (gains[option],) = outcome_values(start, destinations, [seat], valuation, [before])
    return gains
