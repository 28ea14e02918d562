"""One turn's destination game: hand-worked payoffs and equilibria, textbook games, nashpy.

Hand-worked positions give every seat a private objective of fire only (8 fire, out of reach in
one turn) and no public objective, so a seat's payoff is ½ · (fire taken) / 8 = fire / 16 (the
default valuation). The 2–3 player table gives 2 (1 + Sabba), 4, 3 fire for crowds of 1, 2, 3.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
import sympy

from asterion.models.akelarre import (
    DESTINATIONS,
    WELL,
    AkelarreState,
    Message,
    Objective,
    Sorginak,
    apply,
    first_chooser,
    legal_actions,
)
from asterion.models.akelarre_files import build_rules
from asterion.solver.akelarre_equilibria import (
    TurnGame,
    advise,
    is_equilibrium,
    mixed_equilibria_2p,
    mixed_equilibria_3p,
    pure_equilibria,
    pure_strategy,
    turn_game,
)

EARTH, WATER, AIR, FIRE = 0, 1, 2, 3
FIRE8 = Objective("F8", (0, 0, 0, 8))


def fire_position(players: int) -> AkelarreState:
    rules = build_rules(players, objectives=(FIRE8,))
    state = AkelarreState(
        seats=tuple(Sorginak(private="F8") for _ in range(rules.seats)),
        supply=(15, 15, 15, 15),
        well=(0, 0, 0, 0),
        public=None,
        objective_deck=(),
        power_deck=(),
        rules=rules,
    )
    return replace(state, holder=first_chooser(state))


def test_payoffs_are_exact_rationals_worked_by_hand() -> None:
    game = turn_game(fire_position(3))
    assert game.payoff((FIRE, FIRE, FIRE)) == (sympy.Rational(3, 16),) * 3
    assert game.payoff((FIRE, FIRE, EARTH)) == (sympy.Rational(1, 4),) * 2 + (0,)
    assert game.payoff((FIRE, WATER, WELL)) == (sympy.Rational(1, 8), 0, 0)
    # Two at the Well: the first in turn order (seat 0) goes, seat 2 sits out; seat 1 alone.
    assert game.payoff((WELL, FIRE, WELL)) == (0, sympy.Rational(1, 8), 0)


def test_fire_game_has_one_pure_equilibrium_everyone_at_fire() -> None:
    # Any profile with someone away from fire: that seat gets 0 and would get ≥ 3 fire by
    # joining (a crowd of at most 3). Everyone at fire: 3 each, leaving gives 0.
    assert pure_equilibria(turn_game(fire_position(3))) == [(FIRE, FIRE, FIRE)]


@pytest.mark.parametrize("players", [4, 5])
def test_fire_game_for_4_and_5_players(players: int) -> None:
    # 4–5 table: 3, 4, 3, 2 each for crowds 2–5, and a lone player 2: whoever is away from
    # fire with 0 gains by joining (any crowd pays at least 2), so only all-at-fire is stable.
    assert pure_equilibria(turn_game(fire_position(players))) == [(FIRE,) * players]


def test_two_players_average_over_the_virtual_player() -> None:
    # Both at fire; the virtual player is at fire with probability 1/4 (crowd 3: 3 each) and
    # elsewhere otherwise (crowd 2: 4 each): (1/4 · 3 + 3/4 · 4) / 16 = 15/64.
    game = turn_game(fire_position(2))
    assert game.payoff((FIRE, FIRE)) == (sympy.Rational(15, 64),) * 2


def handmade(
    players: int, utility: dict[tuple[int, ...], tuple[int, ...]], default: int = -10
) -> TurnGame:
    """A game over the five destinations with the given payoffs; every other profile pays
    ``default`` to each player that left the listed actions."""
    listed = [{profile[i] for profile in utility} for i in range(players)]
    table = {}
    for profile in product(DESTINATIONS, repeat=players):
        if profile in utility:
            table[profile] = tuple(Fraction(v) for v in utility[profile])
        else:
            table[profile] = tuple(
                Fraction(0 if a in listed[i] else default) for i, a in enumerate(profile)
            )
    return TurnGame(fire_position(players), tuple(range(players)), table)


def test_matching_pennies_has_only_the_half_half_equilibrium() -> None:
    pennies = {(a, b): (1, -1) if a == b else (-1, 1) for a in (0, 1) for b in (0, 1)}
    game = handmade(2, pennies)
    assert pure_equilibria(game) == []
    (found,) = mixed_equilibria_2p(game)
    half = sympy.Rational(1, 2)
    assert found.strategies == ((half, half, 0, 0, 0), (half, half, 0, 0, 0))
    assert found.values == (0, 0)


def test_the_first_at_the_well_takes_what_is_in_it() -> None:
    # 2 fire in the Well: seat 0 (first in turn order) goes and takes everything in it (rule
    # 4): 2 fire, 2/16. Seat 2, also at the Well, sits the turn out; seat 1 is alone at earth
    # (no fire). Someone chose the Well, so nothing moves into it (rule 3).
    game = turn_game(replace(fire_position(3), well=(0, 0, 0, 2)))
    assert game.payoff((WELL, EARTH, WELL)) == (sympy.Rational(1, 8), 0, 0)
    assert game.payoff((WELL, EARTH, EARTH)) == (sympy.Rational(1, 8), 0, 0)


def test_five_by_five_matching_needs_the_full_support() -> None:
    # The row player gets 1 when both pick the same destination, the column player -1: each
    # must leave the other indifferent over all five, so the only equilibrium is 1/5 each,
    # worth 1/5 to the row player (support size 5).
    game = handmade(
        2, {(a, b): (int(a == b), -int(a == b)) for a, b in product(DESTINATIONS, repeat=2)}
    )
    (found,) = mixed_equilibria_2p(game)
    fifth = sympy.Rational(1, 5)
    assert found.strategies == ((fifth,) * 5, (fifth,) * 5)
    assert found.values == (fifth, -fifth) and not found.is_pure


def test_a_solved_support_may_leave_a_destination_at_probability_zero() -> None:
    # Rows 0, 1 pay the row player 1 against column 0; against column 1 row 0 pays 1, row 1
    # pays 0. The column player gets 1 when matching the row (0-0 or 1-1). On supports
    # {0, 1} each: the row player is indifferent only if column 1 has probability 0, the
    # column player only if the rows are 1/2 each. Against column 0 both rows pay 1, and
    # against (1/2, 1/2) both columns pay 1/2: an equilibrium (one point of a continuum,
    # documented: listed with a destination of the solved support at probability 0).
    game = handmade(2, {(0, 0): (1, 1), (0, 1): (1, 0), (1, 0): (1, 0), (1, 1): (0, 1)})
    half = sympy.Rational(1, 2)
    listed = [e.strategies for e in mixed_equilibria_2p(game)]
    assert ((half, half, 0, 0, 0), (1, 0, 0, 0, 0)) in listed


def test_a_dominant_pure_equilibrium_is_pure() -> None:
    # Only destination 0 is listed for either player; anything else pays -10.
    (found,) = mixed_equilibria_2p(handmade(2, {(0, 0): (1, 1)}))
    assert found.strategies == ((1, 0, 0, 0, 0), (1, 0, 0, 0, 0)) and found.is_pure


def test_three_players_a_solved_support_beaten_outside_it_is_not_listed() -> None:
    # Players 0 and 1 play pennies on destinations 0, 1 (player 2's choice does not matter);
    # player 0 may also take destination 2 for a sure 1. The pennies point (1/2 each, value
    # 0 to player 0) solves the indifference equations on supports {0, 1}, but player 0
    # gains by going to 2: it is no equilibrium.
    utility = {}
    for a, b, c in product((0, 1, 2), (0, 1), DESTINATIONS):
        if a == 2:
            utility[(a, b, c)] = (1, 0, int(c == 0))
        else:
            utility[(a, b, c)] = ((2, -2) if a == b else (-2, 2)) + (int(c == 0),)
    game = handmade(3, utility)
    search = mixed_equilibria_3p(game, time_limit=30)
    half = sympy.Rational(1, 2)
    pennies = ((half, half, 0, 0, 0), (half, half, 0, 0, 0), (1, 0, 0, 0, 0))
    assert search.status.value == "optimal"
    assert pennies not in [e.strategies for e in search.equilibria]


def test_three_players_pennies_and_a_dominant_third() -> None:
    # Players 0 and 1 play matching pennies on destinations 0, 1 whatever player 2 does;
    # player 2 gets 1 at destination 0 and 0 elsewhere. The unique equilibrium: 1/2 each for
    # 0 and 1, player 2 at 0.
    utility = {}
    for a, b, c in product((0, 1), (0, 1), DESTINATIONS):
        utility[(a, b, c)] = ((1, -1) if a == b else (-1, 1)) + (int(c == 0),)
    game = handmade(3, utility)
    search = mixed_equilibria_3p(game, time_limit=30)
    assert search.status.value == "optimal"
    # supports of 1 or 2 of the 5 destinations: 5 + 10 = 15 per player, 15³ examined
    assert search.supports_examined == search.supports_total == 15**3
    half = sympy.Rational(1, 2)
    assert [e.strategies for e in search.equilibria] == [
        ((half, half, 0, 0, 0), (half, half, 0, 0, 0), (1, 0, 0, 0, 0))
    ]
    # pennies is worth 0 to each of its players; player 2 gets 1 at destination 0
    assert search.equilibria[0].values == (0, 0, 1)
    assert not search.equilibria[0].is_pure


def test_pure_equilibria_pass_the_exact_check_on_shipped_deals() -> None:
    for players in (2, 3, 4):
        game = turn_game(AkelarreState.new_game(build_rules(players), seed=11))
        for profile in pure_equilibria(game):
            assert is_equilibrium(game, pure_strategy(game, profile))
        # and every profile not listed has a player who gains by deviating
        listed = set(pure_equilibria(game))
        for profile in game.profiles:
            if profile not in listed:
                assert not is_equilibrium(game, pure_strategy(game, profile))


def test_advice_given_the_message_chain() -> None:
    # Seat 0 goes to fire and hands the card to seat 1. Seat 1 knows; seat 2 is still to
    # choose (5 destinations, equally likely). Fire: with seat 2 there (1/5) a crowd of 3
    # (3 fire), else 2 (4 fire): (3/5 + 16/5) / 16 = 19/80. Elsewhere nothing worth anything.
    state = apply(fire_position(3), Message(FIRE, to=1))
    advice = advise(state)
    assert advice.known == {0: FIRE}
    assert advice.values[FIRE] == Fraction(19, 80)
    assert all(advice.values[d] == 0 for d in (EARTH, WATER, AIR, WELL))
    assert advice.best == (FIRE,)


def test_advice_when_a_seat_chose_unseen_and_when_weighing_the_well() -> None:
    # Seat 0 to fire, handed to seat 1; seat 1 to earth, handed to seat 2. Seat 2 was told
    # earth; seat 0 chose unseen, so it is at one of the 4 locations (a Well is public): at
    # fire with chance 1/4 (a crowd of 2: 4 fire), else seat 2 is alone (2 fire).
    state = apply(apply(fire_position(3), Message(FIRE, to=1)), Message(EARTH, to=2))
    advice = advise(state)
    assert advice.known == {1: EARTH}
    assert advice.values[FIRE] == Fraction(1, 4) * Fraction(4, 16) + Fraction(3, 4) * Fraction(
        2, 16
    )
    # 2 fire in the Well; seat 0 hands its fire to seat 2, seat 1 (before seat 2 in turn
    # order) chooses last. Declaring the Well is public, so seat 1 cannot go there too:
    # seat 2 takes the 2 fire for sure, 1/8.
    state = apply(replace(fire_position(3), well=(0, 0, 0, 2)), Message(FIRE, to=2))
    assert advise(state).values[WELL] == Fraction(2, 16)


def test_advice_with_a_belief_about_a_seat_still_to_choose() -> None:
    # As test_advice_given_the_message_chain, but seat 2 is believed to go to fire for sure:
    # a crowd of 3 at fire, 3 fire, 3/16.
    state = apply(fire_position(3), Message(FIRE, to=1))
    assert advise(state, beliefs={2: {FIRE: Fraction(1)}}).values[FIRE] == Fraction(3, 16)


def test_the_turn_game_starts_before_any_message() -> None:
    with pytest.raises(ValueError, match="no message given yet"):
        turn_game(apply(fire_position(3), Message(FIRE, to=1)))


def test_is_equilibrium_wants_probability_vectors() -> None:
    # Destination 0 pays 1 to both, anything else -10: (0, 0) is the equilibrium, but a
    # "strategy" of weight 2 (sum 2) or with a negative weight is no probability vector.
    game = handmade(2, {(0, 0): (1, 1)})
    one = (Fraction(1), Fraction(0), Fraction(0), Fraction(0), Fraction(0))
    assert is_equilibrium(game, (one, one))
    assert not is_equilibrium(game, (tuple(2 * p for p in one), one))
    assert not is_equilibrium(game, ((Fraction(2), Fraction(-1), *one[2:]), one))


# -- nashpy, where it is installed -------------------------------------------------------------


def midgame(seed: int, turn: int) -> AkelarreState:
    """A two-player game played at random (seeded) up to the start of ``turn``."""
    state = AkelarreState.new_game(build_rules(2), seed=seed)
    rng = random.Random(seed)
    while state.turn < turn:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


@pytest.mark.filterwarnings("ignore:.*degenerate:RuntimeWarning")
@pytest.mark.parametrize(("seed", "turn"), [(0, 1), (3, 1), (2, 9), (4, 5), (8, 5), (12, 6)])
def test_two_player_equilibria_match_nashpy(seed: int, turn: int) -> None:
    nash = pytest.importorskip("nashpy")
    import numpy as np

    game = turn_game(midgame(seed, turn))
    a = np.array([[float(game.utility((r, c), 0)) for c in DESTINATIONS] for r in DESTINATIONS])
    b = np.array([[float(game.utility((r, c), 1)) for c in DESTINATIONS] for r in DESTINATIONS])
    theirs = {
        (tuple(np.round(x, 9)), tuple(np.round(y, 9)))
        for x, y in nash.Game(a, b).support_enumeration(tol=1e-12)
    }
    ours = {
        (
            tuple(round(float(p), 9) for p in e.strategies[0]),
            tuple(round(float(p), 9) for p in e.strategies[1]),
        )
        for e in mixed_equilibria_2p(game)
    }
    assert ours == theirs
    pure = {
        (tuple(float(d == r) for d in DESTINATIONS), tuple(float(d == c) for d in DESTINATIONS))
        for r, c in pure_equilibria(game)
    }
    assert pure <= theirs
