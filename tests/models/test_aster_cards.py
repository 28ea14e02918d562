"""The card model and the catalog file: the shipped catalog, validation, fuzzing."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.aster_board import Board
from asterion.models.aster_cards import (
    ActionKind,
    Deck,
    Links,
    catalog_from_data,
    catalog_to_data,
    default_catalog,
    load_catalog,
)
from asterion.models.aster_patterns import placements


def test_shipped_catalog_has_both_decks_and_the_base_cards() -> None:
    catalog = default_catalog()
    small, large = catalog.deck(Deck.SMALL), catalog.deck(Deck.LARGE)
    assert len(small) + len(large) >= 12 and small and large
    # seed: small deck 2-4 stars, large deck 5 or more; points = number of stars
    assert all(2 <= card.stars <= 4 for card in small)
    assert all(card.stars >= 5 for card in large)
    assert all(card.points == card.stars for card in small + large)
    # A6: Big = [generate, move_ring], Bang = [move_line, nudge], no points
    assert catalog["Big"].actions == (ActionKind.GENERATE, ActionKind.MOVE_RING)
    assert catalog["Bang"].actions == (ActionKind.MOVE_LINE, ActionKind.NUDGE)
    assert catalog["Big"].points == catalog["Bang"].points == 0
    # Big links to Bang (A7), so the opening row is Big + Bang
    assert catalog["Big"].links.right and catalog["Bang"].links.left


def test_every_shipped_pattern_fits_the_default_board() -> None:
    for card in default_catalog().cards:
        if card.pattern:
            assert placements(Board(), card.pattern), card.abbr


def test_every_action_kind_appears_on_some_card() -> None:
    used = {kind for card in default_catalog().cards for kind in card.actions}
    assert used == set(ActionKind)


def test_round_trip() -> None:
    catalog = default_catalog()
    again = catalog_from_data(catalog_to_data(catalog), "again")
    assert again.cards == catalog.cards


def _card(**changes: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "abbr": "Tri",
        "name": "Triangulum",
        "deck": "small",
        "points": 3,
        "pattern": [[0, 0], [1, 0], [1, 1]],
        "actions": ["nudge"],
        "links": {"left": True, "right": True},
    }
    card.update(changes)
    return card


FOUR = [[0, 0], [1, 0], [2, 0], [3, 0]]


def _base(copy: int) -> dict[str, Any]:
    """A base card with an astronomer side for ``copy``."""
    astronomer = {"copy": copy, "actions": ["nudge"]}
    return _card(abbr="Big", deck="base", pattern=[], points=0, astronomer=astronomer)


def test_astronomer_copies_one_to_four_are_accepted() -> None:
    catalog = catalog_from_data({"cards": [_base(1), _base(4)]}, "cards.json")
    assert catalog.astronomer_actions("Big", 4) == (ActionKind.NUDGE,)


def test_a_connector_not_given_is_absent() -> None:
    # A7: a card links only where a connector is printed; the file may leave the others out.
    no_links = {k: v for k, v in _card().items() if k != "links"}
    cards = [_card(links={"right": True}), {**no_links, "abbr": "Non"}]
    one, none = catalog_from_data({"cards": cards}, "cards.json").cards
    assert one.links == Links(left=False, right=True, up=False, down=False)
    assert none.links == Links(left=False, right=False, up=False, down=False)
    assert Links() == none.links


@pytest.mark.parametrize(
    ("cards", "field", "problem"),
    [
        ([_card(deck="large")], "cards.0", "5 or more"),
        # seed: the small deck holds 2-4 stars, the large (and obsolete) 5 or more: the bounds.
        ([_card(pattern=[[0, 0]], points=1)], "cards.0", "2-4 stars, not 1"),
        ([_card(deck="large", pattern=FOUR, points=4)], "cards.0", "5 or more"),
        ([_card(deck="obsolete", pattern=FOUR, points=4)], "cards.0", "5 or more"),
        ([_card(points=4)], "cards.0", "points must equal"),
        ([_card(pattern=[[0, 0], [0, 0], [1, 1]])], "cards.0", "repeats"),
        ([_card(), _card()], "", "used by two cards"),
        ([_card(actions=["warp"])], "cards.0.actions.0", "warp"),
        ([_card(deck="base")], "cards.0", "no stars"),
        # Big and Bang are no constellations: neither stars (even worth 0) nor points.
        ([_card(deck="base", points=0)], "cards.0", "no stars"),
        ([_card(deck="base", pattern=[], points=2)], "cards.0", "no points"),
        # One copy of Big and Bang per player, 1 to 4 players: copies 1-4 only.
        ([_base(copy=0)], "cards.0.astronomer.copy", "greater than or equal to 1"),
        ([_base(copy=5)], "cards.0.astronomer.copy", "less than or equal to 4"),
        ([_card(links={"left": True, "sideways": True})], "cards.0.links.sideways", "unknown"),
        ([], "cards", "at least 1"),
    ],
)
def test_bad_catalogs_name_the_field(cards: list[Any], field: str, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        catalog_from_data({"cards": cards}, "cards.json")
    message = str(caught.value)
    assert message.startswith("cards.json: ") and problem in message
    assert field in message


def test_load_catalog_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"cards": [_card()]}))
    assert [card.abbr for card in load_catalog(path).cards] == ["Tri"]
    path.write_text("{")
    with pytest.raises(InputError, match=r"mine\.json: not valid JSON"):
        load_catalog(path)


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["cards", "abbr", "deck", "pattern", "points", "actions", "x"]),
                inner,
                max_size=5,
            )
        ),
        max_leaves=20,
    )
)
def test_fuzz_only_input_errors(data: object) -> None:
    with contextlib.suppress(InputError):
        catalog_from_data(data, "fuzz.json")
