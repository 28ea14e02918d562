"""The shipped catalog from real star figures (tools/build_catalog.py), and the provisional one."""

from __future__ import annotations

from collections import Counter

from asterion.models.aster_board import Board
from asterion.models.aster_cards import ActionKind, Deck, default_catalog, provisional_catalog
from asterion.models.aster_patterns import placements
from asterion.models.sky import default_sky


def test_88_distinct_iau_cards_5_obsolete_and_big_and_bang() -> None:
    catalog = default_catalog()
    iau = [c.abbr for c in catalog.cards if c.deck in (Deck.SMALL, Deck.LARGE)]
    assert len(iau) == 88 and len(set(iau)) == 88
    assert set(iau) == {c.abbr for c in default_sky().iau}
    assert {c.abbr for c in catalog.deck(Deck.OBSOLETE)} == {"Arg", "Qua", "Atn", "Cer", "TaP"}
    # rules/aster.md: 4 Big and 4 Bang cards, one copy per player
    base = [(c.abbr, c.astronomer.copy if c.astronomer else None) for c in catalog.deck(Deck.BASE)]
    assert base == [("Big", k) for k in range(1, 5)] + [("Bang", k) for k in range(1, 5)]


def test_deck_sizes_and_points_follow_the_star_counts() -> None:
    catalog = default_catalog()
    assert len(catalog.deck(Deck.SMALL)) == 49
    assert len(catalog.deck(Deck.LARGE)) == 39
    for card in catalog.deck(Deck.SMALL):
        assert 2 <= card.stars <= 4 and card.points == card.stars
    for card in catalog.deck(Deck.LARGE) + catalog.deck(Deck.OBSOLETE):
        assert card.stars >= 5 and card.points == card.stars


def test_every_pattern_is_the_figure_on_distinct_board_points_and_can_be_placed() -> None:
    board = Board()
    sky = default_sky()
    for card in default_catalog().cards:
        if card.deck is Deck.BASE:
            continue
        assert len(card.pattern) == len(sky[card.abbr].stars)
        assert all(xy in board.at for xy in card.pattern)
        assert placements(board, card.pattern), card.abbr


def test_action_rule_gives_every_kind_a_share_and_no_card_repeats_one() -> None:
    cards = [c for c in default_catalog().cards if c.deck is not Deck.BASE]
    shares = Counter(a for c in cards for a in c.actions)
    assert set(shares) == set(ActionKind)
    assert min(shares.values()) >= 10
    for card in cards:
        assert len(set(card.actions)) == len(card.actions)
        expected = 3 if card.deck is Deck.OBSOLETE or card.stars >= 8 else 1 + (card.stars >= 5)
        assert len(card.actions) == expected, card.abbr
        assert card.links.left


def test_provisional_catalog_is_kept_for_older_tests() -> None:
    catalog = provisional_catalog()
    assert len(catalog.cards) == 16 and "Ori" in catalog and "Big" in catalog
    assert catalog["Ori"].pattern != default_catalog()["Ori"].pattern
