"""The Stellar rules engine against rules/stellar.md.

Every expected value below is worked out by hand from the rules page (and the seed's worked
example); the comments show the arithmetic. Positions are built by hand with small decks.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import IllegalActionError, InputError
from asterion.models.stellar import (
    FinalNote,
    Move,
    Pass,
    Placed,
    PlayerArea,
    ResetDisplay,
    StellarRules,
    StellarState,
    Turn,
    apply,
    legal_moves,
    legal_slots,
    score,
    section_sums,
    telescope_placements,
    telescope_stars,
)
from asterion.models.stellar_cards import (
    CelestialType,
    Deck,
    Layout,
    StellarCard,
    default_deck,
)
from asterion.models.stellar_files import parse_game

PLANET = CelestialType.PLANET
MOON = CelestialType.MOON
ASTEROID = CelestialType.ASTEROID
CLOUD = CelestialType.CLOUD
BLACK_HOLE = CelestialType.BLACK_HOLE
SAT = None  # a satellite has no type
ZERO_SIX = 0  # how a "0/6" card's number is stored

# The S1 picture (rules/stellar.md), worked out by hand:
#
#   row 0:  .  .  1  .
#   row 1:  .  2  3  .
#   row 2:  4  5  6  .
#   row 3:  .  7  8  .
#   row 4:  9 10 11 12
#
# Side neighbours: 1 (0,2) touches 3 (1,2); 2 (1,1) touches 3 and 5; 3 touches 1, 2, 6;
# 4 (2,0) touches only 5; 5 (2,1) touches 2, 4, 6, 7; 6 (2,2) touches 3, 5, 8;
# 7 (3,1) touches 5, 8, 10; 8 (3,2) touches 6, 7, 11; 9 (4,0) touches only 10;
# 10 touches 7, 9, 11; 11 touches 8, 10, 12; 12 (4,3) touches only 11.
HAND_EDGES = {
    frozenset(pair)
    for pair in [
        (1, 3), (2, 3), (2, 5), (3, 6), (4, 5), (5, 6), (5, 7),
        (6, 8), (7, 8), (7, 10), (8, 11), (9, 10), (10, 11), (11, 12),
    ]
}  # fmt: skip
HAND_NEIGHBOURS = {
    slot: {other for edge in HAND_EDGES if slot in edge for other in edge - {slot}}
    for slot in range(1, 13)
}


def c(card_id: str, kind: CelestialType | None, number: int, stars: int = 0) -> StellarCard:
    return StellarCard(card_id, kind, number, stars)


def area(
    telescope: dict[int, str | Placed] | None = None,
    notebook: Iterable[str] = (),
    hand: Iterable[str] = (),
) -> PlayerArea:
    placed = tuple(
        sorted(
            (slot, p if isinstance(p, Placed) else Placed(p))
            for slot, p in (telescope or {}).items()
        )
    )
    return PlayerArea(placed, tuple(notebook), tuple(hand))


# -- the cards of the hand-built turn positions ------------------------------------------------

TURN_CARDS = [
    c("T1", PLANET, 3, 1),  # player 0, telescope slot 1
    c("N1", MOON, 3),  # player 0, notebook
    c("U1", MOON, 3),  # player 1, telescope slot 1
    c("N2", PLANET, 3),  # player 1, notebook
    c("H2", PLANET, 2, 2),  # player 0's hand
    c("H0", PLANET, ZERO_SIX, 3),  # player 0's hand
    c("G1", ASTEROID, 1),  # player 1's hand
    c("G2", ASTEROID, 2),  # player 1's hand
    c("D1", MOON, 1),  # the display, positions 1-5
    c("D2", MOON, 2),
    c("D3", ASTEROID, 3),
    c("D4", CLOUD, 4),
    c("D5", BLACK_HOLE, 5),
    c("K1", CLOUD, 1),  # the deck, top first
    c("K2", CLOUD, 2),
    c("K3", ASTEROID, 4),
    c("K4", ASTEROID, 5),
    c("K5", BLACK_HOLE, 1),
    c("K6", BLACK_HOLE, 2),
    c("K7", MOON, 4),
    c("K8", MOON, 5),
    c("K9", PLANET, 4),
    c("K10", PLANET, 5),
    c("X3", MOON, 5),  # spare cards for variants
    c("SA", SAT, 1),
    c("SB", SAT, 2),
    c("SC", SAT, 4),
]
TURN_DECK = Deck(tuple(TURN_CARDS), "turn tests")
DISPLAY = ("D1", "D2", "D3", "D4", "D5")
DECK = ("K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8", "K9", "K10")


def turn_state(
    *,
    p0: PlayerArea | None = None,
    p1: PlayerArea | None = None,
    display: tuple[str | None, ...] = DISPLAY,
    deck: tuple[str, ...] = DECK,
    **rules: object,
) -> StellarState:
    p0 = p0 or area({1: "T1"}, ["N1"], ["H2", "H0"])
    p1 = p1 or area({1: "U1"}, ["N2"], ["G1", "G2"])
    return StellarState((p0, p1), display, deck, rules=StellarRules(deck=TURN_DECK, **rules))  # type: ignore[arg-type]


def every_card(state: StellarState) -> Counter[str]:
    """Each card id once per place it occupies."""
    found: Counter[str] = Counter()
    for player in state.areas:
        found.update(p.card for _, p in player.telescope)
        found.update(player.notebook)
        found.update(player.hand)
    found.update(card for card in state.display if card is not None)
    found.update(state.deck)
    return found


# -- the layout (S1) -----------------------------------------------------------------------------


def test_the_layout_has_twelve_slots() -> None:
    layout = Layout()
    assert layout.slots == tuple(range(1, 13))
    assert sorted(layout.graph.nodes) == list(range(1, 13))


def test_adjacency_is_sharing_a_side_in_the_s1_picture() -> None:
    layout = Layout()
    assert {frozenset(edge) for edge in layout.graph.edges} == HAND_EDGES
    for slot in range(1, 13):
        assert set(layout.neighbors(slot)) == HAND_NEIGHBOURS[slot], slot
    # Diagonals are not adjacent: 1 (0,2) and 2 (1,1); 4 (2,0) and 7 (3,1); 8 (3,2) and 12.
    assert 2 not in layout.neighbors(1)
    assert 7 not in layout.neighbors(4)
    assert 12 not in layout.neighbors(8)


def test_sections_top_middle_bottom() -> None:
    layout = Layout()
    assert dict(layout.sections) == {
        "top": (1, 2, 3, 4, 5),
        "middle": (6, 7, 8),
        "bottom": (9, 10, 11, 12),
    }
    sections = {slot: layout.graph.nodes[slot]["section"] for slot in layout.slots}
    assert [slot for slot, name in sections.items() if name == "top"] == [1, 2, 3, 4, 5]
    assert [slot for slot, name in sections.items() if name == "middle"] == [6, 7, 8]
    assert [slot for slot, name in sections.items() if name == "bottom"] == [9, 10, 11, 12]


# -- telescope legality ------------------------------------------------------------------------

LEGALITY_CARDS = [
    c("Pa", PLANET, 1),
    c("Pb", PLANET, 2),
    c("Pc", PLANET, 3),
    c("Ma", MOON, 1),
    c("Mb", MOON, 2),
    c("Sa", SAT, 4),
    c("Sb", SAT, ZERO_SIX),
]
LEGALITY_DECK = Deck(tuple(LEGALITY_CARDS))


def telescope_of(telescope: dict[int, str | Placed]) -> StellarState:
    return StellarState(
        (area(telescope), area()), (None,) * 5, (), rules=StellarRules(deck=LEGALITY_DECK)
    )


def empty_slots(*occupied: int) -> tuple[int, ...]:
    return tuple(slot for slot in range(1, 13) if slot not in occupied)


def test_a_new_type_goes_on_any_empty_slot() -> None:
    state = telescope_of({1: "Pa"})
    assert legal_slots(state, 0, LEGALITY_DECK["Ma"]) == empty_slots(1)


def test_a_known_type_goes_only_next_to_its_type() -> None:
    # A planet on 1: its only neighbour is 3.
    state = telescope_of({1: "Pa"})
    assert legal_slots(state, 0, LEGALITY_DECK["Pb"]) == (3,)
    # Planets on 1 and 3: neighbours {3} | {1, 2, 6}, empty ones 2 and 6.
    state = telescope_of({1: "Pa", 3: "Pb"})
    assert legal_slots(state, 0, LEGALITY_DECK["Pc"]) == (2, 6)
    # Planets on 5 and 7, a moon on 6: {2, 4, 6, 7} | {5, 8, 10} minus {5, 6, 7}.
    state = telescope_of({5: "Pa", 7: "Pb", 6: "Ma"})
    assert legal_slots(state, 0, LEGALITY_DECK["Pc"]) == (2, 4, 8, 10)
    # The moon on 6 may be joined on 3 (its other neighbours 5 and 8: 5 is taken).
    assert legal_slots(state, 0, LEGALITY_DECK["Mb"]) == (3, 8)


def test_satellites_go_anywhere() -> None:
    state = telescope_of({1: "Pa", 3: "Ma"})
    assert legal_slots(state, 0, LEGALITY_DECK["Sa"]) == empty_slots(1, 3)
    assert telescope_placements(state, 0, LEGALITY_DECK["Sb"]) == [
        (slot, False) for slot in empty_slots(1, 3)
    ]


def test_no_legal_slot_means_face_down_on_any_empty_slot() -> None:
    # The planet on 1 has one neighbour, 3, and a moon sits there.
    state = telescope_of({1: "Pa", 3: "Ma"})
    assert legal_slots(state, 0, LEGALITY_DECK["Pb"]) == ()
    assert telescope_placements(state, 0, LEGALITY_DECK["Pb"]) == [
        (slot, True) for slot in empty_slots(1, 3)
    ]


def test_a_satellite_does_not_count_as_the_type_next_to_it() -> None:
    # A satellite on 3 (no type): the planet on 1 still has no empty neighbour.
    state = telescope_of({1: "Pa", 3: "Sa"})
    assert legal_slots(state, 0, LEGALITY_DECK["Pb"]) == ()


def test_a_face_down_card_has_no_type() -> None:
    # A face-down moon on 12: no moon is in the telescope, a moon goes anywhere empty.
    state = telescope_of({1: "Pa", 12: Placed("Mb", face_down=True)})
    assert legal_slots(state, 0, LEGALITY_DECK["Ma"]) == empty_slots(1, 12)
    assert state.telescope_types(0) == {1: PLANET}


def test_a_card_without_a_legal_slot_is_played_face_down() -> None:
    # Player 0: planet T1 (1 star) on 1 and moon X3 (5) on 3; H2 (planet 2, 2 stars) has no
    # legal slot, so it may go face down on any empty slot.
    state = turn_state(p0=area({1: "T1", 3: "X3"}, ["N1"], ["H2", "H0"]))
    slots = {
        m.slot
        for m in legal_moves(state)
        if isinstance(m, Turn) and m.take == 1 and m.play == "H2" and m.to == "telescope"
    }
    assert slots == set(empty_slots(1, 3))
    after = apply(state, Turn(1, "H2", "telescope", slot=12))
    assert after.areas[0].slot(12) == Placed("H2", face_down=True)
    # Face down: no type, no stars (only T1's 1 star is a planet's), number 3 (not 2).
    assert after.telescope_types(0) == {1: PLANET, 3: MOON}
    assert telescope_stars(after, 0)[PLANET] == 1
    # top: T1 3 + X3 5 = 8; bottom: the face-down card 3.
    assert section_sums(after, 0) == {"top": 8, "middle": 0, "bottom": 3}


# -- the forced second card and the refill ------------------------------------------------------


def test_the_second_card_is_the_display_card_under_the_played_number() -> None:
    state = turn_state()
    # Take D1 (position 1); play H2 (planet, number 2) next to the planet on 1, i.e. slot 3;
    # the display card under 2 (D2) goes to the notebook.
    after = apply(state, Turn(1, "H2", "telescope", slot=3))
    assert after.areas[0].telescope == ((1, Placed("T1")), (3, Placed("H2")))
    assert after.areas[0].notebook == ("N1", "D2")
    assert sorted(after.areas[0].hand) == ["D1", "H0"]
    # Refill: the gaps 1 and 2 take the deck's top two cards, in position order.
    assert after.display == ("K1", "K2", "D3", "D4", "D5")
    assert after.deck == DECK[2:]
    assert (after.active, after.turns_taken, after.phase) == (1, (1, 0), "turn")
    assert after.areas[1] == state.areas[1]


def test_a_zero_six_card_sends_the_player_to_the_deck() -> None:
    state = turn_state()
    # H0 (planet 0/6) next to the planet on 1; the second card is the deck's top card K1.
    after = apply(state, Turn(1, "H0", "telescope", slot=3))
    assert after.areas[0].notebook == ("N1", "K1")
    # Only position 1 is empty: it gets the next card K2.
    assert after.display == ("K2", "D2", "D3", "D4", "D5")
    assert after.deck == DECK[2:]


def test_an_emptied_position_sends_the_player_to_the_deck() -> None:
    state = turn_state()
    # Take D2 (moon 2) and play it to the notebook: position 2 is empty, so the deck's top
    # card K1 (cloud, a new type) goes to the telescope, here on slot 12.
    after = apply(state, Turn(2, "D2", "notebook", second_slot=12))
    assert after.areas[0].notebook == ("N1", "D2")
    assert after.areas[0].slot(12) == Placed("K1")
    assert sorted(after.areas[0].hand) == ["H0", "H2"]
    assert after.display == ("D1", "K2", "D3", "D4", "D5")
    assert after.deck == DECK[2:]


@pytest.mark.parametrize(
    ("hand", "take", "play", "second", "display"),
    [
        # Take D3 (position 3); play the satellite SA (number 1): D1, under 1, goes to the
        # telescope (not the deck's top K1); gaps 1 and 3 take K1 and K2.
        (["SA", "H2"], 3, "SA", "D1", ("K1", "D2", "K2", "D4", "D5")),
        # Take D1; play X3 (moon 5): D5, under 5, goes to the telescope; gaps 1 and 5.
        (["X3", "H2"], 1, "X3", "D5", ("K1", "D2", "D3", "D4", "K2")),
    ],
    ids=["under one", "under five"],
)
def test_the_ends_of_the_display_give_the_second_card(
    hand: list[str], take: int, play: str, second: str, display: tuple[str, ...]
) -> None:
    # Turn step 3: "Take the display card under the number equal to the played card's number"
    # holds for the first and the last number card. The played card goes to the notebook;
    # the second (a moon D1 or a black hole D5, a new type) to the telescope, here slot 12.
    state = turn_state(p0=area({1: "T1"}, ["N1"], hand))
    after = apply(state, Turn(take, play, "notebook", second_slot=12))
    assert after.areas[0].notebook == ("N1", play)
    assert after.areas[0].slot(12) == Placed(second)
    assert (after.display, after.deck) == (display, DECK[2:])


def test_the_second_card_goes_to_the_other_area_and_the_refill_is_in_position_order() -> None:
    state = turn_state()
    # Take D4 (position 4), play H2 (number 2) to the notebook: D2 goes to the telescope.
    # D2 is a moon, a new type: any empty slot (2-12) is offered.
    second_slots = {
        m.second_slot
        for m in legal_moves(state)
        if isinstance(m, Turn) and (m.take, m.play, m.to) == (4, "H2", "notebook")
    }
    assert second_slots == set(empty_slots(1))
    after = apply(state, Turn(4, "H2", "notebook", second_slot=5))
    assert after.areas[0].notebook == ("N1", "H2")
    assert after.areas[0].slot(5) == Placed("D2")
    # Gaps 2 and 4: K1 to position 2, K2 to position 4.
    assert after.display == ("D1", "K1", "D3", "K2", "D5")
    # Played to the telescope, the second card has no slot; played to the notebook, it has.
    for move in legal_moves(state):
        assert isinstance(move, Turn)
        assert (move.slot is None) == (move.to == "notebook")
        assert (move.second_slot is None) == (move.to == "telescope")


def test_a_forced_second_card_without_a_legal_slot_goes_face_down() -> None:
    # Player 0: planet on 1, moon on 3. Display position 2 holds K9, a planet: when it is
    # forced into the telescope it has no legal slot and goes face down anywhere empty.
    state = turn_state(
        p0=area({1: "T1", 3: "X3"}, ["N1"], ["H2", "H0"]),
        display=("D1", "K9", "D3", "D4", "D5"),
        deck=("K1", "K2", "K3"),
    )
    second_slots = {
        m.second_slot
        for m in legal_moves(state)
        if isinstance(m, Turn) and (m.take, m.play, m.to) == (1, "H2", "notebook")
    }
    assert second_slots == set(empty_slots(1, 3))
    after = apply(state, Turn(1, "H2", "notebook", second_slot=2))
    assert after.areas[0].slot(2) == Placed("K9", face_down=True)


def test_every_turn_of_a_position_moves_two_cards_out_of_display_and_deck() -> None:
    state = turn_state()
    for move in legal_moves(state):
        after = apply(state, move)
        # One card to the telescope, one to the notebook, the hand still holds 2; every
        # card is still somewhere exactly once; at most 2 gaps were refilled.
        assert len(after.areas[0].telescope) == 2
        assert len(after.areas[0].notebook) == 2
        assert len(after.areas[0].hand) == 2
        assert every_card(after) == every_card(state)
        assert None not in after.display
        assert len(after.deck) == len(state.deck) - 2


# -- the satellite reset -----------------------------------------------------------------------


def test_taking_a_satellite_offers_the_opponent_a_reset() -> None:
    state = turn_state(display=("SA", "D2", "D3", "D4", "D5"))
    after = apply(state, Turn(1, "H2", "telescope", slot=3))
    assert after.phase == "reset"
    assert after.resetter == 1
    assert set(legal_moves(after)) == {ResetDisplay(True), ResetDisplay(False)}
    # After the refill: display K1 K2 D3 D4 D5, deck K3-K10.
    assert after.display == ("K1", "K2", "D3", "D4", "D5")
    dealt = apply(after, ResetDisplay(True))
    # Dealt anew from the deck's top; the old five go under the deck (S4).
    assert dealt.display == ("K3", "K4", "K5", "K6", "K7")
    assert dealt.deck[:3] == ("K8", "K9", "K10")
    assert sorted(dealt.deck[3:]) == sorted(["K1", "K2", "D3", "D4", "D5"])
    assert (dealt.phase, dealt.active, dealt.resetter) == ("turn", 1, None)
    assert every_card(dealt) == every_card(state)
    kept = apply(after, ResetDisplay(False))
    assert (kept.display, kept.deck) == (after.display, after.deck)
    assert (kept.phase, kept.active) == ("turn", 1)


def test_the_second_player_taking_a_satellite_lets_the_first_answer() -> None:
    # R: "after a satellite was taken from the display, the opponent may have the whole
    # display discarded". Player 1 (seat index 1) takes SA: the opponent is player 0.
    state = replace(turn_state(display=("SA", "D2", "D3", "D4", "D5")), active=1)
    # G2 (asteroid 2, a new type for player 1) to slot 12; D2, under 2, to the notebook.
    after = apply(state, Turn(1, "G2", "telescope", slot=12))
    assert after.areas[1].notebook == ("N2", "D2")
    assert (after.phase, after.resetter) == ("reset", 0)
    # Whatever the answer, the turn then passes to player 0.
    assert apply(after, ResetDisplay(False)).active == 0
    assert apply(after, ResetDisplay(True)).active == 0


def test_a_satellite_taken_as_the_second_card_also_offers_a_reset() -> None:
    # The display card under 2 is the satellite SB: it leaves the display in step 3.
    state = turn_state(display=("D1", "SB", "D3", "D4", "D5"))
    after = apply(state, Turn(1, "H2", "telescope", slot=3))
    assert after.areas[0].notebook == ("N1", "SB")
    assert after.phase == "reset"


def test_a_satellite_from_the_deck_top_offers_no_reset() -> None:
    # H0 is 0/6: the second card is the deck's top card, a satellite that was never in the
    # display.
    state = turn_state(deck=("SA", *DECK))
    after = apply(state, Turn(1, "H0", "telescope", slot=3))
    assert after.areas[0].notebook == ("N1", "SA")
    assert (after.phase, after.active) == ("turn", 1)


def test_no_reset_when_the_rule_is_off() -> None:
    state = turn_state(display=("SA", "D2", "D3", "D4", "D5"), satellite_reset=False)
    after = apply(state, Turn(1, "H2", "telescope", slot=3))
    assert (after.phase, after.active) == ("turn", 1)


def test_reset_discarding_the_display_when_not_to_the_bottom() -> None:
    state = turn_state(display=("SA", "D2", "D3", "D4", "D5"), reset_to_bottom=False)
    after = apply(apply(state, Turn(1, "H2", "telescope", slot=3)), ResetDisplay(True))
    assert after.display == ("K3", "K4", "K5", "K6", "K7")
    assert after.deck == ("K8", "K9", "K10")


SOLO_TARGETS = (("top", 10), ("middle", 5), ("bottom", 5))


def solo_state(display: tuple[str, ...] = DISPLAY, turns: int = 11) -> StellarState:
    rules = StellarRules(deck=TURN_DECK, turns=turns, solo_targets=SOLO_TARGETS)
    return StellarState.solo(
        rules,
        telescope_start="T1",
        notebook_start="N1",
        hand=("H2", "H0"),
        display=display,
        deck=DECK,
    )


def test_a_solo_start_is_a_game_setup_for_one_seat() -> None:
    # Setup: "one goes to telescope slot 1, the other to the notebook"; the solo puzzle
    # starts the same way for its one player, with the deck in the order given.
    state = solo_state()
    assert state.areas[0] == area({1: "T1"}, ["N1"], ["H2", "H0"])
    assert state.areas[1] == PlayerArea()
    assert (state.display, state.deck, state.active, state.phase) == (DISPLAY, DECK, 0, "turn")


def test_no_reset_in_solo() -> None:
    state = solo_state(display=("SA", "D2", "D3", "D4", "D5"))
    after = apply(state, Turn(1, "H2", "telescope", slot=3))
    assert after.areas[0].notebook == ("N1", "D2")
    assert (after.phase, after.active, after.turns_taken) == ("turn", 0, (1, 0))


def test_solo_ends_after_its_turns_with_one_final_note() -> None:
    state = solo_state(turns=2)
    state = apply(state, Turn(1, "H2", "telescope", slot=3))
    assert (state.phase, state.active) == ("turn", 0)
    state = apply(state, next(iter(legal_moves(state))))
    assert (state.phase, state.active) == ("final", 0)
    hand = state.areas[0].hand
    assert set(legal_moves(state)) == {FinalNote(card) for card in hand}
    state = apply(state, FinalNote(hand[0]))
    assert state.is_over
    assert len(state.areas[0].telescope) == 3
    assert len(state.areas[0].notebook) == 4
    assert list(legal_moves(state)) == []


# -- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_setup(seed: int) -> None:
    deck = default_deck()
    starters = {card.id for card in deck.starters}
    assert len(starters) == 5
    state = StellarState.new_game(seed=seed)
    placed = []
    for player in state.areas:
        # One starter on slot 1 (face up), the other in the notebook; 2 cards in hand.
        assert [slot for slot, _ in player.telescope] == [1]
        ((_, on_one),) = player.telescope
        assert not on_one.face_down
        assert len(player.notebook) == 1
        assert len(player.hand) == 2
        placed += [on_one.card, player.notebook[0]]
    assert set(placed) <= starters
    assert len(set(placed)) == 4
    # The fifth starter was shuffled in with the rest.
    (fifth,) = starters - set(placed)
    assert fifth in (*state.areas[0].hand, *state.areas[1].hand, *state.display, *state.deck)
    # 5 in the display; the deck holds the rest: 60 - 4 starters - 4 in hand - 5 = 47.
    assert len(state.display) == 5 and None not in state.display
    assert len(state.deck) == len(deck.cards) - 4 - 4 - 5 == 47
    assert every_card(state) == Counter(card.id for card in deck.cards)
    assert (state.active, state.turns_taken, state.phase) == (0, (0, 0), "turn")


def test_setup_needs_five_starters() -> None:
    cards = tuple(StellarCard(f"X{i}", PLANET, 1 + i % 5, 0, starter=i < 4) for i in range(30))
    with pytest.raises(InputError):
        StellarState.new_game(StellarRules(deck=Deck(cards)), seed=0)


# -- the end ---------------------------------------------------------------------------------------


def play_to_the_end(
    state: StellarState, rng: random.Random
) -> tuple[list[tuple[StellarState, Move]], StellarState]:
    """Random legal moves until the game is over: every (state, move) and the end."""
    history = []
    while not state.is_over:
        moves = list(legal_moves(state))
        assert moves, state.phase
        move = rng.choice(moves)
        history.append((state, move))
        state = apply(state, move)
    return history, state


def test_eleven_turns_each_then_a_final_note_each_then_over() -> None:
    history, end = play_to_the_end(StellarState.new_game(seed=3), random.Random(3))
    turns = Counter(s.active for s, m in history if isinstance(m, Turn))
    assert turns == {0: 11, 1: 11}
    finals = [(s.active, s.phase) for s, m in history if isinstance(m, FinalNote)]
    assert finals == [(0, "final"), (1, "final")]
    # The last turn is followed (after any reset answer) by the final notes, player 0 first.
    kinds = [type(m).__name__ for _, m in history if not isinstance(m, ResetDisplay)]
    assert kinds[-2:] == ["FinalNote", "FinalNote"]
    assert kinds[:-2] == ["Turn"] * 22
    final_start = next(s for s, m in history if isinstance(m, FinalNote))
    assert final_start.turns_taken == (11, 11)
    assert set(legal_moves(final_start)) == {FinalNote(c) for c in final_start.areas[0].hand}
    assert end.is_over
    assert list(legal_moves(end)) == []
    for player in end.areas:
        assert len(player.telescope) == 12
        assert len(player.notebook) == 13
        assert len(player.hand) == 1
    with pytest.raises(IllegalActionError):
        apply(end, FinalNote(end.areas[0].hand[0]))
    with pytest.raises(IllegalActionError):
        apply(end, Pass())


# -- illegal moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        Turn(1, "H2", "telescope", slot=2),  # not next to the planet on 1
        Turn(5, "H2", "telescope", slot=2),  # the last display position, the same wrong slot
        Turn(1, "H2", "telescope", slot=1),  # occupied
        Turn(1, "H2", "telescope", slot=13),  # no such slot
        Turn(1, "H2", "telescope", slot=None),  # the telescope needs a slot
        Turn(1, "H2", "telescope", slot=3, second_slot=5),  # the second card is notebooked
        Turn(1, "H2", "notebook"),  # the second card (D2) goes to the telescope: slot?
        Turn(1, "H2", "notebook", second_slot=1),  # occupied
        Turn(1, "G1", "notebook", second_slot=5),  # the opponent's card
        Turn(1, "D3", "notebook", second_slot=5),  # a display card that was not taken
        Turn(1, "K1", "notebook", second_slot=5),  # a deck card
        Turn(1, "ZZ", "notebook", second_slot=5),  # no such card
        Turn(0, "H2", "telescope", slot=3),  # the display holds cards: one must be taken
        Turn(6, "H2", "telescope", slot=3),  # no display position 6
        Turn(-1, "H2", "telescope", slot=3),  # no display position -1
        pytest.param(
            Turn(-9, "H2", "telescope", slot=3),  # no display position -9,
        ),
        FinalNote("H2"),  # not the end yet
        ResetDisplay(True),  # no satellite left the display
        ResetDisplay(False),
        Pass(),  # moves exist
    ],
    ids=str,
)
def test_illegal_moves_raise(move: Move) -> None:
    state = turn_state()
    with pytest.raises(IllegalActionError):
        apply(state, move)


def test_illegal_moves_in_the_reset_phase_raise() -> None:
    state = apply(
        turn_state(display=("SA", "D2", "D3", "D4", "D5")), Turn(1, "H2", "telescope", slot=3)
    )
    assert state.phase == "reset"
    for move in (Turn(1, "G1", "notebook", second_slot=5), FinalNote("G1"), Pass()):
        with pytest.raises(IllegalActionError):
            apply(state, move)


def test_illegal_moves_in_the_final_phase_raise() -> None:
    state = turn_state()
    state = StellarState(
        state.areas,
        state.display,
        state.deck,
        turns_taken=(11, 11),
        phase="final",
        rules=state.rules,
    )
    assert set(legal_moves(state)) == {FinalNote("H2"), FinalNote("H0")}
    for move in (FinalNote("G1"), FinalNote("D1"), Turn(1, "H2", "telescope", slot=3), Pass()):
        with pytest.raises(IllegalActionError):
            apply(state, move)


def test_a_player_with_no_card_for_the_final_note_passes_and_the_other_still_notes() -> None:
    # rules/stellar.md: at the end each player plays one of the cards left in hand to the
    # notebook; player 1 (hand empty, say after a dry deck) passes, and player 2 still notes.
    base = turn_state(p0=area({1: "T1"}, ["N1"], []))
    state = replace(base, turns_taken=(11, 11), phase="final", active=0)
    assert list(legal_moves(state)) == [Pass()]
    state = apply(state, Pass())
    assert (state.phase, state.active) == ("final", 1)
    assert set(legal_moves(state)) == {FinalNote("G1"), FinalNote("G2")}
    state = apply(state, FinalNote("G1"))
    assert state.phase == "over" and state.areas[1].notebook == ("N2", "G1")


def test_the_second_players_final_pass_ends_the_game() -> None:
    # "then each player plays one of the two cards left in hand to the notebook": once the
    # second player has had that chance (here an empty hand, so a pass), the game is over.
    base = turn_state(p1=area({1: "U1"}, ["N2"], []))
    state = replace(base, turns_taken=(11, 11), phase="final", active=1)
    assert list(legal_moves(state)) == [Pass()]
    after = apply(state, Pass())
    assert after.is_over
    assert list(legal_moves(after)) == []


def test_a_pass_uses_up_the_turn() -> None:
    # "11 turns each after setup": a player who can do nothing (no card in hand or display,
    # the deck dry, S4) passes, and that pass is the turn, so the game still reaches its end.
    # Both at 10 turns: player 0's pass is their 11th (11, 10); player 1 then plays a hand
    # card without a take (nothing to take, no second card to draw), their 11th: (11, 11),
    # and the final notes follow, player 0 first.
    base = turn_state(
        p0=area({1: "T1"}, ["N1"], []), display=(None,) * 5, deck=(), reset_to_bottom=False
    )
    state = replace(base, turns_taken=(10, 10), active=0)
    assert list(legal_moves(state)) == [Pass()]
    state = apply(state, Pass())
    assert (state.turns_taken, state.phase, state.active) == ((11, 10), "turn", 1)
    state = apply(state, Turn(0, "G1", "notebook"))
    assert state.areas[1].notebook == ("N2", "G1")
    assert (state.turns_taken, state.phase, state.active) == ((11, 11), "final", 0)


def test_an_empty_display_skips_the_take_but_not_the_turn() -> None:
    # S4 with the reset display leaving the game: a turn that finds the display empty plays
    # a hand card all the same (take 0), rather than passing.
    state = turn_state(display=(None,) * 5, deck=(), reset_to_bottom=False)
    moves = list(legal_moves(state))
    assert moves and all(isinstance(m, Turn) and m.take == 0 for m in moves)
    assert {m.play for m in moves if isinstance(m, Turn)} == {"H2", "H0"}


# -- random play ---------------------------------------------------------------------------------


def connected(slots: set[int]) -> bool:
    """``slots`` form one side-by-side group (HAND_NEIGHBOURS, the hand-worked S1 picture)."""
    if not slots:
        return True
    seen, todo = set(), [min(slots)]
    while todo:
        slot = todo.pop()
        if slot not in seen:
            seen.add(slot)
            todo += [n for n in HAND_NEIGHBOURS[slot] if n in slots]
    return seen == slots


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    play_seed=st.integers(0, 2**32 - 1),
    satellite_reset=st.booleans(),
)
def test_random_play_conserves_cards_and_fills_the_telescopes(
    seed: int, play_seed: int, satellite_reset: bool
) -> None:
    rules = StellarRules(satellite_reset=satellite_reset)
    everything = Counter(card.id for card in rules.deck.cards)
    history, end = play_to_the_end(
        StellarState.new_game(rules, seed=seed), random.Random(play_seed)
    )
    for state, move in [*history, (end, Pass())]:
        # Every card exactly once: telescopes, notebooks, hands, display, deck (S4: the reset
        # puts the old display under the deck, so nothing is discarded).
        assert every_card(state) == everything
        for player in range(2):
            kinds: dict[CelestialType, set[int]] = {}
            for slot, placed in state.areas[player].telescope:
                kind = state.card(placed.card).kind
                if kind is not None and not placed.face_down:
                    kinds.setdefault(kind, set()).add(slot)
            assert all(connected(slots) for slots in kinds.values())
        if isinstance(move, ResetDisplay):
            assert state.phase == "reset"
    assert end.is_over
    for player in end.areas:
        assert [slot for slot, _ in player.telescope] == list(range(1, 13))
        assert len(player.notebook) == 13
        assert len(player.hand) == 1
    # Sections (S3): never both players gain one, and unequal sums give it to exactly one.
    first, second = score(end)
    sums = [section_sums(end, p) for p in range(2)]
    for name in ("top", "middle", "bottom"):
        gains = (first.sections[name], second.sections[name])
        if sums[0][name] == sums[1][name]:
            assert gains == (0, 0)
        else:
            assert sorted(gains) == [0, 10]
            assert gains[0] == (10 if sums[0][name] > sums[1][name] else 0)
    for result in (first, second):
        assert result.total == sum(result.types.values()) + sum(result.sections.values()) + (
            result.diversity
        )


# -- scoring -----------------------------------------------------------------------------------

SCORE_CARDS = [
    # telescope cards
    c("Mt3", MOON, 1, 3),
    c("Mt2", MOON, 2, 2),
    c("Pt2", PLANET, 1, 2),
    c("Pt3", PLANET, 2, 3),
    c("Pt1", PLANET, 3, 1),
    c("At2", ASTEROID, 1, 2),
    c("Ct1", CLOUD, 1, 1),
    c("Bt1", BLACK_HOLE, 1, 1),
    c("Bt3", BLACK_HOLE, 4, 3),
    # notebook cards
    c("M1", MOON, 1),
    c("M2", MOON, 2),
    c("M4", MOON, 4),
    c("M5", MOON, 5, 1),
    c("M06", MOON, ZERO_SIX),
    c("P1", PLANET, 1),
    c("P2", PLANET, 2),
    c("P4", PLANET, 4),
    c("P5", PLANET, 5),
    c("P06", PLANET, ZERO_SIX, 3),
    c("P06b", PLANET, ZERO_SIX),
    c("A2", ASTEROID, 2),
    c("A2b", ASTEROID, 2),
    c("A3", ASTEROID, 3),
    c("C1", CLOUD, 1),
    c("C4", CLOUD, 4),
    # satellites
    c("S1", SAT, 1),
    c("S2", SAT, 2),
    c("S3", SAT, 3, 2),
    c("S5", SAT, 5),
    c("S06", SAT, ZERO_SIX),
    c("S4a", SAT, 4),
    c("S4b", SAT, 4),
    c("S3a", SAT, 3),
    c("S3b", SAT, 3),
    c("S2a", SAT, 2),
    c("S2b", SAT, 2),
    c("S06b", SAT, ZERO_SIX),
]
SCORE_DECK = Deck(tuple(SCORE_CARDS), "scoring tests")
NO_TYPE_POINTS = dict.fromkeys(CelestialType, 0)


def position(*players: dict[str, object], **extra: object) -> StellarState:
    data = {"players": list(players), **extra}
    return parse_game(json.dumps(data), "scoring.json", SCORE_DECK)


def type_points(**points: int) -> dict[CelestialType, int]:
    return {**NO_TYPE_POINTS, **{CelestialType(kind): n for kind, n in points.items()}}


def test_the_seed_example() -> None:
    # Moons with 3 + 2 = 5 stars in the telescope (slots 1 and 3 touch), notebook moons
    # 4, 5 and a 0/6 read as 6: a run 4, 5, 6 of length 3; 5 x 3 = 15.
    state = position({"telescope": {"1": "Mt3", "3": "Mt2"}, "notebook": ["M4", "M5", "M06"]}, {})
    mine, _ = score(state)
    assert mine.types == type_points(moon=15)
    assert mine.choices == {"M06": (MOON, 6)}
    # The notebook's own stars (M5 has one) do not count: only the telescope's.
    assert telescope_stars(state, 0)[MOON] == 5


def test_zero_six_reads_as_zero_to_extend_one_two() -> None:
    # Planets with 2 + 3 = 5 stars; notebook 1, 2 and 0/6 read as 0: run 0, 1, 2 = 3; 15.
    state = position({"telescope": {"1": "Pt2", "3": "Pt3"}, "notebook": ["P1", "P2", "P06"]}, {})
    mine, _ = score(state)
    assert mine.types == type_points(planet=15)
    assert mine.choices == {"P06": (PLANET, 0)}


def test_zero_six_extends_one_end_only() -> None:
    # Planet 2 stars; notebook 1, 2, 4, 5 and a 0/6: 0,1,2 or 4,5,6, either way 3; 2 x 3 = 6.
    state = position({"telescope": {"1": "Pt2"}, "notebook": ["P1", "P2", "P4", "P5", "P06"]}, {})
    assert score(state)[0].types == type_points(planet=6)
    # Two 0/6 planets with a 1: one as 0 gives 0, 1 (the other 6 stands alone): 2 x 2 = 4.
    state = position({"telescope": {"1": "Pt2"}, "notebook": ["P1", "P06", "P06b"]}, {})
    assert score(state)[0].types == type_points(planet=4)


def test_a_satellite_joins_the_best_group() -> None:
    # Planet 1 star, moon 3 stars; notebook planets 1, 2, moons 1, 2, satellite 3.
    # Satellite to the moons: moons 1,2,3 = 3 x 3 = 9, planets 1 x 2 = 2: 11.
    # To the planets: 1 x 3 + 3 x 2 = 9. Elsewhere: 2 + 6 = 8. Best 11.
    state = position(
        {"telescope": {"1": "Pt1", "12": "Mt3"}, "notebook": ["P1", "P2", "M1", "M2", "S3"]}, {}
    )
    mine, _ = score(state)
    assert mine.types == type_points(planet=2, moon=9)
    assert mine.choices == {"S3": (MOON, 3)}


def test_a_satellite_keeps_its_number() -> None:
    # A satellite 5 cannot bridge planets 1, 2 (it sits at 5): the planets' run stays 2.
    # Planet 2 stars: 2 x 2 = 4.
    state = position({"telescope": {"1": "Pt2"}, "notebook": ["P1", "P2", "S5"]}, {})
    assert score(state)[0].types == type_points(planet=4)
    # Satellites 2 and 3 bridge clouds 1 and 4: run 1-4 = 4; cloud 1 star: 4.
    state = position({"telescope": {"1": "Ct1"}, "notebook": ["C1", "S2", "S3", "C4"]}, {})
    mine, _ = score(state)
    assert mine.types == type_points(interstellar_cloud=4)
    assert mine.choices == {"S2": (CLOUD, 2), "S3": (CLOUD, 3)}


def test_a_zero_six_satellite() -> None:
    # Moons 2 stars with notebook 4, 5; planets 3 stars with notebook 1, 2; a 0/6 satellite.
    # As moon 6: moons 2 x 3 = 6 + planets 3 x 2 = 6 -> 12. As planet 0: 3 x 3 = 9 +
    # 2 x 2 = 4 -> 13. Best 13.
    state = position(
        {
            "telescope": {"1": "Pt3", "12": "Mt2"},
            "notebook": ["M4", "M5", "P1", "P2", "S06"],
        },
        {},
    )
    mine, _ = score(state)
    assert mine.types == type_points(planet=9, moon=4)
    assert mine.choices == {"S06": (PLANET, 0)}


def test_a_run_may_start_after_a_gap_of_one() -> None:
    # Scoring 1: "the longest run of consecutive numbers". Planet Pt2 (2 stars) in the
    # telescope; notebook planets 1, 3, 4, 5 (Pt1 is a planet 3; a notebook card's stars do
    # not count): runs 1 and 3-4-5, the longest 3; 2 x 3 = 6.
    state = position({"telescope": {"1": "Pt2"}, "notebook": ["P1", "Pt1", "P4", "P5"]}, {})
    assert score(state)[0].types == type_points(planet=6)


def test_duplicates_do_not_help() -> None:
    # Asteroid 2 stars; notebook 2, 2, 3: run 2 (the second 2 adds nothing); 2 x 2 = 4.
    state = position({"telescope": {"1": "At2"}, "notebook": ["A2", "A2b", "A3"]}, {})
    assert score(state)[0].types == type_points(asteroid=4)


def test_no_stars_or_no_notebook_cards_score_nothing() -> None:
    # Planets 1, 2 in the notebook but none in the telescope: 0 x 2. Moons in the telescope,
    # none in the notebook: 5 x 0. A satellite's stars (S3 has 2) are no type's.
    state = position(
        {"telescope": {"1": "Mt3", "3": "Mt2", "12": "S3"}, "notebook": ["P1", "P2"]}, {}
    )
    assert score(state)[0].types == NO_TYPE_POINTS
    assert telescope_stars(state, 0) == type_points(moon=5)


def test_face_down_cards_give_no_stars() -> None:
    # Planet Pt2 (2 stars) face up on 1, Pt3 (3 stars) face down on 12 (moon Mt3 took 3,
    # the only slot beside Pt2): 2 stars. Notebook planets 1, 2: 2 x 2 = 4; no notebook moons.
    state = position(
        {
            "telescope": {"1": "Pt2", "3": "Mt3", "12": {"card": "Pt3", "face_down": True}},
            "notebook": ["P1", "P2"],
        },
        {},
    )
    assert score(state)[0].types == type_points(planet=4)


# Sections, with satellites (no type constraints) and face-down planets (each played once
# a satellite took slot 3, the only slot beside the planet on 1):
#   player 0: 1 P4 (4), 3 S3a (3)               top 7
#             6 face-down P5 (counts 3)         middle 3
#             9 S4b (4)                         bottom 4
#   player 1: 1 P2 (2), 3 S06 (0/6 counts 6)    top 8
#             6 S3b (3)                         middle 3
#             9 S2b (2), 10 face-down P1 (3)    bottom 5
# Top: 7 < 8, player 1. Middle: 3 = 3 only if the face-down 5 counts 3: a tie. Bottom: 4 < 5
# only if the face-down 1 counts 3 (2 + 1 = 3 would lose). Top: 8 > 7 only if 0/6 counts 6.
SECTION_PLAYERS = (
    {"telescope": {"1": "P4", "3": "S3a", "6": {"card": "P5", "face_down": True}, "9": "S4b"}},
    {
        "telescope": {
            "1": "P2",
            "3": "S06",
            "6": "S3b",
            "9": "S2b",
            "10": {"card": "P1", "face_down": True},
        }
    },
)


def test_sections_larger_sum_wins_a_tie_gives_nobody() -> None:
    state = position(*SECTION_PLAYERS)
    assert section_sums(state, 0) == {"top": 7, "middle": 3, "bottom": 4}
    assert section_sums(state, 1) == {"top": 8, "middle": 3, "bottom": 5}
    first, second = score(state)
    assert first.sections == {"top": 0, "middle": 0, "bottom": 0}
    assert second.sections == {"top": 10, "middle": 0, "bottom": 10}
    assert (first.total, second.total) == (0, 20)


def test_sections_tie_bonus_gives_both() -> None:
    state = position(*SECTION_PLAYERS)
    tied = StellarState(
        state.areas,
        state.display,
        state.deck,
        phase=state.phase,
        rules=StellarRules(deck=SCORE_DECK, section_tie_bonus=True),
    )
    first, second = score(tied)
    assert first.sections == {"top": 0, "middle": 10, "bottom": 0}
    assert second.sections == {"top": 10, "middle": 10, "bottom": 10}


def test_sections_the_first_player_can_win() -> None:
    # Player 0: 0/6 on 6 counts 6 in the middle; player 1 nothing there: 6 > 0.
    state = position({"telescope": {"6": "S06"}}, {"telescope": {"9": "S1"}})
    first, second = score(state)
    assert first.sections == {"top": 0, "middle": 10, "bottom": 0}
    assert second.sections == {"top": 0, "middle": 0, "bottom": 10}


FIVE_TYPES = {"1": "Pt2", "2": "Mt2", "4": "At2", "9": "Ct1", "12": "Bt1"}


def test_diversity_all_five_types_face_up() -> None:
    state = position({"telescope": FIVE_TYPES}, {})
    assert score(state)[0].diversity == 10
    # A face-down card besides them changes nothing (a black hole, once S1 took 11, the
    # only slot beside the black hole on 12).
    more = {**FIVE_TYPES, "11": "S1", "6": {"card": "Bt3", "face_down": True}}
    assert score(position({"telescope": more}, {}))[0].diversity == 10


def test_diversity_face_down_and_satellites_do_not_count() -> None:
    # The black hole face down, no other: no diversity. No order of plays leaves a card face
    # down while no card of its type is face up, so a game file cannot hold this; the score
    # is asked of the position directly.
    state = position({"telescope": FIVE_TYPES}, {})
    area = state.areas[0]
    down = tuple((slot, Placed(p.card, face_down=slot == 12)) for slot, p in area.telescope)
    state = replace(state, areas=(replace(area, telescope=down), state.areas[1]))
    assert score(state)[0].diversity == 0
    satellite = {**FIVE_TYPES, "12": "S1"}
    assert score(position({"telescope": satellite}, {}))[0].diversity == 0


def test_total_adds_the_three_parts() -> None:
    # Player 0: the five types (planet 2 stars, moon 2, asteroid 2, cloud 1, black hole 1),
    # notebook planets 1, 2 (2 x 2 = 4), moons 4, 5, 0/6 (2 x 3 = 6); diversity 10.
    # Sections: top 1 + 2 + 1 = 4 vs 0, bottom 1 + 1 = 2 vs 0; middle 0 vs 0 (tie, nobody).
    # Total 4 + 6 + 20 + 10 = 40.
    state = position({"telescope": FIVE_TYPES, "notebook": ["P1", "P2", "M4", "M5", "M06"]}, {})
    mine, theirs = score(state)
    assert mine.types == type_points(planet=4, moon=6)
    assert mine.sections == {"top": 10, "middle": 0, "bottom": 10}
    assert mine.diversity == 10
    assert mine.total == 40
    assert theirs.total == 0


def test_solo_targets() -> None:
    # Player 0 of the section position: top 7, middle 3, bottom 4.
    # Targets: top 6 (7 beats it: 10), middle 4 (3 does not), bottom 4 (a tie does not beat).
    state = position(SECTION_PLAYERS[0], targets={"top": 6, "middle": 4, "bottom": 4})
    assert state.rules.is_solo
    mine, _ = score(state)
    assert mine.sections == {"top": 10, "middle": 0, "bottom": 0}
    # Targets: top 7 (tie), middle 2 (beaten), bottom 3 (beaten).
    state = position(SECTION_PLAYERS[0], targets={"top": 7, "middle": 2, "bottom": 3})
    assert score(state)[0].sections == {"top": 0, "middle": 10, "bottom": 10}


def test_solo_targets_missing_a_section_are_refused_or_scored() -> None:
    # Either the file is refused at the door (InputError naming targets), or it scores: the
    # top sum 7 beats the only target, 6.
    try:
        state = position(SECTION_PLAYERS[0], targets={"top": 6})
    except InputError as error:
        assert error.field is not None and error.field.startswith("targets")
        return
    assert score(state)[0].sections["top"] == 10


def test_every_move_reads_as_words_in_a_plan() -> None:
    # `asterion stellar solve` prints a plan move by move: no dataclass reprs.
    assert str(Turn(2, "M5b", "notebook", second_slot=12)) == (
        "take 2, play M5b to notebook, second card to telescope 12"
    )
    assert str(FinalNote("M3a")) == "final note: play M3a to notebook"
    assert str(ResetDisplay(True)) == "deal the display anew"
    assert str(ResetDisplay(False)) == "keep the display"
    assert str(Pass()) == "pass"
