"""The CP-SAT best placement against the exhaustive enumeration of placements."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.models.aster import AsterState
from asterion.models.aster_board import Board
from asterion.models.aster_cards import Card, default_catalog
from asterion.models.aster_files import parse_state
from asterion.models.aster_patterns import Transforms
from asterion.solver.aster_place import best_placement, best_placement_by_enumeration
from asterion.solver.result import Status

CARDS = [card for card in default_catalog().cards if card.pattern]


def _state(stars: dict[str, str], rings: int = 4, player: str = "red") -> AsterState:
    return parse_state(
        json.dumps({"rings": rings, "stars": stars, "player": player, "players": ["red", "blue"]})
    )


def test_hand_worked_pair() -> None:
    # Stars: red 4N, blue C, red 3N. The vertical pair [[0,0],[0,1]] is present on C-4N
    # (1 red) and on 4N-3N (2 red): the best has no missing star and 2 own stars.
    state = _state({"4N": "red", "C": "blue", "3N": "red"})
    result = best_placement(state, [(0, 0), (0, 1)])
    assert result.status is Status.OPTIMAL
    assert result.value is not None
    assert result.value.points == frozenset({"4N", "3N"})
    assert result.value.missing == () and result.value.own == 2


def test_no_placement_is_infeasible() -> None:
    # on a 2-ring board the lattice is 5 wide; a row of 5 points needs y = 0 and x from -2
    # to 2, which exists; a row of 5 at y = 1 does not, and with exact transforms that is
    # the only candidate
    state = _state({}, rings=2)
    result = best_placement(state, [(-2, 1), (-1, 1), (0, 1), (1, 1), (2, 1)], Transforms.EXACT)
    assert result.status is Status.INFEASIBLE and result.value is None


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.abbr)
def test_every_card_on_the_empty_board(card: Card) -> None:
    # on an empty board every star of the best placement is missing
    state = _state({})
    result = best_placement(state, card.pattern)
    expected = best_placement_by_enumeration(state, card.pattern)
    assert expected is not None and result.value is not None
    assert len(result.value.missing) == len(expected.missing) == len(card.pattern)


@settings(max_examples=30, deadline=None)
@given(
    card_index=st.integers(0, len(CARDS) - 1),
    stars=st.dictionaries(
        st.sampled_from(Board().points), st.sampled_from(["red", "blue"]), max_size=20
    ).filter(lambda stars: max(Counter(stars.values()).values(), default=0) <= 10),
    transforms=st.sampled_from(list(Transforms)),
)
def test_cp_sat_optimum_equals_enumeration(
    card_index: int, stars: dict[str, str], transforms: Transforms
) -> None:
    card = CARDS[card_index]
    state = _state(stars)
    expected = best_placement_by_enumeration(state, card.pattern, transforms)
    result = best_placement(state, card.pattern, transforms)
    if expected is None:
        assert result.status is Status.INFEASIBLE
        return
    assert result.status is Status.OPTIMAL and result.value is not None
    assert (len(result.value.missing), result.value.own) == (len(expected.missing), expected.own)
