"""The best turn (rules/aster.md, question 3): over the face-up constellations, the plan that
maximizes the claimed card's points plus the active player's own stars used in the claim,
ties broken by fewer actions.

Two engines: a CP-SAT model on top of the planner's dynamics (:func:`best_turn`), and the
exact baseline that walks every board the turn can reach (:func:`best_turn_by_search`).
Either way the plan is replayed by the rules engine and the claim itself is applied to the
final position before the answer is returned.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from asterion.errors import InputError
from asterion.models.aster import AsterState, Claim, apply
from asterion.models.aster_board import Point
from asterion.models.aster_cards import Card
from asterion.solver.aster_plan import build_dynamics, extract_plan
from asterion.solver.aster_reach import (
    DEFAULT_MAX_STATES,
    BreadthFirst,
    Certificate,
    PlanStep,
    ReachQuestion,
    certify,
    steps_to,
)
from asterion.solver.result import (
    DEFAULT_TIME_LIMIT,
    OutOfTime,
    Status,
    check_clock,
    cp_status,
    make_solver,
)


@dataclass(frozen=True)
class BestTurn:
    """A certified turn: the plan, then the claim of ``abbr`` on the certificate's placement."""

    abbr: str
    points: int
    own_stars: int
    certificate: Certificate

    @property
    def value(self) -> int:
        return self.points + self.own_stars


@dataclass(frozen=True)
class BestTurnAnswer:
    status: Status
    best: BestTurn | None
    engine: str
    wall_time: float

    def to_json(self) -> dict[str, object]:
        best = self.best
        return {
            "status": self.status.value,
            "claim": None if best is None else best.abbr,
            "value": None if best is None else best.value,
            "card_points": None if best is None else best.points,
            "own_stars": None if best is None else best.own_stars,
            "actions": None if best is None else len(best.certificate.steps),
            "plan": [] if best is None else best.certificate.plan_json(),
            "placement": [] if best is None else sorted(best.certificate.placement),
            "certified": best is not None,
        }


def offered_cards(state: AsterState, offer: Sequence[str] | None) -> list[Card]:
    """The cards to consider: ``offer`` (validated against the catalog) or the face-up ones."""
    abbrs = list(dict.fromkeys(state.offer if offer is None else offer))
    if not abbrs:
        raise InputError("no face-up constellation to claim (give --offer)", field="offer")
    cards = [state.rules.catalog[abbr] for abbr in abbrs]
    for card in cards:
        if not card.pattern:
            raise InputError(f"{card.abbr} is a base card, not a constellation", field="offer")
    return cards


def certify_turn(
    state: AsterState, card: Card, placement: frozenset[Point], steps: Sequence[PlanStep]
) -> BestTurn:
    """Replay the plan, then claim: both through the rules engine.

    :raises PlanError: if the plan does not form ``placement``.
    :raises IllegalActionError: if the claim is not legal at the end (a bug).
    """
    question = ReachQuestion(state, (placement,))
    certificate = certify(question, steps)
    final = certificate.final
    if card.abbr in final.offer:
        apply(final, Claim(card.abbr, placement))  # raises if the claim were illegal
    own = sum(1 for p in placement if final.star_at(p) is final.player)
    return BestTurn(card.abbr, card.points, own, certificate)


# -- CP-SAT -----------------------------------------------------------------------------------


def best_turn(
    state: AsterState,
    offer: Sequence[str] | None = None,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> BestTurnAnswer:
    """The best turn by CP-SAT: maximize ``(slots + 1) · (points + own stars) − actions``."""
    started = time.perf_counter()
    try:  # the model's building counts against the time limit
        return _best_turn(state, offer, started + time_limit, seed)
    except OutOfTime:
        return BestTurnAnswer(Status.UNKNOWN, None, "cp-sat", time.perf_counter() - started)


def _best_turn(
    state: AsterState, offer: Sequence[str] | None, deadline: float, seed: int
) -> BestTurnAnswer:
    started = time.perf_counter()
    cards = offered_cards(state, offer)
    slots = ReachQuestion(state, ()).slots
    planner = build_dynamics(state, slots, deadline)
    model, final, player = planner.model, planner.final, state.player

    # One claim: a card and one of its placements, all of whose points hold a star.
    claim: dict[tuple[str, frozenset[Point]], cp_model.IntVar] = {}
    value_terms: list[cp_model.LinearExprT] = []
    for card in cards:
        check_clock(deadline)
        for placement in state.rules.placements_of(card):
            var = model.new_bool_var(f"claim_{card.abbr}_{len(claim)}")
            for v in sorted(placement, key=state.rules.board.index.__getitem__):
                occupied = sum(final.occupied[v, c] for c in planner.colors)
                model.add(occupied == 1).only_enforce_if(var)
                own = model.new_bool_var(f"own_{card.abbr}_{len(claim)}_{v}")
                model.add_multiplication_equality(own, [var, final.occupied[v, player]])
                value_terms.append(own)
            value_terms.append(card.points * var)
            claim[card.abbr, placement] = var
    model.add_exactly_one(claim.values())

    # Objective: value first, then fewer actions, then the earliest claim in offer and board
    # order, so that ties are broken the same way on every run.
    weight = len(slots) + 1
    scale = len(claim)
    order = cp_model.LinearExpr.weighted_sum(list(claim.values()), list(range(len(claim))))
    model.maximize(
        scale * (weight * cp_model.LinearExpr.sum(value_terms) - planner.actions_used()) - order
    )

    solver = make_solver(max(deadline - time.perf_counter(), 0.01), seed)
    status = cp_status(solver.solve(model))
    if not status.has_value:
        return BestTurnAnswer(status, None, "cp-sat", time.perf_counter() - started)
    ((abbr, placement),) = [key for key, var in claim.items() if solver.boolean_value(var)]
    card = state.rules.catalog[abbr]
    best = certify_turn(state, card, placement, extract_plan(planner, slots, solver))
    rank = list(claim).index((abbr, placement))
    expected = scale * (weight * best.value - len(best.certificate.steps)) - rank
    assert expected == round(solver.objective_value), "CP-SAT value disagrees with the rules"
    return BestTurnAnswer(status, best, "cp-sat", time.perf_counter() - started)


# -- exact baseline -----------------------------------------------------------------------------


def best_turn_by_search(
    state: AsterState,
    offer: Sequence[str] | None = None,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> BestTurnAnswer:
    """Walk every board the turn reaches (fewest actions first) and keep the best claim."""
    started = time.perf_counter()
    cards = offered_cards(state, offer)
    search = BreadthFirst(ReachQuestion(state, ()), max_states=max_states, time_limit=time_limit)
    best_key: tuple[int, int] | None = None
    best_found = None
    for node, used in search:
        for card in cards:
            for placement in node.state.present_placements(card):
                own = sum(1 for p in placement if node.state.star_at(p) is state.player)
                key = (card.points + own, -used)
                if best_key is None or key > best_key:
                    best_key, best_found = key, (card, placement, node)
    elapsed = time.perf_counter() - started
    if not search.complete:
        return BestTurnAnswer(Status.UNKNOWN, None, "search", elapsed)
    if best_found is None:
        return BestTurnAnswer(Status.INFEASIBLE, None, "search", elapsed)
    card, placement, node = best_found
    best = certify_turn(state, card, placement, steps_to(node))
    return BestTurnAnswer(Status.OPTIMAL, best, "search", time.perf_counter() - started)
