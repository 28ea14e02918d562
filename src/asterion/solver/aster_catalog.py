"""Is a card catalog ready to print? Can every constellation be formed on the board?

A designer's check of an Aster catalog against the rules (rules/aster.md) on one board.

Problems (the game cannot be played as the rules say; the catalog is not *sound*):

``no-placement``
    a constellation whose pattern fits nowhere on the board under the transforms (A8): it
    can never be present, so never claimed;
``no-base-card``
    a base card of A6 (``Big``, ``Bang``) missing, or not in the base deck: no row can start;
``deck-too-small``
    the small or the large deck holds fewer cards than the setup deals face up from it (3).

Warnings (playable, but a designer may want to change it):

``same-shape``
    constellations that fit the board and whose patterns are one shape under the
    transforms: they have the same placements, so one is present exactly when the other is;
``not-formed-alone``
    a constellation that fits the board, but for which no *witness* below was found;
``no-opening``
    the board cannot hold the opening (A3 starts stars on rings 2 and 3): no witness and
    no reach question.

For each constellation that fits, a witness: a plan by which the first player of the opening
forms it alone, the others passing. Each turn brings one star of the player's reserve onto an
empty point of the placement (generated there, or generated and then moved there by the same
turn's actions), on the placement that has the fewest empty points. The plan is replayed by
the rules engine (:func:`certify`), so "formed alone within N turns" is certified; N is a bound,
not the fewest (:func:`check_catalog` with ``reach_turns`` asks the reach solver for the fewest
actions within a number of turns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from asterion.errors import InputError
from asterion.models.aster import Action, AsterRules, AsterState, apply, slot_actions
from asterion.models.aster_cards import ActionKind, Card, Deck
from asterion.models.aster_patterns import Placement
from asterion.solver.aster_reach import (
    Certificate,
    PlanError,
    PlanStep,
    ReachAnswer,
    ReachQuestion,
    certify,
    next_turn,
)
from asterion.solver.result import DEFAULT_TIME_LIMIT, Finding

GENERATIONS = (ActionKind.GENERATE, ActionKind.GENERATE_TARGETED)
MOVES = (ActionKind.MOVE_LINE, ActionKind.MOVE_RING, ActionKind.NUDGE)


@dataclass(frozen=True)
class CardCheck:
    """One constellation on the board: its placements, a witness, and the reach answer."""

    card: Card
    placements: int
    witness: Certificate | None
    reach: ReachAnswer | None = None

    @property
    def witness_turns(self) -> int | None:
        """The turns the witness takes (0: present at the opening), None without one."""
        if self.witness is None:
            return None
        return self.witness.steps[-1].turn if self.witness.steps else 0


@dataclass(frozen=True)
class CatalogReport:
    sound: bool
    problems: tuple[Finding, ...]
    warnings: tuple[Finding, ...]
    cards: tuple[CardCheck, ...]
    reach_turns: int | None

    def to_json(self) -> dict[str, object]:
        """The documented ``aster verify --json`` document."""
        return {
            "sound": self.sound,
            "problems": [f.to_json() for f in self.problems],
            "warnings": [f.to_json() for f in self.warnings],
            "cards": [self._card_json(check) for check in self.cards],
        }

    def _card_json(self, check: CardCheck) -> dict[str, object]:
        card, reach = check.card, check.reach
        return {
            "abbr": card.abbr,
            "deck": card.deck.value,
            "stars": card.stars,
            "placements": check.placements,
            "formed_alone_within": check.witness_turns,
            "reach": None
            if reach is None
            else {
                "turns": self.reach_turns,
                "status": reach.status.value,
                "min_actions": reach.min_actions,
            },
        }


def check_catalog(
    rules: AsterRules,
    *,
    reach_turns: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> CatalogReport:
    """Check ``rules.catalog`` on ``rules.board`` (see the module docstring).

    ``reach_turns``: also ask, for each constellation that fits, the fewest actions that form
    it from the opening within that many turns (1-3), each question bounded by ``time_limit``.
    """
    constellations = [card for card in rules.catalog.cards if card.pattern]
    problems = [*base_card_findings(rules), *deck_findings(rules)]
    setup = _opening(rules, problems)
    opening = setup if isinstance(setup, AsterState) else None
    cards = []
    for done, card in enumerate(constellations):
        found = rules.placements_of(card)
        witness = None if opening is None or not found else solo_witness(opening, found)
        reach = None
        if reach_turns is not None and found and opening is not None:
            reach = _reach(opening, card, rules, reach_turns, time_limit)
        cards.append(CardCheck(card, len(found), witness, reach))
        if progress is not None:
            progress(done + 1, len(constellations))
    problems += [
        Finding("no-placement", f"{c.card.abbr} ({c.card.name}) fits nowhere on the board")
        for c in cards
        if not c.placements
    ]
    warnings = same_shape_findings(rules, constellations)
    if isinstance(setup, Finding):
        warnings.append(setup)
    if opening is not None:
        warnings += [
            Finding(
                "not-formed-alone",
                f"{c.card.abbr}: no plan found by which one player forms it alone",
            )
            for c in cards
            if c.placements and c.witness is None
        ]
    return CatalogReport(not problems, tuple(problems), tuple(warnings), tuple(cards), reach_turns)


# -- the catalog's own checks ---------------------------------------------------------------


def base_card_findings(rules: AsterRules) -> list[Finding]:
    """A6: every row starts with the base cards, so each must be in the catalog's base deck."""
    findings = []
    for abbr in rules.base_cards:
        if abbr not in rules.catalog:
            findings.append(Finding("no-base-card", f"the base card {abbr} is not in the catalog"))
        elif rules.catalog[abbr].deck is not Deck.BASE:
            deck = rules.catalog[abbr].deck.value
            findings.append(
                Finding("no-base-card", f"{abbr} is in the {deck} deck, not a base card")
            )
    return findings


def deck_findings(rules: AsterRules) -> list[Finding]:
    """The setup deals ``offer_per_deck`` cards face up from the small and the large deck."""
    findings = []
    for deck in (Deck.SMALL, Deck.LARGE):
        held = len(rules.catalog.deck(deck))
        if held < rules.offer_per_deck:
            findings.append(
                Finding(
                    "deck-too-small",
                    f"the {deck.value} deck holds {held} cards; the setup deals "
                    f"{rules.offer_per_deck} face up",
                )
            )
    return findings


def same_shape_findings(rules: AsterRules, cards: list[Card]) -> list[Finding]:
    """Cards with the same (non-empty) set of placements: one shape under the transforms."""
    groups: dict[frozenset[Placement], list[str]] = {}
    for card in cards:
        found = frozenset(rules.placements_of(card))
        if found:
            groups.setdefault(found, []).append(card.abbr)
    return [
        Finding(
            "same-shape",
            f"{', '.join(abbrs[:-1])} and {abbrs[-1]} are one shape: "
            "each is present exactly when the other is",
        )
        for abbrs in groups.values()
        if len(abbrs) > 1
    ]


def _opening(rules: AsterRules, problems: list[Finding]) -> AsterState | Finding | None:
    """The opening of a 2-player game; None when the catalog cannot start one (a problem
    already says why), or why the board cannot (A3's starting stars need ring 3)."""
    if any(f.code == "no-base-card" for f in problems):
        return None
    try:
        return AsterState.new_game(rules=rules)
    except InputError as error:
        return Finding(
            "no-opening",
            f"the opening cannot be set up ({error.problem}): no plan is sought",
        )


def _reach(
    opening: AsterState, card: Card, rules: AsterRules, turns: int, time_limit: float
) -> ReachAnswer:
    from asterion.solver.aster_reach_portfolio import reach

    question = ReachQuestion.build(opening, card.pattern, transforms=rules.transforms, turns=turns)
    return reach(question, time_limit=time_limit)


# -- the witness ----------------------------------------------------------------------------


def solo_witness(opening: AsterState, found: list[Placement]) -> Certificate | None:
    """A replayed plan by which the active player alone fills one of the placements ``found``
    (see the module docstring), trying those with the fewest empty points first."""

    def empty(placement: Placement) -> int:
        return sum(1 for p in placement if opening.star_at(p) is None)

    for placement in sorted(found, key=empty):
        steps = _fill(opening, placement)
        if steps is None:
            continue
        question = ReachQuestion(opening, (placement,), max(1, steps[-1].turn if steps else 1))
        try:
            return certify(question, steps)
        except PlanError:  # (a witness the engine refuses is no witness)
            continue
    return None


def _fill(opening: AsterState, placement: Placement) -> list[PlanStep] | None:
    """One star a turn onto the placement's empty points; generation points last, since
    the other points' stars come in through them."""
    generation = set(opening.board.generation_points)
    needed = sorted(
        (p for p in placement if opening.star_at(p) is None),
        key=lambda p: (p in generation, opening.board.index[p]),
    )
    solo = ReachQuestion(opening, (placement,), len(needed))
    state, steps = opening, []
    for turn, point in enumerate(needed, start=1):
        if turn > 1:
            state = next_turn(solo, state)
        actions = next(_bring_in(state, point), None)
        if actions is None:
            return None
        for action in actions:
            state = apply(state, action)
            steps.append(PlanStep(turn, action))
    return steps


def _bring_in(state: AsterState, point: str) -> Iterator[tuple[Action, ...]]:
    """This turn's ways to put a reserve star on the empty ``point``: generated there, or
    generated on an empty point and moved there by a later slot of the same turn."""
    slots = state.remaining_slots()
    for i in slots:
        for action in slot_actions(state, i):
            arrival = action.point
            if arrival is None or action.kind not in GENERATIONS:
                continue
            if arrival == point:
                yield (action,)
                continue
            if state.star_at(arrival) is not None:
                continue  # (it would destroy a star, maybe one of the placement's)
            after = apply(state, action)
            for j in slots:
                if j > i and state.actions[j] in MOVES:
                    for move in slot_actions(after, j):
                        if move.origin == arrival and move.target == point:
                            yield (action, move)
