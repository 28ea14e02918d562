"""The Akelarre rules engine against hand-worked turns (rules/akelarre.md).

Every expected number below is worked out by hand from the seed's payout table (step 4):
2–3 players: crowd 1 → 1 (+ Sabba), 2 → 4 each, 3 → 3 each; 4–5 players: 1 → 1 (+ Sabba),
2 → 3, 3 → 4, 4 → 3, 5 → 2 each; with K4's stand-in Sabba power, one more resource.
Objectives are made unreachable (99 of everything) unless a test is about completing them.
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError, replace

import pytest

from asterion.errors import IllegalActionError, InputError
from asterion.models.akelarre import (
    ABSENT,
    WELL,
    AkelarreRules,
    AkelarreState,
    Decider,
    Message,
    Objective,
    PayoutTable,
    PowerCard,
    Sorginak,
    apply,
    destination_name,
    first_chooser,
    is_chance_node,
    legal_actions,
    outcome,
    parse_destination,
    resolve_turn,
    virtual_target,
)
from asterion.models.akelarre_files import build_rules

EARTH, WATER, AIR, FIRE = 0, 1, 2, 3
UNREACHABLE = Objective("X", (99, 99, 99, 99))


def position(
    players: int,
    *,
    supply: tuple[int, int, int, int] = (15, 15, 15, 15),
    first: int = 0,
    objectives: tuple[Objective, ...] = (UNREACHABLE,),
    privates: tuple[str | None, ...] | None = None,
    deck: tuple[str, ...] = (),
    sabba_bonus: int = 1,
) -> AkelarreState:
    rules = build_rules(players, objectives=objectives, sabba_bonus=sabba_bonus)
    seats = tuple(
        Sorginak(private=None if privates is None else privates[s]) for s in range(rules.seats)
    )
    state = AkelarreState(
        seats=seats,
        supply=supply,
        well=(0, 0, 0, 0),
        public=None,
        objective_deck=deck,
        power_deck=("P1", "P2", "P3"),
        first=first,
        rules=rules,
    )
    return replace(state, holder=first_chooser(state))


def taken(state: AkelarreState, profile: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
    _, report = resolve_turn(state, profile)
    by_seat = {rite.seat: rite.taken for rite in report.rites}
    return [by_seat[s] for s in range(len(profile))]


# -- the payout table, row by row ------------------------------------------------------------


def test_three_players_crowds_of_3_2_and_1() -> None:
    state = position(3)
    # All three at earth: 3 each.
    assert taken(state, (EARTH, EARTH, EARTH)) == [(3, 0, 0, 0)] * 3
    # Two at water (4 each), one alone at fire: 1 + Sabba 1 = 2.
    assert taken(state, (WATER, FIRE, WATER)) == [(0, 4, 0, 0), (0, 0, 0, 2), (0, 4, 0, 0)]


def test_two_players_the_virtual_player_counts_in_the_crowd() -> None:
    state = position(2)  # seats 0, 1 and the virtual seat 2
    assert taken(state, (AIR, AIR, AIR)) == [(0, 0, 3, 0)] * 3
    # Two Sorginak at air: 4 each; the virtual player alone at earth takes 1, no Sabba power.
    assert taken(state, (AIR, AIR, EARTH)) == [(0, 0, 4, 0), (0, 0, 4, 0), (1, 0, 0, 0)]
    _, report = resolve_turn(state, (AIR, AIR, EARTH))
    assert [r.sabba for r in report.rites if r.seat == 2] == [False]


def test_four_players_crowds_of_4_3_2_and_1() -> None:
    state = position(4)
    assert taken(state, (FIRE,) * 4) == [(0, 0, 0, 3)] * 4
    assert taken(state, (FIRE, FIRE, FIRE, EARTH)) == [(0, 0, 0, 4)] * 3 + [(2, 0, 0, 0)]
    assert taken(state, (WATER, AIR, WATER, AIR)) == [(0, 3, 0, 0), (0, 0, 3, 0)] * 2


def test_five_players_crowds_of_5_4_3_2_and_1() -> None:
    state = position(5)
    assert taken(state, (EARTH,) * 5) == [(2, 0, 0, 0)] * 5
    assert taken(state, (EARTH,) * 4 + (AIR,)) == [(3, 0, 0, 0)] * 4 + [(0, 0, 2, 0)]
    assert (
        taken(state, (EARTH, EARTH, EARTH, WATER, WATER)) == [(4, 0, 0, 0)] * 3 + [(0, 3, 0, 0)] * 2
    )


def test_sabba_bonus_is_a_parameter() -> None:
    state = position(4, sabba_bonus=0)
    assert taken(state, (FIRE, FIRE, FIRE, EARTH))[3] == (1, 0, 0, 0)


# -- exhaustion, the Well, objectives --------------------------------------------------------


def test_exhaustion_follows_turn_order_from_the_first_player() -> None:
    # 3 players all at earth (3 each) with 5 earth left; first player is seat 1: the order is
    # 1, 2, 0, so seat 1 takes 3, seat 2 the last 2, seat 0 nothing.
    state = position(3, supply=(5, 15, 15, 15), first=1)
    assert [t[EARTH] for t in taken(state, (EARTH, EARTH, EARTH))] == [0, 3, 2]


def test_well_transfer_then_the_well_is_taken() -> None:
    # 4 players at earth and water; air and fire are unchosen: 1 each moves to the Well, but
    # fire is empty, so only air's.
    state = position(4, supply=(15, 15, 15, 0))
    after, report = resolve_turn(state, (EARTH, EARTH, WATER, WATER))
    assert report.well_transfer == (0, 0, 1, 0)
    assert after.well == (0, 0, 1, 0) and after.supply == (9, 9, 14, 0)
    # Next turn seat 2 goes to the Well: no transfer, and it takes all there is.
    after2, report2 = resolve_turn(after, (EARTH, EARTH, WELL, EARTH))
    assert report2.well_transfer == (0, 0, 0, 0)
    assert after2.seats[2].resources == (0, 3, 1, 0)
    assert after2.well == (0, 0, 0, 0)


def test_completed_objective_returns_resources_for_the_next_player() -> None:
    # 4 players, two at earth (3 each) with only 3 earth left. Seat 0 goes first, takes 3 and
    # completes "E3" (3 earth): the 3 go back, so seat 1 can take them. Seat 0 draws the next
    # objective and a Power card.
    goal = Objective("E3", (3, 0, 0, 0))
    state = position(
        4,
        supply=(3, 15, 15, 15),
        objectives=(goal, UNREACHABLE),
        privates=("E3", None, None, None),
        deck=("X",),
    )
    after, report = resolve_turn(state, (EARTH, EARTH, WATER, AIR))
    assert report.rites[0].completed == ("E3",)
    assert after.seats[0].completed == ("E3",) and after.seats[0].resources == (0, 0, 0, 0)
    assert after.seats[0].private == "X" and after.seats[0].powers == ("P1",)
    assert after.seats[1].resources == (3, 0, 0, 0)
    assert after.supply[EARTH] == 0


def test_empty_objective_deck_ends_the_game_after_that_turn() -> None:
    goal = Objective("W1", (0, 1, 0, 0))
    state = position(3, objectives=(goal, UNREACHABLE), privates=("W1", None, None))
    after, _ = resolve_turn(state, (WATER, EARTH, EARTH))
    assert after.is_over and after.seats[0].private is None and after.turn == 1


def test_game_ends_after_turn_13() -> None:
    state = replace(position(3), turn=13)
    after, _ = resolve_turn(state, (WATER, EARTH, EARTH))
    assert after.is_over


# -- the message chain -----------------------------------------------------------------------


def test_chain_hands_each_card_to_a_player_still_to_choose() -> None:
    state = position(4, first=2)
    assert state.holder == 2
    state = apply(state, Message(FIRE, to=0))
    assert state.holder == 0 and state.known_to(0) == {2: FIRE} and state.known_to(1) == {}
    assert {m.to for m in legal_actions(state)} == {1, 3}
    state = apply(state, Message(WELL, to=3))  # public: everyone knows
    assert state.known_to(1) == {0: WELL} and state.known_to(3) == {0: WELL}
    assert WELL not in {m.destination for m in legal_actions(state)}  # once per turn
    state = apply(state, Message(AIR, to=1))
    assert {m.to for m in legal_actions(state)} == {None}  # the last places it directly
    state = apply(state, Message(AIR))
    assert state.turn == 2 and state.first == 3 and state.holder == 3
    assert state.seats[0].resources == (0, 0, 0, 0)  # the Well was empty


def test_illegal_messages_are_refused() -> None:
    state = position(3)
    with pytest.raises(IllegalActionError, match="still to choose"):
        apply(state, Message(EARTH, to=0))
    state = apply(state, Message(WELL, to=1))
    with pytest.raises(IllegalActionError, match="already declared the Well"):
        apply(state, Message(WELL, to=2))


def test_virtual_player_alternates_its_recipient() -> None:
    state = AkelarreState.new_game(build_rules(2), seed=5)
    assert is_chance_node(state)
    moves = list(legal_actions(state))
    # Four locations, never the Well, all to seat 0 on turn 1.
    assert sorted(m.destination for m in moves) == [0, 1, 2, 3]
    assert {m.to for m in moves} == {0}
    rng = random.Random(1)
    while state.turn == 1:
        state = apply(state, rng.choice(list(legal_actions(state))))
    assert is_chance_node(state) and {m.to for m in legal_actions(state)} == {1}


# -- the end ---------------------------------------------------------------------------------


def finished(*boards: tuple[int, int, int]) -> AkelarreState:
    """Seats with (completed objectives, resources, Power cards)."""
    state = position(len(boards))
    seats = tuple(
        Sorginak(
            resources=(res, 0, 0, 0),
            completed=tuple(f"C{i}" for i in range(done)),
            powers=tuple(f"P{i}" for i in range(powers)),
        )
        for done, res, powers in boards
    )
    return replace(state, seats=seats, phase="over")


@pytest.mark.parametrize(
    ("boards", "winners", "decider"),
    [
        (((3, 0, 0), (2, 9, 9), (2, 0, 0)), (0,), Decider.OBJECTIVES),
        (((2, 4, 0), (2, 5, 0), (1, 9, 0)), (1,), Decider.RESOURCES),
        (((2, 5, 1), (2, 5, 2), (0, 0, 0)), (1,), Decider.POWERS),
        (((2, 5, 1), (2, 5, 1), (2, 4, 3)), (0, 1), Decider.SHARED),
    ],
)
def test_tie_breaks(
    boards: tuple[tuple[int, int, int], ...], winners: tuple[int, ...], decider: Decider
) -> None:
    result = outcome(finished(*boards))
    assert result.winners == winners and result.decided_by is decider


def test_random_games_end_within_13_turns_for_every_player_count() -> None:
    for players in (2, 3, 4, 5):
        state = AkelarreState.new_game(build_rules(players), seed=players)
        total = sum(state.supply)  # conserved: the board, the Well and the players share it
        rng = random.Random(players)
        while not state.is_over:
            state = apply(state, rng.choice(list(legal_actions(state))))
            held = sum(sum(b.resources) for b in state.seats)
            assert sum(state.supply) + sum(state.well) + held == total
        assert state.turn <= 13


@pytest.mark.parametrize(
    "profile",
    [(WELL, WELL, EARTH, AIR), (EARTH, AIR, FIRE), (EARTH, AIR, FIRE, WATER, EARTH), (9, 0, 0, 0)],
)
def test_a_turn_needs_one_destination_a_seat_and_at_most_one_at_the_well(
    profile: tuple[int, ...],
) -> None:
    # rules/akelarre.md: the Well takes one Sorginak a turn
    with pytest.raises(IllegalActionError):
        resolve_turn(position(4), profile)


# -- setup, parameters and the rarer branches of a turn ---------------------------------------


def test_destination_names_and_the_well_is_destination_4() -> None:
    # Module conventions: locations 0-3 are earth, water, air, fire (K1); destination 4 is the
    # Well; ABSENT (analysis only) is named "absent". Any other name is refused.
    names = ("earth", "water", "air", "fire", "well")
    assert [parse_destination(name) for name in names] == [EARTH, WATER, AIR, FIRE, 4]
    assert WELL == 4 and [destination_name(d) for d in range(5)] == list(names)
    assert destination_name(ABSENT) == "absent"
    with pytest.raises(InputError, match="unknown destination 'lava'"):
        parse_destination("lava")


def rules_for(players: int, **changes: int) -> AkelarreRules:
    amounts = (1, 4, 3) if players <= 3 else (1, 3, 4, 3, 2, 1)
    return AkelarreRules(
        players=players,
        payouts=PayoutTable(amounts),
        supply=(15, 15, 15, 15),
        objectives=(UNREACHABLE,),
        powers=(),
        **changes,
    )


@pytest.mark.parametrize(
    ("players", "changes"),
    [(1, {}), (6, {}), (3, {"sabba_bonus": -1}), (3, {"turns": 0})],
)
def test_rules_outside_the_game_are_refused(players: int, changes: dict[str, int]) -> None:
    # Components: 2-5 players; K4 sabba_bonus is at least 0; a game has at least one turn.
    with pytest.raises(InputError):
        rules_for(players, **changes)


def test_smallest_accepted_rules_and_the_default_sabba_bonus() -> None:
    # 2 and 5 players, a one-turn game, a zero Sabba bonus are all valid.
    assert rules_for(2).seats == 3 and rules_for(5).seats == 5
    assert rules_for(3, turns=1, sabba_bonus=0).rite_amount(1, True) == 1
    # K4: alone at a location gives 1 + sabba_bonus, the bonus being 1 unless changed.
    assert rules_for(3).rite_amount(1, True) == 2 and rules_for(3).rite_amount(1, False) == 1


def test_the_game_lasts_13_turns() -> None:
    # Components: 13 turns, the turn marker runs 1-13; step 5 advances the marker and passes
    # the first-player token clockwise. Turn 12 is not the last.
    after, _ = resolve_turn(replace(position(3), turn=12), (WATER, EARTH, EARTH))
    assert not after.is_over and after.turn == 13 and after.first == 1


def test_setup_deals_the_public_then_one_private_per_seat() -> None:
    # Setup: the public objective and a private one per seat (the virtual player's too) come
    # from the one shuffled deck; every other card stays in the deck. 26 cards, 14 powers.
    for players, seats in ((2, 3), (3, 3), (4, 4), (5, 5)):
        state = AkelarreState.new_game(build_rules(players), seed=players)
        privates = [board.private for board in state.seats]
        dealt = [state.public, *privates, *state.objective_deck]
        assert len(privates) == seats and len(state.objective_deck) == 26 - 1 - seats
        assert sorted(dealt) == sorted(o.id for o in state.rules.objectives)
        assert len(state.power_deck) == 14


def test_setup_needs_one_objective_per_seat_and_the_public_one() -> None:
    cards = tuple(Objective(f"O{i}", (99, 99, 99, 99)) for i in range(5))
    # 4 players: 1 public + 4 private = 5 cards, an empty deck left.
    state = AkelarreState.new_game(build_rules(4, objectives=cards), seed=0)
    assert state.objective_deck == ()
    with pytest.raises(InputError, match="5 objectives are needed"):
        AkelarreState.new_game(build_rules(4, objectives=cards[:4]), seed=0)


@pytest.mark.parametrize(("players", "first"), [(2, 2), (3, 3), (4, -1)])
def test_the_first_player_must_be_a_sorginak(players: int, first: int) -> None:
    # The first-player token is held by a player, never the virtual one (seat 2 of 2 players).
    rules = build_rules(players)
    assert AkelarreState.new_game(rules, first=players - 1).first == players - 1
    with pytest.raises(InputError, match="first player must be a seat"):
        AkelarreState.new_game(rules, first=first)


def test_the_virtual_player_sends_to_seat_0_on_odd_turns_and_seat_1_on_even_turns() -> None:
    # Two players: "sends ... to the first Sorginak on odd turns, to the second on even turns".
    assert [virtual_target(turn) for turn in range(1, 14)] == [0, 1] * 6 + [0]
    state = AkelarreState.new_game(build_rules(2), seed=1)
    for turn in (3, 4, 13):
        moved = replace(state, turn=turn)
        assert {m.to for m in legal_actions(moved)} == {0 if turn % 2 else 1}


def test_only_the_virtual_players_choice_is_a_chance_node() -> None:
    # Two players: the virtual player "sends a random destination"; the Sorginak choose.
    state = AkelarreState.new_game(build_rules(2), seed=5)
    assert is_chance_node(state)
    state = apply(state, Message(EARTH, to=0))
    assert state.holder == 0 and not is_chance_node(state)
    assert not is_chance_node(position(3))
    assert not is_chance_node(replace(AkelarreState.new_game(build_rules(2)), phase="over"))


def test_refusals_name_the_rule_broken() -> None:
    virtual = AkelarreState.new_game(build_rules(2), seed=5)  # turn 1: the card goes to seat 0
    with pytest.raises(IllegalActionError, match="never goes to the Well"):
        apply(virtual, Message(WELL, to=0))
    # K8: on turn 1 the virtual player's card goes to seat 0.
    wrong = "message earth, to seat 1: the virtual player's card goes to seat 0 on turn 1"
    with pytest.raises(IllegalActionError, match=wrong):
        apply(virtual, Message(EARTH, to=1))
    # After a Well declaration, a location handed to a seat that already chose: the recipient
    # is what is wrong, not the Well.
    state = apply(position(3), Message(WELL, to=1))
    with pytest.raises(IllegalActionError, match="still to choose: 2"):
        apply(state, Message(EARTH, to=0))


def test_well_transfer_from_every_unchosen_location_with_anything_left() -> None:
    # Step 3, 4 players at water and fire (3 each): earth (its last 1) and air give 1 each.
    state = position(4, supply=(1, 15, 15, 15))
    after, report = resolve_turn(state, (WATER, FIRE, WATER, FIRE))
    assert report.well_transfer == (1, 0, 1, 0) and after.well == (1, 0, 1, 0)
    assert after.supply == (0, 9, 14, 9)


def test_the_well_rite_is_alone_and_without_a_sabba_power() -> None:
    # Step 2: the Sabba power is for a player alone at a location; the Well is not one. The
    # player at the Well takes all of it (here 2 air).
    state = replace(position(3), well=(0, 0, 2, 0))
    _, report = resolve_turn(state, (WELL, EARTH, EARTH))
    rite = next(r for r in report.rites if r.seat == 0)
    assert (rite.crowd, rite.sabba, rite.taken) == (1, False, (0, 0, 2, 0))


def test_an_absent_seat_has_no_rite_and_is_in_no_crowd() -> None:
    # resolve_turn's ABSENT: seat 0, the first player, sits out; seats 1 and 2 are two at
    # earth in a 3-player game, 4 each.
    _, report = resolve_turn(position(3), (ABSENT, EARTH, EARTH))
    assert [(r.seat, r.crowd, r.taken) for r in report.rites] == [
        (1, 2, (4, 0, 0, 0)),
        (2, 2, (4, 0, 0, 0)),
    ]


def test_completing_the_public_objective_replaces_it_from_the_top_of_the_deck() -> None:
    # Step 4: seat 0 holds 1 earth, is alone at earth (1 + Sabba 1 = 2) and so holds the 3
    # earth of the public objective: they go back to earth, the top card of the deck becomes
    # the public objective, seat 0 keeps its private one and draws a Power card.
    goal = Objective("E3", (3, 0, 0, 0))
    spares = (Objective("A", (99, 99, 99, 99)), Objective("B", (99, 99, 99, 99)))
    state = position(
        4,
        objectives=(goal, UNREACHABLE, *spares),
        privates=("X", None, None, None),
        deck=("A", "B"),
    )
    state = replace(
        state,
        public="E3",
        seats=(replace(state.seats[0], resources=(1, 0, 0, 0)), *state.seats[1:]),
    )
    after, report = resolve_turn(state, (EARTH, WATER, WATER, AIR))
    assert report.rites[0].completed == ("E3",)
    assert after.public == "A" and after.objective_deck == ("B",)
    board = after.seats[0]
    assert (board.private, board.completed, board.powers, board.resources) == (
        "X",
        ("E3",),
        ("P1",),
        (0, 0, 0, 0),
    )
    assert after.supply[EARTH] == 15 - 2 + 3


def test_objectives_in_play_are_the_private_then_the_public_one() -> None:
    # Step 4: "their private one or the public one".
    e3, w1 = Objective("E3", (3, 0, 0, 0)), Objective("W1", (0, 1, 0, 0))
    state = position(3, objectives=(e3, w1), privates=("E3", None, None))
    assert state.objectives_in_play(0) == (e3,) and state.objectives_in_play(1) == ()
    state = replace(state, public="W1")
    assert state.objectives_in_play(0) == (e3, w1) and state.objectives_in_play(1) == (w1,)


def test_positions_are_immutable_values() -> None:
    # The engine's states are immutable (module docstring); the balance solver keys a cache
    # by position, so equal positions must hash alike.
    state, again = position(3), position(3)
    assert state == again and hash(state) == hash(again)
    _, report = resolve_turn(state, (EARTH, EARTH, WATER))
    records = (
        state,
        state.seats[0],
        state.rules,
        state.rules.payouts,
        report,
        report.rites[0],
        UNREACHABLE,
        PowerCard("P1", "Migration", "reveal", ""),
        outcome(finished((1, 0, 0), (0, 0, 0))),
    )
    for record in records:
        with pytest.raises(FrozenInstanceError):
            record.turn = 0  # type: ignore[union-attr]
