"""Akelarre balance by seeded self-play (rules/akelarre.md, question 3).

**Policies** choose a :class:`~asterion.models.akelarre.Message` from what the seat choosing
can see (its board, the public position, and what the chain told it):

- ``random``: a legal message uniformly at random.
- ``greedy``: the destination with the best mean objective progress after the turn
  (:func:`quick_progress`: :func:`~asterion.solver.akelarre_equilibria.objective_progress`
  worked out without peeking at the objective deck) over :data:`GREEDY_SAMPLES` guesses of
  the destinations it does not know (each equally likely among those still open, the virtual
  player's among the four locations); ties at random; the card goes to a random seat still
  to choose.
- ``equilibrium``: plays its part of a pure equilibrium of the turn's destination game
  (:mod:`~asterion.solver.akelarre_equilibria`, with :func:`quick_progress` as the valuation so
  that nobody peeks at the objective deck), the one that best-response dynamics reach
  from everyone at the location of the element they miss most (each player in turn switches
  to its best reply, ties kept, lowest destination first, for up to
  :data:`MAX_BR_ROUNDS` rounds; a profile where nobody moves is an equilibrium). If its part
  is the Well and someone already declared it, it plays greedy.

**Self-play** (:func:`selfplay`): game ``g`` deals from seed ``(seed, g)`` (the first player is
drawn at random, as the rules say) and seat ``s`` plays ``policies[(s + g) mod n]``, so every
policy sits in every seat equally often over ``n`` games. Every message is checked against
the rules engine's legal messages.

**Metrics** (each defined in :data:`METRIC_DEFINITIONS`, printed with the report): balance,
first-player advantage, completion, drawishness, duration, branching factor, decision moves
(the standard playout measures of Browne's *Evolutionary Game Design* and the Ludii
project), and Akelarre's own: how often the Well is taken and what it yields, how often a
Sorginak is alone and what that yields. Turn-order *position* 1 is the seat holding the
first-player token on turn 1.

>>> from asterion.models.akelarre import AkelarreRules
>>> report = selfplay(AkelarreRules.default(3), ["random"] * 3, games=3, seed=1)
>>> report.games, round(sum(report.position_win_rates), 9)
(3, 1.0)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, Protocol

from asterion.errors import IllegalActionError, InputError, TooLargeError
from asterion.models.akelarre import (
    ABSENT,
    DESTINATIONS,
    LOCATIONS,
    WELL,
    AkelarreRules,
    AkelarreState,
    Decider,
    Destination,
    Message,
    Seat,
    TurnReport,
    apply_with_report,
    first_chooser,
    is_chance_node,
    legal_actions,
    outcome,
    rite_order,
    waiting_seats,
)
from asterion.solver.akelarre_equilibria import settle_well

MAX_GAMES = 100_000
GREEDY_SAMPLES = 12
MAX_BR_ROUNDS = 10
POLICY_NAMES = ("random", "greedy", "equilibrium")

METRIC_DEFINITIONS: dict[str, str] = {
    "balance": "1 - (highest - lowest) win rate over turn-order positions; 1 is even",
    "first_player_advantage": "win rate of turn-order position 1 minus 1/players",
    "win_rate_error": "standard error of a position's win rate, sqrt(p(1-p)/games) at the "
    "highest rate p (shared wins counted as fractions, so approximate)",
    "completion": "objectives completed per player per game (mean)",
    "deck_completed": "share of the objective deck completed per game, all players together",
    "drawishness": "share of games where the most objectives are tied (decided by resources, "
    "Power cards, or shared)",
    "shared_wins": "share of games with a shared win",
    "duration": "turns per game (mean; 13 unless the objective deck runs out)",
    "deck_ran_out": "share of games ended by the objective deck running out",
    "branching_factor": "legal messages per Sorginak decision (mean)",
    "decision_moves": "share of Sorginak decisions with more than one legal message",
    "well_taken": "share of turns in which a Sorginak went to the Well",
    "well_yield": "resources taken per Well visit (mean)",
    "alone": "share of Sorginak rites at a location where they were alone (Sabba power)",
    "alone_yield": "resources per rite alone (mean)",
    "company_yield": "resources per rite in company at a location (mean)",
}


class Policy(Protocol):
    name: str

    def choose(self, state: AkelarreState, rng: random.Random) -> Message: ...


@dataclass
class RandomPolicy:
    name: str = "random"

    def choose(self, state: AkelarreState, rng: random.Random) -> Message:
        return rng.choice(list(legal_actions(state)))


def _recipient(state: AkelarreState, rng: random.Random) -> Seat | None:
    waiting = waiting_seats(state)
    return rng.choice(waiting) if waiting else None


def _open_destinations(state: AkelarreState, mine: Destination, other: Seat) -> tuple[int, ...]:
    """Where an unknown seat may be, from the chooser's view."""
    if other in state.chosen() or state.is_virtual(other):
        return LOCATIONS
    if state.well_declared_by is not None or mine == WELL:
        return LOCATIONS
    return DESTINATIONS


def _options(state: AkelarreState) -> tuple[Destination, ...]:
    return LOCATIONS if state.well_declared_by is not None else DESTINATIONS


@dataclass
class GreedyPolicy:
    """Best mean gain over sampled guesses of the unknown destinations."""

    samples: int = GREEDY_SAMPLES
    name: str = "greedy"

    def choose(self, state: AkelarreState, rng: random.Random) -> Message:
        return Message(greedy_destination(state, rng, self.samples), _recipient(state, rng))


def greedy_destination(state: AkelarreState, rng: random.Random, samples: int) -> Destination:
    """The destination with the best mean gain over ``samples`` guesses of the unknown
    destinations (ties at random). A guess is a destination per unknown seat and a location
    it takes instead when the chooser declares the Well. Values come from
    :func:`quick_progress`."""
    seat = state.holder
    known = state.known_to(seat)
    scale = progress_scale(state.rules)
    unknown = [s for s in range(state.rules.seats) if s != seat and s not in known]
    guesses = [
        {s: (rng.choice(_open_destinations(state, -1, s)), rng.choice(LOCATIONS)) for s in unknown}
        for _ in range(samples)
    ]
    best: list[Destination] = []
    best_value = -1
    for mine in _options(state):
        total = 0
        for guess in guesses:
            profile = []
            for other in range(state.rules.seats):
                if other == seat:
                    profile.append(mine)
                elif other in known:
                    profile.append(known[other])
                else:
                    wanted, instead = guess[other]
                    profile.append(instead if mine == WELL and wanted == WELL else wanted)
            total += scaled_progress(state, seat, profile, scale)
        if total > best_value:
            best, best_value = [mine], total
        elif total == best_value:
            best.append(mine)
    return rng.choice(best)


def progress_scale(rules: AkelarreRules) -> int:
    """A common denominator of every objective progress value: 2 · lcm of objective sizes."""
    return 2 * math.lcm(*(sum(objective.needs) for objective in rules.objectives))


def quick_progress(state: AkelarreState, seat: Seat, profile: Sequence[Destination]) -> Fraction:
    """:func:`~asterion.solver.akelarre_equilibria.objective_progress` of ``seat`` after the
    turn, worked out for that seat alone and without peeking at the objective deck: what it
    takes (the Well's content, or its due limited by what the seats before it at the same
    location leave), then the objectives it completes (K6), each replaced by an unknown card
    that counts as no progress. Resources sacrificed by earlier seats are not counted, so a
    take can be underestimated."""
    scale = progress_scale(state.rules)
    return Fraction(scaled_progress(state, seat, profile, scale), scale)


def scaled_progress(
    state: AkelarreState, seat: Seat, profile: Sequence[Destination], scale: int
) -> int:
    """:func:`quick_progress` times ``scale`` (:func:`progress_scale`): an exact integer,
    which the policies compare without fractions."""
    rules = state.rules
    board = state.seats[seat]
    mine = profile[seat]
    held = list(board.resources)
    if mine == WELL:
        held = [h + w for h, w in zip(held, state.well, strict=True)]
    elif mine != ABSENT:
        crowd = sum(1 for d in profile if d == mine)
        due = rules.rite_amount(crowd, crowd == 1 and not state.is_virtual(seat))
        left = state.supply[mine]
        for other in rite_order(state):
            if other == seat:
                break
            if profile[other] == mine:
                left -= min(due, left)
        held[mine] += min(due, left)
    value = len(board.completed) * scale
    in_play = [rules.objective(o) for o in (board.private, state.public) if o is not None]
    for objective in in_play:
        if all(h >= n for h, n in zip(held, objective.needs, strict=True)):
            held = [h - n for h, n in zip(held, objective.needs, strict=True)]
            value += scale
        else:
            covered = sum(min(h, n) for h, n in zip(held, objective.needs, strict=True))
            value += covered * (scale // (2 * sum(objective.needs)))
    return value


@dataclass
class EquilibriumPolicy:
    """Its part of the pure equilibrium that best-response dynamics reach."""

    name: str = "equilibrium"
    _cache: dict[AkelarreState, tuple[Destination, ...]] = field(default_factory=dict, repr=False)

    def choose(self, state: AkelarreState, rng: random.Random) -> Message:
        start = replace(state, chain=())
        start = replace(start, holder=first_chooser(start))
        if start not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[start] = best_response_profile(start)
        mine = self._cache[start][state.holder]
        if mine not in _options(state):
            mine = greedy_destination(state, rng, GREEDY_SAMPLES)
        return Message(mine, _recipient(state, rng))


def best_response_profile(state: AkelarreState) -> tuple[Destination, ...]:
    """Best-response dynamics on the turn's destination game (the virtual player, if any,
    averaged over its four locations); a destination per seat (the virtual seat's is 0)."""
    players = state.players
    scale = progress_scale(state.rules)
    cache: dict[tuple[Destination, ...], tuple[int, ...]] = {}

    def payoffs(profile: tuple[Destination, ...]) -> tuple[int, ...]:
        """Each player's value summed over the virtual player's locations (a fixed multiple
        of the average, so comparisons are unchanged), times ``scale``."""
        if profile not in cache:
            chances = LOCATIONS if state.virtual_seat is not None else (None,)
            totals = [0] * len(players)
            for chance in chances:
                full = settle_well(state, list(profile) + ([] if chance is None else [chance]))
                totals = [
                    t + scaled_progress(state, s, full, scale)
                    for t, s in zip(totals, players, strict=True)
                ]
            cache[profile] = tuple(totals)
        return cache[profile]

    profile = tuple(_most_missed(state, s) for s in players)
    for _ in range(MAX_BR_ROUNDS):
        moved = False
        for i in range(len(players)):
            current = payoffs(profile)[i]
            options = [(*profile[:i], d, *profile[i + 1 :]) for d in DESTINATIONS]
            best = max(options, key=lambda p: payoffs(p)[i])
            if payoffs(best)[i] > current:
                profile, moved = best, True
        if not moved:
            break
    return (*profile, *([0] if state.virtual_seat is not None else []))


def _most_missed(state: AkelarreState, seat: Seat) -> Destination:
    """The location of the element the seat's objectives in play miss most (earth if none)."""
    held = state.seats[seat].resources
    missing = [0, 0, 0, 0]
    for objective in state.objectives_in_play(seat):
        for e in LOCATIONS:
            missing[e] += max(0, objective.needs[e] - held[e])
    return max(LOCATIONS, key=lambda e: (missing[e], -e))


def make_policy(name: str) -> Policy:
    """``random``, ``greedy`` or ``equilibrium``. :raises InputError: for another name."""
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    if name == "equilibrium":
        return EquilibriumPolicy()
    raise InputError(f"unknown policy {name!r} (expected {', '.join(POLICY_NAMES)})")


# -- one game ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """What the metrics need from one game."""

    policies: tuple[str, ...]
    first: Seat
    winners: tuple[Seat, ...]
    decided_by: Decider
    completed: tuple[int, ...]
    turns: int
    deck_ran_out: bool
    decisions: int
    legal_total: int
    decisions_with_choice: int
    well_visits: int
    well_taken: int
    alone_rites: int
    alone_taken: int
    company_rites: int
    company_taken: int
    resources_left: tuple[int, ...] = ()
    powers: tuple[int, ...] = ()


def deal_seed(seed: int, game: int = 0) -> int:
    """The seed :meth:`AkelarreState.new_game` deals game ``game`` of a run seeded ``seed``
    with."""
    return random.Random(f"akelarre-deal:{seed}:{game}").getrandbits(32)


def play_game(
    rules: AkelarreRules,
    policies: Sequence[Policy],
    seed: int,
    game: int = 0,
    log: list[TurnReport] | None = None,
    chains: list[list[Message]] | None = None,
) -> GameRecord:
    """One seeded game, seat ``s`` played by ``policies[s]``; every message is checked.
    Each turn's report is appended to ``log`` if given, and its messages in the order given
    to ``chains``."""
    state = AkelarreState.new_game(rules, seed=deal_seed(seed, game))
    first = state.first
    rngs = [random.Random(f"akelarre-seat:{seed}:{game}:{s}") for s in range(rules.seats)]
    counts = {"decisions": 0, "legal": 0, "choice": 0}
    reports: list[TurnReport] = []
    while not state.is_over:
        legal = list(legal_actions(state))
        if is_chance_node(state):
            action = rngs[state.holder].choice(legal)
        else:
            action = policies[state.holder].choose(state, rngs[state.holder])
            counts["decisions"] += 1
            counts["legal"] += len(legal)
            counts["choice"] += len(legal) > 1
        if action not in legal:
            raise IllegalActionError(f"policy {policies[state.holder].name} chose {action}")
        if chains is not None:
            if not state.chain:  # (a turn's first message)
                chains.append([])
            chains[-1].append(action)
        state, report = apply_with_report(state, action)
        if report is not None:
            reports.append(report)
    if log is not None:
        log.extend(reports)
    result = outcome(state)
    sorginak_rites = [r for t in reports for r in t.rites if not state.is_virtual(r.seat)]
    well = [r for r in sorginak_rites if r.destination == WELL]
    located = [r for r in sorginak_rites if r.destination in LOCATIONS]
    alone = [r for r in located if r.crowd == 1]
    company = [r for r in located if r.crowd > 1]
    return GameRecord(
        policies=tuple(p.name for p in policies[: rules.players]),
        first=first,
        winners=result.winners,
        decided_by=result.decided_by,
        completed=tuple(len(state.seats[s].completed) for s in state.players),
        resources_left=tuple(sum(state.seats[s].resources) for s in state.players),
        powers=tuple(len(state.seats[s].powers) for s in state.players),
        turns=len(reports),
        deck_ran_out=state.deck_ran_out,
        decisions=counts["decisions"],
        legal_total=counts["legal"],
        decisions_with_choice=counts["choice"],
        well_visits=len(well),
        well_taken=sum(sum(r.taken) for r in well),
        alone_rites=len(alone),
        alone_taken=sum(sum(r.taken) for r in alone),
        company_rites=len(company),
        company_taken=sum(sum(r.taken) for r in company),
    )


# -- many games ----------------------------------------------------------------------------------


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


@dataclass(frozen=True)
class BalanceReport:
    """Self-play results and the metrics of :data:`METRIC_DEFINITIONS`."""

    players: int
    policies: tuple[str, ...]
    seed: int
    records: tuple[GameRecord, ...]
    objectives_in_deck: int

    @property
    def games(self) -> int:
        return len(self.records)

    @cached_property
    def position_win_rates(self) -> tuple[float, ...]:
        """Win share by turn-order position (1 = first player on turn 1); shared wins split."""
        wins = [0.0] * self.players
        for record in self.records:
            for seat in record.winners:
                wins[(seat - record.first) % self.players] += 1 / len(record.winners)
        return tuple(w / self.games for w in wins)

    @cached_property
    def policy_win_rates(self) -> dict[str, float]:
        """Win share per seat played, by policy."""
        wins: dict[str, float] = {}
        seats: dict[str, int] = {}
        for record in self.records:
            for seat, name in enumerate(record.policies):
                seats[name] = seats.get(name, 0) + 1
                if seat in record.winners:
                    wins[name] = wins.get(name, 0.0) + 1 / len(record.winners)
        return {name: wins.get(name, 0.0) / seats[name] for name in sorted(seats)}

    @cached_property
    def metrics(self) -> dict[str, float]:
        records, games, n = self.records, self.games, self.players
        rates = self.position_win_rates
        decisions = sum(r.decisions for r in records)
        turns = sum(r.turns for r in records)
        return {
            "balance": 1 - (max(rates) - min(rates)),
            "first_player_advantage": rates[0] - 1 / n,
            "win_rate_error": math.sqrt(max(rates) * (1 - max(rates)) / games),
            "completion": statistics.fmean(c for r in records for c in r.completed),
            "deck_completed": statistics.fmean(
                sum(r.completed) / self.objectives_in_deck for r in records
            ),
            "drawishness": _ratio(
                sum(r.decided_by is not Decider.OBJECTIVES for r in records), games
            ),
            "shared_wins": _ratio(sum(r.decided_by is Decider.SHARED for r in records), games),
            "duration": _ratio(turns, games),
            "deck_ran_out": _ratio(sum(r.deck_ran_out for r in records), games),
            "branching_factor": _ratio(sum(r.legal_total for r in records), decisions),
            "decision_moves": _ratio(sum(r.decisions_with_choice for r in records), decisions),
            "well_taken": _ratio(sum(r.well_visits for r in records), turns),
            "well_yield": _ratio(
                sum(r.well_taken for r in records), sum(r.well_visits for r in records)
            ),
            "alone": _ratio(
                sum(r.alone_rites for r in records),
                sum(r.alone_rites + r.company_rites + r.well_visits for r in records),
            ),
            "alone_yield": _ratio(
                sum(r.alone_taken for r in records), sum(r.alone_rites for r in records)
            ),
            "company_yield": _ratio(
                sum(r.company_taken for r in records), sum(r.company_rites for r in records)
            ),
        }

    @property
    def completed_by_policy(self) -> dict[str, list[int]]:
        """Objectives completed per game and seat, by policy (for the distribution plot)."""
        result: dict[str, list[int]] = {}
        for record in self.records:
            for name, count in zip(record.policies, record.completed, strict=True):
                result.setdefault(name, []).append(count)
        return dict(sorted(result.items()))

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "policies": list(self.policies),
            "games": self.games,
            "seed": self.seed,
            "position_win_rates": [round(r, 6) for r in self.position_win_rates],
            "policy_win_rates": {k: round(v, 6) for k, v in self.policy_win_rates.items()},
            "metrics": {k: round(v, 6) for k, v in self.metrics.items()},
            "definitions": METRIC_DEFINITIONS,
        }


def selfplay(
    rules: AkelarreRules,
    policies: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> BalanceReport:
    """``games`` seeded games, policies rotating over the seats (see the module docstring).

    :raises InputError: for a policy list not one per player, an unknown policy, or a game
        count outside 1 … :data:`MAX_GAMES`.
    """
    if len(policies) != rules.players:
        raise InputError(
            f"give one policy per player ({rules.players}), not {len(policies)}", field="policies"
        )
    if games < 1:
        raise InputError(f"games must be at least 1, not {games}", field="games")
    if games > MAX_GAMES:
        raise TooLargeError(f"at most {MAX_GAMES} games", field="games")
    shared = {name: make_policy(name) for name in dict.fromkeys(policies)}  # one cache each
    made = [shared[name] for name in policies]
    n = rules.players
    records = []
    for g in range(games):
        seated = [made[(s + g) % n] for s in range(n)]
        seated += [RandomPolicy()] * (rules.seats - n)  # the virtual seat is chance, unused
        records.append(play_game(rules, seated, seed, g))
        if progress is not None:
            progress(g + 1, games)
    return BalanceReport(n, tuple(policies), seed, tuple(records), len(rules.objectives))
