"""CP-SAT type scores (stars × longest run, free 0/6 and satellite readings) against the
enumeration in ``asterion.models.stellar`` and a brute force written here from the rules page.

rules/stellar.md, Scoring 1: per type, (stars on that type's face-up telescope cards) × (the
longest run of consecutive numbers in that type's notebook group); a 0/6 reads 0 or 6, a
satellite joins any type's group at its own number (a 0/6 satellite at 0 or 6).
"""

from __future__ import annotations

import random
from itertools import product
from math import prod

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from asterion.models.stellar import (
    Placed,
    PlayerArea,
    StellarRules,
    StellarState,
    apply,
    legal_moves,
    type_scores_by_enumeration,
)
from asterion.models.stellar_cards import TYPES, CelestialType, Deck, StellarCard
from asterion.solver.result import Status
from asterion.solver.stellar_score import type_scores

PLANET, MOON, ASTEROID, CLOUD, BLACK_HOLE = (
    CelestialType.PLANET,
    CelestialType.MOON,
    CelestialType.ASTEROID,
    CelestialType.CLOUD,
    CelestialType.BLACK_HOLE,
)
SAT = None
Z = 0  # a "0/6" card's stored number
# One telescope slot per type (different types need not touch).
TYPE_SLOT = {PLANET: 1, MOON: 2, ASTEROID: 4, CLOUD: 9, BLACK_HOLE: 12}

NotebookSpec = list[tuple[CelestialType | None, int]]


def position(stars: dict[CelestialType, int], notebook: NotebookSpec) -> StellarState:
    """Player 0: one face-up telescope card per type with ``stars``; ``notebook`` cards."""
    telescope_cards = [
        StellarCard(f"T{kind.value[:2]}", kind, 1, stars.get(kind, 0)) for kind in TYPES
    ]
    notebook_cards = [StellarCard(f"N{i}", kind, n, 0) for i, (kind, n) in enumerate(notebook)]
    deck = Deck(tuple(telescope_cards + notebook_cards))
    telescope = tuple(sorted((TYPE_SLOT[c.kind], Placed(c.id)) for c in telescope_cards))  # type: ignore[index]
    mine = PlayerArea(telescope, tuple(c.id for c in notebook_cards), ())
    return StellarState((mine, PlayerArea()), (None,) * 5, (), rules=StellarRules(deck=deck))


def longest(numbers: set[int]) -> int:
    """Longest run of consecutive numbers, by looking at every interval."""
    return max(
        (
            hi - lo + 1
            for lo in range(7)
            for hi in range(lo, 7)
            if set(range(lo, hi + 1)) <= numbers
        ),
        default=0,
    )


def brute_force(state: StellarState, player: int) -> int:
    """The best total over every reading of the notebook, straight from the rules page."""
    stars = dict.fromkeys(TYPES, 0)
    for _, placed in state.areas[player].telescope:
        card = state.card(placed.card)
        if card.kind is not None and not placed.face_down:
            stars[card.kind] += card.stars
    readings = []
    for card_id in state.areas[player].notebook:
        card = state.card(card_id)
        kinds = TYPES if card.kind is None else (card.kind,)
        numbers = (0, 6) if card.number == Z else (card.number,)
        readings.append([(k, n) for k in kinds for n in numbers])
    best = 0
    for reading in product(*readings):
        groups: dict[CelestialType, set[int]] = {k: set() for k in TYPES}
        for kind, number in reading:
            groups[kind].add(number)
        best = max(best, sum(stars[k] * longest(groups[k]) for k in TYPES))
    return best


def readings_count(state: StellarState, player: int) -> int:
    counts = []
    for card_id in state.areas[player].notebook:
        card = state.card(card_id)
        counts.append((5 if card.kind is None else 1) * (2 if card.number == Z else 1))
    return prod(counts)


def check_agreement(state: StellarState, player: int) -> int:
    """CP-SAT is optimal, equals the enumeration and the brute force, and its choices are
    readings that reach its total."""
    result = type_scores(state, player, time_limit=20.0)
    assert result.status is Status.OPTIMAL
    assert result.value is not None
    enumerated, _ = type_scores_by_enumeration(state, player)
    expected = brute_force(state, player)
    assert result.value.total == sum(enumerated.values()) == expected
    assert result.objective == expected
    # Re-score the CP-SAT readings by hand.
    groups: dict[CelestialType, set[int]] = {k: set() for k in TYPES}
    free = set()
    for card_id in state.areas[player].notebook:
        card = state.card(card_id)
        if card.kind is None or card.number == Z:
            free.add(card_id)
            kind, number = result.value.choices[card_id]
            assert card.kind in (None, kind)
            assert number in ((0, 6) if card.number == Z else (card.number,))
        else:
            kind, number = card.kind, card.number
        groups[kind].add(number)
    assert set(result.value.choices) == free
    stars = dict.fromkeys(TYPES, 0)
    for _, placed in state.areas[player].telescope:
        card = state.card(placed.card)
        if card.kind is not None and not placed.face_down:
            stars[card.kind] += card.stars
    by_type = {k: stars[k] * longest(groups[k]) for k in TYPES}
    assert by_type == result.value.scores
    return expected


def test_longest_by_hand() -> None:
    assert longest(set()) == 0
    assert longest({4, 5, 6}) == 3
    assert longest({0, 1, 2, 4, 5}) == 3
    assert longest({0, 1, 2, 3, 4, 5, 6}) == 7


HAND_CASES = [
    # (stars, notebook, expected scores, expected choices or None when not unique)
    pytest.param(
        # The seed: moons 5 stars, notebook moons 4, 5 and 0/6 as 6: 5 x 3 = 15.
        {MOON: 5},
        [(MOON, 4), (MOON, 5), (MOON, Z)],
        {MOON: 15},
        {"N2": (MOON, 6)},
        id="seed-example",
    ),
    pytest.param(
        # 0/6 as 0 extends 1, 2: planets 2 stars x run 0-2 (3) = 6.
        {PLANET: 2},
        [(PLANET, 1), (PLANET, 2), (PLANET, Z)],
        {PLANET: 6},
        {"N2": (PLANET, 0)},
        id="zero-six-as-zero",
    ),
    pytest.param(
        # 1, 2, 4, 5 and 0/6: 0-2 or 4-6, 3 either way; 3 stars: 9.
        {ASTEROID: 3},
        [(ASTEROID, 1), (ASTEROID, 2), (ASTEROID, 4), (ASTEROID, 5), (ASTEROID, Z)],
        {ASTEROID: 9},
        None,
        id="zero-six-one-end",
    ),
    pytest.param(
        # Satellite 3 to the moons (3 stars): moons 1-3 = 9, planets (1 star) 1-2 = 2: 11;
        # to the planets: 3 + 6 = 9.
        {PLANET: 1, MOON: 3},
        [(PLANET, 1), (PLANET, 2), (MOON, 1), (MOON, 2), (SAT, 3)],
        {PLANET: 2, MOON: 9},
        {"N4": (MOON, 3)},
        id="satellite-best-group",
    ),
    pytest.param(
        # A 0/6 satellite: as planet 0 (3 stars x 3 = 9, moons 2 x 2 = 4: 13) beats moon 6
        # (planets 3 x 2 = 6, moons 2 x 3 = 6: 12).
        {PLANET: 3, MOON: 2},
        [(MOON, 4), (MOON, 5), (PLANET, 1), (PLANET, 2), (SAT, Z)],
        {PLANET: 9, MOON: 4},
        {"N4": (PLANET, 0)},
        id="zero-six-satellite",
    ),
    pytest.param(
        # Satellites 2 and 3 bridge clouds 1 and 4: run 4, 1 star: 4.
        {CLOUD: 1},
        [(CLOUD, 1), (SAT, 2), (SAT, 3), (CLOUD, 4)],
        {CLOUD: 4},
        {"N1": (CLOUD, 2), "N2": (CLOUD, 3)},
        id="satellites-bridge",
    ),
    pytest.param(
        # A satellite 5 cannot bridge 1, 2 (it keeps its number): run 2, 2 stars: 4.
        {PLANET: 2},
        [(PLANET, 1), (PLANET, 2), (SAT, 5)],
        {PLANET: 4},
        None,
        id="satellite-keeps-its-number",
    ),
    pytest.param(
        # Duplicates do not help: 2, 2, 3 is a run of 2; 3 stars: 6.
        {BLACK_HOLE: 3},
        [(BLACK_HOLE, 2), (BLACK_HOLE, 2), (BLACK_HOLE, 3)],
        {BLACK_HOLE: 6},
        {},
        id="duplicates",
    ),
    pytest.param(
        # Two 0/6 planets and a 1: one reads 0 -> 0, 1; 6 stands alone; 1 star: 2.
        {PLANET: 1},
        [(PLANET, 1), (PLANET, Z), (PLANET, Z)],
        {PLANET: 2},
        None,
        id="two-zero-six",
    ),
    pytest.param(
        # The full run 0-6: 0/6 as 0, 1-5, another 0/6 as 6: 7 x 2 stars = 14.
        {MOON: 2},
        [(MOON, Z), (MOON, 1), (MOON, 2), (MOON, 3), (MOON, 4), (MOON, 5), (MOON, Z)],
        {MOON: 14},
        None,
        id="zero-to-six",
    ),
    pytest.param(
        # Moons 1, 2 have no stars; the planets (3 stars) have no notebook card but the
        # satellite 3 can join them alone: a run of 1, 3 x 1 = 3.
        {PLANET: 3},
        [(MOON, 1), (MOON, 2), (SAT, 3)],
        {PLANET: 3},
        {"N2": (PLANET, 3)},
        id="lone-satellite",
    ),
    pytest.param(
        # Stars without notebook cards, notebook cards without stars: nothing.
        {PLANET: 3},
        [(MOON, 1), (MOON, 2), (MOON, Z)],
        {},
        None,
        id="nothing",
    ),
    pytest.param({PLANET: 3}, [], {}, {}, id="empty-notebook"),
]


@pytest.mark.parametrize(("stars", "notebook", "scores", "choices"), HAND_CASES)
def test_hand_worked_cases(
    stars: dict[CelestialType, int],
    notebook: NotebookSpec,
    scores: dict[CelestialType, int],
    choices: dict[str, tuple[CelestialType, int]] | None,
) -> None:
    state = position(stars, notebook)
    expected = {**dict.fromkeys(TYPES, 0), **scores}
    result = type_scores(state, 0)
    assert result.status is Status.OPTIMAL
    assert result.value is not None
    assert result.value.scores == expected
    assert result.value.total == sum(scores.values())
    if choices is not None:
        assert result.value.choices == choices
    enumerated, enumerated_choices = type_scores_by_enumeration(state, 0)
    assert enumerated == expected
    if choices is not None:
        assert enumerated_choices == choices
    assert check_agreement(state, 0) == sum(scores.values())


def test_face_down_stars_do_not_count() -> None:
    # Planet T (2 stars) face up on 1, planet F (3 stars) face down on 12; notebook 1, 2:
    # 2 x 2 = 4 (not 5 x 2).
    cards = (
        StellarCard("T", PLANET, 1, 2),
        StellarCard("F", PLANET, 2, 3),
        StellarCard("N1", PLANET, 1, 0),
        StellarCard("N2", PLANET, 2, 0),
    )
    mine = PlayerArea(((1, Placed("T")), (12, Placed("F", True))), ("N1", "N2"), ())
    state = StellarState(
        (mine, PlayerArea()), (None,) * 5, (), rules=StellarRules(deck=Deck(cards))
    )
    result = type_scores(state, 0)
    assert result.value is not None
    assert result.value.total == 4
    assert check_agreement(state, 0) == 4


NOTEBOOK_CARD = st.tuples(st.sampled_from([*TYPES, SAT]), st.sampled_from([Z, 1, 2, 3, 4, 5]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    stars=st.lists(st.integers(0, 3), min_size=5, max_size=5),
    notebook=st.lists(NOTEBOOK_CARD, max_size=11),
)
def test_random_notebooks(stars: list[int], notebook: NotebookSpec) -> None:
    assume(sum(kind is SAT for kind, _ in notebook) <= 3)
    state = position(dict(zip(TYPES, stars, strict=True)), notebook)
    assume(readings_count(state, 0) <= 4000)
    check_agreement(state, 0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1))
def test_finished_random_games(seed: int) -> None:
    rng = random.Random(seed)
    state = StellarState.new_game(seed=seed)
    while not state.is_over:
        state = apply(state, rng.choice(list(legal_moves(state))))
    for player in (0, 1):
        assume(readings_count(state, player) <= 4000)
    for player in (0, 1):
        assert len(state.areas[player].notebook) == 13
        check_agreement(state, player)
